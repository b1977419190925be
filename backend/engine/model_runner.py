"""Sequences → tensors → logits: the KV pool, slot mapping, block tables, and paged attention.

This is the only module that turns scheduled sequences into tensors. A step's tokens are packed
into one flat batch (``input_ids: [T]``, ``positions: [T]``) and run through the model in a single
forward; the model hands every layer's attention to :class:`PagedAttention`, which writes the new
K/V into their slots and reads each sequence's context back through its block table.

Row order: decode tokens first, grouped into buckets of similar context length (so the padded
batched decode attention wastes little), then each prefill chunk. Per-step metadata (slots, gather
indices, masks) is built once and shared by all layers.

The pool is ``k_cache / v_cache: [layers, num_blocks, block_size, Hkv, D]``; per layer that is the
``[num_blocks, block_size, Hkv, D]`` layout of ``kernels`` (token t of a sequence lives in block
``block_table[t // block_size]`` at offset ``t % block_size``), so the Triton kernels can replace the
PyTorch attention below behind the same interface.

The KV dtype may differ from the model's (``--kv-cache-dtype``): an int8 pool comes with float32
scale pools ``k_scale / v_scale: [layers, num_blocks, block_size, Hkv]`` (symmetric per token and
head, :func:`kernels.quantize_kv_int8`); a float pool of another dtype stores rounded K/V. With a
converted pool every attention read, including a fresh prompt's attention to itself, goes through
the stored (quantised) K/V, the same as the ``kernels`` backend does.

Pure-decode steps may run through static, padded buffers and CUDA graphs
(:mod:`backend.engine.cuda_graphs`, ``--cuda-graphs``; kernels backend only).
"""

from __future__ import annotations

from collections.abc import Sequence as Seq

import torch
from torch.nn import functional as F

import kernels
from backend import attention_cpu
from backend.batch_invariance import attention_invariant
from backend.engine.cuda_graphs import DecodeGraphs, resolve_cuda_graphs
from backend.engine.memory import lazy_zeros
from backend.engine.scheduler import ScheduledSeq
from backend.engine.sequence import Sequence
from backend.engine.step_input import DecodeBucket, KernelMetadata, NativeMetadata, PrefillSpan, StepInput
from backend.fused_layers_cpu import FusedAttentionInputs
from backend.model import LlamaForCausalLM

# Prefill chunks over a cached prefix of at most this many rows (speculative verification, short
# follow-ups) are attended in place by the native backend; longer ones are compute-bound and keep SDPA.
_NATIVE_MAX_EXTEND = 16

# Decode buckets: a sequence joins the current bucket while the bucket's padded size stays within
# this factor of its real token count.
_BUCKET_SLACK = 1.3


class PagedAttention:
    """The model's :class:`~backend.model.AttentionBackend` over the paged pool (PyTorch, any device).

    ``k_scale / v_scale: [L, NB, BS, Hkv]`` float32 accompany an int8 pool (None otherwise); K/V are
    quantised on store and dequantised on gather."""

    def __init__(self, k_cache: torch.Tensor, v_cache: torch.Tensor, num_heads: int,
                 k_scale: torch.Tensor | None = None, v_scale: torch.Tensor | None = None) -> None:
        self.k_cache, self.v_cache = k_cache, v_cache  # [L, NB, BS, Hkv, D]
        self.k_scale, self.v_scale = k_scale, v_scale  # [L, NB, BS, Hkv] float32 (int8 pool) or None
        if (k_cache.dtype == torch.int8) != (k_scale is not None and v_scale is not None):
            raise ValueError("k_scale/v_scale: required with an int8 KV pool and only then")
        _, _, self.block_size, self.num_kv_heads, self.head_dim = k_cache.shape
        self.num_heads = num_heads
        self.groups = num_heads // self.num_kv_heads
        self.step: StepInput | None = None
        # each layer's pool as rows of slots: [NB * BS, Hkv, D] (views made once, not per store)
        self._k_slots = [pool.view(-1, self.num_kv_heads, self.head_dim) for pool in k_cache]
        self._v_slots = [pool.view(-1, self.num_kv_heads, self.head_dim) for pool in v_cache]
        # gather workspaces, reused across layers and steps (fresh large allocations page-fault every time)
        self._k_ws = torch.empty(0, dtype=k_cache.dtype, device=k_cache.device)
        self._v_ws = torch.empty(0, dtype=k_cache.dtype, device=k_cache.device)

    def _gather(self, pool: torch.Tensor, block_ids: torch.Tensor, key: bool) -> torch.Tensor:
        """pool: [NB, BS, Hkv, D] → its blocks ``block_ids`` in a reused workspace: [n, BS, Hkv, D]."""
        shape = (block_ids.shape[0], *pool.shape[1:])
        numel = shape[0] * shape[1] * shape[2] * shape[3]
        ws = self._k_ws if key else self._v_ws
        if ws.numel() < numel:
            ws = torch.empty(int(numel * 1.25), dtype=pool.dtype, device=pool.device)
            if key:
                self._k_ws = ws
            else:
                self._v_ws = ws
        out = ws[:numel].view(shape)
        torch.index_select(pool, 0, block_ids, out=out)
        return out

    def _store(self, layer: int, x: torch.Tensor, slots: torch.Tensor, key: bool) -> None:
        """x: [T, Hkv, D] → the layer's pool at ``slots: [T]`` (quantised or cast to the pool's dtype)."""
        rows = (self._k_slots if key else self._v_slots)[layer]  # [NB * BS, Hkv, D]
        scale = self.k_scale if key else self.v_scale
        if scale is not None:
            xq, xs = kernels.quantize_kv_int8(x)  # [T, Hkv, D] int8, [T, Hkv] float32
            rows.index_copy_(0, slots, xq)
            scale[layer].view(-1, self.num_kv_heads).index_copy_(0, slots, xs)
        else:
            rows.index_copy_(0, slots, x.to(rows.dtype))

    def _read(self, layer: int, block_ids: torch.Tensor, key: bool, dtype: torch.dtype) -> torch.Tensor:
        """The layer's blocks ``block_ids: [n]`` as ``dtype``: [n, BS, Hkv, D] (dequantised / cast if needed)."""
        pool = (self.k_cache if key else self.v_cache)[layer]  # [NB, BS, Hkv, D]
        x = self._gather(pool, block_ids, key)
        scale = self.k_scale if key else self.v_scale
        if scale is not None:
            return kernels.dequantize_kv_int8(x, scale[layer].index_select(0, block_ids), dtype)  # scales [n, BS, Hkv]
        return x if x.dtype == dtype else x.to(dtype)

    def attend(self, layer: int, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        """q: [T, Hq, D], k/v: [T, Hkv, D] → [T, Hq, D]; stores k/v in their slots first."""
        step = self.step
        assert step is not None, "attend() outside a step"
        hkv, d, g = self.num_kv_heads, self.head_dim, self.groups
        self._store(layer, k, step.slot_mapping, True)
        self._store(layer, v, step.slot_mapping, False)
        out = torch.empty_like(q)  # [T, Hq, D]
        for bucket in step.decode_buckets:
            rows = bucket.end - bucket.start
            length = bucket.num_blocks * self.block_size
            keys = self._read(layer, bucket.block_ids, True, q.dtype).view(rows, length, hkv, d).transpose(1, 2)
            values = self._read(layer, bucket.block_ids, False, q.dtype).view(rows, length, hkv, d).transpose(1, 2)
            query = q[bucket.start:bucket.end].view(rows, hkv, g, d)  # the G heads of a KV head as queries
            o = F.scaled_dot_product_attention(query, keys, values, attn_mask=bucket.mask)  # [rows, Hkv, G, D]
            out[bucket.start:bucket.end] = o.reshape(rows, hkv * g, d)
        for span in step.prefills:
            out[span.start:span.end] = self._attend_prefill(layer, q, k, v, span)
        return out

    def _attend_prefill(self, layer: int, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                        span: PrefillSpan) -> torch.Tensor:
        """The rows of one prefill chunk through SDPA (its cached context gathered first). → [n, Hq, D]"""
        hkv, d = self.num_kv_heads, self.head_dim
        # 4-D inputs with enable_gqa take PyTorch's fused (flash) CPU kernel; 3-D ones fall back to math
        query = q[span.start:span.end].transpose(0, 1)[None]  # [1, Hq, n, D]
        if span.block_ids is None:  # the whole context is this chunk: causal over its own K/V
            keys = k[span.start:span.end].transpose(0, 1)[None]  # [1, Hkv, n, D]
            values = v[span.start:span.end].transpose(0, 1)[None]
            o = F.scaled_dot_product_attention(query, keys, values, is_causal=True, enable_gqa=True)
        else:
            ctx = span.context_len
            keys = self._read(layer, span.block_ids, True, q.dtype).view(-1, hkv, d)[:ctx].transpose(0, 1)[None]
            values = self._read(layer, span.block_ids, False, q.dtype).view(-1, hkv, d)[:ctx].transpose(0, 1)[None]
            o = F.scaled_dot_product_attention(query, keys, values, attn_mask=span.mask, enable_gqa=True)
        return o[0].transpose(0, 1)  # [n, Hq, D]


class NativePagedAttention(PagedAttention):
    """Decode rows and short extends read K/V in place through :mod:`backend.attention_cpu` (CPU, float32 or
    bfloat16 pool); fresh prompts and long chunks over a cached prefix keep the SDPA path above."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if attention_cpu.load_paged_attention() is None:
            raise ValueError("the native attention backend needs a C++ compiler to build its CPU kernel; "
                             "use --attention-backend torch")
        self.scale = self.head_dim ** -0.5
        self._paged_attention = attention_cpu.load_paged_attention()  # the operator: q must be contiguous

    def attend(self, layer: int, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        """q: [T, Hq, D], k/v: [T, Hkv, D] → [T, Hq, D]; stores k/v in their slots first."""
        step = self.step
        assert step is not None and step.native is not None, "attend() outside a step"
        meta = step.native
        self._store(layer, k, step.slot_mapping, True)
        self._store(layer, v, step.slot_mapping, False)
        k_pool, v_pool = self.k_cache[layer], self.v_cache[layer]  # [NB, BS, Hkv, D]

        def native(start: int, end: int) -> torch.Tensor:  # rows start:end → [n, Hq, D] in q's dtype
            o = attention_cpu.paged_attention(q[start:end].float(), k_pool, v_pool, meta.tables,
                                              meta.row_seq[start:end], meta.row_len[start:end], self.scale)
            return o.to(q.dtype)

        nd = meta.num_decode
        if not step.prefills:  # decode rows only: the whole batch in one call
            if q.dtype == torch.float32:
                return self._paged_attention(q.contiguous(), k_pool, v_pool, meta.tables, meta.row_seq, meta.row_len,
                                             self.scale)
            return native(0, nd)
        out = torch.empty_like(q)  # [T, Hq, D]
        if nd:
            out[:nd] = native(0, nd)
        for span in step.prefills:
            out[span.start:span.end] = (native(span.start, span.end) if span.native
                                        else self._attend_prefill(layer, q, k, v, span))
        return out

    def fused_inputs(self) -> FusedAttentionInputs | None:
        """The step's attention inputs for :mod:`backend.fused_layers_cpu`, where every row of it attends natively
        (decode rows and native spans: always, with batch invariance) over a float32 or bfloat16 pool; else None."""
        step = self.step
        if (step is None or step.native is None or self.k_scale is not None
                or self.k_cache.dtype not in (torch.float32, torch.bfloat16)
                or any(not span.native for span in step.prefills)):
            return None
        meta = step.native
        return FusedAttentionInputs(self.k_cache, self.v_cache, step.slot_mapping, meta.tables, meta.row_seq,
                                    meta.row_len, self.scale)


class KernelPagedAttention(PagedAttention):
    """The same backend through :mod:`kernels` (Triton on CUDA, its PyTorch references elsewhere)."""

    def attend(self, layer: int, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        step = self.step
        assert step is not None and step.kernel is not None, "attend() outside a step"
        meta = step.kernel
        k_pool, v_pool = self.k_cache[layer], self.v_cache[layer]  # [NB, BS, Hkv, D]
        scales = {}
        if self.k_scale is not None and self.v_scale is not None:
            scales = {"k_scale": self.k_scale[layer], "v_scale": self.v_scale[layer]}  # [NB, BS, Hkv] each
        kernels.store_kv_cache(k, v, k_pool, v_pool, step.slot_mapping, **scales)
        nd = meta.num_decode
        parts = []
        if nd:
            parts.append(kernels.paged_decode_attention(q[:nd], k_pool, v_pool, meta.decode_tables, meta.decode_lens,
                                                        **scales))
        if q.shape[0] > nd:
            parts.append(kernels.paged_prefill_attention(q[nd:], k_pool, v_pool, meta.prefill_tables, meta.prefill_cu,
                                                         meta.prefill_lens, max_seqlen_q=meta.prefill_max_q, **scales))
        return parts[0] if len(parts) == 1 else torch.cat(parts)


def resolve_attention_backend(name: str, device: torch.device, kv_cache_dtype: torch.dtype | None = None) -> str:
    """``auto`` → ``kernels`` on CUDA when Triton is usable; on CPU ``native`` (K/V read in place by
    :mod:`backend.attention_cpu`) when its kernel builds here and the pool is float32 or bfloat16; else ``torch``."""
    if name not in ("auto", "torch", "kernels", "native"):
        raise ValueError(f"attention backend must be auto, torch, kernels or native, got {name!r}")
    native_pool = kv_cache_dtype in (None, torch.float32, torch.bfloat16)
    if name == "native" and (device.type != "cpu" or not native_pool):
        raise ValueError(f"the native attention backend runs on CPU over a float32 or bfloat16 KV pool, "
                         f"not {device.type} / {kv_cache_dtype}")
    if name != "auto":
        return name
    if device.type == "cuda":
        try:
            if kernels.triton_available():
                return "kernels"
        except ImportError:
            pass
    if device.type == "cpu" and native_pool and attention_cpu.load_paged_attention() is not None:
        return "native"
    return "torch"


class ModelRunner:
    """Owns the KV pool and runs one forward per engine step."""

    def __init__(self, model: LlamaForCausalLM, num_blocks: int, block_size: int, dtype: torch.dtype,
                 device: torch.device, attention_backend: str = "auto", kv_cache_dtype: torch.dtype | None = None,
                 cuda_graphs: str = "off", max_num_seqs: int = 64, max_model_len: int = 2048,
                 batch_invariant: bool = False) -> None:
        """``dtype``: the model's activations; ``kv_cache_dtype``: the pool's (default: ``dtype``; int8 adds
        float32 scale pools); ``cuda_graphs``: on / off / auto for pure-decode steps (see
        :mod:`backend.engine.cuda_graphs`; buffers sized by ``max_num_seqs`` and ``max_model_len``);
        ``batch_invariant``: every prefill row attends through the native kernel, as decode rows do, where
        that backend runs (:mod:`backend.batch_invariance`)."""
        cfg = model.config
        self.model = model
        self.num_blocks, self.block_size = num_blocks, block_size
        self.device = device
        self.kv_cache_dtype = kv_cache_dtype or dtype
        self.attention_backend = resolve_attention_backend(attention_backend, device, kv_cache_dtype or dtype)
        if self.attention_backend == "kernels" and self.kv_cache_dtype not in (dtype, torch.int8):
            raise ValueError(f"the kernels attention backend keeps K/V in the model dtype ({dtype}) or int8, "
                             f"not {self.kv_cache_dtype}; use --attention-backend torch or another --kv-cache-dtype")
        shape = (cfg.num_layers, num_blocks, block_size, cfg.num_kv_heads, cfg.head_dim)
        self.k_scale: torch.Tensor | None = None
        self.v_scale: torch.Tensor | None = None
        with torch.inference_mode():
            # lazily zeroed on CPU: resident memory grows with the blocks written, not with the pool's size
            self.k_cache = lazy_zeros(shape, self.kv_cache_dtype, device)  # [L, NB, BS, Hkv, D]
            self.v_cache = lazy_zeros(shape, self.kv_cache_dtype, device)
            if self.kv_cache_dtype == torch.int8:
                self.k_scale = lazy_zeros(shape[:-1], torch.float32, device)  # [L, NB, BS, Hkv]
                self.v_scale = lazy_zeros(shape[:-1], torch.float32, device)
        # a converted (quantised / recast) pool is always read back, even by a fresh prompt's own tokens
        self.reads_stored_kv = self.kv_cache_dtype != dtype
        self.invariant_attention = attention_invariant(batch_invariant, self.attention_backend)
        backend_cls = {"kernels": KernelPagedAttention, "native": NativePagedAttention}.get(
            self.attention_backend, PagedAttention)
        self.attention = backend_cls(self.k_cache, self.v_cache, cfg.num_heads, self.k_scale, self.v_scale)
        self._offsets = torch.arange(block_size)  # [BS] (CPU: metadata is built on the host)
        self.graphs: DecodeGraphs | None = None
        if resolve_cuda_graphs(cuda_graphs, device, self.attention_backend):
            self.graphs = DecodeGraphs(model, self.attention, max_num_seqs, -(-max_model_len // block_size), device)

    @property
    def kv_cache_bytes(self) -> int:
        """Bytes actually allocated for the K and V pools (and their int8 scales)."""
        total = self.k_cache.numel() * self.k_cache.element_size() * 2
        if self.k_scale is not None:
            total += self.k_scale.numel() * self.k_scale.element_size() * 2
        return total

    # ------------------------------------------------------------------ inputs

    def _slots(self, table: list[int], start: int, end: int) -> torch.Tensor:
        """Flat slots of positions ``start:end`` of a sequence with block table ``table``. → [end - start]"""
        bs = self.block_size
        first, last = start // bs, (end - 1) // bs
        blocks = torch.tensor(table[first:last + 1], dtype=torch.int64)  # [nb]
        slots = (blocks[:, None] * bs + self._offsets[None, :]).view(-1)  # [nb * BS]
        return slots[start - first * bs:end - first * bs]

    def prepare(self, scheduled: Seq[ScheduledSeq]) -> StepInput:
        """Pack the scheduled work into flat tensors and per-step attention metadata."""
        bs = self.block_size
        decodes = [s.seq for s in scheduled if s.num_tokens == 1 and s.samples and s.seq.num_computed > 0]
        decode_ids = {seq.seq_id for seq in decodes}
        prefills = [s for s in scheduled if s.seq.seq_id not in decode_ids]
        decodes.sort(key=lambda seq: seq.num_computed)  # ascending context length → tight buckets

        ids: list[int] = []
        positions: list[int] = []
        slot_parts: list[torch.Tensor] = []
        sample_rows: list[int] = []
        sample_seqs: list[Sequence] = []
        buckets: list[DecodeBucket] = []

        # decode rows: one token each at position num_computed
        dec_slots: list[int] = []
        for row, seq in enumerate(decodes):
            pos = seq.num_computed
            ids.append(seq.token_ids[pos])
            positions.append(pos)
            dec_slots.append(seq.block_table[pos // bs] * bs + pos % bs)
            sample_rows.append(row)
            sample_seqs.append(seq)
        native = self.attention_backend == "native"
        extends: list[tuple[Sequence, int, int]] = []  # native prefill spans: (seq, first position, rows)
        if decodes:
            slot_parts.append(torch.tensor(dec_slots, dtype=torch.int64))
            if not native:
                buckets = self._decode_buckets(decodes)

        # prefill rows: a chunk of each sequence
        spans: list[PrefillSpan] = []
        row = len(decodes)
        for item in prefills:
            seq, n = item.seq, item.num_tokens
            start = seq.num_computed
            end = start + n
            ids.extend(item.token_ids())  # the chunk, or the last token + draft tokens (speculation)
            positions.extend(range(start, end))
            slot_parts.append(self._slots(seq.block_table, start, end))
            if self.invariant_attention or (native and n <= _NATIVE_MAX_EXTEND and (start > 0 or self.reads_stored_kv)):
                spans.append(PrefillSpan(row, row + n, end, None, None, native=True))
                extends.append((seq, start, n))
            elif start == 0 and not self.reads_stored_kv:
                spans.append(PrefillSpan(row, row + n, end, None, None))
            else:
                nblocks = -(-end // bs)
                block_ids = torch.tensor(seq.block_table[:nblocks], dtype=torch.int64, device=self.device)
                mask = torch.ones(n, end, dtype=torch.bool, device=self.device).tril(diagonal=start)  # [n, ctx]
                spans.append(PrefillSpan(row, row + n, end, block_ids, mask))
            row += n
            if item.samples:  # a verified draft needs every row's logits: [row - 1 - num_draft, row)
                sample_rows.extend(range(row - item.num_logits, row))
                sample_seqs.append(seq)

        dev = self.device
        kernel = self._kernel_metadata(decodes, prefills) if self.attention_backend == "kernels" else None
        native_meta = self._native_metadata(decodes, extends, spans, len(ids)) if native else None
        return StepInput(
            input_ids=torch.tensor(ids, dtype=torch.int64, device=dev),
            positions=torch.tensor(positions, dtype=torch.int64, device=dev),
            slot_mapping=torch.cat(slot_parts).to(dev),
            logits_indices=torch.tensor(sample_rows, dtype=torch.int64, device=dev),
            sample_seqs=sample_seqs,
            decode_buckets=buckets,
            prefills=spans,
            kernel=kernel,
            native=native_meta,
        )

    def _native_metadata(self, decodes: list[Sequence], extends: list[tuple[Sequence, int, int]],
                         spans: list[PrefillSpan], total_rows: int) -> NativeMetadata:
        """Block tables (only the blocks each row can see) and per-row table index / visible length."""
        bs = self.block_size
        seqs = [(seq, seq.num_computed + 1) for seq in decodes] + [(seq, start + n) for seq, start, n in extends]
        width = max((-(-end // bs) for _, end in seqs), default=1)
        flat: list[int] = []
        for seq, end in seqs:
            used = -(-end // bs)
            flat.extend(seq.block_table[:used])
            flat.extend([0] * (width - used))
        row_seq = list(range(len(decodes)))
        row_len = [seq.num_computed + 1 for seq in decodes]
        j = len(decodes)
        native_spans = iter(extends)
        for span in spans:
            rows = span.end - span.start
            if span.native:
                _, start, _ = next(native_spans)
                row_seq.extend([j] * rows)
                row_len.extend(range(start + 1, start + rows + 1))  # causal: row i sees start + i + 1 keys
                j += 1
            else:
                row_seq.extend([0] * rows)
                row_len.extend([0] * rows)
        assert len(row_seq) == total_rows
        return NativeMetadata(
            num_decode=len(decodes),
            tables=torch.tensor(flat or [0], dtype=torch.int32).view(max(len(seqs), 1), width),
            row_seq=torch.tensor(row_seq, dtype=torch.int32),
            row_len=torch.tensor(row_len, dtype=torch.int32),
        )

    def _kernel_metadata(self, decodes: list[Sequence], prefills: list[ScheduledSeq]) -> KernelMetadata:
        def tables(rows: list[list[int]]) -> torch.Tensor:
            width = max((len(r) for r in rows), default=0) or 1
            return torch.tensor([r + [0] * (width - len(r)) for r in rows] or [[0]], dtype=torch.int32)[:len(rows)]

        dev = self.device
        cu = [0]
        for item in prefills:
            cu.append(cu[-1] + item.num_tokens)
        return KernelMetadata(
            num_decode=len(decodes),
            decode_tables=tables([seq.block_table for seq in decodes]).to(dev),
            decode_lens=torch.tensor([seq.num_computed + 1 for seq in decodes], dtype=torch.int32).to(dev),
            prefill_tables=tables([item.seq.block_table for item in prefills]).to(dev),
            prefill_cu=torch.tensor(cu, dtype=torch.int32).to(dev),
            prefill_lens=torch.tensor([item.seq.num_computed + item.num_tokens for item in prefills],
                                      dtype=torch.int32).to(dev),
            prefill_max_q=max((item.num_tokens for item in prefills), default=0),
        )

    def _decode_buckets(self, decodes: list[Sequence]) -> list[DecodeBucket]:
        """Group decode rows (sorted by context) so padding stays within ``_BUCKET_SLACK``."""
        bs = self.block_size
        lengths = [seq.num_computed + 1 for seq in decodes]  # context including this step's token
        groups: list[tuple[int, int]] = []
        start, real = 0, 0
        for i, length in enumerate(lengths):
            padded = -(-length // bs) * bs * (i - start + 1)
            if i > start and padded > _BUCKET_SLACK * (real + length):
                groups.append((start, i))
                start, real = i, 0
            real += length
        groups.append((start, len(lengths)))
        buckets = []
        for a, b in groups:
            nblocks = -(-lengths[b - 1] // bs)
            table = [seq.block_table[:nblocks] + [0] * (nblocks - min(nblocks, len(seq.block_table)))
                     for seq in decodes[a:b]]
            block_ids = torch.tensor(table, dtype=torch.int64).view(-1)
            lens = torch.tensor(lengths[a:b], dtype=torch.int64)
            mask = None
            if int(lens.min()) != nblocks * bs:
                mask = (torch.arange(nblocks * bs)[None, :] < lens[:, None])[:, None, None, :]  # [rows,1,1,L]
                mask = mask.to(self.device)
            buckets.append(DecodeBucket(a, b, nblocks, block_ids.to(self.device), mask))
        return buckets

    # ------------------------------------------------------------------ run

    @torch.inference_mode()
    def execute(self, scheduled: Seq[ScheduledSeq]) -> tuple[torch.Tensor, list[Sequence]]:
        """Run one forward over the scheduled tokens → (fp32 logits [N, vocab], their sequences).

        A sequence verifying ``num_draft`` speculative tokens has ``num_draft + 1`` consecutive rows."""
        step = self.prepare(scheduled)
        if self.graphs is not None and self.graphs.supports(step):
            hidden = self.graphs.run(step)  # [T, H] from the static, padded decode buffers
        else:
            self.attention.step = step
            try:
                hidden = self.model(step.input_ids, step.positions, self.attention)  # [T, H]
            finally:
                self.attention.step = None
        if not step.sample_seqs:
            return hidden.new_empty((0, self.model.config.vocab_size), dtype=torch.float32), []
        logits = self.model.compute_logits(hidden.index_select(0, step.logits_indices))  # [N, V]
        return logits, step.sample_seqs

    @torch.inference_mode()
    def copy_blocks(self, pairs: Seq[tuple[int, int]]) -> None:
        """Copy the K/V of block ``src`` into block ``dst`` for each pair, in every layer."""
        if not pairs:
            return
        src = torch.tensor([p[0] for p in pairs], dtype=torch.int64, device=self.device)
        dst = torch.tensor([p[1] for p in pairs], dtype=torch.int64, device=self.device)
        self.k_cache[:, dst] = self.k_cache[:, src]
        self.v_cache[:, dst] = self.v_cache[:, src]
        if self.k_scale is not None and self.v_scale is not None:
            self.k_scale[:, dst] = self.k_scale[:, src]
            self.v_scale[:, dst] = self.v_scale[:, src]

"""End to end: a tiny random Llama (2 layers, hidden 128) built only from ``kernels.*`` ops.

Its paged forward (prefill, chunked extend, decode) with Triton ops (interpreted) must equal the
same forward with reference ops, and the reference forward must equal a dense, cache-free forward.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import torch
import torch.nn.functional as F

import kernels
from tests.kernels.helpers import requires_triton, seeded_generator

VOCAB, HIDDEN, LAYERS, HQ, HK, D, INTER, EPS, THETA = 256, 128, 2, 2, 1, 64, 256, 1e-5, 10000.0
BLOCK_SIZE, NUM_BLOCKS, MAX_POS = 4, 24, 64


@dataclass
class Weights:
    embed: torch.Tensor  # [V, H]
    w_in: list[torch.Tensor]  # [H]
    w_post: list[torch.Tensor]  # [H]
    w_qkv: list[torch.Tensor]  # [(HQ + 2HK) * D, H]
    w_o: list[torch.Tensor]  # [H, HQ * D]
    w_gate_up: list[torch.Tensor]  # [2I, H]
    w_down: list[torch.Tensor]  # [H, I]
    w_final: torch.Tensor  # [H]

    def to(self, dtype: torch.dtype) -> Weights:
        conv = {k: (v.to(dtype) if isinstance(v, torch.Tensor) else [t.to(dtype) for t in v]) for k, v in vars(self).items()}
        return Weights(**conv)


def make_weights(seed: int = 0) -> Weights:
    g = seeded_generator(seed)

    def r(*shape: int, std: float) -> torch.Tensor:
        return torch.randn(*shape, generator=g) * std

    return Weights(
        embed=r(VOCAB, HIDDEN, std=1.0),
        w_in=[1.0 + r(HIDDEN, std=0.1) for _ in range(LAYERS)],
        w_post=[1.0 + r(HIDDEN, std=0.1) for _ in range(LAYERS)],
        w_qkv=[r((HQ + 2 * HK) * D, HIDDEN, std=0.15) for _ in range(LAYERS)],
        w_o=[r(HIDDEN, HQ * D, std=0.1) for _ in range(LAYERS)],
        w_gate_up=[r(2 * INTER, HIDDEN, std=0.1) for _ in range(LAYERS)],
        w_down=[r(HIDDEN, INTER, std=0.1) for _ in range(LAYERS)],
        w_final=1.0 + r(HIDDEN, std=0.1),
    )


@dataclass
class Step:
    """One engine step: the tensors a model runner would build."""

    tokens: torch.Tensor  # [T] int64
    positions: torch.Tensor  # [T] int64
    slot_mapping: torch.Tensor  # [T] int64
    block_tables: torch.Tensor  # [B, max_blocks] int32
    context_lens: torch.Tensor  # [B] int32 (after this step)
    cu_seqlens_q: torch.Tensor  # [B + 1] int32
    decode: bool


class PagedKV:
    def __init__(self, dtype: torch.dtype, quantized: bool) -> None:
        cdt = torch.int8 if quantized else dtype
        shape = (NUM_BLOCKS, BLOCK_SIZE, HK, D)
        self.k = [torch.zeros(shape, dtype=cdt) for _ in range(LAYERS)]
        self.v = [torch.zeros(shape, dtype=cdt) for _ in range(LAYERS)]
        self.ks = [torch.zeros(shape[:3]) if quantized else None for _ in range(LAYERS)]
        self.vs = [torch.zeros(shape[:3]) if quantized else None for _ in range(LAYERS)]


def paged_forward(w: Weights, step: Step, kv: PagedKV, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    """Logits [T, V] (fp32) for the step's tokens; writes their K/V into ``kv``."""
    t = step.tokens.shape[0]
    x = w.embed[step.tokens]  # [T, H]
    residual = None
    for layer in range(LAYERS):
        if residual is None:
            h, residual = kernels.rms_norm(x, w.w_in[layer], EPS), x
        else:
            h, residual = kernels.fused_add_rms_norm(x, residual, w.w_in[layer], EPS)
        qkv = h @ w.w_qkv[layer].T  # [T, (HQ + 2HK) * D]
        q = qkv[:, : HQ * D].view(t, HQ, D)  # strided views, as a fused projection gives them
        k = qkv[:, HQ * D : (HQ + HK) * D].view(t, HK, D)
        v = qkv[:, (HQ + HK) * D :].view(t, HK, D)
        q, k = kernels.rotary_embedding(q, k, step.positions, cos, sin)
        kernels.store_kv_cache(k, v, kv.k[layer], kv.v[layer], step.slot_mapping,
                               k_scale=kv.ks[layer], v_scale=kv.vs[layer])
        common = dict(k_scale=kv.ks[layer], v_scale=kv.vs[layer])
        if step.decode:
            o = kernels.paged_decode_attention(q, kv.k[layer], kv.v[layer], step.block_tables, step.context_lens,
                                               **common)  # [B, HQ, D]
        else:
            o = kernels.paged_prefill_attention(q, kv.k[layer], kv.v[layer], step.block_tables, step.cu_seqlens_q,
                                                step.context_lens, **common)  # [T, HQ, D]
        x = o.reshape(t, HQ * D) @ w.w_o[layer].T  # [T, H]
        h, residual = kernels.fused_add_rms_norm(x, residual, w.w_post[layer], EPS)
        x = kernels.silu_and_mul(h @ w.w_gate_up[layer].T) @ w.w_down[layer].T  # [T, H]
    out, _ = kernels.fused_add_rms_norm(x, residual, w.w_final, EPS)
    return (out @ w.embed.T).float()  # [T, V]


def dense_forward(w: Weights, tokens: torch.Tensor) -> torch.Tensor:
    """Cache-free fp32 forward of one whole sequence with plain torch ops. tokens: [n] → [n, V]."""
    n = tokens.shape[0]
    inv_freq = 1.0 / (THETA ** (torch.arange(0, D, 2, dtype=torch.int64).float() / D))
    emb = torch.cat([torch.arange(n).float()[:, None] * inv_freq] * 2, dim=-1)  # [n, D]
    cos, sin = emb.cos()[:, None, :], emb.sin()[:, None, :]

    def rope(x: torch.Tensor) -> torch.Tensor:
        x1, x2 = x.chunk(2, dim=-1)
        return x * cos + torch.cat((-x2, x1), dim=-1) * sin

    x = w.embed[tokens]
    for layer in range(LAYERS):
        h = F.rms_norm(x, (HIDDEN,), w.w_in[layer], EPS)
        qkv = h @ w.w_qkv[layer].T
        q = rope(qkv[:, : HQ * D].view(n, HQ, D)).transpose(0, 1)  # [HQ, n, D]
        k = rope(qkv[:, HQ * D : (HQ + HK) * D].view(n, HK, D)).transpose(0, 1)
        v = qkv[:, (HQ + HK) * D :].view(n, HK, D).transpose(0, 1)
        o = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)  # [HQ, n, D]
        x = x + o.transpose(0, 1).reshape(n, HQ * D) @ w.w_o[layer].T
        h = F.rms_norm(x, (HIDDEN,), w.w_post[layer], EPS)
        gu = h @ w.w_gate_up[layer].T
        x = x + (F.silu(gu[:, :INTER]) * gu[:, INTER:]) @ w.w_down[layer].T
    return F.rms_norm(x, (HIDDEN,), w.w_final, EPS) @ w.embed.T


# Three sequences; pages handed out in shuffled order. Steps: prefill of the prompts, a chunked
# extend (3 more tokens of seq 0, 2 of seq 2, none of seq 1), then two decode steps.
PROMPTS = [[5, 17, 99, 3, 42], [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 200], [1]]
EXTEND = [[60, 61, 62], [], [70, 71]]
DECODES = [[33, 44, 55], [34, 45, 56]]


def build_steps() -> list[Step]:
    pages = torch.randperm(NUM_BLOCKS, generator=seeded_generator(7)).tolist()
    max_blocks = 6
    tables = [[pages.pop() for _ in range(max_blocks)] for _ in PROMPTS]
    lengths = [0, 0, 0]
    steps: list[Step] = []

    def add(chunks: list[list[int]], decode: bool) -> None:
        toks, pos, slots, cu = [], [], [], [0]
        for b, chunk in enumerate(chunks):
            for i, tok in enumerate(chunk):
                p = lengths[b] + i
                toks.append(tok)
                pos.append(p)
                slots.append(tables[b][p // BLOCK_SIZE] * BLOCK_SIZE + p % BLOCK_SIZE)
            lengths[b] += len(chunk)
            cu.append(cu[-1] + len(chunk))
        steps.append(Step(
            tokens=torch.tensor(toks), positions=torch.tensor(pos), slot_mapping=torch.tensor(slots),
            block_tables=torch.tensor(tables, dtype=torch.int32), context_lens=torch.tensor(lengths, dtype=torch.int32),
            cu_seqlens_q=torch.tensor(cu, dtype=torch.int32), decode=decode,
        ))

    add(PROMPTS, decode=False)
    add(EXTEND, decode=False)
    for toks in DECODES:
        add([[t] for t in toks], decode=True)
    return steps


def run_paged(w: Weights, dtype: torch.dtype, quantized: bool) -> list[torch.Tensor]:
    cos, sin = kernels.rope_cos_sin(D, MAX_POS, THETA)
    kv = PagedKV(dtype, quantized)
    return [paged_forward(w, step, kv, cos, sin) for step in build_steps()]


def full_sequences() -> list[list[int]]:
    return [PROMPTS[b] + EXTEND[b] + [d[b] for d in DECODES] for b in range(len(PROMPTS))]


def logits_by_sequence(step_logits: list[torch.Tensor]) -> list[torch.Tensor]:
    """Reassemble per-step logits [T, V] into per-sequence logits [n_b, V] in position order."""
    per_seq: list[list[torch.Tensor]] = [[] for _ in PROMPTS]
    for step, logits in zip(build_steps(), step_logits, strict=True):
        cu = step.cu_seqlens_q.tolist()
        for b in range(len(PROMPTS)):
            per_seq[b].append(logits[cu[b] : cu[b + 1]])
    return [torch.cat(chunks) for chunks in per_seq]


def test_reference_paged_forward_equals_dense_forward():
    w = make_weights()
    got = logits_by_sequence(run_paged(w, torch.float32, quantized=False))
    for b, seq in enumerate(full_sequences()):
        torch.testing.assert_close(got[b], dense_forward(w, torch.tensor(seq)), atol=1e-4, rtol=1e-4)


@requires_triton
@pytest.mark.parametrize(
    ("dtype", "quantized", "atol"),
    [(torch.float32, False, 1e-4), (torch.float32, True, 1e-4), (torch.bfloat16, False, 5e-2)],
    ids=["fp32", "fp32-int8kv", "bf16"],
)
def test_triton_forward_equals_reference_forward(dtype, quantized, atol):
    w = make_weights().to(dtype)
    with kernels.force_triton(False):
        expected = run_paged(w, dtype, quantized)
    with kernels.force_triton(True):
        got = run_paged(w, dtype, quantized)
    for a, e in zip(got, expected, strict=True):
        torch.testing.assert_close(a, e, atol=atol, rtol=atol)
        if dtype == torch.float32:  # bf16 logits have too many exact ties for a stable argmax
            assert torch.equal(a.argmax(-1), e.argmax(-1))


def test_int8_kv_forward_stays_close_to_fp():
    w = make_weights()
    fp = torch.cat(run_paged(w, torch.float32, quantized=False))
    q8 = torch.cat(run_paged(w, torch.float32, quantized=True))
    rel = (q8 - fp).norm() / fp.norm()
    assert float(rel) < 0.05

"""CUDA graphs for pure-decode steps: static, padded input buffers and one captured graph per batch size.

A decode step's shapes depend only on its batch size once the inputs live in fixed buffers, so the
forward can be captured once per *padded* batch size (1, 2, 4, 8, 16, ... up to ``max_num_seqs``)
and replayed by copying the real inputs into the buffers:

* ``input_ids / positions: [max_bs]`` int64, ``slot_mapping: [max_bs]`` int64,
  ``block_tables: [max_bs, max_blocks]`` int32 (``max_blocks = ceil(max_model_len / block_size)``,
  fixed width so the Triton grid never changes), ``context_lens: [max_bs]`` int32.
* Padding rows ``real_bs:padded_bs`` get slot -1 (``store_kv_cache`` skips negative slots), context
  length 0 (decode attention returns zeros for them) and token/position 0; their hidden states are
  discarded.

Attention must be the ``kernels`` backend (fixed-shape Triton kernels, no host syncs). On CUDA the
graphs are captured lazily, the first time each padded size is needed (after one eager warm-up run
that also JIT-compiles the Triton kernels), and share one memory pool. Elsewhere the runner is in
*emulation* mode: "replay" runs the same forward eagerly on the same static, padded buffers, so the
padding and buffer logic is testable on CPU. This module has not been run on a GPU yet.
"""

from __future__ import annotations

from typing import Any

import torch

from backend.config import CUDA_GRAPH_MODES
from backend.engine.step_input import KernelMetadata, StepInput
from backend.model import AttentionBackend, LlamaForCausalLM


def graph_batch_sizes(max_num_seqs: int) -> list[int]:
    """Padded batch sizes to capture: powers of two below ``max_num_seqs``, then ``max_num_seqs``."""
    if max_num_seqs < 1:
        raise ValueError(f"max_num_seqs must be positive, got {max_num_seqs}")
    sizes, size = [], 1
    while size < max_num_seqs:
        sizes.append(size)
        size *= 2
    sizes.append(max_num_seqs)
    return sizes


def resolve_cuda_graphs(mode: str, device: torch.device, attention_backend: str) -> bool:
    """``on`` / ``off`` / ``auto`` (on for CUDA with the kernels backend) → whether decode uses graphs.

    ``on`` needs the ``kernels`` attention backend; off CUDA it means emulation (see the module doc)."""
    if mode not in CUDA_GRAPH_MODES:
        raise ValueError(f"cuda_graphs must be auto, on or off, got {mode!r}")
    if mode == "off":
        return False
    if attention_backend != "kernels":
        if mode == "on":
            raise ValueError("CUDA graphs need the kernels attention backend (fixed-shape Triton decode)")
        return False
    return mode == "on" or device.type == "cuda"


class DecodeGraphs:
    """Static decode buffers and the graphs (or their eager emulation) for each padded batch size."""

    def __init__(self, model: LlamaForCausalLM, attention: AttentionBackend, max_num_seqs: int, max_blocks: int,
                 device: torch.device) -> None:
        self.model, self.attention, self.device = model, attention, device
        self.sizes = graph_batch_sizes(max_num_seqs)
        self.max_bs, self.max_blocks = self.sizes[-1], max_blocks
        self.capture = device.type == "cuda"
        with torch.inference_mode():
            self.input_ids = torch.zeros(self.max_bs, dtype=torch.int64, device=device)  # [max_bs]
            self.positions = torch.zeros(self.max_bs, dtype=torch.int64, device=device)  # [max_bs]
            self.slot_mapping = torch.full((self.max_bs,), -1, dtype=torch.int64, device=device)  # [max_bs]
            self.block_tables = torch.zeros(self.max_bs, max_blocks, dtype=torch.int32, device=device)  # [max_bs, MB]
            self.context_lens = torch.zeros(self.max_bs, dtype=torch.int32, device=device)  # [max_bs]
        self._graphs: dict[int, Any] = {}  # padded size → torch.cuda.CUDAGraph
        self._outputs: dict[int, torch.Tensor] = {}  # padded size → static hidden [size, H]
        self._pool: Any = None
        self.replays = 0  # steps served from the static buffers (for tests and logs)

    def padded_size(self, batch: int) -> int | None:
        """The smallest captured size holding ``batch`` rows; None when the batch is too large."""
        return next((s for s in self.sizes if s >= batch), None)

    def supports(self, step: StepInput) -> bool:
        """Whether ``step`` is a pure decode step these buffers can hold."""
        meta = step.kernel
        if meta is None or step.prefills or meta.num_decode != step.input_ids.shape[0] or meta.num_decode == 0:
            return False
        return meta.num_decode <= self.max_bs and meta.decode_tables.shape[1] <= self.max_blocks

    def _static_step(self, size: int) -> StepInput:
        """Attention metadata that views the first ``size`` rows of the static buffers."""
        empty = torch.zeros(0, 1, dtype=torch.int32, device=self.device)
        meta = KernelMetadata(num_decode=size, decode_tables=self.block_tables[:size],
                              decode_lens=self.context_lens[:size], prefill_tables=empty,
                              prefill_cu=torch.zeros(1, dtype=torch.int32, device=self.device),
                              prefill_lens=torch.zeros(0, dtype=torch.int32, device=self.device), prefill_max_q=0)
        return StepInput(input_ids=self.input_ids[:size], positions=self.positions[:size],
                         slot_mapping=self.slot_mapping[:size], logits_indices=torch.arange(0), sample_seqs=[],
                         kernel=meta)

    def _load(self, step: StepInput, size: int) -> None:
        """Copy the step's real rows into the buffers and reset the padding rows ``batch:size``."""
        meta = step.kernel
        assert meta is not None
        n, width = meta.num_decode, meta.decode_tables.shape[1]
        self.input_ids[:n].copy_(step.input_ids)
        self.positions[:n].copy_(step.positions)
        self.slot_mapping[:n].copy_(step.slot_mapping)
        self.block_tables[:n, :width].copy_(meta.decode_tables)  # entries past a context are never read
        self.context_lens[:n].copy_(meta.decode_lens)
        self.input_ids[n:size].zero_()
        self.positions[n:size].zero_()
        self.slot_mapping[n:size].fill_(-1)  # padding rows store nothing
        self.context_lens[n:size].zero_()  # and attend to nothing

    def _forward(self, size: int) -> torch.Tensor:
        step = self._static_step(size)
        self.attention.step = step  # type: ignore[attr-defined]
        try:
            return self.model(step.input_ids, step.positions, self.attention)  # [size, H]
        finally:
            self.attention.step = None  # type: ignore[attr-defined]

    def _capture(self, size: int) -> None:
        self._forward(size)  # warm-up: Triton JIT and allocator growth happen outside the capture
        torch.cuda.synchronize(self.device)
        graph = torch.cuda.CUDAGraph()
        if self._pool is None:
            self._pool = torch.cuda.graph_pool_handle()
        step = self._static_step(size)
        self.attention.step = step  # type: ignore[attr-defined]
        try:
            with torch.cuda.graph(graph, pool=self._pool):
                out = self.model(step.input_ids, step.positions, self.attention)  # [size, H]
        finally:
            self.attention.step = None  # type: ignore[attr-defined]
        self._graphs[size], self._outputs[size] = graph, out

    @torch.inference_mode()
    def run(self, step: StepInput) -> torch.Tensor:
        """Hidden states [batch, H] of a decode step (``supports(step)`` must hold)."""
        batch = step.kernel.num_decode if step.kernel is not None else 0
        size = self.padded_size(batch)
        assert size is not None and self.supports(step), "not a decode step the graphs can hold"
        self._load(step, size)
        self.replays += 1
        if not self.capture:
            return self._forward(size)[:batch]
        if size not in self._graphs:
            self._capture(size)
        self._graphs[size].replay()
        return self._outputs[size][:batch]

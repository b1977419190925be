"""What one engine step hands the model: the flat token batch and the attention metadata of each
backend (decode buckets and prefill spans for PyTorch, block tables for :mod:`kernels`, rows attended
in place for :mod:`backend.attention_cpu`). Built by :mod:`backend.engine.model_runner`, read by it and
by :mod:`backend.engine.cuda_graphs`."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from backend.engine.sequence import Sequence


@dataclass(slots=True)
class DecodeBucket:
    """Decode rows ``start:end`` whose contexts are gathered block-wise and padded to ``num_blocks``."""

    start: int
    end: int
    num_blocks: int
    block_ids: torch.Tensor  # [rows * num_blocks] int64 (padding points at block 0)
    mask: torch.Tensor | None  # [rows, 1, 1, num_blocks * block_size] bool, True = attend; None: no padding


@dataclass(slots=True)
class PrefillSpan:
    """Prefill rows ``start:end`` at absolute positions ``context_len - (end - start) .. context_len``."""

    start: int
    end: int
    context_len: int
    block_ids: torch.Tensor | None  # [blocks] int64 when earlier tokens come from the cache; None: fresh prompt
    mask: torch.Tensor | None  # [rows, context_len] bool causal mask with a cached prefix
    native: bool = False  # a short extend over cached K/V, attended in place (see NativeMetadata)


@dataclass(slots=True)
class NativeMetadata:
    """Rows attended straight from the pool by :mod:`backend.attention_cpu` (``native`` backend):
    the decode rows ``0:num_decode`` and every prefill span marked ``native``."""

    num_decode: int
    tables: torch.Tensor  # [S, W] int32 block tables of the sequences with native rows (padded with block 0)
    row_seq: torch.Tensor  # [T] int32: each row's table row (0 for rows not attended natively)
    row_len: torch.Tensor  # [T] int32: keys each row sees (context through its own position)


@dataclass(slots=True)
class StepInput:
    """Everything one forward needs, built once per step."""

    input_ids: torch.Tensor  # [T]
    positions: torch.Tensor  # [T]
    slot_mapping: torch.Tensor  # [T] flat slot (block * block_size + offset) of each token's K/V
    logits_indices: torch.Tensor  # [N] rows whose logits are sampled
    sample_seqs: list[Sequence]  # the sequences of those rows, in order
    decode_buckets: list[DecodeBucket] = field(default_factory=list)
    prefills: list[PrefillSpan] = field(default_factory=list)
    kernel: KernelMetadata | None = None  # only for the ``kernels`` attention backend
    native: NativeMetadata | None = None  # only for the ``native`` attention backend


@dataclass(slots=True)
class KernelMetadata:
    """Block tables and lengths in the layout of :mod:`kernels` (int32), decode rows then prefill rows."""

    num_decode: int
    decode_tables: torch.Tensor  # [nd, max_blocks] int32
    decode_lens: torch.Tensor  # [nd] int32, context including this step's token
    prefill_tables: torch.Tensor  # [np, max_blocks] int32
    prefill_cu: torch.Tensor  # [np + 1] int32 row offsets (relative to the first prefill row)
    prefill_lens: torch.Tensor  # [np] int32
    prefill_max_q: int

"""Replacing a loaded model's ``nn.Linear`` layers by :class:`Int4Linear` / :class:`Int8Linear`.

``int4``: every decoder projection becomes an :class:`Int4Linear`, built from the GGUF file's own 4-bit
blocks where the loader found them (``blocks``, Hugging Face names; Q/K/V and gate/up are concatenated
like :func:`backend.model.fuse_projections` does) and quantized here from the float weight otherwise; the
LM head (tied to the embedding table, Q8_0 in the SmolLM2 GGUF) becomes an :class:`Int8Linear`.
``int8``: every linear layer, LM head included, becomes an :class:`Int8Linear` quantized from its float
weight (one scale per output row).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

import torch
from torch import nn

from backend.linear_targets import bias_free_linears
from backend.model import FUSED_PROJECTIONS
from backend.quant.blocks import GROUP_SIZE, Int4Weight, quantize_int4, quantize_int8
from backend.quant.linear import (
    Int4Linear,
    Int8Linear,
    QuantizedLinearError,
    TritonInt4Linear,
    check_int4_shape,
)

log = logging.getLogger(__name__)

BLOCK_TOLERANCE = 1e-5  # |GGUF blocks dequantized here - the loader's dequantized weight|, relative to max |w|


@dataclass(slots=True)
class ConversionReport:
    """What :func:`convert_linears` did, by layer name."""

    from_file_blocks: list[str] = field(default_factory=list)
    quantized_here: list[str] = field(default_factory=list)
    int8: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (f"{len(self.from_file_blocks)} linear layers from the file's 4-bit blocks, "
                f"{len(self.quantized_here)} quantized to 4 bits at load, {len(self.int8)} in int8")


def _file_blocks(name: str, blocks: Mapping[str, Int4Weight]) -> Int4Weight | None:
    """The GGUF blocks for our layer ``name`` (``model.layers.N.self_attn.qkv_proj``), fused if needed."""
    prefix, _, tail = name.rpartition(".")
    prefix2, _, group = prefix.rpartition(".")
    local = f"{group}.{tail}"
    parts = FUSED_PROJECTIONS.get(local, (local,))
    found = [blocks.get(f"{prefix2}.{part}.weight") for part in parts]
    if any(f is None for f in found):
        return None
    return found[0] if len(found) == 1 else Int4Weight.cat(found)


#: Projections whose panel-kernel calls keep two 8-bit activation levels: the attention's Q/K/V, whose input
#: (the normed hidden state, with its outlier channels) lost +0.8 % perplexity on SmolLM2 with one level, and
#: the LM head. The others (O, gate/up, down) take one level: +0.12 % perplexity together, and prefill ~1.5x
#: faster (BENCHMARKS.md, "One activation level").
TWO_LEVEL_PROJECTIONS = frozenset({"qkv_proj", "q_proj", "k_proj", "v_proj", "lm_head"})


def activation_levels(name: str) -> int:
    """The panel kernel's 8-bit activation levels for the projection named ``name`` (``model.layers.3.mlp.down_proj``)."""
    return 2 if name.rsplit(".", 1)[-1] in TWO_LEVEL_PROJECTIONS else 1


def convert_linears(model: nn.Module, mode: str, *, kernel_max_rows: int, dense_dtype: torch.dtype | None,
                    blocks: Mapping[str, Int4Weight] | None = None,
                    int8_kernel_max_rows: int | None = None, head: str = "int8",
                    native_max_rows: int = 0, triton: bool = False, panel: bool = False) -> ConversionReport:
    """Swap ``model``'s bias-free ``nn.Linear`` layers for quantized ones (``mode``: ``int4`` | ``int8``).

    ``kernel_max_rows``: calls with at most this many rows run the quantized kernel, larger ones a dense
    matmul on the same values in ``dense_dtype`` (``None``: no dense copy, always the kernel);
    ``int8_kernel_max_rows`` (default: ``kernel_max_rows``) is the same threshold for the int8 layers;
    ``head`` (``int8`` | ``int4``): the LM head's format in ``int4`` mode; ``native_max_rows`` > 0: calls up
    to that many rows run the native block kernel (:mod:`backend.quant.native_mm`) where it builds, and the
    int8 layers then hold blocks of 32 with a scale each instead of one scale per row. ``triton`` (a model on
    CUDA, ``int4`` only): the projections become :class:`TritonInt4Linear` (the Triton dequant-GEMM) and the
    LM head keeps its float weight. ``panel``: the 4-bit projections run the panel kernel for every row count
    (:mod:`backend.quant.panel_mm`, batch invariance) where it builds, with :func:`activation_levels`.
    Raises :class:`QuantizedLinearError` (before changing anything) when a shape does not fit int4."""
    if mode not in ("int4", "int8"):
        raise ValueError(f"mode must be int4 or int8, not {mode!r}")
    if triton and mode != "int4":
        raise ValueError("the Triton (CUDA) path holds int4 weights only")
    blocks = blocks or {}
    targets = bias_free_linears(model, mode, QuantizedLinearError)
    if triton:
        targets = [t for t in targets if t[0] != "lm_head"]
    for full, _, _, child in targets:
        if mode == "int4" and full != "lm_head" and not triton:
            check_int4_shape(full, child.out_features, child.in_features, GROUP_SIZE)
        elif triton and child.in_features % GROUP_SIZE:
            raise QuantizedLinearError(
                f"{full}: --weights-dtype int4 on CUDA needs the input width to be a multiple of {GROUP_SIZE}, "
                f"got {child.out_features}x{child.in_features}; use --weights-dtype bf16 or fp32 for this model")
    report = ConversionReport()
    for full, parent, name, child in targets:
        weight = child.weight.detach()
        if mode == "int8" or (full == "lm_head" and head == "int8"):
            int8_rows = kernel_max_rows if int8_kernel_max_rows is None else int8_kernel_max_rows
            if native_max_rows > 0:
                layer: nn.Module = Int8Linear.from_blocks(weight, int8_rows, native_max_rows, dense_dtype, panel=panel)
            else:
                layer = Int8Linear(quantize_int8(weight), int8_rows, dense_dtype)
            report.int8.append(full)
        else:
            q = None if full == "lm_head" else _file_blocks(full, blocks)
            if q is not None:
                scale = weight.float().abs().amax().clamp(min=1e-12)
                error = (q.dequantize().to(weight.device) - weight.float()).abs().amax() / scale
                if q.shape != tuple(weight.shape) or error > BLOCK_TOLERANCE:
                    raise QuantizedLinearError(f"{full}: the file's 4-bit blocks do not match the loaded weight "
                                               f"(relative error {float(error):.2e}); this is a loader bug")
                report.from_file_blocks.append(full)
            else:
                q = quantize_int4(weight.cpu())
                report.quantized_here.append(full)
            if triton:
                layer = TritonInt4Linear(q, weight.device, name=full)
            else:
                layer = Int4Linear(q, kernel_max_rows, dense_dtype, name=full, native_max_rows=native_max_rows,
                                   panel=panel, activation_levels=activation_levels(full))
        setattr(parent, name, layer)
    log.info("weights %s: %s", mode, report.summary())
    return report

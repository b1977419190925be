"""The decoder layer's small ops on CPU as native operators: residual add + RMSNorm, rotary embedding
and SiLU-and-mul, one call each instead of 6-20 ATen ops.

At batch 1 a decode step of SmolLM2 spends less than half its time in the linear layers: the rest is
the ~35 small ATen ops per layer (upcasts, ``pow``/``mean``/``rsqrt``, the rotary halves and their
``cat``, SiLU) times 30 layers, each paying dispatch and allocation. This module compiles, once per
machine, three float32 operators in ``torch.ops.thrifty_layer_cpu`` that do each op in one pass over
its rows (rows in parallel on ATen's thread pool when there are many), and :class:`NativeLayerOps`,
which the model calls instead of :mod:`kernels` on CPU (:meth:`LlamaForCausalLM.use_layer_ops`).
Any call it cannot take (another dtype or device) goes to :mod:`kernels` unchanged.

Same contracts and the same formulas as :mod:`kernels.reference` (the rotary halves, ``x / (1 + e^-x)``),
in float32; only the summation order of the RMS and fused multiply-adds differ, a few ulps.

Building needs a C++ compiler (and ninja) at run time; :func:`load_layer_ops` returns None where it cannot
build, or with ``THRIFTY_NATIVE_LAYER_OPS=0``, and the model keeps :mod:`kernels`. The build is cached
by PyTorch (``TORCH_EXTENSIONS_DIR``, default ``~/.cache/torch_extensions``), ~20-40 s the first time.

Its C++ is ``backend/native/layer_ops.cpp``, built with the other native parts as :mod:`backend.native_build` describes.
"""

from __future__ import annotations

import functools
from typing import Any

import torch

import kernels
from backend.native_build import load_cpu_part


@functools.cache
def load_layer_ops() -> Any | None:
    """Build (once, cached on disk) and load the operators; their ``torch.ops`` namespace, or None where
    they cannot be built here (no compiler, ``THRIFTY_NATIVE_LAYER_OPS=0``)."""
    built = load_cpu_part("layer_ops", "THRIFTY_NATIVE_LAYER_OPS", "the native CPU layer ops", "the PyTorch ops")
    return torch.ops.thrifty_layer_cpu if built else None


def _native(x: torch.Tensor) -> bool:
    """Whether the native operators take a call on ``x`` (float32 on the CPU; the operators check the
    rest of the contract and raise on a layout they cannot read)."""
    return x.dtype == torch.float32 and x.is_cpu


class NativeLayerOps:
    """:mod:`kernels`' four layer ops (same signatures), through the native operators for float32 CPU
    tensors and through :mod:`kernels` for anything else. Stateless; build with :func:`native_layer_ops`."""

    def __init__(self, ops: Any) -> None:
        # the operators' overloads, looked up once: calling a torch.ops packet resolves it on every call
        self._add_rms_norm = ops.add_rms_norm.default
        self._rotary = ops.rotary.default
        self._silu_and_mul = ops.silu_and_mul.default

    def __deepcopy__(self, memo: dict) -> NativeLayerOps:  # a model copy shares the (stateless) ops
        return self

    def rms_norm(self, x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
        """x: [tokens, hidden] → [tokens, hidden] (see :func:`kernels.rms_norm`)."""
        if _native(x):
            return self._add_rms_norm(x, None, weight, eps)[0]
        return kernels.rms_norm(x, weight, eps)

    def fused_add_rms_norm(self, x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor,
                           eps: float) -> tuple[torch.Tensor, torch.Tensor]:
        """x, residual: [tokens, hidden] → ``(rms_norm(x + residual), x + residual)``."""
        if _native(x):
            return self._add_rms_norm(x, residual, weight, eps)
        return kernels.fused_add_rms_norm(x, residual, weight, eps)

    def rotary_embedding(self, q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor, cos: torch.Tensor,
                         sin: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """q: [tokens, Hq, D], k: [tokens, Hk, D] → rotated copies (see :func:`kernels.rotary_embedding`)."""
        if _native(q):
            return self._rotary(q, k, positions, cos, sin)
        return kernels.rotary_embedding(q, k, positions, cos, sin)

    def silu_and_mul(self, x: torch.Tensor) -> torch.Tensor:
        """x: [tokens, 2d] → [tokens, d]."""
        if _native(x):
            return self._silu_and_mul(x)
        return kernels.silu_and_mul(x)


def native_layer_ops() -> NativeLayerOps | None:
    """The native layer ops where they build, else None (callers keep :mod:`kernels`)."""
    ops = load_layer_ops()
    return None if ops is None else NativeLayerOps(ops)

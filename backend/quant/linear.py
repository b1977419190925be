"""Linear layers with 4-bit / 8-bit weights: a fused dequant-matmul kernel for few rows, a dense GEMM for many.

torch's CPU kernels ``_weight_int4pack_mm_for_cpu`` and ``_weight_int8pack_mm`` read the packed weights
and dequantize them inside the matmul, vectorized for AVX2 as well as AVX-512; they only have that fast
path for bfloat16 (or half) activations, so the input is cast to bfloat16 and the output back. They
win while the step is memory-bound (decode: a handful of rows, every weight byte read once per row
block); at prefill or large batches the dense GEMM (oneDNN/MKL, compute-bound) is several times faster,
so each layer also keeps the same weight values dequantized once at load, in ``dense_dtype``
(bfloat16 where the CPU multiplies bf16 natively, float32 otherwise), and picks the path by the number
of rows: ``rows <= kernel_max_rows`` → the quantized kernel.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

from backend.quant.blocks import Int4Weight, Int8Weight
from backend.weights import WeightsError

INT4_INNER_K_TILES = 2  # torch's CPU int4 packing: K in tiles of 2 x 16
INT4_ROW_MULTIPLE = 16  # torch's CPU int4 packing needs N divisible by 16


class QuantizedLinearError(WeightsError):
    """A weight whose shape the quantized kernel cannot take (raised at load, not mid-request)."""


def check_int4_shape(name: str, out_features: int, in_features: int, group_size: int) -> None:
    """Raise :class:`QuantizedLinearError` naming ``name`` when torch's int4 CPU kernel cannot take the shape."""
    if in_features % group_size:
        raise QuantizedLinearError(
            f"{name}: --weights-dtype int4 needs the input width to be a multiple of the group size {group_size}, "
            f"got {out_features}x{in_features}; use --weights-dtype int8, bf16 or fp32 for this model")
    if out_features % INT4_ROW_MULTIPLE:
        raise QuantizedLinearError(
            f"{name}: --weights-dtype int4 needs the output width to be a multiple of {INT4_ROW_MULTIPLE}, "
            f"got {out_features}x{in_features}; use --weights-dtype int8, bf16 or fp32 for this model")


class _QuantizedLinear(nn.Module):
    """Shared forward: ``x: [..., K]`` → ``[..., N]`` in ``x``'s dtype, kernel chosen by row count."""

    kernel_max_rows: int
    dense: torch.Tensor | None

    def __init__(self, out_features: int, in_features: int, kernel_max_rows: int) -> None:
        super().__init__()
        self.out_features, self.in_features, self.kernel_max_rows = out_features, in_features, kernel_max_rows

    def _quantized_mm(self, x: torch.Tensor) -> torch.Tensor:  # x: [M, K] bf16 → [M, N] bf16
        raise NotImplementedError

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() == 2 and x.shape[0] <= self.kernel_max_rows:  # the decode path, without reshapes
            return self._quantized_mm(x.to(torch.bfloat16)).to(x.dtype)
        lead = x.shape[:-1]
        flat = x.reshape(-1, self.in_features)  # [M, K]
        if self.dense is None or flat.shape[0] <= self.kernel_max_rows:
            out = self._quantized_mm(flat.to(torch.bfloat16))
        else:
            out = F.linear(flat.to(self.dense.dtype), self.dense)
        return out.to(x.dtype).view(*lead, self.out_features)


class Int4Linear(_QuantizedLinear):
    """Bias-free linear layer over a 4-bit group-quantized weight (:class:`Int4Weight`)."""

    def __init__(self, weight: Int4Weight, kernel_max_rows: int, dense_dtype: torch.dtype | None,
                 name: str = "linear") -> None:
        out_features, in_features = weight.shape
        check_int4_shape(name, out_features, in_features, weight.group_size)
        super().__init__(out_features, in_features, kernel_max_rows)
        self.group_size = weight.group_size
        # torch's convention: w = (q - 8) * scale + zero, so zero = minimum + 8 * scale
        scales_and_zeros = torch.stack([weight.scale, weight.minimum + 8 * weight.scale], dim=-1)  # [N, K/g, 2]
        self.register_buffer("scales_and_zeros", scales_and_zeros.transpose(0, 1).contiguous().to(torch.bfloat16))
        self.register_buffer("packed", torch._convert_weight_to_int4pack_for_cpu(
            weight.values.to(torch.int32), INT4_INNER_K_TILES))  # [N, K/2] uint8, kernel layout
        # the dense copy uses the kernel's own (bf16-rounded) scales, so both paths hold the same weights
        sz = self.scales_and_zeros.float().transpose(0, 1)  # [N, K/g, 2]
        rounded = Int4Weight(weight.values, sz[..., 0], sz[..., 1] - 8 * sz[..., 0], weight.group_size)
        self.register_buffer("dense", None if dense_dtype is None else rounded.dequantize().to(dense_dtype))

    def _quantized_mm(self, x: torch.Tensor) -> torch.Tensor:
        return torch._weight_int4pack_mm_for_cpu(x, self.packed, self.group_size, self.scales_and_zeros)

    def extra_repr(self) -> str:
        dense = None if self.dense is None else self.dense.dtype
        return (f"in={self.in_features}, out={self.out_features}, group={self.group_size}, "
                f"kernel_max_rows={self.kernel_max_rows}, dense={dense}")


class Int8Linear(_QuantizedLinear):
    """Bias-free linear layer over an 8-bit per-row weight (:class:`Int8Weight`)."""

    def __init__(self, weight: Int8Weight, kernel_max_rows: int, dense_dtype: torch.dtype | None) -> None:
        out_features, in_features = weight.values.shape
        super().__init__(out_features, in_features, kernel_max_rows)
        self.register_buffer("values", weight.values.contiguous())  # [N, K] int8
        self.register_buffer("scales", weight.scale.to(torch.bfloat16))  # [N]
        rounded = Int8Weight(self.values, self.scales.float())
        self.register_buffer("dense", None if dense_dtype is None else rounded.dequantize().to(dense_dtype))

    def _quantized_mm(self, x: torch.Tensor) -> torch.Tensor:
        return torch._weight_int8pack_mm(x, self.values, self.scales)

    def extra_repr(self) -> str:
        dense = None if self.dense is None else self.dense.dtype
        return f"in={self.in_features}, out={self.out_features}, kernel_max_rows={self.kernel_max_rows}, dense={dense}"

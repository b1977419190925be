"""Linear layers with 4-bit / 8-bit weights: a fused dequant-matmul kernel for few rows, a dense GEMM for many.

Where our native block kernel builds (:mod:`backend.quant.native_mm`, 8-bit activations and the CPU's
byte dot products, the way llama.cpp multiplies), calls with at most ``native_max_rows`` rows go there
first: on SmolLM2's shapes it is 2-2.5x faster than torch's kernel at one row (BENCHMARKS.md, issue 15).

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

import kernels
from backend.quant.blocks import GROUP_SIZE, Int4Weight, Int8Weight
from backend.quant.native_mm import load_block_mm, pack_q4, pack_q8, unpack_q8
from backend.quant.panel_mm import PANEL, load_panel_mm, pack_q4_panels, pack_q8_panels
from tokenization.models import WeightsError

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
    native_max_rows: int = 0  # rows up to which the native block kernel runs (0: never)
    dense: torch.Tensor | None

    def __init__(self, out_features: int, in_features: int, kernel_max_rows: int) -> None:
        super().__init__()
        self.out_features, self.in_features, self.kernel_max_rows = out_features, in_features, kernel_max_rows
        self._native_mm = None  # the native operator's overload, when the layer holds native blocks
        self._native_args: tuple = ()  # its arguments after (x, codes, scales)

    def _quantized_mm(self, x: torch.Tensor) -> torch.Tensor:  # x: [M, K] bf16 → [M, N] bf16
        raise NotImplementedError

    def _use_native(self, op, max_rows: int, *args) -> None:
        self._native_mm, self.native_max_rows, self._native_args = op, max_rows, args

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """One rule for every input shape and dtype: the native kernel up to ``native_max_rows`` rows (on
        float32 rows), torch's quantized kernel up to ``kernel_max_rows`` (on bfloat16 rows), the dense
        copy above; the result in ``x``'s dtype and leading shape."""
        flat = x if x.dim() == 2 else x.reshape(-1, self.in_features)  # [M, K]; decode calls are 2-D already
        rows = flat.shape[0]
        if rows <= self.native_max_rows:
            out = self._native_mm(flat.float(), self.native_codes, self.native_scales, *self._native_args)
        elif self.dense is None or rows <= self.kernel_max_rows:
            out = self._quantized_mm(flat.to(torch.bfloat16))
        else:
            out = F.linear(flat.to(self.dense.dtype), self.dense)
        if out.dtype != x.dtype:
            out = out.to(x.dtype)
        return out if x.dim() == 2 else out.view(*x.shape[:-1], self.out_features)


class Int4Linear(_QuantizedLinear):
    """Bias-free linear layer over a 4-bit group-quantized weight (:class:`Int4Weight`)."""

    def __init__(self, weight: Int4Weight, kernel_max_rows: int, dense_dtype: torch.dtype | None,
                 name: str = "linear", native_max_rows: int = 0, panel: bool = False,
                 activation_levels: int = 2) -> None:
        """``panel``: every call runs the panel kernel (:mod:`backend.quant.panel_mm`: one summation order per
        output whatever the row count) where it builds and the shape fits (groups of 32, N a multiple of
        16), with ``activation_levels`` 8-bit levels per input (1: ~2x faster, 2: ~15 significant bits);
        otherwise ``native_max_rows`` > 0 runs the block kernel (:mod:`backend.quant.native_mm`) up to
        that many rows."""
        out_features, in_features = weight.shape
        check_int4_shape(name, out_features, in_features, weight.group_size)
        super().__init__(out_features, in_features, kernel_max_rows)
        fits_panels = weight.group_size == GROUP_SIZE and out_features % PANEL == 0
        panel_ops = load_panel_mm() if panel and fits_panels else None
        ops = load_block_mm() if panel_ops is None and native_max_rows > 0 and weight.group_size == GROUP_SIZE else None
        codes, scales = None, None
        if panel_ops is not None:
            codes, scales = pack_q4_panels(weight.values, weight.scale, weight.minimum)
        elif ops is not None:
            codes, scales = pack_q4(weight.values, weight.scale, weight.minimum)
        # [N, K/32, 16] uint8 and [N, K/32, 2] float16 for the block kernel, [N/16, K/32, 4, 16, 4] and
        # [N/16, K/32, 2, 16] for the panel kernel, or None
        self.register_buffer("native_codes", codes)
        self.register_buffer("native_scales", scales)
        if panel_ops is not None:
            self._use_native(panel_ops.q4_panel_mm.default, 1 << 30, activation_levels)
        elif ops is not None:
            self._use_native(ops.q4_mm.default, native_max_rows)
        self.group_size = weight.group_size
        self.activation_levels = activation_levels if panel_ops is not None else 2
        if panel_ops is not None:  # the panels serve every row count: no torch int4 copy, no dense copy
            self.register_buffer("scales_and_zeros", None)
            self.register_buffer("packed", None)
            self.register_buffer("dense", None)
            return
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
                f"native_max_rows={self.native_max_rows}, kernel_max_rows={self.kernel_max_rows}, dense={dense}, "
                f"activation_levels={self.activation_levels}")


class Int8Linear(_QuantizedLinear):
    """Bias-free linear layer over an 8-bit per-row weight (:class:`Int8Weight`), or, built with
    :meth:`from_blocks` where the native kernel loads, over 8-bit blocks of 32 (Q8_0's form)."""

    def __init__(self, weight: Int8Weight, kernel_max_rows: int, dense_dtype: torch.dtype | None) -> None:
        out_features, in_features = weight.values.shape
        super().__init__(out_features, in_features, kernel_max_rows)
        self.register_buffer("values", weight.values.contiguous())  # [N, K] int8
        self.register_buffer("scales", weight.scale.to(torch.bfloat16))  # [N]
        self.register_buffer("native_codes", None)
        self.register_buffer("native_scales", None)
        rounded = Int8Weight(self.values, self.scales.float())
        self.register_buffer("dense", None if dense_dtype is None else rounded.dequantize().to(dense_dtype))

    @classmethod
    def from_blocks(cls, weight: torch.Tensor, kernel_max_rows: int, native_max_rows: int,
                    dense_dtype: torch.dtype | None, panel: bool = False) -> Int8Linear:
        """``weight [N, K]`` float → 8-bit blocks of 32 (``GROUP_SIZE``) with a float16 scale each, multiplied by the native
        kernel up to ``native_max_rows`` rows and by a dense copy of the same values above (torch's int8
        kernel takes one scale per row only, so it is not used). Falls back to the per-row form where the
        native kernel does not load or ``K`` is not a multiple of 32 (torch's kernel up to ``kernel_max_rows``).
        ``panel``: the same blocks repacked for the panel kernel (:mod:`backend.quant.panel_mm`), which runs
        every call, where it builds and ``N`` is a multiple of 16."""
        from backend.quant.blocks import quantize_int8, quantize_q8_blocks

        fits = weight.shape[1] % GROUP_SIZE == 0
        panel_ops = load_panel_mm() if panel and fits and weight.shape[0] % PANEL == 0 else None
        if panel_ops is not None:
            values, block_scale = quantize_q8_blocks(weight)
            codes, scales = pack_q8_panels(values, block_scale)
            layer = cls.__new__(cls)
            _QuantizedLinear.__init__(layer, weight.shape[0], weight.shape[1], 0)
            for name in ("values", "scales", "dense"):
                layer.register_buffer(name, None)
            layer.register_buffer("native_codes", codes)  # [N/16, K/32, 8, 16, 4] uint8 (value + 128)
            layer.register_buffer("native_scales", scales)  # [N/16, K/32, 16] float16
            layer._use_native(panel_ops.q8_panel_mm.default, 1 << 30)
            return layer
        ops = load_block_mm() if fits and native_max_rows > 0 else None
        if ops is None:
            return cls(quantize_int8(weight), kernel_max_rows, dense_dtype)
        values, block_scale = quantize_q8_blocks(weight)
        codes, scales = pack_q8(values, block_scale)
        layer = cls.__new__(cls)
        _QuantizedLinear.__init__(layer, weight.shape[0], weight.shape[1], 0)
        layer.register_buffer("values", None)
        layer.register_buffer("scales", None)
        layer.register_buffer("native_codes", codes)  # [N, K/32, 32] int8
        layer.register_buffer("native_scales", scales)  # [N, K/32] float16
        exact = unpack_q8(codes, scales)
        layer.register_buffer("dense", None if dense_dtype is None else exact.to(dense_dtype))
        layer._use_native(ops.q8_mm.default, native_max_rows if dense_dtype is not None else 1 << 30)
        return layer

    def _quantized_mm(self, x: torch.Tensor) -> torch.Tensor:
        return torch._weight_int8pack_mm(x, self.values, self.scales)

    def extra_repr(self) -> str:
        dense = None if self.dense is None else self.dense.dtype
        return (f"in={self.in_features}, out={self.out_features}, native_max_rows={self.native_max_rows}, "
                f"kernel_max_rows={self.kernel_max_rows}, dense={dense}")


class TritonInt4Linear(nn.Module):
    """Bias-free linear layer over 4-bit groups of 32 for CUDA: :func:`kernels.q4_matmul`, the Triton
    dequant-GEMM that reads the packed weights (half a byte per element) and dequantizes inside the GEMM,
    for every row count. On CPU tensors the same call runs the reference (dequantize, then matmul)."""

    def __init__(self, weight: Int4Weight, device: torch.device | str, name: str = "linear") -> None:
        super().__init__()
        out_features, in_features = weight.shape
        if weight.group_size != GROUP_SIZE or in_features % GROUP_SIZE:
            raise QuantizedLinearError(
                f"{name}: --weights-dtype int4 on CUDA needs groups of {GROUP_SIZE} input columns, got "
                f"{out_features}x{in_features} in groups of {weight.group_size}; use --weights-dtype bf16 or fp32")
        self.out_features, self.in_features = out_features, in_features
        codes, scales = pack_q4(weight.values, weight.scale, weight.minimum)
        self.register_buffer("codes", codes.to(device))  # [N, K/32, 16] uint8
        self.register_buffer("scales", scales.to(device))  # [N, K/32, 2] float16

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        lead = x.shape[:-1]
        out = kernels.q4_matmul(x.reshape(-1, self.in_features), self.codes, self.scales)  # [M, N]
        return out.view(*lead, self.out_features)

    def extra_repr(self) -> str:
        return f"in={self.in_features}, out={self.out_features}, group={GROUP_SIZE}, triton dequant-GEMM"

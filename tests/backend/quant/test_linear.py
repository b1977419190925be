"""Int4Linear / Int8Linear on random weights against the fp32 matmul of their own dequantized weights."""

from __future__ import annotations

import pytest
import torch

from backend.quant.blocks import quantize_int4, quantize_int8
from backend.quant.linear import Int4Linear, Int8Linear, QuantizedLinearError


def _reference(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    return x.double() @ weight.double().t()


def _close(out: torch.Tensor, ref: torch.Tensor) -> bool:
    # bf16 activations (8-bit mantissa) and bf16 scales: ~1 % of the output's scale
    return bool(((out.double() - ref).abs() <= 0.02 * ref.abs().max()).all())


@pytest.mark.parametrize("rows", [1, 3, 8, 40])
def test_int4_layer_matches_the_dequantized_matmul_on_both_paths(rows: int) -> None:
    torch.manual_seed(rows)
    q = quantize_int4(torch.randn(96, 128) * 0.1)
    layer = Int4Linear(q, kernel_max_rows=8, dense_dtype=torch.float32)
    x = torch.randn(rows, 128)
    out = layer(x)
    assert out.shape == (rows, 96) and out.dtype == torch.float32
    assert _close(out, _reference(x, q.dequantize()))
    assert layer.dense is not None  # the dense path holds the same values (the kernel's bf16-rounded scales)
    kernel_only = Int4Linear(q, kernel_max_rows=10**6, dense_dtype=None)
    assert torch.allclose(out, kernel_only(x), rtol=0.02, atol=0.02 * float(out.abs().max()))


def test_int4_layer_keeps_leading_dims_and_bf16_inputs() -> None:
    torch.manual_seed(5)
    q = quantize_int4(torch.randn(32, 64))
    layer = Int4Linear(q, kernel_max_rows=4, dense_dtype=torch.bfloat16)
    x = torch.randn(2, 3, 64, dtype=torch.bfloat16)
    out = layer(x)
    assert out.shape == (2, 3, 32) and out.dtype == torch.bfloat16
    assert _close(out.float().view(6, 32), _reference(x.float().view(6, 64), q.dequantize()))


@pytest.mark.parametrize("rows", [1, 16])
def test_int8_layer_matches_the_dequantized_matmul_on_both_paths(rows: int) -> None:
    torch.manual_seed(10 + rows)
    q = quantize_int8(torch.randn(80, 96))
    layer = Int8Linear(q, kernel_max_rows=4, dense_dtype=torch.float32)
    x = torch.randn(rows, 96)
    assert _close(layer(x), _reference(x, q.dequantize()))


def test_shapes_the_int4_kernel_cannot_take_are_named_at_construction() -> None:
    with pytest.raises(QuantizedLinearError, match=r"layers\.0\.mlp.*multiple of 16.*100x64"):
        Int4Linear(quantize_int4(torch.randn(100, 64)), 8, None, name="layers.0.mlp")
    odd = quantize_int4(torch.randn(32, 48), group_size=16)  # 48 columns: not a multiple of 32
    with pytest.raises(QuantizedLinearError, match="multiple of the group size 32"):
        Int4Linear(type(odd)(odd.values, odd.scale, odd.minimum, 32), 8, None, name="odd")

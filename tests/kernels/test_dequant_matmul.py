"""The Triton dequant-GEMM over 4-bit groups (interpreted on CPU, compiled on CUDA) against the reference,
which dequantizes first; and its argument checks."""

from __future__ import annotations

import pytest
import torch

import kernels
from kernels import reference as ref
from tests.kernels.helpers import DTYPES, requires_triton, seeded_generator

pytestmark = requires_triton

# (atol, rtol) relative to the output's scale: both sides accumulate in fp32 over the same dequantized
# values; fp16/bf16 round the activations and (on GPU) the weight tile before the dot
TOL = {torch.float32: 1e-4, torch.float16: 4e-3, torch.bfloat16: 2e-2}


def _weights(n: int, k: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = seeded_generator(seed)
    codes = torch.randint(0, 256, (n, k // 32, 16), generator=g, dtype=torch.int32).to(torch.uint8)
    d = torch.rand(n, k // 32, generator=g) * 0.02 + 0.001
    m = -8 * d + torch.randn(n, k // 32, generator=g) * 0.01
    return codes, torch.stack([d, m], -1).to(torch.float16)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("rows", "n", "k"), [(1, 96, 64), (3, 70, 96), (17, 64, 576), (40, 33, 32)])
def test_q4_matmul_matches_the_dequantized_reference(dtype, rows, n, k):
    codes, scales = _weights(n, k, rows + n + k)
    x = torch.randn(rows, k, generator=seeded_generator(rows)).to(dtype)
    got = kernels.q4_matmul(x, codes, scales, use_triton=True)
    expected = ref.q4_matmul(x, codes, scales)
    assert got.shape == (rows, n) and got.dtype == dtype
    scale = float(expected.float().abs().max())
    torch.testing.assert_close(got.float(), expected.float(), atol=TOL[dtype] * scale, rtol=TOL[dtype])


def test_q4_matmul_reads_row_strided_inputs_and_zero_rows():
    codes, scales = _weights(48, 64, 1)
    wide = torch.randn(5, 80, generator=seeded_generator(2))
    x = wide[:, 8:72]  # row stride 80
    got = kernels.q4_matmul(x, codes, scales, use_triton=True)
    torch.testing.assert_close(got, ref.q4_matmul(x.contiguous(), codes, scales), atol=1e-4, rtol=1e-4)
    assert kernels.q4_matmul(torch.empty(0, 64), codes, scales, use_triton=True).shape == (0, 48)


def test_reference_is_the_nibble_layout_of_gguf_q4_1():
    # byte j of a group: element j in the low nibble, element j + 16 in the high nibble
    codes = torch.zeros(1, 1, 16, dtype=torch.uint8)
    codes[0, 0, 0] = 0x21  # element 0 = 1, element 16 = 2
    scales = torch.tensor([[[1.0, 0.5]]], dtype=torch.float16)  # w = q + 0.5
    x = torch.zeros(1, 32)
    x[0, 0], x[0, 16], x[0, 1] = 1.0, 10.0, 100.0
    assert float(kernels.q4_matmul(x, codes, scales, use_triton=False)) == pytest.approx(1.5 + 25.0 + 50.0)
    assert float(kernels.q4_matmul(x, codes, scales, use_triton=True)) == pytest.approx(1.5 + 25.0 + 50.0)


@pytest.mark.parametrize(("x_shape", "codes_shape", "scales_shape", "message"), [
    ((2, 96), (4, 2, 16), (4, 2, 2), "in_features 96 does not match"),
    ((2, 64), (4, 2, 8), (4, 2, 2), "16 bytes per group"),
    ((2, 64), (4, 2, 16), (4, 2), "scales: expected shape"),
    ((2, 64), (4, 2, 16), (5, 2, 2), "scales: expected shape"),
])
def test_q4_matmul_names_the_bad_argument(x_shape, codes_shape, scales_shape, message):
    with pytest.raises(ValueError, match=message):
        kernels.q4_matmul(torch.randn(*x_shape), torch.zeros(codes_shape, dtype=torch.uint8),
                          torch.zeros(scales_shape, dtype=torch.float16), use_triton=True)

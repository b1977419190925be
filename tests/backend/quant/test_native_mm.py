"""The native block kernel (int4 groups / int8 blocks of 32 x two-level 8-bit activations) against an exact model of
its arithmetic, on every code path this machine can build: ``native`` (AVX-512 here where the CPU has it),
``haswell`` (the AVX2 path an AVX2-only CPU runs) and ``x86-64`` (the portable C++ loop)."""

from __future__ import annotations

import copy
from concurrent.futures import ThreadPoolExecutor

import pytest
import torch

from backend.quant.blocks import quantize_int4, quantize_q8_blocks
from backend.quant.linear import Int4Linear, Int8Linear
from backend.quant.native_mm import load_block_mm, pack_q4, pack_q8, unpack_q4, unpack_q8

MARCHES = ("native", "haswell", "x86-64")


def build_each_march(load) -> dict:
    """``load(march)`` for every march in MARCHES, compiled side by side (a compiler process each)."""
    with ThreadPoolExecutor(len(MARCHES)) as pool:
        return dict(zip(MARCHES, pool.map(load, MARCHES), strict=True))


@pytest.fixture(scope="module")
def all_builds() -> dict:
    """Each instruction set's build of the kernel."""
    return build_each_march(load_block_mm)


@pytest.fixture(scope="module", params=MARCHES)
def ops(request, all_builds):
    built = all_builds[request.param]
    assert built is not None, f"the native block kernel did not build with -march={request.param}"
    return built


def _quantized_activations(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The kernel's two-level activation rounding: (128 q + r [M, B, 32], d / 128 [M, B], exact block sums)."""
    m, k = x.shape
    blocks = x.float().reshape(m, k // 32, 32)
    d = blocks.abs().amax(-1) / 127  # float32, as the kernel
    inv = torch.where(d > 0, 1 / d, torch.zeros_like(d))
    q = (blocks * inv[..., None]).round()
    rest = (blocks.double() - d.double()[..., None] * q.double()).float()  # one rounding, as std::fma
    r = (rest * (inv * 128)[..., None]).round().clamp(-127, 127)
    return (128 * q + r).double(), (d / 128).double(), blocks.double().sum(-1)


def _model_q4(x: torch.Tensor, codes: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    q, d, sums = _quantized_activations(x)  # [M, B, 32], [M, B], [M, B]
    w = torch.cat([codes & 0x0F, codes >> 4], dim=-1).double()  # [N, B, 32]
    s = scales.double()  # [N, B, 2]
    dots = torch.einsum("mbk,nbk->mnb", q, w)  # [M, N, B]
    return (dots * s[None, :, :, 0] * d[:, None, :] + s[None, :, :, 1] * sums[:, None, :]).sum(-1)


def _model_q8(x: torch.Tensor, codes: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    q, d, _ = _quantized_activations(x)
    dots = torch.einsum("mbk,nbk->mnb", q, codes.double())
    return (dots * scales.double()[None] * d[:, None, :]).sum(-1)


@pytest.mark.parametrize("rows", [1, 2, 5, 8, 9, 19])
@pytest.mark.parametrize("k", [32, 96, 576])  # 1, 3 (a pair and a tail block) and 18 blocks
def test_int4_kernel_computes_the_block_formula(ops, rows: int, k: int) -> None:
    torch.manual_seed(rows * 1000 + k)
    q = quantize_int4(torch.randn(37, k) * 0.1)
    codes, scales = pack_q4(q.values, q.scale, q.minimum)
    x = torch.randn(rows, k) * 3
    out = ops.q4_mm(x, codes, scales)
    expected = _model_q4(x, codes, scales)
    assert out.shape == (rows, 37) and out.dtype == torch.float32
    assert torch.allclose(out.double(), expected, rtol=1e-4, atol=1e-4 * float(expected.abs().max()))
    # and it is the matmul of the weight it stands for, up to the activations' ~15-bit rounding
    dense = x.double() @ unpack_q4(codes, scales).double().t()
    assert ((out.double() - dense).abs() <= 1e-3 * dense.abs().max()).all()


@pytest.mark.parametrize("rows", [1, 5])
def test_wide_layers_split_over_threads_give_each_output_its_one_result(ops, rows: int) -> None:
    """A layer wide enough to be split over the thread pool (output rows in chunks) computes every output as a
    one-thread call does, and as the block formula says."""
    torch.manual_seed(rows)
    q = quantize_int4(torch.randn(4096, 576) * 0.1)
    codes, scales = pack_q4(q.values, q.scale, q.minimum)
    x = torch.randn(rows, 576)
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        split = ops.q4_mm(x, codes, scales)
        torch.set_num_threads(1)
        single = ops.q4_mm(x, codes, scales)
    finally:
        torch.set_num_threads(threads)
    assert torch.equal(split, single)
    expected = _model_q4(x, codes, scales)
    assert torch.allclose(split.double(), expected, rtol=1e-4, atol=1e-4 * float(expected.abs().max()))


@pytest.mark.parametrize("k", [32, 96, 576])  # 1, 3 (a pair and a tail block) and 18 blocks
def test_each_row_gets_the_same_bits_alone_and_in_any_batch(ops, k: int) -> None:
    """Batch invariance: a row's output is bit-identical whether it is multiplied alone or as any row of a
    call of 2-19 rows (tiles of 8 or 2 rows, tails, a thread split), for both weight formats."""
    torch.manual_seed(k + 3)
    q4 = quantize_int4(torch.randn(40, k) * 0.1)
    q4_codes, q4_scales = pack_q4(q4.values, q4.scale, q4.minimum)
    q8_codes, q8_scales = pack_q8(*quantize_q8_blocks(torch.randn(40, k) * 0.1))
    x = torch.randn(19, k) * 2
    for mm, codes, scales in ((ops.q4_mm, q4_codes, q4_scales), (ops.q8_mm, q8_codes, q8_scales)):
        alone = torch.cat([mm(x[i:i + 1], codes, scales) for i in range(19)])  # [19, 40]
        for rows in (2, 3, 5, 8, 9, 16, 19):
            for start in (0, 19 - rows):
                batch = mm(x[start:start + rows], codes, scales)
                assert torch.equal(batch, alone[start:start + rows]), (rows, start)


@pytest.mark.parametrize("rows", [1, 3, 8, 11])
@pytest.mark.parametrize("k", [32, 96, 576])
def test_int8_kernel_computes_the_block_formula(ops, rows: int, k: int) -> None:
    torch.manual_seed(rows * 1000 + k + 7)
    codes, scales = pack_q8(*quantize_q8_blocks(torch.randn(45, k) * 0.1))
    assert int(codes.min()) < 0 < int(codes.max())  # both signs: the sign moves onto the activations
    x = torch.randn(rows, k)
    out = ops.q8_mm(x, codes, scales)
    expected = _model_q8(x, codes, scales)
    assert torch.allclose(out.double(), expected, rtol=1e-4, atol=1e-4 * float(expected.abs().max()))
    dense = x.double() @ unpack_q8(codes, scales).double().t()
    assert ((out.double() - dense).abs() <= 1e-3 * dense.abs().max()).all()


def test_kernel_reads_strided_rows_and_zero_blocks(ops) -> None:
    torch.manual_seed(3)
    q = quantize_int4(torch.randn(16, 64))
    codes, scales = pack_q4(q.values, q.scale, q.minimum)
    wide = torch.randn(4, 100)
    wide[1, :32] = 0.0  # an all-zero activation block: scale 0, no division by zero
    x = wide[:, 10:74]  # row stride 100, last dim contiguous
    out = ops.q4_mm(x, codes, scales)
    assert torch.isfinite(out).all()
    assert torch.allclose(out.double(), _model_q4(x.contiguous(), codes, scales), rtol=1e-4, atol=1e-4)
    assert ops.q4_mm(torch.zeros(0, 64), codes, scales).shape == (0, 16)


def test_kernel_refuses_mismatched_inputs(ops) -> None:
    q = quantize_int4(torch.randn(16, 64))
    codes, scales = pack_q4(q.values, q.scale, q.minimum)
    with pytest.raises(RuntimeError, match="in_features 96 does not match"):
        ops.q4_mm(torch.randn(2, 96), codes, scales)
    with pytest.raises(RuntimeError, match="float32"):
        ops.q4_mm(torch.randn(2, 64, dtype=torch.float64), codes, scales)


def test_q8_blocks_round_trip_a_q8_0_weight_exactly() -> None:
    torch.manual_seed(4)
    values, scale = quantize_q8_blocks(torch.randn(8, 64))
    again_values, again_scale = quantize_q8_blocks(unpack_q8(*pack_q8(values, scale)))
    assert torch.equal(values, again_values) and torch.equal(scale, again_scale)


def test_int4_layer_runs_the_native_kernel_for_few_rows_and_the_dense_copy_above() -> None:
    torch.manual_seed(6)
    q = quantize_int4(torch.randn(64, 128) * 0.1)
    layer = Int4Linear(q, kernel_max_rows=16, dense_dtype=torch.float32, native_max_rows=4)
    assert layer.native_max_rows == 4 and layer.native_codes is not None
    ops = load_block_mm()
    few = torch.randn(3, 128)
    assert torch.equal(layer(few), ops.q4_mm(few, layer.native_codes, layer.native_scales))
    assert torch.equal(layer(few[None])[0], layer(few))  # leading dims take the same path
    half = few.to(torch.bfloat16)  # so does another dtype, 2-D or not: the kernel's float32 result, cast back
    expected = ops.q4_mm(half.float(), layer.native_codes, layer.native_scales).to(torch.bfloat16)
    assert layer(half).dtype == torch.bfloat16
    assert torch.equal(layer(half), expected) and torch.equal(layer(half[None])[0], expected)
    many = torch.randn(40, 128)
    assert torch.allclose(layer(many), many @ layer.dense.t(), atol=1e-5)
    # a copy of the model (weights_eval deep-copies it) keeps the native path
    twin = copy.deepcopy(layer)
    assert torch.equal(twin(few), layer(few))


def test_int8_layer_from_blocks_holds_one_set_of_values_on_both_paths() -> None:
    torch.manual_seed(8)
    weight = torch.randn(48, 96)
    layer = Int8Linear.from_blocks(weight, kernel_max_rows=4, native_max_rows=4, dense_dtype=torch.float32)
    assert layer.native_codes is not None and layer.values is None
    exact = unpack_q8(layer.native_codes, layer.native_scales)
    assert torch.equal(layer.dense, exact)
    x = torch.randn(2, 96)
    assert torch.allclose(layer(x), x @ exact.t(), rtol=1e-3, atol=1e-3 * float((x @ exact.t()).abs().max()))
    many = torch.randn(9, 96)
    assert torch.allclose(layer(many), many @ exact.t(), atol=1e-5)
    only_kernel = Int8Linear.from_blocks(weight, kernel_max_rows=4, native_max_rows=4, dense_dtype=None)
    assert torch.equal(only_kernel(many), load_block_mm().q8_mm(many, layer.native_codes, layer.native_scales))

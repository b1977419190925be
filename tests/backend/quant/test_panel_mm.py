"""The 4-bit panel kernel against a float64 model of its arithmetic, and its two promises: the same bits for a
row whatever else the call holds, and the same bits on every code path this machine can build (``native``:
AVX-512 here where the CPU has it, with AMX tiles for 16 rows at a time where it has those too, ``haswell``: the
AVX2 path, ``x86-64``: the portable loop)."""

from __future__ import annotations

import os

import pytest
import torch

from backend.quant.blocks import quantize_int4, quantize_q8_blocks
from backend.quant.linear import Int4Linear, Int8Linear
from backend.quant.native_mm import pack_q8, unpack_q8
from backend.quant.panel_mm import (
    load_panel_mm,
    pack_q4_panels,
    pack_q8_panels,
    unpack_q4_panels,
    unpack_q8_panels,
)
from tests.backend.quant.test_native_mm import _quantized_activations, build_each_march


@pytest.fixture(scope="module")
def builds():
    built = build_each_march(load_panel_mm)
    missing = [march for march, ops in built.items() if ops is None]
    assert not missing, f"the panel kernel did not build with -march={missing}"
    return built


def _weight(n: int, k: int, seed: int):
    torch.manual_seed(seed)
    q = quantize_int4(torch.randn(n, k) * 0.1)
    return q, *pack_q4_panels(q.values, q.scale, q.minimum)


def _one_level_activations(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The kernel's one-level activation rounding per block of 32: (q [M, B, 32], d [M, B], block sums)."""
    m, k = x.shape
    blocks = x.float().reshape(m, k // 32, 32)
    d = blocks.abs().amax(-1) / 127  # float32, as the kernel
    inv = torch.where(d > 0, 1 / d, torch.zeros_like(d))
    q = (blocks * inv[..., None]).round()  # half to even, as std::nearbyint
    return q.double(), d.double(), blocks.double().sum(-1)


def _rounding_bound(x: torch.Tensor, codes: torch.Tensor, scales: torch.Tensor, levels: int) -> torch.Tensor:
    """How far the kernel's ``[M, N]`` result may sit from ``x @ W.T`` (float64, ``W`` the weight the panels stand
    for): each activation moves by at most half its block's step (d / 2 with one level, d / 256 with two) and
    meets ``W - m`` (the minimum term takes the exact block sum), plus float32 slack."""
    _, d, _ = _one_level_activations(x)  # [M, B]
    step = d / 2 if levels == 1 else d / 256
    weight = unpack_q4_panels(codes, scales).double()  # [N, K]
    n, b = weight.shape[0], weight.shape[1] // 32
    minimum = scales.double().permute(0, 3, 1, 2).reshape(n, b, 2)[..., 1]  # [N, B]
    spread = (weight.reshape(n, b, 32) - minimum[..., None]).abs().sum(-1)  # [N, B]
    return (step @ spread.t()) * 1.01 + 1e-5 * float((x.double() @ weight.t()).abs().max())


def _model(x: torch.Tensor, codes: torch.Tensor, scales: torch.Tensor, levels: int = 2) -> torch.Tensor:
    """Exact integer block dots, then the kernel's float32 steps (each rounded once), blocks in order."""
    # [M, B, 32] 128q + r (or q), [M, B] d/128 (or d), [M, B] block sums
    v, d, sums = (_quantized_activations if levels == 2 else _one_level_activations)(x)
    n, k = codes.shape[0] * 16, codes.shape[1] * 32
    lo, hi = codes & 0x0F, codes >> 4  # [P, B, j, lane, i]
    q = torch.stack([lo, hi], dim=4).permute(0, 3, 1, 2, 4, 5).reshape(n, k // 32, 32).double()  # [N, B, 32]
    s = scales.double().permute(0, 3, 1, 2).reshape(n, k // 32, 2)  # [N, B, 2]
    dots = torch.einsum("mbk,nbk->mnb", v, q)  # [M, N, B] exact integers
    acc = torch.zeros(x.shape[0], n, dtype=torch.float32)
    for b in range(k // 32):
        scale = (s[None, :, b, 0] * d[:, None, b].float().double()).float()  # f32 product of two f32 values
        acc = (scale.double() * dots[:, :, b] + acc.double()).float()
        acc = (s[None, :, b, 1] * sums[:, None, b].float().double() + acc.double()).float()
    return acc


@pytest.mark.parametrize("levels", [1, 2])
@pytest.mark.parametrize("k", [32, 96, 576])
@pytest.mark.parametrize("rows", [1, 3, 4, 7, 9, 16, 37])  # 16 and 37: AMX tiles of 16 rows where the CPU has them
def test_the_kernel_computes_its_formula_with_the_same_bits_on_every_build(builds, rows: int, k: int,
                                                                           levels: int) -> None:
    q, codes, scales = _weight(48, k, seed=rows * 100 + k)
    x = torch.randn(rows, k) * 3
    outs = {march: ops.q4_panel_mm(x, codes, scales, levels) for march, ops in builds.items()}
    for out in outs.values():
        assert torch.equal(out, outs["native"])  # AVX-512, AVX2 and portable C++: one sequence of IEEE steps
    expected = _model(x, codes, scales, levels)
    assert torch.allclose(outs["native"], expected, rtol=1e-5, atol=1e-6 * float(expected.abs().max()))
    dense = x.double() @ unpack_q4_panels(codes, scales).double().t()  # the weight it stands for
    assert ((outs["native"].double() - dense).abs() <= _rounding_bound(x, codes, scales, levels)).all()


def test_one_activation_level_is_the_two_level_rounding_without_its_rest(builds) -> None:
    _, codes, scales = _weight(32, 96, seed=3)
    x = torch.randn(6, 96)
    one, two = (builds["native"].q4_panel_mm(x, codes, scales, levels) for levels in (1, 2))
    assert torch.equal(builds["native"].q4_panel_mm(x, codes, scales), two)  # two levels unless asked
    assert not torch.equal(one, two)
    dense = x.double() @ unpack_q4_panels(codes, scales).double().t()
    assert (two.double() - dense).abs().mean() < (one.double() - dense).abs().mean() / 20
    with pytest.raises(RuntimeError, match="1 or 2 activation levels"):
        builds["native"].q4_panel_mm(x, codes, scales, 3)


@pytest.mark.parametrize("levels", [1, 2])
def test_each_row_gets_the_same_bits_alone_and_in_any_batch(builds, levels: int) -> None:
    _, codes, scales = _weight(64, 576, seed=5)
    x = torch.randn(37, 576)
    for ops in builds.values():
        alone = torch.cat([ops.q4_panel_mm(x[i:i + 1], codes, scales, levels) for i in range(37)])
        for rows in (2, 3, 4, 5, 8, 13, 16, 19, 32, 37):  # 16 rows and more: AMX tiles where the CPU has them
            for start in (0, 37 - rows):
                got = ops.q4_panel_mm(x[start:start + rows], codes, scales, levels)
                assert torch.equal(got, alone[start:start + rows])


@pytest.mark.parametrize("levels", [1, 2])
def test_zero_blocks_and_non_finite_values_give_the_same_bits_on_every_build_and_row_count(builds, levels: int) -> None:
    """The activation scan (block max and in-order sum, 16 or 8 blocks a vector on AVX-512 / AVX2) and the AMX
    tiles meet what the portable loop meets: all-zero blocks, infinities, NaN, values near float32's limits."""
    _, codes, scales = _weight(32, 576, seed=8)
    x = torch.randn(37, 576) * 3
    x[0, :32] = 0.0
    x[5, 40], x[9, 100], x[20, 7] = float("inf"), float("-inf"), float("nan")
    x[30, 64:96] = 3e38
    x[33, 200] = -0.0
    outs = {march: ops.q4_panel_mm(x, codes, scales, levels) for march, ops in builds.items()}
    for out in outs.values():
        assert torch.equal(out.view(torch.int32), outs["native"].view(torch.int32))
    alone = torch.cat([builds["native"].q4_panel_mm(x[i:i + 1], codes, scales, levels) for i in range(37)])
    assert torch.equal(alone.view(torch.int32), outs["native"].view(torch.int32))
    assert torch.isfinite(outs["native"][1:5]).all()  # rows without a non-finite value stay finite


def test_amx_tiles_are_on_exactly_where_the_cpu_has_them(builds) -> None:
    """So that the 16- and 37-row cases above test the tiles against the vector builds on an AMX CPU, not the vector
    path against itself: the native build runs tiles wherever the CPU has AMX-INT8 (and THRIFTY_NATIVE_AMX is not 0);
    the haswell and portable builds never do."""
    from pathlib import Path

    cpuinfo = Path("/proc/cpuinfo")
    flags = next((line.split() for line in cpuinfo.read_text().splitlines() if line.startswith("flags")), []) \
        if cpuinfo.exists() else []
    expected = {"amx_tile", "amx_int8"} <= set(flags) and os.environ.get("THRIFTY_NATIVE_AMX") != "0"
    assert builds["native"].amx_enabled() is expected
    assert not builds["haswell"].amx_enabled() and not builds["x86-64"].amx_enabled()


@pytest.mark.parametrize("levels", [1, 2])
def test_a_split_over_threads_changes_nothing(builds, levels: int) -> None:
    _, codes, scales = _weight(4096, 576, seed=6)
    x = torch.randn(5, 576)
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        split = builds["native"].q4_panel_mm(x, codes, scales, levels)
        torch.set_num_threads(1)
        single = builds["native"].q4_panel_mm(x, codes, scales, levels)
    finally:
        torch.set_num_threads(threads)
    assert torch.equal(split, single)


def test_packing_keeps_the_weight_and_refuses_shapes_it_cannot_hold() -> None:
    q, codes, scales = _weight(32, 64, seed=7)
    sz = scales.float()  # the kernel's float16 scales
    rounded = unpack_q4_panels(codes, scales)
    assert rounded.shape == (32, 64)
    assert torch.allclose(rounded, q.dequantize(), atol=2e-3 * float(q.dequantize().abs().max()))
    assert sz.shape == (2, 2, 2, 16)
    with pytest.raises(ValueError, match="multiple of 16"):
        pack_q4_panels(q.values[:24], q.scale[:24], q.minimum[:24])


def test_the_kernel_refuses_mismatched_inputs(builds) -> None:
    _, codes, scales = _weight(16, 64, seed=8)
    with pytest.raises(RuntimeError, match="in_features"):
        builds["native"].q4_panel_mm(torch.randn(2, 32), codes, scales)
    with pytest.raises(RuntimeError, match="float32"):
        builds["native"].q4_panel_mm(torch.randn(2, 64, dtype=torch.float64), codes, scales)


def test_an_int4_layer_asked_for_panels_runs_them_for_every_row_count() -> None:
    q, codes, scales = _weight(64, 128, seed=9)
    layer = Int4Linear(q, kernel_max_rows=16, dense_dtype=None, panel=True)
    assert layer.native_codes.shape == codes.shape and torch.equal(layer.native_codes, codes)
    ops = load_panel_mm()
    for rows in (1, 7, 40):
        x = torch.randn(rows, 128)
        assert torch.equal(layer(x), ops.q4_panel_mm(x, codes, scales))


def _model8(x: torch.Tensor, codes: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    v, d, _ = _quantized_activations(x)  # [M, B, 32] 128q + r, [M, B] d/128
    n, b = codes.shape[0] * 16, codes.shape[1]
    w = (codes.to(torch.int16) - 128).permute(0, 3, 1, 2, 4).reshape(n, b, 32).double()  # [N, B, 32]
    s = scales.double().permute(0, 2, 1).reshape(n, b)  # [N, B]
    dots = torch.einsum("mbk,nbk->mnb", v, w)  # [M, N, B] exact integers
    acc = torch.zeros(x.shape[0], n, dtype=torch.float32)
    for block in range(b):
        scale = (s[None, :, block] * d[:, None, block].float().double()).float()
        acc = (scale.double() * dots[:, :, block] + acc.double()).float()
    return acc


@pytest.mark.parametrize("rows", [1, 4, 6, 9])
def test_the_8bit_panels_compute_their_formula_with_the_same_bits_on_every_build(builds, rows: int) -> None:
    torch.manual_seed(rows)
    values, scale = quantize_q8_blocks(torch.randn(48, 96) * 0.1)
    assert int(values.min()) < 0 < int(values.max())  # both signs, up to the code offset
    codes, scales = pack_q8_panels(values, scale)
    assert torch.equal(unpack_q8_panels(codes, scales), unpack_q8(*pack_q8(values, scale)))
    x = torch.randn(rows, 96) * 2
    outs = {march: ops.q8_panel_mm(x, codes, scales) for march, ops in builds.items()}
    for out in outs.values():
        assert torch.equal(out, outs["native"])
    expected = _model8(x, codes, scales)
    assert torch.allclose(outs["native"], expected, rtol=1e-5, atol=1e-6 * float(expected.abs().max()))
    alone = torch.cat([builds["native"].q8_panel_mm(x[i:i + 1], codes, scales) for i in range(rows)])
    assert torch.equal(alone, outs["native"])


def test_an_int8_layer_from_blocks_asked_for_panels_runs_them_for_every_row_count() -> None:
    torch.manual_seed(11)
    weight = torch.randn(64, 96)
    layer = Int8Linear.from_blocks(weight, kernel_max_rows=4, native_max_rows=4, dense_dtype=None, panel=True)
    assert layer.native_codes.dim() == 5 and layer.dense is None
    exact = unpack_q8_panels(layer.native_codes, layer.native_scales)
    for rows in (1, 9, 33):
        x = torch.randn(rows, 96)
        reference = x @ exact.t()
        assert torch.allclose(layer(x), reference, rtol=1e-3, atol=1e-3 * float(reference.abs().max()))

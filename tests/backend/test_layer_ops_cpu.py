"""The native CPU layer ops (backend/layer_ops_cpu.py): each operator against the kernels package's
PyTorch reference on decode- and prefill-sized inputs and strided views, the fallback for inputs they do
not take, and a tiny model and engine run through them against the same model on the reference ops."""

from __future__ import annotations

import copy

import pytest
import torch

import kernels
from backend.layer_ops_cpu import NativeLayerOps, load_layer_ops, native_layer_ops
from backend.sampling import SamplingParams
from tests.backend.test_engine_support import oracle_tokens, run_engine, tiny_engine, tiny_loaded


@pytest.fixture(scope="module")
def ops() -> NativeLayerOps:
    built = native_layer_ops()
    assert built is not None  # the test machines have a compiler: a silent fallback would hide a broken build
    return built


def test_the_operators_build_here() -> None:
    assert load_layer_ops() is not None


@pytest.mark.parametrize("rows", [1, 5, 300])
def test_norms_match_the_reference(ops: NativeLayerOps, rows: int) -> None:
    gen = torch.Generator().manual_seed(rows)
    x, residual = torch.randn(rows, 576, generator=gen) * 3, torch.randn(rows, 576, generator=gen)
    weight = torch.randn(576, generator=gen)
    out, summed = ops.fused_add_rms_norm(x, residual, weight, 1e-5)
    ref_out, ref_summed = kernels.fused_add_rms_norm(x, residual, weight, 1e-5, use_triton=False)
    torch.testing.assert_close(summed, ref_summed, rtol=0, atol=0)  # one fp32 add: bit-identical
    torch.testing.assert_close(out, ref_out, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(ops.rms_norm(x, weight, 1e-5), kernels.rms_norm(x, weight, 1e-5, use_triton=False),
                               rtol=1e-5, atol=1e-5)
    wide = torch.randn(rows, 1000, generator=gen)[:, 100:676]  # a strided row view, as a slice of a wider tensor
    torch.testing.assert_close(ops.rms_norm(wide, weight, 1e-6), kernels.rms_norm(wide, weight, 1e-6, use_triton=False),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("rows", [1, 7, 260])
def test_rotary_matches_the_reference_on_views_of_a_fused_projection(ops: NativeLayerOps, rows: int) -> None:
    gen = torch.Generator().manual_seed(rows)
    hq, hkv, d = 9, 3, 64
    qkv = torch.randn(rows, (hq + 2 * hkv) * d, generator=gen)
    q = qkv[:, :hq * d].view(rows, hq, d)
    k = qkv[:, hq * d:(hq + hkv) * d].view(rows, hkv, d)
    positions = torch.randint(0, 2048, (rows,), generator=gen)
    cos, sin = kernels.rope_cos_sin(d, 2048, 100000.0)
    q_rot, k_rot = ops.rotary_embedding(q, k, positions, cos, sin)
    ref_q, ref_k = kernels.rotary_embedding(q, k, positions, cos, sin, use_triton=False)
    assert q_rot.is_contiguous() and k_rot.is_contiguous() and q_rot.shape == (rows, hq, d)
    torch.testing.assert_close(q_rot, ref_q, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(k_rot, ref_k, rtol=1e-5, atol=1e-5)
    assert torch.equal(qkv[:, :hq * d].view(rows, hq, d), q)  # the inputs are not modified


def test_rotary_refuses_a_position_outside_the_table(ops: NativeLayerOps) -> None:
    cos, sin = kernels.rope_cos_sin(64, 16, 10000.0)
    with pytest.raises(RuntimeError, match="out of the rotary table"):
        ops.rotary_embedding(torch.randn(1, 2, 64), torch.randn(1, 1, 64), torch.tensor([16]), cos, sin)


@pytest.mark.parametrize("rows", [1, 64])
def test_silu_and_mul_matches_the_reference(ops: NativeLayerOps, rows: int) -> None:
    x = torch.randn(rows, 2 * 1536, generator=torch.Generator().manual_seed(rows)) * 6
    torch.testing.assert_close(ops.silu_and_mul(x), kernels.silu_and_mul(x, use_triton=False), rtol=1e-5, atol=1e-5)


def test_other_dtypes_go_to_the_kernels_package(ops: NativeLayerOps) -> None:
    x = torch.randn(3, 64, dtype=torch.bfloat16)
    weight = torch.ones(64, dtype=torch.bfloat16)
    assert torch.equal(ops.rms_norm(x, weight, 1e-5), kernels.rms_norm(x, weight, 1e-5))
    assert torch.equal(ops.silu_and_mul(x), kernels.silu_and_mul(x))
    assert copy.deepcopy(ops) is ops


def test_a_model_on_native_ops_gives_the_reference_model_s_logits_and_greedy_tokens(ops: NativeLayerOps) -> None:
    reference = tiny_loaded(seed=3)
    native = tiny_loaded(seed=3)
    native.model.use_layer_ops(ops)
    assert reference.model.layer_ops is None  # the kernels package
    prompt = [5, 17, 33, 2, 9, 41, 8, 12, 60, 3]
    params = SamplingParams(max_tokens=24, temperature=0.0, ignore_eos=True)
    expected = oracle_tokens(reference, prompt, params)
    assert oracle_tokens(native, prompt, params) == expected
    # the paged engine (decode rows, chunked prefill) over the native ops gives the same tokens
    engine = tiny_engine(native, max_num_batched_tokens=4)
    got = run_engine(engine, [("a", prompt, params), ("b", prompt[:6], params)])
    assert got["a"][0] == expected
    assert got["b"][0] == oracle_tokens(reference, prompt[:6], params)

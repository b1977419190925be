"""RMSNorm, fused add + RMSNorm, rotary and SiLU-and-mul: Triton (interpreted) vs reference."""

from __future__ import annotations

import pytest
import torch

import kernels
from kernels import reference as ref
from tests.kernels.helpers import DTYPES, ELEMENTWISE_TOL, assert_close, requires_triton, seeded_generator

pytestmark = requires_triton


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("tokens", "hidden"), [(1, 576), (7, 100), (3, 128)])
def test_rms_norm(dtype, tokens, hidden):
    g = seeded_generator(tokens * hidden)
    x = (torch.randn(tokens, hidden, generator=g) * 3).to(dtype)
    w = torch.randn(hidden, generator=g).to(dtype)
    out = kernels.rms_norm(x, w, 1e-5, use_triton=True)
    assert out.dtype == dtype and out.shape == x.shape
    assert_close(out, ref.rms_norm(x, w, 1e-5), ELEMENTWISE_TOL)


@pytest.mark.parametrize("dtype", DTYPES)
def test_fused_add_rms_norm_strided(dtype):
    g = seeded_generator(1)
    base = torch.randn(5, 300, generator=g).to(dtype)
    x = base[:, 50:250]  # [5, 200] with row stride 300
    residual = torch.randn(5, 200, generator=g).to(dtype)
    w = torch.randn(200, generator=g)  # fp32 weight with low-precision activations
    x0, r0 = x.clone(), residual.clone()
    out, new_res = kernels.fused_add_rms_norm(x, residual, w, 1e-6, use_triton=True)
    exp_out, exp_res = ref.fused_add_rms_norm(x, residual, w, 1e-6)
    assert_close(new_res, exp_res, ELEMENTWISE_TOL)
    assert_close(out, exp_out, ELEMENTWISE_TOL)
    assert torch.equal(x, x0) and torch.equal(residual, r0)  # inputs untouched


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("tokens", "d"), [(1, 1536), (6, 70)])
def test_silu_and_mul(dtype, tokens, d):
    g = seeded_generator(d)
    x = (torch.randn(tokens, 2 * d, generator=g) * 4).to(dtype)
    out = kernels.silu_and_mul(x, use_triton=True)
    assert out.shape == (tokens, d)
    assert_close(out, ref.silu_and_mul(x), ELEMENTWISE_TOL)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("tokens", "hq", "hk", "d"), [(1, 9, 3, 64), (5, 8, 1, 128), (3, 4, 4, 64)])
def test_rotary(dtype, tokens, hq, hk, d):
    g = seeded_generator(hq * d + tokens)
    cos, sin = kernels.rope_cos_sin(d, 2048, 100000.0)
    q = torch.randn(tokens, hq, d, generator=g).to(dtype)
    k = torch.randn(tokens, hk, d, generator=g).to(dtype)
    positions = torch.randint(0, 2048, (tokens,), generator=g)
    qr, kr = kernels.rotary_embedding(q, k, positions, cos, sin, use_triton=True)
    eq, ek = ref.rotary_embedding(q, k, positions, cos, sin)
    assert_close(qr, eq, ELEMENTWISE_TOL)
    assert_close(kr, ek, ELEMENTWISE_TOL)


def test_rotary_on_views_of_fused_qkv():
    tokens, hq, hk, d = 4, 9, 3, 64
    qkv = torch.randn(tokens, (hq + 2 * hk) * d)
    q = qkv[:, : hq * d].view(tokens, hq, d)  # non-contiguous: token stride (hq + 2hk) * d
    k = qkv[:, hq * d : (hq + hk) * d].view(tokens, hk, d)
    positions = torch.tensor([3, 0, 511, 7], dtype=torch.int32)
    cos, sin = kernels.rope_cos_sin(d, 512)
    qr, kr = kernels.rotary_embedding(q, k, positions, cos, sin, use_triton=True)
    eq, ek = ref.rotary_embedding(q, k, positions, cos, sin)
    assert_close(qr, eq, ELEMENTWISE_TOL)
    assert_close(kr, ek, ELEMENTWISE_TOL)
    assert qr.is_contiguous() and kr.is_contiguous()


@pytest.mark.parametrize("op", ["rms", "silu", "rope"])
def test_zero_tokens(op):
    if op == "rms":
        out = kernels.rms_norm(torch.empty(0, 64), torch.ones(64), 1e-5, use_triton=True)
        assert out.shape == (0, 64)
    elif op == "silu":
        assert kernels.silu_and_mul(torch.empty(0, 64), use_triton=True).shape == (0, 32)
    else:
        cos, sin = kernels.rope_cos_sin(64, 8)
        qr, kr = kernels.rotary_embedding(
            torch.empty(0, 2, 64), torch.empty(0, 1, 64), torch.empty(0, dtype=torch.int64), cos, sin, use_triton=True
        )
        assert qr.shape == (0, 2, 64) and kr.shape == (0, 1, 64)

"""The PyTorch references against naive, independently written implementations."""

from __future__ import annotations

import math

import pytest
import torch

import kernels
from kernels import reference as ref
from tests.kernels.helpers import dense_attention, gather_dense, make_paged_cache


@pytest.mark.parametrize("quantized", [False, True])
@pytest.mark.parametrize(
    ("lens", "hq", "hk", "d", "bs"),
    [
        ([1], 4, 4, 64, 16),
        ([37, 5, 0, 100], 9, 3, 64, 16),
        ([17, 33], 8, 1, 128, 8),
        ([50], 6, 2, 32, 7),
    ],
)
def test_reference_decode_matches_dense_sdpa(lens, hq, hk, d, bs, quantized):
    cache = make_paged_cache(lens, hk, d, bs, torch.float32, quantized=quantized)
    q = torch.randn(len(lens), hq, d)  # [B, Hq, D]
    scale = 0.7 / math.sqrt(d)
    out = ref.paged_decode_attention(
        q, cache.k_cache, cache.v_cache, cache.block_tables, cache.context_lens, scale, cache.k_scale, cache.v_scale
    )
    for b, n in enumerate(lens):
        if n == 0:
            torch.testing.assert_close(out[b], torch.zeros(hq, d))
            continue
        expected = dense_attention(q[b : b + 1], gather_dense(cache, b, "k"), gather_dense(cache, b, "v"), scale)
        torch.testing.assert_close(out[b], expected[0], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("quantized", [False, True])
@pytest.mark.parametrize(
    ("lens", "q_lens", "hq", "hk", "d", "bs"),
    [
        ([7], [7], 2, 2, 64, 16),  # plain prefill
        ([40, 3, 25], [15, 3, 1], 9, 3, 64, 16),  # extend over cached prefixes, a decode-like row
        ([19, 9], [0, 9], 8, 1, 128, 4),  # a sequence with no new tokens
    ],
)
def test_reference_prefill_matches_dense_sdpa(lens, q_lens, hq, hk, d, bs, quantized):
    cache = make_paged_cache(lens, hk, d, bs, torch.float32, quantized=quantized)
    total = sum(q_lens)
    q = torch.randn(total, hq, d)  # [T, Hq, D]
    cu = torch.tensor([0, *torch.tensor(q_lens).cumsum(0).tolist()], dtype=torch.int32)
    scale = d**-0.5
    out = ref.paged_prefill_attention(
        q, cache.k_cache, cache.v_cache, cache.block_tables, cu, cache.context_lens, scale, cache.k_scale, cache.v_scale
    )
    for b in range(len(lens)):
        s, e = int(cu[b]), int(cu[b + 1])
        if s == e:
            continue
        expected = dense_attention(q[s:e], gather_dense(cache, b, "k"), gather_dense(cache, b, "v"), scale)
        torch.testing.assert_close(out[s:e], expected, atol=1e-5, rtol=1e-5)


def test_reference_decode_equals_prefill_with_one_token():
    lens = [30, 9, 1]
    cache = make_paged_cache(lens, 2, 64, 8, torch.float32)
    q = torch.randn(3, 6, 64)
    cu = torch.arange(4, dtype=torch.int32)
    a = ref.paged_decode_attention(q, cache.k_cache, cache.v_cache, cache.block_tables, cache.context_lens, 0.125)
    b = ref.paged_prefill_attention(q, cache.k_cache, cache.v_cache, cache.block_tables, cu, cache.context_lens, 0.125)
    torch.testing.assert_close(a, b, atol=1e-6, rtol=1e-6)


def test_reference_store_kv_cache_places_rows_at_slots():
    nb, bs, hk, d = 5, 4, 2, 8
    k_cache = torch.zeros(nb, bs, hk, d)
    v_cache = torch.zeros(nb, bs, hk, d)
    key, value = torch.randn(3, hk, d), torch.randn(3, hk, d)
    slots = torch.tensor([13, -1, 2])
    ref.store_kv_cache(key, value, k_cache, v_cache, slots)
    torch.testing.assert_close(k_cache[3, 1], key[0])
    torch.testing.assert_close(v_cache[0, 2], value[2])
    assert int((k_cache != 0).any(-1).any(-1).sum()) == 2  # the skipped token wrote nothing


def test_quantize_roundtrip_error_bounded_by_half_step():
    x = torch.randn(50, 3, 64) * torch.rand(50, 3, 1) * 10
    x[0, 0] = 0.0  # all-zero row
    q, s = kernels.quantize_kv_int8(x)
    assert q.dtype == torch.int8 and s.dtype == torch.float32 and s.shape == (50, 3)
    assert int(q.abs().max()) == 127
    assert float(s[0, 0]) == 0.0 and int(q[0, 0].abs().max()) == 0
    back = kernels.dequantize_kv_int8(q, s)
    assert bool(((back - x).abs() <= s[..., None] / 2 + 1e-6).all())


def test_round_half_away_from_zero():
    x = torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5, 0.49, -1.2])
    torch.testing.assert_close(ref.round_half_away(x), torch.tensor([1.0, 2.0, 3.0, -1.0, -3.0, 0.0, -1.0]))


def _hf_rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def test_reference_rotary_matches_hf_formula():
    d, theta = 64, 100000.0
    cos, sin = kernels.rope_cos_sin(d, 300, theta)
    positions = torch.tensor([0, 5, 299, 17])
    q, k = torch.randn(4, 9, d), torch.randn(4, 3, d)
    inv_freq = 1.0 / (theta ** (torch.arange(0, d, 2, dtype=torch.int64).float() / d))
    emb = torch.cat([positions.float()[:, None] * inv_freq] * 2, dim=-1)  # [T, D] HF layout
    c, s = emb.cos()[:, None, :], emb.sin()[:, None, :]
    qr, kr = ref.rotary_embedding(q, k, positions, cos, sin)
    torch.testing.assert_close(qr, q * c + _hf_rotate_half(q) * s, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(kr, k * c + _hf_rotate_half(k) * s, atol=1e-5, rtol=1e-5)


def test_rope_cos_sin_with_custom_inv_freq():
    inv = torch.tensor([1.0, 0.5])
    cos, sin = kernels.rope_cos_sin(4, 3, inv_freq=inv)
    torch.testing.assert_close(cos, torch.tensor([[1.0, 1.0], [math.cos(1), math.cos(0.5)], [math.cos(2), math.cos(1)]]))
    torch.testing.assert_close(sin[2], torch.tensor([math.sin(2), math.sin(1)]))


def test_reference_rms_norm_and_silu_match_torch():
    x = torch.randn(6, 40)
    w = torch.randn(40)
    r = torch.randn(6, 40)
    expected = torch.nn.functional.rms_norm(x, (40,), w, eps=1e-5)
    torch.testing.assert_close(ref.rms_norm(x, w, 1e-5), expected, atol=1e-5, rtol=1e-5)
    out, res = ref.fused_add_rms_norm(x, r, w, 1e-5)
    torch.testing.assert_close(res, x + r)
    torch.testing.assert_close(out, torch.nn.functional.rms_norm(x + r, (40,), w, eps=1e-5), atol=1e-5, rtol=1e-5)
    g = torch.randn(3, 20)
    torch.testing.assert_close(ref.silu_and_mul(g), torch.nn.functional.silu(g[:, :10]) * g[:, 10:])

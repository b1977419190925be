"""KV-cache store (fp and int8 quantise-on-store): Triton (interpreted) vs reference."""

from __future__ import annotations

import pytest
import torch

import kernels
from kernels import reference as ref
from tests.kernels.helpers import DTYPES, requires_triton, seeded_generator

pytestmark = requires_triton


def _caches(nb: int, bs: int, hk: int, d: int, dtype: torch.dtype, quantized: bool):
    cdt = torch.int8 if quantized else dtype
    k = torch.zeros(nb, bs, hk, d, dtype=cdt)
    v = torch.zeros(nb, bs, hk, d, dtype=cdt)
    ks = torch.zeros(nb, bs, hk) if quantized else None
    vs = torch.zeros(nb, bs, hk) if quantized else None
    return k, v, ks, vs


@pytest.mark.parametrize("quantized", [False, True])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(("tokens", "hk", "d", "bs"), [(1, 3, 64, 16), (23, 1, 128, 16), (9, 8, 64, 5)])
def test_store_kv_cache(dtype, quantized, tokens, hk, d, bs):
    nb = 2 * ((tokens + bs - 1) // bs) + 2
    g = seeded_generator(tokens + hk)
    slots = torch.randperm(nb * bs, generator=g)[:tokens]
    if tokens > 2:
        slots[1] = -1  # padding token
    key = (torch.randn(tokens, hk, d, generator=g) * 2).to(dtype)
    value = torch.randn(tokens, hk, d, generator=g).to(dtype)
    kc, vc, ks, vs = _caches(nb, bs, hk, d, dtype, quantized)
    kc2, vc2, ks2, vs2 = _caches(nb, bs, hk, d, dtype, quantized)
    kernels.store_kv_cache(key, value, kc, vc, slots, k_scale=ks, v_scale=vs, use_triton=True)
    ref.store_kv_cache(key, value, kc2, vc2, slots, ks2, vs2)
    if quantized:
        # Same formula on both sides; allow one step of difference for division rounding on GPUs.
        torch.testing.assert_close(kc.to(torch.int16), kc2.to(torch.int16), atol=1, rtol=0)
        torch.testing.assert_close(vc.to(torch.int16), vc2.to(torch.int16), atol=1, rtol=0)
        torch.testing.assert_close(ks, ks2, atol=0, rtol=1e-6)
        torch.testing.assert_close(vs, vs2, atol=0, rtol=1e-6)
    else:
        assert torch.equal(kc, kc2) and torch.equal(vc, vc2)


def test_store_kv_cache_strided_key_and_int32_slots():
    tokens, hk, d, bs, nb = 6, 3, 64, 4, 5
    kv = torch.randn(tokens, 2, hk, d)
    key, value = kv[:, 0], kv[:, 1]  # non-contiguous token stride
    slots = torch.tensor([0, 5, 19, -3, 7, 12], dtype=torch.int32)
    kc, vc, _, _ = _caches(nb, bs, hk, d, torch.float32, False)
    kernels.store_kv_cache(key, value, kc, vc, slots, use_triton=True)
    for t, s in enumerate(slots.tolist()):
        if s >= 0:
            assert torch.equal(kc[s // bs, s % bs], key[t]) and torch.equal(vc[s // bs, s % bs], value[t])
    assert int((kc != 0).any(-1).any(-1).sum()) == 5


def test_int8_store_then_dequantize_is_close_to_input():
    tokens, hk, d, bs, nb = 10, 3, 64, 16, 1
    key = torch.randn(tokens, hk, d)
    kc, vc, ks, vs = _caches(nb, bs, hk, d, torch.float32, True)
    slots = torch.arange(tokens)
    kernels.store_kv_cache(key, key, kc, vc, slots, k_scale=ks, v_scale=vs, use_triton=True)
    back = kernels.dequantize_kv_int8(kc[0, :tokens], ks[0, :tokens])
    assert bool(((back - key).abs() <= ks[0, :tokens, :, None] / 2 + 1e-6).all())

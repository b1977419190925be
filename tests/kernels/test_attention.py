"""Paged decode (split-KV) and prefill/extend attention: Triton (interpreted) vs reference.

Shapes are deliberately irregular: context lengths that are not multiples of the page size,
shuffled page tables with garbage past each context, GQA ratios 1 / 3 / 8, head_dim 64 / 128,
page sizes 4 / 7 / 8 / 16 / 32, empty sequences.
"""

from __future__ import annotations

import pytest
import torch

import kernels
from kernels import paged_decode, paged_prefill
from kernels import reference as ref
from tests.kernels.helpers import (
    ATTENTION_TOL,
    DTYPES,
    assert_close,
    make_paged_cache,
    requires_triton,
    seeded_generator,
)

pytestmark = requires_triton

DECODE_CASES = {
    "b1-gqa1": ([1], 3, 3, 64, 16),
    "b7-gqa3": ([37, 1, 100, 0, 16, 64, 5], 9, 3, 64, 16),
    "b2-gqa8-d128": ([45, 130], 8, 1, 128, 8),
    "b1-long-split": ([600], 9, 3, 64, 32),
}


def _run_decode(case: str, dtype: torch.dtype, quantized: bool, **kw) -> tuple[torch.Tensor, torch.Tensor]:
    lens, hq, hk, d, bs = DECODE_CASES[case]
    cache = make_paged_cache(lens, hk, d, bs, dtype, quantized=quantized, seed=len(lens))
    q = torch.randn(len(lens), hq, d, generator=seeded_generator(d)).to(dtype)  # [B, Hq, D]
    args = (q, cache.k_cache, cache.v_cache, cache.block_tables, cache.context_lens)
    out = kernels.paged_decode_attention(*args, k_scale=cache.k_scale, v_scale=cache.v_scale, use_triton=True, **kw)
    expected = ref.paged_decode_attention(*args, d**-0.5, cache.k_scale, cache.v_scale)
    return out, expected


@pytest.mark.parametrize("quantized", [False, True], ids=["fp", "int8"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", list(DECODE_CASES))
def test_decode(case, dtype, quantized):
    out, expected = _run_decode(case, dtype, quantized)
    assert out.dtype == dtype
    assert_close(out, expected, ATTENTION_TOL)


@pytest.mark.parametrize("num_splits", [1, 2, 5, 64])
def test_decode_split_kv(num_splits):
    # 64 requested splits collapse to at most one partition per 64-token tile.
    out, expected = _run_decode("b7-gqa3", torch.float32, False, num_splits=num_splits)
    assert_close(out, expected, ATTENTION_TOL)


def test_decode_split_kv_int8_bf16_small_tiles():
    lens, hq, hk, d, bs = DECODE_CASES["b2-gqa8-d128"]
    cache = make_paged_cache(lens, hk, d, bs, torch.bfloat16, quantized=True)
    q = torch.randn(len(lens), hq, d).to(torch.bfloat16)
    args = (q, cache.k_cache, cache.v_cache, cache.block_tables, cache.context_lens)
    out = paged_decode.paged_decode_attention(*args, 0.1, cache.k_scale, cache.v_scale, num_splits=3, block_n=16)
    assert_close(out, ref.paged_decode_attention(*args, 0.1, cache.k_scale, cache.v_scale), ATTENTION_TOL)


def test_decode_strided_q_and_custom_scale():
    lens, hq, hk, d, bs = [20, 9], 9, 3, 64, 16
    cache = make_paged_cache(lens, hk, d, bs, torch.float32)
    qkv = torch.randn(2, (hq + 2 * hk) * d)
    q = qkv[:, : hq * d].view(2, hq, d)  # non-contiguous batch stride
    args = (q, cache.k_cache, cache.v_cache, cache.block_tables, cache.context_lens)
    out = kernels.paged_decode_attention(*args, scale=0.3, use_triton=True)
    assert_close(out, ref.paged_decode_attention(*args, 0.3), ATTENTION_TOL)


def test_decode_all_empty_contexts_give_zeros():
    cache = make_paged_cache([0, 0], 1, 64, 16, torch.float16)
    q = torch.randn(2, 2, 64).to(torch.float16)
    for splits in (1, 2):
        out = kernels.paged_decode_attention(
            q, cache.k_cache, cache.v_cache, cache.block_tables, cache.context_lens, num_splits=splits, use_triton=True
        )
        assert torch.equal(out, torch.zeros_like(out))


PREFILL_CASES = {
    "b1-prefill-gqa1": ([7], [7], 2, 2, 64, 16),
    "b4-extend-gqa3": ([40, 3, 25, 1], [15, 3, 1, 1], 9, 3, 64, 16),
    # seq 0 has no new tokens; seq 2's prefix (80) >= the 64-token tile, so the unmasked KV loop runs
    "b3-gqa8-d128-empty": ([19, 9, 100], [0, 9, 20], 8, 1, 128, 4),
}


def _run_prefill(case: str, dtype: torch.dtype, quantized: bool, **kw) -> tuple[torch.Tensor, torch.Tensor]:
    lens, q_lens, hq, hk, d, bs = PREFILL_CASES[case]
    cache = make_paged_cache(lens, hk, d, bs, dtype, quantized=quantized, seed=len(lens))
    q = torch.randn(sum(q_lens), hq, d, generator=seeded_generator(d)).to(dtype)  # [T, Hq, D]
    cu = torch.tensor([0, *torch.tensor(q_lens).cumsum(0).tolist()], dtype=torch.int32)
    args = (q, cache.k_cache, cache.v_cache, cache.block_tables, cu, cache.context_lens)
    if kw:
        out = paged_prefill.paged_prefill_attention(*args, None, cache.k_scale, cache.v_scale, **kw)
    else:
        out = kernels.paged_prefill_attention(*args, k_scale=cache.k_scale, v_scale=cache.v_scale, use_triton=True)
    expected = ref.paged_prefill_attention(*args, d**-0.5, cache.k_scale, cache.v_scale)
    return out, expected


@pytest.mark.parametrize("quantized", [False, True], ids=["fp", "int8"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("case", list(PREFILL_CASES))
def test_prefill(case, dtype, quantized):
    out, expected = _run_prefill(case, dtype, quantized)
    assert out.dtype == dtype
    assert_close(out, expected, ATTENTION_TOL)


@pytest.mark.parametrize(("block_m", "block_n"), [(16, 16), (16, 32), (32, 16)])
def test_prefill_tiles_straddle_pages_and_diagonal(block_m, block_n):
    # Tiles smaller than, equal to and larger than the page size, unmasked + masked KV loops.
    out, expected = _run_prefill("b4-extend-gqa3", torch.float16, False, block_m=block_m, block_n=block_n)
    assert_close(out, expected, ATTENTION_TOL)


def test_prefill_max_seqlen_q_hint():
    out, expected = _run_prefill("b3-gqa8-d128-empty", torch.float32, False, max_seqlen_q=20)
    assert_close(out, expected, ATTENTION_TOL)


def test_prefill_with_one_token_per_sequence_equals_decode():
    lens = [30, 9, 1]
    cache = make_paged_cache(lens, 3, 64, 8, torch.float32)
    q = torch.randn(3, 9, 64)
    cu = torch.arange(4, dtype=torch.int32)
    a = kernels.paged_decode_attention(q, cache.k_cache, cache.v_cache, cache.block_tables, cache.context_lens,
                                       use_triton=True)
    b = kernels.paged_prefill_attention(q, cache.k_cache, cache.v_cache, cache.block_tables, cu, cache.context_lens,
                                        use_triton=True)
    assert_close(a, b, ATTENTION_TOL)

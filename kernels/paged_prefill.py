"""Paged prefill / extend attention (varlen, causal, online softmax, FlashAttention-2 style).

The new tokens of each sequence (packed in ``q: [total_new_tokens, Hq, D]`` with ``cu_seqlens_q``)
attend over that sequence's paged cache, which already holds the cached prefix *and* the new tokens'
K/V (store first, then attend). New token ``i`` of sequence ``b`` sits at absolute position
``context_lens[b] - n_new_b + i`` and sees keys ``0 ..= position``. The n×n score matrix is never
materialised: each program keeps a ``[BLOCK_M, BLOCK_N]`` tile.

Grid ``(cdiv(max_seqlen_q, BLOCK_M), batch, Hq)``; a program handles ``BLOCK_M`` new tokens of one
query head. Its KV range is walked in two loops: tiles entirely before the block's first query
position need no mask; the remaining tiles (up to the block's last query position) apply the causal
and length masks. K/V tiles are gathered token-by-token through the block table, so ``BLOCK_N`` is
independent of the page size. int8 caches are dequantised in-kernel like the decode kernel does.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._attention_tile import LOG2E, attend_tile
from kernels._triton_utils import cast_for, check_launchable, dot_dtype, dot_precision, next_pow2
from kernels._validate import check_prefill_attention


@triton.jit
def _prefill_kernel(
    q_ptr, k_ptr, v_ptr, ks_ptr, vs_ptr, bt_ptr, cu_ptr, ctx_ptr, o_ptr,
    scale_log2,
    stride_qt, stride_qh,
    stride_kb, stride_ks, stride_kh,
    stride_vb, stride_vs, stride_vh,
    stride_ksb, stride_kss, stride_ksh,
    stride_vsb, stride_vss, stride_vsh,
    stride_btb,
    stride_ot, stride_oh,
    head_dim,
    GROUP: tl.constexpr, PAGE: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
    IS_INT8: tl.constexpr, DOT_DTYPE: tl.constexpr, DOT_PREC: tl.constexpr,
):
    mblk = tl.program_id(0)
    b = tl.program_id(1).to(tl.int64)
    h = tl.program_id(2)
    kvh = h // GROUP

    q_start = tl.load(cu_ptr + b).to(tl.int32)
    q_len = tl.load(cu_ptr + b + 1).to(tl.int32) - q_start
    if mblk * BLOCK_M >= q_len:
        return
    ctx = tl.load(ctx_ptr + b).to(tl.int32)
    prefix = ctx - q_len

    offs_m = mblk * BLOCK_M + tl.arange(0, BLOCK_M)  # [BLOCK_M] index among the new tokens
    mask_m = offs_m < q_len
    qpos = prefix + offs_m  # absolute positions
    offs_d = tl.arange(0, BLOCK_D)
    mask_d = offs_d < head_dim
    rows = (q_start + offs_m).to(tl.int64)
    q = tl.load(
        q_ptr + rows[:, None] * stride_qt + h * stride_qh + offs_d[None, :],
        mask=mask_m[:, None] & mask_d[None, :], other=0.0,
    ).to(DOT_DTYPE)  # [BLOCK_M, BLOCK_D]

    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_D], dtype=tl.float32)
    bt_row = bt_ptr + b * stride_btb

    first_q = prefix + mblk * BLOCK_M  # first query position of this block
    unmasked_end = (first_q // BLOCK_N) * BLOCK_N  # keys < this are visible to every row
    kv_end = tl.minimum(ctx, first_q + BLOCK_M)  # one past the last visible key

    for n0 in range(0, unmasked_end, BLOCK_N):
        m_i, l_i, acc = attend_tile(
            q, m_i, l_i, acc, n0, qpos, ctx, k_ptr, v_ptr, ks_ptr, vs_ptr, bt_row, kvh,
            stride_kb, stride_ks, stride_kh, stride_vb, stride_vs, stride_vh,
            stride_ksb, stride_kss, stride_ksh, stride_vsb, stride_vss, stride_vsh,
            scale_log2, offs_d, mask_d,
            False, PAGE, BLOCK_N, IS_INT8, DOT_DTYPE, DOT_PREC,
        )
    for n0 in range(unmasked_end, kv_end, BLOCK_N):
        m_i, l_i, acc = attend_tile(
            q, m_i, l_i, acc, n0, qpos, ctx, k_ptr, v_ptr, ks_ptr, vs_ptr, bt_row, kvh,
            stride_kb, stride_ks, stride_kh, stride_vb, stride_vs, stride_vh,
            stride_ksb, stride_kss, stride_ksh, stride_vsb, stride_vss, stride_vsh,
            scale_log2, offs_d, mask_d,
            True, PAGE, BLOCK_N, IS_INT8, DOT_DTYPE, DOT_PREC,
        )

    out = acc / tl.where(l_i > 0.0, l_i, 1.0)[:, None]
    tl.store(
        o_ptr + rows[:, None] * stride_ot + h * stride_oh + offs_d[None, :],
        cast_for(out, o_ptr), mask=mask_m[:, None] & mask_d[None, :],
    )


def paged_prefill_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    cu_seqlens_q: torch.Tensor,
    context_lens: torch.Tensor,
    scale: float | None = None,
    k_scale: torch.Tensor | None = None,
    v_scale: torch.Tensor | None = None,
    *,
    max_seqlen_q: int | None = None,
    block_m: int | None = None,
    block_n: int | None = None,
) -> torch.Tensor:
    """Triton paged prefill/extend attention; see :func:`kernels.paged_prefill_attention` for the contract.

    ``max_seqlen_q`` (host int, >= every sequence's new-token count) sizes the grid; when omitted it is
    read from ``cu_seqlens_q`` (a device sync on CUDA). ``block_m`` / ``block_n`` override the tiles
    (powers of two >= 16).
    """
    dims = check_prefill_attention(
        q, k_cache, v_cache, block_tables, cu_seqlens_q, context_lens, k_scale, v_scale, scale
    )
    check_launchable(_prefill_kernel, q.device, "q")
    total, hq, d = q.shape
    out = torch.empty(total, hq, d, dtype=q.dtype, device=q.device)  # [T, Hq, D]
    if total == 0 or dims.batch == 0:
        return out
    if max_seqlen_q is None:
        max_seqlen_q = int((cu_seqlens_q[1:] - cu_seqlens_q[:-1]).max())
    elif q.device.type == "cpu" and max_seqlen_q < int((cu_seqlens_q[1:] - cu_seqlens_q[:-1]).max()):
        raise ValueError(f"max_seqlen_q: {max_seqlen_q} is smaller than the longest sequence in cu_seqlens_q")
    if max_seqlen_q <= 0:
        return out
    block_d = max(16, next_pow2(d))
    if block_m is None:
        block_m = 64 if d <= 128 else 32
    if block_n is None:
        block_n = 64 if d <= 128 else 32
    for name, v in (("block_m", block_m), ("block_n", block_n)):
        if v < 16 or v & (v - 1):
            raise ValueError(f"{name}: must be a power of two >= 16, got {v}")
    ks = k_scale if k_scale is not None else k_cache
    vs = v_scale if v_scale is not None else v_cache
    s_strides = (*ks.stride()[:3], *vs.stride()[:3]) if dims.quantized else (0,) * 6
    # Two pipeline stages of K and V tiles must fit in shared memory (~100 KB on consumer GPUs).
    elem = 1 if dims.quantized else q.element_size()
    num_stages = 2 if 2 * 2 * block_n * block_d * max(elem, 2) <= 96 * 1024 else 1
    grid = (triton.cdiv(max_seqlen_q, block_m), dims.batch, hq)
    _prefill_kernel[grid](
        q, k_cache, v_cache, ks, vs, block_tables, cu_seqlens_q, context_lens, out,
        dims.scale * LOG2E,
        q.stride(0), q.stride(1),
        *k_cache.stride()[:3],
        *v_cache.stride()[:3],
        *s_strides,
        block_tables.stride(0),
        out.stride(0), out.stride(1),
        d,
        GROUP=hq // dims.num_kv_heads, PAGE=dims.block_size,
        BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_D=block_d,
        IS_INT8=dims.quantized,
        DOT_DTYPE=dot_dtype(_prefill_kernel, q.dtype), DOT_PREC=dot_precision(q.dtype),
        num_warps=4 if block_d <= 64 else 8, num_stages=num_stages,
    )
    return out

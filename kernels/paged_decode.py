"""Paged decode attention with split-KV ("flash decoding") and GQA grouping.

One new query token per sequence attends over its whole paged context.

Pass 1 (``_decode_partial_kernel``), grid ``(batch, num_kv_heads, num_splits)``: a program takes all
``group = Hq // Hk`` query heads that share one KV head (so each K/V tile is read once per group,
padded to ``BLOCK_H >= 16`` rows for ``tl.dot``) and one partition of the context, and runs an
online softmax over ``BLOCK_N``-token tiles gathered through the block table (tiles are independent
of the page size, so any ``block_size`` works). With one split it writes the final output directly;
otherwise it writes the normalised partial output and its log-sum-exp (base 2).

Pass 2 (``_decode_reduce_kernel``), grid ``(batch, Hq)``: combines the partitions with weights
``exp2(lse_s - max lse)``.

int8 caches are dequantised inside the kernel without materialising fp values: the K scale multiplies
the ``q·k`` scores column-wise and the V scale is folded into the probabilities (int8 values are exact
in fp16/bf16, so the products are exact up to the final rounding).
"""

from __future__ import annotations

import math

import torch
import triton
import triton.language as tl

from kernels._attention_tile import LOG2E, attend_tile
from kernels._triton_utils import cast_for, check_launchable, dot_dtype, dot_precision, next_pow2, num_sms
from kernels._validate import AttnDims, check_decode_attention


@triton.jit
def _decode_partial_kernel(
    q_ptr, k_ptr, v_ptr, ks_ptr, vs_ptr, bt_ptr, ctx_ptr, o_ptr, lse_ptr,
    scale_log2,
    stride_qb, stride_qh,
    stride_kb, stride_ks, stride_kh,
    stride_vb, stride_vs, stride_vh,
    stride_ksb, stride_kss, stride_ksh,
    stride_vsb, stride_vss, stride_vsh,
    stride_btb,
    stride_ob, stride_oh, stride_os,
    stride_lb, stride_lh,
    head_dim, partition_size,
    GROUP: tl.constexpr, PAGE: tl.constexpr,
    BLOCK_H: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
    IS_INT8: tl.constexpr, SPLIT: tl.constexpr,
    DOT_DTYPE: tl.constexpr, DOT_PREC: tl.constexpr,
):
    b = tl.program_id(0).to(tl.int64)
    kvh = tl.program_id(1)
    split = tl.program_id(2)

    ctx = tl.load(ctx_ptr + b).to(tl.int32)
    start = split * partition_size
    end = tl.minimum(start + partition_size, ctx)  # may be <= start: empty partition

    offs_g = tl.arange(0, BLOCK_H)
    heads = kvh * GROUP + offs_g  # [BLOCK_H] query heads of this group
    mask_h = offs_g < GROUP
    offs_d = tl.arange(0, BLOCK_D)
    mask_d = offs_d < head_dim

    q = tl.load(
        q_ptr + b * stride_qb + heads[:, None] * stride_qh + offs_d[None, :],
        mask=mask_h[:, None] & mask_d[None, :], other=0.0,
    ).to(DOT_DTYPE)  # [BLOCK_H, BLOCK_D]

    m_i = tl.full([BLOCK_H], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, BLOCK_D], dtype=tl.float32)

    qpos = tl.zeros([BLOCK_H], dtype=tl.int32) + (end - 1)  # every head sees keys start .. end - 1
    for n0 in range(start, end, BLOCK_N):
        m_i, l_i, acc = attend_tile(
            q, m_i, l_i, acc, n0, qpos, end, k_ptr, v_ptr, ks_ptr, vs_ptr, bt_ptr + b * stride_btb, kvh,
            stride_kb, stride_ks, stride_kh, stride_vb, stride_vs, stride_vh,
            stride_ksb, stride_kss, stride_ksh, stride_vsb, stride_vss, stride_vsh,
            scale_log2, offs_d, mask_d,
            True, PAGE, BLOCK_N, IS_INT8, DOT_DTYPE, DOT_PREC,
        )

    has = l_i > 0.0
    out = acc / tl.where(has, l_i, 1.0)[:, None]  # zeros for an empty partition
    store_mask = mask_h[:, None] & mask_d[None, :]
    if SPLIT:
        lse = tl.where(has, m_i + tl.log2(tl.where(has, l_i, 1.0)), float("-inf"))  # [BLOCK_H]
        tl.store(o_ptr + b * stride_ob + heads[:, None] * stride_oh + split * stride_os + offs_d[None, :],
                 out, mask=store_mask)
        tl.store(lse_ptr + b * stride_lb + heads * stride_lh + split, lse, mask=mask_h)
    else:
        tl.store(o_ptr + b * stride_ob + heads[:, None] * stride_oh + offs_d[None, :],
                 cast_for(out, o_ptr), mask=store_mask)


@triton.jit
def _decode_reduce_kernel(
    part_ptr, lse_ptr, o_ptr,
    stride_pb, stride_ph, stride_ps,
    stride_lb, stride_lh,
    stride_ob, stride_oh,
    head_dim, num_splits,
    BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr,
):
    b = tl.program_id(0).to(tl.int64)
    h = tl.program_id(1)
    offs_s = tl.arange(0, BLOCK_S)
    lse = tl.load(lse_ptr + b * stride_lb + h * stride_lh + offs_s, mask=offs_s < num_splits,
                  other=float("-inf"))  # [BLOCK_S]
    m = tl.max(lse, axis=0)
    m = tl.where(m == float("-inf"), 0.0, m)  # all partitions empty (context_len == 0) → output 0
    w = tl.exp2(lse - m)  # [BLOCK_S], 0 for empty partitions
    denom = tl.sum(w, axis=0)
    offs_d = tl.arange(0, BLOCK_D)
    mask_d = offs_d < head_dim
    acc = tl.zeros([BLOCK_D], dtype=tl.float32)
    for s in range(0, num_splits):
        w_s = tl.exp2(tl.load(lse_ptr + b * stride_lb + h * stride_lh + s) - m)
        part = tl.load(part_ptr + b * stride_pb + h * stride_ph + s * stride_ps + offs_d, mask=mask_d, other=0.0)
        acc += w_s * part
    out = acc / tl.where(denom > 0.0, denom, 1.0)
    tl.store(o_ptr + b * stride_ob + h * stride_oh + offs_d, cast_for(out, o_ptr), mask=mask_d)


def choose_num_splits(dims: AttnDims, max_context_len: int, device: torch.device) -> int:
    """Heuristic: on CUDA split the context until ``batch * Hk * splits`` programs fill the GPU about
    twice over, keeping >= 256 tokens per partition and <= 64 partitions; short contexts never split.
    Elsewhere (interpreter) one partition per 512 tokens, at most 8."""
    if max_context_len <= 256:
        return 1
    if device.type != "cuda":
        return max(1, min(math.ceil(max_context_len / 512), 8))
    programs = max(dims.batch * dims.num_kv_heads, 1)
    splits = max(1, math.ceil(2 * num_sms(device) / programs))
    return min(splits, math.ceil(max_context_len / 256), 64)


def paged_decode_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    context_lens: torch.Tensor,
    scale: float | None = None,
    k_scale: torch.Tensor | None = None,
    v_scale: torch.Tensor | None = None,
    *,
    num_splits: int | None = None,
    block_n: int | None = None,
) -> torch.Tensor:
    """Triton paged decode attention; see :func:`kernels.paged_decode_attention` for the contract.

    The split grid is sized for ``max_blocks * block_size`` tokens (block_tables' width, known on the
    host, so no device sync); partitions past a sequence's context are empty and cost one early-exit
    loop. Keep block_tables only as wide as the longest sequence in the batch needs.
    ``num_splits`` overrides the split heuristic; ``block_n`` the KV tile (power of two >= 16).
    """
    dims = check_decode_attention(q, k_cache, v_cache, block_tables, context_lens, k_scale, v_scale, scale)
    check_launchable(_decode_partial_kernel, q.device, "q")
    batch, hq, d = dims.batch, dims.num_q_heads, dims.head_dim
    out = torch.empty(batch, hq, d, dtype=q.dtype, device=q.device)  # [B, Hq, D]
    if batch == 0:
        return out
    max_context_len = dims.max_blocks * dims.block_size
    if block_n is None:
        block_n = 64 if d <= 128 else 32
    if block_n < 16 or block_n & (block_n - 1):
        raise ValueError(f"block_n: must be a power of two >= 16, got {block_n}")
    if num_splits is None:
        num_splits = choose_num_splits(dims, max_context_len, q.device)
    if num_splits < 1:
        raise ValueError(f"num_splits: must be >= 1, got {num_splits}")
    partition = max(triton.cdiv(triton.cdiv(max(max_context_len, 1), num_splits), block_n) * block_n, block_n)
    num_splits = max(triton.cdiv(max_context_len, partition), 1)

    group = hq // dims.num_kv_heads
    block_h = max(16, next_pow2(group))
    block_d = max(16, next_pow2(d))
    ks = k_scale if k_scale is not None else k_cache
    vs = v_scale if v_scale is not None else v_cache
    s_strides = (*ks.stride()[:3], *vs.stride()[:3]) if dims.quantized else (0,) * 6
    split = num_splits > 1
    if split:
        part = torch.empty(batch, hq, num_splits, d, dtype=torch.float32, device=q.device)  # [B, Hq, S, D]
        lse = torch.empty(batch, hq, num_splits, dtype=torch.float32, device=q.device)  # [B, Hq, S]
        o_arg, o_strides, l_strides = part, part.stride()[:3], lse.stride()[:2]
    else:
        lse = out  # unused
        o_arg, o_strides, l_strides = out, (*out.stride()[:2], 0), (0, 0)
    _decode_partial_kernel[(batch, dims.num_kv_heads, num_splits)](
        q, k_cache, v_cache, ks, vs, block_tables, context_lens, o_arg, lse,
        dims.scale * LOG2E,
        q.stride(0), q.stride(1),
        *k_cache.stride()[:3],
        *v_cache.stride()[:3],
        *s_strides,
        block_tables.stride(0),
        *o_strides,
        *l_strides,
        d, partition,
        GROUP=group, PAGE=dims.block_size,
        BLOCK_H=block_h, BLOCK_N=block_n, BLOCK_D=block_d,
        IS_INT8=dims.quantized, SPLIT=split,
        DOT_DTYPE=dot_dtype(_decode_partial_kernel, q.dtype), DOT_PREC=dot_precision(q.dtype),
        num_warps=4, num_stages=2,
    )
    if split:
        _decode_reduce_kernel[(batch, hq)](
            part, lse, out,
            *part.stride()[:3],
            *lse.stride()[:2],
            *out.stride()[:2],
            d, num_splits,
            BLOCK_S=max(next_pow2(num_splits), 2), BLOCK_D=block_d,
            num_warps=4,
        )
    return out

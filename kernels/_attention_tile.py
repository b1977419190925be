"""The online-softmax step over one ``BLOCK_N``-token K/V tile, shared by the paged decode and prefill kernels.

A tile's keys are gathered token by token through a block-table row (so ``BLOCK_N`` is independent of
the page size); int8 caches are dequantised in-kernel (K scale on the scores, V scale folded into
the probabilities). Scores are in base 2 (``scale_log2 = softmax_scale * LOG2E``).
"""

from __future__ import annotations

import triton
import triton.language as tl

LOG2E = 1.4426950408889634


@triton.jit
def attend_tile(
    q, m_i, l_i, acc, n0, qpos, ctx,
    k_ptr, v_ptr, ks_ptr, vs_ptr, bt_row_ptr, kvh,
    stride_kb, stride_ks, stride_kh, stride_vb, stride_vs, stride_vh,
    stride_ksb, stride_kss, stride_ksh, stride_vsb, stride_vss, stride_vsh,
    scale_log2, offs_d, mask_d,
    MASKED: tl.constexpr, PAGE: tl.constexpr, BLOCK_N: tl.constexpr, IS_INT8: tl.constexpr,
    DOT_DTYPE: tl.constexpr, DOT_PREC: tl.constexpr,
):
    """Fold keys ``n0 .. n0 + BLOCK_N`` into the running ``(m_i, l_i, acc)`` of the query rows ``q``.

    q: [ROWS, BLOCK_D] (dot dtype); m_i, l_i: [ROWS] fp32; acc: [ROWS, BLOCK_D] fp32; qpos: [ROWS] int
    absolute query positions. MASKED: keys must satisfy ``pos < ctx`` and ``pos <= qpos`` (causal);
    unmasked tiles must lie entirely before every query and inside the context.
    → the updated ``(m_i, l_i, acc)``.
    """
    pos = n0 + tl.arange(0, BLOCK_N)  # [BLOCK_N] key positions
    if MASKED:
        mask_n = pos < ctx
    else:
        mask_n = pos >= 0  # all valid (tile lies before every query of the block)
    page = tl.load(bt_row_ptr + pos // PAGE, mask=mask_n, other=0).to(tl.int64)  # [BLOCK_N]
    off = (pos % PAGE).to(tl.int64)
    k = tl.load(
        k_ptr + page[None, :] * stride_kb + off[None, :] * stride_ks + kvh * stride_kh + offs_d[:, None],
        mask=mask_d[:, None] & mask_n[None, :], other=0.0,
    )  # [BLOCK_D, BLOCK_N] (K transposed)
    qk = tl.dot(q, k.to(DOT_DTYPE), input_precision=DOT_PREC)  # [BLOCK_M, BLOCK_N] fp32
    if IS_INT8:
        k_s = tl.load(ks_ptr + page * stride_ksb + off * stride_kss + kvh * stride_ksh, mask=mask_n, other=0.0)
        qk = qk * k_s[None, :]
    qk = qk * scale_log2
    if MASKED:
        visible = (pos[None, :] <= qpos[:, None]) & mask_n[None, :]  # [BLOCK_M, BLOCK_N] causal
        qk = tl.where(visible, qk, float("-inf"))
    m_new = tl.maximum(m_i, tl.max(qk, axis=1))  # [BLOCK_M]
    m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)  # rows with nothing visible yet
    alpha = tl.exp2(m_i - m_safe)
    p = tl.exp2(qk - m_safe[:, None])  # [BLOCK_M, BLOCK_N]
    l_i = l_i * alpha + tl.sum(p, axis=1)
    v = tl.load(
        v_ptr + page[:, None] * stride_vb + off[:, None] * stride_vs + kvh * stride_vh + offs_d[None, :],
        mask=mask_n[:, None] & mask_d[None, :], other=0.0,
    )  # [BLOCK_N, BLOCK_D]
    if IS_INT8:
        v_s = tl.load(vs_ptr + page * stride_vsb + off * stride_vss + kvh * stride_vsh, mask=mask_n, other=0.0)
        p = p * v_s[None, :]
    acc = acc * alpha[:, None] + tl.dot(p.to(DOT_DTYPE), v.to(DOT_DTYPE), input_precision=DOT_PREC)
    return m_new, l_i, acc

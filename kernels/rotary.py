"""Rotary position embedding, Hugging Face Llama "rotate_half" convention (not interleaved).

For each head vector ``x = [x1, x2]`` (halves of head_dim) at position ``p``::

    out = [x1 * cos[p] - x2 * sin[p],  x2 * cos[p] + x1 * sin[p]]

with ``cos/sin: [max_positions, head_dim // 2]`` float32 from :func:`kernels.rope_cos_sin`.
One program rotates all q and k heads of one token. Out of place.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._triton_utils import cast_for, check_launchable, next_pow2
from kernels._validate import check_rotary


@triton.jit
def _rotate(x_ptr, o_ptr, stride_xt, stride_xh, stride_ot, stride_oh, tok, num_heads, half, c, s,
            BLOCK_H: tl.constexpr, BLOCK_HALF: tl.constexpr):
    heads = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, BLOCK_HALF)
    mask = (heads[:, None] < num_heads) & (cols[None, :] < half)  # [BLOCK_H, BLOCK_HALF]
    x_row = x_ptr + tok * stride_xt + heads[:, None] * stride_xh + cols[None, :]
    x1 = tl.load(x_row, mask=mask, other=0.0).to(tl.float32)  # [BLOCK_H, BLOCK_HALF]
    x2 = tl.load(x_row + half, mask=mask, other=0.0).to(tl.float32)
    o1 = x1 * c[None, :] - x2 * s[None, :]
    o2 = x2 * c[None, :] + x1 * s[None, :]
    o_row = o_ptr + tok * stride_ot + heads[:, None] * stride_oh + cols[None, :]
    tl.store(o_row, cast_for(o1, o_ptr), mask=mask)
    tl.store(o_row + half, cast_for(o2, o_ptr), mask=mask)


@triton.jit
def _rotary_kernel(
    q_ptr, k_ptr, qo_ptr, ko_ptr, pos_ptr, cos_ptr, sin_ptr,
    stride_qt, stride_qh, stride_kt, stride_kh,
    stride_qot, stride_qoh, stride_kot, stride_koh,
    num_q_heads, num_k_heads, half,
    BLOCK_HQ: tl.constexpr, BLOCK_HK: tl.constexpr, BLOCK_HALF: tl.constexpr,
):
    tok = tl.program_id(0).to(tl.int64)
    pos = tl.load(pos_ptr + tok).to(tl.int64)
    cols = tl.arange(0, BLOCK_HALF)
    cmask = cols < half
    c = tl.load(cos_ptr + pos * half + cols, mask=cmask, other=0.0)  # [BLOCK_HALF] fp32
    s = tl.load(sin_ptr + pos * half + cols, mask=cmask, other=0.0)
    _rotate(q_ptr, qo_ptr, stride_qt, stride_qh, stride_qot, stride_qoh, tok, num_q_heads, half, c, s,
            BLOCK_HQ, BLOCK_HALF)
    _rotate(k_ptr, ko_ptr, stride_kt, stride_kh, stride_kot, stride_koh, tok, num_k_heads, half, c, s,
            BLOCK_HK, BLOCK_HALF)


def rotary_embedding(
    q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Triton rotary embedding (out of place).

    q: [tokens, Hq, D], k: [tokens, Hk, D] (token/head strides free, last dim contiguous);
    positions: [tokens] int32/int64; cos/sin: [max_pos, D // 2] float32 → ``(q_rot, k_rot)`` contiguous.
    """
    dims = check_rotary(q, k, positions, cos, sin)
    check_launchable(_rotary_kernel, q.device, "q")
    q_out = torch.empty(q.shape, dtype=q.dtype, device=q.device)  # [tokens, Hq, D]
    k_out = torch.empty(k.shape, dtype=k.dtype, device=k.device)  # [tokens, Hk, D]
    if dims.tokens == 0:
        return q_out, k_out
    half = dims.head_dim // 2
    _rotary_kernel[(dims.tokens,)](
        q, k, q_out, k_out, positions, cos, sin,
        q.stride(0), q.stride(1), k.stride(0), k.stride(1),
        q_out.stride(0), q_out.stride(1), k_out.stride(0), k_out.stride(1),
        dims.num_q_heads, dims.num_k_heads, half,
        BLOCK_HQ=next_pow2(dims.num_q_heads), BLOCK_HK=next_pow2(dims.num_k_heads),
        BLOCK_HALF=max(next_pow2(half), 2),
    )
    return q_out, k_out

"""Dequant-GEMM over 4-bit weight groups: ``x [M, K] @ Wᵀ`` where ``W [N, K]`` stays packed in memory.

Weight format (the same as :mod:`backend.quant.native_mm`, i.e. GGUF Q4_1's): groups of 32 input columns,
``w = d * q + m`` with ``q`` in 0..15; ``codes [N, K/32, 16] uint8`` (byte ``j`` of a group holds element
``j`` in its low nibble and element ``j + 16`` in its high nibble) and ``scales [N, K/32, 2]`` float16
(``d``, ``m``). Each program computes a ``[BLOCK_M, BLOCK_N]`` output tile: it loads the packed bytes of
a ``[BLOCK_N, BLOCK_K]`` weight tile, unpacks the nibbles and applies each group's scale and minimum in
registers, and feeds ``tl.dot`` with the activation tile; the weights cross the memory bus at half a byte
per element (plus 4 bytes per group), which is what makes a memory-bound decode step faster.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._triton_utils import cast_for, check_launchable, dot_dtype, dot_precision
from kernels._validate import check_q4_matmul

GROUP = 32


@triton.jit
def _q4_matmul_kernel(x_ptr, codes_ptr, scales_ptr, out_ptr, M, N, K, stride_xm, stride_om,
                      DOT_DTYPE: tl.constexpr, PRECISION: tl.constexpr,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)  # [BM]
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)  # [BN] output features
    row_ok = rows < M
    col_ok = cols < N
    groups = K // 32
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)  # [BK] input columns (K is a multiple of 32, BLOCK_K of 32)
        k_ok = ks < K
        x = tl.load(x_ptr + rows[:, None].to(tl.int64) * stride_xm + ks[None, :],
                    mask=row_ok[:, None] & k_ok[None, :], other=0.0).to(tl.float32)  # [BM, BK]
        group = ks // 32  # [BK]
        within = ks % 32
        byte = group * 16 + within % 16  # [BK] byte of the group's 16
        shift = (within // 16) * 4  # [BK] low (0) or high (4) nibble
        w_ok = col_ok[:, None] & k_ok[None, :]
        packed = tl.load(codes_ptr + cols[:, None].to(tl.int64) * (groups * 16) + byte[None, :],
                         mask=w_ok, other=0).to(tl.int32)  # [BN, BK]
        q = ((packed >> shift[None, :]) & 15).to(tl.float32)  # [BN, BK]
        scale_at = scales_ptr + cols[:, None].to(tl.int64) * (groups * 2) + group[None, :] * 2  # [BN, BK]
        d = tl.load(scale_at, mask=w_ok, other=0.0).to(tl.float32)
        m = tl.load(scale_at + 1, mask=w_ok, other=0.0).to(tl.float32)
        w = q * d + m  # [BN, BK] dequantized weight tile
        acc += tl.dot(x.to(DOT_DTYPE), tl.trans(w.to(DOT_DTYPE)), input_precision=PRECISION)  # [BM, BN]
    tl.store(out_ptr + rows[:, None].to(tl.int64) * stride_om + cols[None, :], cast_for(acc, out_ptr),
             mask=row_ok[:, None] & col_ok[None, :])


def q4_matmul(x: torch.Tensor, codes: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """Triton dequant-GEMM. x: [M, K] (row-strided OK); codes: [N, K/32, 16] uint8; scales: [N, K/32, 2]
    float16 → [M, N] in x.dtype."""
    n = check_q4_matmul(x, codes, scales)
    check_launchable(_q4_matmul_kernel, x.device, "x")
    m, k = x.shape
    out = torch.empty(m, n, dtype=x.dtype, device=x.device)  # [M, N]
    if m == 0 or n == 0:
        return out
    block_m = 16 if m <= 16 else 64  # decode: one row tile; prefill: larger tiles for reuse
    block_n, block_k = 64, 64
    grid = (triton.cdiv(m, block_m), triton.cdiv(n, block_n))
    _q4_matmul_kernel[grid](x, codes, scales, out, m, n, k, x.stride(0), out.stride(0),
                            DOT_DTYPE=dot_dtype(_q4_matmul_kernel, x.dtype), PRECISION=dot_precision(x.dtype),
                            BLOCK_M=block_m, BLOCK_N=block_n, BLOCK_K=block_k)
    return out

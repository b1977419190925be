"""SiLU-and-mul (SwiGLU activation): ``[tokens, 2d] = gate ⊕ up → silu(gate) * up: [tokens, d]``."""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._triton_utils import cast_for, check_launchable
from kernels._validate import check_silu_and_mul

BLOCK = 1024


@triton.jit
def _silu_and_mul_kernel(x_ptr, out_ptr, stride_x, stride_out, d, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < d
    gate = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)  # [BLOCK]
    up = tl.load(x_ptr + row * stride_x + d + cols, mask=mask, other=0.0).to(tl.float32)  # [BLOCK]
    y = gate / (1.0 + tl.exp(-gate)) * up
    tl.store(out_ptr + row * stride_out + cols, cast_for(y, out_ptr), mask=mask)


def silu_and_mul(x: torch.Tensor) -> torch.Tensor:
    """Triton SwiGLU activation. x: [tokens, 2 * d] (row-strided OK) → [tokens, d] (x.dtype)."""
    d = check_silu_and_mul(x)
    check_launchable(_silu_and_mul_kernel, x.device, "x")
    tokens = x.shape[0]
    out = torch.empty(tokens, d, dtype=x.dtype, device=x.device)  # [tokens, d]
    if tokens == 0 or d == 0:
        return out
    _silu_and_mul_kernel[(tokens, triton.cdiv(d, BLOCK))](x, out, x.stride(0), out.stride(0), d, BLOCK=BLOCK)
    return out

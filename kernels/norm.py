"""RMSNorm (plain and with a fused residual add): Triton kernel + launchers.

One program normalises one row; the whole hidden dimension is held in one block (hidden ≤ 64k).
Math is fp32 and matches :func:`kernels.reference.rms_norm` / :func:`kernels.reference.fused_add_rms_norm`.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._triton_utils import cast_for, check_launchable, next_pow2
from kernels._validate import check_rms_norm

MAX_HIDDEN = 65536


@triton.jit
def _rms_norm_kernel(
    x_ptr,
    res_ptr,
    w_ptr,
    out_ptr,
    res_out_ptr,
    stride_x,
    stride_res,
    stride_out,
    stride_res_out,
    hidden,
    eps,
    HAS_RESIDUAL: tl.constexpr,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < hidden
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)  # [BLOCK]
    if HAS_RESIDUAL:
        r = tl.load(res_ptr + row * stride_res + cols, mask=mask, other=0.0).to(tl.float32)
        s = cast_for(x + r, res_out_ptr)  # rounded like an unfused add
        tl.store(res_out_ptr + row * stride_res_out + cols, s, mask=mask)
        x = s.to(tl.float32)
    var = tl.sum(x * x, axis=0) / hidden
    inv = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    y = x * inv * w
    tl.store(out_ptr + row * stride_out + cols, cast_for(y, out_ptr), mask=mask)


def _launch(
    x: torch.Tensor, weight: torch.Tensor, eps: float, residual: torch.Tensor | None
) -> tuple[torch.Tensor, torch.Tensor | None]:
    hidden = check_rms_norm(x, weight, eps, residual)
    if hidden > MAX_HIDDEN:
        raise ValueError(f"x: hidden size {hidden} exceeds the kernel limit {MAX_HIDDEN}")
    check_launchable(_rms_norm_kernel, x.device, "x")
    tokens = x.shape[0]
    out = torch.empty(tokens, hidden, dtype=x.dtype, device=x.device)  # [tokens, hidden]
    res_out = torch.empty_like(out) if residual is not None else None  # [tokens, hidden]
    if tokens == 0:
        return out, res_out
    block = max(next_pow2(hidden), 16)
    num_warps = 4 if block <= 2048 else 8
    _rms_norm_kernel[(tokens,)](
        x,
        residual if residual is not None else x,
        weight,
        out,
        res_out if res_out is not None else out,
        x.stride(0),
        residual.stride(0) if residual is not None else 0,
        out.stride(0),
        res_out.stride(0) if res_out is not None else 0,
        hidden,
        float(eps),
        HAS_RESIDUAL=residual is not None,
        BLOCK=block,
        num_warps=num_warps,
    )
    return out, res_out


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """Triton RMSNorm. x: [tokens, hidden] (row-strided OK); weight: [hidden] → [tokens, hidden] (x.dtype)."""
    out, _ = _launch(x, weight, eps, None)
    return out


def fused_add_rms_norm(
    x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """Triton residual add + RMSNorm. Returns ``(rms_norm(x + residual), x + residual)``, both [tokens, hidden]."""
    out, res_out = _launch(x, weight, eps, residual)
    assert res_out is not None
    return out, res_out

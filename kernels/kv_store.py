"""KV-cache store: scatter this step's K/V rows into the paged cache (optionally quantising to int8).

One program handles one token (all KV heads). ``slot = block_id * block_size + offset``; a negative
slot skips the token (padding). With an int8 cache, every (token, head) row is quantised
symmetrically (``scale = max|x| / 127``, round half away from zero) exactly like
:func:`kernels.reference.quantize_kv_int8`, and the scale is written to ``k_scale / v_scale``.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from kernels._triton_utils import check_launchable, next_pow2
from kernels._validate import check_store_kv_cache


@triton.jit
def _store_one(
    x_ptr, cache_ptr, scale_ptr, tok, block, off,
    stride_xt, stride_xh, stride_cb, stride_cs, stride_ch, stride_sb, stride_ss, stride_sh,
    num_heads, head_dim,
    QUANT: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr,
):
    heads = tl.arange(0, BLOCK_H)
    cols = tl.arange(0, BLOCK_D)
    hmask = heads < num_heads
    mask = hmask[:, None] & (cols[None, :] < head_dim)  # [BLOCK_H, BLOCK_D]
    x = tl.load(x_ptr + tok * stride_xt + heads[:, None] * stride_xh + cols[None, :], mask=mask, other=0.0)
    dst = cache_ptr + block * stride_cb + off * stride_cs + heads[:, None] * stride_ch + cols[None, :]
    if QUANT:
        xf = x.to(tl.float32)  # [BLOCK_H, BLOCK_D]
        scale = tl.max(tl.abs(xf), axis=1) / 127.0  # [BLOCK_H]
        safe = tl.where(scale > 0.0, scale, 1.0)
        y = xf / safe[:, None]
        r = tl.floor(tl.abs(y) + 0.5)
        r = tl.where(y < 0.0, -r, r)
        r = tl.minimum(tl.maximum(r, -127.0), 127.0)
        tl.store(dst, r.to(tl.int8), mask=mask)
        tl.store(scale_ptr + block * stride_sb + off * stride_ss + heads * stride_sh, scale, mask=hmask)
    else:
        tl.store(dst, x.to(cache_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _store_kv_kernel(
    k_ptr, v_ptr, kc_ptr, vc_ptr, ks_ptr, vs_ptr, slot_ptr,
    stride_kt, stride_kh, stride_vt, stride_vh,
    stride_kcb, stride_kcs, stride_kch, stride_vcb, stride_vcs, stride_vch,
    stride_ksb, stride_kss, stride_ksh, stride_vsb, stride_vss, stride_vsh,
    num_heads, head_dim, block_size, num_slots,
    QUANT: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_D: tl.constexpr,
):
    tok = tl.program_id(0).to(tl.int64)
    slot = tl.load(slot_ptr + tok).to(tl.int64)
    # Negative slot: padding token, skip. Out-of-range slot (only possible on CUDA, where values are
    # not validated): skip rather than write out of bounds.
    if (slot >= 0) & (slot < num_slots):
        block = slot // block_size
        off = slot % block_size
        _store_one(k_ptr, kc_ptr, ks_ptr, tok, block, off, stride_kt, stride_kh, stride_kcb, stride_kcs,
                   stride_kch, stride_ksb, stride_kss, stride_ksh, num_heads, head_dim, QUANT, BLOCK_H, BLOCK_D)
        _store_one(v_ptr, vc_ptr, vs_ptr, tok, block, off, stride_vt, stride_vh, stride_vcb, stride_vcs,
                   stride_vch, stride_vsb, stride_vss, stride_vsh, num_heads, head_dim, QUANT, BLOCK_H, BLOCK_D)


def store_kv_cache(
    key: torch.Tensor,
    value: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slot_mapping: torch.Tensor,
    k_scale: torch.Tensor | None = None,
    v_scale: torch.Tensor | None = None,
) -> None:
    """Triton KV store (in place).

    key/value: [tokens, Hk, D] (token/head strides free); k_cache/v_cache: [NB, BS, Hk, D] with the
    key dtype or int8; slot_mapping: [tokens] int32/int64; k_scale/v_scale (int8 only): [NB, BS, Hk] fp32.
    """
    dims = check_store_kv_cache(key, value, k_cache, v_cache, slot_mapping, k_scale, v_scale)
    check_launchable(_store_kv_kernel, key.device, "key")
    tokens = key.shape[0]
    if tokens == 0:
        return
    ks = k_scale if k_scale is not None else k_cache
    vs = v_scale if v_scale is not None else v_cache
    s_strides = (*ks.stride()[:3], *vs.stride()[:3]) if dims.quantized else (0,) * 6
    _store_kv_kernel[(tokens,)](
        key, value, k_cache, v_cache, ks, vs, slot_mapping,
        key.stride(0), key.stride(1), value.stride(0), value.stride(1),
        *k_cache.stride()[:3], *v_cache.stride()[:3],
        *s_strides,
        dims.num_kv_heads, dims.head_dim, dims.block_size, dims.num_blocks * dims.block_size,
        QUANT=dims.quantized, BLOCK_H=next_pow2(dims.num_kv_heads), BLOCK_D=max(next_pow2(dims.head_dim), 2),
    )

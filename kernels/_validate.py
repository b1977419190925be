"""Argument checks shared by the dispatch layer and the Triton launchers.

Every public op validates its arguments exactly once (in the dispatch function, or in the Triton
launcher when that is called directly) and raises :class:`ValueError` naming the offending argument.
Structural checks (shape, dtype, device, strides) are always run; checks that need to read tensor
*values* (slot / page indices in range, sequence lengths consistent) run only when the tensors live
on the CPU, because on CUDA they would force a device synchronisation on every call. The Triton
kernels mask their memory accesses so that an out-of-range value on CUDA cannot corrupt memory.

This module imports nothing from Triton.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

ACT_DTYPES: tuple[torch.dtype, ...] = (torch.float32, torch.float16, torch.bfloat16)
INDEX_DTYPES: tuple[torch.dtype, ...] = (torch.int32, torch.int64)
MAX_HEAD_DIM = 256


def _fmt_dtypes(dtypes: tuple[torch.dtype, ...]) -> str:
    return ", ".join(str(d).removeprefix("torch.") for d in dtypes)


def check_tensor(name: str, x: object) -> torch.Tensor:
    if not isinstance(x, torch.Tensor):
        raise ValueError(f"{name}: expected a torch.Tensor, got {type(x).__name__}")
    return x


def check_ndim(name: str, x: torch.Tensor, ndim: int, layout: str) -> None:
    check_tensor(name, x)
    if x.dim() != ndim:
        raise ValueError(f"{name}: expected {ndim} dims {layout}, got shape {tuple(x.shape)}")


def check_shape(name: str, x: torch.Tensor, shape: tuple[int, ...], layout: str) -> None:
    if tuple(x.shape) != tuple(shape):
        raise ValueError(f"{name}: expected shape {tuple(shape)} {layout}, got {tuple(x.shape)}")


def check_dtype(name: str, x: torch.Tensor, allowed: tuple[torch.dtype, ...]) -> None:
    if x.dtype not in allowed:
        raise ValueError(f"{name}: dtype {x.dtype} not supported (expected one of {_fmt_dtypes(allowed)})")


def check_same_dtype(name: str, x: torch.Tensor, ref_name: str, ref: torch.Tensor) -> None:
    if x.dtype != ref.dtype:
        raise ValueError(f"{name}: dtype {x.dtype} does not match {ref_name} dtype {ref.dtype}")


def check_same_device(tensors: dict[str, torch.Tensor | None]) -> torch.device:
    """All non-None tensors must share one device; returns it."""
    device: torch.device | None = None
    first = ""
    for name, t in tensors.items():
        if t is None:
            continue
        if device is None:
            device, first = t.device, name
        elif t.device != device:
            raise ValueError(f"{name}: on device {t.device} but {first} is on {device}")
    assert device is not None
    return device


def check_last_dim_contiguous(name: str, x: torch.Tensor) -> None:
    if x.dim() > 0 and x.shape[-1] > 1 and x.stride(-1) != 1:
        raise ValueError(f"{name}: last dimension must be contiguous (stride 1), got strides {x.stride()}")


def check_contiguous(name: str, x: torch.Tensor) -> None:
    if not x.is_contiguous():
        raise ValueError(f"{name}: must be contiguous, got shape {tuple(x.shape)} strides {x.stride()}")


def check_head_dim(name: str, head_dim: int) -> None:
    if head_dim < 1 or head_dim > MAX_HEAD_DIM:
        raise ValueError(f"{name}: head_dim {head_dim} out of range [1, {MAX_HEAD_DIM}]")


def values_checkable(*tensors: torch.Tensor | None) -> bool:
    """Value checks run only for CPU tensors (reading CUDA values would synchronise the device)."""
    return all(t is None or t.device.type == "cpu" for t in tensors)


# --------------------------------------------------------------------------------------------------
# Per-op checks. Each returns the derived sizes the launchers need.
# --------------------------------------------------------------------------------------------------


def check_rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float, residual: torch.Tensor | None = None) -> int:
    """x: [tokens, hidden]; weight: [hidden]; residual (optional): like x. Returns hidden."""
    check_ndim("x", x, 2, "[tokens, hidden]")
    check_dtype("x", x, ACT_DTYPES)
    check_last_dim_contiguous("x", x)
    hidden = x.shape[1]
    check_ndim("weight", weight, 1, "[hidden]")
    check_shape("weight", weight, (hidden,), "[hidden]")
    check_dtype("weight", weight, ACT_DTYPES)
    check_contiguous("weight", weight)
    if residual is not None:
        check_ndim("residual", residual, 2, "[tokens, hidden]")
        check_shape("residual", residual, tuple(x.shape), "[tokens, hidden] (same as x)")
        check_same_dtype("residual", residual, "x", x)
        check_last_dim_contiguous("residual", residual)
    if not isinstance(eps, (int, float)) or eps < 0:
        raise ValueError(f"eps: expected a non-negative float, got {eps!r}")
    check_same_device({"x": x, "weight": weight, "residual": residual})
    return hidden


def check_silu_and_mul(x: torch.Tensor) -> int:
    """x: [tokens, 2 * d]. Returns d."""
    check_ndim("x", x, 2, "[tokens, 2 * d]")
    check_dtype("x", x, ACT_DTYPES)
    check_last_dim_contiguous("x", x)
    if x.shape[1] % 2:
        raise ValueError(f"x: last dimension must be even (gate ⊕ up), got {x.shape[1]}")
    return x.shape[1] // 2


def check_q4_matmul(x: torch.Tensor, codes: torch.Tensor, scales: torch.Tensor) -> int:
    """x: [M, K]; codes: [N, K/32, 16] uint8; scales: [N, K/32, 2] float16 (4-bit groups of 32). Returns N."""
    check_ndim("x", x, 2, "[rows, in_features]")
    check_dtype("x", x, ACT_DTYPES)
    check_last_dim_contiguous("x", x)
    check_ndim("codes", codes, 3, "[out_features, in_features / 32, 16]")
    check_dtype("codes", codes, (torch.uint8,))
    check_contiguous("codes", codes)
    n, groups = codes.shape[0], codes.shape[1]
    if codes.shape[2] != 16:
        raise ValueError(f"codes: expected 16 bytes per group of 32, got shape {tuple(codes.shape)}")
    if x.shape[1] != groups * 32:
        raise ValueError(f"x: in_features {x.shape[1]} does not match the weight's {groups} groups of 32")
    check_shape("scales", scales, (n, groups, 2), "[out_features, in_features / 32, 2]")
    check_dtype("scales", scales, (torch.float16,))
    check_contiguous("scales", scales)
    check_same_device({"x": x, "codes": codes, "scales": scales})
    return n


@dataclass(frozen=True, slots=True)
class RotaryDims:
    tokens: int
    num_q_heads: int
    num_k_heads: int
    head_dim: int
    max_positions: int


def check_rotary(
    q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor
) -> RotaryDims:
    """q: [tokens, Hq, D]; k: [tokens, Hk, D]; positions: [tokens]; cos/sin: [max_pos, D // 2] fp32."""
    check_ndim("q", q, 3, "[tokens, num_q_heads, head_dim]")
    check_ndim("k", k, 3, "[tokens, num_kv_heads, head_dim]")
    check_dtype("q", q, ACT_DTYPES)
    check_same_dtype("k", k, "q", q)
    tokens, hq, d = q.shape
    if k.shape[0] != tokens or k.shape[2] != d:
        raise ValueError(f"k: shape {tuple(k.shape)} incompatible with q {tuple(q.shape)} (tokens, head_dim must match)")
    check_head_dim("q", d)
    if d % 2:
        raise ValueError(f"q: head_dim must be even for rotary embedding, got {d}")
    check_last_dim_contiguous("q", q)
    check_last_dim_contiguous("k", k)
    check_ndim("positions", positions, 1, "[tokens]")
    check_shape("positions", positions, (tokens,), "[tokens]")
    check_dtype("positions", positions, INDEX_DTYPES)
    check_contiguous("positions", positions)
    for name, t in (("cos", cos), ("sin", sin)):
        check_ndim(name, t, 2, "[max_positions, head_dim // 2]")
        check_dtype(name, t, (torch.float32,))
        check_contiguous(name, t)
        if t.shape[1] != d // 2:
            raise ValueError(f"{name}: expected [max_positions, {d // 2}] for head_dim {d}, got {tuple(t.shape)}")
    if cos.shape != sin.shape:
        raise ValueError(f"sin: shape {tuple(sin.shape)} does not match cos {tuple(cos.shape)}")
    check_same_device({"q": q, "k": k, "positions": positions, "cos": cos, "sin": sin})
    max_pos = cos.shape[0]
    if values_checkable(positions) and tokens:
        lo, hi = int(positions.min()), int(positions.max())
        if lo < 0 or hi >= max_pos:
            raise ValueError(f"positions: values must lie in [0, {max_pos}) (cos/sin cache size), got [{lo}, {hi}]")
    return RotaryDims(tokens, hq, k.shape[1], d, max_pos)


@dataclass(frozen=True, slots=True)
class CacheDims:
    num_blocks: int
    block_size: int
    num_kv_heads: int
    head_dim: int
    quantized: bool


def check_kv_cache(
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    k_scale: torch.Tensor | None,
    v_scale: torch.Tensor | None,
    act_dtype: torch.dtype,
    act_name: str,
) -> CacheDims:
    """k_cache/v_cache: [num_blocks, block_size, Hk, D] (act dtype or int8); scales: [num_blocks, block_size, Hk]."""
    layout = "[num_blocks, block_size, num_kv_heads, head_dim]"
    check_ndim("k_cache", k_cache, 4, layout)
    check_ndim("v_cache", v_cache, 4, layout)
    check_shape("v_cache", v_cache, tuple(k_cache.shape), f"{layout} (same as k_cache)")
    check_same_dtype("v_cache", v_cache, "k_cache", k_cache)
    check_last_dim_contiguous("k_cache", k_cache)
    check_last_dim_contiguous("v_cache", v_cache)
    nb, bs, hk, d = k_cache.shape
    quantized = k_cache.dtype == torch.int8
    if not quantized and k_cache.dtype != act_dtype:
        raise ValueError(f"k_cache: dtype {k_cache.dtype} must equal {act_name} dtype {act_dtype} or be int8")
    if quantized:
        for name, s in (("k_scale", k_scale), ("v_scale", v_scale)):
            if s is None:
                raise ValueError(f"{name}: required when the KV cache is int8")
            check_ndim(name, s, 3, "[num_blocks, block_size, num_kv_heads]")
            check_shape(name, s, (nb, bs, hk), "[num_blocks, block_size, num_kv_heads]")
            check_dtype(name, s, (torch.float32,))
            check_last_dim_contiguous(name, s)
    else:
        for name, s in (("k_scale", k_scale), ("v_scale", v_scale)):
            if s is not None:
                raise ValueError(f"{name}: only valid with an int8 KV cache (k_cache is {k_cache.dtype})")
    if bs < 1 or nb < 1:
        raise ValueError(f"k_cache: empty cache shape {tuple(k_cache.shape)}")
    return CacheDims(nb, bs, hk, d, quantized)


def check_store_kv_cache(
    key: torch.Tensor,
    value: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slot_mapping: torch.Tensor,
    k_scale: torch.Tensor | None,
    v_scale: torch.Tensor | None,
) -> CacheDims:
    """key/value: [tokens, Hk, D]; slot_mapping: [tokens] int (slot = block * block_size + offset, <0 skips)."""
    check_ndim("key", key, 3, "[num_tokens, num_kv_heads, head_dim]")
    check_ndim("value", value, 3, "[num_tokens, num_kv_heads, head_dim]")
    check_dtype("key", key, ACT_DTYPES)
    check_same_dtype("value", value, "key", key)
    check_shape("value", value, tuple(key.shape), "[num_tokens, num_kv_heads, head_dim] (same as key)")
    check_last_dim_contiguous("key", key)
    check_last_dim_contiguous("value", value)
    dims = check_kv_cache(k_cache, v_cache, k_scale, v_scale, key.dtype, "key")
    if key.shape[1] != dims.num_kv_heads or key.shape[2] != dims.head_dim:
        raise ValueError(
            f"key: [num_tokens, num_kv_heads, head_dim] = {tuple(key.shape)} does not match "
            f"k_cache heads/head_dim ({dims.num_kv_heads}, {dims.head_dim})"
        )
    check_head_dim("key", dims.head_dim)
    check_ndim("slot_mapping", slot_mapping, 1, "[num_tokens]")
    check_shape("slot_mapping", slot_mapping, (key.shape[0],), "[num_tokens]")
    check_dtype("slot_mapping", slot_mapping, INDEX_DTYPES)
    check_contiguous("slot_mapping", slot_mapping)
    check_same_device(
        {"key": key, "value": value, "k_cache": k_cache, "v_cache": v_cache, "slot_mapping": slot_mapping,
         "k_scale": k_scale, "v_scale": v_scale}
    )
    if values_checkable(slot_mapping) and key.shape[0]:
        hi = int(slot_mapping.max())
        cap = dims.num_blocks * dims.block_size
        if hi >= cap:
            raise ValueError(f"slot_mapping: slot {hi} out of range for a cache of {cap} slots")
        valid = slot_mapping[slot_mapping >= 0]
        if valid.numel() != valid.unique().numel():
            raise ValueError("slot_mapping: the same slot appears more than once")
    return dims


@dataclass(frozen=True, slots=True)
class AttnDims:
    batch: int
    num_q_heads: int
    num_kv_heads: int
    head_dim: int
    block_size: int
    num_blocks: int
    max_blocks: int
    quantized: bool
    scale: float


def _check_attention_common(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    context_lens: torch.Tensor,
    k_scale: torch.Tensor | None,
    v_scale: torch.Tensor | None,
    scale: float | None,
    q_layout: str,
) -> AttnDims:
    check_ndim("q", q, 3, q_layout)
    check_dtype("q", q, ACT_DTYPES)
    check_last_dim_contiguous("q", q)
    cache = check_kv_cache(k_cache, v_cache, k_scale, v_scale, q.dtype, "q")
    hq, d = q.shape[1], q.shape[2]
    check_head_dim("q", d)
    if d != cache.head_dim:
        raise ValueError(f"q: head_dim {d} does not match k_cache head_dim {cache.head_dim}")
    if hq % cache.num_kv_heads:
        raise ValueError(f"q: num_q_heads {hq} is not a multiple of k_cache num_kv_heads {cache.num_kv_heads}")
    check_ndim("block_tables", block_tables, 2, "[batch, max_blocks_per_seq]")
    check_dtype("block_tables", block_tables, INDEX_DTYPES)
    check_contiguous("block_tables", block_tables)
    batch = block_tables.shape[0]
    check_ndim("context_lens", context_lens, 1, "[batch]")
    check_shape("context_lens", context_lens, (batch,), "[batch] (rows of block_tables)")
    check_dtype("context_lens", context_lens, INDEX_DTYPES)
    check_contiguous("context_lens", context_lens)
    if scale is not None and (not isinstance(scale, (int, float)) or not scale > 0):
        raise ValueError(f"scale: expected a positive float, got {scale!r}")
    max_blocks = block_tables.shape[1]
    if values_checkable(block_tables, context_lens) and batch:
        lens = context_lens.to(torch.int64)
        if int(lens.min()) < 0:
            raise ValueError("context_lens: negative length")
        cap = max_blocks * cache.block_size
        if int(lens.max()) > cap:
            raise ValueError(
                f"context_lens: length {int(lens.max())} exceeds block_tables capacity "
                f"{max_blocks} blocks x {cache.block_size} = {cap} tokens"
            )
        used = torch.arange(max_blocks)[None, :] < ((lens + cache.block_size - 1) // cache.block_size)[:, None]
        pages = block_tables.to(torch.int64)[used]
        if pages.numel() and (int(pages.min()) < 0 or int(pages.max()) >= cache.num_blocks):
            raise ValueError(
                f"block_tables: page index out of range [0, {cache.num_blocks}) within the context "
                f"(got [{int(pages.min())}, {int(pages.max())}])"
            )
    return AttnDims(
        batch=batch,
        num_q_heads=hq,
        num_kv_heads=cache.num_kv_heads,
        head_dim=d,
        block_size=cache.block_size,
        num_blocks=cache.num_blocks,
        max_blocks=max_blocks,
        quantized=cache.quantized,
        scale=float(scale) if scale is not None else d**-0.5,
    )


def check_decode_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    context_lens: torch.Tensor,
    k_scale: torch.Tensor | None,
    v_scale: torch.Tensor | None,
    scale: float | None,
) -> AttnDims:
    """q: [batch, Hq, D]; see :func:`kernels.paged_decode_attention`."""
    dims = _check_attention_common(
        q, k_cache, v_cache, block_tables, context_lens, k_scale, v_scale, scale, "[batch, num_q_heads, head_dim]"
    )
    if q.shape[0] != dims.batch:
        raise ValueError(f"q: batch {q.shape[0]} does not match block_tables batch {dims.batch}")
    check_same_device(
        {"q": q, "k_cache": k_cache, "v_cache": v_cache, "block_tables": block_tables,
         "context_lens": context_lens, "k_scale": k_scale, "v_scale": v_scale}
    )
    return dims


def check_prefill_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    cu_seqlens_q: torch.Tensor,
    context_lens: torch.Tensor,
    k_scale: torch.Tensor | None,
    v_scale: torch.Tensor | None,
    scale: float | None,
) -> AttnDims:
    """q: [total_new_tokens, Hq, D]; cu_seqlens_q: [batch + 1]; see :func:`kernels.paged_prefill_attention`."""
    dims = _check_attention_common(
        q, k_cache, v_cache, block_tables, context_lens, k_scale, v_scale, scale,
        "[total_new_tokens, num_q_heads, head_dim]",
    )
    check_ndim("cu_seqlens_q", cu_seqlens_q, 1, "[batch + 1]")
    check_shape("cu_seqlens_q", cu_seqlens_q, (dims.batch + 1,), "[batch + 1]")
    check_dtype("cu_seqlens_q", cu_seqlens_q, INDEX_DTYPES)
    check_contiguous("cu_seqlens_q", cu_seqlens_q)
    check_same_device(
        {"q": q, "k_cache": k_cache, "v_cache": v_cache, "block_tables": block_tables,
         "cu_seqlens_q": cu_seqlens_q, "context_lens": context_lens, "k_scale": k_scale, "v_scale": v_scale}
    )
    if values_checkable(cu_seqlens_q, context_lens):
        cu = cu_seqlens_q.to(torch.int64)
        if int(cu[0]) != 0 or int(cu[-1]) != q.shape[0]:
            raise ValueError(f"cu_seqlens_q: must start at 0 and end at total_new_tokens={q.shape[0]}, got {cu.tolist()}")
        q_lens = cu[1:] - cu[:-1]
        if dims.batch and int(q_lens.min()) < 0:
            raise ValueError("cu_seqlens_q: must be non-decreasing")
        if dims.batch and bool((q_lens > context_lens.to(torch.int64)).any()):
            raise ValueError("context_lens: each sequence's context (prefix + new tokens) must be >= its new tokens")
    return dims

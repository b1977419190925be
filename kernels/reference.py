"""PyTorch reference implementations ("oracles") of every kernel in this package.

These are the CPU production path (the dispatch layer calls them when tensors are not on CUDA) and
the ground truth the Triton kernels are tested against. All arithmetic is done in float32; results
are cast back to the activation dtype once, at the end.

They do **not** validate their arguments: go through :mod:`kernels` (the dispatch layer) for that.

Conventions shared with the Triton kernels:

* Paged KV cache: ``k_cache / v_cache: [num_blocks, block_size, num_kv_heads, head_dim]``; token ``t``
  of sequence ``b`` lives in page ``block_tables[b, t // block_size]`` at offset ``t % block_size``.
* ``context_lens[b]`` counts *all* tokens of sequence ``b`` whose K/V are in the cache, including the
  tokens being processed in this step (store K/V first, then run attention).
* GQA: query head ``h`` reads KV head ``h // (num_q_heads // num_kv_heads)``.
* int8 KV cache: symmetric per-(token, head) quantisation, ``x ≈ q * scale`` with
  ``scale = max|x| / 127`` (see :func:`quantize_kv_int8`).
"""

from __future__ import annotations

import torch

INT8_QMAX = 127.0


def _f32(x: torch.Tensor) -> torch.Tensor:
    """x as float32; no dispatch at all when it already is (these ops run per layer on the CPU path)."""
    return x if x.dtype == torch.float32 else x.float()


def _as(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """x cast to ``dtype``; a no-op without a dispatch when it already has it."""
    return x if x.dtype == dtype else x.to(dtype)


# --------------------------------------------------------------------------------------------------
# Normalisation, activation, rotary
# --------------------------------------------------------------------------------------------------


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    """``x * rsqrt(mean(x²) + eps) * weight`` in fp32. x: [tokens, hidden]; weight: [hidden] → like x."""
    x32 = _f32(x)  # [tokens, hidden]
    inv = torch.rsqrt(x32.pow(2).mean(dim=-1, keepdim=True) + eps)  # [tokens, 1]
    return _as(x32 * inv * _f32(weight), x.dtype)


def fused_add_rms_norm(
    x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """``residual' = x + residual`` (rounded to x.dtype), ``out = rms_norm(residual')``.

    x, residual: [tokens, hidden]; weight: [hidden]. Returns ``(out, residual')``, both like x.
    """
    new_residual = _as(_f32(x) + _f32(residual), x.dtype)  # [tokens, hidden]
    return rms_norm(new_residual, weight, eps), new_residual


def silu_and_mul(x: torch.Tensor) -> torch.Tensor:
    """x: [tokens, 2 * d] = gate ⊕ up → ``silu(gate) * up``: [tokens, d]."""
    d = x.shape[-1] // 2
    x32 = _f32(x)
    gate, up = x32[:, :d], x32[:, d:]  # [tokens, d] each
    return _as(torch.nn.functional.silu(gate) * up, x.dtype)


def q4_matmul(x: torch.Tensor, codes: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """x: [M, K] @ Wᵀ for the 4-bit groups ``codes [N, K/32, 16]`` (low nibbles: elements 0..15 of a
    group, high nibbles: 16..31) and ``scales [N, K/32, 2]`` (``w = d * q + m``) → [M, N], x.dtype."""
    q = torch.cat([codes & 0x0F, codes >> 4], dim=-1).float()  # [N, K/32, 32]
    s = scales.float()  # [N, K/32, 2]
    weight = (q * s[..., 0:1] + s[..., 1:2]).reshape(codes.shape[0], -1)  # [N, K]
    return _as(_f32(x) @ weight.t(), x.dtype)


def rope_cos_sin(
    head_dim: int,
    max_positions: int,
    theta: float = 10000.0,
    *,
    inv_freq: torch.Tensor | None = None,
    device: torch.device | str | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Build the rotary cache used by :func:`rotary_embedding`.

    Returns ``(cos, sin)``, each ``[max_positions, head_dim // 2]`` float32, where
    ``cos[p, i] = cos(p * inv_freq[i])`` and ``inv_freq[i] = theta ** (-2i / head_dim)`` (Hugging Face
    Llama). Pass ``inv_freq: [head_dim // 2]`` to use scaled frequencies (e.g. Llama-3 rope scaling).
    The product ``p * inv_freq`` is formed in fp32 exactly like ``transformers`` does.
    """
    if head_dim % 2:
        raise ValueError(f"head_dim: must be even, got {head_dim}")
    if inv_freq is None:
        exponent = torch.arange(0, head_dim, 2, dtype=torch.int64, device=device).float()  # [D/2]
        inv_freq = 1.0 / (theta ** (exponent / head_dim))
    else:
        if inv_freq.shape != (head_dim // 2,):
            raise ValueError(f"inv_freq: expected shape ({head_dim // 2},), got {tuple(inv_freq.shape)}")
        inv_freq = inv_freq.to(device=device if device is not None else inv_freq.device, dtype=torch.float32)
    pos = torch.arange(max_positions, dtype=torch.float32, device=inv_freq.device)  # [P]
    freqs = pos[:, None] * inv_freq[None, :]  # [P, D/2]
    return freqs.cos().contiguous(), freqs.sin().contiguous()


def rotary_embedding(
    q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """HF Llama "rotate_half" rotary embedding (first half / second half of head_dim, not interleaved).

    q: [tokens, Hq, D]; k: [tokens, Hk, D]; positions: [tokens]; cos/sin: [max_pos, D // 2] fp32.
    Returns new contiguous ``(q_rot, k_rot)`` with the input dtype.
    """
    pos = _as(positions, torch.int64)
    c = cos[pos][:, None, :]  # [tokens, 1, D/2]
    s = sin[pos][:, None, :]

    def rot(x: torch.Tensor) -> torch.Tensor:
        x32 = _f32(x)
        x1, x2 = x32.chunk(2, dim=-1)  # [tokens, heads, D/2] each
        return _as(torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1), x.dtype)

    return rot(q), rot(k)


# --------------------------------------------------------------------------------------------------
# int8 KV quantisation
# --------------------------------------------------------------------------------------------------


def round_half_away(x: torch.Tensor) -> torch.Tensor:
    """Round to nearest, ties away from zero (the rounding the Triton store kernel uses)."""
    return torch.sign(x) * torch.floor(torch.abs(x) + 0.5)


def quantize_kv_int8(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Symmetric int8 quantisation over the last dim.

    x: [..., head_dim] (any float dtype) → ``(q: [..., head_dim] int8, scale: [...] float32)`` with
    ``scale = max|x| / 127`` and ``q = round_half_away(x / scale)`` clamped to [-127, 127]. An all-zero
    row gets ``scale = 0`` and ``q = 0``.
    """
    x32 = x.float()
    scale = x32.abs().amax(dim=-1) / INT8_QMAX  # [...]
    safe = torch.where(scale > 0, scale, torch.ones_like(scale))
    q = round_half_away(x32 / safe[..., None]).clamp_(-INT8_QMAX, INT8_QMAX).to(torch.int8)
    return q, scale


def dequantize_kv_int8(q: torch.Tensor, scale: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """q: [..., head_dim] int8; scale: [...] float32 → ``q * scale`` as ``dtype``: [..., head_dim]."""
    return (q.float() * scale.float()[..., None]).to(dtype)


# --------------------------------------------------------------------------------------------------
# KV cache store
# --------------------------------------------------------------------------------------------------


def store_kv_cache(
    key: torch.Tensor,
    value: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slot_mapping: torch.Tensor,
    k_scale: torch.Tensor | None = None,
    v_scale: torch.Tensor | None = None,
) -> None:
    """Write key/value ``[tokens, Hk, D]`` into the paged caches at ``slot_mapping: [tokens]`` (in place).

    slot = block_id * block_size + offset; negative slots are skipped. With an int8 cache the rows are
    quantised with :func:`quantize_kv_int8` and the scales written to ``k_scale / v_scale``.
    """
    block_size = k_cache.shape[1]
    valid = slot_mapping >= 0  # [tokens]
    slots = slot_mapping[valid].long()  # [n]
    blocks, offsets = slots // block_size, slots % block_size
    key, value = key[valid], value[valid]  # [n, Hk, D]
    if k_cache.dtype == torch.int8:
        assert k_scale is not None and v_scale is not None
        kq, ks = quantize_kv_int8(key)
        vq, vs = quantize_kv_int8(value)
        k_cache[blocks, offsets] = kq
        v_cache[blocks, offsets] = vq
        k_scale[blocks, offsets] = ks
        v_scale[blocks, offsets] = vs
    else:
        k_cache[blocks, offsets] = key.to(k_cache.dtype)
        v_cache[blocks, offsets] = value.to(v_cache.dtype)


# --------------------------------------------------------------------------------------------------
# Paged attention
# --------------------------------------------------------------------------------------------------


def gather_kv(
    cache: torch.Tensor,
    block_tables: torch.Tensor,
    length: int,
    scale: torch.Tensor | None = None,
) -> torch.Tensor:
    """Gather ``length`` tokens of one sequence from a paged cache as fp32.

    cache: [num_blocks, block_size, Hk, D]; block_tables: [max_blocks] (one row); scale (int8 cache):
    [num_blocks, block_size, Hk] → [length, Hk, D] float32.
    """
    block_size = cache.shape[1]
    n_pages = (length + block_size - 1) // block_size
    pages = block_tables[:n_pages].long()  # [n_pages]
    x = cache[pages].flatten(0, 1)[:length]  # [length, Hk, D]
    if scale is not None:
        s = scale[pages].flatten(0, 1)[:length]  # [length, Hk]
        return dequantize_kv_int8(x, s)
    return x.float()


def _gather_padded(
    cache: torch.Tensor, block_tables: torch.Tensor, n_pages: int, scale: torch.Tensor | None
) -> torch.Tensor:
    """cache: [NB, BS, Hk, D]; block_tables: [B, max_blocks] → fp32 [B, n_pages * BS, Hk, D]."""
    pages = block_tables[:, :n_pages].long().clamp(0, cache.shape[0] - 1)  # [B, n_pages] (padding → any page)
    x = cache[pages].flatten(1, 2)  # [B, L, Hk, D]
    if scale is not None:
        s = scale[pages].flatten(1, 2)  # [B, L, Hk]
        return dequantize_kv_int8(x, s)
    return x.float()


def paged_decode_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    context_lens: torch.Tensor,
    scale: float,
    k_scale: torch.Tensor | None = None,
    v_scale: torch.Tensor | None = None,
) -> torch.Tensor:
    """One query token per sequence over its paged context.

    q: [B, Hq, D]; caches: [NB, BS, Hk, D]; block_tables: [B, max_blocks]; context_lens: [B]
    → out: [B, Hq, D] (q.dtype). A sequence with ``context_len == 0`` gets zeros.
    """
    batch, hq, d = q.shape
    hk, bs = k_cache.shape[2], k_cache.shape[1]
    group = hq // hk
    out = torch.zeros(batch, hq, d, dtype=torch.float32, device=q.device)  # [B, Hq, D]
    if batch == 0:
        return out.to(q.dtype)
    lens = context_lens.long()  # [B]
    max_len = int(lens.max())
    if max_len == 0:
        return out.to(q.dtype)
    n_pages = (max_len + bs - 1) // bs
    k = _gather_padded(k_cache, block_tables, n_pages, k_scale)  # [B, L, Hk, D]
    v = _gather_padded(v_cache, block_tables, n_pages, v_scale)  # [B, L, Hk, D]
    length = k.shape[1]
    qg = q.float().view(batch, hk, group, d)  # [B, Hk, G, D]
    scores = torch.einsum("bhgd,blhd->bhgl", qg, k) * scale  # [B, Hk, G, L]
    valid = torch.arange(length, device=q.device)[None, :] < lens[:, None]  # [B, L]
    scores = scores.masked_fill(~valid[:, None, None, :], float("-inf"))
    probs = torch.softmax(scores, dim=-1)  # [B, Hk, G, L]
    probs = torch.nan_to_num(probs, nan=0.0)  # rows with context_len == 0
    o = torch.einsum("bhgl,blhd->bhgd", probs, v)  # [B, Hk, G, D]
    return o.reshape(batch, hq, d).to(q.dtype)


def paged_prefill_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    cu_seqlens_q: torch.Tensor,
    context_lens: torch.Tensor,
    scale: float,
    k_scale: torch.Tensor | None = None,
    v_scale: torch.Tensor | None = None,
) -> torch.Tensor:
    """Causal attention of each sequence's new tokens over its cached prefix plus themselves.

    q: [T, Hq, D] packed (sequence b owns rows ``cu_seqlens_q[b]:cu_seqlens_q[b+1]``); caches hold the
    new tokens' K/V already; context_lens[b] = prefix + new tokens. New token i of sequence b sits at
    absolute position ``context_lens[b] - n_new + i`` and sees keys ``0 ..= that position``.
    → out: [T, Hq, D] (q.dtype).
    """
    total, hq, d = q.shape
    hk = k_cache.shape[2]
    group = hq // hk
    out = torch.zeros(total, hq, d, dtype=torch.float32, device=q.device)  # [T, Hq, D]
    cu = cu_seqlens_q.long().tolist()
    lens = context_lens.long().tolist()
    for b, ctx in enumerate(lens):
        start, end = cu[b], cu[b + 1]
        n = end - start
        if n == 0:
            continue
        k = gather_kv(k_cache, block_tables[b], ctx, k_scale)  # [ctx, Hk, D]
        v = gather_kv(v_cache, block_tables[b], ctx, v_scale)  # [ctx, Hk, D]
        qb = q[start:end].float().view(n, hk, group, d)  # [n, Hk, G, D]
        scores = torch.einsum("nhgd,lhd->hgnl", qb, k) * scale  # [Hk, G, n, ctx]
        qpos = torch.arange(ctx - n, ctx, device=q.device)  # [n]
        kpos = torch.arange(ctx, device=q.device)  # [ctx]
        mask = kpos[None, :] <= qpos[:, None]  # [n, ctx]
        scores = scores.masked_fill(~mask, float("-inf"))
        probs = torch.softmax(scores, dim=-1)  # [Hk, G, n, ctx]
        o = torch.einsum("hgnl,lhd->nhgd", probs, v)  # [n, Hk, G, D]
        out[start:end] = o.reshape(n, hq, d)
    return out.to(q.dtype)

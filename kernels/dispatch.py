"""The single dispatch point: ``kernels.<op>(...)`` → Triton kernel or PyTorch reference.

Choice, first match wins:

1. the op's ``use_triton=`` argument (``True`` / ``False``);
2. the innermost active :func:`force_triton` context (a :class:`contextvars.ContextVar`, so it is
   per thread / per asyncio task, never a module-level global);
3. Triton when the tensors are on CUDA and Triton is importable, the reference otherwise.

Arguments are validated once, here or in the Triton launcher, and errors are :class:`ValueError`
naming the argument. The Triton modules are imported lazily on first use, so ``import kernels``
works without Triton installed, and ``TRITON_INTERPRET=1`` (CPU interpreter) only has to be set
before the first Triton op runs.
"""

from __future__ import annotations

import contextvars
import functools
import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager

import torch

from kernels import _validate, reference

_FORCE_TRITON: contextvars.ContextVar[bool | None] = contextvars.ContextVar("thrifty_force_triton", default=None)
_LAUNCHES: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("thrifty_triton_launches", default=None)


@contextmanager
def force_triton(enabled: bool = True) -> Iterator[None]:
    """Within the block, ops without an explicit ``use_triton`` use Triton (``True``) or the
    reference (``False``) regardless of device. Nests; scoped to the current thread / task."""
    token = _FORCE_TRITON.set(bool(enabled))
    try:
        yield
    finally:
        _FORCE_TRITON.reset(token)


@contextmanager
def record_launches() -> Iterator[list[str]]:
    """Within the block, the name of every op that went to its Triton launcher is appended to the
    yielded list, in call order (proof that a kernel ran, for tests and benchmarks). Scoped to the
    current thread / task; nests (the inner block records only its own calls)."""
    launched: list[str] = []
    token = _LAUNCHES.set(launched)
    try:
        yield launched
    finally:
        _LAUNCHES.reset(token)


@functools.cache
def triton_available() -> bool:
    """True when the ``triton`` package can be imported (memoised: it is asked on every op call)."""
    return importlib.util.find_spec("triton") is not None


def should_use_triton(device: torch.device, use_triton: bool | None = None) -> bool:
    """Resolve the backend for tensors on ``device`` (see the module docstring for the rules)."""
    if use_triton is not None:
        return bool(use_triton)
    forced = _FORCE_TRITON.get()
    if forced is not None:
        return forced
    return device.type == "cuda" and triton_available()


def _pick(op: str, device: torch.device, use_triton: bool | None) -> bool:
    chosen = should_use_triton(device, use_triton)
    if chosen and not triton_available():
        raise RuntimeError("Triton kernels requested but the 'triton' package is not installed")
    if chosen and (launched := _LAUNCHES.get()) is not None:
        launched.append(op)
    return chosen


# --------------------------------------------------------------------------------------------------
# Ops
# --------------------------------------------------------------------------------------------------


def q4_matmul(x: torch.Tensor, codes: torch.Tensor, scales: torch.Tensor, *,
              use_triton: bool | None = None) -> torch.Tensor:
    """``x @ Wᵀ`` with ``W`` held as 4-bit groups of 32 (GGUF Q4_1's form, see :mod:`kernels.dequant_matmul`):
    the Triton kernel dequantizes inside the GEMM; the reference dequantizes first.

    x: [M, K] (fp32/fp16/bf16, last dim contiguous); codes: [N, K/32, 16] uint8; scales: [N, K/32, 2]
    float16 → [M, N] contiguous, x.dtype."""
    _validate.check_tensor("x", x)
    if _pick("q4_matmul", x.device, use_triton):
        from kernels import dequant_matmul as _k

        return _k.q4_matmul(x, codes, scales)  # the launcher validates
    _validate.check_q4_matmul(x, codes, scales)
    return reference.q4_matmul(x, codes, scales)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float, *, use_triton: bool | None = None) -> torch.Tensor:
    """RMSNorm: ``x * rsqrt(mean(x², -1) + eps) * weight``, computed in fp32, rounded once.

    x: [tokens, hidden] (fp32/fp16/bf16; any row stride, last dim contiguous);
    weight: [hidden] contiguous (any float dtype) → [tokens, hidden] contiguous, x.dtype.
    Hugging Face rounds the normalised x to x.dtype before multiplying by the weight; this rounds once
    at the end, so fp16/bf16 results may differ from HF by one rounding step (fp32: identical).
    """
    _validate.check_tensor("x", x)
    if _pick("rms_norm", x.device, use_triton):
        from kernels import norm as _k

        return _k.rms_norm(x, weight, eps)
    _validate.check_rms_norm(x, weight, eps)
    return reference.rms_norm(x, weight, eps)


def fused_add_rms_norm(
    x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor, eps: float, *, use_triton: bool | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Residual add + RMSNorm in one pass.

    x, residual: [tokens, hidden], same dtype → ``(out, new_residual)`` where
    ``new_residual = (x + residual)`` rounded to x.dtype and ``out = rms_norm(new_residual)``; both
    new contiguous tensors (inputs are not modified).
    """
    _validate.check_tensor("x", x)
    if _pick("fused_add_rms_norm", x.device, use_triton):
        from kernels import norm as _k

        return _k.fused_add_rms_norm(x, residual, weight, eps)
    _validate.check_rms_norm(x, weight, eps, residual)
    return reference.fused_add_rms_norm(x, residual, weight, eps)


def rope_cos_sin(
    head_dim: int,
    max_positions: int,
    theta: float = 10000.0,
    *,
    inv_freq: torch.Tensor | None = None,
    device: torch.device | str | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Rotary cache: ``(cos, sin)``, each [max_positions, head_dim // 2] float32 (HF Llama frequencies,
    or pass ``inv_freq: [head_dim // 2]``). Build once per model and pass to :func:`rotary_embedding`."""
    return reference.rope_cos_sin(head_dim, max_positions, theta, inv_freq=inv_freq, device=device)


def rotary_embedding(
    q: torch.Tensor,
    k: torch.Tensor,
    positions: torch.Tensor,
    cos: torch.Tensor,
    sin: torch.Tensor,
    *,
    use_triton: bool | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Rotary embedding, HF Llama "rotate_half" convention (halves of head_dim, not interleaved).

    q: [tokens, Hq, D], k: [tokens, Hk, D] (same dtype; token/head strides free, e.g. views of a fused
    qkv projection; last dim contiguous); positions: [tokens] int32/int64 in [0, max_positions);
    cos/sin: [max_positions, D // 2] float32 from :func:`rope_cos_sin`.
    → ``(q_rot, k_rot)``: new contiguous tensors, input dtype (math in fp32).
    """
    _validate.check_tensor("q", q)
    if _pick("rotary_embedding", q.device, use_triton):
        from kernels import rotary as _k

        return _k.rotary_embedding(q, k, positions, cos, sin)
    _validate.check_rotary(q, k, positions, cos, sin)
    return reference.rotary_embedding(q, k, positions, cos, sin)


def silu_and_mul(x: torch.Tensor, *, use_triton: bool | None = None) -> torch.Tensor:
    """SwiGLU activation: x: [tokens, 2 * d] = gate ⊕ up → ``silu(gate) * up``: [tokens, d], x.dtype."""
    _validate.check_tensor("x", x)
    if _pick("silu_and_mul", x.device, use_triton):
        from kernels import activation as _k

        return _k.silu_and_mul(x)
    _validate.check_silu_and_mul(x)
    return reference.silu_and_mul(x)


def store_kv_cache(
    key: torch.Tensor,
    value: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    slot_mapping: torch.Tensor,
    *,
    k_scale: torch.Tensor | None = None,
    v_scale: torch.Tensor | None = None,
    use_triton: bool | None = None,
) -> None:
    """Write this step's K/V into the paged cache, in place.

    key/value: [num_tokens, Hk, D]; k_cache/v_cache: [num_blocks, block_size, Hk, D] with key's dtype,
    or int8 (then ``k_scale/v_scale: [num_blocks, block_size, Hk]`` float32 are required and rows are
    quantised per (token, head), see :func:`kernels.quantize_kv_int8`); slot_mapping: [num_tokens]
    int64 (int32 accepted), ``slot = block_id * block_size + offset``, negative = skip. Slots must be
    distinct. Caches need only a contiguous last dim.
    """
    _validate.check_tensor("key", key)
    if _pick("store_kv_cache", key.device, use_triton):
        from kernels import kv_store as _k

        _k.store_kv_cache(key, value, k_cache, v_cache, slot_mapping, k_scale, v_scale)
        return
    _validate.check_store_kv_cache(key, value, k_cache, v_cache, slot_mapping, k_scale, v_scale)
    reference.store_kv_cache(key, value, k_cache, v_cache, slot_mapping, k_scale, v_scale)


def paged_decode_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    context_lens: torch.Tensor,
    *,
    scale: float | None = None,
    k_scale: torch.Tensor | None = None,
    v_scale: torch.Tensor | None = None,
    num_splits: int | None = None,
    use_triton: bool | None = None,
) -> torch.Tensor:
    """Decode attention: one new query token per sequence over its paged KV cache.

    q: [batch, Hq, D] (fp32/fp16/bf16; batch/head strides free); k_cache/v_cache:
    [num_blocks, block_size, Hk, D] (q's dtype, or int8 with ``k_scale/v_scale: [num_blocks,
    block_size, Hk]`` float32); block_tables: [batch, max_blocks] int32 (page ids; entries past a
    sequence's context are never read); context_lens: [batch] int32 = tokens in the cache *including*
    this step's token (store K/V first). Query head h reads KV head ``h // (Hq // Hk)``.
    scale: softmax scale, default ``head_dim ** -0.5``. num_splits: Triton split-KV partitions
    (default: heuristic). → out: [batch, Hq, D], q.dtype; zeros where context_len == 0.
    """
    _validate.check_tensor("q", q)
    if _pick("paged_decode_attention", q.device, use_triton):
        from kernels import paged_decode as _k

        return _k.paged_decode_attention(
            q, k_cache, v_cache, block_tables, context_lens, scale, k_scale, v_scale, num_splits=num_splits
        )
    dims = _validate.check_decode_attention(q, k_cache, v_cache, block_tables, context_lens, k_scale, v_scale, scale)
    return reference.paged_decode_attention(q, k_cache, v_cache, block_tables, context_lens, dims.scale, k_scale, v_scale)


def paged_prefill_attention(
    q: torch.Tensor,
    k_cache: torch.Tensor,
    v_cache: torch.Tensor,
    block_tables: torch.Tensor,
    cu_seqlens_q: torch.Tensor,
    context_lens: torch.Tensor,
    *,
    scale: float | None = None,
    k_scale: torch.Tensor | None = None,
    v_scale: torch.Tensor | None = None,
    max_seqlen_q: int | None = None,
    use_triton: bool | None = None,
) -> torch.Tensor:
    """Prefill / extend attention (varlen, causal) over the paged cache.

    q: [total_new_tokens, Hq, D] packed, sequence b owns rows ``cu_seqlens_q[b]:cu_seqlens_q[b+1]``;
    cu_seqlens_q: [batch + 1] int32 (0, ..., total_new_tokens); context_lens: [batch] int32 = cached
    prefix + new tokens (the new tokens' K/V must already be stored). New token i of sequence b is at
    position ``context_lens[b] - n_b + i`` and attends to cache positions ``0 ..= that``. Caches,
    block_tables, scales and ``scale`` as in :func:`paged_decode_attention`. max_seqlen_q: host-side
    bound on new tokens per sequence for the Triton grid (computed with a device sync if omitted).
    → out: [total_new_tokens, Hq, D], q.dtype.
    """
    _validate.check_tensor("q", q)
    if _pick("paged_prefill_attention", q.device, use_triton):
        from kernels import paged_prefill as _k

        return _k.paged_prefill_attention(
            q, k_cache, v_cache, block_tables, cu_seqlens_q, context_lens, scale, k_scale, v_scale,
            max_seqlen_q=max_seqlen_q,
        )
    dims = _validate.check_prefill_attention(
        q, k_cache, v_cache, block_tables, cu_seqlens_q, context_lens, k_scale, v_scale, scale
    )
    return reference.paged_prefill_attention(
        q, k_cache, v_cache, block_tables, cu_seqlens_q, context_lens, dims.scale, k_scale, v_scale
    )


def quantize_kv_int8(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """x: [..., head_dim] → ``(q int8 [..., head_dim], scale float32 [...])``, symmetric per row:
    ``scale = max|x| / 127``, ``q = round_half_away(x / scale)``. Same math as the int8 store."""
    _validate.check_tensor("x", x)
    if not x.is_floating_point():
        raise ValueError(f"x: expected a floating tensor, got {x.dtype}")
    return reference.quantize_kv_int8(x)


def dequantize_kv_int8(q: torch.Tensor, scale: torch.Tensor, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """q: [..., head_dim] int8; scale: [...] float32 → ``q * scale``: [..., head_dim] as ``dtype``."""
    _validate.check_tensor("q", q)
    _validate.check_dtype("q", q, (torch.int8,))
    _validate.check_tensor("scale", scale)
    if tuple(scale.shape) != tuple(q.shape[:-1]):
        raise ValueError(f"scale: expected shape {tuple(q.shape[:-1])} (q without its last dim), got {tuple(scale.shape)}")
    return reference.dequantize_kv_int8(q, scale, dtype)

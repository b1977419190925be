"""Thrifty kernels: Triton GPU kernels with PyTorch reference implementations behind one dispatch.

Call ops as ``kernels.<op>(...)``. Each op runs its Triton kernel when the tensors are on CUDA (or
when forced with ``use_triton=True`` / :func:`force_triton`), and the fp32 PyTorch reference in
:mod:`kernels.reference` otherwise. Arguments are validated; bad shapes, dtypes, devices or strides
raise :class:`ValueError` naming the argument.

Layouts (B = batch, T = tokens, Hq / Hk = query / KV heads, D = head_dim, NB = num_blocks,
BS = block_size):

=====================  ====================================================================
q (decode)             [B, Hq, D]
q (prefill)            [T, Hq, D] packed varlen, ``cu_seqlens_q: [B + 1]`` int32
key / value            [T, Hk, D]
k_cache / v_cache      [NB, BS, Hk, D], activation dtype or int8
k_scale / v_scale      [NB, BS, Hk] float32 (int8 cache only)
block_tables           [B, max_blocks] int32
context_lens           [B] int32, tokens in the cache including this step's
slot_mapping           [T] int64, ``block_id * BS + offset``; negative = skip
cos / sin              [max_positions, D // 2] float32 (:func:`rope_cos_sin`)
=====================  ====================================================================

Per-layer order in the model: ``store_kv_cache`` (this step's K/V) first, then
``paged_prefill_attention`` / ``paged_decode_attention``.

Modules: one per op (``norm``, ``rotary``, ``activation``, ``kv_store``, ``paged_decode``,
``paged_prefill``, ``dequant_matmul``; each a Triton kernel + launcher, imported lazily; the two attention kernels share
the online-softmax tile step in ``_attention_tile``), ``reference`` (oracles),
``dispatch`` (this API), ``bench`` (``python -m benchmarks.kernels.bench``).
"""

from __future__ import annotations

from kernels.dispatch import (
    dequantize_kv_int8,
    force_triton,
    fused_add_rms_norm,
    paged_decode_attention,
    paged_prefill_attention,
    q4_matmul,
    quantize_kv_int8,
    record_launches,
    rms_norm,
    rope_cos_sin,
    rotary_embedding,
    should_use_triton,
    silu_and_mul,
    store_kv_cache,
    triton_available,
)

__all__ = [
    "dequantize_kv_int8",
    "force_triton",
    "fused_add_rms_norm",
    "paged_decode_attention",
    "paged_prefill_attention",
    "q4_matmul",
    "quantize_kv_int8",
    "record_launches",
    "rms_norm",
    "rope_cos_sin",
    "rotary_embedding",
    "should_use_triton",
    "silu_and_mul",
    "store_kv_cache",
    "triton_available",
]

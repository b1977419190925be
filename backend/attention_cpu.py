"""Paged attention on CPU that reads the KV pool in place (no per-layer gather of each sequence's blocks).

The PyTorch path in :mod:`backend.engine.model_runner` copies every decode sequence's blocks into a
contiguous tensor per layer per step (``index_select``) and then runs SDPA over the copy. At batch 32 the
copy costs about as much as the attention itself, and with many sequences over a long shared prompt
(24 × ~1,050 tokens) it dominates the step. This module compiles, once per machine, a small C++ operator
(``torch.ops.thrifty_cpu.paged_attention``) that walks each query row's block table and attends straight
from the pool: one pass computes the scores of the G query heads that share a KV head, a softmax, and a
second pass accumulates V. Rows × KV heads run in parallel on ATen's thread pool.

Each query row carries its own block-table row and visible length, so the same call serves decode rows
(length = context + 1), the rows of a short multi-token extend over cached KV (causal: row i sees
``start + i + 1`` keys) and a mix of both. The pool may be float32 or bfloat16 (converted on load);
queries and output are float32.

Building needs a C++ compiler (and ninja) at run time; :func:`load_paged_attention` returns None where it
cannot build, and callers fall back to the gather path. The build is cached by PyTorch
(``TORCH_EXTENSIONS_DIR``, default ``~/.cache/torch_extensions``) and takes ~20-40 s the first time.

Its C++ is ``backend/native/paged_attention.cpp``, built with the other native parts as :mod:`backend.native_build` describes.
"""

from __future__ import annotations

import functools

import torch

from backend.native_build import load_cpu_part


@functools.cache
def load_paged_attention() -> object | None:
    """Build (once, cached on disk) and load the operator; its ``torch.ops`` callable, or None where it
    cannot be built here (no compiler, ``THRIFTY_NATIVE_ATTENTION=0``)."""
    built = load_cpu_part("paged_attention", "THRIFTY_NATIVE_ATTENTION", "the native CPU paged attention kernel",
                          "the gather path")
    # the overload itself: calling a torch.ops packet resolves the overload on every call
    return torch.ops.thrifty_cpu.paged_attention.default if built else None


def paged_attention(q: torch.Tensor, k_pool: torch.Tensor, v_pool: torch.Tensor, tables: torch.Tensor,
                    row_seq: torch.Tensor, row_len: torch.Tensor, scale: float) -> torch.Tensor:
    """q: [T, Hq, D] float32; k_pool/v_pool: [NB, BS, Hkv, D] float32 or bfloat16; tables: [S, W] int32;
    row_seq/row_len: [T] int32 (each row's table row and how many keys it sees) → [T, Hq, D] float32.

    Raises RuntimeError where the operator cannot be built (see :func:`load_paged_attention`)."""
    op = load_paged_attention()
    if op is None:
        raise RuntimeError("native CPU paged attention is not available on this machine")
    return op(q.contiguous(), k_pool, v_pool, tables, row_seq, row_len, scale)


def reference_paged_attention(q: torch.Tensor, k_pool: torch.Tensor, v_pool: torch.Tensor, tables: torch.Tensor,
                              row_seq: torch.Tensor, row_len: torch.Tensor, scale: float) -> torch.Tensor:
    """The same contract in plain PyTorch, one row at a time (for tests). → [T, Hq, D] float32"""
    _, bs, hkv, d = k_pool.shape
    groups = q.shape[1] // hkv
    out = torch.empty(q.shape, dtype=torch.float32)
    for t in range(q.shape[0]):
        n = int(row_len[t])
        blocks = tables[int(row_seq[t]), :-(-n // bs)].long()
        keys = k_pool[blocks].reshape(-1, hkv, d)[:n].float().repeat_interleave(groups, dim=1)  # [n, Hq, D]
        values = v_pool[blocks].reshape(-1, hkv, d)[:n].float().repeat_interleave(groups, dim=1)
        probs = torch.softmax(torch.einsum("hd,nhd->hn", q[t].float(), keys) * scale, dim=-1)  # [Hq, n]
        out[t] = torch.einsum("hn,nhd->hd", probs, values)
    return out

"""Host memory for the KV pool: how much is available, how much the pool gets, and lazily zeroed pages.

On CPU without ``--kv-cache-memory`` the pool is sized from what the engine can ever use and what the
machine has free, instead of a fixed size:

* **needed** — ``max_num_seqs`` sequences of ``max_model_len`` tokens each (rounded up to blocks): a
  bigger pool can never be filled by running sequences (only the prefix cache would keep more);
* **allowed** — :data:`KV_MEMORY_FRACTION` of the memory available at start-up: the smaller of
  ``MemAvailable`` (``/proc/meminfo``) and what the cgroup limit leaves (cgroup v2 ``memory.max`` −
  ``memory.current``, or v1 ``memory.limit_in_bytes`` − ``memory.usage_in_bytes``);
* the pool gets ``min(needed, allowed)``, but never less than one ``max_model_len`` sequence, so the
  longest allowed request always fits. Where the available memory cannot be read it falls back to
  :data:`FALLBACK_CPU_KV_MEMORY` (capped by ``needed`` too).

The pool is also allocated lazily on CPU (:func:`lazy_zeros`): the kernel hands out zeroed pages on
first touch, so resident memory grows with the blocks actually written, not with the pool's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch

KV_MEMORY_FRACTION = 0.4  # share of the available host memory the KV pool may take (CPU, no explicit budget)
FALLBACK_CPU_KV_MEMORY = 2 * 1024**3  # bytes, when the available memory cannot be read


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    if not text or text == "max":
        return None
    try:
        return int(text)
    except ValueError:
        return None


def meminfo_available(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """``MemAvailable`` in bytes (None when unreadable)."""
    try:
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                parts = line.split()
                return int(parts[1]) * (1024 if len(parts) > 2 and parts[2].lower() == "kb" else 1)
    except (OSError, ValueError, IndexError):
        return None
    return None


def cgroup_headroom(root: Path = Path("/sys/fs/cgroup")) -> int | None:
    """Bytes the process's memory cgroup still allows (limit − usage), None when there is no limit."""
    for limit_file, usage_file in (("memory.max", "memory.current"),
                                   ("memory/memory.limit_in_bytes", "memory/memory.usage_in_bytes"),
                                   ("memory.limit_in_bytes", "memory.usage_in_bytes")):
        limit = _read_int(root / limit_file)
        if limit is None or limit >= 2**60:  # cgroup v1 writes "no limit" as a huge number
            continue
        usage = _read_int(root / usage_file) or 0
        return max(0, limit - usage)
    return None


def available_memory() -> int | None:
    """Host memory this process can still use: min(MemAvailable, cgroup headroom); None if unknown."""
    known = [v for v in (meminfo_available(), cgroup_headroom()) if v is not None]
    return min(known) if known else None


@dataclass(frozen=True, slots=True)
class KVBudget:
    """The CPU pool budget and how it was reached (for the start-up log)."""

    bytes: int
    needed: int
    available: int | None
    reason: str


def cpu_kv_budget(block_bytes: int, block_size: int, max_num_seqs: int, max_model_len: int,
                  available: int | None, fraction: float = KV_MEMORY_FRACTION) -> KVBudget:
    """The KV pool bytes on CPU without an explicit budget (see the module docstring)."""
    if block_bytes < 1 or block_size < 1 or max_num_seqs < 1 or max_model_len < 1:
        raise ValueError("block_bytes, block_size, max_num_seqs and max_model_len must be positive")
    blocks_per_seq = -(-max_model_len // block_size)
    one_seq = blocks_per_seq * block_bytes
    needed = max_num_seqs * one_seq
    if available is None:
        allowed, source = FALLBACK_CPU_KV_MEMORY, f"{FALLBACK_CPU_KV_MEMORY / 2**30:g} GiB (available memory unknown)"
    else:
        allowed, source = int(available * fraction), f"{fraction:.0%} of {available / 2**30:.1f} GiB available"
    budget = max(one_seq, min(needed, allowed))
    if budget == needed:
        reason = f"max_num_seqs x max_model_len ({max_num_seqs} x {max_model_len} tokens), within {source}"
    elif budget == one_seq and allowed < one_seq:
        reason = f"one max_model_len sequence ({max_model_len} tokens); {source} would hold less"
    else:
        reason = source
    return KVBudget(budget, needed, available, reason)


def lazy_zeros(shape: tuple[int, ...], dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    """A zero tensor; on CPU backed by an anonymous memory map whose pages are zeroed on first touch, so
    resident memory grows only with the parts written (``torch.zeros`` writes every page at once). A map
    of its own, not ``calloc``: the allocator may hand back freed memory that is still resident (and must
    then write zeros over all of it), depending on what the process allocated before."""
    if device.type != "cpu":
        return torch.zeros(shape, dtype=dtype, device=device)
    import mmap

    numel = 1
    for dim in shape:
        numel *= dim
    nbytes = numel * torch.empty((), dtype=dtype).element_size()
    # page-aligned (so 64-byte aligned: a cache line, an AVX-512 vector); the tensor keeps the map alive
    pages = mmap.mmap(-1, max(nbytes, 1))
    return torch.frombuffer(pages, dtype=torch.uint8)[:nbytes].view(dtype).view(shape)

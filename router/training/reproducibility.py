"""Byte-reproducible training: one BLAS/OpenMP and one torch thread while a training runs."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def single_threaded() -> Iterator[None]:
    """One BLAS/OpenMP thread and one torch thread for the duration.

    Multi-threaded reductions add floating-point numbers in a run-dependent order, so two training
    runs on the same data differ in the last bits (1e-13 .. 1e-8) and so do their artifacts' bytes.
    With one thread the same data, code and library versions give a byte-identical artifact.
    """
    from threadpoolctl import threadpool_limits

    try:
        import torch
    except ImportError:  # pragma: no cover - the embedder needs torch
        torch = None  # type: ignore[assignment]
    previous = torch.get_num_threads() if torch is not None else None
    if torch is not None:
        torch.set_num_threads(1)
    try:
        with threadpool_limits(limits=1):
            yield
    finally:
        if torch is not None and previous is not None:
            torch.set_num_threads(previous)

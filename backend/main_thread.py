"""Keep torch's parallel work off a server's main thread.

GNU OpenMP (torch's CPU thread pool) gives every thread that starts a parallel region a pool of
worker threads of its own, which lives as long as that thread. The bundled backend's main thread
runs the HTTP server; its engine runs on another thread. If the main thread also ran parallel
work (loading the model does), its idle workers stay, and libgomp, seeing more worker threads than
CPUs, cuts the engine's spin-wait between parallel regions to almost nothing: every region then
pays a futex wake-up. On a 2-vCPU EPYC a single stream decoded at ~50 tokens/s in the server
against ~75-80 for the same engine on the main thread of a script (BENCHMARKS.md, "OpenMP wait
policy"). Loading on a short-lived thread frees its pool when the thread ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def run_on_short_lived_thread(fn: Callable[[], T], name: str = "thrifty-load") -> T:
    """Run ``fn`` on a new thread, wait for it, and return its result (or raise its exception), so
    that the OpenMP pool its torch calls create ends with the thread."""
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["result"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised on the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target, name=name)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["result"]  # type: ignore[return-value]

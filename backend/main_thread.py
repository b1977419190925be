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

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def run_on_short_lived_thread(fn: Callable[[], T], name: str = "thrifty-load") -> T:
    """Run ``fn`` on a new thread, wait for it, and return its result (or raise its exception); the
    thread has ended when this returns, and with it the OpenMP pool its torch calls created."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix=name) as pool:  # exiting joins the thread
        return pool.submit(fn).result()

"""Waiting for a local server's health endpoint: the one polling loop behind the supervisor's wait for the bundled
backend, the proxy's "ready" line and the benchmarks' harness."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable

import httpx


class ExitedEarly(RuntimeError):
    """The process being waited for exited before its server answered."""

    def __init__(self, returncode: int) -> None:
        super().__init__(f"exited with status {returncode}")
        self.returncode = returncode


def wait_until_healthy(url: str, *, timeout_s: float, poll_s: float = 0.2, process: subprocess.Popen | None = None,
                       probe_timeout_s: float = 2.0, on_poll: Callable[[], None] | None = None) -> bool:
    """Ask ``url`` every ``poll_s`` until it answers 200 (True) or ``timeout_s`` passes (False). Raises
    :class:`ExitedEarly` when ``process`` exits first; ``on_poll()`` runs after each probe that did not succeed.

    Every probe goes through one client: a new httpx client builds a TLS context (~16 ms of CPU), which a probe
    every few tenths of a second would take from the start-up it waits for."""
    deadline = time.monotonic() + timeout_s
    with httpx.Client(timeout=probe_timeout_s) as client:
        while time.monotonic() < deadline:
            if process is not None and (code := process.poll()) is not None:
                raise ExitedEarly(code)
            try:
                if client.get(url).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            if on_poll is not None:
                on_poll()
            time.sleep(poll_s)
    return False

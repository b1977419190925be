"""Waiting for a proxy's cache write-backs, which run in the background after each response."""

from __future__ import annotations

import threading
from collections.abc import Awaitable
from typing import Any


class CacheWrites:
    """Counts the cache write-backs of a proxy ``app``, so that a test waits for the ones its requests
    caused instead of sleeping.

    It wraps the ``store`` method of the app's cache (the object the pipeline writes back through);
    create it before the first request. A write-back counts as ``started`` when the pipeline asks for
    it: for a JSON answer that is before the response is sent; for a stream, when the stream ends,
    which may be just after the client has read its last chunk. Each test owns its app, so nothing is
    restored afterwards.
    """

    def __init__(self, app: Any) -> None:
        cache = app.state.thrifty.cache
        if cache is None:
            raise ValueError("the app has no cache: nothing is ever written back")
        self._changed = threading.Condition()
        self.started = 0
        self.finished = 0
        self.stored: list[bool] = []  # what each finished store returned (True: at least one cache kept it)
        store = cache.store

        def counted(*args: Any, **kwargs: Any) -> Awaitable[bool]:
            with self._changed:
                self.started += 1
            return self._finishing(store(*args, **kwargs))

        cache.store = counted

    async def _finishing(self, work: Awaitable[bool]) -> bool:
        kept = False
        try:
            kept = await work
            return kept
        finally:
            with self._changed:
                self.finished += 1
                self.stored.append(bool(kept))
                self._changed.notify_all()

    def wait(self, at_least: int = 0, timeout: float = 10.0) -> None:
        """Block until at least ``at_least`` write-backs have started and every started one has finished
        (counted since this object was created).

        Raises:
            AssertionError: not within ``timeout`` seconds; the message gives the counts.
        """
        def done() -> bool:
            return self.started >= at_least and self.finished == self.started

        with self._changed:
            if not self._changed.wait_for(done, timeout):
                raise AssertionError(f"expected at least {at_least} cache write-backs to finish within {timeout} s; "
                                     f"{self.started} started, {self.finished} finished")

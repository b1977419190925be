"""A small in-process memo of cache hits, bounded by entries and bytes, with a trust period.

Used by :class:`caches.exact.ExactCache` in front of the database: a repeated exact hit is
answered from memory. Each memoised hit carries its own expiry (the entry's TTL) and is trusted
for at most ``ttl_s`` seconds after it was read from the database, which bounds how long this
process can miss a change made elsewhere (another replica). Thread-safe.

Invalidation bumps a generation counter: a reader takes :attr:`HitMemo.generation` before its
database read and passes it to :meth:`HitMemo.put`, which drops the hit if anything was invalidated
meanwhile (the row it read may be the one just replaced or deleted).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from caches.types import CacheHit

__all__ = ["HitMemo"]


@dataclass(frozen=True, slots=True)
class _Memoised:
    hit: CacheHit
    expires_at: float | None  # epoch seconds (the entry's TTL), None: never
    trusted_until: float  # monotonic seconds


class HitMemo:
    """LRU memo ``key -> CacheHit``; ``max_entries`` 0 disables it."""

    def __init__(
        self,
        max_entries: int,
        max_bytes: int,
        ttl_s: float,
        *,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self._ttl_s = ttl_s
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._items: OrderedDict[str, _Memoised] = OrderedDict()
        self._bytes = 0
        self._generation = 0  # bumped by every discard / clear

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    @property
    def generation(self) -> int:
        """Take this before reading the database; pass it to :meth:`put`."""
        with self._lock:
            return self._generation

    def get(self, key: str, *, model_version: str, now: float) -> CacheHit | None:
        """The memoised hit, unless absent, no longer trusted, expired at ``now`` (epoch
        seconds) or of another model version (then it is dropped)."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if (
                self._monotonic() >= item.trusted_until
                or (item.expires_at is not None and item.expires_at <= now)
                or item.hit.model_version != model_version
            ):
                self._drop(key)
                return None
            self._items.move_to_end(key)
            return item.hit

    def put(self, key: str, hit: CacheHit, *, expires_at: float | None, generation: int | None = None) -> None:
        """Memoise ``hit``, unless ``generation`` (taken before its database read) is out of date."""
        size = len(hit.body)
        if self._max_entries <= 0 or self._ttl_s <= 0 or size > self._max_bytes:
            return
        with self._lock:
            if generation is not None and generation != self._generation:
                return
            self._drop(key)
            self._items[key] = _Memoised(hit, expires_at, self._monotonic() + self._ttl_s)
            self._bytes += size
            while len(self._items) > self._max_entries or self._bytes > self._max_bytes:
                oldest = next(iter(self._items))
                self._drop(oldest)

    def discard(self, keys: Iterable[str]) -> None:
        with self._lock:
            self._generation += 1
            for key in keys:
                self._drop(key)

    def clear(self) -> None:
        with self._lock:
            self._generation += 1
            self._items.clear()
            self._bytes = 0

    def _drop(self, key: str) -> None:
        item = self._items.pop(key, None)
        if item is not None:
            self._bytes -= len(item.hit.body)

"""Which keys the exact cache's table may hold, in memory: a miss without a database read.

Most requests are exact-cache misses, and each miss used to cost a ``SELECT`` on a pooled
connection (on SQLite, round trips to the driver's thread), about a third of the exact cache's CPU
per request under load. :class:`StoredKeys` is a Bloom filter over the stored keys: when it says a
key was never stored, the lookup is a miss at once; when it says "maybe", the database is read as
before. A wrong "maybe" (about 1 % of absent keys while the filter is within its capacity) costs
only that read, so answers never change; only a key stored where this process cannot see it could
be missed, and the filter bounds that:

- Stores made through this process are added before their write is queued, so a lookup that
  follows a store always reads the row; a load of the table adds the writes still in flight when it
  began or ended, whose rows it may have passed before they were committed.
- Stores made by other processes on the same database (replicas on one PostgreSQL, or a second
  proxy on one SQLite file) are read every ``sync_interval_s``: the keys whose rows were written or
  used since the last read, less a margin for commit delay and clock skew. Until then a lookup of
  such a key is a miss, as if it came a little earlier; the answer it forwards is stored again. Rows
  written with a timestamp older than that margin (a writer whose clock is behind, imported rows)
  are seen at the next full read of the table, at least every ten minutes.
- Until the first full read of the table has finished (at start-up, or after a rebuild) every key
  is "maybe".

Deleted and evicted keys stay in the filter (they only cost a read) until the next full read; when
more keys were added than the filter holds, it is rebuilt from the table in the background. A read
that fails is tried again after a few seconds; meanwhile the filter answers as before.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import Counter
from collections.abc import Callable

from sqlalchemy import Table, select
from sqlalchemy.ext.asyncio import AsyncEngine

__all__ = ["BloomFilter", "StoredKeys"]

logger = logging.getLogger(__name__)

_PAGE = 5000  # keys read per query while loading the table
_MARGIN_S = 10.0  # how far back each sync reads: commit delay and clock skew between processes
_RELOAD_S = 600.0  # a full read at least this often (rows written with older timestamps: clock skew, imports)
_RETRY_S = 5.0  # after a failed read, the next one waits this long


class BloomFilter:
    """A Bloom filter of strings: :meth:`__contains__` is ``False`` only for strings never added.

    ``capacity``: how many strings it holds at about 1 % false positives (10 bits and 7 probes
    each); beyond it the rate grows (it is 5 % at twice the capacity).
    """

    _BITS_PER_KEY = 10
    _PROBES = 7

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("a Bloom filter needs a capacity of at least 1")
        self.capacity = capacity
        self._bits = max(64, capacity * self._BITS_PER_KEY)
        self._array = bytearray((self._bits + 7) // 8)
        self.added = 0

    def _positions(self, key: str) -> list[int]:
        # double hashing over a 128-bit digest: probe i is (h1 + i * h2) mod bits
        digest = int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=16).digest(), "little")
        h1, h2 = digest & 0xFFFFFFFFFFFFFFFF, (digest >> 64) | 1
        bits = self._bits
        return [(h1 + i * h2) % bits for i in range(self._PROBES)]

    def add(self, key: str) -> None:
        self._set(self._positions(key))

    def add_new(self, key: str) -> None:
        """Add ``key`` unless it is (or looks) already held, so that a string added again is not counted
        again towards the capacity (one hashing for the test and the add)."""
        positions = self._positions(key)
        if not self._holds(positions):
            self._set(positions)

    def _set(self, positions: list[int]) -> None:
        array = self._array
        for bit in positions:
            array[bit >> 3] |= 1 << (bit & 7)
        self.added += 1

    def _holds(self, positions: list[int]) -> bool:
        array = self._array
        return all(array[bit >> 3] & (1 << (bit & 7)) for bit in positions)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._holds(self._positions(key))

    @property
    def full(self) -> bool:
        """More strings were added than the capacity (false positives above ~1 %)."""
        return self.added > self.capacity


class StoredKeys:
    """The keys a cache table may hold (see the module docstring).

    ``engine``: the database; ``table`` and ``key_column``: where the keys are; ``time_column``: a
    column every write sets to the writer's clock (the exact cache's ``last_access_at``), read by
    each sync; ``capacity``: keys held at ~1 % false positives (rebuilt beyond it);
    ``sync_interval_s``: how often other processes' writes are read; ``clock``: epoch seconds.

    Lives on one event loop: :meth:`refresh_if_due` starts the load and the syncs as tasks there.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        table: Table,
        *,
        key_column: str,
        time_column: str,
        capacity: int,
        sync_interval_s: float,
        clock: Callable[[], float],
    ) -> None:
        self._engine = engine
        self._table = table
        self._key = table.c[key_column]
        self._time = table.c[time_column]
        self._capacity = max(1024, capacity)
        self._sync_interval_s = sync_interval_s
        self._clock = clock
        self._filter = BloomFilter(self._capacity)
        self._building: BloomFilter | None = None  # the filter a load fills, swapped in when done
        # keys whose write this process has queued and not yet seen finish: a load's read of the table may
        # pass such a row before it is committed, so they go into its filter before it is swapped in
        self._in_flight: Counter[str] = Counter()
        self._complete = False
        self._synced_at: float | None = None  # the clock when the last read of the table began
        self._loaded_at: float | None = None  # ... and the last full read
        self._retry_at: float | None = None  # after a failed read: not before this
        self._task: asyncio.Task | None = None
        self._closed = False
        self.proved_misses = 0  # lookups answered "never stored"

    @property
    def complete(self) -> bool:
        """The whole table has been read: :meth:`may_hold` can say ``False``."""
        return self._complete

    def may_hold(self, key: str) -> bool:
        """``False`` only when ``key`` was never stored (up to the last sync of other writers)."""
        if not self._complete or key in self._filter:
            return True
        self.proved_misses += 1
        return False

    def add(self, key: str) -> None:
        """Record a key about to be stored by this process, before its write is queued; call
        :meth:`written` when the write has finished (committed or failed)."""
        self._in_flight[key] += 1
        self._remember(key)

    def written(self, key: str) -> None:
        """The write of a key given to :meth:`add` has finished."""
        left = self._in_flight[key] - 1
        if left > 0:
            self._in_flight[key] = left
        else:
            self._in_flight.pop(key, None)

    def _remember(self, key: str) -> None:
        self._filter.add_new(key)  # (a key stored again is not counted again towards the capacity)
        if self._building is not None:
            self._building.add_new(key)

    def _needs_load(self, now: float) -> bool:
        """The next read is of the whole table: the filter is incomplete or full, or the last full read is old
        (rows written with old timestamps are seen then too)."""
        return (not self._complete or self._filter.full or self._loaded_at is None
                or not 0 <= now - self._loaded_at < _RELOAD_S)  # (a clock stepped back: due)

    def _due(self, now: float) -> bool:
        if self._retry_at is not None and self._retry_at > now >= self._retry_at - _RETRY_S:
            return False  # a read failed a moment ago
        if self._needs_load(now) or self._synced_at is None:
            return True
        return not 0 <= now - self._synced_at < self._sync_interval_s  # (a clock stepped back: due)

    def refresh_if_due(self) -> None:
        """Start the table's first read, a rebuild or a sync when one is due (as a task; returns at once)."""
        if self._closed:
            return
        task = self._task
        if task is not None and not task.done():
            if not task.get_loop().is_closed():
                return
            self._task = None  # stranded by an event loop that closed under it
        if self._due(self._clock()):
            self._task = asyncio.get_running_loop().create_task(self._refresh())

    async def refresh(self) -> None:
        """Read the table now (see :meth:`refresh_if_due`), after a read already under way. Never raises."""
        running = self._task
        if running is not None and not running.done() and running.get_loop() is asyncio.get_running_loop():
            await asyncio.wait({running})
        if self._closed:
            return
        self._task = asyncio.get_running_loop().create_task(self._refresh())
        await asyncio.wait({self._task})

    async def _refresh(self) -> None:
        """Read the whole table when the filter is incomplete, full or due a full read, else the keys
        written since the last read (less a margin). A failure leaves the filter as it was and delays the
        next read by a few seconds."""
        started = self._clock()
        try:
            if self._needs_load(started):
                await self._load(started)
            else:
                await self._sync(started)
            self._retry_at = None
        except Exception as exc:  # a broken database: lookups read it (and fail there) as before
            self._retry_at = self._clock() + _RETRY_S
            logger.warning("exact cache: reading the stored keys failed (again in %.0f s): %r", _RETRY_S, exc)

    async def _load(self, started: float) -> None:
        building = self._building = BloomFilter(self._capacity)
        pending = list(self._in_flight)  # writes that may commit after the page holding them is read
        try:
            after: str | None = None
            while True:
                query = select(self._key).order_by(self._key).limit(_PAGE)
                if after is not None:
                    query = query.where(self._key > after)
                async with self._engine.connect() as conn:
                    keys = (await conn.execute(query)).scalars().all()
                for key in keys:
                    building.add(key)
                if len(keys) < _PAGE:
                    break
                after = keys[-1]
                await asyncio.sleep(0)  # let requests run between pages
            if building.full:  # more rows than the capacity: grow instead of saturating
                self._capacity = 2 * building.added
                logger.info("exact cache: %d stored keys; the key filter grows to %d", building.added,
                            self._capacity)
                self._filter = BloomFilter(self._capacity)  # incomplete: every key "maybe" until the next load
                self._complete = False
                return
            for key in (*pending, *self._in_flight):
                building.add_new(key)
            self._filter, self._complete = building, True
            self._synced_at = self._loaded_at = started
        finally:
            self._building = None

    async def _sync(self, started: float) -> None:
        since = (started if self._synced_at is None else self._synced_at) - _MARGIN_S
        async with self._engine.connect() as conn:
            keys = (await conn.execute(select(self._key).where(self._time >= since))).scalars().all()
        for key in keys:
            self._remember(key)
        self._synced_at = started

    async def aclose(self) -> None:
        """Stop a load or sync in progress; no later one starts."""
        self._closed = True
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass

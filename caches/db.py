"""Database helpers shared by the exact and the semantic cache."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.sql.dml import Insert

from caches.models import CacheBase

__all__ = [
    "Eviction",
    "SizeTracker",
    "TouchBuffer",
    "as_sessionmaker",
    "count_rows",
    "create_tables",
    "engine_of",
    "lru_victims",
    "sha256_hex",
    "upsert_statement",
    "write_touches",
]


def as_sessionmaker(db: AsyncEngine | async_sessionmaker[AsyncSession]) -> async_sessionmaker[AsyncSession]:
    """Accept an engine or a session factory from the caller; return a session factory."""
    if isinstance(db, AsyncEngine):
        return async_sessionmaker(db, expire_on_commit=False)
    return db


def engine_of(db: AsyncEngine | async_sessionmaker[AsyncSession]) -> AsyncEngine:
    """The engine behind ``db`` (an engine, or a session factory bound to one): the request path
    runs Core statements on its connections, without the cost of an ORM session."""
    if isinstance(db, AsyncEngine):
        return db
    bind = db.kw.get("bind")
    if not isinstance(bind, AsyncEngine):
        raise TypeError("the caches need an AsyncEngine, or an async_sessionmaker bound to one")
    return bind


async def create_tables(engine: AsyncEngine) -> None:
    """Create the cache tables (tests and throw-away databases; production uses Alembic)."""
    async with engine.begin() as conn:
        await conn.run_sync(CacheBase.metadata.create_all)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def upsert_statement(
    dialect_name: str,
    table: Table,
    values: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None,
    *,
    conflict_columns: Sequence[str],
    update_columns: Sequence[str],
    overrides: Mapping[str, Callable[[Any], Any]] | None = None,
) -> Insert:
    """``INSERT ... ON CONFLICT (conflict_columns) DO UPDATE`` for SQLite and PostgreSQL.

    Each updated column takes the new value, unless ``overrides`` maps it to a function of the
    ``excluded`` (new) row returning the SQL expression to set instead (it may refer to the
    existing row through ``table.c``). ``values=None`` leaves the values to the execution (one
    statement, built once, executed with a list of rows: an executemany).
    """
    if dialect_name == "postgresql":
        stmt = postgresql.insert(table)
    elif dialect_name == "sqlite":
        stmt = sqlite.insert(table)
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        raise NotImplementedError(f"upsert is not implemented for dialect {dialect_name!r}")
    if values is not None:
        stmt = stmt.values(values)
    overrides = overrides or {}
    return stmt.on_conflict_do_update(
        index_elements=list(conflict_columns),
        set_={
            col: overrides[col](stmt.excluded) if col in overrides else stmt.excluded[col]
            for col in update_columns
        },
    )


class TouchBuffer:
    """Hits recorded in memory and written to the database in batches (keeps lookups read-only).

    Maps an entry id to (latest access time, number of hits since the last flush).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[Any, tuple[float, int]] = {}

    def record(self, entry_id: Any, at: float) -> None:
        with self._lock:
            _, count = self._pending.get(entry_id, (at, 0))
            self._pending[entry_id] = (at, count + 1)

    def drain(self) -> dict[Any, tuple[float, int]]:
        with self._lock:
            pending, self._pending = self._pending, {}
        return pending

    def restore(self, pending: Mapping[Any, tuple[float, int]]) -> None:
        """Put back touches whose flush failed (merged with newer ones)."""
        with self._lock:
            for entry_id, (at, count) in pending.items():
                newer_at, newer_count = self._pending.get(entry_id, (at, 0))
                self._pending[entry_id] = (max(at, newer_at), count + newer_count)

    def __len__(self) -> int:
        with self._lock:
            return len(self._pending)


@dataclass(slots=True)
class SizeTracker:
    """Approximate entry/byte totals of one table, re-counted from the database periodically.

    Every store adds to the estimate; the exact totals are re-read when the estimate crosses a
    bound or ``recount_interval_s`` has passed (other replicas write to the same table).
    """

    entries: int = 0
    bytes: int = 0
    counted_at: float = float("-inf")

    def add(self, size: int) -> None:
        self.entries += 1
        self.bytes += size

    def set(self, entries: int, size: int, at: float) -> None:
        self.entries, self.bytes, self.counted_at = entries, size, at

    def needs_recount(self, now: float, interval: float, max_entries: int, max_bytes: int) -> bool:
        return now - self.counted_at >= interval or self.entries > max_entries or self.bytes > max_bytes


async def write_touches(
    sessions: async_sessionmaker[AsyncSession], buffer: TouchBuffer, model: Any, key_column: str
) -> None:
    """Write the hit counts and access times (LRU order) buffered since the last call to the rows
    of ``model`` keyed by ``key_column``; on failure the counts go back into ``buffer``."""
    pending = buffer.drain()
    if not pending:
        return
    key = getattr(model, key_column)
    try:
        async with sessions() as session:
            for entry, (at, count) in pending.items():
                await session.execute(
                    update(model).where(key == entry).values(last_access_at=at, hits=model.hits + count)
                )
            await session.commit()
    except Exception:
        buffer.restore(pending)
        raise


async def count_rows(sessions: async_sessionmaker[AsyncSession], model: Any) -> tuple[int, int]:
    """(entries, stored bytes) of a cache table, counted in the database."""
    async with sessions() as session:
        entries, size = (
            await session.execute(
                select(func.count(), func.coalesce(func.sum(model.size_bytes), 0)).select_from(model)
            )
        ).one()
    return int(entries), int(size)


@dataclass(frozen=True, slots=True)
class Eviction:
    """What :func:`lru_victims` picked: the keys to delete and the totals left after deleting them."""

    victims: list[Any]
    entries: int
    bytes: int


async def lru_victims(
    sessions: async_sessionmaker[AsyncSession],
    model: Any,
    key_column: str,
    tiebreak_column: str,
    *,
    entries: int,
    size: int,
    max_entries: int,
    max_bytes: int,
    evict_fraction: float,
) -> Eviction:
    """Least-recently-used rows of a cache table to delete so that a table holding ``entries``
    rows and ``size`` bytes gets within its bounds: when over either bound, down to
    ``1 - evict_fraction`` of both (so eviction does not run on every store). Reads keys in LRU
    order (``last_access_at``, then ``tiebreak_column``) in batches; deletes nothing itself."""
    if entries <= max_entries and size <= max_bytes:
        return Eviction([], entries, size)
    keep = 1.0 - evict_fraction
    target_entries, target_bytes = int(max_entries * keep), int(max_bytes * keep)
    victims: list[Any] = []
    async with sessions() as session:
        result = await session.stream(
            select(getattr(model, key_column), model.size_bytes)
            .order_by(model.last_access_at, getattr(model, tiebreak_column))
            .execution_options(yield_per=1000)
        )
        async for key, nbytes in result:
            if entries <= target_entries and size <= target_bytes:
                break
            victims.append(key)
            entries -= 1
            size -= nbytes
        await result.close()
    return Eviction(victims, entries, size)

"""Upkeep that the exact and semantic caches share over their tables: buffered hit counts, TTL purge,
LRU bounds, and deletes by model or tenant.

A mixin. The cache class names its table and how rows are known (:attr:`RowUpkeep._table`,
``_row_key``, ``_lru_tiebreak``, ``_cache_name``) and owns the state these methods use: ``_sessions``,
``_touches``, ``_clock``, ``_size``, ``_config`` (with ``max_entries``, ``max_bytes``,
``evict_fraction``) and ``_delete_where(*conditions)``, which deletes rows (and whatever the cache keeps
beside them: the semantic cache's vectors, the exact cache's memo).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, ClassVar

from caches.db import count_rows, lru_victims, write_touches
from caches.types import CacheStats

__all__ = ["RowUpkeep"]

logger = logging.getLogger(__name__)

DELETE_CHUNK = 500  # rows named in one DELETE ... IN (...)


class RowUpkeep:
    """Maintenance of a cache table (a mixin; see the module docstring for what the host provides)."""

    _table: ClassVar[Any]  # the SQLAlchemy model
    _row_key: ClassVar[str]  # the column hit counts and LRU victims are keyed by
    _lru_tiebreak: ClassVar[str]  # orders rows last used at the same time
    _cache_name: ClassVar[str]  # in log lines

    async def flush_touches(self) -> None:
        """Write buffered hit counts and access times (LRU order) to the database."""
        await write_touches(self._sessions, self._touches, self._table, self._row_key)

    async def purge_expired(self) -> int:
        """Delete expired entries; returns how many."""
        t = self._table
        return await self._delete_where(t.expires_at.is_not(None), t.expires_at <= self._clock())

    async def stats(self) -> CacheStats:
        """Count entries and bytes in the database."""
        entries, size = await count_rows(self._sessions, self._table)
        self._size.set(entries, size, self._clock())
        return CacheStats(entries=entries, bytes=size)

    async def enforce_limits(self) -> int:
        """Purge expired entries, then evict least-recently-used ones until within the bounds (down to
        ``1 - evict_fraction`` of them). Returns the number of entries removed."""
        await self.flush_touches()
        removed = await self.purge_expired()
        stats = await self.stats()
        cfg = self._config
        eviction = await lru_victims(
            self._sessions, self._table, self._row_key, self._lru_tiebreak,
            entries=stats.entries, size=stats.bytes, max_entries=cfg.max_entries, max_bytes=cfg.max_bytes,
            evict_fraction=cfg.evict_fraction,
        )
        if eviction.victims:
            removed += await self._delete_rows(eviction.victims)
            self._size.set(eviction.entries, eviction.bytes, self._clock())
            logger.info("%s cache evicted %d least-recently-used entries", self._cache_name, len(eviction.victims))
        return removed

    async def delete_model(self, model: str, *, tenant: str | None = None, keep_version: str | None = None) -> int:
        """Delete the entries of ``model`` (optionally only one tenant's, optionally keeping the entries
        of the current version ``keep_version``)."""
        t = self._table
        conditions = [t.model == model]
        if tenant is not None:
            conditions.append(t.tenant == tenant)
        if keep_version is not None:
            conditions.append(t.model_version != keep_version)
        return await self._delete_where(*conditions)

    async def delete_tenant(self, tenant: str) -> int:
        """Delete every entry of one tenant."""
        return await self._delete_where(self._table.tenant == tenant)

    async def _delete_rows(self, keys: Sequence[Any]) -> int:
        """Delete the rows whose :attr:`_row_key` is in ``keys``, a chunk per statement."""
        column = getattr(self._table, self._row_key)
        total = 0
        for i in range(0, len(keys), DELETE_CHUNK):
            total += await self._delete_where(column.in_(keys[i:i + DELETE_CHUNK]))
        return total

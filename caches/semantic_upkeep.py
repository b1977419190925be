"""The semantic cache's upkeep and invalidation: sync with other replicas, TTL purge, LRU bounds, IVF
retraining, and deletes by id, scope, model, tenant or all.

A mixin of :class:`caches.semantic.SemanticCache`, which owns the state it uses (sessions, clock, index,
touch buffer, size tracker) and the start-up that loads rows; kept apart so that each module stays readable.
"""

from __future__ import annotations

import logging

from sqlalchemy import delete, select

from caches.db import count_rows, lru_victims, write_touches
from caches.models import SemanticCacheEntry
from caches.types import CacheError, CacheStats

__all__ = ["SemanticUpkeep"]

logger = logging.getLogger("caches.semantic")

_T = SemanticCacheEntry
_DELETE_CHUNK = 500
_SYNC_OVERLAP_S = 300.0  # a sync re-reads rows this much older than the last one (clock skew between replicas)


class SemanticUpkeep:
    """Maintenance and invalidation of :class:`caches.semantic.SemanticCache` (a mixin)."""


    async def sync(self, *, reconcile: bool = False) -> int:
        """Pick up rows other replicas added since the last sync; with ``reconcile``, also drop
        vectors whose rows no longer exist. Returns the number of vectors added."""
        index = await self._ensure_started()
        started = self._clock()
        added = await self._load_rows(index, index.dim, since=self._last_sync - _SYNC_OVERLAP_S)
        self._last_sync = started
        if reconcile:
            known = index.ids()  # snapshot first: ids added later were committed after it
            async with self._sessions() as session:
                live = set((await session.execute(select(_T.id))).scalars().all())
            gone = [i for i in known if i not in live]
            if gone:
                await self._run(index.remove, gone)
        return added

    async def flush_touches(self) -> None:
        """Write buffered hit counts and access times (LRU order) to the database."""
        await write_touches(self._sessions, self._touches, _T, "id")

    async def purge_expired(self) -> int:
        """Delete expired rows and their vectors; returns how many."""
        return await self._delete_where(_T.expires_at.is_not(None), _T.expires_at <= self._clock())

    async def stats(self) -> CacheStats:
        """Count rows and bytes in the database."""
        entries, size = await count_rows(self._sessions, _T)
        self._size.set(entries, size, self._clock())
        return CacheStats(entries=entries, bytes=size)

    async def enforce_limits(self) -> int:
        """Purge expired rows, then evict least-recently-used ones (rows and vectors) until within
        the bounds (down to ``1 - evict_fraction`` of them). Returns the number removed."""
        await self.flush_touches()
        removed = await self.purge_expired()
        stats = await self.stats()
        cfg = self._config
        eviction = await lru_victims(
            self._sessions,
            _T,
            "id",
            "id",
            entries=stats.entries,
            size=stats.bytes,
            max_entries=cfg.max_entries,
            max_bytes=cfg.max_bytes,
            evict_fraction=cfg.evict_fraction,
        )
        victims = eviction.victims
        for i in range(0, len(victims), _DELETE_CHUNK):
            removed += await self._delete_where(_T.id.in_(victims[i : i + _DELETE_CHUNK]))
        if victims:
            self._size.set(eviction.entries, eviction.bytes, self._clock())
            logger.info("semantic cache evicted %d least-recently-used entries", len(victims))
        return removed

    async def maintenance(self) -> None:
        """Periodic upkeep: flush hit counts, purge expired rows, enforce bounds, sync the index
        with rows written or deleted by other replicas, retrain IVF partitions that have grown
        well beyond the size they were trained at. Never raises."""
        try:
            await self.enforce_limits()
            await self.sync(reconcile=True)
            if self._index is not None:
                retrained = await self._run(self._index.retrain_grown)
                if retrained:
                    logger.info("semantic cache retrained the IVF index of %d grown scope(s)", len(retrained))
        except Exception as exc:
            logger.warning("semantic cache maintenance failed: %r", exc)

    # --- invalidation ----------------------------------------------------------------------

    async def delete(self, entry_id: int) -> int:
        """Delete one entry (row and vector) by id."""
        return await self._delete_where(_T.id == entry_id)

    async def delete_scope(self, scope: str) -> int:
        """Delete every entry of one scope."""
        removed = await self._delete_where(_T.scope == scope)
        if self._index is not None:
            await self._run(self._index.remove_scope, scope)
        return removed

    async def delete_model(
        self, model: str, *, tenant: str | None = None, keep_version: str | None = None
    ) -> int:
        """Delete the entries of ``model`` (optionally one tenant's; optionally keeping
        ``keep_version``)."""
        conds = [_T.model == model]
        if tenant is not None:
            conds.append(_T.tenant == tenant)
        if keep_version is not None:
            conds.append(_T.model_version != keep_version)
        return await self._delete_where(*conds)

    async def delete_tenant(self, tenant: str) -> int:
        """Delete every entry of one tenant."""
        return await self._delete_where(_T.tenant == tenant)

    async def clear(self) -> int:
        """Delete every entry."""
        removed = await self._delete_where()
        if self._index is not None:
            await self._run(self._index.clear)
        return removed

    async def _delete_where(self, *conditions: object) -> int:
        """Delete matching rows and remove their vectors from the index."""
        try:
            async with self._sessions() as session:
                ids = list(
                    (await session.execute(delete(_T).where(*conditions).returning(_T.id))).scalars().all()
                )
                await session.commit()
        except Exception as exc:
            raise CacheError(f"semantic cache delete failed: {exc!r}") from exc
        if ids and self._index is not None:
            await self._run(self._index.remove, ids)
        return len(ids)

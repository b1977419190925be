"""The semantic cache's upkeep and invalidation: sync with other replicas, TTL purge, LRU bounds, IVF
retraining, and deletes by id, scope, model, tenant or all.

A mixin of :class:`caches.semantic.SemanticCache`, which owns the state it uses (sessions, clock, index,
touch buffer, size tracker) and the start-up that loads rows; kept apart so that each module stays readable.
"""

from __future__ import annotations

import logging

from sqlalchemy import delete, select

from caches.models import SemanticCacheEntry
from caches.row_upkeep import RowUpkeep
from caches.types import CacheError

__all__ = ["SemanticUpkeep"]

logger = logging.getLogger("caches.semantic")

_T = SemanticCacheEntry
_SYNC_OVERLAP_S = 300.0  # a sync re-reads rows this much older than the last one (clock skew between replicas)


class SemanticUpkeep(RowUpkeep):
    """Maintenance and invalidation of :class:`caches.semantic.SemanticCache` (a mixin)."""

    _table = _T
    _row_key = "id"
    _lru_tiebreak = "id"
    _cache_name = "semantic"

    async def sync(self, *, reconcile: bool = False) -> int:
        """Pick up rows other replicas added since the last sync; with ``reconcile``, also drop
        vectors and entries whose rows no longer exist. Returns the number of entries added (with a
        vector, or without one yet)."""
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

"""Exact response cache: canonical request key -> stored OpenAI response, in the database.

Persisted through SQLAlchemy (SQLite or PostgreSQL), so it survives restarts and is shared by all
proxy replicas on one PostgreSQL. Entries carry the upstream model version; a lookup with another
version misses (and the next store replaces the entry). TTL expiry, LRU eviction by entry count
and by bytes, oversized entries refused. Lookups and stores never raise: a failure is logged and
reported as a miss / ``False``.

Repeated hits are answered from an in-process memo (:class:`caches.memo.HitMemo`) without a
database read; it honours each entry's TTL and the model version at once, forgets an entry when
this instance stores, deletes or evicts it, and re-reads the database after ``memo_ttl_s``, which
bounds the staleness towards changes made by other replicas. Hit counts and access times (LRU
order) are buffered and written in batches, off the request path.

The request path avoids ORM sessions: a lookup is one prebuilt Core ``SELECT`` of the columns it
needs, on a pooled connection; stores go through a :class:`caches.writes.WriteBatcher`, so that
concurrent stores share one ``INSERT ... ON CONFLICT`` (an executemany) and one commit. A store
returns once its row is committed, so a lookup after a successful store sees it.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import bindparam, delete, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from caches.config import ExactCacheConfig
from caches.db import (
    SizeTracker,
    TouchBuffer,
    as_sessionmaker,
    engine_of,
    sha256_hex,
    upsert_statement,
)
from caches.keys import RequestKeys
from caches.memo import HitMemo
from caches.models import ExactCacheEntry
from caches.row_upkeep import RowUpkeep
from caches.stored_keys import StoredKeys
from caches.types import CacheError, CacheHit
from caches.writes import WriteBatcher, WriteQueueFull

__all__ = ["ExactCache"]

logger = logging.getLogger(__name__)

_DELETE_CHUNK = 500
_T = ExactCacheEntry
_ROW_COLUMNS = ("key", "tenant", "model", "model_version", "scope", "response", "response_sha256", "size_bytes",
                "created_at", "expires_at", "last_access_at", "hits")
# the lookup: one prebuilt statement (compiled once per engine), the key bound at execution
_LOOKUP = select(
    _T.response, _T.response_sha256, _T.model, _T.model_version, _T.created_at, _T.expires_at
).where(_T.key == bindparam("key"))


def _as_bytes(response: bytes | str) -> bytes:
    return response.encode("utf-8") if isinstance(response, str) else bytes(response)


class ExactCache(RowUpkeep):
    """Async exact-match cache over the ``thrifty_exact_cache`` table.

    ``db``: an ``AsyncEngine`` or an ``async_sessionmaker`` owned by the caller; ``clock``: returns
    epoch seconds (injectable for tests).
    """

    _table = _T
    _row_key = "key"
    _lru_tiebreak = "created_at"
    _cache_name = "exact"

    def __init__(
        self,
        db: AsyncEngine | async_sessionmaker[AsyncSession],
        config: ExactCacheConfig | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._sessions = as_sessionmaker(db)
        self._engine = engine_of(db)
        self._config = config or ExactCacheConfig()
        self._clock = clock
        self._touches = TouchBuffer()
        self._size = SizeTracker()
        cfg = self._config
        self._memo = HitMemo(cfg.memo_entries, cfg.memo_max_bytes, cfg.memo_ttl_s, monotonic=clock)
        self._writer: WriteBatcher[dict[str, Any], bool] = WriteBatcher(
            self._write_rows, window_s=cfg.write_window_s, max_batch=cfg.max_write_batch,
            max_pending=cfg.max_queued_writes,
        )
        self._upserts: dict[str, Any] = {}  # dialect name -> the prebuilt upsert
        self._shed = 0
        # misses proved without a read (None: off); other processes' stores are read every memo_ttl_s
        self._stored: StoredKeys | None = StoredKeys(
            self._engine, _T.__table__, key_column="key", time_column="last_access_at",
            capacity=2 * cfg.max_entries, sync_interval_s=cfg.memo_ttl_s, clock=clock,
        ) if cfg.key_filter and cfg.memo_ttl_s > 0 else None

    @property
    def config(self) -> ExactCacheConfig:
        return self._config

    @property
    def writer(self) -> WriteBatcher[dict[str, Any], bool]:
        """The group-commit writer of the stores."""
        return self._writer

    @property
    def writebacks_shed(self) -> int:
        """Stores refused because too many rows already waited to be written."""
        return self._shed

    @property
    def stored_keys(self) -> StoredKeys | None:
        """The filter of stored keys that answers most misses without a read (``None``: off)."""
        return self._stored

    # --- lookup / store --------------------------------------------------------------------

    async def get(self, key: str, *, model_version: str) -> CacheHit | None:
        """Return the cached response for ``key`` or ``None`` (miss, expired, other model
        version, corrupt entry or database failure)."""
        try:
            now = self._clock()
            memoised = self._memo.get(key, model_version=model_version, now=now)
            if memoised is not None:
                self._touches.record(key, now)
                return memoised
            stored = self._stored
            if stored is not None:
                stored.refresh_if_due()
                if not stored.may_hold(key):
                    return None
            generation = self._memo.generation
            async with self._engine.connect() as conn:
                row = (await conn.execute(_LOOKUP, {"key": key})).one_or_none()
            if row is None:
                return None
            if row.expires_at is not None and row.expires_at <= now:
                return None
            if row.model_version != model_version:
                return None
            if sha256_hex(row.response) != row.response_sha256:
                logger.warning("exact cache entry %s is corrupt (checksum mismatch); deleting it", key)
                await self._delete_where(_T.key == key)
                return None
            self._touches.record(key, now)
            hit = CacheHit(
                body=row.response,
                kind="exact",
                entry_id=key,
                model=row.model,
                model_version=row.model_version,
                created_at=row.created_at,
            )
            self._memo.put(key, hit, expires_at=row.expires_at, generation=generation)
            return hit
        except Exception as exc:  # degrade to a miss
            logger.warning("exact cache lookup failed, treating as a miss: %r", exc)
            return None

    async def put(
        self,
        keys: RequestKeys,
        response: bytes | str,
        *,
        model_version: str,
        ttl_s: float | None = None,
        validate: bool = True,
    ) -> bool:
        """Store ``response`` (OpenAI response JSON) under ``keys.exact``; ``True`` when stored.

        ``ttl_s`` overrides the configured TTL for this entry; ``validate=False`` skips the JSON
        check when the caller has already parsed the response. Refuses (``False`` and a
        log line) responses larger than ``max_entry_bytes`` or that are not a JSON object.
        """
        try:
            body = _as_bytes(response)
            if len(body) > self._config.max_entry_bytes:
                logger.warning(
                    "exact cache: refusing oversized entry (%d bytes > %d)",
                    len(body),
                    self._config.max_entry_bytes,
                )
                return False
            if validate and not isinstance(json.loads(body), dict):
                logger.warning("exact cache: refusing a response that is not a JSON object")
                return False
            now = self._clock()
            ttl = self._config.ttl_s if ttl_s is None else ttl_s
            values = {
                "key": keys.exact,
                "tenant": keys.tenant,
                "model": keys.model,
                "model_version": model_version,
                "scope": keys.scope,
                "response": body,
                "response_sha256": sha256_hex(body),
                "size_bytes": len(body),
                "created_at": now,
                "expires_at": None if ttl is None else now + ttl,
                "last_access_at": now,
                "hits": 0,
            }
            self._memo.discard((keys.exact,))
            if self._stored is not None:
                self._stored.add(keys.exact)  # before the write: a lookup after the store reads the row
            try:
                await self._writer.submit(values)
            except WriteQueueFull:
                self._shed += 1
                logger.debug("exact cache: write-back shed (too many rows waiting to be written)")
                return False
            finally:
                if self._stored is not None:
                    self._stored.written(keys.exact)
            self._memo.discard((keys.exact,))  # again: a read racing the write may have memoised the old row
            self._size.add(len(body))
        except Exception as exc:
            logger.warning("exact cache store failed, response not cached: %r", exc)
            return False
        await self._after_store()
        return True

    async def _write_rows(self, rows: list[dict[str, Any]]) -> list[bool]:
        """Upsert the rows of concurrent stores in one transaction (the writer's ``write``)."""
        latest = {row["key"]: row for row in rows}  # one key stored twice in a batch: the later store wins
        async with self._engine.begin() as conn:
            stmt = self._upserts.get(conn.dialect.name)
            if stmt is None:
                stmt = self._upserts[conn.dialect.name] = upsert_statement(
                    conn.dialect.name, _T.__table__, None, conflict_columns=["key"],
                    update_columns=[c for c in _ROW_COLUMNS if c != "key"],
                )
            await conn.execute(stmt, list(latest.values()))
        return [True] * len(rows)

    async def aclose(self) -> None:
        """Write the stores still queued, flush buffered hit counts and stop reading stored keys."""
        if self._stored is not None:
            await self._stored.aclose()
        await self._writer.aclose()
        await self.flush_touches()

    async def _after_store(self) -> None:
        try:
            now = self._clock()
            if self._size.needs_recount(
                now, self._config.recount_interval_s, self._config.max_entries, self._config.max_bytes
            ):
                await self.enforce_limits()
            elif len(self._touches) >= 256:
                await self.flush_touches()
        except Exception as exc:
            logger.warning("exact cache maintenance after store failed: %r", exc)

    # --- maintenance -----------------------------------------------------------------------

    # --- invalidation ----------------------------------------------------------------------

    async def delete(self, key: str) -> int:
        """Delete one entry by key."""
        return await self._delete_where(_T.key == key)

    async def delete_scope(self, scope: str) -> int:
        """Delete every entry whose request has this scope (see :func:`caches.keys.scope_key`)."""
        return await self._delete_where(_T.scope == scope)

    async def clear(self) -> int:
        """Delete every entry."""
        return await self._delete_where()

    async def _delete_where(self, *conditions: object) -> int:
        self._memo.clear()  # cheap, and right for every kind of invalidation
        try:
            async with self._sessions() as session:
                result = await session.execute(delete(_T).where(*conditions))
                await session.commit()
            self._memo.clear()  # again: a read racing the delete may have memoised a deleted row
            return int(result.rowcount or 0)
        except Exception as exc:
            raise CacheError(f"exact cache delete failed: {exc!r}") from exc

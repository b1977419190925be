"""The exact cache of ``/v1/embeddings``: one row per (tenant, model, text), so a corpus embedded
again costs nothing. Lookups and stores never fail a request: a database error is a miss (logged)."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.storage.db import EmbeddingCacheEntry

log = logging.getLogger(__name__)

_T = EmbeddingCacheEntry
_CHUNK = 500  # keys per SELECT ... IN (...) and rows per INSERT


@dataclass(frozen=True, slots=True)
class Cached:
    """A stored vector (float32, unit length as it was returned) and the tokens it cost."""

    vector: np.ndarray
    tokens: int


def cache_key(tenant: str, model: str, variant: str, text: str) -> str:
    """Hex SHA-256 naming one text's vector: the tenant (caches are per key), the model, the variant
    (what else changes the vector, e.g. an upstream's ``dimensions``) and the text."""
    digest = hashlib.sha256()
    for part in (tenant, model, variant):
        digest.update(part.encode("utf-8", "surrogatepass") + b"\x00")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


class EmbeddingCache:
    """Vectors by :func:`cache_key` in the ``embedding_cache`` table (SQLite or PostgreSQL)."""

    def __init__(self, engine: AsyncEngine, ttl_s: float, clock=lambda: datetime.now(UTC)) -> None:
        self._engine = engine
        self._ttl = timedelta(seconds=ttl_s)
        self._clock = clock

    async def get_many(self, keys: Sequence[str]) -> dict[str, Cached]:
        """The stored, unexpired vectors of ``keys`` (a missing or expired key is absent)."""
        found: dict[str, Cached] = {}
        wanted = list(dict.fromkeys(keys))
        oldest = self._clock() - self._ttl
        try:
            async with self._engine.connect() as conn:
                for start in range(0, len(wanted), _CHUNK):
                    rows = await conn.execute(select(_T.key, _T.vector, _T.dims, _T.tokens, _T.created_at)
                                              .where(_T.key.in_(wanted[start:start + _CHUNK])))
                    for key, vector, dims, tokens, created in rows:
                        if _aware(created) >= oldest and len(vector) == 4 * dims:
                            found[key] = Cached(np.frombuffer(vector, dtype="<f4"), tokens)
        except Exception as exc:  # noqa: BLE001 - the cache degrades to a miss
            log.warning("embedding cache lookup failed, embedding every input: %r", exc)
            return {}
        return found

    async def put_many(self, model: str, entries: dict[str, Cached]) -> None:
        """Store vectors (an existing key keeps its row: the same text gives the same vector)."""
        if not entries:
            return
        now = self._clock()
        rows = [{"key": key, "model": model[:256], "dims": int(c.vector.shape[0]), "tokens": int(c.tokens),
                 "vector": np.ascontiguousarray(c.vector, dtype="<f4").tobytes(), "created_at": now}
                for key, c in entries.items()]
        try:
            async with self._engine.begin() as conn:
                insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
                for start in range(0, len(rows), _CHUNK):
                    chunk = rows[start:start + _CHUNK]
                    statement = insert(_T).on_conflict_do_update(
                        index_elements=["key"], set_={"created_at": now})  # a re-embed renews the entry
                    await conn.execute(statement, chunk)
        except Exception as exc:  # noqa: BLE001 - not cached this time; the answer was served
            log.warning("could not store %d embeddings in the cache: %r", len(rows), exc)

    async def expire(self) -> int:
        """Delete entries older than the TTL; returns how many."""
        async with self._engine.begin() as conn:
            result = await conn.execute(delete(_T).where(_T.created_at < self._clock() - self._ttl))
        return result.rowcount or 0


def _aware(moment: datetime) -> datetime:
    """SQLite hands datetimes back without their time zone; they were stored in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)

"""The caches page: entries, bytes and hits per kind, scope and model, tenants, and the most hit,
contested and most recent entries of the exact and semantic caches."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from caches.models import ExactCacheEntry, SemanticCacheEntry

CONTESTED = "contested"  # caches.semantic_choice.CONTESTED: a question stored with two different answers


@dataclass(frozen=True, slots=True)
class CacheGroup:
    """Entries, bytes and hits of one cache kind, scope and model."""

    kind: str
    scope: str
    model: str
    entries: int
    bytes: int
    hits: int


@dataclass(frozen=True, slots=True)
class CachedQuestion:
    """A semantic-cache entry: its question and how often it answered."""

    id: int
    scope: str
    tenant: str
    model: str
    question: str
    hits: int
    size_bytes: int
    created_at: float
    contested: bool


async def cache_groups(conn: AsyncConnection) -> list[CacheGroup]:
    """Entries, bytes and hits per cache kind, scope and model, most entries first."""
    out = []
    for kind, table in (("exact", ExactCacheEntry), ("semantic", SemanticCacheEntry)):
        rows = (await conn.execute(
            select(table.scope, table.model, func.count(), func.sum(table.size_bytes), func.sum(table.hits))
            .group_by(table.scope, table.model))).all()
        out += [CacheGroup(kind, s, m, n, int(b or 0), int(h or 0)) for s, m, n, b, h in rows]
    return sorted(out, key=lambda g: (-g.entries, g.kind, g.scope, g.model))


async def cache_tenants(conn: AsyncConnection, limit: int = 200) -> list[tuple[str, int]]:
    """The tenants with the most cache entries (both caches), with their entry counts."""
    counts: dict[str, int] = defaultdict(int)
    for table in (ExactCacheEntry, SemanticCacheEntry):
        for tenant, n in (await conn.execute(
                select(table.tenant, func.count()).group_by(table.tenant)
                .order_by(func.count().desc()).limit(limit))).all():
            counts[tenant] += n
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]


def _question(row) -> CachedQuestion:
    return CachedQuestion(row.id, row.scope, row.tenant, row.model, row.query_text, row.hits, row.size_bytes,
                          row.created_at, row.answer_sha256 == CONTESTED)


_QUESTION_COLUMNS = (SemanticCacheEntry.id, SemanticCacheEntry.scope, SemanticCacheEntry.tenant,
                     SemanticCacheEntry.model, SemanticCacheEntry.query_text, SemanticCacheEntry.hits,
                     SemanticCacheEntry.size_bytes, SemanticCacheEntry.created_at, SemanticCacheEntry.answer_sha256)


async def most_hit_questions(conn: AsyncConnection, limit: int = 20) -> list[CachedQuestion]:
    """Semantic-cache questions that answered most often."""
    rows = (await conn.execute(select(*_QUESTION_COLUMNS).where(SemanticCacheEntry.hits > 0)
                               .order_by(SemanticCacheEntry.hits.desc(), SemanticCacheEntry.id).limit(limit))).all()
    return [_question(r) for r in rows]


async def contested_questions(conn: AsyncConnection, limit: int = 20) -> list[CachedQuestion]:
    """Questions stored with two different answers: never served to a paraphrase."""
    rows = (await conn.execute(select(*_QUESTION_COLUMNS).where(SemanticCacheEntry.answer_sha256 == CONTESTED)
                               .order_by(SemanticCacheEntry.created_at.desc()).limit(limit))).all()
    return [_question(r) for r in rows]


async def recent_entries(conn: AsyncConnection, limit: int = 20) -> list[dict[str, Any]]:
    """The most recently used entries of both caches (kind, id, scope, tenant, model, question,
    hits, bytes, stored and last used), through the caches' ``last_access_at`` indexes."""
    exact = (await conn.execute(
        select(ExactCacheEntry.key, ExactCacheEntry.scope, ExactCacheEntry.tenant, ExactCacheEntry.model,
               ExactCacheEntry.hits, ExactCacheEntry.size_bytes, ExactCacheEntry.created_at,
               ExactCacheEntry.last_access_at)
        .order_by(ExactCacheEntry.last_access_at.desc()).limit(limit))).all()
    semantic = (await conn.execute(select(*_QUESTION_COLUMNS, SemanticCacheEntry.last_access_at)
                                   .order_by(SemanticCacheEntry.last_access_at.desc()).limit(limit))).all()
    rows = [{"kind": "exact", "id": k, "scope": s, "tenant": t, "model": m, "question": None, "hits": h,
             "bytes": b, "created_at": c, "used_at": u} for k, s, t, m, h, b, c, u in exact]
    rows += [{"kind": "semantic", "id": str(r.id), "scope": r.scope, "tenant": r.tenant, "model": r.model,
              "question": r.query_text, "hits": r.hits, "bytes": r.size_bytes, "created_at": r.created_at,
              "used_at": r.last_access_at} for r in semantic]
    return sorted(rows, key=lambda r: -r["used_at"])[:limit]

"""``ResponseCache``: the exact and the semantic cache behind one async API (the ``Cache`` seam).

Typical use in the proxy::

    cache = ResponseCache(engine, CacheConfig(), embedder=SentenceTransformerEmbedder())
    await cache.start()                                   # app start-up: rebuild the index
    req = cache.prepare(body, model=model, tenant=tenant, cache_control=headers.get("cache-control"))
    hit = await cache.lookup(req, model_version=version)  # CacheHit | None, never raises
    ...                                                   # on a miss: call upstream
    await cache.store(req, response_bytes, model_version=version)   # off the critical path
    await cache.maintenance()                             # periodically, e.g. every 60 s
    await cache.aclose()                                  # shutdown
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from caches.config import CacheConfig, PolicyConfig
from caches.db import as_sessionmaker
from caches.embedder import Embedder
from caches.exact import ExactCache
from caches.keys import RequestKeys, request_keys
from caches.models import ExactCacheEntry, SemanticCacheEntry
from caches.policy import CacheDecision, decide, is_cacheable_response
from caches.semantic import SemanticCache
from caches.types import CacheError, CacheHit, CacheRequest, CacheStats

__all__ = ["InvalidationResult", "ResponseCache"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class InvalidationResult:
    """Entries removed from each cache by an invalidation call."""

    exact: int = 0
    semantic: int = 0

    @property
    def total(self) -> int:
        return self.exact + self.semantic


class ResponseCache:
    """Exact cache first, then the semantic cache for eligible requests.

    ``db``: an ``AsyncEngine`` or ``async_sessionmaker`` (SQLite or PostgreSQL) owned by the
    caller, with the tables of migration 0002 (or ``caches.db.create_tables``); ``embedder``:
    required for the semantic cache (without one only the exact cache runs).
    """

    def __init__(
        self,
        db: AsyncEngine | async_sessionmaker[AsyncSession],
        config: CacheConfig | None = None,
        *,
        embedder: Embedder | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._config = config or CacheConfig()
        sessions = self._sessions = as_sessionmaker(db)
        self.exact: ExactCache | None = (
            ExactCache(sessions, self._config.exact, clock=clock) if self._config.exact.enabled else None
        )
        self.semantic: SemanticCache | None = (
            SemanticCache(sessions, embedder, self._config.semantic, clock=clock)
            if embedder is not None and self._config.semantic.enabled
            else None
        )
        # the policy each tenant with overrides gets, built once instead of per request
        base = self._config.policy
        self._tenant_policies: dict[str, PolicyConfig] = {
            tenant: replace(
                base,
                semantic=base.semantic if t.semantic is None else t.semantic,
                semantic_requires_determinism=base.semantic_requires_determinism
                if t.semantic_requires_determinism is None
                else t.semantic_requires_determinism,
                replay_sampled=base.replay_sampled if t.replay_sampled is None else t.replay_sampled,
            )
            for tenant, t in self._config.tenants.items()
        }

    @property
    def config(self) -> CacheConfig:
        return self._config

    async def start(self) -> None:
        """Rebuild the semantic index from the database and start reading the exact cache's stored
        keys (call once at start-up). Never raises."""
        if self.exact is not None and self.exact.stored_keys is not None:
            self.exact.stored_keys.refresh_if_due()
        if self.semantic is not None:
            try:
                await self.semantic.start()
            except Exception as exc:
                logger.warning("semantic cache start-up failed; it will retry on first use: %r", exc)

    async def aclose(self) -> None:
        """Write queued stores, flush buffered hit counts and stop worker threads."""
        if self.exact is not None:
            try:
                await self.exact.aclose()
            except Exception as exc:
                logger.warning("exact cache: flushing hit counts at shutdown failed: %r", exc)
        if self.semantic is not None:
            await self.semantic.aclose()

    def prepare(
        self, body: Mapping[str, Any], *, model: str, tenant: str, cache_control: str | None = None
    ) -> CacheRequest:
        """Compute the keys and the policy decision of a request (cheap, synchronous, never raises;
        an uncanonicalisable body gets a decision that disables caching). The tenant's overrides
        (``CacheConfig.tenants``) apply: caching off, semantic off, determinism not required,
        entry TTL and similarity threshold."""
        tenant_policy = self._config.tenants.get(tenant)
        if tenant_policy is not None and tenant_policy.enabled is False:
            keys = RequestKeys(exact="", scope="", query=None, tenant=tenant, model=model)
            off = CacheDecision(lookup=False, store=False, semantic=False, reason="caching off for this key")
            return CacheRequest(keys=keys, decision=off)
        policy = self._tenant_policies.get(tenant, self._config.policy)
        unkeyed = RequestKeys(exact="", scope="", query=None, tenant=tenant, model=model)
        try:
            decision = decide(body, cache_control=cache_control, config=policy)
            if not policy.exact and not decision.semantic:
                decision = CacheDecision(lookup=False, store=False, semantic=False, reason=decision.reason)
            # a bypassed request (no-store, sampled, caching off) is never keyed: hashing is its only cost
            keys = request_keys(body, model=model, tenant=tenant) if decision.lookup or decision.store else unkeyed
        except Exception as exc:
            logger.warning("cannot compute cache keys for the request; caching disabled for it: %r", exc)
            keys = unkeyed
            decision = CacheDecision(lookup=False, store=False, semantic=False, reason="unkeyable request")
        if tenant_policy is None:
            return CacheRequest(keys=keys, decision=decision)
        return CacheRequest(
            keys=keys, decision=decision, ttl_s=tenant_policy.ttl_s, threshold=tenant_policy.threshold
        )

    @property
    def lookup_skips(self) -> dict[str, int]:
        """Semantic lookups given up and forwarded as misses, by reason (``caches.semantic.SKIP_REASONS``)."""
        return {} if self.semantic is None else self.semantic.skipped

    @property
    def lookups_proved_miss(self) -> int:
        """Semantic lookups answered as misses without embedding the query: no cached question of
        the scope could pass verification."""
        return 0 if self.semantic is None else self.semantic.proved_misses

    @property
    def writebacks_shed(self) -> int:
        """Write-backs whose semantic entry was shed under load (the exact entry is still stored)."""
        return 0 if self.semantic is None else self.semantic.writebacks_shed

    async def lookup(
        self,
        request: CacheRequest,
        *,
        model_version: str,
        arrived: float | None = None,
        on_skip: Callable[[str], None] | None = None,
    ) -> CacheHit | None:
        """Exact hit, else semantic hit (eligible requests only), else ``None``. Never raises.

        ``arrived``: when the request arrived (``time.perf_counter()``): the semantic lookup is then
        bounded by the configured deadline from that moment, and ``on_skip(reason)`` hears when it
        was given up (see :meth:`caches.semantic.SemanticCache.get`)."""
        if not request.decision.lookup:
            return None
        if self.exact is not None and self._config.policy.exact:
            hit = await self.exact.get(request.keys.exact, model_version=model_version)
            if hit is not None:
                return hit
        if self.semantic is not None and request.decision.semantic:
            return await self.semantic.get(
                request.keys, model_version=model_version, threshold=request.threshold, arrived=arrived,
                on_skip=on_skip,
            )
        return None

    async def store(self, request: CacheRequest, response: bytes | str, *, model_version: str) -> bool:
        """Write an upstream response back to the caches the decision allows; ``True`` when at
        least one cache stored it. Never raises."""
        if not request.decision.store:
            return False
        try:
            parsed = json.loads(response)
        except ValueError as exc:
            logger.warning("not caching a response that is not valid JSON: %r", exc)
            return False
        if not is_cacheable_response(parsed):
            logger.debug("response not cacheable (error, no choices or content filter)")
            return False
        stored = False
        if self.exact is not None and self._config.policy.exact:
            stored = (
                await self.exact.put(
                    request.keys, response, model_version=model_version, ttl_s=request.ttl_s, validate=False
                )
                or stored
            )
        if (
            self.semantic is not None
            and request.decision.semantic
            and is_cacheable_response(parsed, semantic=True)
        ):
            stored = (
                await self.semantic.put(
                    request.keys, response, model_version=model_version, ttl_s=request.ttl_s, validate=False
                )
                or stored
            )
        return stored

    async def maintenance(self) -> None:
        """Periodic upkeep of both caches (expiry, LRU bounds, index sync). Never raises."""
        if self.exact is not None:
            try:
                await self.exact.enforce_limits()
            except Exception as exc:
                logger.warning("exact cache maintenance failed: %r", exc)
        if self.semantic is not None:
            await self.semantic.maintenance()

    async def stats(self) -> dict[str, CacheStats]:
        """Entry and byte counts per cache (raises ``CacheError``-like DB errors)."""
        out: dict[str, CacheStats] = {}
        if self.exact is not None:
            out["exact"] = await self.exact.stats()
        if self.semantic is not None:
            out["semantic"] = await self.semantic.stats()
        return out

    # --- invalidation (raise caches.types.CacheError on database failure) -------------------

    async def delete_entry(self, kind: Literal["exact", "semantic"], entry_id: str) -> int:
        """Delete one entry, an exact key or a semantic row id (``CacheHit.entry_id``), and the
        other cache's copy of the same question, so that the next identical request misses
        (deleting only the semantic row would leave the exact entry answering it, and the other
        way round). Returns how many entries of ``kind`` were removed (0 or 1): the copy is the
        same cached answer, counted in the log line only.

        The copy is found by scope and stored answer: one write-back stores the same bytes in
        both caches, and the scope (tenant, model, parameters, conversation) is part of the
        match, so no other scope is touched."""
        if kind == "exact":
            if self.exact is None:
                return 0
            answer = await self._answer_of(ExactCacheEntry, ExactCacheEntry.key == entry_id)
            removed = await self.exact.delete(entry_id)
            copies = await self._delete_semantic_answer(answer)
        else:
            if self.semantic is None:
                return 0
            row_id = int(entry_id)
            answer = await self._answer_of(SemanticCacheEntry, SemanticCacheEntry.id == row_id)
            removed = await self.semantic.delete(row_id)
            copies = await self._delete_exact_answer(answer)
        if copies:
            logger.info("deleting %s cache entry %s also removed %d copy(ies) from the other cache",
                        kind, entry_id, copies)
        return removed

    async def _answer_of(self, table: type[ExactCacheEntry | SemanticCacheEntry],
                         condition: Any) -> tuple[str, str] | None:
        """``(scope, response_sha256)`` of the entry matching ``condition`` (``None``: no entry)."""
        try:
            async with self._sessions() as session:
                row = (
                    await session.execute(select(table.scope, table.response_sha256).where(condition))
                ).one_or_none()
        except Exception as exc:
            raise CacheError(f"cache entry lookup failed: {exc!r}") from exc
        return None if row is None else (row.scope, row.response_sha256)

    async def _companions(self, table: type[ExactCacheEntry | SemanticCacheEntry], id_column: Any,
                          answer: tuple[str, str] | None) -> list[Any]:
        """Ids of ``table``'s entries in the scope of ``answer`` that store the same answer bytes."""
        if answer is None:
            return []
        scope, sha = answer
        try:
            async with self._sessions() as session:
                result = await session.execute(
                    select(id_column).where(table.scope == scope, table.response_sha256 == sha)
                )
                return list(result.scalars().all())
        except Exception as exc:
            raise CacheError(f"cache entry lookup failed: {exc!r}") from exc

    async def _delete_exact_answer(self, answer: tuple[str, str] | None) -> int:
        """Delete the exact entries that answer the same question as a deleted semantic row."""
        if self.exact is None:
            return 0
        keys = await self._companions(ExactCacheEntry, ExactCacheEntry.key, answer)
        return sum([await self.exact.delete(key) for key in keys])

    async def _delete_semantic_answer(self, answer: tuple[str, str] | None) -> int:
        """Delete the semantic rows that store the same question as a deleted exact entry."""
        if self.semantic is None:
            return 0
        ids = await self._companions(SemanticCacheEntry, SemanticCacheEntry.id, answer)
        return sum([await self.semantic.delete(row_id) for row_id in ids])

    async def delete_scope(self, scope: str) -> InvalidationResult:
        """Delete every entry of a scope (``CacheRequest.keys.scope``) from both caches."""
        return InvalidationResult(
            exact=0 if self.exact is None else await self.exact.delete_scope(scope),
            semantic=0 if self.semantic is None else await self.semantic.delete_scope(scope),
        )

    async def delete_model(
        self, model: str, *, tenant: str | None = None, keep_version: str | None = None
    ) -> InvalidationResult:
        """Delete the entries of a model (optionally one tenant's, optionally all but one version)."""
        return InvalidationResult(
            exact=0
            if self.exact is None
            else await self.exact.delete_model(model, tenant=tenant, keep_version=keep_version),
            semantic=0
            if self.semantic is None
            else await self.semantic.delete_model(model, tenant=tenant, keep_version=keep_version),
        )

    async def delete_tenant(self, tenant: str) -> InvalidationResult:
        """Delete every entry of a tenant."""
        return InvalidationResult(
            exact=0 if self.exact is None else await self.exact.delete_tenant(tenant),
            semantic=0 if self.semantic is None else await self.semantic.delete_tenant(tenant),
        )

    async def clear(self) -> InvalidationResult:
        """Delete everything."""
        return InvalidationResult(
            exact=0 if self.exact is None else await self.exact.clear(),
            semantic=0 if self.semantic is None else await self.semantic.clear(),
        )

    async def purge_expired(self) -> InvalidationResult:
        """Delete expired entries now (``maintenance`` does this too)."""
        return InvalidationResult(
            exact=0 if self.exact is None else await self.exact.purge_expired(),
            semantic=0 if self.semantic is None else await self.semantic.purge_expired(),
        )

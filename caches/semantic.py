"""Semantic response cache: a paraphrase of a cached question, in the same scope, gets its answer.

Storage: one row per (scope, question) in ``thrifty_semantic_cache`` with the question, its
embedding (float32 bytes), the answer and bookkeeping (model version, TTL, LRU). Search: a
:class:`caches.index.ScopedIndex` in memory, rebuilt from the table at start-up and kept in step
with it (stores add vectors, deletes and evictions remove them, :meth:`SemanticCache.sync` picks
up rows written by other replicas; a vector whose row has gone is dropped when met). The database
is the source of truth: a candidate only becomes a hit after its row is read back.

A hit needs, in this order: the same scope (tenant, model, parameters, system prompt, earlier
turns), cosine similarity >= ``threshold``, the same model version, an unexpired row, lexical
verification (:mod:`caches.verify`), and no second verified candidate with a different answer
within ``ambiguity_margin`` of the best one.

Embedding and FAISS work runs in a thread pool owned by the cache; lookups and stores never raise.

On the request path (:meth:`SemanticCache.get` with ``arrived``) the query's embedding goes through
a :class:`caches.batching.EmbeddingBatcher`: concurrent lookups share one forward, and a lookup
whose vector is not ready ``lookup_deadline_s`` after the request arrived is given up (a miss;
the forward finishes in the background and its vector is memoised). :attr:`SemanticCache.skipped`
counts the lookups given up, by reason: ``too_long`` (query over ``max_query_chars``),
``late`` (the lookup began after its deadline), ``deadline``, ``queue_full``, ``error`` (the embedder failed). The write-back (:meth:`put`) reuses
the lookup's vector; when it must embed, it queues at the lowest priority and is shed
(:attr:`SemanticCache.writebacks_shed`) when that queue is full.

Before any embedding, :mod:`caches.candidate_gate` tells whether any entry of the query's scope could
pass verification at all; when none could, the lookup is a miss without running the model
(:attr:`SemanticCache.proved_misses`). With ``vectors_on_demand``, a write-back whose query has no
vector stores its row without one (``embedding_dim`` 0); the gate keeps it, and the first query that
could match it embeds it in its own forward and records the vector in the row.

The choice among candidates is :mod:`caches.semantic_choice`, start-up and loading rows
:mod:`caches.semantic_loading`, the stores :mod:`caches.semantic_stores`,
upkeep and invalidation :mod:`caches.semantic_upkeep`, the table's row rules :mod:`caches.semantic_rows`.

The request path avoids ORM sessions: the lookup's reads are prebuilt Core statements on pooled
connections, and stores go through a :class:`caches.writes.WriteBatcher`: concurrent write-backs
share one upsert (an executemany returning the row ids), one commit and one index update. A
store returns once its row is committed and its vector indexed (a lookup after it sees it); a
full write queue sheds the write-back like a full embedding queue.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache, partial
from typing import Any, TypeVar

import numpy as np
from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from caches.batching import DeadlineExpired, EmbeddingBatcher, Priority, QueueFull
from caches.candidate_gate import CandidateGate, gate_keys
from caches.config import SemanticCacheConfig
from caches.db import SizeTracker, TouchBuffer, as_sessionmaker, engine_of, sha256_hex
from caches.embedder import Embedder
from caches.index import ScopedIndex
from caches.keys import RequestKeys
from caches.models import SemanticCacheEntry
from caches.reworded_parts import differing_parts, differing_requests
from caches.semantic_choice import Candidate, choose, close_threshold_of
from caches.semantic_loading import SemanticLoading
from caches.semantic_stores import SemanticStores
from caches.semantic_upkeep import SemanticUpkeep
from caches.text_features import extract_features
from caches.types import SKIP_REASONS, CacheHit
from caches.verify import verify
from caches.writes import WriteBatcher

__all__ = ["SKIP_REASONS", "SemanticCache"]

logger = logging.getLogger(__name__)

_T = SemanticCacheEntry
_R = TypeVar("_R")
# the lookup's reads: prebuilt statements (compiled once per engine), the ids bound at execution
_CANDIDATE_ROWS = select(
    _T.id, _T.scope, _T.query_text, _T.answer_sha256, _T.model_version, _T.expires_at, _T.embedder
).where(_T.id.in_(bindparam("ids", expanding=True)))
_ANSWER_ROW = select(
    _T.response, _T.response_sha256, _T.model, _T.model_version, _T.created_at
).where(_T.id == bindparam("id"))


class SemanticCache(SemanticLoading, SemanticStores, SemanticUpkeep):
    """Async semantic cache over ``thrifty_semantic_cache`` and a per-scope FAISS index.

    ``db``: an ``AsyncEngine`` or ``async_sessionmaker`` owned by the caller; ``embedder``: any
    :class:`caches.embedder.Embedder`; ``clock``: epoch seconds (injectable for tests).
    Call :meth:`start` at start-up (it is also run lazily by the first lookup or store) and
    :meth:`aclose` at shutdown; call :meth:`maintenance` periodically (e.g. every minute).
    """

    def __init__(
        self,
        db: AsyncEngine | async_sessionmaker[AsyncSession],
        embedder: Embedder,
        config: SemanticCacheConfig | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._sessions = as_sessionmaker(db)
        self._engine = engine_of(db)
        self._embedder = embedder
        self._config = config or SemanticCacheConfig()
        self._clock = clock
        self._executor = ThreadPoolExecutor(
            max_workers=max(1, self._config.workers),
            thread_name_prefix="thrifty-semantic",
        )
        self._index: ScopedIndex | None = None
        self._start_lock = asyncio.Lock()
        self._touches = TouchBuffer()
        self._size = SizeTracker()
        # verification features of recently seen texts (cached questions recur as candidates)
        self._features = lru_cache(maxsize=max(0, self._config.features_memo_size))(extract_features)
        self._last_sync = float("-inf")
        self._closed = False
        cfg = self._config
        self._batcher = EmbeddingBatcher(
            embedder.embed,
            self._run,
            window_s=cfg.batch_window_s,
            max_batch=cfg.max_batch,
            max_lookups=cfg.max_queued_lookups,
            max_stores=cfg.max_queued_stores,
            memo_size=cfg.vector_memo_size,
        )
        self._skipped: Counter[str] = Counter()
        self._warned_slow_embedder = False  # the embedder alone is slower than the lookup deadline: logged once
        self._shed = 0
        self._proved_misses = 0
        self._filled = 0
        self._background: set[asyncio.Task] = set()  # vectors being recorded in their rows
        self._warmup: asyncio.Future | None = None  # the gate keys of a large cache, computed after start-up
        self._writer: WriteBatcher[dict[str, Any], int] = WriteBatcher(
            self._write_rows, window_s=cfg.write_window_s, max_batch=cfg.max_write_batch,
            max_pending=cfg.max_queued_writes,
        )
        self._upserts: dict[str, Any] = {}  # dialect name -> the prebuilt upsert

    # --- plumbing ------------------------------------------------------------------------------

    @property
    def config(self) -> SemanticCacheConfig:
        return self._config

    @property
    def index(self) -> ScopedIndex | None:
        """The in-memory index (``None`` before :meth:`start`)."""
        return self._index

    @property
    def batcher(self) -> EmbeddingBatcher:
        """The micro-batcher of the lookup and write-back embeddings."""
        return self._batcher

    @property
    def skipped(self) -> dict[str, int]:
        """Lookups given up and forwarded as misses, by reason (:data:`SKIP_REASONS`), since start."""
        return dict(self._skipped)

    @property
    def proved_misses(self) -> int:
        """Lookups answered as misses without embedding the query: no cached question of the scope
        could pass verification (:mod:`caches.candidate_gate`)."""
        return self._proved_misses

    @property
    def filled_on_demand(self) -> int:
        """Entries stored without a vector whose vector a later lookup computed."""
        return self._filled

    def _gate(self) -> CandidateGate | None:
        return None if self._index is None else self._index.gate

    def _lazy(self) -> bool:
        """Write-backs may store entries without a vector (they need the gate to be found again)."""
        return self._config.vectors_on_demand and self._gate() is not None

    @property
    def writer(self) -> WriteBatcher[dict[str, Any], int]:
        """The group-commit writer of the stores."""
        return self._writer

    @property
    def writebacks_shed(self) -> int:
        """Write-backs whose semantic entry was dropped because the store queue (of embeddings or
        of rows to write) was full."""
        return self._shed

    async def _run(self, fn: Callable[..., _R], *args: Any) -> _R:
        return await asyncio.get_running_loop().run_in_executor(self._executor, partial(fn, *args))

    def _eligible_text(self, keys: RequestKeys) -> str | None:
        query = keys.query
        if not self._config.enabled or query is None or not query.strip():
            return None
        if len(query) > self._config.max_query_chars:
            return None
        return query

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts in the cache's thread pool; (n, dim) float32 unit rows."""
        vectors = await self._run(self._embedder.embed, list(texts))
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts) or not np.isfinite(vectors).all():
            raise ValueError(f"embedder returned an invalid array of shape {vectors.shape}")
        return vectors

    async def _vector_for(self, text: str, priority: Priority = "lookup", deadline: float | None = None) -> np.ndarray:
        """``text``'s vector from the batcher (memoised, or in a shared forward). The forward's future is
        shared with every other caller of the same text: cancelling this wait must not cancel it."""
        return await asyncio.shield(self._batcher.submit(text, priority, deadline))

    async def _lookup_vector(self, query: str, deadline: float | None = None) -> np.ndarray:
        await self._ensure_started()
        return await self._vector_for(query, deadline=deadline)

    async def _vector_within(self, query: str, deadline: float) -> np.ndarray | str:
        """The query's vector, or the reason it is not ready by ``deadline`` (``time.perf_counter``).

        Waiting stops at the deadline; the start-up or forward it waited for goes on in the
        background (a later write-back of the same text then finds the vector memoised)."""
        vector = self._batcher.cached(query) if self._index is not None else None
        if vector is not None:
            return vector
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return "late"  # the request reached its lookup after the deadline: the proxy, not the model, is behind
        work = asyncio.ensure_future(self._lookup_vector(query, deadline))
        work.add_done_callback(lambda task: task.cancelled() or task.exception())
        if not await self._within(work, deadline):
            return "deadline"
        try:
            return work.result()
        except DeadlineExpired:  # dropped unembedded: no forward could have finished in time
            return "deadline"
        except QueueFull:
            return "queue_full"
        except Exception as exc:
            logger.warning("semantic cache: embedding the query failed, treating as a miss: %r", exc)
            return "error"

    @staticmethod
    async def _within(work: asyncio.Future, deadline: float) -> bool:
        """Whether ``work`` is done by ``deadline`` (``time.perf_counter``); never cancels it and
        never raises its exception (read it from ``work``)."""
        await asyncio.wait({work}, timeout=max(0.0, deadline - time.perf_counter()))
        return work.done()

    def _track(self, work: Any) -> asyncio.Task:
        """Run ``work`` as a task that :meth:`aclose` waits for."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    def _skip(self, reason: str, on_skip: Callable[[str], None] | None) -> None:
        self._skipped[reason] += 1
        if reason == "deadline" and not self._warned_slow_embedder:
            alone_s, deadline_s = self._batcher.predicted_s(1), self._config.lookup_deadline_s
            if deadline_s is not None and alone_s > deadline_s:
                self._warned_slow_embedder = True
                logger.warning(
                    "semantic cache: one embedding takes ~%.0f ms on this machine, more than the %.0f ms lookup "
                    "deadline, so most lookups are given up as misses; raise [cache] lookup_deadline_ms "
                    "(THRIFTY_CACHE__LOOKUP_DEADLINE_MS) above it to get semantic hits", alone_s * 1e3, deadline_s * 1e3)
        if on_skip is not None:
            on_skip(reason)

    def _check_vector(self, vector: np.ndarray) -> np.ndarray:
        """A caller-supplied embedding as a unit float32 vector of the index dimension."""
        vec = np.ascontiguousarray(vector, dtype=np.float32).reshape(-1)
        dim = self._index.dim if self._index is not None else vec.shape[0]
        norm = float(np.linalg.norm(vec)) if np.isfinite(vec).all() else 0.0
        if vec.shape[0] != dim or norm == 0.0:
            raise ValueError(f"invalid vector of dimension {vec.shape[0]} (expected {dim}, finite, non-zero)")
        return vec if abs(norm - 1.0) < 1e-4 else vec / norm

    # --- shutdown ---------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Flush buffered hit counts and stop the thread pool."""
        if self._closed:
            return
        self._closed = True
        if self._warmup is not None and not self._warmup.done():
            self._warmup.cancel()
            await asyncio.gather(self._warmup, return_exceptions=True)
        while self._background:  # fills may start the recording of their vectors
            await asyncio.gather(*self._background, return_exceptions=True)
        await self._writer.aclose()
        await self._batcher.aclose()
        try:
            await self.flush_touches()
        except Exception as exc:
            logger.warning("semantic cache: flushing hit counts at shutdown failed: %r", exc)
        self._executor.shutdown(wait=True)

    # --- lookup ----------------------------------------------------------------------------

    async def candidates(
        self,
        keys: RequestKeys,
        *,
        model_version: str,
        vector: np.ndarray | None = None,
        min_similarity: float | None = None,
    ) -> list[Candidate]:
        """Live candidates of the query's scope, best first (no verification).

        With ``min_similarity``, returns nothing (and skips the database) when no vector of the
        scope is that close. Raises on failure; :meth:`get` is the degrading entry point.
        """
        query = self._eligible_text(keys)
        if query is None:
            return []
        index = await self._ensure_started()
        vec = self._check_vector(vector) if vector is not None else await self._vector_for(query)
        found = await self._run(index.search, keys.scope, vec, self._config.top_k)
        if not found or (min_similarity is not None and found[0][1] < min_similarity):
            return []
        return await self._live_candidates(keys, found, model_version)

    async def _live_candidates(
        self, keys: RequestKeys, found: list[tuple[int, float]], model_version: str
    ) -> list[Candidate]:
        assert self._index is not None
        ids = [i for i, _ in found]
        async with self._engine.connect() as conn:
            rows = (await conn.execute(_CANDIDATE_ROWS, {"ids": ids})).all()
        by_id = {row.id: row for row in rows}
        now = self._clock()
        stale: list[int] = []
        out: list[Candidate] = []
        for entry_id, score in found:
            row = by_id.get(entry_id)
            if row is None or row.scope != keys.scope or row.embedder != self._config.embedder_id:
                stale.append(entry_id)  # deleted (e.g. by another replica) or replaced
                continue
            if row.expires_at is not None and row.expires_at <= now:
                stale.append(entry_id)
                continue
            if row.model_version != model_version:
                continue
            out.append(Candidate(entry_id, score, row.query_text, row.answer_sha256))
        if stale:
            await self._run(self._index.remove, stale)
        return out

    async def get(
        self,
        keys: RequestKeys,
        *,
        model_version: str,
        vector: np.ndarray | None = None,
        threshold: float | None = None,
        arrived: float | None = None,
        on_skip: Callable[[str], None] | None = None,
    ) -> CacheHit | None:
        """Answer of a cached paraphrase of ``keys.query`` in ``keys.scope``, or ``None``.

        ``vector``: the query's embedding if already computed; ``threshold``: overrides the
        configured similarity threshold (a tenant's setting). ``arrived``: when the request
        arrived (``time.perf_counter()``); with it the lookup is bounded by ``lookup_deadline_s``
        and a query over ``max_query_chars`` is skipped: each skip is counted in :attr:`skipped`
        and reported to ``on_skip(reason)``. Without ``vector``, a query that no entry of its scope
        could pass verification for is a miss without embedding it (:attr:`proved_misses`), and the
        entries stored without a vector that it could match are embedded in its forward. Never raises.
        """
        try:
            cfg = self._config
            threshold = cfg.threshold if threshold is None else threshold
            deadline = arrived + cfg.lookup_deadline_s if arrived is not None and cfg.lookup_deadline_s is not None else None
            if arrived is not None and vector is None:
                query = keys.query
                if not cfg.enabled or query is None or not query.strip():
                    return None
                if len(query) > cfg.max_query_chars:
                    self._skip("too_long", on_skip)
                    return None
            filling: asyncio.Future | None = None
            if vector is None and (query := self._eligible_text(keys)) is not None:
                gate = self._gate()
                if gate is not None:
                    query_keys = gate_keys(self._features(query))
                    if not gate.may_match(keys.scope, query_keys):
                        self._proved_misses += 1  # no cached question could pass verification: no embedding
                        return None
                    # entries stored without a vector join the query's forward (submitted in the same turn
                    # of the loop) when the embedder is idle: under load they wait, as write-backs are shed first
                    late = deadline is not None and time.perf_counter() >= deadline  # skipped below: no fill
                    room = min(max(1, cfg.max_batch - 1), 2 * cfg.top_k) if self._batcher.idle and not late else 0
                    pending = gate.pending_matches(keys.scope, query_keys, room)
                    if pending:
                        filling = self._track(self._fill_pending(keys.scope, pending))
                elif self._index is not None and self._index.scope_size(keys.scope) == 0:
                    return None  # nothing cached in this scope (e.g. a new conversation's turn): no embedding
            if deadline is not None and vector is None:
                found = await self._vector_within(query, deadline)
                if isinstance(found, str):
                    self._skip(found, on_skip)
                    return None
                vector = found
                if filling is not None and not await self._within(filling, deadline):
                    filling = None  # the search goes on without them; they are indexed when ready
            if filling is not None:
                if vector is None:  # no deadline: the query joins the stored questions' forward
                    vector = await self._lookup_vector(keys.query or "")
                await asyncio.shield(filling)
            close_threshold = close_threshold_of(threshold, cfg.close_distance_factor) if cfg.verify else threshold
            cands = await self.candidates(
                keys, model_version=model_version, vector=vector, min_similarity=close_threshold
            )
            if not cands:
                return None
            best = choose(
                keys.query or "",
                cands,
                threshold=threshold,
                close_threshold=close_threshold,
                ambiguity_margin=cfg.ambiguity_margin,
                verify_candidates=cfg.verify,
                features=self._features,
            )
            if best is None or not await self._reworded_parts_agree(keys.query or "", best.query_text, deadline,
                                                                     threshold, close_threshold):
                return None
            async with self._engine.connect() as conn:
                row = (await conn.execute(_ANSWER_ROW, {"id": best.entry_id})).one_or_none()
            if row is None:
                return None
            if sha256_hex(row.response) != row.response_sha256:
                logger.warning(
                    "semantic cache entry %d is corrupt (checksum mismatch); deleting it", best.entry_id
                )
                await self._delete_where(_T.id == best.entry_id)
                return None
            self._touches.record(best.entry_id, self._clock())
            return CacheHit(
                body=row.response,
                kind="semantic",
                entry_id=str(best.entry_id),
                model=row.model,
                model_version=row.model_version,
                created_at=row.created_at,
                similarity=best.similarity,
                matched_query=best.query_text,
            )
        except Exception as exc:
            logger.warning("semantic cache lookup failed, treating as a miss: %r", exc)
            return None

    async def _reworded_parts_agree(self, query: str, cached: str, deadline: float | None, threshold: float,
                                    close_threshold: float) -> bool:
        """Whether the cached question may answer ``query`` as far as what they do not share goes
        (:mod:`caches.reworded_parts`): when verification read the whole texts as a rewording beside shared
        material, the differing parts must embed at least ``reworded_part_threshold`` close; when it passed only the
        two requests about the same material (:func:`~caches.semantic_choice.verify_beside_material`), they must
        reach the thresholds two questions of their own would (``close_threshold`` if verification found them close,
        else ``threshold``). Past the lookup's deadline the answer is no (a miss)."""
        cfg = self._config
        if not cfg.verify:
            return True
        whole = verify(self._features(query), self._features(cached))
        if whole.ok and (whole.close or cfg.reworded_part_threshold is None):
            return True
        if whole.ok:
            parts, needed = differing_parts(query, cached), cfg.reworded_part_threshold
            if parts is None:
                return True
        else:
            parts = differing_requests(query, cached)
            if parts is None:
                return False
            needed = close_threshold if verify(self._features(parts[0]), self._features(parts[1])).close else threshold
        vectors = []
        for part in parts:
            found = await (self._vector_within(part, deadline) if deadline is not None else self._lookup_vector(part))
            if isinstance(found, str):
                return False
            vectors.append(np.asarray(found, dtype=np.float32).reshape(-1))
        return float(vectors[0] @ vectors[1]) >= needed

    async def entry(self, entry_id: int) -> CacheHit | None:
        """Read one entry by id (admin/inspection; no TTL, version or checksum checks, no hit
        recorded). Raises on database failure."""
        async with self._sessions() as session:
            row = (
                await session.execute(
                    select(_T.response, _T.model, _T.model_version, _T.created_at, _T.query_text).where(
                        _T.id == entry_id
                    )
                )
            ).one_or_none()
        if row is None:
            return None
        return CacheHit(
            body=row.response,
            kind="semantic",
            entry_id=str(entry_id),
            model=row.model,
            model_version=row.model_version,
            created_at=row.created_at,
            matched_query=row.query_text,
        )

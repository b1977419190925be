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
``deadline``, ``queue_full``, ``error`` (the embedder failed). The write-back (:meth:`put`) reuses
the lookup's vector; when it must embed, it queues at the lowest priority and is shed
(:attr:`SemanticCache.writebacks_shed`) when that queue is full.

The request path avoids ORM sessions: the lookup's reads are prebuilt Core statements on pooled
connections, and stores go through a :class:`caches.writes.WriteBatcher`: concurrent write-backs
share one upsert (an executemany returning the row ids), one commit and one index update. A
store returns once its row is committed and its vector indexed (a lookup after it sees it); a
full write queue sheds the write-back like a full embedding queue.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial
from types import MappingProxyType
from typing import Any, TypeVar

import numpy as np
from sqlalchemy import and_, bindparam, case, delete, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from caches.batching import EmbeddingBatcher, Priority, QueueFull
from caches.config import SemanticCacheConfig
from caches.db import (
    SizeTracker,
    TouchBuffer,
    as_sessionmaker,
    count_rows,
    engine_of,
    lru_victims,
    sha256_hex,
    upsert_statement,
    write_touches,
)
from caches.embedder import Embedder
from caches.index import ScopedIndex
from caches.keys import RequestKeys, canonical_json
from caches.lexicon import default_lexicon
from caches.models import SemanticCacheEntry
from caches.types import SKIP_REASONS, CacheError, CacheHit, CacheStats
from caches.verify import TextFeatures, extract_features, verify
from caches.writes import WriteBatcher, WriteQueueFull

__all__ = [
    "CONTESTED",
    "SKIP_REASONS",
    "Candidate",
    "SemanticCache",
    "SemanticItem",
    "answer_fingerprint",
    "choose",
    "entry_key",
]

logger = logging.getLogger(__name__)

_T = SemanticCacheEntry
_R = TypeVar("_R")
_LOAD_BATCH = 2000
_DELETE_CHUNK = 500
_SYNC_OVERLAP_S = 300.0
_ROW_COLUMNS = ("entry_key", "scope", "tenant", "model", "model_version", "query_text", "embedding", "embedding_dim",
                "embedder", "response", "response_sha256", "answer_sha256", "size_bytes", "created_at",
                "expires_at", "last_access_at", "hits")
# the lookup's reads: prebuilt statements (compiled once per engine), the ids bound at execution
_CANDIDATE_ROWS = select(
    _T.id, _T.scope, _T.query_text, _T.answer_sha256, _T.model_version, _T.expires_at, _T.embedder
).where(_T.id.in_(bindparam("ids", expanding=True)))
_ANSWER_ROW = select(
    _T.response, _T.response_sha256, _T.model, _T.model_version, _T.created_at
).where(_T.id == bindparam("id"))


CONTESTED = "contested"
"""``answer_sha256`` of a row whose question was stored again, in the same scope and for the same
model version, with a different answer: the answer is not determined by the question (sampling
noise, a time-dependent answer, or two sources disagreeing), so no paraphrase may be served from
it, and it makes nearby queries ambiguous. The row stays (so later stores of the same question
keep it contested) until it expires or the model version changes. Never a hex digest."""


def _contested_answer(excluded: Any) -> Any:
    """SQL for ``answer_sha256`` when a store replaces an existing row (see :data:`CONTESTED`)."""
    current = _T.__table__.c
    return case(
        (
            and_(
                current.model_version == excluded.model_version,
                or_(current.expires_at.is_(None), current.expires_at > excluded.created_at),
                current.answer_sha256 != excluded.answer_sha256,
            ),
            CONTESTED,
        ),
        else_=excluded.answer_sha256,
    )


_CONTEST_RULE = MappingProxyType({"answer_sha256": _contested_answer})


def _contests(earlier: dict[str, Any], later: dict[str, Any]) -> bool:
    """Two row values for one question (same batch): the same model version, different answers."""
    return (
        earlier["model_version"] == later["model_version"]
        and earlier["answer_sha256"] != later["answer_sha256"]
    )


def entry_key(scope: str, query: str) -> str:
    """Unique key of a (scope, question) row."""
    return sha256_hex(f"{scope}\x00{query}".encode())


@dataclass(frozen=True, slots=True)
class Candidate:
    """A cached question close to the query: row id, cosine similarity, text, answer fingerprint."""

    entry_id: int
    similarity: float
    query_text: str
    answer_sha256: str


def answer_fingerprint(body: bytes) -> str:
    """SHA-256 of what the model answered (per choice: message content and tool calls, or text),
    ignoring ``id``, ``created``, ``usage`` and the like; of the raw bytes if not a completion."""
    try:
        parsed = json.loads(body)
        choices = parsed["choices"]
        parts = [
            [
                c.get("index"),
                (c.get("message") or {}).get("content"),
                (c.get("message") or {}).get("tool_calls"),
                c.get("text"),
            ]
            for c in choices
        ]
        return sha256_hex(canonical_json(parts).encode("utf-8"))
    except (ValueError, KeyError, TypeError, AttributeError):
        return sha256_hex(body)


@dataclass(frozen=True, slots=True)
class SemanticItem:
    """One entry for :meth:`SemanticCache.put_many` (``vector``: precomputed unit embedding)."""

    keys: RequestKeys
    response: bytes | str
    model_version: str
    vector: np.ndarray | None = None


def choose(
    query: str,
    candidates: Sequence[Candidate],
    *,
    threshold: float,
    ambiguity_margin: float,
    verify_candidates: bool = True,
    features: Callable[[str], TextFeatures] = extract_features,
) -> Candidate | None:
    """Pick the candidate that may answer ``query``, or ``None``.

    Candidates failing verification are discarded. The best remaining one must reach
    ``threshold`` and is refused when

    - it is *contested* (the same question was answered differently in its scope, see
      :data:`CONTESTED`): the answer is not a function of the question;
    - a discarded candidate with another answer scored above it: the query is closest to a
      question that verification rejected, so falling through to a farther one would answer a
      different question (verification also rejects true paraphrases; the fallback is then wrong);
    - another remaining candidate with a different answer (or a contested one) scores within
      ``ambiguity_margin`` of it: the query sits between two cached questions.
    """
    ranked = sorted(candidates, key=lambda c: c.similarity, reverse=True)
    if not ranked or ranked[0].similarity < threshold:
        return None
    verified = ranked
    if verify_candidates:
        qf = features(query)
        verified = [
            c for c in ranked if verify(qf, features(c.query_text)).ok
        ]
    if not verified or verified[0].similarity < threshold:
        return None
    best = verified[0]
    if best.answer_sha256 == CONTESTED:
        return None
    if best is not ranked[0] and ranked[0].answer_sha256 != best.answer_sha256:
        # the closest cached question was rejected: never fall through to a farther one with
        # another answer (verification also rejects true paraphrases; the fallback is then wrong)
        return None
    for other in verified[1:]:
        if other.similarity < best.similarity - ambiguity_margin:
            break
        if other.answer_sha256 != best.answer_sha256:
            return None
    return best


def _as_bytes(response: bytes | str) -> bytes:
    return response.encode("utf-8") if isinstance(response, str) else bytes(response)


def _add_to_index(index: ScopedIndex, by_scope: dict[str, tuple[list[int], list[bytes]]]) -> None:
    """Add float32 embedding bytes to their scopes' partitions (in the cache's thread pool)."""
    for scope, (ids, blobs) in by_scope.items():
        index.add(scope, ids, np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(ids), index.dim))


class SemanticCache:
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
        self._shed = 0
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

    async def _vector_for(self, text: str, priority: Priority = "lookup") -> np.ndarray:
        """``text``'s vector from the batcher (memoised, or in a shared forward)."""
        return await self._batcher.submit(text, priority)

    async def _lookup_vector(self, query: str) -> np.ndarray:
        await self._ensure_started()
        return await self._vector_for(query)

    async def _vector_within(self, query: str, deadline: float) -> np.ndarray | str:
        """The query's vector, or the reason it is not ready by ``deadline`` (``time.perf_counter``).

        Waiting stops at the deadline; the start-up or forward it waited for goes on in the
        background (a later write-back of the same text then finds the vector memoised)."""
        vector = self._batcher.cached(query) if self._index is not None else None
        if vector is not None:
            return vector
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            return "deadline"
        work = asyncio.ensure_future(self._lookup_vector(query))
        work.add_done_callback(lambda task: task.cancelled() or task.exception())
        try:
            return await asyncio.wait_for(asyncio.shield(work), remaining)
        except TimeoutError:
            return "deadline"
        except QueueFull:
            return "queue_full"
        except Exception as exc:
            logger.warning("semantic cache: embedding the query failed, treating as a miss: %r", exc)
            return "error"

    def _skip(self, reason: str, on_skip: Callable[[str], None] | None) -> None:
        self._skipped[reason] += 1
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

    # --- start-up / shutdown ---------------------------------------------------------------

    async def start(self) -> int:
        """Load every live row of this embedder into a fresh index; returns the vector count."""
        async with self._start_lock:
            if self._index is not None:
                return len(self._index)
            dim = int(await self._run(lambda: self._embedder.dim))
            if self._config.verify:  # open WordNet here, not inside the first lookup on the event loop
                await self._run(default_lexicon)
            index = ScopedIndex(dim, self._config.index)
            started = self._clock()
            loaded = await self._load_rows(index, dim, since=None)
            self._index = index
            self._last_sync = started
            await self.stats()
            logger.info("semantic cache index rebuilt: %d vectors in %d scopes", loaded, index.scope_count())
            return loaded

    async def _ensure_started(self) -> ScopedIndex:
        if self._index is None:
            await self.start()
        assert self._index is not None
        return self._index

    async def _load_rows(self, index: ScopedIndex, dim: int, *, since: float | None) -> int:
        """Add live rows (of this embedder, optionally created since ``since``) that the index lacks."""
        loaded = 0
        last_id = -1
        now = self._clock()
        by_scope: dict[str, tuple[list[int], list[bytes]]] = {}
        while True:
            stmt = (
                select(_T.id, _T.scope, _T.embedding)
                .where(
                    _T.id > last_id,
                    _T.embedder == self._config.embedder_id,
                    _T.embedding_dim == dim,
                    (_T.expires_at.is_(None)) | (_T.expires_at > now),
                )
                .order_by(_T.id)
                .limit(_LOAD_BATCH)
            )
            if since is not None:
                stmt = stmt.where(_T.created_at >= since)
            async with self._sessions() as session:
                rows = (await session.execute(stmt)).all()
            if not rows:
                break
            last_id = rows[-1].id
            for row in rows:
                if since is not None and row.id in index:
                    continue
                if len(row.embedding) != dim * 4:
                    logger.warning("semantic cache row %d has a malformed embedding; skipped", row.id)
                    continue
                ids, blobs = by_scope.setdefault(row.scope, ([], []))
                ids.append(row.id)
                blobs.append(row.embedding)
            if since is not None:  # sync: add batch by batch
                loaded += await self._add_blobs(index, dim, by_scope)
                by_scope = {}
        # start-up: one add per scope, so a large scope is trained once, on all its vectors
        return loaded + await self._add_blobs(index, dim, by_scope)

    async def _add_blobs(
        self, index: ScopedIndex, dim: int, by_scope: dict[str, tuple[list[int], list[bytes]]]
    ) -> int:
        added = 0
        for scope, (ids, blobs) in by_scope.items():
            vectors = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(ids), dim)
            await self._run(index.add, scope, ids, vectors)
            added += len(ids)
        return added

    async def aclose(self) -> None:
        """Flush buffered hit counts and stop the thread pool."""
        if self._closed:
            return
        self._closed = True
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
        and reported to ``on_skip(reason)``; and a scope with no vector is a miss without
        embedding the query (its write-back embeds it, at the lowest priority). Never raises.
        """
        try:
            cfg = self._config
            threshold = cfg.threshold if threshold is None else threshold
            if arrived is not None and vector is None:
                query = keys.query
                if not cfg.enabled or query is None or not query.strip():
                    return None
                if len(query) > cfg.max_query_chars:
                    self._skip("too_long", on_skip)
                    return None
                if self._index is not None and self._index.scope_size(keys.scope) == 0:
                    return None  # nothing cached in this scope (e.g. a new conversation's turn): no embedding
                if cfg.lookup_deadline_s is not None:
                    found = await self._vector_within(query, arrived + cfg.lookup_deadline_s)
                    if isinstance(found, str):
                        self._skip(found, on_skip)
                        return None
                    vector = found
            cands = await self.candidates(
                keys, model_version=model_version, vector=vector, min_similarity=threshold
            )
            if not cands:
                return None
            best = choose(
                keys.query or "",
                cands,
                threshold=threshold,
                ambiguity_margin=cfg.ambiguity_margin,
                verify_candidates=cfg.verify,
                features=self._features,
            )
            if best is None:
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

    # --- store -----------------------------------------------------------------------------

    def _row_values(
        self,
        keys: RequestKeys,
        query: str,
        body: bytes,
        model_version: str,
        vec: np.ndarray,
        now: float,
        ttl: float | None,
    ) -> dict[str, Any]:
        embedding = vec.astype(np.float32).tobytes()
        return {
            "entry_key": entry_key(keys.scope, query),
            "scope": keys.scope,
            "tenant": keys.tenant,
            "model": keys.model,
            "model_version": model_version,
            "query_text": query,
            "embedding": embedding,
            "embedding_dim": int(vec.shape[0]),
            "embedder": self._config.embedder_id,
            "response": body,
            "response_sha256": sha256_hex(body),
            "answer_sha256": answer_fingerprint(body),
            "size_bytes": len(body) + len(query.encode("utf-8")) + len(embedding),
            "created_at": now,
            "expires_at": None if ttl is None else now + ttl,
            "last_access_at": now,
            "hits": 0,
        }

    def _refuse(self, body: bytes, query: str, *, validate: bool = True) -> str | None:
        size = len(body) + len(query.encode("utf-8"))
        if size > self._config.max_entry_bytes:
            return f"oversized entry ({size} bytes > {self._config.max_entry_bytes})"
        if validate and not isinstance(json.loads(body), dict):
            return "response is not a JSON object"
        return None

    async def put(
        self,
        keys: RequestKeys,
        response: bytes | str,
        *,
        model_version: str,
        vector: np.ndarray | None = None,
        ttl_s: float | None = None,
        validate: bool = True,
    ) -> bool:
        """Store the answer of ``keys.query`` in ``keys.scope``; ``True`` when stored.

        Replaces an earlier answer to the same question in the same scope. ``ttl_s`` overrides the
        configured TTL; ``validate=False`` skips the JSON check (caller already parsed it). Refuses (``False`` and a log line) oversized or non-JSON responses and
        questions the cache does not take (see ``max_query_chars``). Never raises.
        """
        query = self._eligible_text(keys)
        if query is None:
            return False
        try:
            body = _as_bytes(response)
            reason = self._refuse(body, query, validate=validate)
            if reason is not None:
                logger.warning("semantic cache: refusing entry: %s", reason)
                return False
            await self._ensure_started()
            if vector is not None:
                vec = self._check_vector(vector)
            else:
                try:
                    vec = await self._vector_for(query, "store")
                except QueueFull:
                    self._shed += 1
                    logger.debug("semantic cache: write-back shed (the embedding queue is full)")
                    return False
            now = self._clock()
            ttl = self._config.ttl_s if ttl_s is None else ttl_s
            values = self._row_values(keys, query, body, model_version, vec, now, ttl)
            try:
                await self._writer.submit(values)
            except WriteQueueFull:
                self._shed += 1
                logger.debug("semantic cache: write-back shed (too many rows waiting to be written)")
                return False
            self._size.add(values["size_bytes"])
        except Exception as exc:
            logger.warning("semantic cache store failed, response not cached: %r", exc)
            return False
        await self._after_store()
        return True

    async def _write_rows(self, rows: list[dict[str, Any]]) -> list[int | BaseException]:
        """Upsert the rows of concurrent stores in one transaction, then add their vectors to the
        index (the writer's ``write``); returns each row's id."""
        index = self._index
        assert index is not None  # put starts the cache before it queues a row
        latest: dict[str, dict[str, Any]] = {}
        for values in rows:
            earlier = latest.get(values["entry_key"])
            if earlier is not None and _contests(earlier, values):
                values = {**values, "answer_sha256": CONTESTED}
            latest[values["entry_key"]] = values  # one question stored twice in a batch: the later answer is kept
        async with self._engine.begin() as conn:
            stmt = self._upserts.get(conn.dialect.name)
            if stmt is None:
                stmt = self._upserts[conn.dialect.name] = upsert_statement(
                    conn.dialect.name, _T.__table__, None, conflict_columns=["entry_key"],
                    update_columns=[c for c in _ROW_COLUMNS if c != "entry_key"], overrides=_CONTEST_RULE,
                ).returning(_T.entry_key, _T.id)
            ids = {row.entry_key: int(row.id) for row in await conn.execute(stmt, list(latest.values()))}
        by_scope: dict[str, tuple[list[int], list[bytes]]] = {}
        for values in latest.values():
            scope_ids, blobs = by_scope.setdefault(values["scope"], ([], []))
            scope_ids.append(ids[values["entry_key"]])
            blobs.append(values["embedding"])
        try:
            await self._run(_add_to_index, index, by_scope)
        except Exception as exc:  # committed, not searchable: each store fails (maintenance's sync adds it later)
            return [exc] * len(rows)
        return [ids[values["entry_key"]] for values in rows]

    async def put_many(self, items: Sequence[SemanticItem], *, ttl_s: float | None = None) -> int:
        """Store many entries at once (bulk import, warm-up, benchmarks); returns how many stored.

        Items without a vector are embedded in one batch. Ineligible or refused items are skipped
        with a log line. Raises on database failure (unlike :meth:`put`).
        """
        index = await self._ensure_started()
        prepared: list[tuple[SemanticItem, str, bytes]] = []
        for item in items:
            query = self._eligible_text(item.keys)
            if query is None:
                continue
            body = _as_bytes(item.response)
            reason = self._refuse(body, query)
            if reason is not None:
                logger.warning("semantic cache: refusing entry: %s", reason)
                continue
            prepared.append((item, query, body))
        missing = [q for it, q, _ in prepared if it.vector is None]
        embedded = iter(await self.embed(missing)) if missing else iter(())
        now = self._clock()
        ttl = self._config.ttl_s if ttl_s is None else ttl_s
        rows: dict[str, dict[str, Any]] = {}
        for item, query, body in prepared:
            vec = self._check_vector(item.vector) if item.vector is not None else next(embedded)
            values = self._row_values(item.keys, query, body, item.model_version, vec, now, ttl)
            earlier = rows.get(values["entry_key"])
            if earlier is not None and _contests(earlier, values):
                values["answer_sha256"] = CONTESTED
            rows[values["entry_key"]] = values  # a repeated question: the last response is kept
        values_list = list(rows.values())
        stored = 0
        for i in range(0, len(values_list), 500):
            chunk = values_list[i : i + 500]
            async with self._sessions() as session:
                conn = await session.connection()
                stmt = upsert_statement(
                    conn.dialect.name,
                    _T.__table__,
                    chunk,
                    conflict_columns=["entry_key"],
                    update_columns=[c for c in chunk[0] if c != "entry_key"],
                    overrides=_CONTEST_RULE,
                )
                await session.execute(stmt)
                found = await session.execute(
                    select(_T.entry_key, _T.id).where(_T.entry_key.in_([v["entry_key"] for v in chunk]))
                )
                ids = {row.entry_key: row.id for row in found}
                await session.commit()
            by_scope: dict[str, tuple[list[int], list[bytes]]] = {}
            for v in chunk:
                scope_ids, blobs = by_scope.setdefault(v["scope"], ([], []))
                scope_ids.append(ids[v["entry_key"]])
                blobs.append(v["embedding"])
            for scope, (scope_ids, blobs) in by_scope.items():
                vectors = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(scope_ids), index.dim)
                await self._run(index.add, scope, scope_ids, vectors)
            stored += len(chunk)
            for v in chunk:
                self._size.add(v["size_bytes"])
        await self._after_store()
        return stored

    async def _after_store(self) -> None:
        try:
            cfg = self._config
            if self._size.needs_recount(
                self._clock(), cfg.recount_interval_s, cfg.max_entries, cfg.max_bytes
            ):
                await self.enforce_limits()
            elif len(self._touches) >= 256:
                await self.flush_touches()
        except Exception as exc:
            logger.warning("semantic cache maintenance after store failed: %r", exc)

    # --- maintenance -----------------------------------------------------------------------

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

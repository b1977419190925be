"""How rows get into the semantic cache's index: start-up loads every live row into a fresh index, and
the candidate gate's keys of every row are computed at once for a small cache or in the background for
a large one; replica sync reuses the row loading; rows stored without a vector are embedded on demand
(in the forward of a lookup that could match them) and their vectors recorded.

A mixin of :class:`caches.semantic.SemanticCache`, which owns the state it uses (sessions, clock, config,
embedder, thread pool); kept apart so that each module stays readable.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

import numpy as np
from sqlalchemy import bindparam, select, update

from caches.batching import QueueFull
from caches.candidate_gate import CandidateGate, gate_keys
from caches.index import ScopedIndex
from caches.lexicon import Lexicon, default_lexicon
from caches.models import SemanticCacheEntry

__all__ = ["SemanticLoading"]

logger = logging.getLogger("caches.semantic")

_T = SemanticCacheEntry
_LOAD_BATCH = 2000
_KEYS_AT_START = 2000  # rows whose gate keys start() computes itself; above, in the background
_KEYS_CHUNK = 100  # rows per turn in the thread pool (~30 ms): lookups' work interleaves
_KeylessRow = tuple[int, str, str, bool]  # id, scope, question, stored without a vector
_FILL_VECTOR = (
    update(_T)
    .where(_T.id == bindparam("row_id"), _T.embedding_dim == 0, _T.embedder == bindparam("embedder_id"))
    .values(embedding=bindparam("vector"), embedding_dim=bindparam("dim"), size_bytes=_T.size_bytes + bindparam("grown"))
)


class SemanticLoading:
    """Start-up and row loading of :class:`caches.semantic.SemanticCache` (a mixin)."""

    async def start(self) -> int:
        """Load every live row of this embedder into a fresh index; returns the entries loaded
        (with a vector, or stored without one and kept by the gate)."""
        async with self._start_lock:
            if self._index is not None:
                return _entry_count(self._index)
            dim = int(await self._run(lambda: self._embedder.dim))
            gate = None
            if self._config.verify:  # open WordNet here, not inside the first lookup on the event loop
                gate = CandidateGate(_synonym_keys(await self._run(default_lexicon)), complete=False)
            index = ScopedIndex(dim, self._config.index, gate)
            started = self._clock()
            keyless: list[_KeylessRow] = []
            loaded = await self._load_rows(index, dim, since=None, keyless=keyless)
            self._index = index
            self._last_sync = started
            if gate is not None:
                if len(keyless) <= _KEYS_AT_START:
                    await self._warm_gate(gate, keyless)
                else:  # a large cache: serve (without proved misses) while the keys are computed
                    self._warmup = asyncio.ensure_future(self._warm_gate(gate, keyless))
            await self.stats()
            logger.info("semantic cache index rebuilt: %d entries (%d vectors) in %d scopes%s", loaded, len(index),
                        index.scope_count(), "" if gate is None or gate.complete else
                        f"; verification keys of {len(keyless)} rows being computed in the background")
            return loaded

    async def _ensure_started(self) -> ScopedIndex:
        if self._index is None:
            await self.start()
        assert self._index is not None
        return self._index

    async def _load_rows(self, index: ScopedIndex, dim: int, *, since: float | None,
                         keyless: list[_KeylessRow] | None = None) -> int:
        """Add live rows (of this embedder, optionally created since ``since``) that the index lacks;
        returns how many (with a vector, or without one yet). Their gate keys are computed here, or,
        with ``keyless``, left to the caller: the rows are appended to it."""
        loaded = 0
        last_id = -1
        now = self._clock()
        by_scope: dict[str, tuple[list[int], list[bytes]]] = {}
        gate = index.gate
        while True:
            stmt = (
                select(_T.id, _T.scope, _T.embedding, _T.embedding_dim, _T.query_text)
                .where(
                    _T.id > last_id,
                    _T.embedder == self._config.embedder_id,
                    _T.embedding_dim.in_((0, dim)),
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
            if since is not None:  # what this replica lacks: a vector, or a pending row the gate does not hold
                rows = [row for row in rows if row.id not in index
                        and (row.embedding_dim != 0 or gate is None or row.id not in gate)]
            valid = [(row.id, row.scope, row.query_text, row.embedding_dim == 0) for row in rows
                     if row.embedding_dim == 0 or len(row.embedding) == dim * 4]
            if gate is not None and keyless is not None:
                keyless.extend(valid)
            elif gate is not None:  # the verification keys of every row, pending or not (CPU: off the loop)
                await self._run(self._gate_rows, gate, valid)
            for row in rows:
                if row.embedding_dim == 0:
                    loaded += gate is not None  # pending: kept by the gate (without one it cannot be found)
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

    def _gate_rows(self, gate: CandidateGate, rows: Sequence[_KeylessRow]) -> None:
        """Register loaded rows with the gate (in the thread pool): pending ones with their text."""
        for entry_id, scope, text, pending in rows:
            gate.add(scope, entry_id, gate_keys(self._features(text)), pending_text=text if pending else None)

    async def _warm_gate(self, gate: CandidateGate, rows: list[_KeylessRow]) -> None:
        """Compute the gate keys of the rows loaded at start-up, a chunk at a time, then let the gate
        prove misses (until then every lookup runs the model)."""
        try:
            for at in range(0, len(rows), _KEYS_CHUNK):
                await self._run(self._gate_rows, gate, rows[at:at + _KEYS_CHUNK])
        except Exception as exc:  # the gate stays incomplete: lookups run the model, as without it
            logger.warning("semantic cache: computing verification keys at start-up failed: %r", exc)
            return
        gate.mark_complete()

    async def _add_blobs(
        self, index: ScopedIndex, dim: int, by_scope: dict[str, tuple[list[int], list[bytes]]]
    ) -> int:
        added = 0
        for scope, (ids, blobs) in by_scope.items():
            vectors = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(ids), dim)
            await self._run(index.add, scope, ids, vectors)
            if index.gate is not None:  # a row this replica held without a vector, filled by another
                index.gate.embedded(ids)
            added += len(ids)
        return added
    async def _fill_pending(self, scope: str, pending: Sequence[tuple[int, str]]) -> None:
        """Embed entries stored without a vector (in the forward of the lookup that found them),
        add them to the index, then record the vectors in their rows in the background. Never raises:
        an entry whose vector could not be computed stays pending."""
        futures: list[tuple[int, asyncio.Future]] = []
        for entry_id, text in pending:
            try:
                futures.append((entry_id, self._batcher.submit(text, "lookup")))
            except QueueFull:
                break
        done: list[tuple[int, np.ndarray]] = []
        for entry_id, future in futures:
            try:
                done.append((entry_id, await asyncio.shield(future)))  # shared with other lookups
            except Exception as exc:  # noqa: BLE001 - the entry stays pending; a later lookup retries
                logger.debug("semantic cache: embedding a stored question failed: %r", exc)
        index = self._index
        if not done or index is None or index.gate is None:
            return
        ids = [entry_id for entry_id, _ in done]
        try:
            await self._run(index.add, scope, ids, np.stack([vector for _, vector in done]))
        except Exception as exc:
            logger.warning("semantic cache: indexing stored questions failed: %r", exc)
            return
        self._filled += len(index.gate.embedded(ids))
        self._track(self._record_vectors(done))

    async def _record_vectors(self, done: Sequence[tuple[int, np.ndarray]]) -> None:
        """Write computed vectors into rows stored without one (a row refilled meanwhile is kept)."""
        try:
            async with self._engine.begin() as conn:
                await conn.execute(_FILL_VECTOR, [
                    {"row_id": entry_id, "vector": vector.astype(np.float32).tobytes(), "dim": int(vector.shape[0]),
                     "grown": int(vector.shape[0]) * 4, "embedder_id": self._config.embedder_id}
                    for entry_id, vector in done
                ])
        except Exception as exc:  # the index has them; after a restart they are embedded again on demand
            logger.warning("semantic cache: recording %d computed vectors failed: %r", len(done), exc)


def _synonym_keys(lexicon: Lexicon | None) -> Callable[[str], frozenset]:
    """The gate's synonym keys: WordNet's, or the word alone when WordNet is not installed (the
    verifier then knows no synonyms either)."""
    if lexicon is not None:
        return lexicon.synonym_keys
    return lambda word: frozenset({("w", word)})


def _entry_count(index: ScopedIndex) -> int:
    """Entries an index holds: its vectors, or the gate's entries (which include them) when kept."""
    return len(index) if index.gate is None else len(index.gate)

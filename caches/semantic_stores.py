"""The semantic cache's stores: one write-back (:meth:`SemanticStores.put`, group-committed through the
cache's :class:`caches.writes.WriteBatcher`) and bulk imports (:meth:`SemanticStores.put_many`).

A mixin of :class:`caches.semantic.SemanticCache`, which owns the state it uses (configuration, clock,
index, embedding batcher, writer, size tracker) and the lookup side; kept apart so that each module
stays readable.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sqlalchemy import select

from caches.batching import QueueFull
from caches.candidate_gate import gate_keys
from caches.db import sha256_hex, upsert_statement
from caches.index import ScopedIndex
from caches.keys import RequestKeys
from caches.models import SemanticCacheEntry
from caches.semantic_choice import CONTESTED, answer_fingerprint, entry_key
from caches.semantic_rows import CONTEST_RULE, ROW_COLUMNS, add_to_index, as_bytes, contests
from caches.writes import WriteQueueFull

__all__ = ["SemanticItem", "SemanticStores"]

logger = logging.getLogger("caches.semantic")

_T = SemanticCacheEntry


@dataclass(frozen=True, slots=True)
class SemanticItem:
    """One entry for :meth:`SemanticCache.put_many` (``vector``: precomputed unit embedding)."""

    keys: RequestKeys
    response: bytes | str
    model_version: str
    vector: np.ndarray | None = None


class SemanticStores:
    """Store side of :class:`caches.semantic.SemanticCache` (a mixin; see the module docstring)."""


    def _row_values(
        self,
        keys: RequestKeys,
        query: str,
        body: bytes,
        model_version: str,
        vec: np.ndarray | None,
        now: float,
        ttl: float | None,
    ) -> dict[str, Any]:
        """The row of one entry; ``vec`` ``None``: stored without a vector (pending, see
        :mod:`caches.candidate_gate`)."""
        embedding = b"" if vec is None else vec.astype(np.float32).tobytes()
        return {
            "entry_key": entry_key(keys.scope, query),
            "scope": keys.scope,
            "tenant": keys.tenant,
            "model": keys.model,
            "model_version": model_version,
            "query_text": query,
            "embedding": embedding,
            "embedding_dim": 0 if vec is None else int(vec.shape[0]),
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
            body = as_bytes(response)
            reason = self._refuse(body, query, validate=validate)
            if reason is not None:
                logger.warning("semantic cache: refusing entry: %s", reason)
                return False
            await self._ensure_started()
            vec: np.ndarray | None
            if vector is not None:
                vec = self._check_vector(vector)
            elif self._lazy():
                # the lookup's vector if it has one (memoised, or its forward still running); else
                # none: the entry is embedded when a later query could match it
                joined = self._batcher.joinable(query)
                try:
                    vec = None if joined is None else await asyncio.shield(joined)  # shared with its lookup
                except Exception:  # noqa: BLE001 - that forward failed (logged there): store without a vector
                    vec = None
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
            if earlier is not None and contests(earlier, values):
                values = {**values, "answer_sha256": CONTESTED}
            latest[values["entry_key"]] = values  # one question stored twice in a batch: the later answer is kept
        async with self._engine.begin() as conn:
            stmt = self._upserts.get(conn.dialect.name)
            if stmt is None:
                stmt = self._upserts[conn.dialect.name] = upsert_statement(
                    conn.dialect.name, _T.__table__, None, conflict_columns=["entry_key"],
                    update_columns=[c for c in ROW_COLUMNS if c != "entry_key"], overrides=CONTEST_RULE,
                ).returning(_T.entry_key, _T.id)
            ids = {row.entry_key: int(row.id) for row in await conn.execute(stmt, list(latest.values()))}
        by_scope: dict[str, tuple[list[int], list[bytes]]] = {}
        for values in latest.values():
            if values["embedding"]:
                scope_ids, blobs = by_scope.setdefault(values["scope"], ([], []))
                scope_ids.append(ids[values["entry_key"]])
                blobs.append(values["embedding"])
        try:
            # the gate first: an indexed vector whose keys the gate lacks could make it prove a wrong miss
            self._register(index, [(ids[v["entry_key"]], v) for v in latest.values()])
            if by_scope:  # (rows stored without a vector add none: no hop to the index's thread)
                await self._run(add_to_index, index, by_scope)
        except Exception as exc:  # committed, not searchable: each store fails (maintenance's sync adds it later)
            return [exc] * len(rows)
        return [ids[values["entry_key"]] for values in rows]

    def _register(self, index: ScopedIndex, rows: Sequence[tuple[int, dict[str, Any]]]) -> None:
        """Give the gate the verification keys of stored rows (those without a vector as pending)."""
        gate = index.gate
        if gate is None:
            return
        for entry_id, values in rows:
            query = values["query_text"]
            if not values["embedding"] and entry_id in index:
                continue  # the same question stored again without a vector: the index still has it
            gate.add(values["scope"], entry_id, gate_keys(self._features(query)),
                     pending_text=None if values["embedding"] else query)

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
            body = as_bytes(item.response)
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
            if earlier is not None and contests(earlier, values):
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
                    overrides=CONTEST_RULE,
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
            await self._run(self._register, index, [(ids[v["entry_key"]], v) for v in chunk])  # the gate first
            await self._run(add_to_index, index, by_scope)
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

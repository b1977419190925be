"""Request logging off the critical path: entries are queued and written in batches.

An entry may carry the routing-relevant part of its request (``routing_request``, only when
``[router] store_requests`` is on); the writer encodes it as JSON and stores it in the
``router_request`` table in the same transaction as the ``request_log`` row.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

import msgspec
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.db import RequestLog, RouterRequest

log = logging.getLogger(__name__)


@dataclass(slots=True)
class LogEntry:
    """What the proxy records about one request."""

    id: str
    key_id: str
    endpoint: str
    status_code: int
    model_requested: str | None = None
    model_served: str | None = None
    upstream: str | None = None
    stream: bool = False
    error: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None
    latency_ms: float | None = None
    ttft_ms: float | None = None
    cache_outcome: str | None = None
    route: str | None = None
    route_score: float | None = None
    cascade_outcome: str | None = None  # cascade mode: "accepted" | "escalated" | "escalation_failed"
    cost_usd: float | None = None
    saved_usd: float | None = None
    batch_id: str | None = None  # the batch job this request was a line of
    batch_saved_usd: float | None = None  # the batch discount's share of saved_usd
    finish_reason: str | None = None  # "length" when any choice was cut by the output limit
    max_tokens: int | None = None  # the output limit the request carried upstream, after capping
    cap: str | None = None  # "default" / "learned" (a limit was added) | "clamped" (lowered to the max)
    shaping: str | None = None  # the shaping mode and what it did, e.g. "safe,tools-canonical,volatile-moved:1"
    prompt_cluster: str | None = None  # 16 hex digits: model + stable system prompt + tool names (learned caps)
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    routing_request: dict[str, Any] | None = None  # not a request_log column: goes to router_request
    small_answer: str | None = None  # not a column: router_request.small_answer (cascade, stored bodies only)
    # not a column: what earlier upstream calls of this request cost (cascade mode's dropped small
    # answer); _finish adds it to cost_usd
    extra_cost_usd: float | None = None


#: Request fields the router's features read (``router.features``); only these are stored.
ROUTING_FIELDS: tuple[str, ...] = ("messages", "prompt", "tools", "functions", "response_format")


def routing_request_of(data: dict[str, Any]) -> dict[str, Any]:
    """The part of a request body that router training needs (no sampling parameters, no model)."""
    return {name: data[name] for name in ROUTING_FIELDS if data.get(name) is not None}


class RequestLogWriter:
    """Collects :class:`LogEntry` values and inserts them in batches from a background task."""

    def __init__(self, engine: AsyncEngine, flush_interval_s: float = 0.5, batch_size: int = 200,
                 max_pending: int = 100_000) -> None:
        self._engine = engine
        self._interval = flush_interval_s
        self._stopping = asyncio.Event()
        self._batch_size = batch_size
        self._queue: asyncio.Queue[LogEntry] = asyncio.Queue(maxsize=max_pending)
        self._task: asyncio.Task | None = None
        self.dropped = 0
        self.written = 0

    @property
    def engine(self) -> AsyncEngine:
        """The database the log is written to (learned caps read it back)."""
        return self._engine

    def record(self, entry: LogEntry) -> None:
        """Queue an entry; never blocks and never raises (a full queue drops with a log line)."""
        try:
            self._queue.put_nowait(entry)
        except asyncio.QueueFull:
            self.dropped += 1
            log.warning("request log queue full; dropped entry %s", entry.id)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="request-log-writer")

    async def _run(self) -> None:
        while True:
            first = await self._queue.get()
            if first is not _STOP:
                await self._accumulate()
            batch, stop = self._drain([first])
            await self._write(batch)
            if stop:
                return

    async def _accumulate(self) -> None:
        """Let a batch build up for one flush interval, cut short when ``close`` is called."""
        try:
            await asyncio.wait_for(self._stopping.wait(), timeout=self._interval)
        except TimeoutError:
            pass

    def _drain(self, batch: list) -> tuple[list[LogEntry], bool]:
        while not self._queue.empty():
            batch.append(self._queue.get_nowait())
        stop = any(e is _STOP for e in batch)
        return [e for e in batch if e is not _STOP], stop

    async def _write(self, entries: list[LogEntry]) -> None:
        for start in range(0, len(entries), self._batch_size):
            chunk = entries[start : start + self._batch_size]
            if await self._insert(chunk, quiet=True):
                continue
            # one bad row fails its whole batch: retry row by row so only the bad ones are lost
            for entry in chunk:
                if await self._insert([entry], quiet=True):
                    continue
                # a caller may send the same x-request-id twice: keep the row under a suffixed id
                entry.id = f"{entry.id[:52]}~{uuid.uuid4().hex[:11]}"
                await self._insert([entry], quiet=False)

    async def _insert(self, chunk: list[LogEntry], *, quiet: bool) -> bool:
        """Insert ``chunk`` in one transaction; ``False`` (logged unless ``quiet``) on failure."""
        try:
            rows, bodies = _split_rows(chunk)
            async with self._engine.begin() as conn:
                await conn.execute(insert(RequestLog), rows)
                if bodies:
                    await conn.execute(insert(RouterRequest), bodies)
        except Exception:  # noqa: BLE001 - logging must never take the proxy down
            if not quiet:
                self.dropped += len(chunk)
                log.exception("could not write %d request log entries", len(chunk))
            return False
        self.written += len(chunk)
        return True

    async def flush(self) -> None:
        """Write everything queued so far (used by tests and by ``close``)."""
        batch, _ = self._drain([])
        await self._write(batch)

    async def close(self) -> None:
        """Stop the background task after it has written every queued entry."""
        if self._task is not None:
            self._stopping.set()
            await self._queue.put(_STOP)
            await self._task
            self._task = None
        await self.flush()


_STOP = object()
_LOG_COLUMNS = tuple(f.name for f in fields(LogEntry)
                     if f.name not in ("routing_request", "small_answer", "extra_cost_usd"))


def _split_rows(entries: list[LogEntry]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``request_log`` rows and ``router_request`` rows (JSON-encoded here, off the request path)."""
    rows: list[dict[str, Any]] = []
    bodies: list[dict[str, Any]] = []
    for entry in entries:
        # the request_log columns, read directly: asdict() would deep-copy the routed body just to drop it
        rows.append({name: getattr(entry, name) for name in _LOG_COLUMNS})
        body = entry.routing_request
        if body is not None:
            bodies.append({"request_id": entry.id, "created_at": entry.created_at,
                           "request": msgspec.json.encode(body).decode(), "small_answer": entry.small_answer})
    return rows, bodies

"""Request logging off the critical path: entries are queued and written in batches.

An entry may carry the routing-relevant part of its request (``routing_request``, only when
``[router] store_requests`` is on); the writer encodes it as JSON and stores it in the
``router_request`` table in the same transaction as the ``request_log`` row.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import deque
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.storage.db import RequestLog, RouterRequest
from proxy.storage.request_journal import RequestJournal, orphans

log = logging.getLogger(__name__)


@dataclass(slots=True)
class LogEntry:
    """What the proxy records about one request."""

    id: str
    key_id: str
    endpoint: str
    status_code: int
    client_request_id: str | None = None  # the caller's x-request-id (``id`` is always the proxy's own)
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
    """Collects :class:`LogEntry` values and inserts them in batches from a background task.

    Each flush takes everything queued and writes it in chunks of ``batch_size`` rows, one transaction
    and one ``executemany`` per chunk; a row whose id is already stored is skipped (journal replays).
    With a ``journal`` every entry is first appended to a local file (:mod:`proxy.storage.request_journal`), so a
    killed process loses none of the rows it recorded: :meth:`replay` writes them at the next start.

    Back-pressure: once ``backpressure_rows`` entries wait for the database, :meth:`room` makes new
    requests wait (at most ``backpressure_max_wait_s`` each) until the queue is down to half of that;
    an entry is dropped, and counted, only when ``max_pending`` are queued.
    """

    def __init__(self, engine: AsyncEngine, flush_interval_s: float = 0.5, batch_size: int = 2000,
                 max_pending: int = 100_000, *, journal: RequestJournal | None = None,
                 backpressure_rows: int | None = None, backpressure_max_wait_s: float = 5.0) -> None:
        self._engine = engine
        self._interval = flush_interval_s
        self._stopping = asyncio.Event()
        self._batch_size = batch_size
        self._max_pending = max_pending
        self._queue: deque[LogEntry] = deque()
        self._wakeup = asyncio.Event()  # an entry arrived while the writer was idle, or a batch is full
        self._room = asyncio.Event()  # set while the queue is below the back-pressure low mark
        self._room.set()
        self._high = backpressure_rows if backpressure_rows is not None else max(1, max_pending // 4)
        self._low = self._high // 2
        self._max_wait = backpressure_max_wait_s
        self._journal = journal
        self._pending_segments: list[Path] = []
        self._flushing = asyncio.Lock()  # one flush at a time: a segment is deleted only after its rows commit
        self._task: asyncio.Task | None = None
        self._insert_stmt = _insert_ignoring_duplicates(engine)
        self.dropped = 0
        self.written = 0
        self.replayed = 0
        self.backpressure_waits = 0  # requests that waited for the writer
        self.backpressure_seconds = 0.0  # their total wait
        self._warned_full = False

    @property
    def engine(self) -> AsyncEngine:
        """The database the log is written to (learned caps read it back)."""
        return self._engine

    @property
    def pending(self) -> int:
        """Entries queued and not yet written."""
        return len(self._queue)

    @property
    def backpressure(self) -> bool:
        """Whether new requests are held back until the writer catches up."""
        return not self._room.is_set()

    def record(self, entry: LogEntry) -> None:
        """Journal and queue an entry; never blocks and never raises (a full queue drops it, counted)."""
        if len(self._queue) >= self._max_pending:
            self.dropped += 1
            if not self._warned_full:  # one line per episode, not one per row
                self._warned_full = True
                log.warning("request log queue full (%d entries); dropping entries, first %s", self._max_pending,
                            entry.id)
            return
        if self._journal is not None and self._journal.is_open:
            try:
                self._journal.append(_ENCODER.encode(entry) + b"\n")
            except Exception:  # noqa: BLE001 - a full disk must not fail the request; the row is still queued
                log.exception("could not append request %s to the request-log journal", entry.id)
        self._queue.append(entry)
        if len(self._queue) >= self._high:
            self._room.clear()
        if len(self._queue) >= self._batch_size or len(self._queue) == 1:
            self._wakeup.set()

    async def room(self) -> None:
        """Wait while the writer is behind (back-pressure); returns at once when it is not."""
        if self._room.is_set() or self._task is None:
            return
        self.backpressure_waits += 1
        started = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._room.wait(), timeout=self._max_wait)
        self.backpressure_seconds += time.monotonic() - started

    def start(self) -> None:
        """Open the journal and start the background writer."""
        if self._journal is not None and not self._journal.is_open:
            self._journal.open()
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="request-log-writer")

    async def replay(self) -> int:
        """Write the journals that dead processes left in the journal folder; the entries replayed (rows
        the database already held are skipped)."""
        if self._journal is None:
            return 0
        total = 0
        for orphan in orphans(self._journal.folder):
            entries: list[LogEntry] = []
            for line in orphan.lines():
                try:
                    entries.append(_DECODER.decode(line))
                except msgspec.DecodeError:  # a line cut short by the crash
                    log.warning("skipped an unreadable line of request-log journal %s", orphan.writer)
            before = self.written
            await self._write(entries)
            total += self.written - before
            orphan.release()
            log.info("replayed %d request-log entries left by an earlier process", len(entries))
        self.replayed += total
        return total

    async def _run(self) -> None:
        while not self._stopping.is_set():
            if not self._queue:
                self._wakeup.clear()
                await self._wait(self._wakeup, None)
            if len(self._queue) < self._batch_size:  # let a batch build up for one flush interval
                self._wakeup.clear()
                await self._wait(self._wakeup, self._interval)
            await self.flush()

    async def _wait(self, event: asyncio.Event, timeout: float | None) -> None:
        """Wait for ``event`` (or ``timeout``), cut short when ``close`` is called."""
        stop = asyncio.ensure_future(self._stopping.wait())
        woke = asyncio.ensure_future(event.wait())
        try:
            await asyncio.wait((stop, woke), timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
            woke.cancel()

    async def flush(self) -> None:
        """Write everything queued so far (used by tests and by ``close``)."""
        async with self._flushing:
            segment = self._journal.rotate() if self._journal is not None else None
            if segment is not None:  # it holds only entries queued before now: all of them are taken below
                self._pending_segments.append(segment)
            batch = list(self._queue)
            self._queue.clear()
            self._warned_full = False
            await self._write(batch)
            if len(self._queue) <= self._low:
                self._room.set()
            if self._journal is not None:  # their entries are in the database now (or counted as dropped)
                done, self._pending_segments = self._pending_segments, []
                self._journal.discard(done)

    async def _write(self, entries: list[LogEntry]) -> None:
        for start in range(0, len(entries), self._batch_size):
            chunk = entries[start : start + self._batch_size]
            if await self._insert(chunk, quiet=True):
                continue
            # one bad row fails its whole batch: retry row by row so only the bad ones are lost
            for entry in chunk:
                await self._insert([entry], quiet=False)

    async def _insert(self, chunk: list[LogEntry], *, quiet: bool) -> bool:
        """Insert ``chunk`` in one transaction; ``False`` (logged unless ``quiet``) on failure."""
        try:
            rows, bodies = _split_rows(chunk)
            async with self._engine.begin() as conn:
                await conn.execute(self._insert_stmt(RequestLog), rows)
                if bodies:
                    await conn.execute(self._insert_stmt(RouterRequest), bodies)
        except Exception:  # noqa: BLE001 - logging must never take the proxy down
            if not quiet:
                self.dropped += len(chunk)
                log.exception("could not write %d request log entries", len(chunk))
            return False
        self.written += len(chunk)
        return True

    async def close(self) -> None:
        """Stop the background task after it has written every queued entry, then close the journal."""
        if self._task is not None:
            self._stopping.set()
            await self._task
            self._task = None
        await self.flush()
        if self._journal is not None:
            if self._queue or self._pending_segments:  # pragma: no cover - flush leaves neither behind
                return  # keep the journal for the next start's replay
            self._journal.close()


def journal_folder(settings: Any) -> Path:
    """The request-log journal folder of ``settings``' database: under the data folder, one per database
    URL (two proxies sharing a data folder but not a database never replay each other's rows)."""
    digest = hashlib.sha256(settings.database_url.encode()).hexdigest()[:16]
    return settings.data_path / "request-log-journal" / digest


def _insert_ignoring_duplicates(engine: AsyncEngine):
    """``table -> INSERT`` that skips rows whose primary key is stored already (SQLite, PostgreSQL)."""
    dialect = engine.dialect.name
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as dialect_insert
    elif dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as dialect_insert
    else:  # pragma: no cover - only SQLite and PostgreSQL are supported
        return insert
    return lambda table: dialect_insert(table).on_conflict_do_nothing()


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(LogEntry)
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

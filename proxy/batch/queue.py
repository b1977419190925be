"""The durable batch queue: batch and per-line state in the database, claimed with leases.

Why our own tables and not a queue library: the queue must run on SQLite (one embedded worker) and
on PostgreSQL (several replicas), keep per-line state that the output file is built from, and let a
cancel or an expiry touch every waiting line of one batch at once. PostgreSQL-only queues
(procrastinate, pgqueuer) and broker queues (Celery, RQ, arq) do not run on SQLite, and none keeps
a job's result where a batch's output can be assembled from it; APScheduler's SQLAlchemy store
schedules jobs but has no leases. So lines live in ``batch_line``:

- ``pending`` → ``running`` by a claim that sets ``lease_owner`` and ``lease_until``. On PostgreSQL
  the candidates are read ``FOR UPDATE SKIP LOCKED``; on both databases the claim is a conditional
  UPDATE, so two workers never hold the same line.
- A worker renews the leases of its lines while they run. A line whose worker died (``kill -9``)
  becomes claimable again when its lease runs out.
- ``running`` → ``done`` only by the lease owner (conditional on ``lease_owner``), with the output
  or error line stored in the row; a retried line overwrites nothing.
- ``skipped``: never ran (the batch was cancelled or expired); its error line is stored too. A
  cancel skips every line no worker holds, at once and again on each worker pass, so a line handed
  back or left by a dead worker after the cancel cannot keep the batch ``cancelling``.

The output and error files are written from these rows in line order, so each ``custom_id``
appears exactly once, whatever crashed and was retried before.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from sqlalchemy import and_, case, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.batch.validation import BatchLineSpec, LineError
from proxy.storage.db import Batch, BatchLine

ACTIVE = ("validating", "in_progress", "finalizing", "cancelling")
FINAL = ("completed", "failed", "expired", "cancelled")
WINDOWS = {"24h": timedelta(hours=24)}
INSERT_CHUNK = 500
CANCELLED = ("batch_cancelled", "The batch was cancelled before this request ran.")  # code, message


def now_utc() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime | None) -> datetime | None:
    """SQLite returns naive datetimes (written in UTC); PostgreSQL aware ones."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


@dataclass(frozen=True, slots=True)
class ClaimedLine:
    """A line this worker holds a lease on."""

    batch_id: str
    line_no: int
    custom_id: str
    body: dict[str, Any]
    attempts: int  # including this one
    key_id: str
    endpoint: str


@dataclass(frozen=True, slots=True)
class LineCounts:
    total: int
    completed: int  # answered with a 2xx
    failed: int  # answered with an error (also lines that never ran: cancelled, expired)
    open: int  # pending or running


class BatchQueue:
    """Database operations on batches and their lines (no HTTP, no pipeline)."""

    def __init__(self, engine: AsyncEngine, owner: str | None = None, lease_s: float = 60.0) -> None:
        self._engine = engine
        self.owner = owner or "worker-" + uuid.uuid4().hex[:12]
        self.lease = timedelta(seconds=lease_s)
        self._postgres = engine.dialect.name == "postgresql"

    # --- batches ----------------------------------------------------------------------------

    async def create(self, key_id: str, input_file_id: str, endpoint: str, completion_window: str,
                     metadata: dict[str, str] | None, urgent: bool, now: datetime) -> Batch:
        batch = Batch(id="batch_" + uuid.uuid4().hex[:24], key_id=key_id, endpoint=endpoint,
                      input_file_id=input_file_id, completion_window=completion_window, status="validating",
                      metadata_json=msgspec.json.encode(metadata).decode() if metadata is not None else None,
                      errors_json=None, urgent=urgent, total=0, completed=0, failed=0, created_at=now,
                      expires_at=now + WINDOWS[completion_window])
        values = {c.name: getattr(batch, c.name) for c in Batch.__table__.columns}
        async with self._engine.begin() as conn:
            await conn.execute(Batch.__table__.insert().values(**values))
        return batch

    async def get(self, batch_id: str) -> Batch | None:
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(Batch).where(Batch.id == batch_id))).first()
        return Batch(**row._mapping) if row is not None else None

    async def list(self, key_id: str, after: str | None, limit: int) -> tuple[list[Batch], bool]:
        """``key_id``'s batches after the cursor ``after``, newest first; ``(batches, has_more)``.
        The service refuses a cursor that is not one of the key's batches before calling this."""
        query = select(Batch).where(Batch.key_id == key_id)
        if after:
            anchor = await self.get(after)
            if anchor is not None and anchor.key_id == key_id:
                query = query.where(or_(Batch.created_at < anchor.created_at,
                                        and_(Batch.created_at == anchor.created_at, Batch.id < anchor.id)))
        query = query.order_by(Batch.created_at.desc(), Batch.id.desc()).limit(limit + 1)
        async with self._engine.connect() as conn:
            rows = [Batch(**r._mapping) for r in (await conn.execute(query)).all()]
        return rows[:limit], len(rows) > limit

    async def any_active(self) -> bool:
        """Whether any batch still needs a worker (one indexed query: what an idle tick costs)."""
        async with self._engine.connect() as conn:
            return await conn.scalar(select(Batch.id).where(Batch.status.in_(ACTIVE)).limit(1)) is not None

    async def ids_in(self, status: str) -> list[str]:
        async with self._engine.connect() as conn:
            return list((await conn.execute(select(Batch.id).where(Batch.status == status))).scalars())

    async def start(self, batch_id: str, specs: Sequence[BatchLineSpec], now: datetime) -> bool:
        """``validating`` → ``in_progress`` with its lines queued, in one transaction (a replica that
        validated the same batch at the same time loses the conditional update and rolls back)."""
        async with self._engine.begin() as conn:
            moved = await conn.execute(update(Batch).where(Batch.id == batch_id, Batch.status == "validating")
                                       .values(status="in_progress", in_progress_at=now, total=len(specs)))
            if moved.rowcount != 1:
                await conn.rollback()
                return False
            for i in range(0, len(specs), INSERT_CHUNK):
                await conn.execute(BatchLine.__table__.insert(), [
                    {"batch_id": batch_id, "line_no": s.line_no, "custom_id": s.custom_id,
                     "body": msgspec.json.encode(s.body).decode(), "state": "pending", "attempts": 0,
                     "lease_owner": None, "lease_until": None, "is_error": False, "result": None,
                     "finished_at": None}
                    for s in specs[i : i + INSERT_CHUNK]])
        return True

    async def fail(self, batch_id: str, errors: Sequence[LineError], now: datetime) -> None:
        """``validating`` → ``failed`` with OpenAI's ``errors`` list; no line ever runs."""
        payload = msgspec.json.encode([e.as_dict() for e in errors]).decode()
        async with self._engine.begin() as conn:
            await conn.execute(update(Batch).where(Batch.id == batch_id, Batch.status == "validating")
                               .values(status="failed", failed_at=now, errors_json=payload))

    async def cancel(self, batch_id: str, now: datetime) -> str:
        """Ask to cancel: waiting lines are skipped, running ones finish; returns the new status.
        A batch that is already final (or finalizing) is returned unchanged."""
        async with self._engine.begin() as conn:
            # one conditional update, not a read then a write: a worker that moved the batch from validating to
            # in_progress between the two left it in_progress with its lines skipped (it then ended "completed")
            moved = await conn.execute(update(Batch).where(Batch.id == batch_id,
                                                           Batch.status.in_(("validating", "in_progress")))
                                       .values(status="cancelling", cancelling_at=now))
            if moved.rowcount == 1:
                await self._skip_waiting(conn, batch_id, *CANCELLED, now)
                return "cancelling"
            return str(await conn.scalar(select(Batch.status).where(Batch.id == batch_id)))

    async def skip_abandoned(self, now: datetime) -> list[str]:
        """Skip the lines of ``cancelling`` batches that no worker holds any more: lines handed back
        after the cancel (a retry after a transient failure, a graceful shutdown) and lines whose
        lease ran out (their worker was killed). :meth:`cancel` skips the waiting lines only once,
        and claims take lines of ``in_progress`` batches only, so without this pass such a batch
        would stay ``cancelling`` forever. Returns the batches looked at."""
        async with self._engine.connect() as conn:
            cancelling = list((await conn.execute(select(Batch.id).where(Batch.status == "cancelling"))).scalars())
        if not cancelling:
            return []
        async with self._engine.begin() as conn:
            for batch_id in cancelling:
                await self._skip_waiting(conn, batch_id, *CANCELLED, now)
        return cancelling

    async def expire_due(self, now: datetime) -> list[str]:
        """Batches past their completion window: waiting lines are skipped as expired (running ones
        finish), and the batch ends ``expired`` with its partial output."""
        async with self._engine.begin() as conn:
            due = list((await conn.execute(select(Batch.id).where(
                Batch.status.in_(("validating", "in_progress")), Batch.expired_at.is_(None),
                Batch.expires_at < now))).scalars())
            for batch_id in due:
                await conn.execute(update(Batch).where(Batch.id == batch_id).values(
                    status="in_progress", expired_at=now, in_progress_at=func.coalesce(Batch.in_progress_at, now)))
                await self._skip_waiting(conn, batch_id, "batch_expired",
                                         "This request could not be executed before the completion window expired.",
                                         now)
        return due

    async def _skip_waiting(self, conn, batch_id: str, code: str, message: str, now: datetime) -> None:
        """Store an error line for every line of ``batch_id`` that no worker holds (see :func:`_unheld`)."""
        unheld = _unheld(now)
        rows = (await conn.execute(select(BatchLine.line_no, BatchLine.custom_id).where(
            BatchLine.batch_id == batch_id, unheld))).all()
        for line_no, custom_id in rows:
            result = error_line(custom_id, code, message)
            await conn.execute(update(BatchLine).where(BatchLine.batch_id == batch_id, BatchLine.line_no == line_no,
                                                       unheld)
                               .values(state="skipped", is_error=True, result=result, finished_at=now,
                                       lease_owner=None, lease_until=None))

    async def counts(self, batch_id: str) -> LineCounts:
        done = BatchLine.state.in_(("done", "skipped"))
        query = select(func.count(),
                       func.sum(case((and_(done, BatchLine.is_error.is_(False)), 1), else_=0)),
                       func.sum(case((and_(done, BatchLine.is_error.is_(True)), 1), else_=0)),
                       func.sum(case((BatchLine.state.in_(("pending", "running")), 1), else_=0))
                       ).where(BatchLine.batch_id == batch_id)
        async with self._engine.connect() as conn:
            total, completed, failed, open_ = (await conn.execute(query)).one()
        return LineCounts(int(total or 0), int(completed or 0), int(failed or 0), int(open_ or 0))

    # --- lines ------------------------------------------------------------------------------

    async def claim(self, limit: int, now: datetime, *, window_open: bool) -> list[ClaimedLine]:
        """Lease up to ``limit`` runnable lines: waiting lines, or running ones whose lease ran out,
        of ``in_progress`` batches (only urgent batches while the window is closed), oldest batch
        first."""
        if limit <= 0:
            return []
        claimable = or_(BatchLine.state == "pending", and_(BatchLine.state == "running", BatchLine.lease_until < now))
        query = (select(BatchLine.batch_id, BatchLine.line_no)
                 .join(Batch, Batch.id == BatchLine.batch_id)
                 .where(Batch.status == "in_progress", claimable)
                 .order_by(Batch.created_at, BatchLine.batch_id, BatchLine.line_no).limit(limit))
        if not window_open:
            query = query.where(Batch.urgent.is_(True))
        if self._postgres:
            query = query.with_for_update(of=BatchLine, skip_locked=True)
        claimed: list[ClaimedLine] = []
        async with self._engine.begin() as conn:
            keys = (await conn.execute(query)).all()
            for batch_id, line_no in keys:
                moved = await conn.execute(
                    update(BatchLine).where(BatchLine.batch_id == batch_id, BatchLine.line_no == line_no, claimable)
                    .values(state="running", lease_owner=self.owner, lease_until=now + self.lease,
                            attempts=BatchLine.attempts + 1))
                if moved.rowcount == 1:
                    claimed.append((batch_id, line_no))  # type: ignore[arg-type]
            if not claimed:
                return []
            rows = (await conn.execute(
                select(BatchLine.batch_id, BatchLine.line_no, BatchLine.custom_id, BatchLine.body, BatchLine.attempts,
                       Batch.key_id, Batch.endpoint)
                .join(Batch, Batch.id == BatchLine.batch_id)
                .where(or_(*(and_(BatchLine.batch_id == b, BatchLine.line_no == n) for b, n in claimed))))).all()
        return [ClaimedLine(r.batch_id, r.line_no, r.custom_id, msgspec.json.decode(r.body), r.attempts, r.key_id,
                            r.endpoint) for r in sorted(rows, key=lambda r: (r.batch_id, r.line_no))]

    async def renew(self, lines: Sequence[ClaimedLine], now: datetime) -> None:
        """Extend this worker's leases on lines still running."""
        if not lines:
            return
        async with self._engine.begin() as conn:
            for line in lines:
                await conn.execute(update(BatchLine).where(
                    BatchLine.batch_id == line.batch_id, BatchLine.line_no == line.line_no,
                    BatchLine.lease_owner == self.owner, BatchLine.state == "running")
                    .values(lease_until=now + self.lease))

    async def finish(self, line: ClaimedLine, result: str, is_error: bool, now: datetime) -> bool:
        """Store a line's output; False when this worker no longer holds the line (its lease ran
        out and another worker took it, or the batch was cancelled): the result is dropped."""
        async with self._engine.begin() as conn:
            moved = await conn.execute(update(BatchLine).where(
                BatchLine.batch_id == line.batch_id, BatchLine.line_no == line.line_no,
                BatchLine.lease_owner == self.owner, BatchLine.state == "running")
                .values(state="done", result=result, is_error=is_error, finished_at=now, lease_owner=None,
                        lease_until=None))
        return moved.rowcount == 1

    async def retry_later(self, line: ClaimedLine, at: datetime, refund_attempt: bool = False) -> None:
        """Give a line back to the queue, claimable from ``at`` (backoff after a transient failure);
        ``refund_attempt`` gives back the try this claim counted (the line was never sent: rate limits)."""
        values: dict[str, Any] = {"lease_owner": None, "lease_until": at}
        if refund_attempt:
            values["attempts"] = BatchLine.attempts - 1
        async with self._engine.begin() as conn:
            await conn.execute(update(BatchLine).where(
                BatchLine.batch_id == line.batch_id, BatchLine.line_no == line.line_no,
                BatchLine.lease_owner == self.owner, BatchLine.state == "running")
                .values(**values))

    # --- finalizing ---------------------------------------------------------------------------

    async def ready_to_finalize(self, now: datetime) -> list[str]:
        """Batches with no waiting or running line left, plus finalizations a dead worker left."""
        open_lines = select(BatchLine.batch_id).where(BatchLine.batch_id == Batch.id,
                                                      BatchLine.state.in_(("pending", "running")))
        stale = now - self.lease
        query = select(Batch.id).where(or_(
            and_(Batch.status.in_(("in_progress", "cancelling")), ~open_lines.exists()),
            and_(Batch.status == "finalizing", Batch.finalizing_at < stale)))
        async with self._engine.connect() as conn:
            return list((await conn.execute(query)).scalars())

    async def begin_finalizing(self, batch_id: str, now: datetime) -> bool:
        """Take the finalization of a batch (one replica wins)."""
        stale = now - self.lease
        async with self._engine.begin() as conn:
            moved = await conn.execute(update(Batch).where(Batch.id == batch_id, or_(
                Batch.status.in_(("in_progress", "cancelling")),
                and_(Batch.status == "finalizing", Batch.finalizing_at < stale))).values(
                    status="finalizing", finalizing_at=now))
        return moved.rowcount == 1

    async def results(self, batch_id: str) -> list[tuple[bool, str]]:
        """``(is_error, output line)`` of every finished line, in input order."""
        async with self._engine.connect() as conn:
            rows = (await conn.execute(select(BatchLine.is_error, BatchLine.result).where(
                BatchLine.batch_id == batch_id, BatchLine.state.in_(("done", "skipped")))
                .order_by(BatchLine.line_no))).all()
        return [(bool(e), r) for e, r in rows]

    async def complete(self, batch_id: str, output_file_id: str | None, error_file_id: str | None,
                       counts: LineCounts, now: datetime) -> str:
        """``finalizing`` → ``completed`` | ``cancelled`` | ``expired``; returns the final status."""
        async with self._engine.begin() as conn:
            batch = (await conn.execute(select(Batch.cancelling_at, Batch.expired_at).where(Batch.id == batch_id))).one()
            if batch.cancelling_at is not None:
                status, stamp = "cancelled", {"cancelled_at": now}
            elif batch.expired_at is not None:
                status, stamp = "expired", {}
            else:
                status, stamp = "completed", {"completed_at": now}
            await conn.execute(update(Batch).where(Batch.id == batch_id, Batch.status == "finalizing").values(
                status=status, output_file_id=output_file_id, error_file_id=error_file_id, total=counts.total,
                completed=counts.completed, failed=counts.failed, **stamp))
        return status


def _unheld(now: datetime):
    """Lines no worker holds at ``now``: waiting, handed back (``running`` without an owner: a retry
    is due later, or a worker shut down), or ``running`` with a lease that ran out (a killed worker).
    A line whose worker still holds its lease finishes; its answer is kept."""
    return or_(BatchLine.state == "pending",
               and_(BatchLine.state == "running", or_(BatchLine.lease_owner.is_(None), BatchLine.lease_until < now)))


def output_line(custom_id: str, request_id: str, status: int, body: dict[str, Any]) -> str:
    """OpenAI's batch output line for an answered request (success or HTTP error)."""
    return msgspec.json.encode({"id": "batch_req_" + uuid.uuid4().hex[:24], "custom_id": custom_id,
                                "response": {"status_code": status, "request_id": request_id, "body": body},
                                "error": None}).decode()


def error_line(custom_id: str, code: str, message: str) -> str:
    """OpenAI's batch error line for a request that got no HTTP answer (expired, cancelled, failed)."""
    return msgspec.json.encode({"id": "batch_req_" + uuid.uuid4().hex[:24], "custom_id": custom_id,
                                "response": None, "error": {"code": code, "message": message}}).decode()

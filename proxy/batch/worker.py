"""The batch worker: validates new batches, claims lines inside the window, runs each through the
proxy's pipeline at batch priority, and writes the output and error files when a batch is done.

One worker runs per proxy process (``[batch] worker``); on PostgreSQL every replica's worker shares
the queue. Each tick does a little of everything and the loop sleeps ``poll_interval_s`` between
ticks unless woken (a new batch, a cancel, a finished line).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

import msgspec

from proxy.batch.files import FileStore
from proxy.batch.queue import BatchQueue, ClaimedLine, now_utc, output_line
from proxy.batch.validation import ENDPOINTS, LineError, validate_batch_input
from proxy.config.batch_window import BatchWindow
from proxy.config.sections import BatchSettings
from proxy.wire.errors import NotFound, RateLimited, ThriftyError

log = logging.getLogger(__name__)
RETRYABLE_STATUS = (429,)  # plus every 5xx and transport failure
# admits one line for the key that created its batch (budget, rate limits); returns the settle callback
LineAdmission = Callable[[str, dict[str, Any], int], Awaitable[Callable[[Any], None] | None]]


def result_file_id(batch_id: str, kind: str) -> str:
    """The id of a batch's output or error file: fixed per batch, so a finalization that is redone
    after a crash rewrites the same file instead of adding a second one."""
    return "file-" + hashlib.sha256(f"{batch_id}:{kind}".encode()).hexdigest()[:24]


class BatchWorker:
    """Runs batch lines through ``pipeline`` (``handle``, ``public_models``, ``upstream_for``);
    ``max_body_bytes`` is the proxy's request size limit, which each line's body must keep too."""

    def __init__(self, queue: BatchQueue, files: FileStore, pipeline: Any, config: BatchSettings,
                 window: BatchWindow, clock: Callable[[], datetime] = now_utc,
                 admit: LineAdmission | None = None, max_body_bytes: int | None = None) -> None:
        self.queue = queue
        self._max_body_bytes = max_body_bytes
        self._admit = admit
        self._files = files
        self._pipeline = pipeline
        self._config = config
        self.window = window
        self._clock = clock
        self._wake = asyncio.Event()
        self._inflight: dict[tuple[str, int], ClaimedLine] = {}
        self._tasks: set[asyncio.Task] = set()
        self._gates: dict[str, asyncio.Semaphore] = {}
        self._last_renewal = 0.0
        self._progress: dict[str, int] = {}
        self.on_line_recorded: Callable[[bool], None] | None = None  # called with "failed?" per recorded line

    @property
    def inflight(self) -> int:
        return len(self._inflight)

    def wake(self) -> None:
        """Run the next tick now (a batch was created or cancelled)."""
        self._wake.set()

    async def run(self) -> None:
        """The worker loop; cancel the task to stop it (:meth:`stop` gives running lines back)."""
        log.info("batch worker %s started (window %s)", self.queue.owner, self.window.describe())
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - a database hiccup must not end the worker
                log.exception("batch worker tick failed; retrying")
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=self._config.poll_interval_s)
            except TimeoutError:
                pass
            self._wake.clear()

    async def tick(self) -> None:
        """One round: validate, expire, renew leases, skip what cancelled batches left, claim and
        start lines, finalize. With no batch in flight anywhere, a round is one query."""
        if not self._inflight and not await self.queue.any_active():
            return
        now = self._clock()
        for batch_id in await self.queue.ids_in("validating"):
            await self._validate(batch_id)
        for batch_id in await self.queue.expire_due(now):
            log.warning("batch %s expired: waiting lines are written as batch_expired errors", batch_id)
        if time.monotonic() - self._last_renewal > self.queue.lease.total_seconds() / 3:
            await self.queue.renew(list(self._inflight.values()), now)
            self._last_renewal = time.monotonic()
        await self.queue.skip_abandoned(now)  # after renewing: this worker's own lines stay held
        capacity = self._lines_allowed() * max(1, len(self._upstream_names())) - len(self._inflight)
        if self._passthrough() is not None:  # lines waiting in an upstream batch cost nothing here
            capacity += self._config.passthrough_max_lines
        for line in await self.queue.claim(capacity, now, window_open=self.window.is_open(now)):
            self._inflight[(line.batch_id, line.line_no)] = line
            task = asyncio.create_task(self._run_line(line), name=f"batch-line-{line.batch_id}-{line.line_no}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        for batch_id in await self.queue.ready_to_finalize(now):
            await self._finalize(batch_id)

    async def drain(self, timeout: float | None = None) -> None:
        """Wait for the lines now running to finish (tests, benchmarks)."""
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=timeout)

    async def stop(self) -> None:
        """Cancel running lines and hand them back to the queue at once (graceful shutdown)."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _upstream_names(self) -> set[str]:
        return set(getattr(self._pipeline, "upstream_names", ()) or ())

    def _lines_allowed(self) -> int:
        """Lines in flight per upstream now: ``concurrency``, or ``busy_concurrency`` while
        interactive requests are being answered (and for ``busy_quiet_s`` after), so that batch
        work yields the shared CPU or GPU to them; lines already running finish."""
        seen = getattr(self._pipeline, "interactive_seen", None)
        if seen is not None and time.monotonic() - seen < self._config.busy_quiet_s:
            return self._config.busy_concurrency
        return self._config.concurrency

    def _passthrough(self):
        return getattr(self._pipeline, "upstream_batches", None)

    def _gate(self, upstream: str) -> asyncio.Semaphore:
        gate = self._gates.get(upstream)
        if gate is None:
            gate = self._gates[upstream] = asyncio.Semaphore(self._config.concurrency)
        return gate

    # --- validation ---------------------------------------------------------------------------

    async def _validate(self, batch_id: str) -> None:
        batch = await self.queue.get(batch_id)
        if batch is None or batch.status != "validating":
            return
        now = self._clock()
        try:
            source = await self._files.get(batch.key_id, batch.input_file_id)
            text = await asyncio.to_thread(self._files.read_text, source)
        except NotFound as exc:
            await self.queue.fail(batch_id, [LineError("file_not_found", exc.message, None, "input_file_id")], now)
            return
        models = list(self._pipeline.public_models)
        specs, errors = await asyncio.to_thread(validate_batch_input, text, batch.endpoint, models,
                                                self._config.max_lines, self._max_body_bytes)
        if errors:
            log.warning("batch %s failed validation: %d error(s), first: line %s: %s", batch_id, len(errors),
                        errors[0].line, errors[0].message)
            await self.queue.fail(batch_id, errors, now)
        elif await self.queue.start(batch_id, specs, now):
            log.info("batch %s: %d lines queued", batch_id, len(specs))

    # --- lines --------------------------------------------------------------------------------

    async def _run_line(self, line: ClaimedLine) -> None:
        key = (line.batch_id, line.line_no)
        try:
            upstream = self._pipeline.upstream_for(line.body.get("model", ""))
            passthrough = self._passthrough()
            if passthrough is not None and passthrough.handles(upstream):
                await self._answer(line)  # waits in an upstream batch: no local concurrency to protect
            else:
                async with self._gate(upstream):
                    await self._answer(line)
        except asyncio.CancelledError:
            await asyncio.shield(self._give_back(line))
            raise
        except Exception:  # noqa: BLE001 - the lease runs out and another try comes
            log.exception("batch %s line %d could not be recorded", line.batch_id, line.line_no)
        finally:
            self._inflight.pop(key, None)
            self._wake.set()

    async def _give_back(self, line: ClaimedLine) -> None:
        try:
            await self.queue.retry_later(line, self._clock())
        except Exception:  # noqa: BLE001 - its lease expires instead
            log.warning("batch %s line %d: could not hand the line back; its lease will expire",
                        line.batch_id, line.line_no)

    async def _answer(self, line: ClaimedLine) -> None:
        from proxy.pipeline.call import (  # the pipeline imports settings; keep this module light
            CallContext,
            Reply,
        )

        request_id = f"{line.batch_id}-{line.line_no}-{line.attempts}"
        endpoint, _ = ENDPOINTS.get(line.endpoint, ("chat", None))
        ctx = CallContext(request_id=request_id, key_id=line.key_id, endpoint=endpoint, started=time.perf_counter(),
                          batch_id=line.batch_id)
        body = dict(line.body)
        try:
            if self._admit is not None:
                ctx.on_finish = await self._admit(line.key_id, body, len(msgspec.json.encode(body)))
        except RateLimited as exc:  # the key's RPM/TPM: the line waits its turn without using up a try
            wait = float(exc.headers.get("retry-after", "1")) * (1.0 + 0.5 * random.random())  # noqa: S311
            await self.queue.retry_later(line, self._clock() + timedelta(seconds=wait), refund_attempt=True)
            return
        except ThriftyError as exc:  # over budget, model not allowed, key revoked: an error line, not retried
            self._pipeline.log_rejected(ctx, exc.status, exc.message, body.get("model"))
            await self._record(line, request_id, exc.status, exc.body(), retry=False)
            return
        try:
            reply = await self._pipeline.handle(ctx, body)
            status, body = (reply.status, reply.body) if isinstance(reply, Reply) else (500, _no_stream())
        except ThriftyError as exc:
            status, body = exc.status, exc.body()
        except Exception as exc:  # noqa: BLE001 - one broken line must not stop the batch
            log.exception("batch %s line %d failed", line.batch_id, line.line_no)
            status, body = 500, {"error": {"message": f"internal error: {type(exc).__name__}", "type": "server_error",
                                           "param": None, "code": None}}
        await self._record(line, request_id, status, body, retry=True)

    async def _record(self, line: ClaimedLine, request_id: str, status: int, body: Any, retry: bool) -> None:
        """Store a line's answer, or hand it back for another try after a transient failure."""
        if retry and (status >= 500 or status in RETRYABLE_STATUS) and line.attempts < self._config.max_attempts:
            delay = min(60.0, 2.0 ** line.attempts) * (0.5 + random.random())  # noqa: S311 - jitter
            log.warning("batch %s line %d: status %d, retry %d of %d in %.1fs", line.batch_id, line.line_no, status,
                        line.attempts, self._config.max_attempts - 1, delay)
            await self.queue.retry_later(line, self._clock() + timedelta(seconds=delay))
            return
        kept = await self.queue.finish(line, output_line(line.custom_id, request_id, status, body), status >= 400,
                                       self._clock())
        if not kept:
            log.warning("batch %s line %d: lease lost, answer dropped (another worker has the line)",
                        line.batch_id, line.line_no)
        else:
            self._note_progress(line.batch_id)
            if self.on_line_recorded is not None:
                self.on_line_recorded(status >= 400)

    def _note_progress(self, batch_id: str) -> None:
        done = self._progress.get(batch_id, 0) + 1
        self._progress[batch_id] = done
        if done % 100 == 0:
            log.info("batch %s: %d more lines done by this worker", batch_id, done)

    # --- finalizing ---------------------------------------------------------------------------

    async def _finalize(self, batch_id: str) -> None:
        now = self._clock()
        if not await self.queue.begin_finalizing(batch_id, now):
            return
        batch = await self.queue.get(batch_id)
        assert batch is not None
        results = await self.queue.results(batch_id)
        output = await self._files.save_generated(
            batch.key_id, result_file_id(batch_id, "output"), f"{batch_id}_output.jsonl", "batch_output",
            [r.encode() for is_error, r in results if not is_error])
        errors = await self._files.save_generated(
            batch.key_id, result_file_id(batch_id, "error"), f"{batch_id}_error.jsonl", "batch_output",
            [r.encode() for is_error, r in results if is_error])
        counts = await self.queue.counts(batch_id)
        status = await self.queue.complete(batch_id, output.id if output else None, errors.id if errors else None,
                                           counts, self._clock())
        self._progress.pop(batch_id, None)
        log.info("batch %s %s: %d answered, %d failed of %d", batch_id, status, counts.completed, counts.failed,
                 counts.total)


def _no_stream() -> dict[str, Any]:
    return {"error": {"message": "a batch line cannot stream", "type": "invalid_request_error", "param": "stream",
                      "code": None}}

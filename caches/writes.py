"""Group commits of the caches' write-backs: concurrent stores share one transaction.

Every answer a cache stores is an upsert and a commit. Done one store at a time, each pays a
session, a connection checkout, the statement and the commit (on SQLite, several round trips to
the driver's thread), and under load these fixed costs are most of the caches' CPU per request.
:class:`WriteBatcher` queues the rows of concurrent stores and writes them together: the first
row of an idle batcher waits ``window_s`` (about 2 ms) for company, rows that arrive while a batch
is being written go into the next one (so under load the batches grow by themselves), and one
call of the cache's ``write`` function writes at most ``max_batch`` rows in one transaction.

:meth:`WriteBatcher.submit` returns when the row's batch is committed: a store that succeeded is
visible to the lookups that follow it (read-your-writes), as with a store of its own. When a batch
fails, its rows are written again one by one, so that one bad row costs only its own store. The
queue is bounded: a row submitted to a full queue is refused (:class:`WriteQueueFull`) and the
caller sheds the store.

The batcher lives on one event loop; :meth:`submit` is not thread-safe.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

__all__ = ["WriteBatcher", "WriteQueueFull"]

logger = logging.getLogger(__name__)

_Row = TypeVar("_Row")
_Result = TypeVar("_Result")


class WriteQueueFull(Exception):
    """Too many rows already wait to be written: this one was not queued (the store is shed)."""


def _retrieve(future: asyncio.Future) -> None:
    """Mark a future's exception as retrieved (its submitter may have stopped waiting)."""
    if not future.cancelled():
        future.exception()


class WriteBatcher(Generic[_Row, _Result]):
    """Collects rows into shared writes (see the module docstring).

    ``write``: writes a list of rows in one transaction and returns one result per row, in order,
    where a result that is an exception fails that row alone (e.g. a vector index update after the
    commit); raising fails the whole batch, whose rows are then retried one by one. ``window_s``:
    how long the first row of an idle batcher waits for others; ``max_batch``: rows per write;
    ``max_pending``: rows queued and not yet in a write.
    """

    def __init__(
        self,
        write: Callable[[list[_Row]], Awaitable[Sequence[_Result | BaseException]]],
        *,
        window_s: float = 0.002,
        max_batch: int = 64,
        max_pending: int = 1024,
    ) -> None:
        if window_s < 0 or max_batch < 1 or max_pending < 1:
            raise ValueError("write batcher bounds must be positive (window_s may be 0)")
        self._write = write
        self._window_s = window_s
        self._max_batch = max_batch
        self._max_pending = max_pending
        self._queue: deque[tuple[_Row, asyncio.Future]] = deque()
        self._worker: asyncio.Task | None = None
        self.writes = 0  # calls of ``write`` that returned (batches and single-row retries)
        self.rows = 0  # rows written by them
        self.failed_batches = 0  # batches that raised and were retried row by row

    @property
    def pending(self) -> int:
        """Rows queued and not yet in a write."""
        return len(self._queue)

    async def submit(self, row: _Row) -> _Result:
        """Queue ``row`` and return its result once its batch is committed.

        Raises :class:`WriteQueueFull` when the queue is full, and the row's write failure (the
        exception of its single-row retry) otherwise. A submitter that is cancelled before its
        batch starts is left out of it.
        """
        if len(self._queue) >= self._max_pending:
            raise WriteQueueFull(f"{len(self._queue)} cache rows already wait to be written")
        loop = asyncio.get_running_loop()
        worker = self._worker
        if worker is not None and not worker.done() and worker.get_loop().is_closed():
            # a worker stranded by a loop that closed under it (its rows' futures died with that loop)
            self._queue = deque(item for item in self._queue if item[1].get_loop() is loop)
            worker = None
        future = loop.create_future()
        future.add_done_callback(_retrieve)
        self._queue.append((row, future))
        if worker is None or worker.done():
            self._worker = loop.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        """Write batches until the queue is empty."""
        queue = self._queue
        if len(queue) < self._max_batch:
            await asyncio.sleep(self._window_s)  # a lone row waits this long for company (0: one turn)
        while queue:
            batch: list[tuple[_Row, asyncio.Future]] = []
            while queue and len(batch) < self._max_batch:
                row, future = queue.popleft()
                if not future.done():  # its submitter was cancelled: leave it out
                    batch.append((row, future))
            if batch:
                await self._write_batch(batch)

    async def _write_batch(self, batch: list[tuple[_Row, asyncio.Future]]) -> None:
        try:
            results = await self._write([row for row, _ in batch])
            if len(results) != len(batch):
                raise RuntimeError(f"write returned {len(results)} results for {len(batch)} rows")
        except Exception as exc:
            if len(batch) == 1:
                _settle(batch[0][1], exc)
                return
            self.failed_batches += 1
            logger.debug("writing a batch of %d cache rows failed, retrying them one by one: %r", len(batch), exc)
            for item in batch:
                await self._write_batch([item])
            return
        except BaseException as exc:  # cancelled (shutdown): nobody will write these rows
            for _, future in batch:
                _settle(future, RuntimeError("the cache write was cancelled"))
            raise exc
        self.writes += 1
        self.rows += len(batch)
        for (_, future), result in zip(batch, results, strict=True):
            _settle(future, result)

    async def aclose(self) -> None:
        """Write what is queued, then stop (the batcher starts again on the next submit)."""
        worker = self._worker
        if worker is not None and not worker.done():
            try:
                await asyncio.shield(worker)
            except Exception as exc:  # noqa: BLE001 - the rows' submitters hear of it
                logger.debug("the cache writer failed while closing: %r", exc)


def _settle(future: asyncio.Future, result: object) -> None:
    if future.done() or future.get_loop().is_closed():  # nobody can wait on it any more
        return
    if isinstance(result, BaseException):
        future.set_exception(result)
    else:
        future.set_result(result)

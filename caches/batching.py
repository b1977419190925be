"""Micro-batching of the semantic cache's embeddings: concurrent texts share one model forward.

Every lookup needs the embedding of one short text. Embedded one call after another, 48 concurrent
requests queue behind 48 forwards on the embedding thread, and each forward's fixed cost (Python,
tokenizer, small matmuls) is paid 48 times. :class:`EmbeddingBatcher` collects the texts that
arrive within a short window (``window_s``, about 2 ms) into one forward of at most ``max_batch``
texts; texts that arrive while a forward runs go into the next one, so under load the batches grow
by themselves and when idle a lone text waits at most the window.

Two priorities share the batches: lookups (a request waits for them) and stores (the write-back of
an answer, which nobody waits for). Each has its own bounded queue; a batch takes lookups first
and fills the remaining rows with stores, so under load the stores wait and then are refused
(:class:`QueueFull`) while lookups still get through.

Vectors are memoised by text (bounded LRU), and a text already queued or in a running forward is
joined rather than embedded twice: the write-back of an answer reuses its lookup's vector, even
when the lookup itself gave up waiting for it (the forward finishes in the background).

A lookup may carry a deadline. The batcher learns what a forward costs (a fixed part and a part per
text, fitted online) and sizes each batch so that its earliest deadline can still be met; a queued
lookup that could not finish by its deadline even alone is dropped without being embedded (its
future fails with :class:`DeadlineExpired`). Under overload the forwards then carry lookups that can
still be answered, instead of a backlog whose requests have already been forwarded as misses. A text
that a waiter without a deadline also wants (a write-back, a replay) is never dropped.

The batcher lives on one event loop; :meth:`submit` is not thread-safe.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal

import numpy as np

__all__ = ["DeadlineExpired", "EmbeddingBatcher", "Priority", "QueueFull"]

logger = logging.getLogger(__name__)

Priority = Literal["lookup", "store"]
RELEARN_S = 1.0  # after this long without a forward, a lookup runs even if the cost model says it cannot make it


class QueueFull(Exception):
    """The queue of this priority is full: the text was not queued (the caller skips or sheds)."""


class DeadlineExpired(Exception):
    """The text was dropped from the queue: no forward could have finished by its waiters' deadline."""


def _retrieve(future: asyncio.Future) -> None:
    """Mark a future's exception as retrieved: a lookup that stopped waiting never reads it."""
    if not future.cancelled():
        future.exception()


class EmbeddingBatcher:
    """Collects texts into shared embedding forwards (see the module docstring).

    ``embed``: runs the model on a list of texts and returns ``(n, dim)`` float32 unit rows (blocking);
    ``run``: awaits ``embed(texts)`` off the event loop (e.g. in a thread pool); ``window_s``: how
    long a first text waits for company; ``max_batch``: texts per forward; ``max_lookups`` /
    ``max_stores``: bounds of the two queues; ``memo_size``: vectors kept by text (0: none).
    """

    def __init__(
        self,
        embed: Callable[[list[str]], np.ndarray],
        run: Callable[[Callable[[list[str]], np.ndarray], list[str]], Awaitable[np.ndarray]],
        *,
        window_s: float = 0.002,
        max_batch: int = 32,
        max_lookups: int = 256,
        max_stores: int = 64,
        memo_size: int = 2048,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        if max_batch < 1 or max_lookups < 1 or max_stores < 0 or window_s < 0 or memo_size < 0:
            raise ValueError("batcher bounds must be positive (max_stores and memo_size may be 0)")
        self._embed = embed
        self._run = run
        self._window_s = window_s
        self._max_batch = max_batch
        self._limits = {"lookup": max_lookups, "store": max_stores}
        self._queues: dict[Priority, deque[str]] = {"lookup": deque(), "store": deque()}
        self._waiting: dict[str, asyncio.Future] = {}  # queued or in the running forward
        self._memo: OrderedDict[str, np.ndarray] = OrderedDict()  # text -> read-only (dim,) float32
        self._memo_size = memo_size
        self._worker: asyncio.Task | None = None
        self._clock = clock
        self._deadlines: dict[str, float | None] = {}  # queued text -> its waiters' latest deadline (None: none)
        self._fixed_s = 0.0  # the cost model of a forward of n texts: fixed + per_text * n (fitted online)
        self._per_text_s = 0.0
        self._last_forward_at = float("-inf")
        self.forwards = 0  # model calls made
        self.embedded = 0  # texts embedded by them
        self.expired = 0  # texts dropped because no forward could meet their deadline

    @staticmethod
    def _resolved(vector: np.ndarray) -> asyncio.Future:
        done = asyncio.get_running_loop().create_future()
        done.set_result(vector)
        return done

    def cached(self, text: str) -> np.ndarray | None:
        """The memoised vector of ``text`` (read-only), or ``None``."""
        vector = self._memo.get(text)
        if vector is not None:
            self._memo.move_to_end(text)
        return vector

    def joinable(self, text: str) -> asyncio.Future | None:
        """The future of ``text``'s vector if it is memoised, queued or in a running forward;
        ``None`` (and nothing queued) otherwise."""
        vector = self.cached(text)
        return self._waiting.get(text) if vector is None else self._resolved(vector)

    @property
    def idle(self) -> bool:
        """No forward is running or waiting to run."""
        return (self._worker is None or self._worker.done()) and not any(self._queues.values())

    def pending(self, priority: Priority) -> int:
        """Texts of ``priority`` queued and not yet in a forward."""
        return len(self._queues[priority])

    def submit(self, text: str, priority: Priority = "lookup", deadline: float | None = None) -> asyncio.Future:
        """A future of ``text``'s vector (``(dim,)`` float32, read-only).

        Joins the text's queued or running forward if there is one (a lookup promotes a queued store
        of the same text to lookup priority). ``deadline`` (on the batcher's clock, a lookup's only):
        when this waiter stops caring; a queued text is dropped (:class:`DeadlineExpired`) only when
        every waiter's deadline is out of reach. Raises :class:`QueueFull` when this priority's queue
        is full. The future fails with the embedder's exception if the forward fails; cancelling it
        (e.g. through ``asyncio.wait_for``) is harmless only behind ``asyncio.shield``.
        """
        if priority == "store":
            deadline = None
        loop = asyncio.get_running_loop()
        vector = self.cached(text)
        if vector is not None:
            return self._resolved(vector)
        future = self._waiting.get(text)
        if future is not None:
            if text in self._deadlines:  # still queued: keep it while any waiter may use it
                known = self._deadlines[text]
                self._deadlines[text] = None if known is None or deadline is None else max(known, deadline)
            stores = self._queues["store"]
            if priority == "lookup" and text in stores:
                stores.remove(text)
                self._queues["lookup"].append(text)
            return future
        queue = self._queues[priority]
        if len(queue) >= self._limits[priority]:
            raise QueueFull(f"{len(queue)} {priority} embeddings already queued")
        future = loop.create_future()
        future.add_done_callback(_retrieve)
        self._waiting[text] = future
        self._deadlines[text] = deadline
        queue.append(text)
        if self._worker is None or self._worker.done():
            self._worker = loop.create_task(self._drain())
        return future

    async def _drain(self) -> None:
        """Form and run batches until both queues are empty."""
        lookups, stores = self._queues["lookup"], self._queues["store"]
        if len(lookups) + len(stores) < self._max_batch and self._window_s > 0:
            await asyncio.sleep(self._window_s)  # a lone text waits this long for company
        while lookups or stores:
            batch = self._next_batch()
            if batch:
                await self._forward(batch)

    def predicted_s(self, texts: int) -> float:
        """What a forward of ``texts`` texts is expected to take (0 before the first forward)."""
        return self._fixed_s + self._per_text_s * texts

    def _next_batch(self) -> list[str]:
        """Lookups with a deadline first, as many as the earliest of their deadlines allows (dropping
        those that could not make it even alone); then lookups without one (a fill, a replay) and then
        stores, in the rows left, while that deadline still allows them."""
        lookups, stores = self._queues["lookup"], self._queues["store"]
        now = self._clock()
        batch: list[str] = []
        earliest: float | None = None
        untimed: list[str] = []
        for text in list(lookups):
            deadline = self._deadlines.get(text)
            if deadline is None:
                untimed.append(text)
                continue
            if len(batch) >= self._max_batch:
                break
            bound = deadline if earliest is None else min(earliest, deadline)
            if now + self.predicted_s(len(batch) + 1) > bound:
                if batch:
                    break  # the batch is as large as its earliest deadline allows
                if now - self._last_forward_at < RELEARN_S:
                    lookups.remove(text)
                    self._expire(text)
                    continue
                # no forward for a while: run this one anyway, so that a cost learnt under a passing
                # load cannot keep every later lookup out
            earliest = bound
            batch.append(text)
        for extra in (untimed, list(stores)):
            for text in extra:
                if len(batch) >= self._max_batch or (
                        earliest is not None and now + self.predicted_s(len(batch) + 1) > earliest):
                    break
                batch.append(text)
        chosen = set(batch)
        for queue in (lookups, stores):
            kept = [text for text in queue if text not in chosen]
            queue.clear()
            queue.extend(kept)
        for text in batch:
            self._deadlines.pop(text, None)
        return batch

    def _expire(self, text: str) -> None:
        self._deadlines.pop(text, None)
        future = self._waiting.pop(text, None)
        self.expired += 1
        if future is not None and not future.done():
            future.set_exception(DeadlineExpired(f"dropped: no forward could finish by its deadline ({text[:40]!r})"))

    def _learn(self, texts: int, seconds: float) -> None:
        """Move the cost model towards one observed forward (a least-mean-squares step)."""
        if self.forwards == 0:
            self._fixed_s, self._per_text_s = seconds / (texts + 1), seconds / (texts + 1)
            return
        error = seconds - self.predicted_s(texts)
        scale = 0.3 / (1 + texts * texts)
        self._fixed_s = max(0.0, self._fixed_s + scale * error)
        self._per_text_s = max(0.0, self._per_text_s + scale * error * texts)

    async def _forward(self, batch: list[str]) -> None:
        futures = [self._waiting[text] for text in batch]
        started = self._clock()
        try:
            vectors = await self._run(self._embed, batch)
            vectors = np.ascontiguousarray(vectors, dtype=np.float32)
            if vectors.ndim != 2 or vectors.shape[0] != len(batch) or not np.isfinite(vectors).all():
                raise ValueError(f"embedder returned an invalid array of shape {vectors.shape}")
        except BaseException as exc:
            for text, future in zip(batch, futures, strict=True):
                self._waiting.pop(text, None)
                if not future.done():
                    future.set_exception(exc if isinstance(exc, Exception) else RuntimeError("embedding cancelled"))
            if not isinstance(exc, Exception):
                raise
            logger.debug("embedding a batch of %d texts failed: %r", len(batch), exc)  # callers log it
            return
        self._last_forward_at = self._clock()
        self._learn(len(batch), self._last_forward_at - started)
        self.forwards += 1
        self.embedded += len(batch)
        for i, (text, future) in enumerate(zip(batch, futures, strict=True)):
            vector = vectors[i].copy()
            vector.flags.writeable = False
            self._remember(text, vector)
            self._waiting.pop(text, None)
            if not future.done():
                future.set_result(vector)

    def _remember(self, text: str, vector: np.ndarray) -> None:
        if self._memo_size == 0:
            return
        self._memo[text] = vector
        self._memo.move_to_end(text)
        while len(self._memo) > self._memo_size:
            self._memo.popitem(last=False)

    def forget(self, texts: Sequence[str] | None = None) -> None:
        """Drop memoised vectors (all when ``texts`` is ``None``)."""
        if texts is None:
            self._memo.clear()
            return
        for text in texts:
            self._memo.pop(text, None)

    async def aclose(self) -> None:
        """Stop forming batches; queued texts fail with ``RuntimeError``."""
        worker, self._worker = self._worker, None
        if worker is not None and not worker.done():
            worker.cancel()
            try:
                await worker
            except BaseException:  # noqa: BLE001 - cancelled on purpose; its failure is logged in _forward
                pass
        for queue in self._queues.values():
            queue.clear()
        self._deadlines.clear()
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(RuntimeError("the embedding batcher is closed"))
        self._waiting.clear()

"""The engine's loop thread, served to the async HTTP server as a ``GenerationService``.

The HTTP side never touches the engine: it posts ``add`` / ``abort`` commands to an inbox and reads
token events from a per-request ``asyncio.Queue``. The loop thread drains the inbox, runs
``Engine.step()`` while there is work, and hands each step's events to the event loops in one
``call_soon_threadsafe`` per loop. A consumer that stops reading (a client disconnect) aborts its
request, whose blocks are freed before the next step.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import deque
from collections.abc import AsyncIterator
from collections.abc import Sequence as Seq
from dataclasses import dataclass, field
from typing import Any

from backend.engine.engine import Engine, EngineMetrics, EngineOutput
from backend.generation import RequestStats, TokenEvent
from backend.sampling import SamplingParams

log = logging.getLogger(__name__)

_DONE = object()
_METRICS_INTERVAL = 0.1  # seconds between metric snapshots while busy
_IDLE_REFRESH = 1.0  # seconds between metric snapshots while idle


class EngineClosedError(RuntimeError):
    """The engine service is shut down."""


@dataclass(slots=True, eq=False)
class _Handle:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue
    done: bool = False


@dataclass(slots=True)
class _Add:
    request_id: str
    prompt_ids: list[int]
    params: SamplingParams
    stats: RequestStats
    priority: str | None
    extra_key: Any = None
    arrival: float = field(default_factory=time.perf_counter)


class EngineService:
    """Runs an :class:`Engine` on its own thread; implements the server's ``GenerationService``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._cv = threading.Condition()
        self._inbox: deque[_Add | str] = deque()  # _Add, or a request id to abort
        self._handles: dict[str, _Handle] = {}
        self._closed = False
        self._metrics: EngineMetrics = engine.metrics()
        self._metrics_at = 0.0
        self._thread = threading.Thread(target=self._run, name="thrifty-engine", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------ limits and gauges

    @property
    def max_model_len(self) -> int:
        return self.engine.max_model_len

    @property
    def kv_capacity_tokens(self) -> int:
        return self.engine.capacity_tokens

    def metrics(self) -> EngineMetrics:
        """The latest snapshot of the engine's gauges (safe from any thread)."""
        return self._metrics

    # ------------------------------------------------------------------ GenerationService

    async def generate(self, request_id: str, prompt_ids: Seq[int], params: SamplingParams, stats: RequestStats,
                       priority: str | None = None, extra_key: Any = None) -> AsyncIterator[TokenEvent]:
        """Queue a request and yield its token events; stopping early (disconnect) aborts it."""
        self.engine.check_request(len(prompt_ids), params)
        handle = _Handle(asyncio.get_running_loop(), asyncio.Queue())
        with self._cv:
            if self._closed:
                raise EngineClosedError("the engine is shut down")
            self._handles[request_id] = handle
            self._inbox.append(_Add(request_id, list(prompt_ids), params, stats, priority, extra_key))
            self._cv.notify()
        try:
            while True:
                item = await handle.queue.get()
                if item is _DONE:
                    handle.done = True
                    return
                if isinstance(item, BaseException):
                    handle.done = True
                    raise item
                yield item
        finally:
            if not handle.done:
                self.abort(request_id)

    def abort(self, request_id: str) -> None:
        """Abort a request; its blocks are freed before the engine's next step."""
        with self._cv:
            self._inbox.append(request_id)
            self._cv.notify()

    def close(self) -> None:
        """Stop the loop thread; requests still running end with an error."""
        with self._cv:
            self._closed = True
            self._cv.notify()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=10)

    # ------------------------------------------------------------------ the loop thread

    def _run(self) -> None:
        engine = self.engine
        while True:
            with self._cv:
                while not self._inbox and not self._closed and not engine.has_unfinished():
                    if not self._cv.wait(timeout=_IDLE_REFRESH):
                        self._metrics = engine.metrics()  # idle: let the tokens/s gauges decay
                if self._closed:
                    break
                commands = list(self._inbox)
                self._inbox.clear()
            outputs: list[EngineOutput] = []
            for command in commands:
                outputs.extend(self._apply(command))
            if engine.has_unfinished():
                try:
                    step_outputs = engine.step()
                except Exception as exc:  # noqa: BLE001 - scheduler bug: fail what is in flight, keep serving
                    log.exception("engine step crashed; failing all in-flight requests")
                    step_outputs = self._fail_all(exc)
                outputs.extend(step_outputs)
                if not step_outputs and not commands:
                    with self._cv:  # nothing could run: wait for news instead of spinning
                        self._cv.wait(timeout=0.005)
            self._deliver(outputs)
            now = time.perf_counter()
            if now - self._metrics_at > _METRICS_INTERVAL or not engine.has_unfinished():
                self._metrics, self._metrics_at = engine.metrics(), now
        self._deliver(self._fail_all(EngineClosedError("the engine is shutting down")))
        self._metrics = engine.metrics()

    def _apply(self, command: _Add | str) -> list[EngineOutput]:
        if isinstance(command, str):
            out = self.engine.abort(command)
            return [out] if out is not None else []
        try:
            self.engine.add(command.request_id, command.prompt_ids, command.params, priority=command.priority,
                            stats=command.stats, extra_key=command.extra_key, arrival=command.arrival)
        except Exception as exc:  # noqa: BLE001 - a refused request gets its error; the rest go on
            return [EngineOutput(command.request_id, finished=True, error=exc)]
        return []

    def _fail_all(self, exc: BaseException) -> list[EngineOutput]:
        outputs = []
        for request_id in self.engine.request_ids():
            if self.engine.abort(request_id) is not None:
                outputs.append(EngineOutput(request_id, finished=True, error=exc))
        return outputs

    def _deliver(self, outputs: list[EngineOutput]) -> None:
        if not outputs:
            return
        batches: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Queue, list[Any]]]] = {}
        with self._cv:
            for out in outputs:
                handle = self._handles.get(out.request_id)
                if handle is None:
                    continue
                items: list[Any] = list(out.events)
                if out.error is not None:
                    items.append(out.error)
                elif out.finished:
                    items.append(_DONE)
                if out.finished:
                    del self._handles[out.request_id]
                batches.setdefault(handle.loop, []).append((handle.queue, items))
        for loop, batch in batches.items():
            try:
                loop.call_soon_threadsafe(_put_all, batch)
            except RuntimeError:  # the event loop is closed: nobody is listening any more
                pass


def _put_all(batch: list[tuple[asyncio.Queue, list[Any]]]) -> None:
    for queue, items in batch:
        for item in items:
            queue.put_nowait(item)

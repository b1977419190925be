"""The single-request generation loop and the thread that serves it to the async server.

One request runs at a time over a contiguous KV cache. The paged, continuously batched engine
(:class:`backend.engine.EngineService`) replaces :class:`SerialGenerationService` behind the same
:class:`GenerationService` interface; :func:`generate_tokens` stays as the reference ("oracle") path
the engine's outputs are tested against.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import torch

from backend.model import ContiguousKVCache
from backend.runtime import LoadedModel
from backend.sampling import SamplingParams, make_generator, sample, token_logprobs
from backend.stops import StopChecker
from backend.structured.masks import advance, mask_logits
from tokenization.tokenizer import IncrementalDetokenizer

log = logging.getLogger(__name__)


@dataclass(slots=True)
class TokenEvent:
    """One step of one choice: new text, and the finish reason on its last event."""

    index: int
    text: str
    token_id: int | None = None
    finish_reason: str | None = None  # "stop" | "length" | "abort" | "error"
    logprob: float | None = None
    top_logprobs: list[tuple[str, float]] = field(default_factory=list)
    token_text: str | None = None


@dataclass(slots=True)
class RequestStats:
    """Token counts and timings of a finished request (seconds)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    queue_time: float = 0.0
    ttft: float | None = None
    total_time: float = 0.0
    speculative: bool = False  # the engine that ran this request speculates
    spec_verifications: int = 0  # speculative decoding: this request's steps that verified drafts
    spec_draft_tokens: int = 0  # draft tokens verified for this request
    spec_accepted_tokens: int = 0  # of which accepted

    @property
    def tpot(self) -> float | None:
        """Mean time per output token after the first (``ttft`` and ``total_time`` both count from arrival)."""
        if self.ttft is None or self.completion_tokens < 2:
            return None
        return max(self.total_time - self.ttft, 0.0) / (self.completion_tokens - 1)


class GenerationService(Protocol):
    """What the backend server needs from whatever runs the model."""

    def generate(self, request_id: str, prompt_ids: Sequence[int], params: SamplingParams,
                 stats: RequestStats, priority: str | None = None) -> AsyncIterator[TokenEvent]:
        """Token events of one request (``priority``: "interactive" (default) or "batch")."""
        ...

    def abort(self, request_id: str) -> None: ...

    def close(self) -> None: ...


def generate_tokens(loaded: LoadedModel, prompt_ids: Sequence[int], params: SamplingParams,
                    cancelled: threading.Event | None = None, index: int = 0) -> Iterator[TokenEvent]:
    """Greedy or sampled generation of one choice; yields text deltas, the last with a finish reason."""
    model, tokenizer = loaded.model, loaded.tokenizer
    cache = ContiguousKVCache(model.config, len(prompt_ids) + params.max_tokens, loaded.dtype, loaded.device)
    generator = make_generator(params, loaded.device, index)
    detok = IncrementalDetokenizer(tokenizer, prompt_ids)
    stops = StopChecker(params.stop)
    stop_ids = set(params.stop_token_ids) | (set() if params.ignore_eos else loaded.eos_ids)
    tokens = torch.tensor(list(prompt_ids), device=loaded.device)
    positions = torch.arange(len(prompt_ids), device=loaded.device)
    generated: list[int] = []
    matcher = params.grammar.matcher() if params.grammar is not None else None
    for step in range(params.max_tokens):
        if cancelled is not None and cancelled.is_set():
            yield TokenEvent(index, "", finish_reason="abort")
            return
        hidden = model(tokens, positions, cache)  # [T, H]
        logits = model.compute_logits(hidden[-1:])[0]  # [V]
        if matcher is not None:
            logits = mask_logits(matcher, logits)  # [V], forbidden tokens at -inf
        token = sample(logits, params, generator, generated)  # penalties count the tokens generated so far
        generated.append(token)
        if matcher is not None:
            advance(matcher, token)
        event = TokenEvent(index, "", token_id=token)
        if params.logprobs:
            event.logprob, alternatives = token_logprobs(logits, token, params.top_logprobs)
            event.top_logprobs = [(tokenizer.token_text(i), lp) for i, lp in alternatives]
            event.token_text = tokenizer.token_text(token)
        if token in stop_ids:
            tail, _ = stops.release(detok.text, final=True)
            event.text, event.finish_reason = tail, "stop"
            yield event
            return
        detok.add(token)
        complete = matcher is not None and matcher.is_stopped()  # the grammar allows only EOS now
        last = step == params.max_tokens - 1
        event.text, hit = stops.release(detok.text, final=last or complete)
        if hit or complete:
            event.finish_reason = "stop"
            yield event
            return
        if last:
            event.finish_reason = "length"
        yield event
        tokens = torch.tensor([token], device=loaded.device)
        positions = torch.tensor([cache.length], device=loaded.device)


@dataclass(slots=True)
class _Job:
    request_id: str
    prompt_ids: Sequence[int]
    params: SamplingParams
    stats: RequestStats
    loop: asyncio.AbstractEventLoop
    events: asyncio.Queue
    cancelled: threading.Event = field(default_factory=threading.Event)
    enqueued_at: float = field(default_factory=time.perf_counter)


_DONE = object()


class SerialGenerationService:
    """Runs one request at a time on a worker thread; the async side reads events from a queue."""

    def __init__(self, loaded: LoadedModel) -> None:
        self._loaded = loaded
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._active: dict[str, _Job] = {}
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="thrifty-generation", daemon=True)
        self._thread.start()

    async def generate(self, request_id: str, prompt_ids: Sequence[int], params: SamplingParams,
                       stats: RequestStats, priority: str | None = None) -> AsyncIterator[TokenEvent]:
        job = _Job(request_id, prompt_ids, params, stats, asyncio.get_running_loop(), asyncio.Queue())
        with self._lock:
            self._active[request_id] = job
        self._jobs.put(job)
        try:
            while True:
                item = await job.events.get()
                if item is _DONE:
                    return
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            job.cancelled.set()  # a consumer that stops early (disconnect) aborts the work
            with self._lock:
                self._active.pop(request_id, None)

    def abort(self, request_id: str) -> None:
        with self._lock:
            job = self._active.get(request_id)
        if job is not None:
            job.cancelled.set()

    def close(self) -> None:
        self._jobs.put(None)

    def _emit(self, job: _Job, item) -> None:
        job.loop.call_soon_threadsafe(job.events.put_nowait, item)

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if job.cancelled.is_set():
                self._emit(job, _DONE)
                continue
            started = time.perf_counter()
            job.stats.queue_time = started - job.enqueued_at
            job.stats.prompt_tokens = len(job.prompt_ids)
            try:
                for index in range(job.params.n):
                    for event in generate_tokens(self._loaded, job.prompt_ids, job.params, job.cancelled, index):
                        if event.token_id is not None:
                            job.stats.completion_tokens += 1
                            if job.stats.ttft is None:
                                job.stats.ttft = time.perf_counter() - job.enqueued_at
                        self._emit(job, event)
                    if job.cancelled.is_set():
                        break
            except Exception as exc:  # noqa: BLE001 - an engine error fails only this request
                log.exception("generation failed for %s", job.request_id)
                self._emit(job, exc)
            job.stats.total_time = time.perf_counter() - job.enqueued_at
            self._emit(job, _DONE)

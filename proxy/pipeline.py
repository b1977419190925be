"""The request pipeline: resolve the model (router for the routed name) → exact/semantic cache →
forward → write-back to the cache and the request log, off the critical path."""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import time
import uuid
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass, field
from typing import Any

import msgspec

from proxy.components import RouterStage, cascadable
from proxy.errors import (
    InvalidRequest,
    NotFound,
    ThriftyError,
    UpstreamError,
    error_message,
    openai_error_body,
)
from proxy.feedback import FeedbackRecord, json_output_check
from proxy.json_schemas import answer_problem
from proxy.logs import log_access
from proxy.model_versions import ModelVersions
from proxy.pricing import PriceBook
from proxy.request_log import LogEntry, RequestLogWriter, routing_request_of
from proxy.settings import ModelAlias, Settings
from proxy.shaping.caps import finish_reason_of
from proxy.shaping.stage import ShapingStage
from proxy.sse import StreamAssembler, response_to_chunks
from proxy.upstream import UpstreamClient, UpstreamReply, UpstreamReplyError, passed_error_headers

log = logging.getLogger(__name__)

EXTENSION_FIELDS = ("thrifty",)  # ours; never forwarded upstream
LARGE_BODY_BYTES = 256 * 1024
UPSTREAM_PATHS = {"chat": "/chat/completions", "completions": "/completions"}


@dataclass(slots=True)
class CallContext:
    """Per-request facts the pipeline needs."""

    request_id: str
    key_id: str
    endpoint: str  # "chat" | "completions"
    started: float
    cache_control: str | None = None
    batch_id: str | None = None  # a line of this batch job: batch priority upstream, batch discount
    on_finish: Any = None  # called with the finished LogEntry (settles the key's reserved budget)
    body_bytes: int = 0  # size of the request body: large ones are keyed in a worker thread
    client_request_id: str | None = None  # the caller's x-request-id (kept beside request_id, may repeat)


@dataclass(slots=True)
class Reply:
    """A non-streaming answer: status, JSON body and extra headers."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass(slots=True)
class StreamReply:
    """A streaming answer: SSE bytes produced as upstream events arrive."""

    chunks: AsyncIterator[bytes]
    headers: dict[str, str]


SMALL_ANSWER_MAX_CHARS = 32_000  # a stored small answer is cut here (escalation features read far less)


@dataclass(slots=True)
class _Call:
    """State of one request as it moves through the stages."""

    ctx: CallContext
    data: dict[str, Any]
    alias: ModelAlias
    entry: LogEntry
    headers: dict[str, str] = field(default_factory=dict)
    cache_request: Any = None  # caches.types.CacheRequest
    model_version: str = ""
    tried: tuple[str, ...] = ()  # aliases whose upstream already failed this request


class Pipeline:
    """Turns a validated OpenAI request into a cached or upstream answer, logged afterwards."""

    def __init__(self, settings: Settings, upstream: UpstreamClient, request_log: RequestLogWriter, *,
                 cache=None, router: RouterStage | None = None, feedback_sink=None, upstream_batches=None,
                 metrics=None) -> None:
        self._aliases = {alias.name: alias for alias in settings.models}
        self._request_deadline_s = settings.proxy.request_deadline_s  # per model: ModelAlias.deadline_s
        self._metrics = metrics  # proxy.metrics.ProxyMetrics: counts every finished request
        self._upstream = upstream
        self.upstream_batches = upstream_batches  # batch pass-through to upstreams with a Batch API
        self._log = request_log
        self._cache = cache
        self._router = router
        self._prices = PriceBook(settings.prices)
        self._shaping = ShapingStage.from_settings(settings)
        self._versions = ModelVersions(upstream)
        self._feedback_sink = feedback_sink
        self._store_routed = settings.router.store_requests  # opt-in: keep routed bodies for retraining
        self._batch_discount = settings.batch.discount  # batch lines cost (1 - discount) of the list price
        self._access_log = settings.proxy.access_log
        self.interactive_seen = -math.inf  # monotonic time of the last interactive request activity
        self._background: set[asyncio.Task] = set()
        # endpoints answered outside the chat stages (embeddings): ctx.endpoint -> async handler(ctx, data),
        # so the app and the batch worker reach them through handle(); their models by public name
        self.endpoint_handlers: dict[str, Any] = {}
        self.endpoint_models: dict[str, str] = {}  # public model name -> its endpoint, e.g. "embeddings"

    @property
    def public_models(self) -> list[str]:
        names = [*self._aliases, *(m for m in self.endpoint_models if m not in self._aliases)]
        return [*names, self._router.public_model] if self._router else names

    @property
    def upstream_names(self) -> set[str]:
        return {alias.upstream for alias in self._aliases.values()}

    def upstream_for(self, model: str) -> str:
        """The upstream a request for ``model`` goes to (the small tier's for the routed name)."""
        if self._router is not None and model == self._router.public_model:
            model = self._router.tier_models["small"]
        alias = self._aliases.get(model)
        return alias.upstream if alias is not None else ""

    def resolve(self, model: str) -> ModelAlias:
        alias = self._aliases.get(model)
        if alias is None and model in self.endpoint_models:
            raise InvalidRequest(f"model {model!r} is served on /v1/{self.endpoint_models[model]} only",
                                 param="model", code="endpoint_not_supported")
        if alias is None:
            raise NotFound(f"model {model!r} does not exist; available models: {sorted(self.public_models)}",
                           param="model", code="model_not_found")
        return alias

    # --- the stages -------------------------------------------------------------------------

    async def handle(self, ctx: CallContext, data: dict[str, Any]) -> Reply | StreamReply:
        """Answer one validated request (the caller has logged validation failures)."""
        if (special := self.endpoint_handlers.get(ctx.endpoint)) is not None:
            return await special(ctx, data)
        entry = LogEntry(id=ctx.request_id, key_id=ctx.key_id, endpoint=ctx.endpoint, status_code=0,
                         model_requested=data["model"], stream=bool(data.get("stream")), cache_outcome="bypass",
                         client_request_id=ctx.client_request_id,
                         batch_id=ctx.batch_id)
        if ctx.batch_id is None:
            self.interactive_seen = time.monotonic()
        try:
            return await self._answer(ctx, data, entry)
        except Exception as exc:
            if not entry.status_code:  # not logged on the way: every request still gets its row
                self._finish(ctx, entry, *_failure_of(exc))
            raise

    async def _answer(self, ctx: CallContext, data: dict[str, Any], entry: LogEntry) -> Reply | StreamReply:
        """Route, shape, look up, then serve the hit or forward (the stages of :meth:`handle`)."""
        headers: dict[str, str] = {}
        alias = await self._route(data, entry, headers)
        call = _Call(ctx, data, alias, entry, headers)
        if ctx.body_bytes > LARGE_BODY_BYTES:  # shaping and counting megabytes stays off the event loop
            await asyncio.to_thread(self._shape, call)
        else:
            self._shape(call)
        if self._shaping.learned_refresh_due():
            self.spawn(self._shaping.learned.refresh(self._log.engine))
        if self._cascades(call):
            return await self._cascade(call)
        self._use_alias(call, alias)
        hit = await self._lookup(call)
        if hit is not None:
            return self._serve_hit(call, hit)
        return await self._forward(call)

    @property
    def shaping(self) -> ShapingStage:
        """The shaping stage (caps, prompt shaping, trimming) this pipeline applies."""
        return self._shaping

    def _shape(self, call: _Call) -> None:
        """Output cap and prompt shaping (``[shaping]``), before the cache key is made: the key holds
        the effective ``max_tokens`` and the shaped prompt. In cascade mode both tiers get the
        routed tier's shaping."""
        result = self._shaping.apply(call.data, tenant=call.ctx.key_id, model=call.alias.name,
                                     tier=call.entry.route, endpoint=call.ctx.endpoint)
        call.headers.update(result.headers)
        call.entry.cap, call.entry.max_tokens, call.entry.shaping = result.cap.kind, result.cap.max_tokens, \
            result.summary
        call.entry.prompt_cluster = result.cluster

    def _use_alias(self, call: _Call, alias: ModelAlias) -> None:
        call.alias = alias
        call.entry.upstream = alias.upstream
        call.headers["x-thrifty-upstream"] = alias.upstream

    def _upstream_body(self, call: _Call) -> dict[str, Any]:
        body = {k: v for k, v in call.data.items() if k not in EXTENSION_FIELDS}
        body["model"] = call.alias.model
        return body

    async def _forward(self, call: _Call, fallback=None) -> Reply | StreamReply:
        """Send the request to ``call.alias``'s upstream and relay its answer.

        ``fallback(exc)``: answers instead when the upstream fails before any response was sent
        (transport error, 5xx); otherwise the failure is logged and raised.
        """
        ctx, entry, alias, data = call.ctx, call.entry, call.alias, call.data
        body = self._upstream_body(call)
        try:
            if data.get("stream"):
                return await self._stream(call, body)
            if ctx.batch_id is not None and self.upstream_batches is not None \
                    and self.upstream_batches.handles(alias.upstream):
                reply = await self.upstream_batches.post(alias.upstream, UPSTREAM_PATHS[ctx.endpoint], body,
                                                         ctx.request_id)
            else:
                try:
                    async with asyncio.timeout(self._time_left(call)):
                        reply = await self._upstream.post(alias.upstream, UPSTREAM_PATHS[ctx.endpoint], body,
                                                          ctx.request_id, priority=_priority(ctx))
                except TimeoutError:  # the upstream call is cancelled with it
                    raise self._deadline_error(call) from None
            status, payload = self._pass_status(call, reply)
        except ThriftyError as exc:
            backup = self._fallback_alias(call, exc)
            if backup is not None:
                log.warning("model %r failed (%s); answering with its fallback %r", alias.name, exc.message, backup.name)
                call.tried += (alias.name,)
                call.headers["x-thrifty-fallback"] = _header_text(f"{alias.name} failed: {exc.message}")
                self._use_alias(call, backup)
                call.cache_request = None  # a stand-in's answer is not stored as the requested model's
                return await self._forward(call, fallback)
            if fallback is not None:
                return fallback(exc)
            self._finish(ctx, entry, exc.status, error=exc.message)
            raise
        self._record_answer(call, payload, status)
        if status < 400:
            self._after_success(call, payload)
            payload["model"] = data["model"]
        return Reply(status, payload, call.headers)

    def _fallback_alias(self, call: _Call, exc: ThriftyError) -> ModelAlias | None:
        """The next configured fallback of the request's model when its upstream failed (5xx,
        unreachable, timed out, circuit open), else None."""
        if exc.status < 500:
            return None
        first = self._aliases.get(call.tried[0]) if call.tried else call.alias
        for name in first.fallbacks if first is not None else ():
            if name != call.alias.name and name not in call.tried:
                return self._aliases.get(name)
        return None

    # --- cascade mode ---------------------------------------------------------------------------

    def _cascades(self, call: _Call) -> bool:
        """Cascade mode applies to routed single-choice chat requests without tools (``n`` > 1
        would need every choice judged, and an answer made of tool calls cannot be judged: those
        take the tier the first routing step chose). In combined mode the first step sends clearly
        hard prompts to the large tier directly; only those it leaves on the small tier cascade."""
        return (self._router is not None and self._router.escalator is not None and call.entry.route == "small"
                and call.ctx.endpoint == "chat" and cascadable(call.data))

    async def _cascade(self, call: _Call) -> Reply | StreamReply:
        """The large tier's cached answer if there is one; else the small tier's answer (its cache,
        or a non-streaming call), which is kept unless the escalator judges it weak; then the large
        tier (cache included). A cached small answer is judged like a fresh one: it may have been
        stored for a request that named the small model and was never judged. A small-tier failure
        (any status >= 400, transport) escalates; a large-tier failure after a usable small answer
        falls back to that answer. Every paid call is counted in the log."""
        ctx, entry, data, headers = call.ctx, call.entry, call.data, call.headers
        large = self.resolve(self._router.tier_models["large"])
        small = call.alias
        self._use_alias(call, large)
        hit = await self._lookup(call)  # an earlier escalation's answer: no small call needed
        if hit is not None:
            entry.route, entry.cascade_outcome = "large", "escalated"
            headers.update({"x-thrifty-route": "large", "x-thrifty-cascade": "escalated",
                            "x-thrifty-route-reason": _cascade_reason(headers, "large-tier answer cached")})
            return self._serve_hit(call, hit)
        large_lookup = (call.cache_request, call.model_version, headers["x-thrifty-cache"], entry.cache_outcome)
        self._use_alias(call, small)
        small_hit = await self._lookup(call)
        small_lookup = (call.cache_request, call.model_version, headers["x-thrifty-cache"], entry.cache_outcome)
        payload, failure = await self._small_answer(call, small_hit)
        if payload is not None:
            text, finish_reason = _first_choice(payload)
            if self._store_routed and isinstance(text, str):  # what the escalation model judged, for retraining
                entry.small_answer = text[:SMALL_ANSWER_MAX_CHARS]
            decision = await asyncio.to_thread(self._router.escalator.decide, data, text, finish_reason)
            score, threshold, reason, escalate = decision.score, decision.threshold, decision.reason, decision.escalate
            if small_hit is not None:
                reason = "cached small answer, " + reason
            problem = _structure_problem(data, payload)
            if problem is not None:  # an answer that fails its schema is a weak answer, whatever its score
                escalate, reason = True, f"small answer fails its requested structure ({problem})"
        else:
            score, threshold, reason, escalate = math.nan, math.nan, failure, True
        headers["x-thrifty-cascade"] = entry.cascade_outcome = "escalated" if escalate else "accepted"
        headers["x-thrifty-cascade-score"] = _header_number(score)
        headers["x-thrifty-cascade-threshold"] = _header_number(threshold)
        headers["x-thrifty-route-reason"] = _cascade_reason(headers, reason)
        entry.route_score = None if math.isnan(score) else score
        if not escalate:
            assert payload is not None
            if small_hit is not None:
                return self._serve_hit(call, small_hit, payload)
            return self._serve_small(call, payload)

        if payload is not None and small_hit is None:  # the small call is paid for though its answer is dropped
            entry.extra_cost_usd = self._prices.cost(small.name, *_usage_tokens(payload.get("usage")))
        if payload is not None:
            self._check_small_answer(call, payload)
        entry.route = "large"
        headers["x-thrifty-route"] = "large"
        self._use_alias(call, large)
        self._restore_lookup(call, large_lookup)  # the answer now comes from the large tier, whose cache missed

        def fall_back_to_small(exc: ThriftyError) -> Reply | StreamReply:
            if payload is None:
                self._finish(ctx, entry, exc.status, error=exc.message)
                raise exc
            log.warning("cascade: the large tier failed after escalation (%s); serving the small answer", exc.message)
            entry.route, entry.cascade_outcome, entry.extra_cost_usd = "small", "escalation_failed", None
            headers.update({"x-thrifty-route": "small", "x-thrifty-cascade": "escalation_failed",
                            "x-thrifty-route-reason": _cascade_reason(headers, f"large tier failed: {exc.message}")})
            self._use_alias(call, small)
            self._restore_lookup(call, small_lookup)
            if small_hit is not None:
                return self._serve_hit(call, small_hit, payload)
            return self._serve_small(call, payload, store=False)

        return await self._forward(call, fallback=fall_back_to_small)

    async def _small_answer(self, call: _Call, hit) -> tuple[dict[str, Any] | None, str]:
        """The small tier's answer to judge: the cached one, or a fresh non-streaming call.
        Returns ``(payload, "")`` or ``(None, why it failed)``."""
        if hit is not None:
            return msgspec.json.decode(hit.body), ""
        body = self._upstream_body(call)
        body["stream"] = False
        body.pop("stream_options", None)
        try:
            reply = await self._upstream.post(call.alias.upstream, UPSTREAM_PATHS[call.ctx.endpoint], body,
                                              call.ctx.request_id, priority=_priority(call.ctx))
        except ThriftyError as exc:
            return None, f"small tier failed: {exc.message}"
        if reply.status >= 400:  # the small tier's limits (context, rate, size) are not the caller's problem
            return None, f"small tier failed with status {reply.status}: {error_message(reply.body)}"
        return reply.body, ""

    @staticmethod
    def _restore_lookup(call: _Call, lookup: tuple) -> None:
        """Put back one tier's cache lookup (request, model version, outcome) after the other's."""
        call.cache_request, call.model_version, call.headers["x-thrifty-cache"], call.entry.cache_outcome = lookup

    def _serve_small(self, call: _Call, payload: dict[str, Any], *, store: bool = True) -> Reply | StreamReply:
        """Return the small tier's whole answer (as SSE chunks to a streaming client), logged;
        cached only when it was judged good enough (``store``)."""
        self._record_answer(call, payload, 200)
        if store:
            self._after_success(call, payload)
        payload["model"] = call.data["model"]
        payload.setdefault("object", "chat.completion")
        return self._whole_reply(call, payload)

    def _record_answer(self, call: _Call, payload: dict[str, Any], status: int) -> None:
        """Complete and queue the log entry of an upstream's non-streaming answer."""
        entry = call.entry
        entry.model_served = payload.get("model")
        self._fill_usage(entry, payload.get("usage"))
        entry.finish_reason = finish_reason_of(payload)
        entry.ttft_ms = _float_or_none(_dict(payload.get("timings")).get("ttft_ms"))
        self._finish(call.ctx, entry, status, error=error_message(payload) if status >= 400 else None)

    async def _route(self, data: dict[str, Any], entry: LogEntry, headers: dict[str, str]) -> ModelAlias:
        """Explicit model names map to their alias; the routed name asks the router for a tier."""
        if self._router is None or data["model"] != self._router.public_model:
            return self.resolve(data["model"])
        decision = await self._router.router.decide_async(data)
        entry.route = decision.tier
        entry.route_score = None if math.isnan(decision.score) else decision.score
        if self._store_routed:
            entry.routing_request = routing_request_of(data)  # JSON-encoded later by the log writer
        headers["x-thrifty-route"] = decision.tier
        headers["x-thrifty-route-score"] = _header_number(decision.score)
        headers["x-thrifty-route-threshold"] = _header_number(decision.threshold)
        headers["x-thrifty-route-reason"] = _header_text(decision.reason)
        if decision.failed:
            log.warning("routing fell back to %r: %s", decision.tier, decision.reason)
        return self.resolve(self._router.tier_models[decision.tier])

    async def _lookup(self, call: _Call):
        """Exact then semantic cache; returns a hit or None and sets ``x-thrifty-cache``."""
        if self._cache is None:
            call.headers["x-thrifty-cache"] = "bypass"
            return None
        prepare = functools.partial(self._cache.prepare, call.data, model=call.alias.name, tenant=call.ctx.key_id,
                                    cache_control=call.ctx.cache_control)
        # keying a body of megabytes takes seconds: off the event loop, so other requests go on
        call.cache_request = await asyncio.to_thread(prepare) if call.ctx.body_bytes > LARGE_BODY_BYTES else prepare()
        decision = call.cache_request.decision
        if not (decision.lookup or decision.store):
            call.headers["x-thrifty-cache"] = "bypass"
            return None
        call.model_version = await self._versions.version(call.alias)
        hit = await self._cache.lookup(call.cache_request, model_version=call.model_version, arrived=call.ctx.started,
                                       on_skip=functools.partial(_note_skip, call.headers)) if decision.lookup else None
        outcome = hit.kind if hit is not None else ("miss" if decision.lookup else "bypass")
        call.headers["x-thrifty-cache"] = outcome
        call.entry.cache_outcome = outcome
        return hit

    def _serve_hit(self, call: _Call, hit, payload: dict[str, Any] | None = None) -> Reply | StreamReply:
        """Answer from the cache; ``payload``: ``hit.body`` when the caller has already decoded it."""
        payload = msgspec.json.decode(hit.body) if payload is None else payload
        prefix = "chatcmpl-" if call.ctx.endpoint == "chat" else "cmpl-"
        payload.update(id=prefix + uuid.uuid4().hex, created=int(time.time()), model=call.data["model"])
        if hit.similarity is not None:
            call.headers["x-thrifty-cache-similarity"] = f"{hit.similarity:.4f}"
        call.headers["x-thrifty-cache-entry"] = hit.entry_id[:64]
        entry = call.entry
        entry.model_served = hit.model
        self._fill_usage(entry, payload.get("usage"))
        entry.cached_tokens = 0  # no upstream call: no prompt tokens were reused from a prefix cache for it
        entry.finish_reason = finish_reason_of(payload)
        entry.ttft_ms = (time.perf_counter() - call.ctx.started) * 1000
        self._finish(call.ctx, entry, 200, cache_hit=True)
        return self._whole_reply(call, payload)

    @staticmethod
    def _whole_reply(call: _Call, payload: dict[str, Any]) -> Reply | StreamReply:
        """A whole answer we already hold: JSON, or replayed as SSE chunks to a streaming client."""
        if call.data.get("stream"):
            include_usage = bool((call.data.get("stream_options") or {}).get("include_usage"))
            return StreamReply(_iterate(response_to_chunks(payload, include_usage)), call.headers)
        return Reply(200, payload, call.headers)

    def _deadline_of(self, call: _Call) -> float:
        """The whole-request deadline of ``call``'s model (``[models.<name>] deadline_s``), else the proxy's."""
        own = getattr(call.alias, "deadline_s", None)  # a ModelAlias; stand-ins may lack it
        return own if own is not None else self._request_deadline_s

    def _time_left(self, call: _Call) -> float:
        """Seconds left of ``call``'s deadline, counted from the request's arrival."""
        return max(0.0, self._deadline_of(call) - (time.perf_counter() - call.ctx.started))

    def _deadline_error(self, call: _Call) -> UpstreamError:
        return UpstreamError(f"the request did not finish within its deadline of {self._deadline_of(call):g} s "
                             f"(model {call.data.get('model')!r}); the upstream call was cancelled",
                             code="deadline_exceeded", status=504)

    def _pass_status(self, call: _Call, reply: UpstreamReply) -> tuple[int, dict[str, Any]]:
        """4xx answers pass through as complete OpenAI error objects, with the upstream's
        ``retry-after`` and ``x-ratelimit-*`` headers; 5xx become a 502 that names the upstream."""
        alias = call.alias
        if reply.status >= 500:  # still a 5xx (503 and 504 as they came, others 502), retry-after kept
            error = UpstreamError(f"upstream {alias.upstream!r} failed with status {reply.status}: "
                                  f"{error_message(reply.body)}", code="upstream_error",
                                  status=reply.status if reply.status in (502, 503, 504) else 502)
            error.headers = passed_error_headers(reply.headers) or None
            raise error
        if reply.status < 400 and (problem := _malformed_answer(reply.body)):
            # never returned, logged as a success or cached: the client would choke on it too
            raise UpstreamError(f"upstream {alias.upstream!r} returned a malformed answer: {problem}",
                                code="upstream_malformed", status=502)
        if reply.status >= 400:
            call.headers.update(passed_error_headers(reply.headers))
            return reply.status, openai_error_body(reply.body, reply.status)
        return reply.status, reply.body

    async def _stream(self, call: _Call, body: dict[str, Any]) -> Reply | StreamReply:
        want_usage = bool((call.data.get("stream_options") or {}).get("include_usage"))
        body["stream_options"] = {**(call.data.get("stream_options") or {}), "include_usage": True}
        try:
            async with asyncio.timeout(self._time_left(call)):  # until the upstream's first byte
                response = await self._upstream.stream(call.alias.upstream, UPSTREAM_PATHS[call.ctx.endpoint], body,
                                                        call.ctx.request_id, priority=_priority(call.ctx))
        except TimeoutError:
            raise self._deadline_error(call) from None
        except UpstreamReplyError as exc:
            status, payload = self._pass_status(call, exc.reply)
            self._finish(call.ctx, call.entry, status, error=error_message(payload))
            return Reply(status, payload, call.headers)
        return StreamReply(self._relay(call, response, want_usage), call.headers)

    async def _relay(self, call: _Call, response, want_usage: bool) -> AsyncIterator[bytes]:
        entry, public_model = call.entry, call.data["model"]
        assembler = StreamAssembler()
        status, error, finished = 200, None, False
        events = self._upstream.iter_events(call.alias.upstream, response)
        until = asyncio.get_running_loop().time() + self._time_left(call)
        try:
            while True:
                try:
                    async with asyncio.timeout_at(until):  # the whole stream, by the clock
                        event = await anext(events)
                except StopAsyncIteration:
                    break
                except TimeoutError:  # the events' generator is closed: the upstream connection with it
                    raise self._deadline_error(call) from None
                if call.ctx.batch_id is None:
                    self.interactive_seen = time.monotonic()  # a long stream is interactive traffic too
                data = event.data
                if event.done:
                    finished = True
                if data is None:
                    if not event.done and b"data:" in event.raw:  # a chunk that is not JSON: the stream is broken
                        raise UpstreamError(f"upstream {call.alias.upstream!r} sent a malformed stream chunk",
                                            code="upstream_malformed", status=502)
                    yield event.raw
                    continue
                if "error" in data:  # the upstream's own error event: ours instead, then the end of the stream
                    status, error = 502, error_message(data)
                    failure = openai_error_body(data, 502)
                    failure["error"]["code"] = failure["error"]["code"] or "upstream_error"
                    yield b"data: " + msgspec.json.encode(failure) + b"\n\n" + _DONE
                    return
                assembler.add(data)
                if data.get("usage"):
                    self._fill_usage(entry, data["usage"])
                    if entry.ttft_ms is None:
                        entry.ttft_ms = _float_or_none((data.get("timings") or {}).get("ttft_ms"))
                    if not want_usage:
                        continue  # the caller did not ask for the usage chunk
                if entry.ttft_ms is None and data.get("choices"):
                    entry.ttft_ms = (time.perf_counter() - call.ctx.started) * 1000
                entry.model_served = entry.model_served or data.get("model")
                if "model" in data:
                    data["model"] = public_model
                if not want_usage:
                    data.pop("usage", None)
                yield b"data: " + msgspec.json.encode(data) + b"\n\n"
            if not finished and status == 200:
                raise UpstreamError(f"upstream {call.alias.upstream!r} ended the stream before [DONE]",
                                    code="upstream_stream_broken", status=502)
        except ThriftyError as exc:
            status, error = exc.status, exc.message
            yield b"data: " + msgspec.json.encode(exc.body()) + b"\n\n" + _DONE
        except Exception as exc:  # a bug of ours mid-stream: a 500 in the log and an error event, not a 499
            log.exception("relaying the stream of request %s failed", call.ctx.request_id)
            status, error = _failure_of(exc)
            failure = ThriftyError("the proxy failed while relaying the answer", code="internal_error")
            yield b"data: " + msgspec.json.encode(failure.body()) + b"\n\n" + _DONE
        except BaseException:
            status, error = 499, "client disconnected"
            raise
        finally:
            whole = assembler.result() if finished and status == 200 else None
            if whole is not None:
                entry.finish_reason = finish_reason_of(whole)
            self._finish(call.ctx, entry, status, error=error)
            if whole is not None:
                self._after_success(call, whole)

    # --- after the response -----------------------------------------------------------------

    def _after_success(self, call: _Call, payload: dict[str, Any]) -> None:
        """Cache write-back and automatic quality checks, in the background."""
        if self._cache is not None and call.cache_request is not None and call.cache_request.decision.store:
            problem = _structure_problem(call.data, payload)
            if problem is None:
                self.spawn(self._cache.store(call.cache_request, msgspec.json.encode(payload),
                                              model_version=call.model_version))
            else:  # served as the upstream gave it, but never stored: the next request asks again
                log.info("not caching an answer that fails its requested structure: %s", problem)
        if self._feedback_sink is not None and call.ctx.endpoint == "chat":
            score = json_output_check(call.data, payload)
            if score is not None:
                self._feedback_sink(FeedbackRecord(call.ctx.request_id, call.ctx.key_id, score, "json_check"))

    def _check_small_answer(self, call: _Call, payload: dict[str, Any]) -> None:
        """Automatic checks of a small answer the cascade drops (the served answer's checks judge the
        large tier's): recorded as ``small_<check>`` feedback, which only escalation retraining reads."""
        if self._feedback_sink is not None and self._store_routed:
            score = json_output_check(call.data, payload)
            if score is not None:
                self._feedback_sink(FeedbackRecord(call.ctx.request_id, call.ctx.key_id, score, "small_json_check"))

    def spawn(self, work: Coroutine) -> None:
        """Run ``work`` in the background (tracked, so shutdown can wait for it)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def drain(self) -> None:
        """Wait for background write-backs (shutdown and tests)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    @staticmethod
    def _fill_usage(entry: LogEntry, usage: Any) -> None:
        entry.prompt_tokens, entry.completion_tokens, entry.cached_tokens = _usage_tokens(usage)

    def _finish(self, ctx: CallContext, entry: LogEntry, status: int, error: str | None = None,
                cache_hit: bool = False) -> None:
        """Complete the log entry (status, latency, cost and saving) and queue it.

        Cost is the served model's price for the tokens (nothing for a cache hit); the saving is
        measured against the large tier (when routing is configured and priced), else against
        serving the same model uncached.
        """
        entry.status_code = status
        entry.error = error
        if status >= 400:
            entry.routing_request = None  # retraining exports only answered requests: keep no prompt text
        entry.latency_ms = (time.perf_counter() - ctx.started) * 1000
        if status < 400 and entry.prompt_tokens is not None:
            tokens = (entry.prompt_tokens, entry.completion_tokens, entry.cached_tokens)
            full = self._prices.cost(self._alias_name_for(entry), *tokens)
            cost = 0.0 if cache_hit else full
            if cost is not None and entry.extra_cost_usd is not None:
                cost += entry.extra_cost_usd  # earlier calls of this request (cascade's small answer)
            if cost and ctx.batch_id is not None and self._batch_discount:
                entry.batch_saved_usd = cost * self._batch_discount  # paid at the batch price
                cost -= entry.batch_saved_usd
            entry.cost_usd = cost
            large = self._router.tier_models["large"] if self._router else None
            baseline = self._prices.cost(large, *tokens) if large and self._prices.known(large) else full
            if baseline is not None and entry.cost_usd is not None:
                entry.saved_usd = baseline - entry.cost_usd
        elif entry.extra_cost_usd is not None:  # a cascade whose large call failed: the small call was paid
            entry.cost_usd = entry.extra_cost_usd
        if ctx.on_finish is not None:
            ctx.on_finish(entry)
        self._log.record(entry)
        if self._access_log:
            log_access(entry)
        if self._metrics is not None:
            self._metrics.observe_request(entry)

    def _alias_name_for(self, entry: LogEntry) -> str | None:
        if entry.route and self._router:
            return self._router.tier_models.get(entry.route)
        return entry.model_requested

    def log_rejected(self, ctx: CallContext, status: int, error: str, model: str | None) -> None:
        """Record a request refused before the pipeline (validation)."""
        entry = LogEntry(id=ctx.request_id, key_id=ctx.key_id, endpoint=ctx.endpoint, status_code=status,
                         client_request_id=ctx.client_request_id, model_requested=model)
        self._finish(ctx, entry, status, error=error)


def _malformed_answer(payload: dict[str, Any]) -> str | None:
    """What is wrong with a 2xx completion body's shape, or None when clients can read it."""
    choices = payload.get("choices")
    if not isinstance(choices, list):
        return "'choices' is not a list"
    for choice in choices:
        if not isinstance(choice, dict):
            return "a choice is not an object"
        if "message" in choice:
            message = choice["message"]
            if not isinstance(message, dict):
                return "'message' is not an object"
            if not isinstance(message.get("content"), str | None):
                return "'message.content' is neither a string nor null"
        elif "text" in choice:
            if not isinstance(choice["text"], str):
                return "'text' is not a string"
        else:
            return "a choice has neither 'message' nor 'text'"
    usage = payload.get("usage")
    if usage is not None and not isinstance(usage, dict):
        return "'usage' is not an object"
    return None


def _note_skip(headers: dict[str, str], reason: str) -> None:
    """Say why the semantic lookup was given up (the request went upstream as a miss)."""
    headers["x-thrifty-cache-skipped"] = reason


def _priority(ctx: CallContext) -> str | None:
    """The scheduling class asked of the upstream (``x-thrifty-priority``; the bundled backend
    serves interactive requests first, other upstreams ignore the header)."""
    return "batch" if ctx.batch_id is not None else None


async def _iterate(chunks) -> AsyncIterator[bytes]:
    for chunk in chunks:
        yield chunk


_DONE = b"data: [DONE]\n\n"  # the end of every stream, also after an error event


def _failure_of(exc: Exception) -> tuple[int, str]:
    """Status and log text of a request that failed with ``exc`` before it was logged: a
    ``ThriftyError``'s own, else a 500 naming only the exception's type (its text, which may hold
    internals, is in the proxy log with the request id)."""
    if isinstance(exc, ThriftyError):
        return exc.status, exc.message
    return 500, f"internal error ({type(exc).__name__}); see the proxy log"


def _float_or_none(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _header_number(value: float) -> str:
    return "nan" if math.isnan(value) else f"{value:.4f}"


def _first_choice(payload: dict[str, Any]) -> tuple[str | None, str | None]:
    """Text and finish reason of a chat completion's first choice (``None`` where missing: no
    choices, tool calls only...)."""
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None, None
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    finish_reason = choices[0].get("finish_reason")
    return (content if isinstance(content, str) else None,
            finish_reason if isinstance(finish_reason, str) else None)


def _cascade_reason(headers: dict[str, str], reason: str) -> str:
    """The cascade's route-reason header, still saying ``explore;`` when combined mode's explore_share sent
    the request into the cascade."""
    explored = headers.get("x-thrifty-route-reason", "").startswith(("explore: ", "explore; "))
    return _header_text(("explore; " if explored else "") + "cascade: " + reason)


def _header_text(text: str, limit: int = 200) -> str:
    """``text`` safe for an HTTP header value: control characters (newlines in upstream error
    messages...) become spaces, non-ASCII becomes '?', at most ``limit`` characters."""
    cleaned = "".join(" " if ord(ch) < 32 or ord(ch) == 127 else ch for ch in text[:limit])
    return cleaned.encode("ascii", "replace").decode()


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _usage_tokens(usage: Any) -> tuple[int | None, int | None, int | None]:
    """``(prompt, completion, cached prompt)`` token counts of an OpenAI ``usage`` object; an
    upstream's malformed or missing values count as unknown."""
    usage = _dict(usage)
    return (_int_or_none(usage.get("prompt_tokens")), _int_or_none(usage.get("completion_tokens")),
            _int_or_none(_dict(usage.get("prompt_tokens_details")).get("cached_tokens")))


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _structure_problem(body: dict[str, Any], payload: dict[str, Any]) -> str | None:
    """Why ``payload`` fails the structure (``response_format``, forced or offered tools) ``body`` asked for;
    ``None`` when it asked for none or the answer complies."""
    if not (body.get("response_format") or body.get("tools")):
        return None
    try:
        return answer_problem(body, payload)
    except Exception as exc:  # a checker failure must not fail the request
        log.warning("structure check failed: %r", exc)
        return None

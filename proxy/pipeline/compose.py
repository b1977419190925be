"""The request pipeline: resolve the model (router for the routed name) → shape → exact/semantic cache →
forward → write-back to the cache and the request log, off the critical path.

The stages' parts live beside it: the per-request types in :mod:`proxy.pipeline.call`, cascade mode in
:mod:`proxy.pipeline.cascade`, stream relaying in :mod:`proxy.pipeline.stream_relay`, cost accounting and the log row in
:mod:`proxy.pipeline.accounting`, payload readers in :mod:`proxy.pipeline.answers`."""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import time
import uuid
from collections.abc import AsyncIterator, Coroutine
from typing import Any

import msgspec

from proxy.config.sections import ModelAlias
from proxy.config.settings import Settings
from proxy.pipeline.accounting import CallAccounting
from proxy.pipeline.answers import (
    as_dict,
    failure_of,
    float_or_none,
    header_number,
    header_text,
    malformed_answer,
    structure_problem,
)
from proxy.pipeline.call import (
    EXTENSION_FIELDS,
    LARGE_BODY_BYTES,
    UPSTREAM_PATHS,
    Call,
    CallContext,
    Reply,
    StreamReply,
    priority_of,
)
from proxy.pipeline.cascade import CascadeStage
from proxy.pipeline.components import RouterStage
from proxy.pipeline.feedback import FeedbackRecord, json_output_check
from proxy.pipeline.stream_relay import StreamRelay
from proxy.pricing import PriceBook
from proxy.shaping.caps import finish_reason_of
from proxy.shaping.stage import ShapingStage
from proxy.storage.request_log import LogEntry, RequestLogWriter, routing_request_of
from proxy.upstream.client import UpstreamClient, UpstreamReply, passed_error_headers
from proxy.upstream.model_versions import ModelVersions
from proxy.wire.errors import (
    InvalidRequest,
    NotFound,
    ThriftyError,
    UpstreamError,
    error_message,
    openai_error_body,
)
from proxy.wire.sse import response_to_chunks

__all__ = ["LARGE_BODY_BYTES", "CallContext", "Pipeline", "Reply", "StreamReply"]

log = logging.getLogger(__name__)


class Pipeline(CascadeStage, StreamRelay):
    """Turns a validated OpenAI request into a cached or upstream answer, logged afterwards."""

    def __init__(self, settings: Settings, upstream: UpstreamClient, request_log: RequestLogWriter, *,
                 cache=None, router: RouterStage | None = None, feedback_sink=None, upstream_batches=None,
                 metrics=None) -> None:
        self._aliases = {alias.name: alias for alias in settings.models}
        self._request_deadline_s = settings.proxy.request_deadline_s  # per model: ModelAlias.deadline_s
        self._metrics = metrics  # proxy.http.metrics.ProxyMetrics: counts every finished request
        self._upstream = upstream
        self.upstream_batches = upstream_batches  # batch pass-through to upstreams with a Batch API
        self._log = request_log
        self._cache = cache
        self._router = router
        self._prices = PriceBook(settings.prices)
        self._accounting = CallAccounting(self._prices, request_log, router=router, metrics=metrics,
                                          batch_discount=settings.batch.discount,
                                          access_log=settings.proxy.access_log)
        self._shaping = ShapingStage.from_settings(settings)
        self._versions = ModelVersions(upstream)
        self._feedback_sink = feedback_sink
        self._store_routed = settings.router.store_requests  # opt-in: keep routed bodies for retraining
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
                self._finish(ctx, entry, *failure_of(exc))
            raise

    async def _answer(self, ctx: CallContext, data: dict[str, Any], entry: LogEntry) -> Reply | StreamReply:
        """Route, shape, look up, then serve the hit or forward (the stages of :meth:`handle`)."""
        headers: dict[str, str] = {}
        alias = await self._route(data, entry, headers)
        call = Call(ctx, data, alias, entry, headers)
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

    def _shape(self, call: Call) -> None:
        """Output cap and prompt shaping (``[shaping]``), before the cache key is made: the key holds
        the effective ``max_tokens`` and the shaped prompt. In cascade mode both tiers get the
        routed tier's shaping."""
        result = self._shaping.apply(call.data, tenant=call.ctx.key_id, model=call.alias.name,
                                     tier=call.entry.route, endpoint=call.ctx.endpoint)
        call.headers.update(result.headers)
        call.entry.cap, call.entry.max_tokens, call.entry.shaping = result.cap.kind, result.cap.max_tokens, \
            result.summary
        call.entry.prompt_cluster = result.cluster

    def _use_alias(self, call: Call, alias: ModelAlias) -> None:
        call.alias = alias
        call.entry.upstream = alias.upstream
        call.headers["x-thrifty-upstream"] = alias.upstream

    def _upstream_body(self, call: Call) -> dict[str, Any]:
        body = {k: v for k, v in call.data.items() if k not in EXTENSION_FIELDS}
        body["model"] = call.alias.model
        return body

    async def _forward(self, call: Call, fallback=None) -> Reply | StreamReply:
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
                                                          ctx.request_id, priority=priority_of(ctx))
                except TimeoutError:  # the upstream call is cancelled with it
                    raise self._deadline_error(call) from None
            status, payload = self._pass_status(call, reply)
        except ThriftyError as exc:
            backup = self._fallback_alias(call, exc)
            if backup is not None:
                log.warning("model %r failed (%s); answering with its fallback %r", alias.name, exc.message, backup.name)
                call.tried += (alias.name,)
                call.headers["x-thrifty-fallback"] = header_text(f"{alias.name} failed: {exc.message}")
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

    def _fallback_alias(self, call: Call, exc: ThriftyError) -> ModelAlias | None:
        """The next configured fallback of the request's model when its upstream failed (5xx,
        unreachable, timed out, circuit open), else None."""
        if exc.status < 500:
            return None
        first = self._aliases.get(call.tried[0]) if call.tried else call.alias
        for name in first.fallbacks if first is not None else ():
            if name != call.alias.name and name not in call.tried:
                return self._aliases.get(name)
        return None

    def _record_answer(self, call: Call, payload: dict[str, Any], status: int) -> None:
        """Complete and queue the log entry of an upstream's non-streaming answer."""
        entry = call.entry
        entry.model_served = payload.get("model")
        self._fill_usage(entry, payload.get("usage"))
        entry.finish_reason = finish_reason_of(payload)
        entry.ttft_ms = float_or_none(as_dict(payload.get("timings")).get("ttft_ms"))
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
        headers["x-thrifty-route-score"] = header_number(decision.score)
        headers["x-thrifty-route-threshold"] = header_number(decision.threshold)
        headers["x-thrifty-route-reason"] = header_text(decision.reason)
        if decision.failed:
            log.warning("routing fell back to %r: %s", decision.tier, decision.reason)
        return self.resolve(self._router.tier_models[decision.tier])

    async def _lookup(self, call: Call):
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

    def _serve_hit(self, call: Call, hit, payload: dict[str, Any] | None = None) -> Reply | StreamReply:
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
    def _whole_reply(call: Call, payload: dict[str, Any]) -> Reply | StreamReply:
        """A whole answer we already hold: JSON, or replayed as SSE chunks to a streaming client."""
        if call.data.get("stream"):
            include_usage = bool((call.data.get("stream_options") or {}).get("include_usage"))
            return StreamReply(_iterate(response_to_chunks(payload, include_usage)), call.headers)
        return Reply(200, payload, call.headers)

    def _deadline_of(self, call: Call) -> float:
        """The whole-request deadline of ``call``'s model (``[models.<name>] deadline_s``), else the proxy's."""
        own = getattr(call.alias, "deadline_s", None)  # a ModelAlias; stand-ins may lack it
        return own if own is not None else self._request_deadline_s

    def _time_left(self, call: Call) -> float:
        """Seconds left of ``call``'s deadline, counted from the request's arrival."""
        return max(0.0, self._deadline_of(call) - (time.perf_counter() - call.ctx.started))

    def _deadline_error(self, call: Call) -> UpstreamError:
        return UpstreamError(f"the request did not finish within its deadline of {self._deadline_of(call):g} s "
                             f"(model {call.data.get('model')!r}); the upstream call was cancelled",
                             code="deadline_exceeded", status=504)

    def _pass_status(self, call: Call, reply: UpstreamReply) -> tuple[int, dict[str, Any]]:
        """4xx answers pass through as complete OpenAI error objects, with the upstream's
        ``retry-after`` and ``x-ratelimit-*`` headers; 5xx become a 502 that names the upstream."""
        alias = call.alias
        if reply.status >= 500:  # still a 5xx (503 and 504 as they came, others 502), retry-after kept
            error = UpstreamError(f"upstream {alias.upstream!r} failed with status {reply.status}: "
                                  f"{error_message(reply.body)}", code="upstream_error",
                                  status=reply.status if reply.status in (502, 503, 504) else 502)
            error.headers = passed_error_headers(reply.headers) or None
            raise error
        if reply.status < 400 and (problem := malformed_answer(reply.body)):
            # never returned, logged as a success or cached: the client would choke on it too
            raise UpstreamError(f"upstream {alias.upstream!r} returned a malformed answer: {problem}",
                                code="upstream_malformed", status=502)
        if reply.status >= 400:
            call.headers.update(passed_error_headers(reply.headers))
            return reply.status, openai_error_body(reply.body, reply.status)
        return reply.status, reply.body

    # --- after the response -----------------------------------------------------------------

    def _after_success(self, call: Call, payload: dict[str, Any]) -> None:
        """Cache write-back and automatic quality checks, in the background."""
        if self._cache is not None and call.cache_request is not None and call.cache_request.decision.store:
            problem = structure_problem(call.data, payload)
            if problem is None:
                self.spawn(self._cache.store(call.cache_request, msgspec.json.encode(payload),
                                              model_version=call.model_version))
            else:  # served as the upstream gave it, but never stored: the next request asks again
                log.info("not caching an answer that fails its requested structure: %s", problem)
        if self._feedback_sink is not None and call.ctx.endpoint == "chat":
            score = json_output_check(call.data, payload)
            if score is not None:
                self._feedback_sink(FeedbackRecord(call.ctx.request_id, call.ctx.key_id, score, "json_check"))

    def _finish(self, ctx: CallContext, entry: LogEntry, status: int, error: str | None = None,
                cache_hit: bool = False) -> None:
        """Complete the log entry (status, latency, cost and saving) and queue it (:mod:`proxy.pipeline.accounting`)."""
        self._accounting.finish(ctx, entry, status, error=error, cache_hit=cache_hit)

    @staticmethod
    def _fill_usage(entry: LogEntry, usage: Any) -> None:
        CallAccounting.fill_usage(entry, usage)

    def log_rejected(self, ctx: CallContext, status: int, error: str, model: str | None) -> None:
        """Record a request refused before the pipeline (validation)."""
        self._accounting.log_rejected(ctx, status, error, model)

    def spawn(self, work: Coroutine) -> None:
        """Run ``work`` in the background (tracked, so shutdown can wait for it)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def drain(self) -> None:
        """Wait for background write-backs (shutdown and tests)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)


def _note_skip(headers: dict[str, str], reason: str) -> None:
    """Say why the semantic lookup was given up (the request went upstream as a miss)."""
    headers["x-thrifty-cache-skipped"] = reason


async def _iterate(chunks) -> AsyncIterator[bytes]:
    for chunk in chunks:
        yield chunk

"""The proxy's Litestar application, built by :func:`create_app` from a :class:`Settings`."""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Litestar, Request, Response, delete, get, post
from litestar.exceptions import HTTPException
from litestar.response import Stream

from proxy.auth.service import AuthService
from proxy.auth.throttle import LoginThrottle
from proxy.batch.api import batch_handlers
from proxy.batch.passthrough import UpstreamBatches
from proxy.batch.service import BatchService
from proxy.config.sections import BUNDLED_UPSTREAM
from proxy.config.settings import Settings
from proxy.embeddings.local import DEFAULT_DIM as LOCAL_DIM
from proxy.embeddings.local import DEFAULT_WINDOW as LOCAL_WINDOW
from proxy.embeddings.service import build_embeddings
from proxy.http.admin import admin_handlers
from proxy.http.endpoints import unknown_endpoint_message
from proxy.http.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from proxy.http.metrics import ProxyMetrics
from proxy.http.model_cards import ModelCards
from proxy.http.openapi import openapi_document
from proxy.identity import (
    ANONYMOUS,
    body_timeout_middleware,
    new_request_id,
    request_id_from_header,
    request_id_middleware,
)
from proxy.pipeline.call import LARGE_BODY_BYTES, CallContext, Reply
from proxy.pipeline.components import build_cache, build_router_stage, shared_embedder
from proxy.pipeline.compose import Pipeline
from proxy.pipeline.feedback import FeedbackRecord, accept_feedback, parse_feedback, store_feedback
from proxy.responses.native import NativeResponses
from proxy.responses.service import ResponsesService
from proxy.responses.store import ResponseStore
from proxy.storage import migrate
from proxy.storage.db import create_engine
from proxy.storage.request_journal import RequestJournal
from proxy.storage.request_log import LogEntry, RequestLogWriter, journal_folder
from proxy.ui import ui_handlers
from proxy.ui.rollups import keep_rollups_fresh
from proxy.upstream.client import UpstreamClient
from proxy.upstream.replicas import ReplicaClient
from proxy.wire.errors import AuthenticationFailed, InvalidRequest, NotFound, ThriftyError
from proxy.wire.schemas import parse_json_object, validate_chat, validate_completion

log = logging.getLogger(__name__)


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json", headers=headers)


def _error(status: int, message: str, type_: str, param: str | None = None, code: str | None = None) -> Response:
    return _json({"error": {"message": message, "type": type_, "param": param, "code": code}}, status=status)


@dataclass(slots=True)
class ProxyState:
    """Everything the running proxy owns; reachable as ``app.state.thrifty``."""

    settings: Settings
    upstream: UpstreamClient
    request_log: RequestLogWriter
    pipeline: Pipeline
    engine: Any
    cache: Any
    router: Any
    batches: BatchService | None = None
    auth: AuthService | None = None
    throttle: LoginThrottle | None = None  # failed admin logins (UI and /admin API)


async def _warm_up(embedder: Any) -> None:
    """Load the embedding model and run one forward before serving (a no-op once loaded: the
    semantic cache's start-up loads it too). Never raises: a failure leaves it to the first request."""
    try:
        await asyncio.to_thread(embedder.embed, ["warm-up"])
    except Exception as exc:  # noqa: BLE001 - the request path reports embedding failures itself
        logging.getLogger(__name__).warning("embedding model warm-up failed; the first routed request will load it: %r",
                                            exc)


def create_app(settings: Settings, embedder=None, clock=None) -> Litestar:
    """Build the proxy app; nothing connects until start-up.

    ``embedder``: share an already loaded embedder (tests); by default one is created lazily
    when the semantic cache or the learned router needs it. ``clock``: what the batch feature, the
    keys' rate windows and cache expiry take as the time (tests); by default the real UTC time.
    """
    engine = create_engine(settings.database_url)
    prometheus = ProxyMetrics()
    upstream = UpstreamClient(settings.proxy, settings.upstreams, metrics=prometheus)
    upstream = ReplicaClient.wrap(upstream, settings)  # replicas of one model: prefix-aware choice
    request_log = RequestLogWriter(
        engine, settings.proxy.log_flush_interval_s, settings.proxy.log_batch_size, settings.proxy.log_max_pending,
        journal=RequestJournal(journal_folder(settings)) if settings.proxy.log_journal else None,
        backpressure_rows=settings.proxy.log_backpressure_rows,
        backpressure_max_wait_s=settings.proxy.log_backpressure_max_wait_s)
    embedder = embedder if embedder is not None else shared_embedder(settings)
    cache = build_cache(settings, engine, embedder, clock=(lambda: clock().timestamp()) if clock else None)
    router = build_router_stage(settings, embedder)

    def feedback_sink(record: FeedbackRecord) -> None:
        pipeline.spawn(_store_feedback_quietly(engine, record))

    passthrough = {u.name for u in settings.upstreams if u.batch_api}
    upstream_batches = UpstreamBatches(upstream, passthrough, settings.batch.passthrough_collect_s,
                                       settings.batch.passthrough_max_lines, settings.batch.passthrough_poll_s) \
        if passthrough else None
    pipeline = Pipeline(settings, upstream, request_log, cache=cache, router=router, feedback_sink=feedback_sink,
                        upstream_batches=upstream_batches, metrics=prometheus)
    def record(entry: LogEntry) -> None:
        request_log.record(entry)
        prometheus.observe_request(entry)

    embeddings = build_embeddings(settings, engine, embedder, upstream, record, prometheus)
    pipeline.endpoint_handlers["embeddings"] = embeddings.handle  # the endpoint and batch lines
    if embeddings.local_model is not None:
        pipeline.endpoint_models[embeddings.local_model] = "embeddings"
    response_store = ResponseStore(engine)
    responses = ResponsesService(pipeline, response_store, NativeResponses(settings, upstream, response_store, record))
    pipeline.endpoint_handlers["responses"] = responses.handle
    cards = ModelCards(settings, lambda: pipeline.public_models, upstream,
                       extra={name: {"context_window": LOCAL_WINDOW, "max_model_len": LOCAL_WINDOW,
                                     "dimensions": LOCAL_DIM} for name in [embeddings.local_model] if name})

    prometheus.watch(request_log, pipeline.public_models)
    prometheus.watch_circuits(upstream.breakers.states)
    auth = AuthService(settings, engine, **({"clock": clock} if clock else {}))
    batches = BatchService(settings, engine, pipeline, admit=auth.admit_batch_line,
                           **({"clock": clock} if clock else {})) if settings.batch.enabled else None
    if batches is not None:
        batches.worker.on_line_recorded = prometheus.batch_line

    def login_failed(surface: str, address: str, status: int, message: str) -> None:
        prometheus.auth_failure(surface, status)
        request_log.record(LogEntry(id=new_request_id(), key_id=ANONYMOUS, endpoint=surface, status_code=status,
                                    error=f"{message} (client {address})"[:1000]))

    throttle = LoginThrottle(engine, login_failed, **({"clock": clock} if clock else {}))
    state = ProxyState(settings, upstream, request_log, pipeline, engine, cache, router, batches, auth, throttle)
    background: list[asyncio.Task] = []

    async def call(request: Request, endpoint: str, validate, admitted=None) -> Response:
        """``admitted``: what of the body the key's limits see (default: all of it)."""
        started = time.perf_counter()
        principal = await auth.authenticate(request.headers.get("authorization"))
        ctx = CallContext(request_id=request.scope["state"]["request_id"], key_id=principal.key_id,
                          client_request_id=request.scope["state"].get("client_request_id"),
                          endpoint=endpoint, started=started, cache_control=request.headers.get("cache-control"))
        data: dict[str, Any] = {}
        try:
            raw = await request.body()
            ctx.body_bytes = len(raw)
            if len(raw) > LARGE_BODY_BYTES:  # decoding and checking megabytes stays off the event loop
                data = await asyncio.to_thread(parse_json_object, raw)
                await asyncio.to_thread(validate, data)
            else:
                data = parse_json_object(raw)
                validate(data)
            ctx.on_finish = auth.settle_later(await auth.admit(principal, admitted(data) if admitted else data,
                                                               len(raw)))
        except ThriftyError as exc:
            model = data.get("model") if isinstance(data.get("model"), str) else None
            pipeline.log_rejected(ctx, exc.status, exc.message, model)
            raise
        await request_log.room()  # back-pressure: wait while the request log's writer is behind
        result = await pipeline.handle(ctx, data)
        if isinstance(result, Reply):
            return _json(result.body, status=result.status, headers=result.headers)
        return Stream(result.chunks, media_type="text/event-stream",
                      headers={"cache-control": "no-cache", **result.headers})

    @post("/v1/chat/completions", status_code=200)
    async def chat_completions(request: Request) -> Response:
        return await call(request, "chat", validate_chat)

    @post("/v1/completions", status_code=200)
    async def completions(request: Request) -> Response:
        return await call(request, "completions", validate_completion)

    @post("/v1/embeddings", status_code=200)
    async def create_embeddings(request: Request) -> Response:
        # an embedding has no output: the key's limits reserve the input alone (and one token), not max_tokens
        return await call(request, "embeddings", embeddings.check,
                          admitted=lambda data: {"model": data.get("model"), "max_tokens": 1})

    @post("/v1/responses", status_code=200)
    async def create_response(request: Request) -> Response:
        return await call(request, "responses", responses.check,
                          admitted=lambda data: {**data, "max_tokens": data.get("max_output_tokens")})

    @get("/v1/responses/{response_id:str}")
    async def retrieve_response(request: Request) -> Response:
        response_id = request.path_params["response_id"]
        key_id = await auth.identify(request.headers.get("authorization"))
        return _json(await responses.retrieve(response_id, key_id))

    @delete("/v1/responses/{response_id:str}", status_code=200)
    async def delete_response(request: Request) -> Response:
        response_id = request.path_params["response_id"]
        key_id = await auth.identify(request.headers.get("authorization"))
        return _json(await responses.delete(response_id, key_id))

    @get("/v1/responses/{response_id:str}/input_items")
    async def response_input_items(request: Request) -> Response:
        response_id = request.path_params["response_id"]
        key_id = await auth.identify(request.headers.get("authorization"))
        query = request.query_params
        try:
            limit = int(query.get("limit", "20"))
        except ValueError:
            raise InvalidRequest("'limit' must be an integer", param="limit") from None
        return _json(await responses.input_items(response_id, key_id, query.get("order", "desc"), limit,
                                                 query.get("after")))

    @post("/v1/feedback", status_code=200)
    async def feedback(request: Request) -> Response:
        body = parse_feedback(parse_json_object(await request.body()))
        record = FeedbackRecord(body.request_id, await auth.identify(request.headers.get("authorization")),
                                body.score, "user", body.comment)
        await accept_feedback(engine, record, flush_interval_s=settings.proxy.log_flush_interval_s)
        return _json({"object": "feedback", "request_id": body.request_id, "score": body.score})

    @get("/v1/models")
    async def models(request: Request) -> Response:
        await auth.authenticate(request.headers.get("authorization"))  # keys mode: a live key, as for completions
        return _json({"object": "list", "data": await cards.cards()})

    @get("/v1/models/{model_id:path}")
    async def model(request: Request) -> Response:
        await auth.authenticate(request.headers.get("authorization"))
        model_id = request.path_params["model_id"].removeprefix("/")  # a path parameter keeps "org/model" whole
        card = await cards.card(model_id)
        if card is None:
            raise NotFound(f"The model {model_id!r} does not exist; available models: {sorted(pipeline.public_models)}",
                           param="model", code="model_not_found")
        return _json(card)

    @get("/openapi.json", include_in_schema=False)
    async def openapi(request: Request) -> Response:
        return _json(openapi_document(request.app))

    @get("/health")
    async def health() -> Response:
        return _json({"status": "ok"})

    @get("/metrics")
    async def metrics(request: Request) -> Response:
        token = settings.proxy.metrics_token
        if token and not hmac.compare_digest(request.headers.get("authorization", "").encode(),
                                             f"Bearer {token}".encode()):
            raise AuthenticationFailed("/metrics needs the metrics token: Authorization: Bearer <[proxy] metrics_token>",
                                       code="invalid_metrics_token")
        await prometheus.refresh_cache_stats(cache)
        return Response(prometheus.render(), media_type=METRICS_CONTENT_TYPE)

    async def startup() -> None:
        if settings.database.migrate_on_start:
            await asyncio.to_thread(migrate.upgrade, settings.database_url)
        request_log.start()
        await request_log.replay()  # rows a killed process had journaled but not written
        if batches is not None:
            batches.start()
        if cache is not None:
            await cache.start()
            background.append(asyncio.create_task(_maintain(cache, settings.cache.maintenance_interval_s)))
        if router is not None and embedder is not None:
            await _warm_up(embedder)  # the router's first request must not pay for loading the model
        bundled = next((u for u in settings.upstreams if u.name == BUNDLED_UPSTREAM), None)
        bundled_models = [m.name for m in settings.models if m.upstream == BUNDLED_UPSTREAM]
        if bundled is not None and bundled_models:  # a default cap is fitted to the context it reports
            background.append(asyncio.create_task(pipeline.shaping.learn_context_windows(
                bundled.base_url or bundled.base_urls[0], bundled.api_key, bundled_models)))
        if settings.admin.api_key:  # the web UI's rollups, so that a range's first view finds them
            background.append(asyncio.create_task(keep_rollups_fresh(engine)))

    async def shutdown() -> None:
        for task in background:
            task.cancel()
        # a task cancelled inside a query closes its database connection as it unwinds: let it finish before
        # the engine is disposed (left running, that close held the event loop's exit for 10 s and more)
        await asyncio.gather(*background, return_exceptions=True)
        if batches is not None:
            await batches.aclose()  # running lines go back to the queue for the next start
        if upstream_batches is not None:
            await upstream_batches.aclose()
        await auth.aclose()
        await pipeline.drain()
        if cache is not None:
            await cache.aclose()
        await request_log.close()
        await upstream.aclose()
        await engine.dispose()

    def on_thrifty_error(request: Request, exc: ThriftyError) -> Response:
        prometheus.error_response(exc.status, exc.code)
        return _json(exc.body(), status=exc.status, headers=exc.headers)

    def on_http_error(request: Request, exc: HTTPException) -> Response:
        type_ = "invalid_request_error" if exc.status_code < 500 else "server_error"
        named = unknown_endpoint_message(request.app, request.method, request.url.path, exc.status_code) \
            if exc.status_code in (404, 405) else None
        response = _error(exc.status_code, named or str(exc.detail), type_,
                          code=("unknown_endpoint" if exc.status_code == 404 else "method_not_allowed") if named else None)
        # routing errors (404, 405) are raised before the request-id middleware runs
        state = request.scope.get("state", {})
        request_id = state.get("client_request_id") or state.get("request_id") or request_id_from_header(
            request.headers.get("x-request-id"))
        response.headers["x-request-id"] = request_id
        for name, value in (exc.headers or {}).items():  # 405: allow
            response.headers[name.lower()] = value
        return response

    def on_unexpected(request: Request, exc: Exception) -> Response:
        request_id = request.scope.get("state", {}).get("request_id", "?")
        log.exception("unexpected error on %s (request %s)", request.url.path, request_id)
        # the exception's text stays in the log: it may hold internals (paths, upstream details)
        return _error(500, f"internal error ({type(exc).__name__}); request id {request_id}", "server_error")

    app = Litestar(
        route_handlers=[chat_completions, completions, create_embeddings, create_response, retrieve_response,
                        delete_response, response_input_items, feedback, models, model, health, metrics, openapi,
                        *admin_handlers(settings, state), *(batch_handlers(batches, auth.identify) if batches else []),
                        *ui_handlers(settings, state)],
        exception_handlers={ThriftyError: on_thrifty_error, HTTPException: on_http_error, Exception: on_unexpected},
        middleware=[request_id_middleware, body_timeout_middleware(settings.proxy.body_timeout_s,
                                                                          settings.proxy.request_deadline_s)],
        on_startup=[startup],
        on_shutdown=[shutdown],
        request_max_body_size=settings.proxy.max_body_bytes,
        logging_config=None,  # logging is configured once by the CLI (proxy.logs), not by the framework
    )
    app.state.thrifty = state
    return app


async def _maintain(cache, interval_s: float) -> None:
    """Periodic cache upkeep (expiry, size bounds, index sync with other replicas)."""
    while True:
        await asyncio.sleep(interval_s)
        await cache.maintenance()


async def _store_feedback_quietly(engine, record: FeedbackRecord) -> None:
    try:
        await store_feedback(engine, [record])
    except Exception:  # noqa: BLE001 - an automatic check must never disturb serving
        log.exception("could not store automatic feedback for %s", record.request_id)

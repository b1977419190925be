"""The backend's OpenAI-compatible HTTP server: /v1/chat/completions, /v1/completions, /v1/models,
/health and /metrics, with SSE streaming and usage (including ``stream_options.include_usage``)."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import AsyncIterator, Awaitable
from typing import Any

import msgspec
from litestar import Litestar, Request, Response, get, post
from litestar.exceptions import HTTPException
from litestar.response import Stream

from backend.chat_sections import with_request_sections
from backend.config import BackendConfig
from backend.engine.engine import EngineRequestError
from backend.generation import GenerationService, RequestStats, TokenEvent
from backend.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from backend.metrics import BackendMetrics
from backend.protocol import (
    ChatBody,
    CompletionBody,
    Limits,
    RequestError,
    decode_body,
    parse_priority,
    sampling_params,
    validate_messages,
)
from backend.runtime import LoadedModel
from backend.sampling import SamplingParams

log = logging.getLogger(__name__)


def error_body(message: str, type_: str, param: str | None = None, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json", headers=headers)


def _usage(stats: RequestStats) -> dict[str, Any]:
    usage: dict[str, Any] = {
        "prompt_tokens": stats.prompt_tokens,
        "completion_tokens": stats.completion_tokens,
        "total_tokens": stats.prompt_tokens + stats.completion_tokens,
        "prompt_tokens_details": {"cached_tokens": stats.cached_tokens},
    }
    if stats.speculative:  # speculative decoding's account (extension), zeros included
        drafts, accepted, checks = stats.spec_draft_tokens, stats.spec_accepted_tokens, stats.spec_verifications
        usage["speculative"] = {
            "draft_tokens": drafts, "accepted_tokens": accepted, "verifications": checks,
            "acceptance_rate": round(accepted / drafts, 4) if drafts else 0.0,
            "mean_accepted_length": round((accepted + checks) / checks, 4) if checks else 0.0}
    return usage


def _timings(stats: RequestStats) -> dict[str, float | None]:
    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 3)

    return {"queue_ms": ms(stats.queue_time), "ttft_ms": ms(stats.ttft), "tpot_ms": ms(stats.tpot),
            "e2e_ms": ms(stats.total_time)}


def _timing_headers(stats: RequestStats) -> dict[str, str]:
    return {f"x-thrifty-{k.replace('_ms', '')}-ms": str(v) for k, v in _timings(stats).items() if v is not None}


def _sse(data: Any) -> bytes:
    return b"data: " + msgspec.json.encode(data) + b"\n\n"


def _logprobs_chat(event: TokenEvent) -> dict[str, Any] | None:
    if event.logprob is None:
        return None
    return {"content": [{"token": event.token_text, "logprob": event.logprob, "bytes": None,
                         "top_logprobs": [{"token": t, "logprob": lp, "bytes": None} for t, lp in event.top_logprobs]}]}


async def _unless_disconnected(request: Request, work: Awaitable[None]) -> bool:
    """Run ``work`` until it ends (True) or the client disconnects first (False: ``work`` is cancelled,
    which aborts its generation). The request body must have been read already: the only message
    the ASGI server still sends is ``http.disconnect``."""
    task = asyncio.ensure_future(work)
    watcher = asyncio.ensure_future(_disconnect(request))
    try:
        await asyncio.wait((task, watcher), return_when=asyncio.FIRST_COMPLETED)
    finally:
        watcher.cancel()
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)  # its generator's cleanup posts the abort
    if task.cancelled():
        return False
    task.result()  # raise what the work raised
    return True


async def _disconnect(request: Request) -> None:
    while (await request.receive())["type"] != "http.disconnect":
        pass


def create_backend_app(config: BackendConfig, loaded: LoadedModel, service: GenerationService) -> Litestar:
    """Build the backend's Litestar app around a loaded model and a generation service.

    A service with ``max_model_len`` / ``kv_capacity_tokens`` attributes (the engine) tightens the
    request limits; one with ``metrics()`` (the engine's snapshot) adds its gauges to ``/metrics``.
    """
    max_model_len = min(config.max_model_len, loaded.model.config.max_position_embeddings)
    max_model_len = min(max_model_len, getattr(service, "max_model_len", max_model_len))
    limits = Limits(max_model_len=max_model_len, max_n=config.max_n,
                    kv_capacity_tokens=getattr(service, "kv_capacity_tokens", None))
    model_name = config.served_model_name
    metrics = BackendMetrics(model_name, getattr(service, "metrics", None))

    def check_model(name: str) -> None:
        if name not in (model_name, "default"):
            raise RequestError(f"model {name!r} is not served here; available: {model_name!r}",
                               param="model", code="model_not_found", status=404)

    async def run(request: Request, prompt_ids: list[int], params: SamplingParams, body: Any, chat: bool) -> Response:
        request_id = ("chatcmpl-" if chat else "cmpl-") + uuid.uuid4().hex
        created = int(time.time())
        stats = RequestStats()
        include_usage = bool((body.stream_options or {}).get("include_usage"))
        priority = parse_priority(body.priority, request.headers.get("x-thrifty-priority"))
        metrics.requests += 1
        events = service.generate(request_id, prompt_ids, params, stats, priority=priority)
        if body.stream:
            return Stream(stream_events(request_id, created, events, stats, include_usage, chat),
                          media_type="text/event-stream", headers={"cache-control": "no-cache"})
        texts = [""] * params.n
        finish: list[str | None] = [None] * params.n
        logprobs: list[list[dict[str, Any]]] = [[] for _ in range(params.n)]

        async def collect() -> None:
            async for event in events:
                texts[event.index] += event.text
                if event.finish_reason:
                    finish[event.index] = event.finish_reason
                if event.logprob is not None:
                    logprobs[event.index].extend(_logprobs_chat(event)["content"])

        metrics.in_flight += 1
        try:
            answered = await _unless_disconnected(request, collect())
        except EngineRequestError as exc:
            raise RequestError(exc.message, param=exc.param) from None
        finally:
            metrics.in_flight -= 1
            metrics.finished(stats)
            await events.aclose()
        if not answered:  # the client went away: the request was aborted and its KV blocks freed
            metrics.aborted += 1
            log.info("request %s aborted: the client disconnected", request_id)
            return _json(error_body("the client disconnected", "invalid_request_error"), status=499)
        if chat:
            choices = [{"index": i, "message": {"role": "assistant", "content": texts[i]},
                        "logprobs": {"content": logprobs[i]} if params.logprobs else None,
                        "finish_reason": finish[i]} for i in range(params.n)]
            obj = "chat.completion"
        else:
            choices = [{"index": i, "text": texts[i], "logprobs": None, "finish_reason": finish[i]}
                       for i in range(params.n)]
            obj = "text_completion"
        payload = {"id": request_id, "object": obj, "created": created, "model": model_name, "choices": choices,
                   "usage": _usage(stats), "timings": _timings(stats)}
        return _json(payload, headers=_timing_headers(stats))

    async def stream_events(request_id: str, created: int, events: AsyncIterator[TokenEvent], stats: RequestStats,
                            include_usage: bool, chat: bool) -> AsyncIterator[bytes]:
        obj = "chat.completion.chunk" if chat else "text_completion"
        base = {"id": request_id, "object": obj, "created": created, "model": model_name}
        started: set[int] = set()
        metrics.in_flight += 1
        try:
            async for event in events:
                if chat:
                    delta: dict[str, Any] = {"content": event.text}
                    if event.index not in started:
                        started.add(event.index)
                        delta = {"role": "assistant", "content": event.text}
                    choice = {"index": event.index, "delta": delta, "logprobs": _logprobs_chat(event),
                              "finish_reason": event.finish_reason}
                else:
                    choice = {"index": event.index, "text": event.text, "logprobs": None,
                              "finish_reason": event.finish_reason}
                if not event.text and not event.finish_reason and event.index in started and chat:
                    continue
                yield _sse({**base, "choices": [choice], **({"usage": None} if include_usage else {})})
            if include_usage:
                yield _sse({**base, "choices": [], "usage": _usage(stats), "timings": _timings(stats)})
            yield b"data: [DONE]\n\n"
        except Exception as exc:  # noqa: BLE001 - report the failure in-band; headers are already sent
            metrics.errors += 1
            log.exception("stream %s failed", request_id)
            yield _sse(error_body(f"generation failed: {exc}", "server_error"))
        finally:
            metrics.in_flight -= 1
            metrics.finished(stats)
            await events.aclose()

    @post("/v1/chat/completions", status_code=200)
    async def chat_completions(request: Request) -> Response:
        body: ChatBody = decode_body(await request.body(), ChatBody)
        check_model(body.model)
        validate_messages(body.messages)
        prompt_ids = loaded.tokenizer.encode_chat(with_request_sections(body.messages, body.tools,
                                                                        body.response_format))
        top = body.top_logprobs or 0
        params = sampling_params(body, len(prompt_ids), limits, logprobs=body.logprobs, top_logprobs=top)
        return await run(request, prompt_ids, params, body, chat=True)

    @post("/v1/completions", status_code=200)
    async def completions(request: Request) -> Response:
        body: CompletionBody = decode_body(await request.body(), CompletionBody)
        check_model(body.model)
        prompt = body.prompt
        if isinstance(prompt, list) and prompt and all(isinstance(p, int) for p in prompt):
            prompt_ids = [int(p) for p in prompt]
            if any(not 0 <= p < loaded.tokenizer.vocab_size for p in prompt_ids):
                raise RequestError("prompt token ids must be within the vocabulary", param="prompt")
        elif isinstance(prompt, list) and all(isinstance(p, str) for p in prompt):
            if len(prompt) != 1:
                raise RequestError("batched prompts are not supported; send one prompt per request", param="prompt")
            prompt_ids = loaded.tokenizer.encode(prompt[0])
        elif isinstance(prompt, str):
            prompt_ids = loaded.tokenizer.encode(prompt)
        else:
            raise RequestError("'prompt' must be a string, a list with one string, or a list of token ids",
                               param="prompt")
        if not prompt_ids:
            raise RequestError("'prompt' must not be empty", param="prompt")
        params = sampling_params(body, len(prompt_ids), limits)
        return await run(request, prompt_ids, params, body, chat=False)

    def model_card() -> dict[str, Any]:
        return {"id": model_name, "object": "model", "created": int(metrics.started), "owned_by": "thrifty",
                "max_model_len": limits.max_model_len}

    @get("/v1/models")
    async def models() -> Response:
        return _json({"object": "list", "data": [model_card()]})

    @get("/v1/models/{model_id:path}")
    async def model(request: Request) -> Response:
        name = request.path_params["model_id"].removeprefix("/")
        if name != model_name:
            raise RequestError(f"The model {name!r} does not exist; available: {model_name!r}", param="model",
                               code="model_not_found", status=404)
        return _json(model_card())

    @get("/health")
    async def health() -> Response:
        return _json({"status": "ok", "model": model_name})

    @get("/metrics")
    async def prometheus() -> Response:
        return Response(metrics.render(), media_type=METRICS_CONTENT_TYPE)

    def on_request_error(request: Request, exc: RequestError) -> Response:
        return _json(error_body(exc.message, "invalid_request_error", exc.param, exc.code), status=exc.status)

    def on_http_error(request: Request, exc: HTTPException) -> Response:
        return _json(error_body(str(exc.detail), "invalid_request_error"), status=exc.status_code)

    def on_error(request: Request, exc: Exception) -> Response:
        metrics.errors += 1
        log.exception("unhandled error on %s", request.url.path)
        return _json(error_body(f"internal error: {exc}", "server_error"), status=500)

    return Litestar(
        route_handlers=[chat_completions, completions, models, model, health, prometheus],
        exception_handlers={RequestError: on_request_error, HTTPException: on_http_error, Exception: on_error},
        on_shutdown=[service.close],
    )

"""The backend's OpenAI-compatible HTTP server: /v1/chat/completions, /v1/completions, /v1/models,
/health and /metrics, with SSE streaming and usage (including ``stream_options.include_usage``)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
import uuid
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Litestar, Request, Response, get, head, post
from litestar.exceptions import HTTPException
from litestar.response import Stream

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
    chat_top_logprobs,
    check_tool_choice,
    completion_logprobs,
    decode_body,
    parse_priority,
    parse_prompt,
    sampling_params,
    validate_messages,
)
from backend.runtime import LoadedModel
from backend.sampling import SamplingParams
from backend.structured.spec import auto_call_grammars, grammar_request
from backend.structured.tool_calls import ToolCallStream, finish_reason, parse_tool_calls, stream_deltas
from tokenization.chat_sections import with_request_sections

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


def _symbol_bytes(tokenizer: Any, symbol: str) -> bytes:
    """The bytes a vocabulary symbol stands for (a tokenizer without ``symbol_bytes``: its UTF-8 text)."""
    to_bytes = getattr(tokenizer, "symbol_bytes", None)
    return to_bytes(symbol) if to_bytes is not None else symbol.encode("utf-8")


def _legacy_logprobs() -> dict[str, list[Any]]:
    """An empty legacy /v1/completions ``logprobs`` object."""
    return {"tokens": [], "token_logprobs": [], "top_logprobs": [], "text_offset": []}


@dataclass(frozen=True, slots=True)
class TokenLogprobs:
    """How one request reports token log-probabilities, as OpenAI does: ``token`` is the token's text
    (its bytes decoded as UTF-8, a partial character as U+FFFD) and ``bytes`` its UTF-8 byte values, so
    the choice's ``bytes`` concatenated are its content. A token that ended its choice as a stop token
    (EOS, ``stop_token_ids``) adds no text and is not reported."""

    tokenizer: Any
    stop_ids: frozenset[int]

    def reported(self, event: TokenEvent) -> bool:
        if event.logprob is None:
            return False
        return not (event.finish_reason == "stop" and event.token_id in self.stop_ids)

    def piece(self, symbol: str | None) -> tuple[str, list[int]]:
        """A vocabulary symbol → (its text, its byte values)."""
        raw = _symbol_bytes(self.tokenizer, symbol or "")
        return raw.decode("utf-8", errors="replace"), list(raw)

    def chat(self, event: TokenEvent) -> list[dict[str, Any]]:
        """The event's chat ``logprobs.content`` entries (none or one)."""
        if not self.reported(event):
            return []
        token, raw = self.piece(event.token_text)
        top = []
        for symbol, alternative in event.top_logprobs:
            text, alternative_bytes = self.piece(symbol)
            top.append({"token": text, "logprob": alternative, "bytes": alternative_bytes})
        return [{"token": token, "logprob": event.logprob, "bytes": raw, "top_logprobs": top}]

    def legacy(self, event: TokenEvent, offset: int) -> dict[str, list[Any]]:
        """The event's legacy /v1/completions ``logprobs`` (lists of none or one item); ``offset``: where
        the token's text starts in the choice's text. ``top_logprobs`` holds the alternatives and always
        the sampled token (up to ``logprobs + 1`` entries, as OpenAI documents)."""
        out = _legacy_logprobs()
        if not self.reported(event):
            return out
        token, _ = self.piece(event.token_text)
        top: dict[str, float] = {}
        for symbol, lp in event.top_logprobs:
            top.setdefault(self.piece(symbol)[0], lp)
        top.setdefault(token, event.logprob)
        out["tokens"], out["token_logprobs"] = [token], [event.logprob]
        out["top_logprobs"], out["text_offset"] = [top], [offset]
        return out


_UNSUPPORTED_TOKENIZER = "needs a fast (Rust) Hugging Face tokenizer, which this model does not have"


def _tool_stream_choices(parser: ToolCallStream, event: TokenEvent, first: bool) -> list[dict[str, Any]]:
    """The chat chunks' ``choices`` entries of one token event of a request with tools: content pieces and
    each completed call as OpenAI streams it (its id and name, then its arguments), and the finish reason
    (``tool_calls`` when the choice made calls) on the last."""
    pieces = parser.feed(event.text)
    if event.finish_reason:
        pieces += parser.finish()
    deltas: list[dict[str, Any]] = []
    call_index = len(parser.calls) - sum(1 for p in pieces if isinstance(p, dict))  # calls streamed before
    for piece in pieces:
        if isinstance(piece, str):
            deltas.append({"content": piece})
        else:
            deltas += stream_deltas(call_index, piece)
            call_index += 1
    if event.finish_reason:
        deltas.append({})
    if first and not deltas:
        deltas.append({"content": ""})
    if first:
        deltas[0] = {"role": "assistant", **deltas[0]}
    reason = finish_reason(event.finish_reason, parser.calls) if event.finish_reason else None
    return [{"index": event.index, "delta": delta, "logprobs": None,
             "finish_reason": reason if j == len(deltas) - 1 else None} for j, delta in enumerate(deltas)]


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
                    kv_capacity_tokens=getattr(service, "kv_capacity_tokens", None),
                    vocab_size=min(loaded.tokenizer.vocab_size, loaded.model.config.vocab_size))
    model_name = config.served_model_name
    metrics = BackendMetrics(model_name, getattr(service, "metrics", None))

    compilers: list[Any] = []  # the grammar compiler, built with the first constrained request
    compiler_lock = asyncio.Lock()

    async def compiler() -> Any:
        async with compiler_lock:
            if not compilers:
                from backend.structured.compiler import GrammarCompiler

                hf = getattr(loaded.tokenizer, "hf_tokenizer", None)
                if hf is None:
                    raise RequestError(f"structured output {_UNSUPPORTED_TOKENIZER}", param="response_format")
                compilers.append(await asyncio.to_thread(
                    GrammarCompiler, hf, loaded.model.config.vocab_size,
                    timeout_s=config.grammar_compile_timeout_s, cache_size=config.grammar_cache_size))
            return compilers[0]

    async def _call_grammars(tools: list[dict[str, Any]]) -> Any:
        """``tool_choice`` auto: the grammars of a call's rest (None when its parameters use what the grammar
        compiler cannot honour: the model still chooses freely, its calls are parsed but not constrained)."""
        from backend.structured.compiler import CallGrammars

        after_open, after_newline = auto_call_grammars(tools)  # malformed parameter schemas: a 400
        try:
            active = await compiler()
            return CallGrammars(await active.compile_async(after_open), await active.compile_async(after_newline))
        except RequestError as exc:
            log.info("tool calls of this request are not constrained: %s", exc.message)
            return None

    def check_model(name: str) -> None:
        if name not in (model_name, "default"):
            raise RequestError(f"model {name!r} is not served here; available: {model_name!r}",
                               param="model", code="model_not_found", status=404)

    async def run(request: Request, prompt_ids: list[int], params: SamplingParams, body: Any, chat: bool,
                  tool_names: list[str] | None = None) -> Response:
        """Generate and answer; ``tool_names``: parse the choices' ``<tool_call>`` blocks into ``tool_calls``
        (None: the text is the content as it is)."""
        request_id = ("chatcmpl-" if chat else "cmpl-") + uuid.uuid4().hex
        created = int(time.time())
        stats = RequestStats()
        include_usage = bool((body.stream_options or {}).get("include_usage"))
        priority = parse_priority(body.priority, request.headers.get("x-thrifty-priority"))
        stop_ids = set(params.stop_token_ids) | (set() if params.ignore_eos else loaded.eos_ids)
        lp = TokenLogprobs(loaded.tokenizer, frozenset(stop_ids)) if params.logprobs else None
        metrics.requests += 1
        events = service.generate(request_id, prompt_ids, params, stats, priority=priority)
        if body.stream:
            return Stream(stream_events(request_id, created, events, stats, include_usage, chat, lp, tool_names),
                          media_type="text/event-stream", headers={"cache-control": "no-cache"})
        texts = [""] * params.n
        finish: list[str | None] = [None] * params.n
        chat_logprobs: list[list[dict[str, Any]]] = [[] for _ in range(params.n)]
        legacy = [_legacy_logprobs() for _ in range(params.n)]

        async def collect() -> None:
            async for event in events:
                if lp is not None and chat:
                    chat_logprobs[event.index].extend(lp.chat(event))
                elif lp is not None:
                    for key, values in lp.legacy(event, len(texts[event.index])).items():
                        legacy[event.index][key].extend(values)
                texts[event.index] += event.text
                if event.finish_reason:
                    finish[event.index] = event.finish_reason

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
            choices = []
            for i in range(params.n):
                message: dict[str, Any] = {"role": "assistant", "content": texts[i]}
                reason = finish[i]
                if tool_names is not None:
                    message["content"], calls = parse_tool_calls(texts[i], tool_names)
                    if calls:
                        message["tool_calls"] = calls
                    reason = finish_reason(reason, calls)
                choices.append({"index": i, "message": message,
                                "logprobs": {"content": chat_logprobs[i]} if lp is not None else None,
                                "finish_reason": reason})
            obj = "chat.completion"
        else:
            choices = [{"index": i, "text": texts[i], "logprobs": legacy[i] if lp is not None else None,
                        "finish_reason": finish[i]} for i in range(params.n)]
            obj = "text_completion"
        payload = {"id": request_id, "object": obj, "created": created, "model": model_name, "choices": choices,
                   "usage": _usage(stats), "timings": _timings(stats)}
        return _json(payload, headers=_timing_headers(stats))

    async def stream_events(request_id: str, created: int, events: AsyncIterator[TokenEvent], stats: RequestStats,
                            include_usage: bool, chat: bool, lp: TokenLogprobs | None,
                            tool_names: list[str] | None = None) -> AsyncIterator[bytes]:
        obj = "chat.completion.chunk" if chat else "text_completion"
        base = {"id": request_id, "object": obj, "created": created, "model": model_name}
        parsers: dict[int, ToolCallStream] = {}
        started: set[int] = set()
        emitted: dict[int, int] = {}  # choice index → characters of text sent so far (legacy text_offset)
        metrics.in_flight += 1
        try:
            async for event in events:
                if chat and tool_names is not None:
                    parser = parsers.setdefault(event.index, ToolCallStream(tool_names))
                    for choice in _tool_stream_choices(parser, event, event.index not in started):
                        started.add(event.index)
                        yield _sse({**base, "choices": [choice], **({"usage": None} if include_usage else {})})
                    continue
                if chat:
                    entries = lp.chat(event) if lp is not None else []
                    if not event.text and not event.finish_reason and event.index in started and not entries:
                        continue
                    delta: dict[str, Any] = {"content": event.text}
                    if event.index not in started:
                        started.add(event.index)
                        delta = {"role": "assistant", "content": event.text}
                    choice = {"index": event.index, "delta": delta,
                              "logprobs": {"content": entries} if entries else None,
                              "finish_reason": event.finish_reason}
                else:
                    offset = emitted.get(event.index, 0)
                    emitted[event.index] = offset + len(event.text)
                    choice = {"index": event.index, "text": event.text,
                              "logprobs": lp.legacy(event, offset) if lp is not None else None,
                              "finish_reason": event.finish_reason}
                yield _sse({**base, "choices": [choice], **({"usage": None} if include_usage else {})})
            if include_usage:
                yield _sse({**base, "choices": [], "usage": _usage(stats), "timings": _timings(stats)})
            yield b"data: [DONE]\n\n"
        except (GeneratorExit, asyncio.CancelledError):  # the client went away mid-stream: generation aborts
            metrics.aborted += 1
            log.info("stream %s aborted: the client disconnected", request_id)
            raise
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
        check_tool_choice(body.tool_choice)
        top = chat_top_logprobs(body)
        messages = with_request_sections(body.messages, body.tools, body.response_format)  # checks tools' shape
        wanted = grammar_request(body.tools, body.tool_choice, body.response_format,  # schema errors come first
                                 {"guided_json": body.guided_json, "guided_choice": body.guided_choice,
                                  "guided_regex": body.guided_regex})
        prompt_ids = loaded.tokenizer.encode_chat(messages)
        params = sampling_params(body, len(prompt_ids), limits, logprobs=bool(body.logprobs), top_logprobs=top)
        if wanted is not None:
            grammar = await (await compiler()).compile_async(wanted)
            params = dataclasses.replace(params, grammar=grammar)
        elif body.tools and body.tool_choice in (None, "auto"):
            params = dataclasses.replace(params, call_grammars=await _call_grammars(body.tools))
        tool_names = None
        if body.tools and body.tool_choice != "none":
            tool_names = [tool["function"]["name"] for tool in body.tools]
        return await run(request, prompt_ids, params, body, chat=True, tool_names=tool_names)

    @post("/v1/completions", status_code=200)
    async def completions(request: Request) -> Response:
        body: CompletionBody = decode_body(await request.body(), CompletionBody)
        check_model(body.model)
        top = completion_logprobs(body)
        prompt_ids = parse_prompt(body.prompt, loaded.tokenizer.encode, limits.vocab_size)
        params = sampling_params(body, len(prompt_ids), limits, logprobs=top is not None, top_logprobs=top or 0,
                                 prompt_param="prompt")
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
        if name not in (model_name, "default"):  # "default" names the served model, as in requests
            raise RequestError(f"The model {name!r} does not exist; available: {model_name!r}", param="model",
                               code="model_not_found", status=404)
        return _json(model_card())

    @get("/health")
    async def health() -> Response:
        return _json({"status": "ok", "model": model_name})

    @head("/health", status_code=200)
    async def health_head() -> None:
        """HEAD /health: 200 and no body (load balancers' and curl -I's probe)."""

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
        route_handlers=[chat_completions, completions, models, model, health, health_head, prometheus],
        exception_handlers={RequestError: on_request_error, HTTPException: on_http_error, Exception: on_error},
        on_shutdown=[service.close],
    )

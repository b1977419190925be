"""The request pipeline: validate → resolve the model → forward → log.

Later stages (caches, router, output cap, prompt shaping) slot in between resolution and forwarding.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import msgspec

from proxy.errors import NotFound, ThriftyError, UpstreamError
from proxy.request_log import LogEntry, RequestLogWriter
from proxy.settings import ModelAlias, Settings
from proxy.upstream import UpstreamClient, UpstreamReply, UpstreamReplyError

log = logging.getLogger(__name__)


@dataclass(slots=True)
class CallContext:
    """Per-request facts the pipeline needs."""

    request_id: str
    key_id: str
    endpoint: str  # "chat" | "completions"
    started: float


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


UPSTREAM_PATHS = {"chat": "/chat/completions", "completions": "/completions"}


class Pipeline:
    """Turns a validated OpenAI request into an upstream call and a logged answer."""

    def __init__(self, settings: Settings, upstream: UpstreamClient, request_log: RequestLogWriter) -> None:
        self._aliases = {alias.name: alias for alias in settings.models}
        self._upstream = upstream
        self._log = request_log

    @property
    def public_models(self) -> list[str]:
        return list(self._aliases)

    def resolve(self, model: str) -> ModelAlias:
        alias = self._aliases.get(model)
        if alias is None:
            raise NotFound(f"model {model!r} does not exist; available models: {sorted(self._aliases)}",
                           param="model", code="model_not_found")
        return alias

    async def handle(self, ctx: CallContext, data: dict[str, Any]) -> Reply | StreamReply:
        """Forward one request (already validated) and arrange for it to be logged."""
        try:
            alias = self.resolve(data["model"])
        except ThriftyError as exc:
            self.log_rejected(ctx, exc.status, exc.message, data.get("model"))
            raise
        body = {**data, "model": alias.model}
        entry = LogEntry(id=ctx.request_id, key_id=ctx.key_id, endpoint=ctx.endpoint, status_code=0,
                         model_requested=data["model"], upstream=alias.upstream, stream=bool(data.get("stream")),
                         cache_outcome="bypass")
        headers = {"x-thrifty-upstream": alias.upstream}
        try:
            if data.get("stream"):
                return await self._stream(ctx, alias, body, data, entry, headers)
            reply = await self._upstream.post(alias.upstream, UPSTREAM_PATHS[ctx.endpoint], body, ctx.request_id)
        except ThriftyError as exc:
            self._finish(ctx, entry, exc.status, error=exc.message)
            raise
        status, payload = self._pass_status(alias, reply)
        usage = payload.get("usage") or {}
        entry.model_served = payload.get("model")
        self._fill_usage(entry, usage)
        ttft = _float_or_none((payload.get("timings") or {}).get("ttft_ms"))
        entry.ttft_ms = ttft
        self._finish(ctx, entry, status, error=_error_message(payload) if status >= 400 else None)
        if status < 400:
            payload["model"] = data["model"]
        return Reply(status, payload, headers)

    def _pass_status(self, alias: ModelAlias, reply: UpstreamReply) -> tuple[int, dict[str, Any]]:
        """4xx answers pass through; 5xx become a 502 that names the upstream."""
        if reply.status >= 500:
            raise UpstreamError(f"upstream {alias.upstream!r} failed with status {reply.status}: "
                                f"{_error_message(reply.body)}", code="upstream_error", status=502)
        return reply.status, reply.body

    async def _stream(self, ctx: CallContext, alias: ModelAlias, body: dict[str, Any], data: dict[str, Any],
                      entry: LogEntry, headers: dict[str, str]) -> Reply | StreamReply:
        want_usage = bool((data.get("stream_options") or {}).get("include_usage"))
        body["stream_options"] = {**(data.get("stream_options") or {}), "include_usage": True}
        try:
            response = await self._upstream.stream(alias.upstream, UPSTREAM_PATHS[ctx.endpoint], body,
                                                    ctx.request_id)
        except UpstreamReplyError as exc:
            status, payload = self._pass_status(alias, exc.reply)
            self._finish(ctx, entry, status, error=_error_message(payload))
            return Reply(status, payload, headers)
        return StreamReply(self._relay(ctx, alias, response, data["model"], want_usage, entry), headers)

    async def _relay(self, ctx: CallContext, alias: ModelAlias, response, public_model: str, want_usage: bool,
                     entry: LogEntry) -> AsyncIterator[bytes]:
        status, error = 200, None
        try:
            async for event in self._upstream.iter_events(alias.upstream, response):
                data = event.data
                if data is not None:
                    if data.get("usage"):
                        self._fill_usage(entry, data["usage"])
                        timings = data.get("timings") or {}
                        if entry.ttft_ms is None and timings.get("ttft_ms") is not None:
                            entry.ttft_ms = _float_or_none(timings.get("ttft_ms"))
                        if not want_usage:
                            continue  # the caller did not ask for the usage chunk
                    if entry.ttft_ms is None and data.get("choices"):
                        entry.ttft_ms = (time.perf_counter() - ctx.started) * 1000
                    entry.model_served = entry.model_served or data.get("model")
                    if "error" in data:
                        status, error = 502, _error_message(data)
                    if "model" in data:
                        data["model"] = public_model
                    if not want_usage and "usage" in data:
                        data.pop("usage")
                    yield b"data: " + msgspec.json.encode(data) + b"\n\n"
                else:
                    yield event.raw
        except ThriftyError as exc:
            status, error = exc.status, exc.message
            yield b"data: " + msgspec.json.encode(exc.body()) + b"\n\n"
        except BaseException:
            status, error = 499, "client disconnected"
            raise
        finally:
            self._finish(ctx, entry, status, error=error)

    @staticmethod
    def _fill_usage(entry: LogEntry, usage: dict[str, Any]) -> None:
        entry.prompt_tokens = usage.get("prompt_tokens")
        entry.completion_tokens = usage.get("completion_tokens")
        details = usage.get("prompt_tokens_details") or {}
        entry.cached_tokens = details.get("cached_tokens")

    def _finish(self, ctx: CallContext, entry: LogEntry, status: int, error: str | None = None) -> None:
        entry.status_code = status
        entry.error = error
        entry.latency_ms = (time.perf_counter() - ctx.started) * 1000
        self._log.record(entry)

    def log_rejected(self, ctx: CallContext, status: int, error: str, model: str | None) -> None:
        """Record a request refused before forwarding (validation, unknown model)."""
        entry = LogEntry(id=ctx.request_id, key_id=ctx.key_id, endpoint=ctx.endpoint, status_code=status,
                         model_requested=model)
        self._finish(ctx, entry, status, error=error)


def _error_message(payload: dict[str, Any]) -> str:
    error = payload.get("error")
    if isinstance(error, dict):
        return str(error.get("message", error))
    return str(error) if error else "unknown error"


def _float_or_none(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) else None

"""Forwarding ``/v1/responses`` to an upstream that serves the Responses API itself
(``[[upstreams]] responses_api = true``): the body goes as it is (model renamed), the answer comes back
as it is (model renamed); the proxy logs it, counts it against the key and records each created
response's id under the key, so ``previous_response_id`` and retrieval stay per key."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from proxy.config.sections import ModelAlias
from proxy.config.settings import Settings
from proxy.logs import log_access
from proxy.pipeline.call import Reply, StreamReply
from proxy.pricing import PriceBook
from proxy.responses import translate as t
from proxy.responses.store import ResponseStore
from proxy.storage.request_log import LogEntry
from proxy.upstream.client import UpstreamReplyError
from proxy.wire.errors import ThriftyError, error_message, openai_error_body

UPSTREAM_PATH = "/responses"


class NativeResponses:
    """Relays Responses API requests to upstreams flagged ``responses_api``."""

    def __init__(self, settings: Settings, upstream, store: ResponseStore, record) -> None:
        native = {u.replica_of or u.name for u in settings.upstreams if u.responses_api}
        self._aliases = {a.name: a for a in settings.models if a.upstream in native}
        self._upstream = upstream
        self._store = store
        self._record = record
        self._prices = PriceBook(settings.prices)
        self._access_log = settings.proxy.access_log

    def alias_for(self, model: str) -> ModelAlias | None:
        """The alias when ``model`` is served by a Responses API upstream, else None."""
        return self._aliases.get(model)

    async def handle(self, ctx, data: dict[str, Any], alias: ModelAlias) -> Reply | StreamReply:
        entry = LogEntry(id=ctx.request_id, key_id=ctx.key_id, endpoint="responses", status_code=0,
                         model_requested=data["model"], upstream=alias.upstream, stream=bool(data.get("stream")),
                         client_request_id=ctx.client_request_id, batch_id=ctx.batch_id, cache_outcome="bypass")
        headers = {"x-thrifty-upstream": alias.upstream, "x-thrifty-cache": "bypass"}
        body = {k: v for k, v in data.items() if k != "thrifty"}
        body["model"] = alias.model
        items = t.with_ids(t.raw_items(data.get("input", [])))
        try:
            if data.get("stream"):
                try:
                    opened = await self._upstream.stream(alias.upstream, UPSTREAM_PATH, body, ctx.request_id)
                except UpstreamReplyError as exc:
                    return self._error_reply(ctx, entry, exc.reply.status, exc.reply.body, headers)
                return StreamReply(self._relay(ctx, entry, data, alias, opened, items), headers)
            reply = await self._upstream.post(alias.upstream, UPSTREAM_PATH, body, ctx.request_id)
        except ThriftyError as exc:
            self._finish(ctx, entry, exc.status, exc.message)
            raise
        if reply.status >= 400:
            return self._error_reply(ctx, entry, reply.status, reply.body, headers)
        payload = reply.body
        entry.model_served = payload.get("model")
        payload["model"] = data["model"]
        await self._keep(ctx.key_id, data, payload, items)
        self._usage(entry, payload.get("usage"))
        self._finish(ctx, entry, 200)
        return Reply(200, payload, headers)

    def _error_reply(self, ctx, entry: LogEntry, status: int, body: Any, headers: dict[str, str]) -> Reply:
        status = status if status < 500 else 502
        payload = openai_error_body(body, status)
        self._finish(ctx, entry, status, error_message(payload))
        return Reply(status, payload, headers)

    async def _relay(self, ctx, entry: LogEntry, data: dict[str, Any], alias: ModelAlias, opened,
                     items: list[dict[str, Any]]) -> AsyncIterator[bytes]:
        status, error = 200, None
        try:
            async for event in self._upstream.iter_events(alias.upstream, opened):
                payload = event.data
                if payload is None:
                    yield event.raw
                    continue
                response = payload.get("response")
                if isinstance(response, dict):
                    entry.model_served = entry.model_served or response.get("model")
                    response["model"] = data["model"]
                    if payload.get("type") in ("response.completed", "response.incomplete"):
                        await self._keep(ctx.key_id, data, response, items)
                        self._usage(entry, response.get("usage"))
                    if payload.get("type") == "response.failed":
                        status, error = 502, str((response.get("error") or {}).get("message", "response failed"))
                kind = payload.get("type", "message")
                yield b"event: " + str(kind).encode() + b"\ndata: " + msgspec.json.encode(payload) + b"\n\n"
        except ThriftyError as exc:
            status, error = exc.status, exc.message
            yield b"event: error\ndata: " + msgspec.json.encode({"type": "error", **exc.body()["error"]}) + b"\n\n"
        except BaseException:
            status, error = 499, "client disconnected"
            raise
        finally:
            self._finish(ctx, entry, status, error)

    async def _keep(self, key_id: str, data: dict[str, Any], response: dict[str, Any],
                    items: list[dict[str, Any]]) -> None:
        if data.get("store", True) and isinstance(response.get("id"), str):
            await self._store.put(key_id, response, items, [])  # the upstream holds the conversation

    @staticmethod
    def _usage(entry: LogEntry, usage: Any) -> None:
        if isinstance(usage, dict):
            entry.prompt_tokens = usage.get("input_tokens")
            entry.completion_tokens = usage.get("output_tokens")
            entry.cached_tokens = (usage.get("input_tokens_details") or {}).get("cached_tokens")

    def _finish(self, ctx, entry: LogEntry, status: int, error: str | None = None) -> None:
        entry.status_code, entry.error = status, error
        entry.latency_ms = (time.perf_counter() - ctx.started) * 1000
        if status < 400 and entry.prompt_tokens is not None:
            entry.cost_usd = self._prices.cost(entry.model_requested, entry.prompt_tokens,
                                               entry.completion_tokens or 0, entry.cached_tokens or 0)
        if ctx.on_finish is not None:
            ctx.on_finish(entry)
        self._record(entry)
        if self._access_log:
            log_access(entry)

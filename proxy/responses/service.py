"""``/v1/responses``: create (whole or streamed), retrieve, delete and list input items.

A create is translated into a chat completion and answered by the proxy's chat pipeline (keys,
caches, routing, caps and shaping, the request log with endpoint ``responses``), then translated
back; a streamed one turns the chat chunks into the Responses API's events, in OpenAI's order.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from proxy.pipeline.call import Reply, StreamReply
from proxy.responses import translate as t
from proxy.responses.store import ResponseStore
from proxy.upstream.client import SSEDecoder
from proxy.wire.errors import InvalidRequest, NotFound, ThriftyError
from proxy.wire.schemas import validate_chat

log = logging.getLogger(__name__)

ENDPOINT = "responses"


class ResponsesService:
    """Creates responses through ``pipeline`` (``handle(ctx, chat_body)``) and keeps them in ``store``."""

    def __init__(self, pipeline, store: ResponseStore, native=None) -> None:
        """``native``: a :class:`proxy.responses.native.NativeResponses` for upstreams serving the API."""
        self._pipeline = pipeline
        self._store = store
        self._native = native

    async def handle(self, ctx, data: dict[str, Any]) -> Reply | StreamReply:
        """Answer a checked create request (``ctx``: the pipeline's ``CallContext``, endpoint ``responses``)."""
        history: list[dict[str, Any]] = []
        previous = data.get("previous_response_id")
        alias = self._native.alias_for(data["model"]) if self._native is not None else None
        items = t.input_items(data.get("input", [])) if alias is None else []
        if previous:
            stored = await self._store.get(previous, ctx.key_id)
            if stored is None:  # absent, deleted, never stored, or another key's: the same answer
                error = NotFound(f"previous response {previous!r} not found: it does not exist, was created with "
                                 "store=false, or belongs to another key", param="previous_response_id",
                                 code="previous_response_not_found")
                self._pipeline.log_rejected(ctx, error.status, error.message, data.get("model"))
                raise error
            history = stored.conversation()
        if alias is not None:  # the upstream keeps the conversation: only the key's ownership was checked here
            return await self._native.handle(ctx, data, alias)
        stream = bool(data.get("stream"))
        body = t.chat_body(data, [*history, *items], stream)
        try:
            validate_chat(body)
        except InvalidRequest as exc:
            self._pipeline.log_rejected(ctx, exc.status, exc.message, data.get("model"))
            raise
        chat_ctx = dataclasses.replace(ctx, endpoint="chat", on_finish=_as_responses(ctx.on_finish))
        result = await self._pipeline.handle(chat_ctx, body)
        response_id = t.new_id("resp")
        stored_items = t.with_ids(items)
        if isinstance(result, Reply):
            if result.status >= 400:
                return result
            response = t.from_chat(data, response_id, result.body)
            await self._keep(ctx.key_id, data, response, stored_items, history)
            return Reply(200, response, result.headers)
        return StreamReply(self._events(ctx.key_id, data, response_id, result.chunks, stored_items, history),
                           result.headers)

    def check(self, data: dict[str, Any]) -> None:
        """The endpoint's body check: the translation's for translated models; for a model of an upstream
        serving the Responses API only what the proxy itself reads (the upstream judges the rest)."""
        model = data.get("model")
        if self._native is None or not isinstance(model, str) or self._native.alias_for(model) is None:
            t.validate_responses(data)
            return
        previous = data.get("previous_response_id")
        if previous is not None and (not isinstance(previous, str) or not previous or len(previous) > 64):
            raise InvalidRequest("'previous_response_id' must be a response id such as 'resp_...'",
                                 param="previous_response_id")
        for name in ("store", "stream"):
            if data.get(name) is not None and not isinstance(data[name], bool):
                raise InvalidRequest(f"'{name}' must be a boolean", param=name)

    async def _keep(self, key_id: str, data: dict[str, Any], response: dict[str, Any],
                    items: list[dict[str, Any]], history: list[dict[str, Any]]) -> None:
        if data.get("store", True):
            await self._store.put(key_id, response, items, history)

    async def _events(self, key_id: str, data: dict[str, Any], response_id: str, chunks: AsyncIterator[bytes],
                      items: list[dict[str, Any]], history: list[dict[str, Any]]) -> AsyncIterator[bytes]:
        """The Responses API's SSE events for a chat stream: created, in_progress, per output item
        added → (content part added → text deltas → text done → part done | argument deltas → arguments
        done) → item done, then completed (or failed on an error event)."""
        events = _EventWriter()
        response = t.skeleton(data, response_id, "in_progress")
        yield events.emit("response.created", response=response)
        yield events.emit("response.in_progress", response=response)
        decoder = SSEDecoder()
        text: _OpenText | None = None
        calls: dict[int, _OpenCall] = {}
        output: list[dict[str, Any]] = []
        finish_reason, usage = None, None
        try:
            async for raw in chunks:
                for event in decoder.feed(raw):
                    chunk = event.data
                    if chunk is None:
                        continue
                    if "error" in chunk:
                        response.update(status="failed", error={"code": (chunk["error"] or {}).get("code")
                                                                or "server_error",
                                                                "message": (chunk["error"] or {}).get("message", "")})
                        yield events.emit("error", code=response["error"]["code"],
                                          message=response["error"]["message"], param=None)
                        yield events.emit("response.failed", response=response)
                        return
                    usage = chunk.get("usage") or usage
                    for choice in chunk.get("choices") or []:
                        if choice.get("index", 0) != 0:
                            continue
                        delta = choice.get("delta") or {}
                        if delta.get("content"):
                            if text is None:
                                text = _OpenText(len(output) + len(calls), t.new_id("msg"))
                                for out in text.open(events):
                                    yield out
                            yield text.add(events, delta["content"])
                        for call in delta.get("tool_calls") or []:
                            index = call.get("index", 0)
                            function = call.get("function") or {}
                            if index not in calls:
                                if text is not None and not text.closed:
                                    for out in text.close(events):
                                        yield out
                                    output.append(text.item())
                                calls[index] = _OpenCall(len(output) + len(calls), t.new_id("fc"),
                                                         call.get("id") or t.new_id("call"), function.get("name", ""))
                                yield calls[index].open(events)
                            if function.get("arguments"):
                                yield calls[index].add(events, function["arguments"])
                        finish_reason = choice.get("finish_reason") or finish_reason
        except Exception:  # noqa: BLE001 - the client gets a failed response instead of a cut stream
            log.exception("translating a streamed response failed")
            response.update(status="failed", error={"code": "server_error", "message": "the stream failed"})
            yield events.emit("response.failed", response=response)
            return
        if text is not None and not text.closed:
            for out in text.close(events):
                yield out
            output.append(text.item())
        for call in calls.values():
            for out in call.close(events):
                yield out
            output.append(call.item())
        output.sort(key=lambda item: item["_index"])
        for item in output:
            item.pop("_index", None)
        response = t.finish(response, output, finish_reason, usage)
        try:
            await self._keep(key_id, data, response, items, history)
        except Exception:  # noqa: BLE001 - the answer stands; a follow-up naming it will be told it is missing
            log.exception("could not store streamed response %s", response_id)
        yield events.emit("response.incomplete" if response["status"] == "incomplete" else "response.completed",
                          response=response)

    # --- retrieval ---------------------------------------------------------------------------

    async def retrieve(self, response_id: str, key_id: str) -> dict[str, Any]:
        return (await self._find(response_id, key_id)).body

    async def delete(self, response_id: str, key_id: str) -> dict[str, Any]:
        if not await self._store.delete(response_id, key_id):
            raise _missing(response_id)
        return {"id": response_id, "object": "response", "deleted": True}

    async def input_items(self, response_id: str, key_id: str, order: str = "desc", limit: int = 20,
                          after: str | None = None) -> dict[str, Any]:
        """OpenAI's list of a response's input items (this request's, newest first by default)."""
        if order not in ("asc", "desc"):
            raise InvalidRequest("'order' must be asc or desc", param="order")
        if not 1 <= limit <= 100:
            raise InvalidRequest("'limit' must be between 1 and 100", param="limit")
        items = list((await self._find(response_id, key_id)).input_items)
        if order == "desc":
            items.reverse()
        if after is not None:
            ids = [item.get("id") for item in items]
            if after not in ids:
                raise InvalidRequest(f"'after' names no input item of {response_id!r}", param="after")
            items = items[ids.index(after) + 1:]
        page = items[:limit]
        return {"object": "list", "data": page, "first_id": page[0]["id"] if page else None,
                "last_id": page[-1]["id"] if page else None, "has_more": len(items) > limit}

    async def _find(self, response_id: str, key_id: str):
        stored = await self._store.get(response_id, key_id)
        if stored is None:
            raise _missing(response_id)
        return stored


def _missing(response_id: str) -> ThriftyError:
    return NotFound(f"response {response_id!r} not found", param="response_id", code="response_not_found")


def _as_responses(on_finish):
    """The key's settle callback, first marking the log entry as a Responses API request."""

    def finish(entry) -> None:
        entry.endpoint = ENDPOINT
        if on_finish is not None:
            on_finish(entry)

    return finish


class _EventWriter:
    """Numbers the events (``sequence_number``) and writes them as SSE."""

    def __init__(self) -> None:
        self.sequence = 0

    def emit(self, kind: str, **fields: Any) -> bytes:
        payload = {"type": kind, "sequence_number": self.sequence, **fields}
        self.sequence += 1
        return b"event: " + kind.encode() + b"\ndata: " + msgspec.json.encode(payload) + b"\n\n"


class _OpenText:
    """The assistant message being streamed."""

    def __init__(self, index: int, item_id: str) -> None:
        self.index, self.id, self.parts, self.closed = index, item_id, [], False

    def open(self, events: _EventWriter) -> list[bytes]:
        return [events.emit("response.output_item.added", output_index=self.index,
                            item={**t.message_item("", self.id, "in_progress"), "content": []}),
                events.emit("response.content_part.added", item_id=self.id, output_index=self.index, content_index=0,
                            part={"type": "output_text", "text": "", "annotations": []})]

    def add(self, events: _EventWriter, delta: str) -> bytes:
        self.parts.append(delta)
        return events.emit("response.output_text.delta", item_id=self.id, output_index=self.index, content_index=0,
                           delta=delta, logprobs=[])

    def close(self, events: _EventWriter) -> list[bytes]:
        self.closed = True
        text = "".join(self.parts)
        return [events.emit("response.output_text.done", item_id=self.id, output_index=self.index, content_index=0,
                            text=text, logprobs=[]),
                events.emit("response.content_part.done", item_id=self.id, output_index=self.index, content_index=0,
                            part={"type": "output_text", "text": text, "annotations": []}),
                events.emit("response.output_item.done", output_index=self.index, item=self.item(strip=True))]

    def item(self, strip: bool = False) -> dict[str, Any]:
        item = t.message_item("".join(self.parts), self.id)
        return item if strip else {**item, "_index": self.index}


class _OpenCall:
    """A function call being streamed."""

    def __init__(self, index: int, item_id: str, call_id: str, name: str) -> None:
        self.index, self.id, self.call_id, self.name, self.parts = index, item_id, call_id, name, []

    def open(self, events: _EventWriter) -> bytes:
        return events.emit("response.output_item.added", output_index=self.index,
                           item=t.call_item(self.call_id, self.name, "", self.id, "in_progress"))

    def add(self, events: _EventWriter, delta: str) -> bytes:
        self.parts.append(delta)
        return events.emit("response.function_call_arguments.delta", item_id=self.id, output_index=self.index,
                           delta=delta)

    def close(self, events: _EventWriter) -> list[bytes]:
        arguments = "".join(self.parts)
        return [events.emit("response.function_call_arguments.done", item_id=self.id, output_index=self.index,
                            arguments=arguments),
                events.emit("response.output_item.done", output_index=self.index, item=self.item(strip=True))]

    def item(self, strip: bool = False) -> dict[str, Any]:
        item = t.call_item(self.call_id, self.name, "".join(self.parts), self.id)
        return item if strip else {**item, "_index": self.index}

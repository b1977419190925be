"""A scripted OpenAI upstream for proxy tests (served on 127.0.0.1 with ``serve_in_thread``)."""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass, field

from benchmarks.harness import read_body, serve_in_thread, serve_lifespan

__all__ = ["ScriptedUpstream", "read_body", "proxy_settings", "serve_in_thread", "serve_lifespan"]


def proxy_settings(base_url: str, data_dir, *, cache=None, router=None, **proxy_overrides):
    """Settings for a proxy in front of one upstream at ``base_url`` (upstream ``fake``, public
    model ``gpt-test``), its SQLite database in ``data_dir``. Caching and routing are off unless
    ``cache`` / ``router`` say otherwise. The ``make_settings`` fixture binds ``data_dir``;
    module-scoped fixtures call this directly."""
    from proxy.config.sections import (
        BundledBackendConfig,
        CacheSettings,
        DatabaseConfig,
        ModelAlias,
        ProxyConfig,
        RouterSettings,
        UpstreamConfig,
    )
    from proxy.config.settings import Settings

    return Settings(cache=cache or CacheSettings(enabled=False), router=router or RouterSettings(enabled=False),
                    data_dir=str(data_dir), proxy=ProxyConfig(log_flush_interval_s=0.05, **proxy_overrides),
                    database=DatabaseConfig(url=f"sqlite+aiosqlite:///{data_dir}/proxy.db"),
                    bundled=BundledBackendConfig(enabled=False),
                    upstreams=(UpstreamConfig("fake", base_url + "/v1", api_key="sk-upstream"),),
                    models=(ModelAlias("gpt-test", "fake", "upstream-model"),))


@dataclass
class ScriptedUpstream:
    """A stand-in OpenAI upstream whose behaviour each test scripts (the proxy is what is tested).

    mode: "ok" (JSON answer), "stream" (SSE chunks, each after ``gate`` allows), "hang" (never answers),
    "error500", "notjson".
    """

    mode: str = "ok"
    chunks: int = 3
    requests: list[dict] = field(default_factory=list)
    gate: threading.Event = field(default_factory=threading.Event)
    disconnected: threading.Event = field(default_factory=threading.Event)
    model_name: str = "upstream-model"
    model_created: int = 1
    content: str = "hello"
    content_by_model: dict[str, str] = field(default_factory=dict)  # per requested model, else ``content``
    error_models: set[str] = field(default_factory=set)  # requested models that get a 500
    stream_when_asked: bool = False  # mode "ok": answer ``"stream": true`` requests with SSE
    finish_reason: str = "stop"  # of mode "ok" answers
    error_message: str = "boom"  # of the 500 answers
    echo: bool = False  # mode "ok": answer with "echo: " + the last message's (or the prompt's) text
    delay_s: float = 0.0  # mode "ok": wait this long before answering
    fail_times: dict[str, int] = field(default_factory=dict)  # echoed text -> how many 503s to give first

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        if scope["method"] == "GET" and scope["path"].endswith("/models"):
            await self._json(send, 200, {"object": "list", "data": [
                {"id": self.model_name, "object": "model", "created": self.model_created, "owned_by": "test"}]})
            return
        body = await read_body(receive)
        request = json.loads(body) if body else {}
        request["_path"] = scope["path"]
        request["_headers"] = {k.decode(): v.decode() for k, v in scope["headers"]}
        self.requests.append(request)
        if self.mode == "hang":
            await self._wait_disconnect(receive)
            return
        if self.mode == "error500" or request.get("model") in self.error_models:
            await self._json(send, 500, {"error": {"message": self.error_message, "type": "server_error"}})
            return
        if self.mode == "notjson":
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/html")]})
            await send({"type": "http.response.body", "body": b"<html>oops</html>"})
            return
        if self.mode == "stream" or (self.stream_when_asked and request.get("stream")):
            await self._stream(send, receive)
            return
        content = self.content_by_model.get(request.get("model"), self.content)
        if self.echo:
            messages = request.get("messages") or [{"content": request.get("prompt", "")}]
            content = "echo: " + str(messages[-1].get("content"))
            if self.fail_times.get(content, 0) > 0:
                self.fail_times[content] -= 1
                await self._json(send, 503, {"error": {"message": "busy", "type": "server_error"}})
                return
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        await self._json(send, 200, {
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": self.model_name,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                         "finish_reason": self.finish_reason}],
            "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6,
                      "prompt_tokens_details": {"cached_tokens": 2}},
        })

    async def _json(self, send, status, payload):
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": json.dumps(payload).encode()})

    async def _wait_disconnect(self, receive):
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                self.disconnected.set()
                return

    async def _stream(self, send, receive):
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream")]})
        watcher = asyncio.ensure_future(self._wait_disconnect(receive))
        try:
            for i in range(self.chunks):
                if i > 0:
                    while not self.gate.is_set():
                        if self.disconnected.is_set():
                            return
                        await asyncio.sleep(0.01)
                last = i == self.chunks - 1
                chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": self.model_name,
                         "choices": [{"index": 0, "delta": {"content": f"tok{i} "},
                                      "finish_reason": "stop" if last else None}]}
                await send({"type": "http.response.body", "body": f"data: {json.dumps(chunk)}\n\n".encode(),
                            "more_body": True})
            usage = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": self.model_name,
                     "choices": [], "usage": {"prompt_tokens": 4, "completion_tokens": self.chunks, "total_tokens": 7}}
            await send({"type": "http.response.body", "body": f"data: {json.dumps(usage)}\n\n".encode(),
                        "more_body": True})
            await send({"type": "http.response.body", "body": b"data: [DONE]\n\n"})
        finally:
            watcher.cancel()

"""Bad input and bad upstreams: clear OpenAI errors, honest log rows, nothing wrong cached."""

from __future__ import annotations

import json

import httpx
import pytest

from proxy.config.sections import CacheSettings
from proxy.http.app import create_app
from proxy.upstream.client import SSEEvent, UpstreamClient
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import read_body, serve_in_thread, serve_lifespan

CHAT = {"model": "gpt-test", "temperature": 0, "messages": [{"role": "user", "content": "hi"}]}


class OddUpstream:
    """An upstream that answers every chat request with ``body`` (JSON) or, for streams, ``chunks``."""

    def __init__(self, body: dict | None = None, chunks: list[bytes] | None = None) -> None:
        self.body, self.chunks, self.calls = body, chunks, 0

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        await read_body(receive)
        if scope["method"] != "POST":  # the model-version lookup (GET /models)
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        self.calls += 1
        if self.chunks is not None:
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
            for chunk in self.chunks:
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
            return
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": json.dumps(self.body).encode()})


@pytest.mark.parametrize("body", [
    {"choices": [{"index": 0, "message": "just a string", "finish_reason": "stop"}]},
    {"choices": "none"},
    {"choices": [{"index": 0, "message": {"role": "assistant", "content": 42}}]},
])
def test_a_malformed_answer_is_a_502_logged_as_such_and_never_cached(make_settings, tmp_path, body):
    upstream = OddUpstream(body=body)
    with serve_in_thread(upstream) as up:
        settings = make_settings(up, cache=CacheSettings(enabled=True, semantic=False), max_retries=0)
        with serve_in_thread(create_app(settings)) as proxy:
            first = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT)
            second = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT)
    assert first.status_code == second.status_code == 502
    assert first.json()["error"]["code"] == "upstream_malformed"
    assert upstream.calls == 2  # nothing was cached: the second request went upstream again
    rows = wait_for_log_rows(tmp_path / "proxy.db", "status_code, error", 2)
    assert [r[0] for r in rows] == [502, 502] and "malformed" in rows[0][1]


def _chunk(text: str, finish: str | None = None) -> bytes:
    return b"data: " + json.dumps({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                                   "choices": [{"index": 0, "delta": {"content": text},
                                                "finish_reason": finish}]}).encode() + b"\n\n"


@pytest.mark.parametrize("chunks, code", [
    ([_chunk("half an ans")], "upstream_stream_broken"),  # early EOF, no [DONE]
    ([_chunk("one"), b"data: {not json\n\n", _chunk("two", "stop"), b"data: [DONE]\n\n"], "upstream_malformed"),
])
def test_a_broken_stream_ends_with_an_error_event_and_is_not_cached(make_settings, tmp_path, chunks, code):
    upstream = OddUpstream(chunks=chunks)
    with serve_in_thread(upstream) as up:
        settings = make_settings(up, cache=CacheSettings(enabled=True, semantic=False), max_retries=0)
        with serve_in_thread(create_app(settings)) as proxy:
            streamed = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "stream": True}).text
            again = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "stream": True})
    events = [json.loads(line[6:]) for line in streamed.splitlines() if line.startswith("data: {")]
    assert events[-1]["error"]["code"] == code
    assert again.headers["x-thrifty-cache"] == "miss" and upstream.calls == 2
    rows = wait_for_log_rows(tmp_path / "proxy.db", "status_code", 2)
    assert [r[0] for r in rows] == [502, 502]


def test_routing_errors_and_deep_json_are_openai_errors_with_a_request_id(make_settings):
    with serve_in_thread(create_app(make_settings("http://127.0.0.1:9"))) as proxy:
        missing = httpx.get(f"{proxy}/v1/nope", headers={"x-request-id": "trace-404"})
        wrong_method = httpx.get(f"{proxy}/v1/chat/completions")
        deep = httpx.post(f"{proxy}/v1/chat/completions",
                          content=b'{"model": "gpt-test", "messages": ' + b"[" * 5000 + b"]" * 5000 + b"}")
    assert missing.status_code == 404 and missing.headers["x-request-id"] == "trace-404"
    assert missing.json()["error"]["type"] == "invalid_request_error"
    assert wrong_method.status_code == 405 and "POST" in wrong_method.headers["allow"]
    assert wrong_method.headers["x-request-id"].startswith("req-")
    assert deep.status_code == 400 and deep.json()["error"]["message"] == "request body is nested too deeply"
    assert deep.headers["x-request-id"]


class _Held:
    """Holds a synchronous step of the request path, for the huge request only, until released: while it
    is held, that request is provably still in flight. ``released`` says whether the release came in time."""

    def __init__(self, step, is_huge) -> None:
        import threading

        self.entered, self.release = threading.Event(), threading.Event()
        self.released: bool | None = None
        self._step, self._is_huge = step, is_huge

    def __call__(self, *args, **kwargs):
        if self._is_huge(*args):
            self.entered.set()
            self.released = self.release.wait(60)  # on the event loop, this would stall /health below
        return self._step(*args, **kwargs)


def test_a_huge_body_does_not_stall_other_requests(make_settings, monkeypatch):
    """200,000 messages (6 MB) take seconds to decode, check and key for the cache. Each of those steps
    is held (for the huge request only) until /health has answered: /health answers while each step is
    provably still running, which it could not if the step ran on the event loop (it would wait for the
    release, which waits for /health, until the client's timeout fails the test)."""
    import threading

    import proxy.http.app as app_module
    from caches.service import ResponseCache
    from tests.support.servers import ScriptedUpstream

    def many(messages) -> bool:
        return isinstance(messages, list) and len(messages) > 1000

    steps = {
        "decoding": _Held(app_module.parse_json_object, lambda raw: len(raw) > 1_000_000),
        "validation": _Held(app_module.validate_chat, lambda data: many(data.get("messages"))),
        "cache keying": _Held(ResponseCache.prepare, lambda cache, body: many(body.get("messages"))),
    }
    monkeypatch.setattr(app_module, "parse_json_object", steps["decoding"])
    monkeypatch.setattr(app_module, "validate_chat", steps["validation"])
    monkeypatch.setattr(ResponseCache, "prepare", lambda *a, **k: steps["cache keying"](*a, **k))
    huge = {**CHAT, "messages": [{"role": "user", "content": "x"}] * 200_000}
    with serve_in_thread(ScriptedUpstream()) as up:
        settings = make_settings(up, cache=CacheSettings(enabled=True, semantic=False))
        with serve_in_thread(create_app(settings)) as proxy:
            assert httpx.post(f"{proxy}/v1/chat/completions", json=CHAT).status_code == 200  # not held
            done = threading.Event()
            result: dict = {}

            def send_huge() -> None:
                result["status"] = httpx.post(f"{proxy}/v1/chat/completions", json=huge, timeout=120).status_code
                done.set()

            threading.Thread(target=send_huge, daemon=True).start()
            try:
                for name, step in steps.items():  # in the order the request meets them
                    assert step.entered.wait(120), f"the huge request never reached its {name}"
                    assert httpx.get(f"{proxy}/health", timeout=20).status_code == 200
                    assert not done.is_set(), f"the huge request was answered while its {name} was held"
                    step.release.set()
            finally:
                for step in steps.values():
                    step.release.set()
            assert done.wait(120), "the huge request was never answered"
    assert result["status"] == 200
    assert [step.released for step in steps.values()] == [True, True, True]


class SlowUpstream:
    """``/models`` hangs until ``release`` is set (when ``hang_models``) and chat answers drip one
    byte every 0.2 s (when ``drip``); ``finished`` is set once a drip has sent everything."""

    def __init__(self, *, drip: bool, hang_models: bool) -> None:
        import threading

        self.drip, self.hang_models = drip, hang_models
        self.finished, self.models_asked, self.release = threading.Event(), threading.Event(), threading.Event()

    async def __call__(self, scope, receive, send):
        import asyncio

        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        await read_body(receive)
        if scope["method"] == "GET":
            self.models_asked.set()
            while self.hang_models and not self.release.is_set():
                await asyncio.sleep(0.05)
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": b'{"object": "list", "data": []}'})
            return
        body = json.dumps({"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        if self.drip:
            for i in range(len(body)):
                await send({"type": "http.response.body", "body": body[i:i + 1], "more_body": True})
                await asyncio.sleep(0.2)
            self.finished.set()
        await send({"type": "http.response.body", "body": b"" if self.drip else body})


def test_request_timeout_is_a_deadline_for_a_dripping_upstream(make_settings):
    upstream = SlowUpstream(drip=True, hang_models=False)  # ~30 s to drip its answer
    with serve_in_thread(upstream) as up:
        with serve_in_thread(create_app(make_settings(up, request_timeout_s=1.0, max_retries=0))) as proxy:
            reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=60)
            still_dripping = not upstream.finished.is_set()
    assert reply.status_code == 504 and reply.json()["error"]["code"] == "upstream_timeout"
    assert still_dripping  # the caller was answered long before the drip would have ended


def test_a_hung_model_version_lookup_does_not_hold_the_request(make_settings):
    upstream = SlowUpstream(drip=False, hang_models=True)  # /models answers only once released
    with serve_in_thread(upstream) as up:
        settings = make_settings(up, cache=CacheSettings(enabled=True, semantic=False), request_timeout_s=600.0)
        app = create_app(settings)
        with serve_in_thread(app) as proxy:
            try:
                # /models is released only after this reply: a lookup bounded by the request timeout
                # alone would hold the request until then (a deadlock the suite's timeout would end)
                reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=None)
                versions = [known.version for known in app.state.thrifty.pipeline._versions._known.values()]
            finally:
                upstream.release.set()
    assert upstream.models_asked.is_set()
    assert reply.status_code == 200 and reply.json()["choices"][0]["message"]["content"] == "ok"
    assert len(versions) == 1 and "@unknown-" in versions[0]  # the lookup gave up on its own bound


def test_a_trickled_body_gets_a_408_and_the_proxy_keeps_serving(make_settings):
    import socket

    with serve_in_thread(create_app(make_settings("http://127.0.0.1:9", body_timeout_s=0.5))) as proxy:
        host, port = proxy.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                         b"content-length: 500\r\n\r\n{\"model\":")  # ... and nothing more
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
        assert httpx.get(f"{proxy}/health").status_code == 200
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408")
    assert json.loads(body)["error"]["code"] == "request_timeout"


def _read_until_closed(sock) -> bytes:
    answer = b""
    while chunk := sock.recv(4096):
        answer += chunk
    return answer


def test_trickled_headers_get_a_408_and_the_connection_is_closed(make_settings):
    """Slowloris: a client sending one header line at a time, or nothing at all, is cut off at the
    header deadline; one whose headers arrive in pieces within it is served on the same server."""
    import socket
    import threading

    from proxy.launch.slow_clients import header_deadline_protocol

    settings = make_settings("http://127.0.0.1:9", header_timeout_s=0.5)
    with serve_in_thread(create_app(settings), http=header_deadline_protocol(0.5)) as proxy:
        host, port = proxy.removeprefix("http://").split(":")
        stop = threading.Event()
        with socket.create_connection((host, int(port)), timeout=30) as slow:
            slow.sendall(b"GET /health HTTP/1.1\r\nhost: x\r\n")

            def trickle() -> None:  # a header line every 0.1 s, for up to 20 s: far past the deadline
                for i in range(200):
                    if stop.wait(0.1):
                        return
                    try:
                        slow.sendall(b"x-slow-%d: y\r\n" % i)
                    except OSError:
                        return

            sender = threading.Thread(target=trickle)
            sender.start()
            answer = _read_until_closed(slow)
            stop.set()
            sender.join()
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), answer[:200]
        assert json.loads(body)["error"]["code"] == "request_timeout"
        with socket.create_connection((host, int(port)), timeout=30) as silent:
            assert _read_until_closed(silent).startswith(b"HTTP/1.1 408")  # connected, never sent a byte
        with socket.create_connection((host, int(port)), timeout=30) as pieces:  # positive control
            pieces.sendall(b"GET /health HTTP/1.1\r\nhost: x\r\n")
            pieces.sendall(b"connection: close\r\n\r\n")
            assert _read_until_closed(pieces).startswith(b"HTTP/1.1 200")
        assert httpx.get(f"{proxy}/health").status_code == 200


def test_header_and_body_timeouts_must_be_positive(tmp_path):
    from proxy.config.settings import SettingsError, load_settings

    config = tmp_path / "thrifty.toml"
    config.write_text("[proxy]\nheader_timeout_s = 0\n")
    with pytest.raises(SettingsError, match="header_timeout_s must be > 0"):
        load_settings(config)


class CuttingUpstream(OddUpstream):
    """Streams one chunk, then fails: uvicorn drops the connection mid-answer (no closing chunk)."""

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan" or scope["method"] != "POST":
            await super().__call__(scope, receive, send)
            return
        await read_body(receive)
        self.calls += 1
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
        await send({"type": "http.response.body", "body": _chunk("half an ans"), "more_body": True})
        raise RuntimeError("the upstream died mid-answer")


def test_a_stream_cut_mid_answer_is_logged_502_with_a_plain_message(make_settings, tmp_path):
    upstream = CuttingUpstream()
    with serve_in_thread(upstream) as up:
        settings = make_settings(up, cache=CacheSettings(enabled=True, semantic=False), max_retries=0)
        with serve_in_thread(create_app(settings)) as proxy:
            streamed = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "stream": True}, timeout=30).text
    events = [json.loads(line[6:]) for line in streamed.splitlines() if line.startswith("data: {")]
    assert events[0]["choices"][0]["delta"]["content"] == "half an ans"
    error = events[-1]["error"]
    assert error["code"] == "upstream_stream_broken" and "ended early" in error["message"]
    (status, message), = wait_for_log_rows(tmp_path / "proxy.db", "status_code, error", 1)
    assert status == 502 and "ended early" in message
    assert "payload" not in message.lower() and "TransferEncoding" not in message


def _explode(*args, **kwargs):
    raise RuntimeError("internal detail /srv/secret")


def test_an_unexpected_error_while_forwarding_is_a_500_and_still_logged(make_settings, tmp_path, monkeypatch):
    upstream = OddUpstream(body={"choices": []})
    monkeypatch.setattr(UpstreamClient, "post", _explode)
    with serve_in_thread(upstream) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, headers={"x-request-id": "boom-1"}, timeout=30)
    assert reply.status_code == 500 and set(reply.json()["error"]) == {"message", "type", "param", "code"}
    rows = wait_for_log_rows(tmp_path / "proxy.db", "client_request_id, status_code, error, upstream", 1)
    assert rows == [("boom-1", 500, "internal error (RuntimeError); see the proxy log", "fake")]


def test_an_unexpected_error_mid_stream_is_logged_500_not_as_a_disconnect(make_settings, tmp_path, monkeypatch):
    async def events_then_explode(self, upstream, stream):
        stream.response.close()
        yield SSEEvent(_chunk("one"), json.loads(_chunk("one")[6:]))
        raise RuntimeError("internal detail")

    monkeypatch.setattr(UpstreamClient, "iter_events", events_then_explode)
    upstream = OddUpstream(chunks=[_chunk("one", "stop"), b"data: [DONE]\n\n"])
    with serve_in_thread(upstream) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        streamed = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "stream": True}, timeout=30).text
    events = [json.loads(line[6:]) for line in streamed.splitlines() if line.startswith("data: {")]
    assert events[-1]["error"]["code"] == "internal_error" and "internal detail" not in streamed
    rows = wait_for_log_rows(tmp_path / "proxy.db", "status_code, error", 1)
    assert rows == [(500, "internal error (RuntimeError); see the proxy log")]

"""Whole-request deadlines: the body read, the upstream's first byte and the whole stream count
against one deadline per request (``[proxy] request_deadline_s``, ``[models.<name>] deadline_s``).
Past it the client gets a clean error (an error event and ``[DONE]`` when streaming), the upstream
call is cancelled, and the request is logged. The upstreams here trickle on purpose."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from dataclasses import replace

import httpx
import pytest

from proxy.config.sections import ModelAlias
from proxy.config.settings import SettingsError, load_settings
from proxy.http.app import create_app
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import serve_in_thread

CHAT = {"model": "gpt-test", "messages": [{"role": "user", "content": "hi"}]}


class TricklingUpstream:
    """Answers every chat request with a stream that sends one chunk every 0.1 s and never ends
    (or, for a non-streamed request, waits forever); records when the proxy hangs up."""

    def __init__(self) -> None:
        self.disconnected = threading.Event()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        streamed = json.loads(body).get("stream")
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/event-stream" if streamed else b"application/json")]})
        waiting = asyncio.ensure_future(receive())  # http.disconnect when the proxy hangs up
        try:
            while not waiting.done():
                if streamed:
                    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
                             "choices": [{"index": 0, "delta": {"content": "x"}, "finish_reason": None}]}
                    await send({"type": "http.response.body", "body": b"data: " + json.dumps(chunk).encode() + b"\n\n",
                                "more_body": True})
                await asyncio.wait([waiting], timeout=0.1)
        except OSError:
            pass
        finally:
            self.disconnected.set()


def _settings(make_settings, up: str, **proxy):
    settings = make_settings(up, **proxy)
    models = tuple(replace(m, deadline_s=1.0) if m.name == "gpt-test" else m for m in settings.models)
    return replace(settings, models=models)


def test_a_trickling_stream_is_cut_at_the_models_deadline_with_an_error_event_and_done(make_settings, tmp_path):
    upstream = TricklingUpstream()
    with serve_in_thread(upstream) as up, serve_in_thread(create_app(_settings(make_settings, up))) as proxy:
        text = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "stream": True}, timeout=60).text
        assert upstream.disconnected.wait(30)  # the upstream call was cancelled
    events = [line[6:] for line in text.splitlines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]" and len(events) >= 3  # chunks were relayed until the deadline
    error = json.loads(events[-2])["error"]
    assert error["code"] == "deadline_exceeded" and "1 s" in error["message"]
    assert wait_for_log_rows(tmp_path / "proxy.db", "status_code, error", 1)[0][0] == 504


def test_an_upstream_that_never_answers_is_a_504_at_the_deadline(make_settings, tmp_path):
    upstream = TricklingUpstream()
    with serve_in_thread(upstream) as up, serve_in_thread(create_app(_settings(make_settings, up))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=60)
        assert upstream.disconnected.wait(30)
    assert reply.status_code == 504 and reply.json()["error"]["code"] == "deadline_exceeded"
    assert wait_for_log_rows(tmp_path / "proxy.db", "status_code", 1) == [(504,)]


def test_a_body_trickled_past_the_request_deadline_is_a_408(make_settings):
    upstream = TricklingUpstream()
    app = create_app(make_settings("http://127.0.0.1:9", body_timeout_s=30, request_deadline_s=1))
    with serve_in_thread(upstream), serve_in_thread(app) as proxy:
        host, port = proxy.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                         b"content-length: 1000\r\n\r\n{")
            stop = threading.Event()

            def trickle() -> None:  # one byte every 0.2 s: each gap far below body_timeout_s
                while not stop.wait(0.2):
                    try:
                        sock.sendall(b" ")
                    except OSError:
                        return

            sender = threading.Thread(target=trickle)
            sender.start()
            answer = b""
            try:
                while chunk := sock.recv(4096):
                    answer += chunk
                    if b"request_deadline_s" in answer:
                        break
            except OSError:
                pass
            finally:
                stop.set()
                sender.join()
    assert answer.startswith(b"HTTP/1.1 408") and b"request_deadline_s" in answer


def test_a_models_deadline_must_be_positive(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text('[[upstreams]]\nname = "u"\nbase_url = "http://127.0.0.1:9/v1"\n'
                      '[models.m]\nupstream = "u"\nmodel = "m"\ndeadline_s = 0\n')
    with pytest.raises(SettingsError, match=r"\[models.m\] deadline_s must be > 0"):
        load_settings(config, {})
    config.write_text(config.read_text().replace("deadline_s = 0", "deadline_s = 2.5"))
    alias = next(m for m in load_settings(config, {}).models if m.name == "m")
    assert alias == ModelAlias("m", "u", "m", deadline_s=2.5)

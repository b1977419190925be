"""SSE framing, identity helpers and where upstream requests go (URL, credentials)."""

from __future__ import annotations

import base64
import json
from dataclasses import replace

import httpx
import pytest

from proxy.config.sections import UpstreamConfig
from proxy.http.app import create_app
from proxy.identity import ANONYMOUS, key_id_from_authorization, request_id_from_header
from proxy.upstream.client import SSEDecoder, upstream_target
from tests.support.servers import read_body, serve_in_thread, serve_lifespan


def test_sse_decoder_emits_only_complete_events_across_arbitrary_splits():
    stream = b'data: {"a": 1}\n\ndata: {"b": 2}\r\n\r\n: comment\n\ndata: [DONE]\n\n'
    for size in (1, 3, 7, len(stream)):
        decoder = SSEDecoder()
        events = []
        for start in range(0, len(stream), size):
            events += decoder.feed(stream[start : start + size])
        events += decoder.flush()
        assert [e.data for e in events] == [{"a": 1}, {"b": 2}, None, None]
        assert events[-1].done and not events[2].done


def test_identity_is_a_hash_of_the_token():
    a = key_id_from_authorization("Bearer sk-one")
    assert a == key_id_from_authorization("bearer sk-one") and a != key_id_from_authorization("Bearer sk-two")
    assert "sk-one" not in a
    assert key_id_from_authorization(None) == ANONYMOUS == key_id_from_authorization("Bearer ")


def test_request_ids_are_reused_only_when_well_formed():
    assert request_id_from_header("abc-123") == "abc-123"
    assert request_id_from_header("bad id with spaces").startswith("req-")
    assert request_id_from_header("x" * 500).startswith("req-")


def test_credentials_in_the_base_url_become_basic_auth_only_without_an_api_key(caplog):
    plain = upstream_target(UpstreamConfig("u", "http://127.0.0.1:9/v1/"))
    assert (plain.url("/chat/completions"), plain.authorization) == ("http://127.0.0.1:9/v1/chat/completions", None)
    basic = upstream_target(UpstreamConfig("u", "http://alice:s%40cret@127.0.0.1:9/v1"))
    assert basic.url("/models") == "http://127.0.0.1:9/v1/models"
    assert basic.authorization == "Basic " + base64.b64encode(b"alice:s@cret").decode()
    with caplog.at_level("WARNING", logger="proxy.upstream.client"):
        keyed = upstream_target(UpstreamConfig("u", "https://bob:pw-SECRET@[::1]:8443/v1", api_key="sk-up"))
    assert (keyed.url("/models"), keyed.authorization) == ("https://[::1]:8443/v1/models", "Bearer sk-up")
    assert "api key is sent" in caplog.text and "pw-SECRET" not in caplog.text
    query = upstream_target(UpstreamConfig("u", "http://h/v1?api-version=2024-06-01"))
    assert query.url("/chat/completions") == "http://h/v1/chat/completions?api-version=2024-06-01"


class AuthEcho:
    """An upstream that answers every chat request with the Authorization header it received."""

    def __init__(self) -> None:
        self.seen: list[str | None] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        await read_body(receive)
        auth = dict(scope["headers"]).get(b"authorization")
        self.seen.append(auth.decode() if auth else None)
        body = {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}]}
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": json.dumps(body).encode()})


@pytest.mark.parametrize("api_key, expected", [
    ("sk-upstream", "Bearer sk-upstream"),
    ("", "Basic " + base64.b64encode(b"alice:pw").decode()),
])
def test_an_upstream_url_with_credentials_is_served_not_a_500(make_settings, api_key, expected):
    echo = AuthEcho()
    with serve_in_thread(echo) as up:
        settings = make_settings(up)
        url = up.replace("http://", "http://alice:pw@") + "/v1"
        settings = replace(settings, upstreams=(UpstreamConfig("fake", url, api_key=api_key),))
        with serve_in_thread(create_app(settings)) as proxy:
            chat = {"model": "gpt-test", "messages": [{"role": "user", "content": "hi"}]}
            plain = httpx.post(f"{proxy}/v1/chat/completions", json=chat, timeout=30)
            streamed = httpx.post(f"{proxy}/v1/chat/completions", json={**chat, "stream": True}, timeout=30)
    assert plain.status_code == 200, plain.text
    assert streamed.status_code == 200
    assert echo.seen == [expected, expected]

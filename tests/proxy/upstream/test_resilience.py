"""Upstream resilience: retries (backoff, retry-after), the circuit breaker, fallback models."""

from __future__ import annotations

import json
from dataclasses import replace

import httpx
from openai import OpenAI

from proxy.config.sections import ModelAlias, UpstreamConfig
from proxy.http.app import create_app
from proxy.launch.supervisor import free_port
from proxy.upstream.resilience import CircuitBreaker, RetryPolicy
from proxy.wire.errors import openai_error_body
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, read_body, serve_in_thread, serve_lifespan

CHAT = {"model": "gpt-test", "messages": [{"role": "user", "content": "x"}]}


def test_retry_policy_backs_off_and_honours_short_retry_after():
    policy = RetryPolicy(max_retries=2, backoff_s=0.1, max_wait_s=5)
    first, second = policy.wait_s(0), policy.wait_s(1)
    assert 0.05 <= first <= 0.15 and 0.1 <= second <= 0.3
    assert policy.wait_s(2) is None  # out of tries
    assert policy.wait_s(0, retry_after="3") == 3.0
    assert policy.wait_s(0, retry_after="60") is None  # longer than we wait: the 429 goes back
    assert 0.05 <= policy.wait_s(0, retry_after="Wed, 21 Oct 2015 07:28:00 GMT") <= 0.15


def test_circuit_breaker_opens_probes_and_closes():
    now = [0.0]
    breaker = CircuitBreaker(failures=3, open_s=10, clock=lambda: now[0])
    for _ in range(2):
        breaker.failure()
    assert breaker.state == "closed" and breaker.allow()
    breaker.failure()
    assert breaker.state == "open" and not breaker.allow()
    now[0] = 10.0
    assert breaker.state == "half_open"
    assert breaker.allow() and not breaker.allow()  # one probe at a time
    breaker.failure()  # the probe failed: open for another period
    assert breaker.state == "open"
    now[0] = 20.0
    assert breaker.allow()
    breaker.success()
    assert breaker.state == "closed" and breaker.allow()


class RateLimitedUpstream:
    """Answers 429 with retry-after the first ``limited`` times, then a chat answer."""

    def __init__(self, limited: int, retry_after: str = "0.1") -> None:
        self.limited, self.retry_after, self.calls = limited, retry_after, 0

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        await read_body(receive)
        self.calls += 1
        if self.calls <= self.limited:
            body, status, headers = {"error": {"message": "slow down"}}, 429, [(b"retry-after", self.retry_after.encode())]
        else:
            body, status, headers = {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [
                {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}, 200, []
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), *headers]})
        await send({"type": "http.response.body", "body": json.dumps(body).encode()})


def test_5xx_and_429_are_retried_before_the_client_sees_anything(make_settings):
    script = ScriptedUpstream(echo=True, fail_times={"echo: x": 2})
    with serve_in_thread(script) as up, serve_in_thread(create_app(make_settings(up, retry_backoff_s=0.01))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT)
        assert reply.status_code == 200 and len(script.requests) == 3
        script.fail_times["echo: x"] = 3  # one more than the retries
        gave_up = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT)
        assert gave_up.status_code == 503 and len(script.requests) == 6  # the upstream's 503 stays a 503
    limited = RateLimitedUpstream(limited=2)
    with serve_in_thread(limited) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        assert httpx.post(f"{proxy}/v1/chat/completions", json=CHAT).status_code == 200 and limited.calls == 3
    patient = RateLimitedUpstream(limited=1, retry_after="120")  # longer than max_retry_wait_s
    with serve_in_thread(patient) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT)
        assert reply.status_code == 429 and patient.calls == 1


def test_a_failing_model_falls_back_and_a_dead_upstream_opens_its_circuit(make_settings, tmp_path):
    script = ScriptedUpstream(echo=True)
    dead = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    with serve_in_thread(script) as up:
        settings = make_settings(up, max_retries=0, circuit_failures=2, circuit_open_s=60)
        settings = replace(settings, upstreams=(*settings.upstreams, UpstreamConfig("dead", dead)),
                           models=(ModelAlias("gpt-test", "dead", "m", fallbacks=("gpt-backup",)),
                                   ModelAlias("gpt-backup", "fake", "upstream-model"),
                                   ModelAlias("gpt-alone", "dead", "m")))
        with serve_in_thread(create_app(settings)) as proxy:
            client = OpenAI(base_url=proxy + "/v1", api_key="sk-x", max_retries=0)
            raw = client.chat.completions.with_raw_response.create(**CHAT)
            assert raw.parse().choices[0].message.content == "echo: x" and raw.parse().model == "gpt-test"
            assert raw.headers["x-thrifty-upstream"] == "fake"
            assert raw.headers["x-thrifty-fallback"].startswith("gpt-test failed: upstream 'dead' is unavailable")
            second = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "model": "gpt-alone"})
            assert second.status_code == 503 and second.json()["error"]["code"] == "upstream_unavailable"
            # two failures in a row: the circuit is open and the next call fails at once
            third = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "model": "gpt-alone"})
            assert third.status_code == 503 and third.json()["error"]["code"] == "upstream_circuit_open"
            # the model with a fallback still answers, through it
            assert httpx.post(f"{proxy}/v1/chat/completions", json=CHAT).status_code == 200
    rows = wait_for_log_rows(tmp_path / "proxy.db", "model_requested, upstream, status_code", 4)
    assert rows[0] == ("gpt-test", "fake", 200)


class RefusingUpstream:
    """Answers every request with ``status``, ``body`` and ``headers`` (the model lookup included)."""

    def __init__(self, status: int, body: dict, headers: list[tuple[bytes, bytes]]) -> None:
        self.status, self.body, self.headers, self.calls = status, body, headers, 0

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        await read_body(receive)
        self.calls += scope["method"] == "POST"
        await send({"type": "http.response.start", "status": self.status,
                    "headers": [(b"content-type", b"application/json"), *self.headers]})
        await send({"type": "http.response.body", "body": json.dumps(self.body).encode()})


def test_a_429_after_the_retries_keeps_retry_after_and_is_a_complete_openai_error(make_settings, tmp_path):
    limited = RefusingUpstream(429, {"error": {"message": "slow down"}},
                               [(b"retry-after", b"1"), (b"x-ratelimit-remaining-requests", b"0"),
                                (b"x-upstream-secret", b"internal")])
    with serve_in_thread(limited) as up:
        settings = make_settings(up, max_retries=1, retry_backoff_s=0.01)
        with serve_in_thread(create_app(settings)) as proxy:
            plain = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
            streamed = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "stream": True}, timeout=30)
    assert limited.calls == 4  # each request: the first try and one retry after the upstream's retry-after
    expected = {"error": {"message": "slow down", "type": "requests", "param": None, "code": "rate_limit_exceeded"}}
    for reply in (plain, streamed):
        assert reply.status_code == 429
        assert reply.json() == expected
        assert reply.headers["retry-after"] == "1" and reply.headers["x-ratelimit-remaining-requests"] == "0"
        assert "x-upstream-secret" not in reply.headers
    rows = wait_for_log_rows(tmp_path / "proxy.db", "status_code, error", 2)
    assert rows == [(429, "slow down"), (429, "slow down")]


def test_upstream_error_bodies_of_other_servers_become_openai_errors(make_settings):
    vllm_style = RefusingUpstream(400, {"object": "error", "message": "context too long", "type": "BadRequestError",
                                        "param": None, "code": 400}, [])
    with serve_in_thread(vllm_style) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
    assert reply.status_code == 400
    assert reply.json() == {"error": {"message": "context too long", "type": "BadRequestError", "param": None,
                                      "code": "400"}}
    assert "retry-after" not in reply.headers


def test_openai_error_body_fills_every_field():
    assert openai_error_body({"detail": "Not authenticated"}, 401) == {"error": {
        "message": "Not authenticated", "type": "authentication_error", "param": None, "code": None}}
    assert openai_error_body({"error": "quota"}, 403)["error"] == {
        "message": "quota", "type": "permission_error", "param": None, "code": None}
    assert openai_error_body({"unrelated": 1}, 404)["error"] == {
        "message": "the upstream answered with status 404", "type": "invalid_request_error", "param": None,
        "code": None}
    full = {"error": {"message": "bad temperature", "type": "invalid_request_error", "param": "temperature",
                      "code": "invalid_value"}}
    assert openai_error_body(full, 400) == full  # a complete OpenAI error passes unchanged

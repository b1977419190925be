"""Output capping through the proxy app (a scripted upstream stands in for the model): the default
limit, the hard maximum, the cache key holding the effective limit, and the request log."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest

from proxy.config.sections import CacheSettings
from proxy.config.shaping import ShapingOverride, ShapingSettings
from proxy.http.app import create_app
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread
from tests.support.writebacks import CacheWrites


def chat(content: str = "Name three colours.", **extra) -> dict:
    return {"model": "gpt-test", "temperature": 0, "messages": [{"role": "user", "content": content}], **extra}


def upstream_posts(script: ScriptedUpstream) -> list[dict]:
    return [r for r in script.requests if r["_path"].endswith("/completions")]


@pytest.fixture
def capped(make_settings):
    def start(script: ScriptedUpstream, shaping: ShapingSettings, cache: bool = False):
        up = serve_in_thread(script)
        base = up.__enter__()
        settings = make_settings(base, cache=CacheSettings(enabled=cache, semantic=False))
        app = create_app(replace(settings, shaping=shaping))
        proxy = serve_in_thread(app)
        started.append((up, proxy))
        return proxy.__enter__(), app

    started: list = []
    yield start
    for up, proxy in reversed(started):
        proxy.__exit__(None, None, None)
        up.__exit__(None, None, None)


def test_a_request_without_max_tokens_gets_the_default_and_the_cache_key_holds_it(capped) -> None:
    script = ScriptedUpstream(content="Red, green, blue.")
    proxy, app = capped(script, ShapingSettings(default_max_tokens=64), cache=True)
    writes = CacheWrites(app)
    first = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    assert first.status_code == 200 and first.headers["x-thrifty-cap"] == "default; max_tokens=64"
    assert upstream_posts(script)[-1]["max_tokens"] == 64
    writes.wait(1)  # the first answer's write-back, which runs after the response
    assert writes.stored == [True]
    again = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    assert again.headers["x-thrifty-cache"] == "exact"  # same effective limit: the same answer
    same_limit = httpx.post(f"{proxy}/v1/chat/completions", json=chat(max_tokens=64), timeout=30)
    assert same_limit.headers["x-thrifty-cache"] == "exact" and "x-thrifty-cap" not in same_limit.headers
    more = httpx.post(f"{proxy}/v1/chat/completions", json=chat(max_tokens=2000), timeout=30)
    assert more.headers["x-thrifty-cache"] == "miss"  # a capped answer is never served to a longer ask
    assert upstream_posts(script)[-1]["max_tokens"] == 2000
    assert len(upstream_posts(script)) == 2


def test_over_the_maximum_is_clamped_with_a_header(capped) -> None:
    script = ScriptedUpstream()
    proxy, _ = capped(script, ShapingSettings(max_tokens_limit=100))
    reply = httpx.post(f"{proxy}/v1/chat/completions", json=chat(max_completion_tokens=5000), timeout=30)
    assert reply.status_code == 200
    assert reply.headers["x-thrifty-cap"] == "clamped; max_tokens=100; requested=5000"
    assert upstream_posts(script)[-1]["max_completion_tokens"] == 100


def test_over_the_maximum_is_a_400_for_a_key_whose_policy_rejects(capped, make_settings, tmp_path) -> None:
    script = ScriptedUpstream()
    strict = ShapingOverride("strict", tenant="anonymous", over_limit="reject")
    proxy, _ = capped(script, ShapingSettings(max_tokens_limit=100, keys=(strict,)))
    reply = httpx.post(f"{proxy}/v1/chat/completions", json=chat(max_tokens=101), timeout=30)
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["param"] == "max_tokens" and "at most 100" in error["message"]
    assert error["code"] == "max_tokens_too_large"
    assert upstream_posts(script) == []
    other = httpx.post(f"{proxy}/v1/chat/completions", json=chat(max_tokens=101), timeout=30,
                       headers={"authorization": "Bearer sk-other"})
    assert other.status_code == 200 and other.headers["x-thrifty-cap"].startswith("clamped")
    rows = wait_for_log_rows(tmp_path / "proxy.db", "status_code, error, key_id", 2)
    assert rows[0][0] == 400 and "at most 100" in rows[0][1]


def test_the_request_log_counts_answers_cut_by_the_limit(capped, tmp_path) -> None:
    script = ScriptedUpstream(finish_reason="length", stream_when_asked=True)
    script.gate.set()  # stream every chunk at once
    proxy, _ = capped(script, ShapingSettings(default_max_tokens=32))
    httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    httpx.post(f"{proxy}/v1/chat/completions", json=chat(max_tokens=10, stream=True), timeout=30)
    rows = wait_for_log_rows(tmp_path / "proxy.db", "finish_reason, max_tokens, cap, shaping, cached_tokens", 2)
    assert rows[0] == ("length", 32, "default", "safe", 2)
    assert rows[1][:3] == ("stop", 10, None)  # the stream's last chunk said stop


def test_shaping_off_still_caps(capped) -> None:
    script = ScriptedUpstream()
    proxy, _ = capped(script, ShapingSettings(mode="off", default_max_tokens=16))
    reply = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    assert "x-thrifty-shaping" not in reply.headers and reply.headers["x-thrifty-cap"] == "default; max_tokens=16"

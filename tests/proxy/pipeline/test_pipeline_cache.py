"""Caching through the proxy: exact and semantic hits, SSE replay, opt-outs, tenants, invalidation."""

from __future__ import annotations

import httpx
import pytest

from proxy.config.sections import AdminConfig, CacheSettings
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, serve_in_thread
from tests.support.writebacks import CacheWrites

Q = "What is the capital city of France?"


def chat(content: str = Q, **extra) -> dict:
    return {"model": "gpt-test", "temperature": 0, "messages": [{"role": "user", "content": content}], **extra}


def posts(script: ScriptedUpstream) -> int:
    return sum(1 for r in script.requests if r["_path"].endswith("/completions"))


@pytest.fixture
def proxied(make_settings, embedder):
    script = ScriptedUpstream(content="Paris.")
    with serve_in_thread(script) as up:
        # no lookup deadline: these tests assert hits, and a busy machine must not turn one into a miss
        settings = make_settings(up, cache=CacheSettings(enabled=True, semantic=True, lookup_deadline_ms=0))
        from dataclasses import replace

        settings = replace(settings, admin=AdminConfig(api_key="admin-secret"))
        app = create_app(settings, embedder=embedder)
        app.state.cache_writes = CacheWrites(app)  # what _drain waits for
        with serve_in_thread(app) as proxy:
            yield script, proxy, app


def test_exact_hit_skips_the_upstream(proxied):
    script, proxy, _ = proxied
    first = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    assert first.headers["x-thrifty-cache"] == "miss"
    _drain(proxied)
    second = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    assert second.headers["x-thrifty-cache"] == "exact"
    assert second.json()["choices"] == first.json()["choices"]
    assert second.json()["id"] != first.json()["id"]
    assert second.json()["usage"] == first.json()["usage"]
    assert posts(script) == 1


def test_semantic_hit_on_a_paraphrase_says_how_similar(proxied):
    script, proxy, _ = proxied
    httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    _drain(proxied)
    hit = httpx.post(f"{proxy}/v1/chat/completions", json=chat("What's the capital city of France?"), timeout=30)
    assert hit.headers["x-thrifty-cache"] == "semantic"
    assert 0.9 <= float(hit.headers["x-thrifty-cache-similarity"]) <= 1.0
    assert hit.json()["choices"][0]["message"]["content"] == "Paris."
    different = httpx.post(f"{proxy}/v1/chat/completions", json=chat("What is the capital city of Germany?"),
                           timeout=30)
    assert different.headers["x-thrifty-cache"] == "miss"
    assert posts(script) == 2


def test_streaming_request_gets_a_cached_answer_as_sse_with_usage(proxied):
    script, proxy, _ = proxied
    httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    _drain(proxied)
    with httpx.stream("POST", f"{proxy}/v1/chat/completions", timeout=30,
                      json=chat(stream=True, stream_options={"include_usage": True})) as response:
        assert response.headers["x-thrifty-cache"] == "exact"
        lines = [line for line in response.iter_lines() if line.startswith("data:")]
    import json

    chunks = [json.loads(line[5:]) for line in lines[:-1]]
    assert lines[-1] == "data: [DONE]"
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks if c["choices"])
    assert text == "Paris."
    assert chunks[-1]["usage"]["completion_tokens"] == 1
    assert posts(script) == 1


def test_streamed_answers_are_written_back(make_settings, embedder):
    script = ScriptedUpstream(mode="stream", chunks=2)
    script.gate.set()
    with serve_in_thread(script) as up:
        app = create_app(make_settings(up, cache=CacheSettings(enabled=True, semantic=False)), embedder=embedder)
        app.state.cache_writes = CacheWrites(app)
        with serve_in_thread(app) as proxy:
            with httpx.stream("POST", f"{proxy}/v1/chat/completions", json=chat(stream=True), timeout=30) as r:
                list(r.iter_lines())
            _drain((script, proxy, app))
            again = httpx.post(f"{proxy}/v1/chat/completions", json=chat(stream=True), timeout=30)
    assert again.headers["x-thrifty-cache"] == "exact"
    assert '"content":"tok0 tok1 "' in again.text.replace(" ", " ").replace('": "', '":"')
    assert posts(script) == 1


def test_opt_outs_tenants_and_extension_field(proxied):
    script, proxy, _ = proxied
    httpx.post(f"{proxy}/v1/chat/completions", json=chat(), headers={"authorization": "Bearer alice"}, timeout=30)
    _drain(proxied)
    bob = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), headers={"authorization": "Bearer bob"},
                     timeout=30)
    assert bob.headers["x-thrifty-cache"] == "miss"  # another tenant never sees alice's entries
    nostore = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30,
                         headers={"authorization": "Bearer alice", "cache-control": "no-store"})
    assert nostore.headers["x-thrifty-cache"] == "bypass"
    off = httpx.post(f"{proxy}/v1/chat/completions", json=chat(thrifty={"cache": False}), timeout=30,
                     headers={"authorization": "Bearer alice"})
    assert off.headers["x-thrifty-cache"] == "bypass"
    assert "thrifty" not in script.requests[-1]  # our extension field never reaches the upstream
    hot = httpx.post(f"{proxy}/v1/chat/completions", json=chat(temperature=0.7, seed=1), timeout=30,
                     headers={"authorization": "Bearer alice"})
    assert hot.headers["x-thrifty-cache"] == "miss"  # another sampling parameter, another key
    sampled = httpx.post(f"{proxy}/v1/chat/completions", json=chat(temperature=0.7), timeout=30,
                         headers={"authorization": "Bearer alice"})
    assert sampled.headers["x-thrifty-cache"] == "bypass"  # a sample without a seed is always fresh
    assert posts(script) == 6


def test_admin_invalidation_needs_the_admin_key_and_really_deletes(proxied):
    script, proxy, _ = proxied
    httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    _drain(proxied)
    denied = httpx.post(f"{proxy}/admin/cache/invalidate", json={"all": True})
    assert denied.status_code == 401 and denied.json()["error"]["code"] == "invalid_admin_key"
    bad = httpx.post(f"{proxy}/admin/cache/invalidate", json={"all": True, "model": "x"},
                     headers={"authorization": "Bearer admin-secret"})
    assert bad.status_code == 400 and "exactly one" in bad.json()["error"]["message"]
    stats = httpx.get(f"{proxy}/admin/cache/stats", headers={"authorization": "Bearer admin-secret"}).json()
    assert stats["exact"]["entries"] == 1
    done = httpx.post(f"{proxy}/admin/cache/invalidate", json={"model": "gpt-test"},
                      headers={"authorization": "Bearer admin-secret"})
    assert done.status_code == 200 and done.json()["total"] >= 1
    again = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    assert again.headers["x-thrifty-cache"] == "miss"
    assert posts(script) == 2


def test_a_model_version_change_stops_old_entries_from_hitting(make_settings, embedder):
    script = ScriptedUpstream(content="Paris.")
    with serve_in_thread(script) as up:
        app = create_app(make_settings(up, cache=CacheSettings(enabled=True, semantic=False)), embedder=embedder)
        app.state.cache_writes = CacheWrites(app)
        with serve_in_thread(app) as proxy:
            httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
            _drain((script, proxy, app))
            before = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
            app.state.thrifty.pipeline._versions._known.clear()  # as after the version TTL, same version
            same = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
            script.model_created = 2  # the upstream now serves a new version of the model
            app.state.thrifty.pipeline._versions._known.clear()  # as after the version TTL
            after = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    # positive controls: the entry hits while the version is unchanged, even after a re-fetch
    assert before.headers["x-thrifty-cache"] == "exact" and same.headers["x-thrifty-cache"] == "exact"
    assert after.headers["x-thrifty-cache"] == "miss"


def test_cache_database_failure_degrades_to_a_miss(make_settings, embedder, tmp_path):
    script = ScriptedUpstream()
    with serve_in_thread(script) as up:
        app = create_app(make_settings(up, cache=CacheSettings(enabled=True, semantic=True)), embedder=embedder)
        with serve_in_thread(app) as proxy:
            import sqlite3

            with sqlite3.connect(tmp_path / "proxy.db") as db:
                db.execute("drop table thrifty_exact_cache")
                db.execute("drop table thrifty_semantic_cache")
            response = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=30)
    assert response.status_code == 200
    assert response.headers["x-thrifty-cache"] == "miss"


def _drain(proxied, at_least: int = 1) -> None:
    """Wait until ``at_least`` cache write-backs have started and every started one has finished (they
    run off the request path; a stream's starts when the server finishes the response); fail if not."""
    proxied[2].state.cache_writes.wait(at_least)


SCHEMA = {"type": "json_schema", "json_schema": {"name": "place", "strict": True, "schema": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
    "additionalProperties": False}}}


@pytest.mark.parametrize(("answer", "cached"), [("Paris.", False), ('{"town": "Paris"}', False),
                                                ('{"city": "Paris"}', True)])
def test_an_answer_failing_its_schema_is_served_but_never_cached(make_settings, embedder, answer, cached):
    script = ScriptedUpstream(content=answer)
    with serve_in_thread(script) as up:
        settings = make_settings(up, cache=CacheSettings(enabled=True, semantic=True, lookup_deadline_ms=0))
        app = create_app(settings, embedder=embedder)
        writes = app.state.cache_writes = CacheWrites(app)
        with serve_in_thread(app) as proxy:
            first = httpx.post(f"{proxy}/v1/chat/completions", json=chat(response_format=SCHEMA), timeout=30)
            assert first.status_code == 200
            assert first.json()["choices"][0]["message"]["content"] == answer
            writes.wait(1 if cached else 0)
            assert writes.started == (1 if cached else 0)
            second = httpx.post(f"{proxy}/v1/chat/completions", json=chat(response_format=SCHEMA), timeout=30)
            assert second.headers["x-thrifty-cache"] == ("exact" if cached else "miss")
            assert posts(script) == (1 if cached else 2)

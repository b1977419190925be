"""/metrics after real requests through the proxy (scripted upstream), parsed with prometheus_client."""

from __future__ import annotations

import io
import json
import time
from dataclasses import replace

import httpx
from openai import OpenAI
from prometheus_client.parser import text_string_to_metric_families

from proxy.config.sections import (
    AuthSettings,
    BatchSettings,
    CacheSettings,
    ModelAlias,
    RouterSettings,
    UpstreamConfig,
)
from proxy.http.app import create_app
from proxy.http.metrics import ProxyMetrics
from proxy.launch.supervisor import free_port
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread

CHAT = {"model": "gpt-test", "messages": [{"role": "user", "content": "hi"}], "temperature": 0}


def scrape(proxy: str) -> dict[tuple[str, frozenset], float]:
    """Every sample of /metrics as {(name, labels): value}."""
    response = httpx.get(f"{proxy}/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    return _parse(response.content)


def _parse(text: bytes) -> dict[tuple[str, frozenset], float]:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text.decode()) for s in family.samples}


def value(samples: dict, name: str, **labels: str) -> float:
    """One sample's value; 0 when the series does not exist (yet)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples: dict, name: str, **labels: str) -> float:
    """The sum over every series of ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and wanted <= ls)


def settle(app) -> None:
    """Wait until the pipeline's background work (cache write-backs) is done."""
    pipeline = app.state.thrifty.pipeline
    deadline = time.monotonic() + 10
    while pipeline._background:
        assert time.monotonic() < deadline, "background work did not finish"
        time.sleep(0.01)


def test_requests_cache_and_latency_are_counted(make_settings, tmp_path):
    script = ScriptedUpstream(stream_when_asked=True)
    script.gate.set()  # stream every chunk at once
    with serve_in_thread(script) as up:
        app = create_app(make_settings(up, cache=CacheSettings(enabled=True, semantic=False)))
        with serve_in_thread(app) as proxy:
            before = scrape(proxy)
            first = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
            settle(app)  # the answer is written to the cache off the request path
            second = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
            unknown = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "model": "no-such-model-xyz"})
            bad = httpx.post(f"{proxy}/v1/chat/completions", content=b"{")
            streamed = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                                  json={**CHAT, "stream": True, "messages": [{"role": "user", "content": "yo"}]})
            deadline = time.monotonic() + 10  # the stream's write-back starts once its last chunk is sent
            while value(after := scrape(proxy), "thrifty_cache_entries", cache="exact") < 2:
                assert time.monotonic() < deadline, "the streamed answer was not stored"
                settle(app)
                time.sleep(0.01)
    assert [first.headers["x-thrifty-cache"], second.headers["x-thrifty-cache"]] == ["miss", "exact"]
    assert (unknown.status_code, bad.status_code, streamed.status_code) == (404, 400, 200)
    assert value(before, "thrifty_requests_total", endpoint="chat", model="gpt-test", route="none", cache="miss",
                 status_code="200") == 0
    requests = {"cache": "miss", "status_code": "200", "endpoint": "chat", "route": "none", "model": "gpt-test"}
    assert value(after, "thrifty_requests_total", **requests) == 2  # the first and the streamed one
    assert value(after, "thrifty_requests_total", **{**requests, "cache": "exact"}) == 1
    # a name that is no configured model is counted as "other", never as a new label value
    assert value(after, "thrifty_requests_total", endpoint="chat", model="other", route="none", cache="bypass",
                 status_code="404") == 1
    assert value(after, "thrifty_requests_total", endpoint="chat", model="other", route="none", cache="none",
                 status_code="400") == 1
    assert not any("no-such-model-xyz" in str(labels) for _, labels in after)
    assert total(after, "thrifty_requests_total") - total(before, "thrifty_requests_total") == 5
    # cache hit ratio: 3 lookups (two misses, one exact hit)
    assert value(after, "thrifty_cache_lookups_total") == 3
    assert value(after, "thrifty_cache_hits_total", kind="exact") == 1
    assert value(after, "thrifty_cache_hits_total", kind="semantic") == 0
    assert value(after, "thrifty_cache_entries", cache="exact") == 2  # stored by the two misses
    assert value(after, "thrifty_cache_bytes", cache="exact") > 0
    # latency histograms: every answered gpt-test request, TTFT for each answer
    assert value(after, "thrifty_request_duration_seconds_count", endpoint="chat", model="gpt-test",
                 cache="miss") == 2
    assert value(after, "thrifty_request_duration_seconds_bucket", endpoint="chat", model="gpt-test", cache="exact",
                 le="+Inf") == 1
    assert value(after, "thrifty_request_duration_seconds_sum", endpoint="chat", model="gpt-test", cache="exact") > 0
    assert value(after, "thrifty_time_to_first_token_seconds_count", endpoint="chat", model="gpt-test",
                 cache="miss") == 1  # the streamed answer (the scripted JSON answer carries no timings)
    assert value(after, "thrifty_time_to_first_token_seconds_count", endpoint="chat", model="gpt-test",
                 cache="exact") == 1
    # the upstream was called twice (the two misses), both answered
    assert value(after, "thrifty_upstream_request_duration_seconds_count", upstream="fake") == 2
    assert total(after, "thrifty_upstream_errors_total") == 0
    # finish reasons of the upstream's answers (the cache hit is not counted again), by the cap put on them
    assert total(after, "thrifty_finish_reasons_total") - total(before, "thrifty_finish_reasons_total") == 2
    assert total(after, "thrifty_finish_reasons_total", model="gpt-test", finish_reason="stop", cap="default") == 2
    # the request log: the miss reused 2 prompt tokens upstream, the hit made no upstream call
    rows = wait_for_log_rows(tmp_path / "proxy.db", "cache_outcome, cached_tokens", 5)
    assert ("miss", 2) in rows and ("exact", 0) in rows
    # the request log's counters are still there
    assert ("thrifty_proxy_request_log_written_total", frozenset()) in after
    assert value(after, "thrifty_proxy_request_log_dropped_total") == 0


def test_upstream_errors_are_counted_per_upstream(make_settings):
    script = ScriptedUpstream(mode="error500")
    with serve_in_thread(script) as up:
        settings = make_settings(up)
        dead = f"http://127.0.0.1:{free_port()}"  # nothing listens there
        settings = replace(settings, upstreams=(*settings.upstreams, UpstreamConfig("dead", dead + "/v1")),
                           models=(*settings.models, ModelAlias("gpt-dead", "dead", "m")))
        with serve_in_thread(create_app(settings)) as proxy:
            failed = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
            down = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "model": "gpt-dead"}, timeout=30)
            samples = scrape(proxy)
    assert (failed.status_code, down.status_code) == (502, 503)
    calls = sum(r["_path"].endswith("/chat/completions") for r in script.requests)  # retries included
    assert calls >= 1
    assert value(samples, "thrifty_upstream_errors_total", upstream="fake", error="http_500") == calls
    assert value(samples, "thrifty_upstream_errors_total", upstream="dead", error="unavailable") >= 1
    assert value(samples, "thrifty_upstream_errors_total", upstream="fake", error="unavailable") == 0
    assert value(samples, "thrifty_upstream_request_duration_seconds_count", upstream="fake") == calls
    assert value(samples, "thrifty_requests_total", endpoint="chat", model="gpt-test", route="none", cache="bypass",
                 status_code="502") == 1
    assert value(samples, "thrifty_requests_total", endpoint="chat", model="gpt-dead", route="none", cache="bypass",
                 status_code="503") == 1
    assert value(samples, "thrifty_error_responses_total", status_code="503", code="upstream_unavailable") == 1
    assert total(samples, "thrifty_error_responses_total", status_code="502") == 1


def test_router_share_is_counted_per_tier(make_settings):
    script = ScriptedUpstream()
    with serve_in_thread(script) as up:
        settings = make_settings(up, router=RouterSettings(enabled=True, small_model="small-m", large_model="large-m",
                                                           kind="heuristic", threshold_mode="fixed",
                                                           fixed_threshold=0.5))
        settings = replace(settings, models=(ModelAlias("small-m", "fake", "tiny"), ModelAlias("large-m", "fake", "big")))
        routed = {**CHAT, "model": "thrifty-auto"}
        with serve_in_thread(create_app(settings)) as proxy:
            tiers = [httpx.post(f"{proxy}/v1/chat/completions", json=routed, timeout=30).headers["x-thrifty-route"]
                     for _ in range(3)]
            httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "model": "large-m"}, timeout=30)  # not routed
            samples = scrape(proxy)
    for tier in ("small", "large"):
        assert value(samples, "thrifty_router_decisions_total", tier=tier) == tiers.count(tier)
    assert total(samples, "thrifty_router_decisions_total") == 3
    assert total(samples, "thrifty_requests_total", model="thrifty-auto", route=tiers[0]) == tiers.count(tiers[0])
    assert value(samples, "thrifty_requests_total", endpoint="chat", model="large-m", route="none", cache="bypass",
                 status_code="200") == 1


def test_metrics_registries_are_per_app(make_settings):
    script = ScriptedUpstream()
    with serve_in_thread(script) as up:
        with serve_in_thread(create_app(make_settings(up))) as one, serve_in_thread(create_app(make_settings(up))) as two:
            httpx.post(f"{one}/v1/chat/completions", json=CHAT, timeout=30)
            assert total(scrape(one), "thrifty_requests_total") == 1
            assert total(scrape(two), "thrifty_requests_total") == 0


def test_batch_lines_are_counted_completed_or_failed(make_settings):
    script = ScriptedUpstream(echo=True, error_models={"broken-upstream"})
    with serve_in_thread(script) as up:
        settings = make_settings(up)
        settings = replace(settings, batch=BatchSettings(poll_interval_s=0.05, max_attempts=1),
                           models=(*settings.models, ModelAlias("gpt-broken", "fake", "broken-upstream")))
        with serve_in_thread(create_app(settings)) as proxy:
            client = OpenAI(base_url=proxy + "/v1", api_key="sk-batch", max_retries=0)
            lines = [{"custom_id": f"c{i}", "method": "POST", "url": "/v1/chat/completions",
                      "body": {"model": model, "messages": [{"role": "user", "content": f"q{i}"}]}}
                     for i, model in enumerate(["gpt-test", "gpt-test", "gpt-broken"])]
            data = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
            uploaded = client.files.create(file=("in.jsonl", io.BytesIO(data)), purpose="batch")
            batch = client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                          completion_window="24h")
            deadline = time.monotonic() + 60
            while batch.status not in ("completed", "failed", "expired", "cancelled"):
                assert time.monotonic() < deadline, "the batch did not finish"
                time.sleep(0.05)
                batch = client.batches.retrieve(batch.id)
            samples = scrape(proxy)
    assert (batch.status, batch.request_counts.completed, batch.request_counts.failed) == ("completed", 2, 1)
    assert value(samples, "thrifty_batch_lines_total", outcome="completed") == 2
    assert value(samples, "thrifty_batch_lines_total", outcome="failed") == 1
    broken_calls = sum(r.get("model") == "broken-upstream" for r in script.requests)  # retries included
    assert value(samples, "thrifty_upstream_errors_total", upstream="fake", error="http_500") == broken_calls >= 1


def test_metrics_and_health_answer_without_a_key_when_keys_are_required(make_settings):
    with serve_in_thread(ScriptedUpstream()) as up:
        settings = replace(make_settings(up), auth=AuthSettings(mode="keys"))
        with serve_in_thread(create_app(settings)) as proxy:
            refused = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
            health = httpx.get(f"{proxy}/health")
            samples = scrape(proxy)  # asserts a 200 without any authorization header
    assert refused.status_code == 401 and health.status_code == 200
    assert value(samples, "thrifty_error_responses_total", status_code="401",
                 code=refused.json()["error"]["code"]) == 1
    assert ("thrifty_proxy_request_log_written_total", frozenset()) in samples


def test_circuit_states_are_read_at_scrape_time():
    metrics = ProxyMetrics()
    states = {"a": "closed", "b": "open"}
    metrics.watch_circuits(lambda: states)
    first = _parse(metrics.render())
    states["b"] = "half_open"
    second = _parse(metrics.render())
    assert value(first, "thrifty_upstream_circuit_state", upstream="a", state="closed") == 1
    assert value(first, "thrifty_upstream_circuit_state", upstream="a", state="open") == 0
    assert value(first, "thrifty_upstream_circuit_state", upstream="b", state="open") == 1
    assert value(second, "thrifty_upstream_circuit_state", upstream="b", state="open") == 0
    assert value(second, "thrifty_upstream_circuit_state", upstream="b", state="half_open") == 1
    assert total(second, "thrifty_upstream_circuit_state") == 2  # one current state per upstream


def test_a_metrics_token_guards_metrics_but_not_health(make_settings):
    with serve_in_thread(ScriptedUpstream()) as up:
        with serve_in_thread(create_app(make_settings(up, metrics_token="scrape-secret"))) as proxy:
            missing = httpx.get(f"{proxy}/metrics")
            wrong = httpx.get(f"{proxy}/metrics", headers={"authorization": "Bearer guess"})
            right = httpx.get(f"{proxy}/metrics", headers={"authorization": "Bearer scrape-secret"})
            health = httpx.get(f"{proxy}/health")
    assert (missing.status_code, wrong.status_code, right.status_code, health.status_code) == (401, 401, 200, 200)
    for refused in (missing, wrong):
        error = refused.json()["error"]
        assert (error["type"], error["code"]) == ("authentication_error", "invalid_metrics_token")
        assert "scrape-secret" not in refused.text
    assert "# TYPE thrifty_requests_total counter" in right.text


def test_circuit_state_follows_the_upstream_breaker(make_settings):
    script = ScriptedUpstream()
    with serve_in_thread(script) as up:
        settings = make_settings(up, max_retries=0, circuit_failures=2, circuit_open_s=3600.0)
        with serve_in_thread(create_app(settings)) as proxy:
            assert httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30).status_code == 200
            healthy = scrape(proxy)
            script.mode = "error500"
            failed = [httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30).status_code for _ in range(2)]
            refused = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
            opened = scrape(proxy)
    assert value(healthy, "thrifty_upstream_circuit_state", upstream="fake", state="closed") == 1
    assert value(healthy, "thrifty_upstream_circuit_state", upstream="fake", state="open") == 0
    assert failed == [502, 502] and refused.status_code == 503
    assert value(opened, "thrifty_upstream_circuit_state", upstream="fake", state="open") == 1
    assert value(opened, "thrifty_upstream_circuit_state", upstream="fake", state="closed") == 0
    assert value(opened, "thrifty_error_responses_total", status_code="503",
                 code=refused.json()["error"]["code"]) == 1

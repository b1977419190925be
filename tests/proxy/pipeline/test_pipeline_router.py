"""Routing through the proxy: tiers, visible decisions, fallbacks, cost accounting, feedback."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import replace

import httpx
import pytest

from proxy.config.sections import ModelAlias, RouterSettings
from proxy.http.app import create_app
from proxy.pricing import ModelPrice
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread

EASY = "hi"
HARD = ("Prove that for every prime p > 3, p^2 - 1 is divisible by 24, then write a Python function that checks "
        "it for all primes below 10^6 and explain the time complexity of your sieve.")


def _settings(make_settings, up, tmp_path, **router):
    settings = make_settings(up, router=RouterSettings(enabled=True, small_model="small-m", large_model="large-m",
                                                       **router))
    return replace(settings, models=(ModelAlias("small-m", "fake", "tiny-upstream"),
                                     ModelAlias("large-m", "fake", "huge-upstream")),
                   prices=(ModelPrice("small-m", 0.1, 0.2), ModelPrice("large-m", 10.0, 30.0)))


def _log_rows(tmp_path, n):
    return wait_for_log_rows(tmp_path / "proxy.db",
                             "model_requested, route, route_score, cost_usd, saved_usd, status_code", n)


@pytest.mark.parametrize("kind", ["heuristic", "learned"])
def test_routed_requests_go_to_a_tier_and_say_why(make_settings, embedder, tmp_path, kind):
    script = ScriptedUpstream()
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, tmp_path, kind=kind, threshold_mode="fixed", fixed_threshold=0.5)
        with serve_in_thread(create_app(settings, embedder=embedder)) as proxy:
            models = [m["id"] for m in httpx.get(f"{proxy}/v1/models").json()["data"]]
            easy = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                              json={"model": "thrifty-auto", "messages": [{"role": "user", "content": EASY}]})
            hard = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                              json={"model": "thrifty-auto", "messages": [{"role": "user", "content": HARD}]})
            explicit = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                                  json={"model": "large-m", "messages": [{"role": "user", "content": EASY}]})
    assert "thrifty-auto" in models
    assert float(hard.headers["x-thrifty-route-score"]) > float(easy.headers["x-thrifty-route-score"])
    for response in (easy, hard):
        assert response.status_code == 200
        assert float(response.headers["x-thrifty-route-threshold"]) == 0.5
        # the tier is the one the score and the fixed threshold call for, not just either tier
        expected = "large" if float(response.headers["x-thrifty-route-score"]) >= 0.5 else "small"
        assert response.headers["x-thrifty-route"] == expected
        assert response.json()["model"] == "thrifty-auto"
    assert "x-thrifty-route" not in explicit.headers  # explicit names bypass the router
    served = [r["model"] for r in script.requests if r["_path"].endswith("/completions")]
    tier_model = {"small": "tiny-upstream", "large": "huge-upstream"}
    assert served == [tier_model[easy.headers["x-thrifty-route"]], tier_model[hard.headers["x-thrifty-route"]],
                      "huge-upstream"]
    rows = _log_rows(tmp_path, 3)
    assert rows[0][1] == easy.headers["x-thrifty-route"] and rows[0][2] is not None
    assert rows[2][1] is None


def test_cost_and_saving_are_logged(make_settings, embedder, tmp_path):
    script = ScriptedUpstream()  # usage: 5 prompt tokens (2 cached), 1 completion token
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, tmp_path, kind="heuristic", threshold_mode="fixed",
                             fixed_threshold=1.0)  # everything small
        with serve_in_thread(create_app(settings, embedder=embedder)) as proxy:
            httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                       json={"model": "thrifty-auto", "messages": [{"role": "user", "content": EASY}]})
    (_, route, _, cost, saved, status), = _log_rows(tmp_path, 1)
    assert (route, status) == ("small", 200)
    assert cost == pytest.approx((5 * 0.1 + 1 * 0.2) / 1e6)
    assert saved == pytest.approx((5 * 10.0 + 1 * 30.0) / 1e6 - cost)


def test_a_corrupt_router_artifact_is_reported_and_the_default_tier_serves(make_settings, embedder, tmp_path,
                                                                          caplog):
    bad = tmp_path / "broken.joblib"
    bad.write_bytes(b"definitely not a joblib file")
    script = ScriptedUpstream()
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, tmp_path, kind="learned", artifact_path=str(bad),
                             default_tier="large")
        with caplog.at_level("ERROR"):
            app = create_app(settings, embedder=embedder)
        assert any("router unavailable" in r.message for r in caplog.records)
        with serve_in_thread(app) as proxy:
            response = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                                  json={"model": "thrifty-auto", "messages": [{"role": "user", "content": EASY}]})
    assert response.status_code == 200
    assert response.headers["x-thrifty-route"] == "large"
    assert response.headers["x-thrifty-route-reason"].startswith("error: router unavailable")


def test_feedback_is_stored_and_malformed_feedback_is_a_400(make_settings, tmp_path):
    script = ScriptedUpstream()
    with serve_in_thread(script) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        asked = httpx.post(f"{proxy}/v1/chat/completions", headers={"x-request-id": "req-1"}, timeout=30,
                           json={"model": "gpt-test", "messages": [{"role": "user", "content": EASY}]})
        assert asked.headers["x-request-id"] == "req-1"
        ok = httpx.post(f"{proxy}/v1/feedback", json={"request_id": "req-1", "score": 0.0, "comment": "wrong"})
        bad_score = httpx.post(f"{proxy}/v1/feedback", json={"request_id": "req-1", "score": 7})
        missing = httpx.post(f"{proxy}/v1/feedback", json={"score": 1})
        junk = httpx.post(f"{proxy}/v1/feedback", content=b"nope")
    assert ok.status_code == 200
    assert bad_score.status_code == 400 and bad_score.json()["error"]["param"] == "score"
    assert missing.status_code == 400 and "request_id" in missing.json()["error"]["message"]
    assert junk.status_code == 400
    with sqlite3.connect(tmp_path / "proxy.db") as db:  # stored under the proxy's own id of that request
        [row_id] = [r[0] for r in db.execute("select id from request_log where client_request_id = 'req-1'")]
        assert db.execute("select request_id, score, source, comment from feedback").fetchall() == [
            (row_id, 0.0, "user", "wrong")]


def test_json_output_is_checked_automatically(make_settings, tmp_path):
    script = ScriptedUpstream(content="{not json")
    with serve_in_thread(script) as up:
        app = create_app(make_settings(up))
        with serve_in_thread(app) as proxy:
            response = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={
                "model": "gpt-test", "response_format": {"type": "json_object"},
                "messages": [{"role": "user", "content": "give me json"}]})
            deadline = time.monotonic() + 5
            rows = []
            while time.monotonic() < deadline and not rows:
                with sqlite3.connect(tmp_path / "proxy.db") as db:
                    rows = db.execute("select request_id, score, source from feedback").fetchall()
                time.sleep(0.05)
    assert rows == [(response.headers["x-request-id"], 0.0, "json_check")]


def test_a_failed_routed_request_keeps_no_prompt_text(make_settings, tmp_path):
    script = ScriptedUpstream(error_models={"tiny-upstream"})
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, tmp_path, kind="heuristic", threshold_mode="fixed",
                             fixed_threshold=0.5, store_requests=True)
        with serve_in_thread(create_app(settings)) as proxy:
            answered = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                                  json={"model": "thrifty-auto", "messages": [{"role": "user", "content": HARD}]})
            failed = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                                json={"model": "thrifty-auto", "messages": [{"role": "user", "content": EASY}]})
    assert (answered.headers["x-thrifty-route"], answered.status_code) == ("large", 200)
    assert (failed.headers.get("x-thrifty-route"), failed.status_code) in (("small", 502), (None, 502))
    assert len(_log_rows(tmp_path, 2)) == 2
    with sqlite3.connect(tmp_path / "proxy.db") as db:
        stored = [row[0] for row in db.execute("select request_id from router_request")]
    assert stored == [answered.headers["x-request-id"]]


def test_the_embedding_model_is_warmed_up_before_serving_when_the_router_needs_it(make_settings, embedder,
                                                                                   tmp_path):
    """With caches off the semantic cache does not load the model at start-up; the learned router's
    first request must not pay for it either."""
    calls: list[list[str]] = []

    class Counting:
        dim = embedder.dim

        def embed(self, texts):
            calls.append(list(texts))
            return embedder.embed(texts)

    with serve_in_thread(ScriptedUpstream()) as up:
        settings = _settings(make_settings, up, tmp_path, kind="learned")
        with serve_in_thread(create_app(settings, embedder=Counting())):
            assert calls == [["warm-up"]]  # before any request

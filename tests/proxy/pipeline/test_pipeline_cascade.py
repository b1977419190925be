"""Cascade mode through the proxy: the small tier answers first and a weak answer is escalated to the
large tier (openai SDK client, real app over HTTP, shipped escalation artifact, scripted upstream)."""

from __future__ import annotations

import time
from dataclasses import replace

import httpx
import openai
import pytest

from proxy.config.sections import AdminConfig, CacheSettings, ModelAlias, RouterSettings
from proxy.config.settings import SettingsError, load_settings
from proxy.http.app import create_app
from proxy.pipeline.components import ExploringRouter
from proxy.pricing import ModelPrice
from router.config import RouterConfig
from router.escalation import Escalator
from router.registry import build_router
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread

QUESTION = ("Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. "
            "How many clips did Natalia sell altogether in April and May?")
GOOD = ("Natalia sold 48/2 = <<48/2=24>>24 clips in May.\n"
        "Natalia sold 48+24 = <<48+24=72>>72 clips altogether in April and May.\n#### 72")
WEAK = "I think it is about 5 + 3 = 9, but I'm not sure, however maybe it's more. Actually wait, assuming 48 - 2 = 44."
BEST = "48 + 24 = 72. The answer is 72."


def _midpoint_threshold() -> float:
    """A fixed threshold between the shipped model's scores of the good and the weak answer."""
    escalator = Escalator.from_config(RouterConfig(kind="heuristic"))
    body = {"messages": [{"role": "user", "content": QUESTION}]}
    good, weak = escalator.score(body, GOOD), escalator.score(body, WEAK)
    assert good < weak  # the artifact must tell these apart for the test to mean anything
    return (good + weak) / 2


def _settings(make_settings, up, cache=None, **router):
    router = {"small_model": "small-m", "large_model": "large-m", "mode": "cascade", **router}
    settings = make_settings(up, cache=cache or CacheSettings(enabled=False),
                             router=RouterSettings(enabled=True, **router),
                             max_retries=0)  # the cascade's own failure handling is tested, not retries
    return replace(settings, models=(ModelAlias("small-m", "fake", "tiny-upstream"),
                                     ModelAlias("large-m", "fake", "huge-upstream")),
                   prices=(ModelPrice("small-m", 0.1, 0.2, cached_input_per_mtok=0.05), ModelPrice("large-m", 10.0, 30.0)))


def _log_rows(tmp_path, n):
    return wait_for_log_rows(tmp_path / "proxy.db",
                             "route, route_score, cost_usd, saved_usd, status_code, cascade_outcome", n)


def _ask(client, stream=False):
    return client.chat.completions.with_raw_response.create(
        model="thrifty-auto", messages=[{"role": "user", "content": QUESTION}], stream=stream,
        **({"stream_options": {"include_usage": True}} if stream else {}))


def _upstream_calls(script):
    return [(r["model"], bool(r.get("stream"))) for r in script.requests if r["_path"].endswith("/completions")]


@pytest.mark.parametrize("stream", [False, True])
def test_a_good_small_answer_is_kept_and_a_weak_one_escalated(make_settings, tmp_path, stream):
    threshold = _midpoint_threshold()
    small_cost = (3 * 0.1 + 2 * 0.05 + 1 * 0.2) / 1e6  # scripted usage: 5 prompt tokens (2 cached), 1 completion
    large_cost = (5 * 10.0 + 1 * 30.0) / 1e6
    outcomes = {}
    for small_answer in (GOOD, WEAK):
        script = ScriptedUpstream(content_by_model={"tiny-upstream": small_answer, "huge-upstream": BEST},
                                  stream_when_asked=True)
        script.gate.set()
        with serve_in_thread(script) as up:
            settings = _settings(make_settings, up, threshold_mode="fixed", fixed_threshold=threshold)
            with serve_in_thread(create_app(settings)) as proxy:
                client = openai.OpenAI(base_url=f"{proxy}/v1", api_key="k", max_retries=0, timeout=30)
                raw = _ask(client, stream)
                if stream:
                    chunks = list(raw.parse())
                    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
                    assert chunks[-1].usage is not None
                else:
                    text = raw.parse().choices[0].message.content
        outcomes[small_answer] = (raw.headers, text, _upstream_calls(script))

    headers, text, calls = outcomes[GOOD]
    assert headers["x-thrifty-cascade"] == "accepted" and headers["x-thrifty-route"] == "small"
    assert float(headers["x-thrifty-cascade-score"]) < threshold
    assert headers["x-thrifty-route-reason"].startswith("cascade: score")
    assert text == GOOD
    assert calls == [("tiny-upstream", False)]  # the small call is never streamed: it is judged first

    headers, text, calls = outcomes[WEAK]
    assert headers["x-thrifty-cascade"] == "escalated" and headers["x-thrifty-route"] == "large"
    assert float(headers["x-thrifty-cascade-score"]) >= threshold
    assert float(headers["x-thrifty-cascade-threshold"]) == pytest.approx(threshold, abs=1e-4)
    assert calls == [("tiny-upstream", False), ("huge-upstream", stream)]
    assert text == ("tok0 tok1 tok2 " if stream else BEST)

    rows = _log_rows(tmp_path, 2)
    (route_a, score_a, cost_a, saved_a, status_a, outcome_a), (route_b, score_b, cost_b, saved_b, status_b,
                                                                outcome_b) = rows
    assert (route_a, status_a, route_b, status_b) == ("small", 200, "large", 200)
    assert (outcome_a, outcome_b) == ("accepted", "escalated")
    assert score_a < threshold <= score_b
    assert cost_a == pytest.approx(small_cost) and saved_a == pytest.approx(large_cost - small_cost)
    if not stream:  # both calls are paid for; the saving against sending it to the large model is negative
        assert cost_b == pytest.approx(large_cost + small_cost) and saved_b == pytest.approx(-small_cost)


def test_a_failing_small_tier_escalates_and_explicit_models_skip_the_cascade(make_settings, tmp_path):
    script = ScriptedUpstream(content_by_model={"huge-upstream": BEST}, error_models={"tiny-upstream"},
                              error_message="Traceback (most recent call last):\n  boom\r\nDone")
    with serve_in_thread(script) as up:
        settings = replace(_settings(make_settings, up), admin=AdminConfig(api_key="admin-secret"))
        with serve_in_thread(create_app(settings)) as proxy:
            routed = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                                json={"model": "thrifty-auto", "messages": [{"role": "user", "content": QUESTION}]})
            explicit = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                                  json={"model": "large-m", "messages": [{"role": "user", "content": QUESTION}]})
            assert len(_log_rows(tmp_path, 2)) == 2
            stats = httpx.get(f"{proxy}/admin/stats", headers={"authorization": "Bearer admin-secret"}).json()
    groups = {(g["route"], g["cascade"]): g["requests"] for g in stats["groups"]}
    assert groups == {("large", "escalated"): 1, (None, None): 1} and stats["requests"] == 2
    assert routed.status_code == 200 and routed.json()["choices"][0]["message"]["content"] == BEST
    assert routed.headers["x-thrifty-cascade"] == "escalated"
    # the upstream's multi-line error text reaches the header only as one safe line
    assert routed.headers["x-thrifty-route-reason"] == (
        "cascade: small tier failed with status 500: Traceback (most recent call last):   boom  Done")
    assert "x-thrifty-cascade" not in explicit.headers
    assert _upstream_calls(script) == [("tiny-upstream", False), ("huge-upstream", False), ("huge-upstream", False)]


def test_a_small_answer_cut_off_at_max_tokens_is_escalated(make_settings, tmp_path):
    script = ScriptedUpstream(content=GOOD, finish_reason="length")
    with serve_in_thread(script) as up, serve_in_thread(create_app(_settings(make_settings, up))) as proxy:
        response = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={
            "model": "thrifty-auto", "max_tokens": 20, "messages": [{"role": "user", "content": QUESTION}]})
    assert response.headers["x-thrifty-cascade"] == "escalated"
    assert response.headers["x-thrifty-route-reason"] == "cascade: small answer was cut off at max_tokens"
    assert _upstream_calls(script) == [("tiny-upstream", False), ("huge-upstream", False)]


def test_a_small_answer_failing_its_schema_is_escalated(make_settings, tmp_path):
    schema = {"type": "json_schema", "json_schema": {"name": "total", "schema": {
        "type": "object", "properties": {"total": {"type": "integer"}}, "required": ["total"]}}}
    script = ScriptedUpstream(content_by_model={"tiny-upstream": GOOD, "huge-upstream": '{"total": 72}'})
    with serve_in_thread(script) as up, serve_in_thread(create_app(_settings(make_settings, up))) as proxy:
        response = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={
            "model": "thrifty-auto", "response_format": schema,
            "messages": [{"role": "user", "content": QUESTION}]})
    assert response.headers["x-thrifty-cascade"] == "escalated"
    assert "fails its requested structure" in response.headers["x-thrifty-route-reason"]
    assert response.json()["choices"][0]["message"]["content"] == '{"total": 72}'
    assert _upstream_calls(script) == [("tiny-upstream", False), ("huge-upstream", False)]


def test_a_failing_large_tier_falls_back_to_the_small_answer(make_settings, tmp_path):
    threshold = _midpoint_threshold()
    script = ScriptedUpstream(content_by_model={"tiny-upstream": WEAK}, error_models={"huge-upstream"})
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, threshold_mode="fixed", fixed_threshold=threshold)
        with serve_in_thread(create_app(settings)) as proxy:
            response = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={
                "model": "thrifty-auto", "messages": [{"role": "user", "content": QUESTION}]})
            both_fail = ScriptedUpstream(error_models={"tiny-upstream", "huge-upstream"})
    assert response.status_code == 200 and response.json()["choices"][0]["message"]["content"] == WEAK
    assert response.headers["x-thrifty-cascade"] == "escalation_failed"
    assert response.headers["x-thrifty-route"] == "small"
    assert response.headers["x-thrifty-route-reason"].startswith("cascade: large tier failed")
    (route, _, cost, _, status, outcome), = _log_rows(tmp_path, 1)
    assert (route, status, outcome) == ("small", 200, "escalation_failed")
    assert cost == pytest.approx((3 * 0.1 + 2 * 0.05 + 1 * 0.2) / 1e6)  # the small answer, paid once

    with serve_in_thread(both_fail) as up, serve_in_thread(create_app(_settings(make_settings, up))) as proxy:
        failed = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={
            "model": "thrifty-auto", "messages": [{"role": "user", "content": QUESTION}]})
    assert failed.status_code == 502 and failed.json()["error"]["code"] == "upstream_error"


def _post_until_cached(proxy, body):
    """Post ``body`` until the answer comes from the exact cache (the write-back runs after the
    response); returns that response."""
    for _ in range(50):
        response = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json=body)
        if response.headers["x-thrifty-cache"] == "exact":
            return response
        time.sleep(0.1)
    raise AssertionError(f"the answer to {body['model']!r} was never cached")


def test_an_escalated_question_is_answered_from_the_large_tiers_cache_next_time(make_settings, tmp_path):
    threshold = _midpoint_threshold()
    script = ScriptedUpstream(content_by_model={"tiny-upstream": WEAK, "huge-upstream": BEST})
    body = {"model": "thrifty-auto", "temperature": 0, "messages": [{"role": "user", "content": QUESTION}]}
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, cache=CacheSettings(enabled=True, semantic=False),
                             threshold_mode="fixed", fixed_threshold=threshold)
        with serve_in_thread(create_app(settings)) as proxy:
            first = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json=body)
            again = _post_until_cached(proxy, body)
    assert first.headers["x-thrifty-cascade"] == "escalated"
    assert again.headers["x-thrifty-cache"] == "exact" and again.headers["x-thrifty-route"] == "large"
    assert again.json()["choices"][0]["message"]["content"] == BEST
    calls = _upstream_calls(script)
    assert calls[:2] == [("tiny-upstream", False), ("huge-upstream", False)]
    assert len(calls) == len(script.requests) - sum(1 for r in script.requests if r["_path"].endswith("/models"))


@pytest.mark.parametrize("small_answer", [GOOD, WEAK])
def test_a_small_answer_cached_for_an_explicit_request_is_judged_before_it_is_served(make_settings, tmp_path,
                                                                                     small_answer):
    threshold = _midpoint_threshold()
    script = ScriptedUpstream(content_by_model={"tiny-upstream": small_answer, "huge-upstream": BEST})
    body = {"temperature": 0, "messages": [{"role": "user", "content": QUESTION}]}
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, cache=CacheSettings(enabled=True, semantic=False),
                             threshold_mode="fixed", fixed_threshold=threshold)
        with serve_in_thread(create_app(settings)) as proxy:
            _post_until_cached(proxy, {**body, "model": "small-m"})  # stored by name: never judged
            small_calls = _upstream_calls(script).count(("tiny-upstream", False))
            routed = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={**body, "model": "thrifty-auto"})
            rows = _log_rows(tmp_path, small_calls + 2)  # the first call, the cache hits, the routed one
    calls = _upstream_calls(script)
    assert calls.count(("tiny-upstream", False)) == small_calls == 1  # the cached answer is judged, not re-asked
    assert routed.status_code == 200
    assert routed.headers["x-thrifty-route-reason"].startswith("cascade: cached small answer, score")
    route, score, cost, _, status, outcome = rows[-1]
    if small_answer == GOOD:
        assert routed.headers["x-thrifty-cascade"] == "accepted" and routed.headers["x-thrifty-cache"] == "exact"
        assert routed.json()["choices"][0]["message"]["content"] == GOOD
        assert (route, outcome, status) == ("small", "accepted", 200) and score < threshold
        assert calls[-1] != ("huge-upstream", False)
    else:
        assert routed.headers["x-thrifty-cascade"] == "escalated" and routed.headers["x-thrifty-route"] == "large"
        assert routed.headers["x-thrifty-cache"] == "miss"  # the answer came from the large tier, not the cache
        assert routed.json()["choices"][0]["message"]["content"] == BEST
        assert calls[-1] == ("huge-upstream", False)
        assert (route, outcome, status) == ("large", "escalated", 200) and score >= threshold
        assert cost == pytest.approx((5 * 10.0 + 1 * 30.0) / 1e6)  # the cached small answer cost nothing


def test_a_failing_large_tier_falls_back_to_a_cached_small_answer(make_settings, tmp_path):
    threshold = _midpoint_threshold()
    script = ScriptedUpstream(content_by_model={"tiny-upstream": WEAK}, error_models={"huge-upstream"})
    body = {"temperature": 0, "messages": [{"role": "user", "content": QUESTION}]}
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, cache=CacheSettings(enabled=True, semantic=False),
                             threshold_mode="fixed", fixed_threshold=threshold)
        with serve_in_thread(create_app(settings)) as proxy:
            _post_until_cached(proxy, {**body, "model": "small-m"})
            routed = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={**body, "model": "thrifty-auto"})
    assert routed.status_code == 200 and routed.json()["choices"][0]["message"]["content"] == WEAK
    assert routed.headers["x-thrifty-cascade"] == "escalation_failed" and routed.headers["x-thrifty-cache"] == "exact"
    assert _upstream_calls(script) == [("tiny-upstream", False), ("huge-upstream", False)]


def test_a_single_tier_and_tool_requests_skip_the_cascade(make_settings, tmp_path, caplog):
    script = ScriptedUpstream(content=WEAK)
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, large_model="small-m")
        with caplog.at_level("WARNING"):  # before any app has started (its logging config stops propagation)
            app = create_app(settings)
        assert any("needs two different tiers" in r.message for r in caplog.records)
        with serve_in_thread(app) as proxy:
            single = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={
                "model": "thrifty-auto", "messages": [{"role": "user", "content": QUESTION}]})
    assert single.status_code == 200 and "x-thrifty-cascade" not in single.headers
    assert _upstream_calls(script) == [("tiny-upstream", False)]

    tools = [{"type": "function", "function": {"name": "add", "parameters": {"type": "object", "properties": {}}}}]
    script = ScriptedUpstream(content=WEAK)
    with serve_in_thread(script) as up, serve_in_thread(create_app(_settings(make_settings, up))) as proxy:
        with_tools = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={
            "model": "thrifty-auto", "tools": tools, "messages": [{"role": "user", "content": QUESTION}]})
    assert with_tools.status_code == 200 and "x-thrifty-cascade" not in with_tools.headers
    assert _upstream_calls(script) == [("tiny-upstream", False)]


def test_a_corrupt_escalation_artifact_is_reported_and_the_default_tier_serves(make_settings, tmp_path, caplog):
    bad = tmp_path / "escalation.json"
    bad.write_text('{"format": "thrifty-escalation", "version": 1, "feature_names": ["nope"]}')
    script = ScriptedUpstream()
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, escalation_path=str(bad), default_tier="large")
        with caplog.at_level("ERROR"):
            app = create_app(settings)
        assert any("router unavailable" in r.message and "other features" in r.message for r in caplog.records)
        with serve_in_thread(app) as proxy:
            response = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                                  json={"model": "thrifty-auto", "messages": [{"role": "user", "content": QUESTION}]})
    assert response.status_code == 200 and response.headers["x-thrifty-route"] == "large"
    assert "x-thrifty-cascade" not in response.headers
    assert _upstream_calls(script) == [("huge-upstream", False)]


def test_an_unknown_router_mode_is_a_settings_error(tmp_path):
    with pytest.raises(SettingsError, match=r"\[router\] mode must be one of prompt, cascade, combined"):
        load_settings(None, environ={"THRIFTY_ROUTER__MODE": "guess", "THRIFTY_DATA_DIR": str(tmp_path)})


HARD = ("Prove that for every integer n > 1 the sum of the reciprocals 1/k for k = 1..n is never an integer. Give a "
        "rigorous proof using the highest power of two dividing the denominators, then write a Python function that "
        "verifies it for n up to 10^6 and analyse its time complexity.\n```python\ndef f(n):\n    pass\n```")


def test_combined_mode_sends_clearly_hard_prompts_straight_to_large_and_cascades_the_rest(make_settings, tmp_path):
    prompt_router = build_router(RouterConfig(kind="heuristic", threshold_mode="fixed"))
    easy_score = prompt_router.decide({"messages": [{"role": "user", "content": QUESTION}]}).score
    hard_score = prompt_router.decide({"messages": [{"role": "user", "content": HARD}]}).score
    assert easy_score < hard_score
    direct = (easy_score + hard_score) / 2
    script = ScriptedUpstream(content_by_model={"tiny-upstream": WEAK, "huge-upstream": BEST})
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, mode="combined", kind="heuristic", direct_threshold=direct,
                             threshold_mode="fixed", fixed_threshold=_midpoint_threshold())
        with serve_in_thread(create_app(settings)) as proxy:
            client = openai.OpenAI(base_url=f"{proxy}/v1", api_key="k", max_retries=0, timeout=30)
            hard = client.chat.completions.with_raw_response.create(
                model="thrifty-auto", messages=[{"role": "user", "content": HARD}])
            hard_calls = _upstream_calls(script)
            easy = _ask(client)
    assert hard.headers["x-thrifty-route"] == "large" and "x-thrifty-cascade" not in hard.headers
    assert float(hard.headers["x-thrifty-route-score"]) == pytest.approx(hard_score, abs=1e-4)
    assert float(hard.headers["x-thrifty-route-threshold"]) == pytest.approx(direct, abs=1e-4)
    assert hard.parse().choices[0].message.content == BEST
    assert hard_calls == [("huge-upstream", False)]  # no small call wasted on a clearly hard prompt

    assert easy.headers["x-thrifty-cascade"] == "escalated" and easy.headers["x-thrifty-route"] == "large"
    assert _upstream_calls(script)[1:] == [("tiny-upstream", False), ("huge-upstream", False)]

    rows = _log_rows(tmp_path, 2)
    small_cost = (3 * 0.1 + 2 * 0.05 + 1 * 0.2) / 1e6
    large_cost = (5 * 10.0 + 1 * 30.0) / 1e6
    (route_h, _, cost_h, saved_h, _, outcome_h), (route_e, _, cost_e, saved_e, _, outcome_e) = rows
    assert (route_h, outcome_h, route_e, outcome_e) == ("large", None, "large", "escalated")
    assert cost_h == pytest.approx(large_cost) and saved_h == pytest.approx(0.0)
    assert cost_e == pytest.approx(large_cost + small_cost) and saved_e == pytest.approx(-small_cost)


def test_combined_mode_explores_a_share_of_its_direct_route(make_settings, tmp_path):
    """explore_share: requests the prompt router sends direct are cascaded anyway at that rate (reason
    'explore'), so the request log keeps evidence about them; 0 sends them all direct."""
    script = ScriptedUpstream(content_by_model={"tiny-upstream": WEAK, "huge-upstream": BEST})
    reasons = {}
    with serve_in_thread(script) as up:
        for share in (0.0, 1.0):
            settings = _settings(make_settings, up, mode="combined", kind="heuristic", direct_threshold=0.0,
                                 threshold_mode="fixed", fixed_threshold=_midpoint_threshold(), explore_share=share,
                                 store_requests=True)
            with serve_in_thread(create_app(settings)) as proxy:
                client = openai.OpenAI(base_url=f"{proxy}/v1", api_key="k", max_retries=0, timeout=30)
                response = client.chat.completions.with_raw_response.create(
                    model="thrifty-auto", messages=[{"role": "user", "content": HARD}])
                reasons[share] = (response.headers.get("x-thrifty-cascade"),
                                  response.headers.get("x-thrifty-route-reason", ""))
    assert reasons[0.0][0] is None  # every request sent direct at threshold 0
    assert reasons[1.0][0] == "escalated" and reasons[1.0][1].startswith("explore; cascade: ")
    assert _upstream_calls(script) == [("huge-upstream", False), ("tiny-upstream", False), ("huge-upstream", False)]
    # the explored request is in the log as a cascaded one: the direct route can be retrained on it
    assert [row[-1] for row in _log_rows(tmp_path, 2)] == [None, "escalated"]


def test_exploring_router_keeps_the_inner_decision_otherwise():
    inner = build_router(RouterConfig(kind="heuristic", threshold_mode="fixed", fixed_threshold=0.0))
    body = {"messages": [{"role": "user", "content": QUESTION}]}
    never, always = ExploringRouter(inner, 0.0), ExploringRouter(inner, 1.0)
    assert never.decide(body) == inner.decide(body) and inner.decide(body).tier == "large"
    assert always.decide(body).tier == "small" and always.kind == inner.kind
    # a request the cascade cannot judge (tools, n > 1, no chat messages) keeps the direct route
    for other in ({**body, "tools": [{"type": "function", "function": {"name": "f"}}]}, {**body, "n": 2},
                  {"prompt": QUESTION}):
        assert always.decide(other).tier == "large"
    half = ExploringRouter(inner, 0.5, seed=3)
    tiers = [half.decide(body).tier for _ in range(400)]
    assert 150 < tiers.count("small") < 250  # seeded: the same run every time


def test_an_explore_share_outside_zero_to_one_is_a_settings_error(tmp_path):
    with pytest.raises(SettingsError, match=r"explore_share must lie in \[0, 1\]"):
        load_settings(None, environ={"THRIFTY_ROUTER__EXPLORE_SHARE": "-0.1", "THRIFTY_DATA_DIR": str(tmp_path)})


def test_a_direct_threshold_outside_zero_to_one_is_a_settings_error(tmp_path):
    with pytest.raises(SettingsError, match=r"direct_threshold must lie in \[0, 1\]"):
        load_settings(None, environ={"THRIFTY_ROUTER__MODE": "combined", "THRIFTY_ROUTER__DIRECT_THRESHOLD": "1.5",
                                     "THRIFTY_DATA_DIR": str(tmp_path)})

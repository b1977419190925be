"""Learned output caps: the quantile fit, the prompt cluster, and the loop through the request log
of a real proxy app (SQLite) and a scripted upstream."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import httpx
from sqlalchemy.ext.asyncio import create_async_engine

from proxy.app import create_app
from proxy.shaping.config import ShapingOverride, ShapingSettings
from proxy.shaping.learned import MIN_LEARNED_CAP, LearnedCaps, cap_report, prompt_cluster
from proxy.shaping.prompt import shape_prompt
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread


def test_the_cap_is_a_high_quantile_once_a_cluster_has_enough_answers() -> None:
    caps = LearnedCaps(quantile=0.9, min_samples=10)
    rows = [("k", "c1", n) for n in range(10, 110, 10)] + [("k", "c2", 500)] * 9 + [("other", "c1", 3)] * 12
    caps.fit(rows)
    assert caps.cap_for("k", "c1") == 91  # numpy's linear quantile of 10..100 at 0.9
    assert caps.cap_for("k", "c2") is None  # 9 answers: not enough yet
    assert caps.cap_for("other", "c1") == MIN_LEARNED_CAP  # never below the floor
    assert caps.due(now=0.0) and not caps.due(now=1.0) and caps.due(now=caps.refresh_s + 1)


def test_the_prompt_cluster_is_the_template_not_the_volatile_values() -> None:
    def body(date: str, tools: list[str]) -> dict:
        data = {"messages": [{"role": "system", "content": f"You are a travel agent.\nCurrent date: {date}"},
                             {"role": "user", "content": f"Trip on {date}?"}],
                "tools": [{"type": "function", "function": {"name": n}} for n in tools]}
        shape_prompt(data, aggressive=False)
        return data

    a = prompt_cluster(body("2024-05-01", ["fly", "book"]), "m")
    assert a == prompt_cluster(body("2024-06-02", ["book", "fly"]), "m")
    assert a != prompt_cluster(body("2024-05-01", ["book"]), "m")
    assert a != prompt_cluster(body("2024-05-01", ["fly", "book"]), "other-model")
    assert len(a) == 16


def test_learned_caps_follow_the_logged_lengths_and_the_report_counts_cuts(make_settings, tmp_path) -> None:
    script = ScriptedUpstream()  # answers with 1 completion token and finish_reason "stop"
    learner = ShapingOverride("learner", tenant="anonymous", learned_caps=True)
    shaping = ShapingSettings(default_max_tokens=300, keys=(learner,), learned_min_samples=3,
                              learned_refresh_s=0.05)
    with serve_in_thread(script) as up:
        app = create_app(replace(make_settings(up), shaping=shaping))
        with serve_in_thread(app) as proxy:
            def ask(**extra) -> httpx.Response:
                return httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={
                    "model": "gpt-test", "temperature": 0, **extra,
                    "messages": [{"role": "system", "content": "Classify the sentiment."},
                                 {"role": "user", "content": "I love it"}]})

            assert all(ask().headers["x-thrifty-cap"] == "default; max_tokens=300" for _ in range(3))
            wait_for_log_rows(tmp_path / "proxy.db", "id", 3)
            deadline = time.monotonic() + 10
            while (header := ask().headers["x-thrifty-cap"]).startswith("default") and time.monotonic() < deadline:
                time.sleep(0.1)
            assert header == f"learned; max_tokens={MIN_LEARNED_CAP}"
            assert script.requests[-1]["max_tokens"] == MIN_LEARNED_CAP
            other = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, headers={"authorization": "Bearer x"},
                               json={"model": "gpt-test", "temperature": 0,
                                     "messages": [{"role": "system", "content": "Classify the sentiment."},
                                                  {"role": "user", "content": "I love it"}]})
            assert other.headers["x-thrifty-cap"] == "default; max_tokens=300"  # another key learns on its own
            script.finish_reason = "length"
            ask(max_tokens=5)
            count = len(script.requests)
    rows = wait_for_log_rows(tmp_path / "proxy.db", "id", count)
    assert len(rows) == count

    async def report():
        engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'proxy.db'}")
        try:
            return await cap_report(engine)
        finally:
            await engine.dispose()

    table = {kind: (n, cut) for kind, n, cut in asyncio.run(report())}
    assert table["none"] == (1, 1)  # the caller's own max_tokens=5 cut one answer
    assert table["learned"][1] == 0 and table["default"][1] == 0
    assert sum(n for n, _ in table.values()) == count

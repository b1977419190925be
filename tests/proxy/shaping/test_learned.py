"""Learned output caps: the quantile fit, the prompt cluster, and the loop through the request log
of a real proxy app (SQLite) and a scripted upstream."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import httpx
import numpy as np
import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from proxy.config.shaping import ShapingOverride, ShapingSettings
from proxy.http.app import create_app
from proxy.shaping.learned import (
    MIN_LEARNED_CAP,
    RAISE_FACTOR,
    LearnedCaps,
    cap_breakdown,
    cap_report,
    censored_quantile,
    learned_cap,
    prompt_cluster,
)
from proxy.shaping.prompt import shape_prompt
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread


def test_the_cap_is_a_high_quantile_once_a_cluster_has_enough_answers() -> None:
    caps = LearnedCaps(quantile=0.9, min_samples=10)
    rows = [("k", "c1", n, False) for n in range(10, 110, 10)] + [("k", "c2", 500, False)] * 9 \
        + [("other", "c1", 3, False)] * 12
    caps.fit(rows)
    assert caps.cap_for("k", "c1") == 91  # numpy's linear quantile of 10..100 at 0.9
    assert caps.cap_for("k", "c2") is None  # 9 answers: not enough yet
    assert caps.cap_for("other", "c1") == MIN_LEARNED_CAP  # never below the floor
    assert caps.due(now=0.0) and not caps.due(now=1.0) and caps.due(now=caps.refresh_s + 1)


def simulate_refits(draw, rounds: int, cap: int = 512, answers: int = 3000) -> list[int]:
    """The learned caps of ``rounds`` refits, each on answers drawn by ``draw(n)`` (their natural
    lengths) and cut at the cap the previous refit learned, as the proxy logs them."""
    learned = []
    for _ in range(rounds):
        lengths = draw(answers)
        caps = LearnedCaps(quantile=0.99, min_samples=30)
        caps.fit(("k", "c", int(min(n, cap)), bool(n >= cap)) for n in lengths)
        cap = caps.cap_for("k", "c")
        learned.append(cap)
    return learned


def test_refits_on_answers_cut_at_the_cap_do_not_drift_below_the_true_quantile() -> None:
    rng = np.random.default_rng(7)
    draw = lambda n: np.ceil(rng.lognormal(np.log(220), 0.4, n))  # noqa: E731 - a length distribution
    true_p99 = 220 * np.exp(0.4 * 2.3263)  # ~556: above the starting cap of 512
    learned = simulate_refits(draw, rounds=12)
    assert learned[0] > 512  # too many answers were cut at 512: the cap goes up
    assert all(cap >= 0.95 * true_p99 for cap in learned), learned  # never drifts down (the bug: 512, 423, ...)
    assert min(learned[-4:]) <= 1.5 * true_p99  # nor runs away


def test_answers_that_never_stop_do_not_raise_the_cap_without_bound() -> None:
    rng = np.random.default_rng(3)

    def draw(n: int) -> np.ndarray:
        lengths = rng.integers(50, 301, n).astype(float)
        lengths[rng.random(n) < 0.2] = np.inf  # a fifth of the answers run to whatever limit there is
        return lengths

    learned = simulate_refits(draw, rounds=10, cap=100)
    assert learned[:4] == sorted(learned[:4]) and learned[0] > 140  # most were cut: up ~1.5x per refit
    assert all(cap <= RAISE_FACTOR * 300 for cap in learned), learned  # at most 1.5x the longest natural one
    assert learned[-1] >= 300  # and every natural answer fits


def test_the_censored_quantile_matches_the_plain_one_without_cuts_and_knows_cuts_are_longer() -> None:
    finished = list(range(1, 101))
    assert censored_quantile(finished, [], 0.9) == pytest.approx(90.1)  # numpy's linear quantile
    assert censored_quantile(finished, [100] * 10, 0.9) == 99  # cut answers push the estimate up
    assert censored_quantile(finished, [100] * 10, 0.99) is None  # more cut than 1 - quantile
    assert learned_cap(finished, [100] * 10, 0.99) == 150  # so the cap rises from the cut
    assert censored_quantile([], [5], 0.5) is None


def test_the_refresh_reads_cut_answers_from_the_request_log_as_censored(tmp_path) -> None:
    from proxy.storage.db import ProxyBase, RequestLog, create_engine

    def row(i: int, tokens: int, finish: str, max_tokens: int | None) -> dict:
        return {"id": f"r{i}", "key_id": "k", "endpoint": "chat", "status_code": 200, "prompt_cluster": "c",
                "completion_tokens": tokens, "finish_reason": finish, "max_tokens": max_tokens}

    async def refit() -> LearnedCaps:
        engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'log.db'}")
        try:
            async with engine.begin() as conn:
                await conn.run_sync(ProxyBase.metadata.create_all)
                rows = [row(i, i, "stop", 512) for i in range(1, 41)]  # finished: 1..40 tokens
                rows += [row(100 + i, 45, "length", 45) for i in range(4)]  # cut at their cap of 45
                rows += [row(200, 5, "length", 100), row(201, 500, "length", None)]  # cut by something else
                await conn.execute(RequestLog.__table__.insert(), rows)
            caps = LearnedCaps(quantile=0.99, min_samples=30)
            await caps.refresh(engine)
            return caps
        finally:
            await engine.dispose()

    caps = asyncio.run(refit())
    assert caps.cap_for("k", "c") == learned_cap(list(range(1, 41)), [45] * 4, 0.99) == 60  # 1.5 x 40, not 40


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

    async def read(query):
        engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'proxy.db'}")
        try:
            return await query(engine)
        finally:
            await engine.dispose()

    table = {kind: (n, cut) for kind, n, cut in asyncio.run(read(cap_report))}
    assert table["none"] == (1, 1)  # the caller's own max_tokens=5 cut one answer
    assert table["learned"][1] == 0 and table["default"][1] == 0
    assert sum(n for n, _ in table.values()) == count

    groups = asyncio.run(read(cap_breakdown))
    assert sum(n for *_, n, _ in groups) == count
    assert groups[0][2:] == ("none", 1, 1)  # the group with a cut answer comes first
    keys = {key for key, *_ in groups}
    assert len(keys) == 2  # the two keys are reported apart
    clusters = {(key, cluster) for key, cluster, *_ in groups}
    assert len(clusters) == 2  # one prompt template per key here
    learned = [g for g in groups if g[2] == "learned"]
    assert learned and all(cut == 0 for *_, cut in learned)


def test_cache_replays_are_not_counted_as_cut_answers(tmp_path) -> None:
    """A cut answer replayed from the cache was counted when it was produced; the report counts the
    upstream answers only (migrated SQLite, rows as the proxy writes them)."""
    from datetime import UTC, datetime

    from sqlalchemy import insert

    from proxy.storage.db import RequestLog
    from proxy.storage.migrate import upgrade

    url = f"sqlite+aiosqlite:///{tmp_path / 'caps.db'}"
    upgrade(url)
    common = {"created_at": datetime(2026, 3, 1, tzinfo=UTC), "key_id": "key-a", "endpoint": "chat",
              "model_requested": "m", "stream": False, "status_code": 200, "cap": "default", "max_tokens": 512}
    rows = [{**common, "id": "a", "finish_reason": "length", "cache_outcome": "miss"},
            {**common, "id": "b", "finish_reason": "length", "cache_outcome": "exact"},
            {**common, "id": "c", "finish_reason": "length", "cache_outcome": "semantic"},
            {**common, "id": "d", "finish_reason": "stop", "cache_outcome": None}]

    async def run():
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                await conn.execute(insert(RequestLog), rows)
            return await cap_report(engine), await cap_breakdown(engine)
        finally:
            await engine.dispose()

    report, groups = asyncio.run(run())
    assert report == [("default", 2, 1)]
    assert [g[2:] for g in groups] == [("default", 2, 1)]

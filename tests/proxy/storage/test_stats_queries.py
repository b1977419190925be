"""The statistics queries behind the admin API and the UI, on migrated SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import create_async_engine

from caches.models import ExactCacheEntry, SemanticCacheEntry
from proxy.storage.db import Feedback, RequestLog, RouterRequest
from proxy.storage.migrate import upgrade
from proxy.storage.stats.cache_entries import (
    CONTESTED,
    cache_groups,
    cache_tenants,
    contested_questions,
    most_hit_questions,
    recent_entries,
)
from proxy.storage.stats.latency import latency_by_model, percentile, upstream_stats
from proxy.storage.stats.ranges import TimeRange, as_utc
from proxy.storage.stats.requests import RequestFilter, list_requests, request_detail, request_groups
from proxy.storage.stats.routing import cascade_outcomes, feedback_summary, score_histogram
from proxy.storage.stats.time_series import ROLLUP_VERSION, Bucket, time_series, totals

T0 = datetime(2026, 3, 1, 10, 0, tzinfo=UTC)


def _row(i: int, **kw) -> dict:
    base = {"id": f"req-{i:04d}", "created_at": T0 + timedelta(minutes=i), "key_id": "key-a", "endpoint": "chat",
            "model_requested": "m", "model_served": "m-up", "upstream": "up", "stream": False, "status_code": 200,
            "prompt_tokens": 10, "completion_tokens": 2, "latency_ms": float(i), "cost_usd": 0.5, "saved_usd": 0.0,
            **dict.fromkeys(["error", "cached_tokens", "ttft_ms", "cache_outcome", "route", "route_score",
                             "cascade_outcome", "batch_id", "batch_saved_usd"])}
    return {**base, **kw}


ROWS = [
    _row(0, cache_outcome="exact", saved_usd=1.0, cost_usd=0.0, latency_ms=1.0),
    _row(1, cache_outcome="semantic", saved_usd=2.0, cost_usd=0.0, latency_ms=2.0),
    _row(2, cache_outcome="miss", route="small", route_score=0.97, saved_usd=4.0),
    _row(3, cache_outcome="miss", route="large", route_score=0.5, cascade_outcome="escalated", saved_usd=-0.25),
    _row(4, cache_outcome="miss", route="small", route_score=1.0, cascade_outcome="accepted", saved_usd=8.0,
         batch_id="batch_1", batch_saved_usd=3.0),
    _row(5, cache_outcome="miss", saved_usd=16.0),
    _row(70, status_code=502, error="upstream down", upstream="up", latency_ms=None, cost_usd=None, saved_usd=None,
         model_requested="<script>x</script>", model_served=None),  # next hour
]


async def _seed(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(insert(RequestLog), ROWS)
            await conn.execute(insert(RouterRequest), [{"request_id": "req-0002", "created_at": T0,
                                                        "request": '{"messages": [{"role": "user", "content": "hi"}]}'}])
            await conn.execute(insert(Feedback), [
                {"created_at": T0, "request_id": "req-0002", "key_id": "key-a", "score": 0.95, "source": "user"},
                {"created_at": T0, "request_id": "req-0003", "key_id": "key-a", "score": 0.0, "source": "json_check"}])
            common = {"tenant": "t1", "model": "m", "model_version": "", "scope": "s1", "response": b"{}",
                      "response_sha256": "x", "created_at": 1.0, "expires_at": None, "last_access_at": 1.0}
            await conn.execute(insert(ExactCacheEntry), [{**common, "key": "k1", "size_bytes": 10, "hits": 3},
                                                         {**common, "key": "k2", "size_bytes": 5, "hits": 0}])
            sem = {**common, "embedding": b"\0" * 8, "embedding_dim": 2, "embedder": "e", "size_bytes": 7}
            await conn.execute(insert(SemanticCacheEntry), [
                {**sem, "entry_key": "e1", "query_text": "popular?", "answer_sha256": "a", "hits": 9},
                {**sem, "entry_key": "e2", "query_text": "disputed?", "answer_sha256": CONTESTED, "hits": 0}])
    finally:
        await engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'q.db'}"
    else:
        url = request.getfixturevalue("pg_database")
    upgrade(url)
    asyncio.run(_seed(url))
    return url


async def _run(url: str, fn):
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return await fn(conn)
    finally:
        await engine.dispose()


def test_time_series_buckets_totals_and_savings_by_cause(db_url):
    rng = TimeRange(T0 - timedelta(hours=1), T0 + timedelta(hours=3), "hour")
    buckets = asyncio.run(_run(db_url, lambda c: time_series(c, rng)))
    assert [b.start for b in buckets] == [T0 + timedelta(hours=h) for h in range(-1, 3)]  # empty ones too
    assert [b.requests for b in buckets] == [0, 6, 1, 0]
    first = buckets[1]
    assert (first.errors, first.exact_hits, first.semantic_hits, first.misses, first.small, first.large) == (
        0, 1, 1, 4, 2, 1)
    assert (first.prompt_tokens, first.completion_tokens) == (60, 12)
    assert first.saved_usd == pytest.approx(30.75)
    assert first.saved_by == pytest.approx({"exact_cache": 1.0, "semantic_cache": 2.0, "routing": 4.0,
                                            "cascade": -0.25 + 5.0, "batch": 3.0, "other": 16.0})
    assert buckets[2].errors == 1
    total = totals(buckets)
    assert (total.requests, total.errors) == (7, 1)
    assert sum(total.saved_by.values()) == pytest.approx(total.saved_usd)
    days = asyncio.run(_run(db_url, lambda c: time_series(c, TimeRange(T0, T0 + timedelta(days=2), "day"))))
    assert [b.requests for b in days] == [7, 0, 0]  # the day holding 10:00, and two more up to the end


def test_the_range_excludes_rows_outside_it(db_url):
    rng = TimeRange(T0 + timedelta(minutes=2), T0 + timedelta(minutes=5), "hour")
    buckets = asyncio.run(_run(db_url, lambda c: time_series(c, rng)))
    assert totals(buckets).requests == 3


def test_score_histogram_and_cascade_outcomes(db_url):
    rng = TimeRange(T0, T0 + timedelta(days=1))
    hist = asyncio.run(_run(db_url, lambda c: score_histogram(c, rng)))
    assert hist[19] == 2 and hist[10] == 1 and sum(hist) == 3  # 0.97 and 1.0 share the top bin
    assert asyncio.run(_run(db_url, lambda c: cascade_outcomes(c, rng))) == {"accepted": 1, "escalated": 1}
    fb = asyncio.run(_run(db_url, lambda c: feedback_summary(c, rng)))
    assert {s: n for s, n, _ in fb.by_source} == {"json_check": 1, "user": 1}
    assert fb.histogram[9] == 1 and fb.histogram[0] == 1


def test_latency_percentiles_by_model_and_source(db_url):
    rng = TimeRange(T0, T0 + timedelta(days=1))
    rows = {(r.model, r.source): r for r in asyncio.run(_run(db_url, lambda c: latency_by_model(c, rng)))}
    upstream = rows[("m-up", "upstream")]
    assert upstream.requests == 4 and upstream.p50_ms == pytest.approx(3.5)
    assert rows[("m-up", "cache")].requests == 2
    assert rows[("<script>x</script>", "upstream")].errors == 1
    assert percentile([float(v) for v in range(1, 101)], 95) == pytest.approx(95.05)
    assert percentile([], 50) is None
    ups = asyncio.run(_run(db_url, lambda c: upstream_stats(c, rng)))
    # the exact and semantic hits (req-0000, req-0001) name the upstream but never reached it
    assert [(u.upstream, u.requests, u.errors, u.last_error) for u in ups] == [("up", 5, 1, "upstream down")]


def test_request_list_filters_and_pages_with_a_cursor(db_url):
    async def pages(conn):
        seen, before = [], None
        while True:
            rows, more = await list_requests(conn, RequestFilter(), limit=3, before=before)
            seen += [r["id"] for r in rows]
            if not more:
                return seen
            before = (rows[-1]["created_at"], rows[-1]["id"])

    ids = asyncio.run(_run(db_url, pages))
    assert ids == [r["id"] for r in sorted(ROWS, key=lambda r: r["created_at"], reverse=True)]

    def find(f: RequestFilter):
        return [r["id"] for r in asyncio.run(_run(db_url, lambda c: list_requests(c, f)))[0]]

    assert find(RequestFilter(status="error")) == ["req-0070"]
    assert find(RequestFilter(text="req-0003")) == ["req-0003"]  # a whole id: the primary key
    assert find(RequestFilter(text="req-0003", status="error")) == []
    assert find(RequestFilter(text="SCRIPT")) == ["req-0070"]  # case-insensitive substring
    assert find(RequestFilter(text="%")) == []  # LIKE wildcards are literal
    assert find(RequestFilter(route="small", cache="miss")) == ["req-0004", "req-0002"]
    assert find(RequestFilter(route="none")) == ["req-0070", "req-0005", "req-0001", "req-0000"]
    assert find(RequestFilter(status="502", model="<script>x</script>")) == ["req-0070"]
    detail = asyncio.run(_run(db_url, lambda c: request_detail(c, "req-0002")))
    assert detail.row["route"] == "small" and "hi" in detail.routing_request
    assert [s for _, s, _, _ in detail.feedback] == ["user"]
    assert asyncio.run(_run(db_url, lambda c: request_detail(c, "nope"))) is None


def test_grouped_totals_and_cache_tables(db_url):
    groups = asyncio.run(_run(db_url, request_groups))
    assert sum(g["requests"] for g in groups) == 7
    by_cache = asyncio.run(_run(db_url, cache_groups))
    assert [(g.kind, g.entries, g.bytes, g.hits) for g in by_cache] == [("exact", 2, 15, 3), ("semantic", 2, 14, 9)]
    assert asyncio.run(_run(db_url, cache_tenants)) == [("t1", 4)]
    assert [e.question for e in asyncio.run(_run(db_url, most_hit_questions))] == ["popular?"]
    contested = asyncio.run(_run(db_url, contested_questions))
    assert [(e.question, e.contested) for e in contested] == [("disputed?", True)]
    recent = asyncio.run(_run(db_url, recent_entries))
    assert sorted(r["kind"] for r in recent) == ["exact", "exact", "semantic", "semantic"]


def test_settled_hours_are_rolled_up_once_and_recent_hours_stay_live(db_url):
    from sqlalchemy import func, select, update

    from proxy.storage.db import RequestLogHourly

    rng = TimeRange(T0 - timedelta(hours=1), T0 + timedelta(hours=3), "hour")

    async def series(conn, rollups=True):
        return [b.to_json() for b in await time_series(conn, rng, rollups=rollups)]

    live = asyncio.run(_run(db_url, lambda c: series(c, rollups=False)))
    assert asyncio.run(_run(db_url, series)) == live
    assert asyncio.run(_run(db_url, lambda c: c.scalar(select(func.count()).select_from(RequestLogHourly)))) == 4

    async def tamper(conn, **values):
        await conn.execute(update(RequestLogHourly).where(RequestLogHourly.hour_start == T0).values(**values))
        await conn.commit()

    asyncio.run(_run(db_url, lambda c: tamper(c, data=Bucket(T0, requests=99).to_json())))
    assert asyncio.run(_run(db_url, lambda c: time_series(c, rng)))[1].requests == 99  # read from the rollup
    asyncio.run(_run(db_url, lambda c: tamper(c, version=ROLLUP_VERSION - 1)))
    assert asyncio.run(_run(db_url, series)) == live  # another version's row is recomputed

    now = datetime.now(UTC)
    recent = TimeRange(now - timedelta(hours=6), now + timedelta(minutes=1), "hour")
    assert totals(asyncio.run(_run(db_url, lambda c: time_series(c, recent)))).requests == 0

    async def write_now(conn):
        await conn.execute(insert(RequestLog), [_row(9000, created_at=now - timedelta(seconds=5))])
        await conn.commit()

    asyncio.run(_run(db_url, write_now))
    assert totals(asyncio.run(_run(db_url, lambda c: time_series(c, recent)))).requests == 1


def test_background_rollups_store_settled_hours(tmp_path):
    from sqlalchemy import func, select

    from proxy.storage.db import RequestLogHourly
    from proxy.ui.rollups import keep_rollups_fresh

    url = f"sqlite+aiosqlite:///{tmp_path / 'r.db'}"
    upgrade(url)
    hour = datetime.now(UTC).replace(minute=0, second=0, microsecond=0) - timedelta(hours=3)

    async def run():
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                await conn.execute(insert(RequestLog), [_row(1, created_at=hour + timedelta(minutes=5))])
            task = asyncio.create_task(keep_rollups_fresh(engine, interval_s=0.05, days=1))
            deadline = time.monotonic() + 30  # a round takes longer on a loaded machine: wait for the day
            await asyncio.sleep(0.5)
            while time.monotonic() < deadline:
                async with engine.connect() as conn:
                    if (await conn.execute(select(func.count()).select_from(RequestLogHourly))).scalar_one() >= 24:
                        break
                await asyncio.sleep(0.05)
            task.cancel()
            async with engine.connect() as conn:
                return {as_utc(h): Bucket.from_json(h, d).requests for h, d in (await conn.execute(
                    select(RequestLogHourly.hour_start, RequestLogHourly.data))).all()}
        finally:
            await engine.dispose()

    stored = asyncio.run(run())
    assert stored[hour] == 1 and len(stored) == 24 and sum(stored.values()) == 1


def test_upstream_stats_count_only_requests_that_reached_the_upstream(tmp_path):
    """Cache hits carry the upstream their model maps to; the Upstreams page must not count them
    (nor their latency, nor their time) as forwarded requests."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'u.db'}"
    upgrade(url)
    rows = [
        _row(1, upstream="a", cache_outcome="exact", latency_ms=0.5),
        _row(2, upstream="a", cache_outcome="semantic", latency_ms=0.7),
        _row(3, upstream="a", cache_outcome="miss", latency_ms=100.0),
        _row(4, upstream="a", cache_outcome=None, latency_ms=300.0),  # caching off: forwarded
        _row(5, upstream="a", cache_outcome="bypass", status_code=500, error="boom", latency_ms=None),
        _row(6, upstream="b", cache_outcome="exact", latency_ms=1.0),  # only hits: b never asked
        _row(7, upstream="a", cache_outcome="exact", status_code=200, latency_ms=0.1),  # newest, a hit
        _row(8, upstream=None, cache_outcome="miss", status_code=400, error="bad body"),  # refused up front
    ]

    async def run():
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                await conn.execute(insert(RequestLog), rows)
            async with engine.connect() as conn:
                return await upstream_stats(conn, TimeRange(T0, T0 + timedelta(days=1)))
        finally:
            await engine.dispose()

    ups = asyncio.run(run())
    assert [u.upstream for u in ups] == ["a"]
    a = ups[0]
    assert (a.requests, a.errors, a.last_error) == (3, 1, "boom")
    assert a.p50_ms == pytest.approx(200.0) and a.p95_ms == pytest.approx(290.0)  # the hits' 0.1-0.7 ms left out
    assert a.last_seen == rows[4]["created_at"]  # the newest forwarded row, not the newer hit

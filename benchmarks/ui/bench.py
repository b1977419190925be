"""``thrifty bench ui``: seed a large request log and time every UI page server-side.

Seeds ``--rows`` synthetic request-log rows spread over ``--days`` days (PostgreSQL: ``COPY``;
SQLite: multi-row inserts), some feedback and cache entries, then serves the proxy app and asks
each page ``--repeat`` times after one first call, reading the ``Server-Timing`` header the UI sets
(queries + render, without the HTTP hop). The hourly rollups are dropped before the app starts and
the run waits for its background task to rebuild them (printing how long that took). Prints one row
per page: the first call's server time, the median and worst server time of the repeats, and their
median wall time.

    thrifty bench ui --database-url postgresql+asyncpg://postgres@127.0.0.1:5432/thrifty_bench --rows 1000000
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import re
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from proxy.ui.rollups import ROLLUP_DAYS

MODELS = ("gpt-4o-mini", "smollm2-135m-instruct", "claude-haiku", "llama-3.1-70b")
OUTCOMES = (("miss", 0.62), ("exact", 0.15), ("semantic", 0.10), ("bypass", 0.13))
PAGES = (
    ("overview 24h", "/ui/overview?range=24h"),
    ("overview 7d", "/ui/overview?range=7d"),
    ("overview 30d", "/ui/overview?range=30d"),
    ("cache 24h", "/ui/cache?range=24h"),
    ("routing 24h", "/ui/routing?range=24h"),
    ("routing 7d", "/ui/routing?range=7d"),
    ("requests newest", "/ui/requests"),
    ("requests search", "/ui/requests?q=claude&status=error"),
    ("requests search, no match", "/ui/requests?q=no-such-text"),
    ("requests search by id", None),  # the first listed request's id
    ("requests page 2", None),  # the first page's Older link
    ("request detail", None),  # the first listed request
    ("upstreams 24h", "/ui/upstreams?range=24h"),
    ("settings", "/ui/settings"),
)
LOG_COLUMNS = ("id", "created_at", "key_id", "endpoint", "model_requested", "model_served", "upstream", "stream",
               "status_code", "error", "prompt_tokens", "completion_tokens", "cached_tokens", "latency_ms", "ttft_ms",
               "cache_outcome", "route", "route_score", "cascade_outcome", "cost_usd", "saved_usd", "batch_id",
               "batch_saved_usd")


def _rows(n: int, days: float, seed: int, now: datetime):
    """``n`` plausible request-log tuples (LOG_COLUMNS order), newest within the last ``days``."""
    rng = random.Random(seed)
    span = days * 86400.0
    keys = [f"key-{rng.getrandbits(96):024x}" for _ in range(50)]
    outcomes, weights = zip(*OUTCOMES, strict=True)
    start = now - timedelta(seconds=span)
    for i in range(n):  # in time order, as a live proxy writes them
        created = start + timedelta(seconds=(i + rng.random()) * span / max(n, 1))
        outcome = rng.choices(outcomes, weights)[0]
        hit = outcome in ("exact", "semantic")
        routed = rng.random() < 0.4
        route = ("large" if rng.random() < 0.3 else "small") if routed else None
        model = rng.choice(MODELS)
        error = rng.random() < 0.02 and not hit
        prompt, completion = rng.randint(20, 2000), rng.randint(1, 600)
        latency = rng.lognormvariate(0.5, 0.6) if hit else rng.lognormvariate(6.5, 0.7)
        cost = None if error else (0.0 if hit else (prompt * 0.15 + completion * 0.6) / 1e6)
        cascade = rng.choice(("accepted", "accepted", "escalated", "escalation_failed")) if routed and \
            rng.random() < 0.2 else None
        batch = f"batch_{rng.randrange(200):032x}" if rng.random() < 0.03 else None
        saved = None if error else (prompt * 2.5 + completion * 10) / 1e6 - (cost or 0.0)
        yield (f"req-{uuid.UUID(int=rng.getrandbits(128)).hex}", created, rng.choice(keys), "chat", model,
               None if error else f"{model}-served", "local" if model.startswith("smollm2") else "openai",
               rng.random() < 0.3, 502 if error else 200, "upstream down" if error else None,
               None if error else prompt, None if error else completion, 0 if error else rng.randint(0, prompt),
               None if error else latency, None if error or hit else latency * 0.3, outcome, route,
               rng.random() if routed else None, cascade, cost, saved, batch,
               saved * 0.5 if batch and saved is not None else None)


async def _seed(url: str, rows: int, days: float, seed: int) -> float:
    """Insert the rows (plus feedback and cache entries); returns seconds taken."""
    from sqlalchemy import insert, text

    from caches.models import ExactCacheEntry, SemanticCacheEntry
    from proxy.storage.db import Feedback, RequestLog, create_engine

    engine = create_engine(url)
    started = time.perf_counter()
    now = datetime.now(UTC)
    try:
        async with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                raw = (await conn.get_raw_connection()).driver_connection
                batch: list[tuple] = []
                for row in _rows(rows, days, seed, now):
                    batch.append(row)
                    if len(batch) == 100_000:
                        await raw.copy_records_to_table("request_log", records=batch, columns=LOG_COLUMNS)
                        batch = []
                if batch:
                    await raw.copy_records_to_table("request_log", records=batch, columns=LOG_COLUMNS)
            else:
                chunk: list[dict] = []
                for row in _rows(rows, days, seed, now):
                    chunk.append(dict(zip(LOG_COLUMNS, row, strict=True)))
                    if len(chunk) == 5000:
                        await conn.execute(insert(RequestLog), chunk)
                        chunk = []
                if chunk:
                    await conn.execute(insert(RequestLog), chunk)
            rng = random.Random(seed + 1)
            await conn.execute(insert(Feedback), [
                {"created_at": now - timedelta(seconds=rng.random() * days * 86400), "request_id": f"req-{i}",
                 "key_id": "key-bench", "score": rng.random(), "source": rng.choice(("user", "json_check")),
                 "comment": None} for i in range(10_000)])
            stamp = time.time()
            common = {"model_version": "", "response": b"{}", "response_sha256": "0" * 64, "expires_at": None,
                      "created_at": stamp, "last_access_at": stamp}
            for start in range(0, 20_000, 5000):
                await conn.execute(insert(ExactCacheEntry), [
                    {**common, "key": uuid.uuid4().hex * 2, "tenant": f"key-{i % 50:024x}", "model": MODELS[i % 4],
                     "scope": f"{i % 7:064x}", "size_bytes": 900 + i % 500, "hits": rng.randrange(50)}
                    for i in range(start, start + 5000)])
                await conn.execute(insert(SemanticCacheEntry), [
                    {**common, "entry_key": uuid.uuid4().hex * 2, "tenant": f"key-{i % 50:024x}",
                     "model": MODELS[i % 4], "scope": f"{i % 7:064x}", "query_text": f"benchmark question {i}?",
                     "embedding": b"\0" * 16, "embedding_dim": 4, "embedder": "bench", "answer_sha256": "a" * 64,
                     "size_bytes": 2000 + i % 700, "hits": rng.randrange(50)} for i in range(start, start + 5000)])
        if url.startswith("postgresql"):
            async with engine.connect() as conn:
                await conn.execution_options(isolation_level="AUTOCOMMIT")
                await conn.execute(text("VACUUM ANALYZE request_log"))
                await conn.execute(text("ANALYZE"))
    finally:
        await engine.dispose()
    return time.perf_counter() - started


def _server_ms(header: str | None) -> float | None:
    match = re.search(r"total;dur=([0-9.]+)", header or "")
    return float(match.group(1)) if match else None


def _time_pages(url: str, repeat: int) -> list[tuple[str, float, float, float, float, int]]:
    import httpx

    from benchmarks.harness import serve_in_thread
    from proxy.config.sections import (
        AdminConfig,
        BundledBackendConfig,
        CacheSettings,
        DatabaseConfig,
        ModelAlias,
        RouterSettings,
        UpstreamConfig,
    )
    from proxy.config.settings import Settings
    from proxy.http.app import create_app

    settings = Settings(
        database=DatabaseConfig(url=url), bundled=BundledBackendConfig(enabled=False),
        upstreams=(UpstreamConfig("local", "http://127.0.0.1:9/v1"), UpstreamConfig("openai", "http://127.0.0.1:9/v1")),
        models=(ModelAlias("bench", "local", "bench"),), admin=AdminConfig(api_key="bench-admin"),
        cache=CacheSettings(enabled=True, semantic=False), router=RouterSettings(enabled=False))
    out = []
    with serve_in_thread(create_app(settings)) as base, httpx.Client(base_url=base, timeout=60) as client:
        started, wanted = time.perf_counter(), int(ROLLUP_DAYS * 24)
        while asyncio.run(_rollup_rows(url)) < wanted and time.perf_counter() - started < 300:
            time.sleep(0.25)
        print(f"background rollups of the last {ROLLUP_DAYS:g} days ready after {time.perf_counter() - started:.1f} s")
        form = client.get("/ui/login").text
        csrf = re.search(r'name="csrf" value="([^"]+)"', form).group(1)
        client.post("/ui/login", data={"api_key": "bench-admin", "csrf": csrf})
        first = client.get("/ui/requests").text
        older = re.search(r'href="(/ui/requests\?[^"]*before=[^"]+)"', first)
        detail = re.search(r'href="(/ui/requests/req-[^"]+)"', first)
        for name, path in PAGES:
            if name == "requests page 2":
                path = older.group(1).replace("&amp;", "&") if older else None
            elif name == "request detail":
                path = detail.group(1) if detail else None
            elif name == "requests search by id":
                path = "/ui/requests?q=" + detail.group(1).rsplit("/", 1)[1] if detail else None
            if path is None:
                continue
            server, wall = [], []
            status = 0
            for _ in range(repeat + 1):  # the first call warms caches and is not counted
                t0 = time.perf_counter()
                response = client.get(path)
                wall.append((time.perf_counter() - t0) * 1000)
                server.append(_server_ms(response.headers.get("server-timing")) or float("nan"))
                status = response.status_code
            out.append((name, server[0], statistics.median(server[1:]), max(server[1:]), statistics.median(wall[1:]),
                        status))
    return out


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


async def _rollup_rows(url: str) -> int:
    from sqlalchemy import func, select

    from proxy.storage.db import RequestLogHourly, create_engine

    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(RequestLogHourly))).scalar() or 0)
    finally:
        await engine.dispose()


async def _count(url: str, clear_rollups: bool) -> int:
    """Rows in the request log; ``clear_rollups``: drop the hourly rollups, so that the run shows
    how long the proxy's background task takes to compute them."""
    from sqlalchemy import delete, func, select

    from proxy.storage.db import RequestLog, RequestLogHourly, create_engine

    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            if clear_rollups:
                await conn.execute(delete(RequestLogHourly))
            return int((await conn.execute(select(func.count()).select_from(RequestLog))).scalar() or 0)
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench ui", description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True,
                        help="database to seed and read (use a throwaway one: rows are added to it)")
    parser.add_argument("--rows", type=int, default=1_000_000, help="request-log rows to add (default 1,000,000)")
    parser.add_argument("--days", type=float, default=30.0, help="spread the rows over this many days (default 30)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5, help="timed calls per page (after one warm-up)")
    parser.add_argument("--no-seed", action="store_true", help="time the pages on the rows already there")
    args = parser.parse_args(argv)
    if args.rows < 0 or args.days <= 0 or args.repeat < 1:
        print("--rows must be >= 0, --days > 0 and --repeat >= 1", file=sys.stderr)
        return 2
    from proxy.storage import migrate

    try:
        migrate.upgrade(args.database_url)
        if not args.no_seed:
            took = asyncio.run(_seed(args.database_url, args.rows, args.days, args.seed))
            print(f"seeded {args.rows:,} request-log rows over {args.days:g} days in {took:.1f} s")
        total = asyncio.run(_count(args.database_url, clear_rollups=True))
    except Exception as exc:  # noqa: BLE001 - a plain message for the CLI
        print(f"thrifty bench ui: database error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    results = _time_pages(args.database_url, args.repeat)
    dialect = args.database_url.split(":", 1)[0]
    print(f"\n{total:,} request-log rows on {dialect}; CPU: {_cpu()}; {args.repeat} timed calls per page\n")
    print("| page | first call ms | server median ms | server max ms | wall median ms | status |")
    print("|---|---|---|---|---|---|")
    for name, first, med, worst, wall, status in results:
        print(f"| {name} | {first:.1f} | {med:.1f} | {worst:.1f} | {wall:.1f} | {status} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

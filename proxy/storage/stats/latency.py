"""Latency percentiles per model and per upstream over a bounded sample of a range's most recent
requests (the same cost on SQLite and PostgreSQL, fast on large logs)."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from proxy.storage.db import RequestLog
from proxy.storage.stats.ranges import TimeRange, as_utc, created_in

#: how many of the most recent rows of a range feed the latency percentiles
LATENCY_SAMPLE = 10_000


@dataclass(frozen=True, slots=True)
class LatencyRow:
    """Latency percentiles of one model and source (``upstream`` or ``cache``) over a sample."""

    model: str
    source: str
    requests: int
    p50_ms: float | None
    p95_ms: float | None
    ttft_p50_ms: float | None
    ttft_p95_ms: float | None
    errors: int


@dataclass(frozen=True, slots=True)
class UpstreamRow:
    """Requests, errors and latency of one upstream over a sample of the range."""

    upstream: str
    requests: int
    errors: int
    p50_ms: float | None
    p95_ms: float | None
    last_seen: datetime | None
    last_error: str | None


def percentile(values: list[float], q: float) -> float | None:
    """Linear-interpolated percentile ``q`` (0..100) of ``values``; ``None`` when empty."""
    if not values:
        return None
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


#: cache outcomes of requests answered from a cache: they never reached an upstream, even when their
#: row names the upstream that the model maps to
CACHE_HITS = ("exact", "semantic")


def _reached_upstream():
    """Rows of requests that were forwarded to an upstream (not answered from a cache)."""
    return and_(RequestLog.upstream.is_not(None),
                or_(RequestLog.cache_outcome.is_(None), RequestLog.cache_outcome.not_in(CACHE_HITS)))


def _sample(rng: TimeRange, sample: int, *where):
    """The ``sample`` most recent rows of the range (a backward scan of the created_at index)."""
    model = func.coalesce(RequestLog.model_served, RequestLog.model_requested).label("model")
    source = case((RequestLog.cache_outcome.in_(CACHE_HITS), "cache"), else_="upstream").label("source")
    return (select(model, source, RequestLog.upstream, RequestLog.created_at, RequestLog.error,
                   (RequestLog.status_code >= 400).label("failed"), RequestLog.latency_ms, RequestLog.ttft_ms)
            .where(created_in(rng), *where).order_by(RequestLog.created_at.desc()).limit(sample)
            .subquery("sample"))


def _percentiles(column, ok) -> list:
    """p50 and p95 (linear interpolation, as :func:`percentile`) of ``column`` where ``ok``."""
    return [func.percentile_cont(f).within_group(column).filter(ok) for f in (0.5, 0.95)]


async def latency_by_model(conn: AsyncConnection, rng: TimeRange, sample: int = LATENCY_SAMPLE) -> list[LatencyRow]:
    """p50/p95 end-to-end latency and time to first token per model, cache hits apart from
    upstream answers, over the ``sample`` most recent requests of the range (PostgreSQL computes
    the percentiles with ``percentile_cont``; elsewhere Python does)."""
    s = _sample(rng, sample)
    if conn.dialect.name == "postgresql":
        ok = s.c.failed.is_(False)
        rows = [LatencyRow(model or "(none)", source, n, *[None if v is None else float(v) for v in pct],
                           int(errors or 0))
                for model, source, n, errors, *pct in (await conn.execute(
                    select(s.c.model, s.c.source, func.count(), func.sum(case((s.c.failed, 1), else_=0)),
                           *_percentiles(s.c.latency_ms, ok), *_percentiles(s.c.ttft_ms, ok))
                    .group_by(s.c.model, s.c.source))).all()]
    else:
        groups: dict[tuple[str, str], tuple[list[float], list[float], list[int]]] = defaultdict(
            lambda: ([], [], [0]))
        for model, source, failed, latency, ttft in (await conn.execute(
                select(s.c.model, s.c.source, s.c.failed, s.c.latency_ms, s.c.ttft_ms))).all():
            lat, first, errors = groups[(model or "(none)", source)]
            if failed:
                errors[0] += 1
                continue
            if latency is not None:
                lat.append(latency)
            if ttft is not None:
                first.append(ttft)
        rows = [LatencyRow(model, source, len(lat) + errors[0], percentile(lat, 50), percentile(lat, 95),
                           percentile(first, 50), percentile(first, 95), errors[0])
                for (model, source), (lat, first, errors) in groups.items()]
    return sorted(rows, key=lambda r: (-r.requests, r.model, r.source))


async def upstream_stats(conn: AsyncConnection, rng: TimeRange, sample: int = LATENCY_SAMPLE) -> list[UpstreamRow]:
    """Per upstream, over the ``sample`` most recent forwarded requests of the range (cache hits
    are not forwarded: they are left out)."""
    s = _sample(rng, sample, _reached_upstream())
    last_error: dict[str, str | None] = {}
    for name, error in (await conn.execute(
            select(s.c.upstream, s.c.error).where(s.c.failed).order_by(s.c.created_at.desc()))).all():
        last_error.setdefault(name, error)
    if conn.dialect.name == "postgresql":
        ok = s.c.failed.is_(False)
        rows = (await conn.execute(
            select(s.c.upstream, func.count(), func.sum(case((s.c.failed, 1), else_=0)),
                   *_percentiles(s.c.latency_ms, ok), func.max(s.c.created_at))
            .group_by(s.c.upstream).order_by(s.c.upstream))).all()
        return [UpstreamRow(name, n, int(errors or 0), None if p50 is None else float(p50),
                            None if p95 is None else float(p95), as_utc(last) if last is not None else None,
                            last_error.get(name)) for name, n, errors, p50, p95, last in rows]
    acc: dict[str, dict[str, Any]] = {}
    for name, failed, latency, created in (await conn.execute(
            select(s.c.upstream, s.c.failed, s.c.latency_ms, s.c.created_at))).all():
        a = acc.setdefault(name, {"n": 0, "errors": 0, "lat": [], "last": None})
        a["n"] += 1
        created = as_utc(created)
        a["last"] = created if a["last"] is None else max(a["last"], created)
        if failed:
            a["errors"] += 1
        elif latency is not None:
            a["lat"].append(latency)
    return [UpstreamRow(name, a["n"], a["errors"], percentile(a["lat"], 50), percentile(a["lat"], 95), a["last"],
                        last_error.get(name)) for name, a in sorted(acc.items())]

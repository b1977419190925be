"""Read-only statistics queries over the request log, feedback, router and cache tables.

The one place where the admin JSON API (``proxy.http.admin``) and the web UI (``proxy.ui``) get their
numbers: both call these functions, neither writes its own SQL. Every function takes an open
``AsyncConnection`` and works on SQLite and PostgreSQL; time filters use the ``created_at`` index.

Percentiles are computed in Python over a bounded sample (the most recent rows of the range), so
they cost the same on both databases and stay fast on large logs.
"""

from __future__ import annotations

import json
import logging
import math
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Integer, and_, case, cast, func, or_, select, tuple_
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection

from caches.models import ExactCacheEntry, SemanticCacheEntry
from proxy.storage.db import ApiKey, Batch, Feedback, RequestLog, RequestLogHourly, RouterRequest

log = logging.getLogger(__name__)

BUCKETS = ("hour", "day")
#: how many of the most recent rows of a range feed the latency percentiles
LATENCY_SAMPLE = 10_000
#: the saving causes the overview splits ``saved_usd`` into (``other``: none of these applies)
SAVING_CAUSES = ("exact_cache", "semantic_cache", "routing", "cascade", "batch", "other")
CONTESTED = "contested"  # caches.semantic.CONTESTED: a question stored with two different answers
SCORE_BINS = 20  # route-score histogram bins over [0, 1]
#: closed hours of the request log are pre-aggregated (``request_log_hourly``) once they are this old,
#: so that a request still running when its hour ended is counted in it
ROLLUP_SETTLE = timedelta(hours=1)
ROLLUP_VERSION = 1  # bump when Bucket's content changes: stored rollups of another version are recomputed


@dataclass(frozen=True, slots=True)
class TimeRange:
    """``[start, end)`` in UTC, shown in ``bucket`` steps (``hour`` or ``day``)."""

    start: datetime
    end: datetime
    bucket: str = "hour"

    def bucket_starts(self) -> list[datetime]:
        """Every bucket start from the bucket holding ``start`` up to ``end``."""
        step = timedelta(hours=1) if self.bucket == "hour" else timedelta(days=1)
        first = _truncate(self.start, self.bucket)
        out = []
        t = first
        while t < self.end:
            out.append(t)
            t += step
        return out


_COUNTS = ("requests", "errors", "prompt_tokens", "completion_tokens", "exact_hits", "semantic_hits", "misses",
           "small", "large")


@dataclass(slots=True)
class Bucket:
    """Totals of one time bucket of the request log, with its route-score histogram
    (:data:`SCORE_BINS` bins over [0, 1]) and cascade outcome counts."""

    start: datetime
    requests: int = 0
    errors: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    saved_usd: float = 0.0
    exact_hits: int = 0
    semantic_hits: int = 0
    misses: int = 0
    small: int = 0
    large: int = 0
    saved_by: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SAVING_CAUSES, 0.0))
    score_hist: list[int] = field(default_factory=lambda: [0] * SCORE_BINS)
    cascade: dict[str, int] = field(default_factory=dict)

    @property
    def cache_lookups(self) -> int:
        return self.exact_hits + self.semantic_hits + self.misses

    def add(self, other: Bucket) -> None:
        """Add ``other``'s totals to this bucket."""
        for name in _COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.cost_usd += other.cost_usd
        self.saved_usd += other.saved_usd
        for cause, value in other.saved_by.items():
            self.saved_by[cause] = self.saved_by.get(cause, 0.0) + value
        self.score_hist = [a + b for a, b in zip(self.score_hist, other.score_hist, strict=True)]
        for outcome, n in other.cascade.items():
            self.cascade[outcome] = self.cascade.get(outcome, 0) + n

    def to_json(self) -> str:
        data = {name: getattr(self, name) for name in _COUNTS}
        data.update(cost_usd=self.cost_usd, saved_usd=self.saved_usd, saved_by=self.saved_by,
                    score_hist=self.score_hist, cascade=self.cascade)
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, start: datetime, raw: str) -> Bucket:
        data = json.loads(raw)
        return cls(start, **{k: data[k] for k in (*_COUNTS, "cost_usd", "saved_usd", "saved_by", "score_hist",
                                                    "cascade")})


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


@dataclass(frozen=True, slots=True)
class RequestFilter:
    """Filters of the request list; ``None`` means no filter."""

    text: str | None = None  # substring of the request id, key id or either model name
    model: str | None = None
    key_id: str | None = None
    route: str | None = None
    cache: str | None = None
    status: str | None = None  # "ok", "error" or an HTTP status code
    start: datetime | None = None
    end: datetime | None = None


@dataclass(frozen=True, slots=True)
class CacheGroup:
    """Entries, bytes and hits of one cache kind, scope and model."""

    kind: str
    scope: str
    model: str
    entries: int
    bytes: int
    hits: int


@dataclass(frozen=True, slots=True)
class CachedQuestion:
    """A semantic-cache entry: its question and how often it answered."""

    id: int
    scope: str
    tenant: str
    model: str
    question: str
    hits: int
    size_bytes: int
    created_at: float
    contested: bool


# --- the admin API's grouped totals -----------------------------------------------------------


async def request_groups(conn: AsyncConnection) -> list[dict[str, Any]]:
    """Requests, cost, saving (and the batch discount's part of it) and mean latency per
    (cache outcome, route, cascade outcome, batch line or not)."""
    is_batch = RequestLog.batch_id.is_not(None)
    rows = (await conn.execute(
        select(RequestLog.cache_outcome, RequestLog.route, RequestLog.cascade_outcome, is_batch, func.count(),
               func.sum(RequestLog.cost_usd), func.sum(RequestLog.saved_usd), func.sum(RequestLog.batch_saved_usd),
               func.avg(RequestLog.latency_ms))
        .group_by(RequestLog.cache_outcome, RequestLog.route, RequestLog.cascade_outcome, is_batch))).all()
    return [{"cache": c, "route": r, "cascade": k, "batch": bool(b), "requests": n, "cost_usd": cost or 0.0,
             "saved_usd": saved or 0.0, "batch_saved_usd": batch_saved or 0.0, "avg_latency_ms": lat}
            for c, r, k, b, n, cost, saved, batch_saved, lat in rows]


# --- time series -----------------------------------------------------------------------------


def _truncate(t: datetime, bucket: str) -> datetime:
    t = t.astimezone(UTC) if t.tzinfo else t.replace(tzinfo=UTC)
    t = t.replace(minute=0, second=0, microsecond=0)
    return t.replace(hour=0) if bucket == "day" else t


def _bucket_expr(dialect: str, bucket: str):
    if bucket not in BUCKETS:
        raise ValueError(f"bucket must be one of {BUCKETS}, got {bucket!r}")
    if dialect == "postgresql":
        return func.date_trunc(bucket, func.timezone("UTC", RequestLog.created_at))
    fmt = "%Y-%m-%d %H:00:00" if bucket == "hour" else "%Y-%m-%d 00:00:00"
    return func.strftime(fmt, RequestLog.created_at)


def _as_utc(value: Any) -> datetime:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _in_range(rng: TimeRange):
    return and_(RequestLog.created_at >= rng.start, RequestLog.created_at < rng.end)


def _saving_columns() -> list:
    """``sum(...)`` of ``saved_usd`` per cause: the batch discount is its own column
    (``batch_saved_usd``); the rest of a row's saving goes to the first of exact cache, semantic
    cache, cascade, routing that applies to it."""
    saved = func.coalesce(RequestLog.saved_usd, 0.0)
    batch = func.coalesce(RequestLog.batch_saved_usd, 0.0)
    rest = saved - batch
    cause = case(
        (RequestLog.cache_outcome == "exact", "exact_cache"),
        (RequestLog.cache_outcome == "semantic", "semantic_cache"),
        (RequestLog.cascade_outcome.is_not(None), "cascade"),
        (RequestLog.route.is_not(None), "routing"),
        else_="other",
    )
    columns = [func.sum(case((cause == name, rest), else_=0.0)) for name in SAVING_CAUSES if name != "batch"]
    return [*columns, func.sum(batch)]


def _score_bin(dialect: str):
    scaled = RequestLog.route_score * SCORE_BINS
    return (func.floor(scaled) if dialect == "postgresql" else cast(scaled, Integer)).label("i")


async def _aggregate(conn: AsyncConnection, start: datetime, end: datetime) -> dict[datetime, Bucket]:
    """Hour buckets of ``[start, end)`` straight from the request log (hours without rows are absent)."""
    dialect = conn.dialect.name
    b = _bucket_expr(dialect, "hour").label("b")
    in_range = and_(RequestLog.created_at >= start, RequestLog.created_at < end)
    error = RequestLog.status_code >= 400
    query = (
        select(
            b, func.count(),
            func.sum(case((error, 1), else_=0)),
            func.sum(func.coalesce(RequestLog.prompt_tokens, 0)),
            func.sum(func.coalesce(RequestLog.completion_tokens, 0)),
            func.sum(case((RequestLog.cache_outcome == "exact", 1), else_=0)),
            func.sum(case((RequestLog.cache_outcome == "semantic", 1), else_=0)),
            func.sum(case((RequestLog.cache_outcome == "miss", 1), else_=0)),
            func.sum(case((RequestLog.route == "small", 1), else_=0)),
            func.sum(case((RequestLog.route == "large", 1), else_=0)),
            func.sum(func.coalesce(RequestLog.cost_usd, 0.0)),
            func.sum(func.coalesce(RequestLog.saved_usd, 0.0)),
            *_saving_columns(),
        )
        .where(in_range)
        .group_by(b)
    )
    found: dict[datetime, Bucket] = {}
    causes = [c for c in SAVING_CAUSES if c != "batch"] + ["batch"]
    for row in (await conn.execute(query)).all():
        bucket = Bucket(_as_utc(row[0]), *[int(v or 0) for v in row[1:5]])
        for name, v in zip(_COUNTS[4:], row[5:10], strict=True):
            setattr(bucket, name, int(v or 0))
        bucket.cost_usd, bucket.saved_usd = float(row[10] or 0.0), float(row[11] or 0.0)
        bucket.saved_by = {name: float(v or 0.0) for name, v in zip(causes, row[12:], strict=True)}
        found[bucket.start] = bucket
    index = _score_bin(dialect)
    for hour, i, n in (await conn.execute(
            select(b, index, func.count()).where(in_range, RequestLog.route_score.is_not(None))
            .group_by(b, index))).all():
        found[_as_utc(hour)].score_hist[min(max(int(i), 0), SCORE_BINS - 1)] += n
    for hour, outcome, n in (await conn.execute(
            select(b, RequestLog.cascade_outcome, func.count())
            .where(in_range, RequestLog.cascade_outcome.is_not(None))
            .group_by(b, RequestLog.cascade_outcome))).all():
        found[_as_utc(hour)].cascade[outcome] = n
    return found


def _hours(start: datetime, end: datetime) -> list[datetime]:
    out, t = [], start
    while t < end:
        out.append(t)
        t += timedelta(hours=1)
    return out


async def _rolled_up(conn: AsyncConnection, start: datetime, end: datetime) -> dict[datetime, Bucket]:
    """Hour buckets of the whole hours in ``[start, end)`` from ``request_log_hourly``; hours not
    stored yet (or stored by another version) are aggregated once and stored."""
    rows = (await conn.execute(
        select(RequestLogHourly.hour_start, RequestLogHourly.data)
        .where(RequestLogHourly.hour_start >= start, RequestLogHourly.hour_start < end,
               RequestLogHourly.version == ROLLUP_VERSION))).all()
    found = {_as_utc(h): Bucket.from_json(_as_utc(h), data) for h, data in rows}
    missing = [h for h in _hours(start, end) if h not in found]
    if not missing:
        return found
    fresh = await _aggregate(conn, missing[0], missing[-1] + timedelta(hours=1))
    now = datetime.now(UTC)
    values = []
    for hour in missing:
        found[hour] = fresh.get(hour) or Bucket(hour)
        values.append({"hour_start": hour, "version": ROLLUP_VERSION, "computed_at": now,
                       "data": found[hour].to_json()})
    dialect_insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    try:
        for i in range(0, len(values), 500):
            stmt = dialect_insert(RequestLogHourly).values(values[i:i + 500])
            await conn.execute(stmt.on_conflict_do_update(
                index_elements=["hour_start"],
                set_={"version": stmt.excluded.version, "computed_at": stmt.excluded.computed_at,
                      "data": stmt.excluded.data}))
        await conn.commit()
    except SQLAlchemyError as exc:  # a read-only replica, a locked SQLite file: serve what was computed
        await conn.rollback()
        log.warning("could not store request-log rollups: %s", exc)
    return found


async def refresh_rollups(conn: AsyncConnection, days: float = 35.0, now: datetime | None = None) -> None:
    """Store the rollups of the settled hours of the last ``days`` days that are not stored yet
    (run in the background so that a page's first view finds them)."""
    last = _truncate((now or datetime.now(UTC)) - ROLLUP_SETTLE, "hour")
    await _rolled_up(conn, last - timedelta(days=days), last)


async def time_series(conn: AsyncConnection, rng: TimeRange, *, now: datetime | None = None,
                      rollups: bool = True) -> list[Bucket]:
    """One :class:`Bucket` per hour or day of the range (empty buckets included).

    Whole hours that ended at least :data:`ROLLUP_SETTLE` ago come from the hourly rollups
    (computed on first use); the edges of the range and the recent hours from the request log.
    """
    now = now or datetime.now(UTC)
    hours: dict[datetime, Bucket] = {}
    first = _truncate(rng.start, "hour")
    if first < rng.start:
        first += timedelta(hours=1)
    last = min(_truncate(rng.end, "hour"), _truncate(now - ROLLUP_SETTLE, "hour"))
    live = [(rng.start, rng.end)]
    if rollups and last > first:
        hours.update(await _rolled_up(conn, first, last))
        live = [(rng.start, first), (last, rng.end)]
    for a, b in live:
        if a < b:
            for hour, bucket in (await _aggregate(conn, a, b)).items():
                if hour in hours:
                    hours[hour].add(bucket)
                else:
                    hours[hour] = bucket
    out = {start: Bucket(start) for start in rng.bucket_starts()}
    for hour, bucket in hours.items():
        target = out.get(_truncate(hour, rng.bucket))
        if target is not None:
            target.add(bucket)
    return list(out.values())


def totals(buckets: list[Bucket]) -> Bucket:
    """The sum of ``buckets`` (its ``start`` is the first bucket's)."""
    total = Bucket(buckets[0].start if buckets else datetime.now(UTC))
    for b in buckets:
        total.add(b)
    return total


# --- latency ---------------------------------------------------------------------------------


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
            .where(_in_range(rng), *where).order_by(RequestLog.created_at.desc()).limit(sample)
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
                            None if p95 is None else float(p95), _as_utc(last) if last is not None else None,
                            last_error.get(name)) for name, n, errors, p50, p95, last in rows]
    acc: dict[str, dict[str, Any]] = {}
    for name, failed, latency, created in (await conn.execute(
            select(s.c.upstream, s.c.failed, s.c.latency_ms, s.c.created_at))).all():
        a = acc.setdefault(name, {"n": 0, "errors": 0, "lat": [], "last": None})
        a["n"] += 1
        created = _as_utc(created)
        a["last"] = created if a["last"] is None else max(a["last"], created)
        if failed:
            a["errors"] += 1
        elif latency is not None:
            a["lat"].append(latency)
    return [UpstreamRow(name, a["n"], a["errors"], percentile(a["lat"], 50), percentile(a["lat"], 95), a["last"],
                        last_error.get(name)) for name, a in sorted(acc.items())]


# --- routing ---------------------------------------------------------------------------------


async def cascade_outcomes(conn: AsyncConnection, rng: TimeRange) -> dict[str, int]:
    """Requests per cascade outcome (accepted, escalated, escalation_failed) in the range."""
    return totals(await time_series(conn, rng)).cascade


async def score_histogram(conn: AsyncConnection, rng: TimeRange) -> list[int]:
    """Counts of routed requests' scores in :data:`SCORE_BINS` equal bins over [0, 1]."""
    return totals(await time_series(conn, rng)).score_hist


@dataclass(frozen=True, slots=True)
class FeedbackSummary:
    """Feedback received in a range: per source count and mean score, a histogram and the latest."""

    by_source: list[tuple[str, int, float]]
    histogram: list[int]  # 10 bins over [0, 1]
    recent: list[tuple[datetime, str, str, float, str | None]]  # created, request id, source, score, comment


async def feedback_summary(conn: AsyncConnection, rng: TimeRange, recent: int = 10) -> FeedbackSummary:
    """Feedback scores received in the range."""
    in_range = and_(Feedback.created_at >= rng.start, Feedback.created_at < rng.end)
    by_source = (await conn.execute(
        select(Feedback.source, func.count(), func.avg(Feedback.score)).where(in_range)
        .group_by(Feedback.source).order_by(Feedback.source))).all()
    scaled = Feedback.score * 10
    index = (func.floor(scaled) if conn.dialect.name == "postgresql" else cast(scaled, Integer)).label("i")
    hist = [0] * 10
    for i, n in (await conn.execute(select(index, func.count()).where(in_range).group_by(index))).all():
        hist[min(max(int(i), 0), 9)] += n
    latest = (await conn.execute(
        select(Feedback.created_at, Feedback.request_id, Feedback.source, Feedback.score, Feedback.comment)
        .where(in_range).order_by(Feedback.created_at.desc()).limit(recent))).all()
    return FeedbackSummary([(s, n, float(avg)) for s, n, avg in by_source], hist,
                           [(_as_utc(c), r, s, float(sc), cm) for c, r, s, sc, cm in latest])


# --- requests --------------------------------------------------------------------------------


def _filter_clauses(f: RequestFilter) -> list:
    clauses = []
    if f.text:
        pattern = "%" + f.text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        clauses.append(or_(*[col.ilike(pattern, escape="\\") for col in (
            RequestLog.id, RequestLog.key_id, RequestLog.model_requested, RequestLog.model_served)]))
    if f.model:
        clauses.append(or_(RequestLog.model_requested == f.model, RequestLog.model_served == f.model))
    if f.key_id:
        clauses.append(RequestLog.key_id == f.key_id)
    if f.route:
        clauses.append(RequestLog.route.is_(None) if f.route == "none" else RequestLog.route == f.route)
    if f.cache:
        clauses.append(RequestLog.cache_outcome == f.cache)
    if f.status == "ok":
        clauses.append(RequestLog.status_code < 400)
    elif f.status == "error":
        clauses.append(RequestLog.status_code >= 400)
    elif f.status:
        clauses.append(RequestLog.status_code == int(f.status))
    if f.start:
        clauses.append(RequestLog.created_at >= f.start)
    if f.end:
        clauses.append(RequestLog.created_at < f.end)
    return clauses


REQUEST_COLUMNS = (RequestLog.id, RequestLog.created_at, RequestLog.key_id, RequestLog.endpoint,
                   RequestLog.model_requested, RequestLog.model_served, RequestLog.route, RequestLog.cache_outcome,
                   RequestLog.cascade_outcome, RequestLog.prompt_tokens, RequestLog.completion_tokens,
                   RequestLog.cost_usd, RequestLog.saved_usd, RequestLog.latency_ms, RequestLog.status_code,
                   RequestLog.stream)


async def list_requests(conn: AsyncConnection, f: RequestFilter, limit: int = 50,
                        before: tuple[datetime, str] | None = None,
                        id_equals: str | None = None) -> tuple[list[dict[str, Any]], bool]:
    """The newest requests matching ``f`` (older than the ``before`` cursor: created_at, id),
    and whether more follow. A search text that is a whole request id finds just that request."""
    if f.text and before is None:  # a whole request id: the primary key answers at once
        exact = await list_requests(conn, replace(f, text=None, start=None, end=None), limit, None,
                                    id_equals=f.text)
        if exact[0]:
            return exact
    clauses = _filter_clauses(f)
    if id_equals is not None:
        clauses.append(RequestLog.id == id_equals)
    if before is not None:
        clauses.append(tuple_(RequestLog.created_at, RequestLog.id) < tuple_(*before))
    query = (select(*REQUEST_COLUMNS).where(*clauses)
             .order_by(RequestLog.created_at.desc(), RequestLog.id.desc()).limit(limit + 1))
    rows = [dict(r._mapping) for r in (await conn.execute(query)).all()]
    for row in rows:
        row["created_at"] = _as_utc(row["created_at"])
    return rows[:limit], len(rows) > limit


@dataclass(frozen=True, slots=True)
class RequestDetail:
    """One logged request, its stored routing request (prompt text, when kept) and its feedback."""

    row: dict[str, Any]
    routing_request: str | None
    feedback: list[tuple[datetime, str, float, str | None]]


async def request_detail(conn: AsyncConnection, request_id: str) -> RequestDetail | None:
    """Everything stored about one request, or ``None`` when the id is unknown. ``request_id`` is the
    row id or a caller's own ``x-request-id`` (its latest request when the caller repeated it)."""
    found = (await conn.execute(select(*RequestLog.__table__.columns).where(RequestLog.id == request_id))).first()
    if found is None:
        found = (await conn.execute(select(*RequestLog.__table__.columns)
                                    .where(RequestLog.client_request_id == request_id)
                                    .order_by(RequestLog.created_at.desc()).limit(1))).first()
    if found is None:
        return None
    row = dict(found._mapping)
    request_id = row["id"]
    row["created_at"] = _as_utc(row["created_at"])
    stored = (await conn.execute(select(RouterRequest.request).where(RouterRequest.request_id == request_id))).scalar()
    feedback = (await conn.execute(
        select(Feedback.created_at, Feedback.source, Feedback.score, Feedback.comment)
        .where(Feedback.request_id == request_id).order_by(Feedback.created_at))).all()
    return RequestDetail(row, stored, [(_as_utc(c), s, float(sc), cm) for c, s, sc, cm in feedback])


async def distinct_values(conn: AsyncConnection, rng: TimeRange, column: str, limit: int = 50) -> list[str]:
    """The most frequent values of a request-log column in the range (filter choices)."""
    col = getattr(RequestLog, column)
    rows = (await conn.execute(
        select(col, func.count().label("n")).where(_in_range(rng), col.is_not(None))
        .group_by(col).order_by(func.count().desc()).limit(limit))).all()
    return [v for v, _ in rows]


# --- caches ----------------------------------------------------------------------------------


async def cache_groups(conn: AsyncConnection) -> list[CacheGroup]:
    """Entries, bytes and hits per cache kind, scope and model, most entries first."""
    out = []
    for kind, table in (("exact", ExactCacheEntry), ("semantic", SemanticCacheEntry)):
        rows = (await conn.execute(
            select(table.scope, table.model, func.count(), func.sum(table.size_bytes), func.sum(table.hits))
            .group_by(table.scope, table.model))).all()
        out += [CacheGroup(kind, s, m, n, int(b or 0), int(h or 0)) for s, m, n, b, h in rows]
    return sorted(out, key=lambda g: (-g.entries, g.kind, g.scope, g.model))


async def cache_tenants(conn: AsyncConnection, limit: int = 200) -> list[tuple[str, int]]:
    """The tenants with the most cache entries (both caches), with their entry counts."""
    counts: dict[str, int] = defaultdict(int)
    for table in (ExactCacheEntry, SemanticCacheEntry):
        for tenant, n in (await conn.execute(
                select(table.tenant, func.count()).group_by(table.tenant)
                .order_by(func.count().desc()).limit(limit))).all():
            counts[tenant] += n
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]


def _question(row) -> CachedQuestion:
    return CachedQuestion(row.id, row.scope, row.tenant, row.model, row.query_text, row.hits, row.size_bytes,
                          row.created_at, row.answer_sha256 == CONTESTED)


_QUESTION_COLUMNS = (SemanticCacheEntry.id, SemanticCacheEntry.scope, SemanticCacheEntry.tenant,
                     SemanticCacheEntry.model, SemanticCacheEntry.query_text, SemanticCacheEntry.hits,
                     SemanticCacheEntry.size_bytes, SemanticCacheEntry.created_at, SemanticCacheEntry.answer_sha256)


async def most_hit_questions(conn: AsyncConnection, limit: int = 20) -> list[CachedQuestion]:
    """Semantic-cache questions that answered most often."""
    rows = (await conn.execute(select(*_QUESTION_COLUMNS).where(SemanticCacheEntry.hits > 0)
                               .order_by(SemanticCacheEntry.hits.desc(), SemanticCacheEntry.id).limit(limit))).all()
    return [_question(r) for r in rows]


async def contested_questions(conn: AsyncConnection, limit: int = 20) -> list[CachedQuestion]:
    """Questions stored with two different answers: never served to a paraphrase."""
    rows = (await conn.execute(select(*_QUESTION_COLUMNS).where(SemanticCacheEntry.answer_sha256 == CONTESTED)
                               .order_by(SemanticCacheEntry.created_at.desc()).limit(limit))).all()
    return [_question(r) for r in rows]


async def recent_entries(conn: AsyncConnection, limit: int = 20) -> list[dict[str, Any]]:
    """The most recently used entries of both caches (kind, id, scope, tenant, model, question,
    hits, bytes, stored and last used), through the caches' ``last_access_at`` indexes."""
    exact = (await conn.execute(
        select(ExactCacheEntry.key, ExactCacheEntry.scope, ExactCacheEntry.tenant, ExactCacheEntry.model,
               ExactCacheEntry.hits, ExactCacheEntry.size_bytes, ExactCacheEntry.created_at,
               ExactCacheEntry.last_access_at)
        .order_by(ExactCacheEntry.last_access_at.desc()).limit(limit))).all()
    semantic = (await conn.execute(select(*_QUESTION_COLUMNS, SemanticCacheEntry.last_access_at)
                                   .order_by(SemanticCacheEntry.last_access_at.desc()).limit(limit))).all()
    rows = [{"kind": "exact", "id": k, "scope": s, "tenant": t, "model": m, "question": None, "hits": h,
             "bytes": b, "created_at": c, "used_at": u} for k, s, t, m, h, b, c, u in exact]
    rows += [{"kind": "semantic", "id": str(r.id), "scope": r.scope, "tenant": r.tenant, "model": r.model,
              "question": r.query_text, "hits": r.hits, "bytes": r.size_bytes, "created_at": r.created_at,
              "used_at": r.last_access_at} for r in semantic]
    return sorted(rows, key=lambda r: -r["used_at"])[:limit]


__all__ = ["BUCKETS", "Bucket", "CacheGroup", "CachedQuestion", "FeedbackSummary", "LatencyRow", "RequestDetail",
           "RequestFilter", "SAVING_CAUSES", "TimeRange", "UpstreamRow", "cache_groups", "cache_tenants", "cascade_outcomes",
           "contested_questions", "distinct_values", "feedback_summary", "latency_by_model", "list_requests",
           "most_hit_questions", "percentile", "recent_entries", "refresh_rollups", "request_detail", "request_groups",
           "score_histogram", "time_series", "totals", "upstream_stats"]


# --- batch jobs and API keys ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BatchRow:
    """One batch job as the UI lists it, with what its lines cost and saved."""

    id: str
    key_id: str
    endpoint: str
    status: str
    created_at: datetime
    expires_at: datetime
    urgent: bool
    total: int
    completed: int
    failed: int
    requests_logged: int
    cost_usd: float
    batch_saved_usd: float
    saved_usd: float


async def recent_batches(conn: AsyncConnection, limit: int = 50) -> list[BatchRow]:
    """The newest batches with their logged cost and savings (final batches carry their counts;
    running ones are counted from their lines by the Batches API, shown here as logged requests)."""
    batches = (await conn.execute(select(Batch).order_by(Batch.created_at.desc()).limit(limit))).all()
    if not batches:
        return []
    ids = [b.id for b in batches]
    money = {row[0]: row[1:] for row in (await conn.execute(
        select(RequestLog.batch_id, func.count(), func.sum(RequestLog.cost_usd), func.sum(RequestLog.batch_saved_usd),
               func.sum(RequestLog.saved_usd))
        .where(RequestLog.batch_id.in_(ids)).group_by(RequestLog.batch_id))).all()}
    out = []
    for b in batches:
        n, cost, batch_saved, saved = money.get(b.id, (0, 0.0, 0.0, 0.0))
        out.append(BatchRow(b.id, b.key_id, b.endpoint, b.status, _as_utc(b.created_at), _as_utc(b.expires_at),
                            bool(b.urgent), b.total, b.completed, b.failed, int(n or 0), float(cost or 0.0),
                            float(batch_saved or 0.0), float(saved or 0.0)))
    return out


async def api_keys(conn: AsyncConnection) -> list[dict[str, Any]]:
    """Issued API keys (no secret: only the shown prefix) with their spend over the last 30 days."""
    keys = (await conn.execute(select(ApiKey).order_by(ApiKey.created_at))).all()
    since = datetime.now(UTC) - timedelta(days=30)
    spend = {row[0]: row[1:] for row in (await conn.execute(
        select(RequestLog.key_id, func.count(), func.sum(RequestLog.cost_usd))
        .where(RequestLog.key_id.in_([k.id for k in keys]), RequestLog.created_at >= since)
        .group_by(RequestLog.key_id))).all()} if keys else {}
    return [{"id": k.id, "name": k.name, "prefix": k.prefix,
             "models": json.loads(k.models) if k.models else None, "budget_usd": k.budget_usd,
             "budget_period": k.budget_period, "rpm": k.rpm, "tpm": k.tpm, "created_at": _as_utc(k.created_at),
             "revoked_at": _as_utc(k.revoked_at) if k.revoked_at else None,
             "requests_30d": int(spend.get(k.id, (0, 0.0))[0] or 0),
             "cost_30d": float(spend.get(k.id, (0, 0.0))[1] or 0.0)} for k in keys]

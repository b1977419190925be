"""The overview's numbers: requests, tokens, cache outcomes, cost and saving by cause per hour or
day, from hourly rollups of the request log (``request_log_hourly``) for settled hours and straight
from the log for the rest."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import Integer, and_, case, cast, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection

from proxy.storage.db import RequestLog, RequestLogHourly
from proxy.storage.stats.ranges import BUCKETS, TimeRange, as_utc, truncate

log = logging.getLogger(__name__)

#: the saving causes the overview splits ``saved_usd`` into (``other``: none of these applies)
SAVING_CAUSES = ("exact_cache", "semantic_cache", "routing", "cascade", "batch", "other")


SCORE_BINS = 20  # route-score histogram bins over [0, 1]
#: closed hours of the request log are pre-aggregated (``request_log_hourly``) once they are this old,
#: so that a request still running when its hour ended is counted in it
ROLLUP_SETTLE = timedelta(hours=1)
ROLLUP_VERSION = 1  # bump when Bucket's content changes: stored rollups of another version are recomputed


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


def _bucket_expr(dialect: str, bucket: str):
    if bucket not in BUCKETS:
        raise ValueError(f"bucket must be one of {BUCKETS}, got {bucket!r}")
    if dialect == "postgresql":
        return func.date_trunc(bucket, func.timezone("UTC", RequestLog.created_at))
    fmt = "%Y-%m-%d %H:00:00" if bucket == "hour" else "%Y-%m-%d 00:00:00"
    return func.strftime(fmt, RequestLog.created_at)


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
        bucket = Bucket(as_utc(row[0]), *[int(v or 0) for v in row[1:5]])
        for name, v in zip(_COUNTS[4:], row[5:10], strict=True):
            setattr(bucket, name, int(v or 0))
        bucket.cost_usd, bucket.saved_usd = float(row[10] or 0.0), float(row[11] or 0.0)
        bucket.saved_by = {name: float(v or 0.0) for name, v in zip(causes, row[12:], strict=True)}
        found[bucket.start] = bucket
    index = _score_bin(dialect)
    for hour, i, n in (await conn.execute(
            select(b, index, func.count()).where(in_range, RequestLog.route_score.is_not(None))
            .group_by(b, index))).all():
        found[as_utc(hour)].score_hist[min(max(int(i), 0), SCORE_BINS - 1)] += n
    for hour, outcome, n in (await conn.execute(
            select(b, RequestLog.cascade_outcome, func.count())
            .where(in_range, RequestLog.cascade_outcome.is_not(None))
            .group_by(b, RequestLog.cascade_outcome))).all():
        found[as_utc(hour)].cascade[outcome] = n
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
    found = {as_utc(h): Bucket.from_json(as_utc(h), data) for h, data in rows}
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
    last = truncate((now or datetime.now(UTC)) - ROLLUP_SETTLE, "hour")
    await _rolled_up(conn, last - timedelta(days=days), last)


async def time_series(conn: AsyncConnection, rng: TimeRange, *, now: datetime | None = None,
                      rollups: bool = True) -> list[Bucket]:
    """One :class:`Bucket` per hour or day of the range (empty buckets included).

    Whole hours that ended at least :data:`ROLLUP_SETTLE` ago come from the hourly rollups
    (computed on first use); the edges of the range and the recent hours from the request log.
    """
    now = now or datetime.now(UTC)
    hours: dict[datetime, Bucket] = {}
    first = truncate(rng.start, "hour")
    if first < rng.start:
        first += timedelta(hours=1)
    last = min(truncate(rng.end, "hour"), truncate(now - ROLLUP_SETTLE, "hour"))
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
        target = out.get(truncate(hour, rng.bucket))
        if target is not None:
            target.add(bucket)
    return list(out.values())


def totals(buckets: list[Bucket]) -> Bucket:
    """The sum of ``buckets`` (its ``start`` is the first bucket's)."""
    total = Bucket(buckets[0].start if buckets else datetime.now(UTC))
    for b in buckets:
        total.add(b)
    return total

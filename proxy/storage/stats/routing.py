"""The routing page's numbers: cascade outcomes, the route-score histogram and feedback received."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Integer, and_, cast, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from proxy.storage.db import Feedback
from proxy.storage.stats.ranges import TimeRange, as_utc
from proxy.storage.stats.time_series import time_series, totals


async def cascade_outcomes(conn: AsyncConnection, rng: TimeRange) -> dict[str, int]:
    """Requests per cascade outcome (accepted, escalated, escalation_failed) in the range."""
    return totals(await time_series(conn, rng)).cascade


async def score_histogram(conn: AsyncConnection, rng: TimeRange) -> list[int]:
    """Counts of routed requests' scores in :data:`~proxy.storage.stats.time_series.SCORE_BINS` equal bins over [0, 1]."""
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
                           [(as_utc(c), r, s, float(sc), cm) for c, r, s, sc, cm in latest])

"""Time ranges of the statistics: ``[start, end)`` in UTC, shown in hour or day buckets, and the
request-log filter and timestamp reading every page's queries share."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import and_

from proxy.storage.db import RequestLog

BUCKETS = ("hour", "day")


@dataclass(frozen=True, slots=True)
class TimeRange:
    """``[start, end)`` in UTC, shown in ``bucket`` steps (``hour`` or ``day``)."""

    start: datetime
    end: datetime
    bucket: str = "hour"

    def bucket_starts(self) -> list[datetime]:
        """Every bucket start from the bucket holding ``start`` up to ``end``."""
        step = timedelta(hours=1) if self.bucket == "hour" else timedelta(days=1)
        first = truncate(self.start, self.bucket)
        out = []
        t = first
        while t < self.end:
            out.append(t)
            t += step
        return out


def truncate(t: datetime, bucket: str) -> datetime:
    t = t.astimezone(UTC) if t.tzinfo else t.replace(tzinfo=UTC)
    t = t.replace(minute=0, second=0, microsecond=0)
    return t.replace(hour=0) if bucket == "day" else t


def as_utc(value: Any) -> datetime:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def created_in(rng: TimeRange):
    return and_(RequestLog.created_at >= rng.start, RequestLog.created_at < rng.end)

"""Query-string parameters of the UI pages: parsed strictly, with a clear message on bad input."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from proxy.storage.stats.ranges import TimeRange
from proxy.storage.stats.requests import RequestFilter

PRESETS = {"1h": timedelta(hours=1), "24h": timedelta(hours=24), "7d": timedelta(days=7),
           "30d": timedelta(days=30), "90d": timedelta(days=90)}
DEFAULT_PRESET = "24h"
MAX_RANGE = timedelta(days=400)
MAX_BUCKETS = 24 * 31  # hour buckets: at most a month
CACHE_OUTCOMES = ("exact", "semantic", "miss", "bypass")
ROUTES = ("small", "large", "none")
MAX_TEXT = 200
# the times a page accepts: the request log holds nothing outside them, and the range arithmetic
# (a date's whole day, a default start, bucket steps) stays far from datetime's year 1 and 9999
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(9999, 1, 1, tzinfo=UTC)
MAX_DIGITS = 32  # longer digit strings are refused before int() (which gives up past 4300 digits)


class BadParameter(ValueError):
    """A query parameter the page cannot use; the message says which and what is allowed."""


def _one(query: Mapping[str, str], name: str) -> str:
    return (query.get(name) or "").strip()


def ascii_int(value: str, low: int, high: int) -> int | None:
    """``value`` as an integer when it is plain ASCII digits within ``[low, high]``, else ``None``
    (``str.isdigit`` alone lets ``²`` or ``٢`` through, which ``int()`` then refuses or accepts)."""
    if not value or len(value) > MAX_DIGITS or not (value.isascii() and value.isdigit()):
        return None
    number = int(value)
    return number if low <= number <= high else None


def parse_time(value: str, name: str) -> datetime:
    """``YYYY-MM-DD``, ``YYYY-MM-DDTHH:MM[:SS]`` (UTC unless an offset is given), from
    :data:`EARLIEST` up to (not including) :data:`LATEST`."""
    try:
        t = datetime.fromisoformat(value)
    except ValueError:
        raise BadParameter(f"{name} must be a date or time like 2026-01-31 or 2026-01-31T14:00, "
                           f"got {value!r}") from None
    out_of_range = BadParameter(f"{name} must be between {EARLIEST:%Y-%m-%d} and "
                                f"{LATEST - timedelta(days=1):%Y-%m-%d}, got {value!r}")
    try:
        t = t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)
    except OverflowError:  # 0001-01-01T00:00+14:00 is before year 1 in UTC
        raise out_of_range from None
    if not EARLIEST <= t < LATEST:
        raise out_of_range
    return t


def parse_range(query: Mapping[str, str], now: datetime | None = None) -> tuple[TimeRange, str]:
    """The time range and bucket of a page, and the preset name (``custom`` for start/end)."""
    now = now or datetime.now(UTC)
    preset = _one(query, "range") or DEFAULT_PRESET
    start_s, end_s = _one(query, "start"), _one(query, "end")
    if start_s or end_s:
        preset = "custom"
        end = parse_time(end_s, "end") if end_s else now
        start = parse_time(start_s, "start") if start_s else end - PRESETS[DEFAULT_PRESET]
        if len(end_s) == 10:  # a date: the whole day
            end += timedelta(days=1)
    elif preset in PRESETS:
        end, start = now, now - PRESETS[preset]
    else:
        raise BadParameter(f"range must be one of {', '.join(PRESETS)}, got {preset!r}")
    if start >= end:
        raise BadParameter("start must be before end")
    if end - start > MAX_RANGE:
        raise BadParameter(f"a range can span at most {MAX_RANGE.days} days")
    bucket = _one(query, "bucket") or "auto"
    if bucket == "auto":
        bucket = "hour" if end - start <= timedelta(days=3) else "day"
    elif bucket not in ("hour", "day"):
        raise BadParameter(f"bucket must be auto, hour or day, got {bucket!r}")
    if bucket == "hour" and (end - start) > timedelta(hours=MAX_BUCKETS):
        raise BadParameter(f"hour buckets cover at most {MAX_BUCKETS // 24} days; choose day buckets")
    return TimeRange(start, end, bucket), preset


def parse_request_filter(query: Mapping[str, str]) -> RequestFilter:
    """Filters of the request list (``q``, ``model``, ``key``, ``route``, ``cache``, ``status``,
    ``start``, ``end``)."""
    text = _one(query, "q")
    for name in ("q", "model", "key"):
        if len(_one(query, name)) > MAX_TEXT:
            raise BadParameter(f"{name} is limited to {MAX_TEXT} characters")
    route = _one(query, "route")
    if route and route not in ROUTES:
        raise BadParameter(f"route must be one of {', '.join(ROUTES)}, got {route!r}")
    cache = _one(query, "cache")
    if cache and cache not in CACHE_OUTCOMES:
        raise BadParameter(f"cache must be one of {', '.join(CACHE_OUTCOMES)}, got {cache!r}")
    status = _one(query, "status")
    if status and status not in ("ok", "error") and ascii_int(status, 100, 599) is None:
        raise BadParameter(f"status must be ok, error or an HTTP status code (100-599), got {status!r}")
    start = parse_time(_one(query, "start"), "start") if _one(query, "start") else None
    end = parse_time(_one(query, "end"), "end") if _one(query, "end") else None
    if end is not None and len(_one(query, "end")) == 10:
        end += timedelta(days=1)
    return RequestFilter(text=text or None, model=_one(query, "model") or None, key_id=_one(query, "key") or None,
                         route=route or None, cache=cache or None, status=status or None, start=start, end=end)


def parse_cursor(query: Mapping[str, str]) -> tuple[datetime, str] | None:
    """The ``before`` cursor of the request list: ``<ISO time>~<request id>``."""
    raw = _one(query, "before")
    if not raw:
        return None
    when, sep, request_id = raw.partition("~")
    if not sep or not request_id:
        raise BadParameter("before must look like <time>~<request id> (use the page's Older link)")
    return parse_time(when, "before"), request_id


def make_cursor(created_at: datetime, request_id: str) -> str:
    return f"{created_at.astimezone(UTC).isoformat()}~{request_id}"

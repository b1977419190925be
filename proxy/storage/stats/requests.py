"""The request log as the admin API groups it and as the UI lists, filters and opens it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncConnection

from proxy.storage.db import Feedback, RequestLog, RouterRequest
from proxy.storage.stats.ranges import TimeRange, as_utc, created_in


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
        row["created_at"] = as_utc(row["created_at"])
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
    row["created_at"] = as_utc(row["created_at"])
    stored = (await conn.execute(select(RouterRequest.request).where(RouterRequest.request_id == request_id))).scalar()
    feedback = (await conn.execute(
        select(Feedback.created_at, Feedback.source, Feedback.score, Feedback.comment)
        .where(Feedback.request_id == request_id).order_by(Feedback.created_at))).all()
    return RequestDetail(row, stored, [(as_utc(c), s, float(sc), cm) for c, s, sc, cm in feedback])


async def distinct_values(conn: AsyncConnection, rng: TimeRange, column: str, limit: int = 50) -> list[str]:
    """The most frequent values of a request-log column in the range (filter choices)."""
    col = getattr(RequestLog, column)
    rows = (await conn.execute(
        select(col, func.count().label("n")).where(created_in(rng), col.is_not(None))
        .group_by(col).order_by(func.count().desc()).limit(limit))).all()
    return [v for v, _ in rows]

"""Quality signals for routing: explicit feedback from callers and automatic checks."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from dataclasses import dataclass
from typing import Any

import msgspec
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.storage.db import Feedback, RequestLog
from proxy.wire.errors import InvalidRequest, NotFound

MAX_COMMENT_CHARS = 4000
LOG_WRITE_ALLOWANCE_S = 1.0  # beyond one flush interval, how long a queued log entry may take to be written
LOG_POLL_S = 0.05  # how often a request not logged yet is looked for again


class FeedbackBody(msgspec.Struct, forbid_unknown_fields=True):
    request_id: str
    score: float
    comment: str | None = None


@dataclass(frozen=True, slots=True)
class FeedbackRecord:
    request_id: str
    key_id: str
    score: float
    source: str
    comment: str | None = None


def parse_feedback(data: dict[str, Any]) -> FeedbackBody:
    """Validate a ``POST /v1/feedback`` body: ``{"request_id": str, "score": 0..1, "comment"?: str}``."""
    try:
        body = msgspec.convert(data, FeedbackBody)
    except msgspec.ValidationError as exc:
        text = str(exc)
        param = text.split("`$.", 1)[1].split("`", 1)[0] if "`$." in text else None
        raise InvalidRequest(f"invalid feedback: {text}; expected {{\"request_id\": str, \"score\": 0..1, "
                             f"\"comment\": str (optional)}}", param=param) from None
    if not body.request_id.strip() or len(body.request_id) > 64:
        raise InvalidRequest("'request_id' must be the x-request-id of an earlier response", param="request_id")
    if not 0.0 <= body.score <= 1.0:
        raise InvalidRequest(f"'score' must be between 0 (bad) and 1 (good), got {body.score}", param="score")
    if body.comment is not None and len(body.comment) > MAX_COMMENT_CHARS:
        raise InvalidRequest(f"'comment' is limited to {MAX_COMMENT_CHARS} characters", param="comment")
    return body


def json_output_check(request: dict[str, Any], response: dict[str, Any]) -> float | None:
    """Automatic check: 1.0 if JSON output was requested and every choice parses as JSON, 0.0 if not,
    None when the request did not ask for JSON."""
    fmt = (request.get("response_format") or {}).get("type")
    if fmt not in ("json_object", "json_schema"):
        return None
    for choice in response.get("choices") or []:
        content = (choice.get("message") or {}).get("content") or ""
        try:
            json.loads(content)
        except (TypeError, ValueError):
            return 0.0
    return 1.0


async def store_feedback(engine: AsyncEngine, records: list[FeedbackRecord]) -> None:
    async with engine.begin() as conn:
        await conn.execute(insert(Feedback), [
            {"request_id": r.request_id, "key_id": r.key_id, "score": r.score, "source": r.source,
             "comment": r.comment} for r in records])


async def logged_request_id(engine: AsyncEngine, request_id: str, key_id: str) -> str | None:
    """The request-log row id of request ``request_id`` made by caller ``key_id``, or ``None``.

    ``request_id`` is the proxy's own id or the caller's ``x-request-id``; a caller that repeated its
    id means its latest request with it."""
    for column in (RequestLog.id, RequestLog.client_request_id):
        query = (select(RequestLog.id).where(column == request_id, RequestLog.key_id == key_id)
                 .order_by(RequestLog.created_at.desc()).limit(1))
        async with engine.connect() as conn:
            found = (await conn.execute(query)).scalar_one_or_none()
        if found is not None:
            return found
    return None


async def request_logged(engine: AsyncEngine, request_id: str, key_id: str) -> bool:
    """Whether the request log holds request ``request_id`` made by caller ``key_id``."""
    return await logged_request_id(engine, request_id, key_id) is not None


async def _await_logged(engine: AsyncEngine, request_id: str, key_id: str, wait_s: float) -> str | None:
    """:func:`logged_request_id`, asked again until it is found or ``wait_s`` has passed."""
    deadline = time.monotonic() + wait_s
    while (found := await logged_request_id(engine, request_id, key_id)) is None:
        if time.monotonic() >= deadline:
            return None
        await asyncio.sleep(LOG_POLL_S)
    return found


async def accept_feedback(engine: AsyncEngine, record: FeedbackRecord, *, flush_interval_s: float) -> None:
    """Store a caller's explicit feedback (``POST /v1/feedback``) on one of its own requests.

    Raises :class:`NotFound` (404) unless the request log holds ``record.request_id`` made by
    ``record.key_id``: an unknown id and another key's request get the same answer, so a caller can
    neither score nor discover other tenants' requests. A request answered a moment ago may still
    be queued for the log (written every ``flush_interval_s``, ``[proxy] log_flush_interval_s``):
    it is looked for until one flush interval and :data:`LOG_WRITE_ALLOWANCE_S` have passed."""
    wait_s = flush_interval_s + LOG_WRITE_ALLOWANCE_S
    row_id = await _await_logged(engine, record.request_id, record.key_id, wait_s)
    if row_id is None:
        raise NotFound(f"no request {record.request_id!r} was made with this API key",
                       param="request_id", code="request_not_found")
    await store_feedback(engine, [dataclasses.replace(record, request_id=row_id)])  # stored under the row id

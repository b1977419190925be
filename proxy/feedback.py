"""Quality signals for routing: explicit feedback from callers and automatic checks."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import msgspec
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.db import Feedback
from proxy.errors import InvalidRequest

MAX_COMMENT_CHARS = 4000


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

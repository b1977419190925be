"""Reading an answer's payload: its shape, first choice, usage, requested structure; header-safe text.

Shared by the pipeline's stages (forwarding, the cascade, streaming, cost accounting).
"""

from __future__ import annotations

import logging
import math
from typing import Any

from proxy.wire.errors import ThriftyError
from proxy.wire.json_schemas import answer_problem

log = logging.getLogger(__name__)


def malformed_answer(payload: dict[str, Any]) -> str | None:
    """What is wrong with a 2xx completion body's shape, or None when clients can read it."""
    choices = payload.get("choices")
    if not isinstance(choices, list):
        return "'choices' is not a list"
    for choice in choices:
        if not isinstance(choice, dict):
            return "a choice is not an object"
        if "message" in choice:
            message = choice["message"]
            if not isinstance(message, dict):
                return "'message' is not an object"
            if not isinstance(message.get("content"), str | None):
                return "'message.content' is neither a string nor null"
        elif "text" in choice:
            if not isinstance(choice["text"], str):
                return "'text' is not a string"
        else:
            return "a choice has neither 'message' nor 'text'"
    usage = payload.get("usage")
    if usage is not None and not isinstance(usage, dict):
        return "'usage' is not an object"
    return None


def failure_of(exc: Exception) -> tuple[int, str]:
    """Status and log text of a request that failed with ``exc`` before it was logged: a
    ``ThriftyError``'s own, else a 500 naming only the exception's type (its text, which may hold
    internals, is in the proxy log with the request id)."""
    if isinstance(exc, ThriftyError):
        return exc.status, exc.message
    return 500, f"internal error ({type(exc).__name__}); see the proxy log"


def float_or_none(value: Any) -> float | None:
    """A JSON number as a float; anything else (missing, a string) as None."""
    return float(value) if isinstance(value, int | float) else None


def header_number(value: float) -> str:
    """A score for a response header: four decimals, ``nan`` when unknown."""
    return "nan" if math.isnan(value) else f"{value:.4f}"


def first_choice(payload: dict[str, Any]) -> tuple[str | None, str | None]:
    """Text and finish reason of a chat completion's first choice (``None`` where missing: no
    choices, tool calls only...)."""
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None, None
    message = choices[0].get("message")
    content = message.get("content") if isinstance(message, dict) else None
    finish_reason = choices[0].get("finish_reason")
    return (content if isinstance(content, str) else None,
            finish_reason if isinstance(finish_reason, str) else None)


def header_text(text: str, limit: int = 200) -> str:
    """``text`` safe for an HTTP header value: control characters (newlines in upstream error
    messages...) become spaces, non-ASCII becomes '?', at most ``limit`` characters."""
    cleaned = "".join(" " if ord(ch) < 32 or ord(ch) == 127 else ch for ch in text[:limit])
    return cleaned.encode("ascii", "replace").decode()


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one (for upstream fields of any shape)."""
    return value if isinstance(value, dict) else {}


def usage_tokens(usage: Any) -> tuple[int | None, int | None, int | None]:
    """``(prompt, completion, cached prompt)`` token counts of an OpenAI ``usage`` object; an
    upstream's malformed or missing values count as unknown."""
    usage = as_dict(usage)
    return (int_or_none(usage.get("prompt_tokens")), int_or_none(usage.get("completion_tokens")),
            int_or_none(as_dict(usage.get("prompt_tokens_details")).get("cached_tokens")))


def int_or_none(value: Any) -> int | None:
    """A non-negative JSON integer (not a boolean), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def structure_problem(body: dict[str, Any], payload: dict[str, Any]) -> str | None:
    """Why ``payload`` fails the structure (``response_format``, forced or offered tools) ``body`` asked for;
    ``None`` when it asked for none or the answer complies."""
    if not (body.get("response_format") or body.get("tools")):
        return None
    try:
        return answer_problem(body, payload)
    except Exception as exc:  # a checker failure must not fail the request
        log.warning("structure check failed: %r", exc)
        return None

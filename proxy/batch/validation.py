"""Line-by-line validation of a batch input file, before any line runs.

Each line must be ``{"custom_id": str, "method": "POST", "url": <the batch's endpoint>, "body": {...}}``
with a unique ``custom_id``, a known model and a body the endpoint accepts, no larger than an
interactive request may be (``[proxy] max_body_bytes``). Every problem is reported with its 1-based
line number, as OpenAI reports them in ``batch.errors``.

Lines end at a line feed only (CR LF is tolerated): JSON strings may hold raw U+2028, U+2029 or
U+0085, which :meth:`str.splitlines` would also break at. Blank lines are ignored, and so is a
leading UTF-8 byte-order mark.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import msgspec

from jsonl_text import jsonl_lines
from proxy.embeddings.request import validate_embeddings
from proxy.responses.translate import validate_responses
from proxy.wire.errors import ThriftyError
from proxy.wire.schemas import validate_chat, validate_completion

ENDPOINTS: dict[str, tuple[str, Callable[[dict[str, Any]], Any]]] = {
    "/v1/chat/completions": ("chat", validate_chat),
    "/v1/completions": ("completions", validate_completion),
    "/v1/embeddings": ("embeddings", validate_embeddings),
    "/v1/responses": ("responses", validate_responses),
}
MAX_REPORTED_ERRORS = 1000  # like OpenAI, a hopeless file is not reported line by line to the end
MAX_CUSTOM_ID = 512


@dataclass(frozen=True, slots=True)
class BatchLineSpec:
    """One valid input line."""

    line_no: int
    custom_id: str
    body: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LineError:
    """One reason the batch cannot run: OpenAI's ``{code, message, param, line}``."""

    code: str
    message: str
    line: int | None = None
    param: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "param": self.param, "line": self.line}


def validate_batch_input(text: str, endpoint: str, known_models: Collection[str], max_lines: int,
                         max_body_bytes: int | None = None) -> tuple[list[BatchLineSpec], list[LineError]]:
    """Parse and check every line; the batch may run only when the error list is empty.
    ``max_body_bytes``: the largest request body (as JSON) a line may hold; None: no limit."""
    _, check_body = ENDPOINTS[endpoint]
    specs: list[BatchLineSpec] = []
    errors: list[LineError] = []
    seen: dict[str, int] = {}
    for number, raw in jsonl_lines(text):
        if len(errors) >= MAX_REPORTED_ERRORS:
            break
        spec, error = _check_line(number, raw, endpoint, check_body, known_models, max_body_bytes)
        if error is not None:
            errors.append(error)
            continue
        assert spec is not None
        if spec.custom_id in seen:
            errors.append(LineError("duplicate_custom_id", f"custom_id {spec.custom_id!r} is already used on line "
                                    f"{seen[spec.custom_id]}; every line needs its own", number, "custom_id"))
            continue
        seen[spec.custom_id] = number
        specs.append(spec)
    if not specs and not errors:
        errors.append(LineError("empty_file", "the input file has no request lines"))
    if len(specs) > max_lines:
        errors.append(LineError("too_many_requests", f"the input file has {len(specs)} requests; the limit is "
                                f"{max_lines} per batch ([batch] max_lines)"))
    return specs, errors


def _check_line(number: int, raw: str, endpoint: str, check_body, known_models: Collection[str],
                max_body_bytes: int | None) -> tuple[BatchLineSpec | None, LineError | None]:
    try:
        item = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        return None, LineError("invalid_json_line", f"line is not valid JSON: {exc}", number)
    if not isinstance(item, dict):
        return None, LineError("invalid_json_line", "line must be a JSON object", number)
    custom_id = item.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id:
        return None, LineError("missing_custom_id", "custom_id must be a non-empty string", number, "custom_id")
    if len(custom_id) > MAX_CUSTOM_ID:
        return None, LineError("invalid_custom_id", f"custom_id is longer than {MAX_CUSTOM_ID} characters", number,
                               "custom_id")
    if str(item.get("method", "")).upper() != "POST":
        return None, LineError("invalid_method", f"method must be POST, got {item.get('method')!r}", number,
                               "method")
    if item.get("url") != endpoint:
        return None, LineError("mismatched_endpoint", f"url is {item.get('url')!r} but the batch's endpoint is "
                               f"{endpoint!r}", number, "url")
    body = item.get("body")
    if not isinstance(body, dict):
        return None, LineError("invalid_body", "body must be a JSON object (the request)", number, "body")
    too_large = _size_error(number, body, max_body_bytes)
    if too_large is not None:
        return None, too_large
    try:
        check_body(body)
    except ThriftyError as exc:
        return None, LineError("invalid_body", exc.message, number, f"body.{exc.param}" if exc.param else "body")
    if body.get("stream"):
        return None, LineError("invalid_body", "stream is not supported in a batch; each answer is written whole",
                               number, "body.stream")
    if body["model"] not in known_models:
        return None, LineError("model_not_found", f"model {body['model']!r} does not exist; available models: "
                               f"{sorted(known_models)}", number, "body.model")
    return BatchLineSpec(number, custom_id, body), None


def _size_error(number: int, body: dict[str, Any], max_body_bytes: int | None) -> LineError | None:
    """The line's request is refused when its body, sent on its own, would be refused with a 413."""
    if max_body_bytes is None:
        return None
    size = len(msgspec.json.encode(body))
    if size <= max_body_bytes:
        return None
    return LineError("request_too_large", f"the request body is {size} bytes; the limit is {max_body_bytes} bytes "
                     "per request ([proxy] max_body_bytes)", number, "body")

"""The proxy's error hierarchy; one exception handler turns each into an OpenAI error body."""

from __future__ import annotations

from typing import Any


class ThriftyError(Exception):
    """Base of every error the proxy answers with; carries the OpenAI error fields."""

    status = 500
    type = "server_error"
    headers: dict[str, str] | None = None  # extra response headers (retry-after...)

    def __init__(self, message: str, param: str | None = None, code: str | None = None,
                 status: int | None = None) -> None:
        super().__init__(message)
        self.message, self.param, self.code = message, param, code
        if status is not None:
            self.status = status

    def body(self) -> dict[str, Any]:
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": self.code}}


class InvalidRequest(ThriftyError):
    status = 400
    type = "invalid_request_error"


class AuthenticationFailed(ThriftyError):
    status = 401
    type = "authentication_error"


class AdminDisabled(ThriftyError):
    """The admin API is switched off (no admin key configured)."""

    status = 403
    type = "permission_error"


class Unavailable(ThriftyError):
    """A dependency (the database, say) is down; retrying later may work."""

    status = 503
    type = "server_error"


class NotFound(ThriftyError):
    status = 404
    type = "invalid_request_error"


class UpstreamError(ThriftyError):
    """The upstream answered badly (502), was unreachable (503) or too slow (504)."""

    status = 502
    type = "upstream_error"


class PermissionDenied(ThriftyError):
    """The caller's key may not do this (a model outside its list)."""

    status = 403
    type = "permission_error"


class Conflict(ThriftyError):
    """The object is in a state that refuses the request (cancelling a finished batch)."""

    status = 409
    type = "invalid_request_error"


class PayloadTooLarge(ThriftyError):
    status = 413
    type = "invalid_request_error"


class RateLimited(ThriftyError):
    """Over a key's requests or tokens per minute (``type`` becomes ``tokens`` for TPM)."""

    status = 429
    type = "requests"


class QuotaExceeded(ThriftyError):
    """Over a key's budget: OpenAI's ``insufficient_quota``."""

    status = 429
    type = "insufficient_quota"


class RequestTimeout(ThriftyError):
    """The client sent its request body too slowly."""

    status = 408
    type = "invalid_request_error"


def default_error_type(status: int) -> str:
    """The OpenAI error ``type`` of an HTTP status, for an error body that names none."""
    if status == 401:
        return "authentication_error"
    if status == 403:
        return "permission_error"
    if status == 429:
        return "requests"
    if status >= 500:
        return "server_error"
    return "invalid_request_error"


def _error_fields(payload: Any) -> dict[str, Any]:
    """The part of an upstream's error body that holds message, type, param and code: OpenAI's
    ``{"error": {...}}``, ``{"error": "text"}``, vLLM's top-level ``{"message", "type", "code"}``
    or FastAPI's ``{"detail": ...}``."""
    if not isinstance(payload, dict):
        return {}
    error = payload.get("error")
    if isinstance(error, dict):
        return error
    if isinstance(error, str):
        return {"message": error}
    if "message" in payload:
        return payload
    if "detail" in payload:
        return {"message": _detail_text(payload["detail"])}
    return {}


def _detail_text(detail: Any) -> Any:
    """FastAPI's ``detail``: a string, or a list of validation errors (``{"loc", "msg", "type"}``)
    joined into one line."""
    if isinstance(detail, list) and detail and all(isinstance(d, dict) and "msg" in d for d in detail):
        return "; ".join(".".join(map(str, d.get("loc") or ())) + (": " if d.get("loc") else "") + str(d["msg"])
                         for d in detail)
    return detail


def error_message(payload: Any, status: int | None = None) -> str:
    """The one reader of an error body's message, whatever answered: OpenAI (``{"error": {"message"}}``
    or ``{"error": "text"}``), vLLM (a top-level ``message``), FastAPI (``detail``: text or validation
    errors) or a body that is plain text. Without a message: ``the upstream answered with status N``
    when ``status`` is known, else ``unknown error``."""
    message = _error_fields(payload).get("message")
    if isinstance(message, str) and message.strip():
        return message
    if message is not None and message != "":
        return str(message)
    if isinstance(payload, str) and payload.strip():
        return payload.strip()
    return f"the upstream answered with status {status}" if status is not None else "unknown error"


def openai_error_body(payload: Any, status: int) -> dict[str, Any]:
    """A complete OpenAI error object (``message``, ``type``, ``param``, ``code``) for an upstream's
    error answer with HTTP ``status``, keeping what the upstream said where it said it; a missing
    type comes from the status (a 429 is ``requests`` / ``rate_limit_exceeded``, as OpenAI's)."""
    fields = _error_fields(payload)
    text = error_message(payload if isinstance(payload, dict) else None, status)
    kind = fields.get("type")
    param = fields.get("param")
    code = fields.get("code")
    if isinstance(code, int | float) and not isinstance(code, bool):
        code = str(code)  # vLLM's numeric code; OpenAI's codes are strings
    if not isinstance(code, str) or not code:
        code = "rate_limit_exceeded" if status == 429 else None
    return {"error": {"message": text,
                      "type": kind if isinstance(kind, str) and kind else default_error_type(status),
                      "param": param if isinstance(param, str) else None,
                      "code": code}}

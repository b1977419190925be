"""Logging: one format for every line (``text`` or ``json``), the current request's id on every
line written while it is handled, and one access line per finished request."""

from __future__ import annotations

import contextvars
import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

#: the id of the request being handled (set by the request-id middleware)
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("thrifty_request_id", default=None)
LOG_FORMATS = ("text", "json")
ACCESS_LOGGER = "thrifty.access"
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime", "request_id"}


class _RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = REQUEST_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id and any ``extra`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
                               "level": record.levelname.lower(), "logger": record.name,
                               "msg": record.getMessage()}
        if getattr(record, "request_id", None):
            out["request_id"] = record.request_id
        out.update({k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")})
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


class TextFormatter(logging.Formatter):
    """``time level logger [request id]: message key=value...``"""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s%(rid)s: %(message)s%(fields)s")

    def format(self, record: logging.LogRecord) -> str:
        rid = getattr(record, "request_id", None)
        record.rid = f" [{rid}]" if rid else ""
        extra = {k: v for k, v in record.__dict__.items()
                 if k not in _STANDARD and k not in ("rid", "fields") and not k.startswith("_")}
        record.fields = "".join(f" {k}={v}" for k, v in extra.items())
        return super().format(record)


def configure_logging(fmt: str = "text", level: int = logging.INFO) -> None:
    """Route every logger (ours, uvicorn's, libraries') through one handler and format."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    handler.addFilter(_RequestIdFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
    for noisy in ("httpx", "httpcore", "alembic", "faiss", "faiss.loader", "sentence_transformers", "uvicorn.access"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def log_access(entry: Any) -> None:
    """The one line a finished request writes (``thrifty.access`` at INFO)."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not logger.isEnabledFor(logging.INFO):
        return
    logger.info("%s %s %d", entry.endpoint, entry.model_requested, entry.status_code,
                extra={"request_id": entry.client_request_id or entry.id, "log_id": entry.id, "key": entry.key_id,
                       "cache": entry.cache_outcome,
                       "route": entry.route, "upstream": entry.upstream,
                       "latency_ms": round(entry.latency_ms or 0.0, 1),
                       "tokens": f"{entry.prompt_tokens}/{entry.completion_tokens}",
                       **({"error": entry.error} if entry.error else {})})

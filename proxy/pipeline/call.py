"""One request as the pipeline sees it: what the caller asked (:class:`CallContext`), the answer
(:class:`Reply`, :class:`StreamReply`) and the state between stages (:class:`Call`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from proxy.config.sections import ModelAlias
from proxy.storage.request_log import LogEntry

EXTENSION_FIELDS = ("thrifty",)  # ours; never forwarded upstream
LARGE_BODY_BYTES = 256 * 1024
UPSTREAM_PATHS = {"chat": "/chat/completions", "completions": "/completions"}


@dataclass(slots=True)
class CallContext:
    """Per-request facts the pipeline needs."""

    request_id: str
    key_id: str
    endpoint: str  # "chat" | "completions"
    started: float
    cache_control: str | None = None
    batch_id: str | None = None  # a line of this batch job: batch priority upstream, batch discount
    on_finish: Any = None  # called with the finished LogEntry (settles the key's reserved budget)
    body_bytes: int = 0  # size of the request body: large ones are keyed in a worker thread
    client_request_id: str | None = None  # the caller's x-request-id (kept beside request_id, may repeat)


@dataclass(slots=True)
class Reply:
    """A non-streaming answer: status, JSON body and extra headers."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass(slots=True)
class StreamReply:
    """A streaming answer: SSE bytes produced as upstream events arrive."""

    chunks: AsyncIterator[bytes]
    headers: dict[str, str]



@dataclass(slots=True)
class Call:
    """State of one request as it moves through the stages."""

    ctx: CallContext
    data: dict[str, Any]
    alias: ModelAlias
    entry: LogEntry
    headers: dict[str, str] = field(default_factory=dict)
    cache_request: Any = None  # caches.types.CacheRequest
    model_version: str = ""
    tried: tuple[str, ...] = ()  # aliases whose upstream already failed this request


def priority_of(ctx: CallContext) -> str | None:
    """The scheduling class asked of the upstream (``x-thrifty-priority``; the bundled backend
    serves interactive requests first, other upstreams ignore the header)."""
    return "batch" if ctx.batch_id is not None else None

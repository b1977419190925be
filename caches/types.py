"""Values shared by the caches and the ``Cache`` protocol the proxy depends on."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from caches.keys import RequestKeys
from caches.policy import CacheDecision

__all__ = ["SKIP_REASONS", "Cache", "CacheError", "CacheHit", "CacheRequest", "CacheStats"]

SKIP_REASONS = ("too_long", "late", "deadline", "queue_full", "error")
"""Why a semantic lookup was given up and the request forwarded as a miss: the query is longer than
``max_query_chars``; the lookup began after its deadline (the proxy itself was behind: nothing was
embedded); its embedding was not ready by the deadline (or no forward could have finished by then);
the embedding queue was full; or the embedder failed."""


class CacheError(Exception):
    """Raised by invalidation/administration calls when the database fails.

    Lookups and stores never raise it: they degrade to a miss / a refused store with a log line.
    """


@dataclass(frozen=True, slots=True)
class CacheRequest:
    """A request prepared for the caches: its keys and what the policy allows.

    ``ttl_s`` and ``threshold``: the tenant's overrides of the entry lifetime and the semantic
    similarity threshold (``None``: the configured ones).
    """

    keys: RequestKeys
    decision: CacheDecision
    ttl_s: float | None = None
    threshold: float | None = None


@dataclass(frozen=True, slots=True)
class CacheHit:
    """A cached response.

    ``body``: the stored OpenAI response JSON (UTF-8 bytes, as stored); ``kind``: which cache
    answered; ``entry_id``: exact key (exact cache) or row id as a string (semantic cache);
    ``similarity`` and ``matched_query``: for semantic hits, the cosine similarity and the cached
    question that matched; ``created_at``: when the entry was stored (epoch seconds).
    """

    body: bytes
    kind: Literal["exact", "semantic"]
    entry_id: str
    model: str
    model_version: str
    created_at: float
    similarity: float | None = None
    matched_query: str | None = None


@dataclass(frozen=True, slots=True)
class CacheStats:
    """Entry count and stored bytes of one cache (as last counted in the database)."""

    entries: int
    bytes: int


@runtime_checkable
class Cache(Protocol):
    """The proxy's seam to the response caches (implemented by ``ResponseCache``)."""

    def prepare(
        self, body: Mapping[str, Any], *, model: str, tenant: str, cache_control: str | None = None
    ) -> CacheRequest: ...

    async def lookup(
        self,
        request: CacheRequest,
        *,
        model_version: str,
        arrived: float | None = None,
        on_skip: Callable[[str], None] | None = None,
    ) -> CacheHit | None: ...

    async def store(self, request: CacheRequest, response: bytes | str, *, model_version: str) -> bool: ...

"""Which version of a model an upstream serves, so cache entries stop hitting after a model change."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from proxy.config.sections import ModelAlias
from proxy.upstream.client import UpstreamClient
from proxy.wire.errors import ThriftyError

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Known:
    version: str
    fetched_at: float


class ModelVersions:
    """Caches ``upstream/model@version`` strings from each upstream's ``/v1/models`` (TTL bound).

    The version is the configured one if set, else built from the upstream's model entry
    (``version``, ``created`` or ``owned_by`` fields). An unreachable upstream gives a version
    that never matches stored entries, so nothing stale is served.
    """

    def __init__(self, upstream: UpstreamClient, ttl_s: float = 60.0, lookup_timeout_s: float = 2.0) -> None:
        self._upstream = upstream
        self._ttl = ttl_s
        self._lookup_timeout_s = lookup_timeout_s
        self._known: dict[tuple[str, str], _Known] = {}

    async def version(self, alias: ModelAlias) -> str:
        key = (alias.upstream, alias.model)
        known = self._known.get(key)
        now = time.monotonic()
        if known is not None and now - known.fetched_at < self._ttl:
            return known.version
        version = await self._fetch(alias)
        self._known[key] = _Known(version, now)
        return version

    async def _fetch(self, alias: ModelAlias) -> str:
        prefix = f"{alias.upstream}/{alias.model}"
        try:
            # a short bound of its own: a hung /models must not add a whole request timeout
            async with asyncio.timeout(self._lookup_timeout_s):
                reply = await self._upstream.get(alias.upstream, "/models")
        except ThriftyError as exc:
            log.warning("cannot list models of upstream %r: %s", alias.upstream, exc.message)
            return f"{prefix}@unknown-{time.time()}"
        except TimeoutError:
            log.warning("upstream %r did not list its models within %.1f s; its cache entries will not hit for "
                        "%.0f s", alias.upstream, self._lookup_timeout_s, self._ttl)
            return f"{prefix}@unknown-{time.time()}"
        for entry in reply.body.get("data") or []:
            if isinstance(entry, dict) and entry.get("id") == alias.model:
                detail = entry.get("version") or entry.get("created") or entry.get("owned_by") or ""
                return f"{prefix}@{detail}"
        return f"{prefix}@unlisted"

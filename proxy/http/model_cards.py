"""``/v1/models`` entries with what clients read from them: ``created``, ``owned_by`` and, where
known, the context length (``context_window``, and vLLM's name for it, ``max_model_len``).

The facts come from each upstream's own ``/models`` card (read at most once a minute, with a short
timeout); a model its upstream does not describe gets the proxy's start time and ``owned_by``
``thrifty`` (the bundled backend) or its upstream's name.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from proxy.config.sections import BUNDLED_UPSTREAM, ModelAlias
from proxy.config.settings import Settings

log = logging.getLogger(__name__)

CONTEXT_FIELDS = ("max_model_len", "context_window", "context_length", "max_context_length")


class ModelCards:
    """Builds model entries for ``GET /v1/models`` and ``GET /v1/models/{id}``.

    ``public_models``: returns the names to list, in order; ``extra``: fixed cards by name (the
    bundled embedding model); ``upstream``: the proxy's upstream client (``get(name, path)``).
    """

    def __init__(self, settings: Settings, public_models: Callable[[], list[str]], upstream,
                 extra: dict[str, dict[str, Any]] | None = None, ttl_s: float = 60.0, timeout_s: float = 2.0) -> None:
        self._aliases = {alias.name: alias for alias in settings.models}
        self._router = settings.router if settings.router.enabled else None
        self._public = public_models
        self._upstream = upstream
        self._extra = extra or {}
        self._ttl, self._timeout = ttl_s, timeout_s
        self._started = int(time.time())
        self._listed: dict[str, tuple[float, dict[str, dict[str, Any]]]] = {}  # upstream -> (fetched, cards by id)

    async def cards(self) -> list[dict[str, Any]]:
        """Every public model's entry."""
        names = self._public()
        upstreams = {self._aliases[n].upstream for n in names if n in self._aliases}
        await asyncio.gather(*(self._upstream_cards(u) for u in upstreams))
        return [self._card(name) for name in names]

    async def card(self, name: str) -> dict[str, Any] | None:
        """One public model's entry, or None when there is no such model."""
        if name not in self._public():
            return None
        alias = self._aliases.get(name)
        for upstream in ({alias.upstream} if alias else self._tier_upstreams()):
            await self._upstream_cards(upstream)
        return self._card(name)

    def _tier_upstreams(self) -> set[str]:
        if self._router is None:
            return set()
        tiers = (self._router.small_model, self._router.large_model)
        return {self._aliases[t].upstream for t in tiers if t in self._aliases}

    def _card(self, name: str) -> dict[str, Any]:
        if name in self._extra:
            return {"id": name, "object": "model", "created": self._started, "owned_by": "thrifty", **self._extra[name]}
        alias = self._aliases.get(name)
        if alias is not None:
            return self._alias_card(alias)
        card: dict[str, Any] = {"id": name, "object": "model", "created": self._started, "owned_by": "thrifty"}
        if self._router is not None and name == self._router.public_model:
            windows = [self._alias_card(self._aliases[t]).get("context_window")
                       for t in (self._router.small_model, self._router.large_model) if t in self._aliases]
            known = [w for w in windows if isinstance(w, int)]
            if known and len(known) == len(windows):  # a routed request must fit whichever tier answers
                card["context_window"] = card["max_model_len"] = min(known)
        return card

    def _alias_card(self, alias: ModelAlias) -> dict[str, Any]:
        found = self._listed.get(alias.upstream, (0.0, {}))[1].get(alias.model, {})
        created = found.get("created")
        owned_by = found.get("owned_by")
        card: dict[str, Any] = {
            "id": alias.name, "object": "model",
            "created": created if isinstance(created, int) and not isinstance(created, bool) else self._started,
            "owned_by": owned_by if isinstance(owned_by, str) and owned_by else (
                "thrifty" if alias.upstream == BUNDLED_UPSTREAM else alias.upstream)}
        window = next((found[f] for f in CONTEXT_FIELDS
                       if isinstance(found.get(f), int) and not isinstance(found.get(f), bool) and found[f] > 0), None)
        if window is not None:
            card["context_window"] = card["max_model_len"] = window
        return card

    async def _upstream_cards(self, upstream: str) -> None:
        fetched, _ = self._listed.get(upstream, (None, {}))
        if fetched is not None and time.monotonic() - fetched < self._ttl:
            return
        cards: dict[str, dict[str, Any]] = {}
        try:
            async with asyncio.timeout(self._timeout):
                reply = await self._upstream.get(upstream, "/models")
            data = reply.body.get("data") if isinstance(reply.body, dict) else None
            cards = {c["id"]: c for c in data or [] if isinstance(c, dict) and isinstance(c.get("id"), str)}
        except Exception as exc:  # noqa: BLE001 - the listing goes on without the upstream's facts
            log.info("could not read the model cards of upstream %r: %r", upstream, exc)
            # keep what was known; ask again in a few seconds (an upstream still starting)
            self._listed[upstream] = (time.monotonic() - self._ttl + 5.0, self._listed.get(upstream, (0.0, {}))[1])
            return
        self._listed[upstream] = (time.monotonic(), cards)

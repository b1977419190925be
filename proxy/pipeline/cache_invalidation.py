"""Cache invalidation, once for the admin API (``POST /admin/cache/invalidate``) and the admin UI
(``/ui/cache``): what a selection may name, and the call into the cache that removes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

TARGETS = ("entry", "scope", "model", "tenant", "all")
ENTRY_KINDS = ("exact", "semantic")
MAX_ENTRY_KEY = 64  # an exact-cache key (caches.models.ExactCacheEntry.key)
SEMANTIC_ID_MAX = 2**63 - 1  # a semantic-cache row id: a signed 64-bit integer in SQLite and PostgreSQL


class InvalidationError(ValueError):
    """A selection that cannot name what it says; ``param`` is the field at fault."""

    def __init__(self, message: str, param: str | None = None) -> None:
        super().__init__(message)
        self.message, self.param = message, param


@dataclass(frozen=True, slots=True)
class Invalidation:
    """One selection: an entry (``kind`` and ``entry_id``), a scope, a model (optionally one tenant's
    entries of it), a tenant, or everything."""

    target: str
    kind: str = ""
    entry_id: str = ""
    scope: str = ""
    model: str = ""
    tenant: str = ""

    def check(self) -> None:
        """Raise :class:`InvalidationError` unless the selection can name something: a known target,
        an exact key of at most :data:`MAX_ENTRY_KEY` characters or a semantic row id (ASCII digits,
        64-bit), a non-empty scope, model or tenant."""
        if self.target not in TARGETS:
            raise InvalidationError(f"target must be one of {', '.join(TARGETS)}, got {self.target!r}", "target")
        if self.target == "entry":
            if self.kind not in ENTRY_KINDS or not self.entry_id:
                raise InvalidationError("an entry needs kind exact or semantic and its id", "kind")
            if self.kind == "exact" and len(self.entry_id) > MAX_ENTRY_KEY:
                raise InvalidationError(f"an exact-cache key has at most {MAX_ENTRY_KEY} characters", "entry_id")
            digits = self.entry_id.isascii() and self.entry_id.isdigit() and len(self.entry_id) <= 19
            if self.kind == "semantic" and not (digits and int(self.entry_id) <= SEMANTIC_ID_MAX):
                raise InvalidationError(f"a semantic entry id is an integer from 0 to {SEMANTIC_ID_MAX}, "
                                        f"got {self.entry_id[:40]!r}", "entry_id")
        elif self.target in ("scope", "model", "tenant") and not getattr(self, self.target):
            raise InvalidationError(f"choose a {self.target}", self.target)


async def invalidate(cache: Any, selection: Invalidation) -> dict[str, int]:
    """Remove what ``selection`` names from ``cache`` (a :class:`caches.service.CacheService`);
    returns the entries removed per cache (``{"exact": n, "semantic": m}``, or the one kind of an
    entry). Raises :class:`InvalidationError` for a bad selection; the cache's own errors pass."""
    selection.check()
    if selection.target == "entry":
        return {selection.kind: await cache.delete_entry(selection.kind, selection.entry_id)}
    if selection.target == "scope":
        result = await cache.delete_scope(selection.scope)
    elif selection.target == "model":
        result = await cache.delete_model(selection.model, tenant=selection.tenant or None)
    elif selection.target == "tenant":
        result = await cache.delete_tenant(selection.tenant)
    else:
        result = await cache.clear()
    return {"exact": result.exact, "semantic": result.semantic}

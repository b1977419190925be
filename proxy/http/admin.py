"""Admin API (admin key required): cache statistics and invalidation, request statistics."""

from __future__ import annotations

import hmac
from typing import Any

import msgspec
from litestar import Request, Response, get, post

from proxy.auth.admin import key_admin_handlers
from proxy.config.settings import Settings
from proxy.pipeline.cache_invalidation import Invalidation, InvalidationError, invalidate
from proxy.storage.stats.requests import request_groups
from proxy.wire.errors import AdminDisabled, AuthenticationFailed, InvalidRequest, ThriftyError, Unavailable
from proxy.wire.schemas import parse_json_object


class InvalidateBody(msgspec.Struct, forbid_unknown_fields=True):
    """Exactly one selector: an entry, a scope, a model (optionally one tenant's), a tenant, or all."""

    entry_id: str | None = None
    kind: str | None = None  # "exact" | "semantic", with entry_id
    scope: str | None = None
    model: str | None = None
    tenant: str | None = None
    all: bool = False


def _json(data: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json")


def admin_handlers(settings: Settings, state) -> list:
    """Route handlers of the admin API, bound to this app's state."""

    async def authorize(request: Request) -> None:
        """Pass the admin key's holder; a wrong key is counted against the caller's address and the key's
        prefix, and a locked-out caller gets a 429 before its key is checked."""
        expected = settings.admin.api_key
        if not expected:
            raise AdminDisabled("the admin API is disabled; set [admin] api_key (or THRIFTY_ADMIN__API_KEY)")
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else ""
        throttle = getattr(state, "throttle", None)
        address = request.client.host if request.client else "unknown"
        if throttle is not None:
            await throttle.check("admin_api", address, token)
        if not hmac.compare_digest(token.encode("utf-8", "surrogatepass"), expected.encode()):
            if throttle is not None:
                await throttle.failed("admin_api", address, token)
            raise AuthenticationFailed("a valid admin key is required: Authorization: Bearer <admin key>",
                                       code="invalid_admin_key")

    def require_cache():
        if state.cache is None:
            raise InvalidRequest("caching is disabled in this proxy ([cache] enabled = false)", code="cache_disabled")
        return state.cache

    @get("/admin/cache/stats")
    async def cache_stats(request: Request) -> Response:
        await authorize(request)
        cache = require_cache()
        try:
            stats = await cache.stats()
        except Exception as exc:  # noqa: BLE001 - database trouble is reported, not raised
            raise Unavailable(f"cache statistics unavailable: {exc}") from None
        return _json({name: {"entries": s.entries, "bytes": s.bytes} for name, s in stats.items()})

    @post("/admin/cache/invalidate", status_code=200)
    async def cache_invalidate(request: Request) -> Response:
        await authorize(request)
        cache = require_cache()
        data = parse_json_object(await request.body())
        try:
            body = msgspec.convert(data, InvalidateBody)
        except msgspec.ValidationError as exc:
            raise InvalidRequest(f"invalid invalidation request: {exc}; send one of "
                                 "{entry_id, kind}, {scope}, {model[, tenant]}, {tenant}, {all: true}") from None
        selectors = [body.entry_id is not None, body.scope is not None, body.model is not None,
                     body.tenant is not None and body.model is None, body.all]
        if sum(selectors) != 1:
            raise InvalidRequest("give exactly one of entry_id, scope, model (optionally with tenant), tenant, all")
        target = ("entry" if body.entry_id is not None else "scope" if body.scope is not None
                  else "model" if body.model is not None else "tenant" if body.tenant is not None else "all")
        selection = Invalidation(target, kind=body.kind or "", entry_id=body.entry_id or "", scope=body.scope or "",
                                 model=body.model or "", tenant=body.tenant or "")
        try:
            removed = await invalidate(cache, selection)
        except InvalidationError as exc:
            raise InvalidRequest(exc.message, param=exc.param) from None
        except ThriftyError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise Unavailable(f"invalidation failed: {exc}") from None
        return _json({"removed": removed, "total": sum(removed.values())})

    @get("/admin/stats")
    async def request_stats(request: Request) -> Response:
        await authorize(request)
        async with state.engine.connect() as conn:
            groups = await request_groups(conn)
        return _json({"groups": groups, "requests": sum(g["requests"] for g in groups),
                      "cost_usd": sum(g["cost_usd"] for g in groups),
                      "saved_usd": sum(g["saved_usd"] for g in groups),
                      "batch_saved_usd": sum(g["batch_saved_usd"] for g in groups)})

    keys = key_admin_handlers(authorize, state.auth.keys) if getattr(state, "auth", None) is not None else []
    return [cache_stats, cache_invalidate, request_stats, *keys]

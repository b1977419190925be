"""Admin API for keys: ``GET /admin/keys``, ``POST /admin/keys`` (the new token is in the answer,
once), ``POST /admin/keys/{id}/revoke``. The caller has passed the admin check."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from litestar import Request, Response, get, post

from proxy.auth.keys import KeyProblem, KeyStore
from proxy.wire.errors import InvalidRequest, NotFound
from proxy.wire.schemas import parse_json_object


class CreateKeyBody(msgspec.Struct, forbid_unknown_fields=True):
    name: str = "unnamed"
    models: list[str] | None = None
    budget: str | None = None  # "5/day" | "100/month" (USD)
    rpm: int | None = None
    tpm: int | None = None


def _json(data: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json")


def key_admin_handlers(authorize: Callable[[Request], Awaitable[None]], keys: KeyStore) -> list:
    """The key-management routes, behind the admin check ``authorize``."""

    @get("/admin/keys")
    async def list_keys(request: Request) -> Response:
        await authorize(request)
        return _json({"object": "list", "data": [k.public() for k in await keys.list()]})

    @post("/admin/keys", status_code=200)
    async def create_key(request: Request) -> Response:
        await authorize(request)
        try:
            body = msgspec.convert(parse_json_object(await request.body()), CreateKeyBody)
            token, record = await keys.create(body.name, models=body.models, budget=body.budget, rpm=body.rpm,
                                              tpm=body.tpm)
        except (msgspec.ValidationError, KeyProblem) as exc:
            raise InvalidRequest(f"cannot create the key: {exc}") from None
        return _json({"key": token, **record.public()})

    @post("/admin/keys/{key_id:str}/revoke", status_code=200)
    async def revoke_key(request: Request) -> Response:
        await authorize(request)
        try:
            record = await keys.revoke(request.path_params["key_id"])
        except KeyProblem as exc:
            raise NotFound(str(exc), code="key_not_found") from None
        return _json(record.public())

    return [list_keys, create_key, revoke_key]

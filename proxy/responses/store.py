"""Stored responses (table ``stored_response``): one row per response created with ``store`` true,
readable, chainable and deletable by the key that created it only (another key's id is a 404)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.storage.db import StoredResponse


@dataclass(frozen=True, slots=True)
class Stored:
    """A stored response: the response object, this request's input items and the earlier turns' items."""

    body: dict[str, Any]
    input_items: list[dict[str, Any]]
    history: list[dict[str, Any]]

    def conversation(self) -> list[dict[str, Any]]:
        """The items a follow-up (``previous_response_id`` = this one) continues from."""
        return [*self.history, *self.input_items, *self.body.get("output", [])]


class ResponseStore:
    """Reads and writes ``stored_response`` rows on the proxy's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def put(self, key_id: str, body: dict[str, Any], input_items: list[dict[str, Any]],
                  history: list[dict[str, Any]]) -> None:
        row = {"id": body["id"], "key_id": key_id, "created_at": datetime.now(UTC),
               "previous_response_id": body.get("previous_response_id"),
               "body": msgspec.json.encode(body).decode(), "input_items": msgspec.json.encode(input_items).decode(),
               "history": msgspec.json.encode(history).decode()}
        async with self._engine.begin() as conn:
            await conn.execute(StoredResponse.__table__.insert(), [row])

    async def get(self, response_id: str, key_id: str) -> Stored | None:
        """The response ``response_id`` if ``key_id`` stored it, else None."""
        t = StoredResponse
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(t.body, t.input_items, t.history)
                                      .where(t.id == response_id, t.key_id == key_id))).first()
        if row is None:
            return None
        return Stored(msgspec.json.decode(row[0]), msgspec.json.decode(row[1]), msgspec.json.decode(row[2]))

    async def delete(self, response_id: str, key_id: str) -> bool:
        async with self._engine.begin() as conn:
            result = await conn.execute(delete(StoredResponse).where(StoredResponse.id == response_id,
                                                                     StoredResponse.key_id == key_id))
        return bool(result.rowcount)

"""Issued API keys in the ``api_key`` table: created (the token is shown once), looked up by the
SHA-256 of the bearer token, listed and revoked. The token itself is never stored."""

from __future__ import annotations

import hashlib
import math
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from types import SimpleNamespace

import msgspec
from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.identity import key_id_from_sha256
from proxy.storage.db import ApiKey

TOKEN_PREFIX = "sk-thrifty-"
SHOWN_PREFIX = len(TOKEN_PREFIX) + 4  # what lists show of a key: "sk-thrifty-Ab3x"
BUDGET_PERIODS = ("day", "month")


class KeyProblem(ValueError):
    """A key that cannot be created or found as asked (the message says why)."""


@dataclass(frozen=True, slots=True)
class KeyRecord:
    """An issued key as the proxy uses it (no secret)."""

    id: str
    name: str
    prefix: str
    models: tuple[str, ...] | None
    budget_usd: float | None
    budget_period: str | None
    rpm: int | None
    tpm: int | None
    created_at: datetime
    revoked_at: datetime | None

    def public(self) -> dict:
        return {"id": self.id, "object": "api_key", "name": self.name, "prefix": self.prefix,
                "models": list(self.models) if self.models is not None else None,
                "budget_usd": self.budget_usd, "budget_period": self.budget_period, "rpm": self.rpm, "tpm": self.tpm,
                "created_at": int(_aware(self.created_at).timestamp()),
                "revoked_at": int(_aware(self.revoked_at).timestamp()) if self.revoked_at else None}


def _aware(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def _record(row) -> KeyRecord:
    models = tuple(msgspec.json.decode(row.models)) if row.models else None
    return KeyRecord(row.id, row.name, row.prefix, models, row.budget_usd, row.budget_period, row.rpm, row.tpm,
                     row.created_at, row.revoked_at)


# The largest RPM/TPM limit: the key table's integer columns are 32-bit on PostgreSQL.
MAX_RATE_LIMIT = 2**31 - 1


def token_sha256(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_budget(text: str) -> tuple[float, str]:
    """``"5/day"`` or ``"100/month"`` → ``(5.0, "day")``."""
    amount, _, period = text.partition("/")
    try:
        value = float(amount)
    except ValueError:
        raise KeyProblem(f"budget must look like 5/day or 100/month (USD), got {text!r}") from None
    if period not in BUDGET_PERIODS or not 0 <= value < math.inf:
        raise KeyProblem(f"budget must look like 5/day or 100/month (USD), got {text!r}")
    return value, period


class KeyStore:
    """Creates, finds, lists and revokes keys."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def create(self, name: str, *, models: list[str] | None = None, budget: str | None = None,
                     rpm: int | None = None, tpm: int | None = None) -> tuple[str, KeyRecord]:
        """A new key: ``(token, record)``; the token is returned here and never again."""
        budget_usd, period = parse_budget(budget) if budget else (None, None)
        for label, value in (("rpm", rpm), ("tpm", tpm)):
            if value is not None and not 1 <= value <= MAX_RATE_LIMIT:
                raise KeyProblem(f"{label} must be between 1 and {MAX_RATE_LIMIT}, got {value}")
        if models is not None and (not models or not all(isinstance(m, str) and m for m in models)):
            raise KeyProblem("models must be a non-empty list of public model names")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        digest = token_sha256(token)
        now = datetime.now(UTC)
        values = {"id": key_id_from_sha256(digest), "sha256": digest, "prefix": token[:SHOWN_PREFIX],
                  "name": (name or "unnamed")[:256], "models": msgspec.json.encode(models).decode() if models else None,
                  "budget_usd": budget_usd, "budget_period": period, "rpm": rpm, "tpm": tpm, "created_at": now,
                  "revoked_at": None}
        async with self._engine.begin() as conn:
            await conn.execute(ApiKey.__table__.insert().values(**values))
        return token, _record(SimpleNamespace(**values))

    async def find(self, token: str) -> KeyRecord | None:
        """The key a bearer token names, revoked or not; None when it was never issued."""
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(ApiKey).where(ApiKey.sha256 == token_sha256(token)))).first()
        return _record(row) if row is not None else None

    async def get(self, key_id: str) -> KeyRecord | None:
        """The key with id ``key_id`` (``key-…``), revoked or not; None when there is none."""
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(ApiKey).where(ApiKey.id == key_id))).first()
        return _record(row) if row is not None else None

    async def list(self, include_revoked: bool = True) -> list[KeyRecord]:
        query = select(ApiKey).order_by(ApiKey.created_at)
        if not include_revoked:
            query = query.where(ApiKey.revoked_at.is_(None))
        async with self._engine.connect() as conn:
            return [_record(r) for r in (await conn.execute(query)).all()]

    async def revoke(self, key: str) -> KeyRecord:
        """Revoke by id (``key-…``), by the full token (matched by its hash), or by the prefix lists show
        (``sk-thrifty-Ab3x`` or ``sk-thrifty-Ab3x...``, when unambiguous). Messages never echo a full token."""
        given = key.strip()
        prefix = given.removesuffix("...").removesuffix("…")
        shown = shown_key(given)
        async with self._engine.begin() as conn:
            query = select(ApiKey).where(or_(ApiKey.id == given, ApiKey.sha256 == token_sha256(given),
                                             ApiKey.prefix == prefix))
            rows = (await conn.execute(query)).all()
            exact = [r for r in rows if r.id == given or r.sha256 == token_sha256(given)]
            rows = exact or rows  # a full token or an id names one key even when another shares its prefix
            if not rows:
                raise KeyProblem(f"no key with id, token or prefix {shown!r}")
            if len(rows) > 1:
                raise KeyProblem(f"{len(rows)} keys share the prefix {shown!r}; revoke by id (key-...) or full key")
            await conn.execute(update(ApiKey).where(ApiKey.id == rows[0].id, ApiKey.revoked_at.is_(None))
                               .values(revoked_at=datetime.now(UTC)))
            row = (await conn.execute(select(ApiKey).where(ApiKey.id == rows[0].id))).one()
        return _record(row)


def shown_key(text: str) -> str:
    """``text`` as messages may show it: an id or a shown prefix as given, anything longer (a token, perhaps
    mistyped) cut to what key lists show, followed by ``...``."""
    text = text.strip()
    if text.startswith("key-") or len(text.removesuffix("...").removesuffix("…")) <= SHOWN_PREFIX:
        return text
    keep = SHOWN_PREFIX if text.startswith(TOKEN_PREFIX) else 4
    return text[:keep] + "..."

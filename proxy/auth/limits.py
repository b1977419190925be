"""Counting requests, tokens and spend per key: RPM and TPM in one-minute windows, budgets per
day or month. A request *reserves* its worst case before it runs (one request, its prompt plus its
maximum output, its maximum cost) and *settles* the difference once its real usage is known, so
concurrent requests can never spend past a budget between them.

Two counters share that contract: :class:`DatabaseCounters` (the default without Redis: the proxy's
database, so a restart refuses what it refused before, and replicas on one PostgreSQL share it) and
:class:`RedisCounters` (replicas sharing a Redis; each reservation is one atomic Lua script).
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.storage.db import UsageCounter

MICRO = 1_000_000  # budgets are counted in micro-dollars (integers, exact in Redis)
WINDOW_TTL_S = 120
BUDGET_TTL_S = {"day": 2 * 86400, "month": 32 * 86400}


@dataclass(frozen=True, slots=True)
class KeyLimits:
    """One key's limits (None: unlimited)."""

    rpm: int | None = None
    tpm: int | None = None
    budget_usd: float | None = None
    budget_period: str | None = None  # day | month


@dataclass(frozen=True, slots=True)
class Reservation:
    """What one admitted request holds until it is settled."""

    key_id: str
    minute: int
    period: str | None
    tokens: int
    cost_micro: int


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request was not admitted: ``kind`` is rpm | tpm | budget."""

    kind: str
    retry_after_s: int


def windows(now: datetime, period: str | None) -> tuple[int, str | None]:
    """The minute window and the budget period (``2026-12-01`` or ``2026-12``) of ``now``."""
    now = now.astimezone(UTC)
    label = None if period is None else (now.strftime("%Y-%m-%d") if period == "day" else now.strftime("%Y-%m"))
    return int(now.timestamp() // 60), label


def seconds_to_next_minute(now: datetime) -> int:
    return max(1, 60 - int(now.timestamp()) % 60)


def micro(usd: float) -> int:
    return int(math.ceil(usd * MICRO))


class Counters(Protocol):
    async def reserve(self, key_id: str, limits: KeyLimits, tokens: int, cost_usd: float,
                      now: datetime) -> Reservation | Refusal: ...

    async def settle(self, reservation: Reservation, tokens: int, cost_usd: float) -> None: ...

    async def aclose(self) -> None: ...


class DatabaseCounters:
    """Counters in the proxy's database (SQLite or PostgreSQL): they survive restarts, and replicas on
    one PostgreSQL share them. A reservation is one transaction: the window rows are created if
    missing, read (``FOR UPDATE`` on PostgreSQL; SQLite's single writer serialises it), checked and
    incremented; in this process reservations also take turns on a lock. Expired windows are deleted
    once a minute."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._lock = asyncio.Lock()
        self._postgres = engine.dialect.name == "postgresql"
        self._cleaned_minute: int | None = None

    def _insert(self):
        if self._postgres:
            from sqlalchemy.dialects.postgresql import insert as dialect_insert
        else:
            from sqlalchemy.dialects.sqlite import insert as dialect_insert
        return dialect_insert(UsageCounter).on_conflict_do_nothing(index_elements=["name"])

    async def reserve(self, key_id: str, limits: KeyLimits, tokens: int, cost_usd: float,
                      now: datetime) -> Reservation | Refusal:
        minute, period = windows(now, limits.budget_period)
        cost = micro(cost_usd)
        window_end = now + timedelta(seconds=WINDOW_TTL_S)
        # (kind, counter name, limit, amount added, expiry) of each limit the key has
        wanted = [(kind, name, limit, add, expires) for kind, name, limit, add, expires in (
            ("rpm", f"rpm:{key_id}:{minute}", limits.rpm, 1, window_end),
            ("tpm", f"tpm:{key_id}:{minute}", limits.tpm, tokens, window_end),
            ("budget", f"budget:{key_id}:{period}",
             None if limits.budget_usd is None else micro(limits.budget_usd), cost,
             now + timedelta(seconds=BUDGET_TTL_S.get(limits.budget_period or "day", WINDOW_TTL_S))),
        ) if limit is not None]
        if not wanted:
            return Reservation(key_id, minute, period, tokens, cost)
        async with self._lock, self._engine.begin() as conn:
            await conn.execute(self._insert(), [{"name": name, "value": 0, "expires_at": expires}
                                                for _, name, _, _, expires in wanted])
            query = select(UsageCounter.name, UsageCounter.value).where(
                UsageCounter.name.in_([name for _, name, _, _, _ in wanted]))
            if self._postgres:
                query = query.with_for_update()
            current = dict((await conn.execute(query)).all())
            for kind, name, limit, add, _ in wanted:
                if current.get(name, 0) + add > limit:
                    return Refusal(kind, 0 if kind == "budget" else seconds_to_next_minute(now))
            for _, name, _, add, _ in wanted:
                await conn.execute(update(UsageCounter).where(UsageCounter.name == name)
                                   .values(value=UsageCounter.value + add))
            if self._cleaned_minute != minute:  # once a minute: windows nobody can use any more
                self._cleaned_minute = minute
                await conn.execute(delete(UsageCounter).where(UsageCounter.expires_at < now))
        return Reservation(key_id, minute, period, tokens, cost)

    async def settle(self, reservation: Reservation, tokens: int, cost_usd: float) -> None:
        changes = ((f"tpm:{reservation.key_id}:{reservation.minute}", tokens - reservation.tokens),
                   (f"budget:{reservation.key_id}:{reservation.period}", micro(cost_usd) - reservation.cost_micro))
        async with self._engine.begin() as conn:
            for name, delta in changes:
                if delta:  # a window the key has no limit for has no row: nothing is updated
                    await conn.execute(update(UsageCounter).where(UsageCounter.name == name)
                                       .values(value=UsageCounter.value + delta))

    async def aclose(self) -> None:
        return None


_RESERVE = """
local limits = {tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])}
local adds = {1, tonumber(ARGV[4]), tonumber(ARGV[5])}
for i = 1, 3 do
  if limits[i] >= 0 then
    local current = tonumber(redis.call('GET', KEYS[i]) or '0')
    if current + adds[i] > limits[i] then return i end
  end
end
for i = 1, 3 do
  redis.call('INCRBY', KEYS[i], adds[i])
  redis.call('EXPIRE', KEYS[i], i == 3 and tonumber(ARGV[7]) or tonumber(ARGV[6]))
end
return 0
"""
_KINDS = {1: "rpm", 2: "tpm", 3: "budget"}


class RedisCounters:
    """Counters in Redis, shared by every replica; reservation is one atomic script."""

    def __init__(self, url: str, namespace: str = "thrifty") -> None:
        import redis.asyncio as redis  # only when configured

        self._redis = redis.from_url(url)
        self._namespace = namespace
        self._script = self._redis.register_script(_RESERVE)

    def _names(self, key_id: str, minute: int, period: str | None) -> list[str]:
        ns = self._namespace
        return [f"{ns}:rpm:{key_id}:{minute}", f"{ns}:tpm:{key_id}:{minute}", f"{ns}:budget:{key_id}:{period}"]

    async def reserve(self, key_id: str, limits: KeyLimits, tokens: int, cost_usd: float,
                      now: datetime) -> Reservation | Refusal:
        minute, period = windows(now, limits.budget_period)
        cost = micro(cost_usd)

        def limit(value: float | int | None, scale: int = 1) -> int:
            return -1 if value is None else int(value * scale)

        refused = int(await self._script(keys=self._names(key_id, minute, period), args=[
            limit(limits.rpm), limit(limits.tpm), limit(limits.budget_usd, MICRO), tokens, cost, WINDOW_TTL_S,
            BUDGET_TTL_S.get(limits.budget_period or "day", WINDOW_TTL_S)]))
        if refused:
            kind = _KINDS[refused]
            return Refusal(kind, 0 if kind == "budget" else seconds_to_next_minute(now))
        return Reservation(key_id, minute, period, tokens, cost)

    async def settle(self, reservation: Reservation, tokens: int, cost_usd: float) -> None:
        _, tpm_key, budget_key = self._names(reservation.key_id, reservation.minute, reservation.period)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.incrby(tpm_key, tokens - reservation.tokens)
            pipe.expire(tpm_key, WINDOW_TTL_S)
            pipe.incrby(budget_key, micro(cost_usd) - reservation.cost_micro)
            pipe.expire(budget_key, BUDGET_TTL_S["day" if len(reservation.period or "") == 10 else "month"])
            await pipe.execute()

    async def aclose(self) -> None:
        await self._redis.aclose()

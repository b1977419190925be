"""Counting requests, tokens and spend per key: RPM and TPM in one-minute windows, budgets per
day or month. A request *reserves* its worst case before it runs (one request, its prompt plus its
maximum output, its maximum cost) and *settles* the difference once its real usage is known, so
concurrent requests can never spend past a budget between them.

Two counters share that contract: :class:`LocalCounters` (one proxy process) and
:class:`RedisCounters` (replicas sharing a Redis; each reservation is one atomic Lua script).
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

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


class LocalCounters:
    """Counters in this process (no Redis): right for one replica."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: dict[str, int] = {}

    def _names(self, key_id: str, minute: int, period: str | None) -> tuple[str, str, str]:
        return f"rpm:{key_id}:{minute}", f"tpm:{key_id}:{minute}", f"budget:{key_id}:{period}"

    async def reserve(self, key_id: str, limits: KeyLimits, tokens: int, cost_usd: float,
                      now: datetime) -> Reservation | Refusal:
        minute, period = windows(now, limits.budget_period)
        rpm_key, tpm_key, budget_key = self._names(key_id, minute, period)
        cost = micro(cost_usd)
        with self._lock:
            self._forget_old(minute)
            v = self._values
            if limits.rpm is not None and v.get(rpm_key, 0) + 1 > limits.rpm:
                return Refusal("rpm", seconds_to_next_minute(now))
            if limits.tpm is not None and v.get(tpm_key, 0) + tokens > limits.tpm:
                return Refusal("tpm", seconds_to_next_minute(now))
            if limits.budget_usd is not None and v.get(budget_key, 0) + cost > micro(limits.budget_usd):
                return Refusal("budget", 0)
            v[rpm_key] = v.get(rpm_key, 0) + 1
            v[tpm_key] = v.get(tpm_key, 0) + tokens
            v[budget_key] = v.get(budget_key, 0) + cost
        return Reservation(key_id, minute, period, tokens, cost)

    async def settle(self, reservation: Reservation, tokens: int, cost_usd: float) -> None:
        _, tpm_key, budget_key = self._names(reservation.key_id, reservation.minute, reservation.period)
        with self._lock:
            if tpm_key in self._values:
                self._values[tpm_key] += tokens - reservation.tokens
            self._values[budget_key] = self._values.get(budget_key, 0) + micro(cost_usd) - reservation.cost_micro

    def _forget_old(self, minute: int) -> None:
        stale = [k for k in self._values if k.startswith(("rpm:", "tpm:")) and int(k.rsplit(":", 1)[1]) < minute - 1]
        for k in stale:
            del self._values[k]

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

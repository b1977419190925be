"""Throttling of admin-key guessing (the web UI's login form and the ``/admin`` API).

Failures are counted per client address and per presented-key prefix (hashed: a prefix of a real key
is not stored) in the database table ``auth_failure``, so the count holds across restarts and
replicas. After :data:`FREE_FAILURES` failures in a row a scope is locked out for
``LOCKOUT_BASE_S * 2 ** (failures - FREE_FAILURES)`` seconds, at most :data:`LOCKOUT_MAX_S`; while it is
locked every attempt, right or wrong, is a 429 with ``retry-after`` (the key is not even checked). A
success clears the address's count. Every failure writes a warning, a request-log row and a metric.
"""

from __future__ import annotations

import hashlib
import logging
import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.storage.db import AuthFailure
from proxy.wire.errors import RateLimited

log = logging.getLogger(__name__)

FREE_FAILURES = 5  # failures in a row before the first lockout
LOCKOUT_BASE_S = 1.0  # the first lockout; each further failure doubles it
LOCKOUT_MAX_S = 900.0
FORGET_AFTER_S = 86400.0  # a scope without failures for this long starts from zero again
PREFIX_CHARS = 8


def _aware(value: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes: they are UTC."""
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def lockout_s(failures: int) -> float:
    """Seconds a scope is locked after its ``failures``-th failure in a row (0: not locked)."""
    if failures < FREE_FAILURES:
        return 0.0
    return min(LOCKOUT_MAX_S, LOCKOUT_BASE_S * 2.0 ** min(failures - FREE_FAILURES, 30))


class LoginThrottle:
    """Counts failed admin logins per address and key prefix, and refuses locked-out callers.

    ``on_failure(surface, address, status, message)``: called for every failure and every refused
    attempt (the app writes the request-log row and counts the metric there)."""

    def __init__(self, engine: AsyncEngine, on_failure: Callable[[str, str, int, str], Any] | None = None,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._engine = engine
        self._on_failure = on_failure
        self._clock = clock

    @staticmethod
    def scopes(address: str, secret: str) -> list[str]:
        """The counted scopes of an attempt: its client address and its key's hashed prefix."""
        prefix = hashlib.sha256(secret[:PREFIX_CHARS].encode("utf-8", "surrogatepass")).hexdigest()[:24]
        return [f"addr:{address}"[:128], f"prefix:{prefix}"]

    async def check(self, surface: str, address: str, secret: str) -> None:
        """Raise a 429 (``retry-after``) when the address or the key prefix is locked out."""
        now = self._clock()
        async with self._engine.connect() as conn:
            rows = (await conn.execute(select(AuthFailure.locked_until).where(
                AuthFailure.scope.in_(self.scopes(address, secret))))).scalars().all()
        until = max((u for u in map(_aware, rows) if u is not None), default=None)
        if until is None or until <= now:
            return
        wait = max(1, math.ceil((until - now).total_seconds()))
        message = f"too many failed admin logins from this address or with this key; retry after {wait} s"
        if self._on_failure is not None:
            self._on_failure(surface, address, 429, "locked out after repeated failed admin logins")
        error = RateLimited(message, code="too_many_failed_logins")
        error.headers = {"retry-after": str(wait)}
        raise error

    async def failed(self, surface: str, address: str, secret: str) -> None:
        """Count a wrong key from ``address`` in both scopes and lock them when due."""
        now = self._clock()
        log.warning("%s: wrong admin key from %s", surface, address)
        if self._on_failure is not None:
            self._on_failure(surface, address, 401, "wrong admin key")
        try:
            await self._count(address, secret, now)
        except IntegrityError:  # another replica inserted the same scope's first failure just now
            await self._count(address, secret, now)

    async def _count(self, address: str, secret: str, now: datetime) -> None:
        async with self._engine.begin() as conn:
            for scope in self.scopes(address, secret):
                row = (await conn.execute(select(AuthFailure.failures, AuthFailure.last_at)
                                          .where(AuthFailure.scope == scope))).first()
                fresh = row is None or _aware(row.last_at) < now - timedelta(seconds=FORGET_AFTER_S)
                failures = 1 if fresh else row.failures + 1
                wait = lockout_s(failures)
                values = {"failures": failures, "last_at": now,
                          "locked_until": now + timedelta(seconds=wait) if wait else None}
                if row is None:
                    await conn.execute(AuthFailure.__table__.insert().values(scope=scope, **values))
                else:
                    await conn.execute(update(AuthFailure).where(AuthFailure.scope == scope).values(**values))

    async def succeeded(self, address: str) -> None:
        """A right key from ``address``: its count starts again (a prefix's count stays)."""
        async with self._engine.begin() as conn:
            await conn.execute(delete(AuthFailure).where(AuthFailure.scope == self.scopes(address, "")[0]))

"""Upstream resilience: retries with exponential backoff and jitter (honouring ``retry-after``)
and a circuit breaker per upstream. Used by :class:`proxy.upstream.client.UpstreamClient` before any
byte reaches the client; falling back to another model is the pipeline's job."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

RETRY_STATUSES = (429, 500, 502, 503, 504)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how long to wait before trying an upstream call again."""

    max_retries: int = 2
    backoff_s: float = 0.2  # first wait; doubles each try, with +-50 % jitter
    max_wait_s: float = 10.0  # a longer retry-after is not waited for: the answer goes back as is

    def wait_s(self, attempt: int, retry_after: str | None = None) -> float | None:
        """Seconds to wait before try ``attempt + 1`` (0-based ``attempt``), or None: give up."""
        if attempt >= self.max_retries:
            return None
        if retry_after is not None:
            try:
                asked = float(retry_after)
            except ValueError:
                asked = None  # an HTTP date: fall back to our own backoff
            if asked is not None:
                return asked if 0 <= asked <= self.max_wait_s else None
        base = self.backoff_s * (2 ** attempt)
        return min(self.max_wait_s, base * (0.5 + random.random()))  # noqa: S311 - jitter, not crypto


@dataclass(slots=True)
class CircuitBreaker:
    """Closed → open after ``failures`` failures in a row; open calls fail at once until
    ``open_s`` has passed; then half-open: one probe at a time, closed again on its success."""

    failures: int = 5
    open_s: float = 30.0
    clock: Callable[[], float] = time.monotonic
    _consecutive: int = 0
    _opened_at: float | None = None
    _probing: bool = False

    @property
    def state(self) -> str:
        if self._opened_at is None:
            return "closed"
        return "half_open" if self.clock() - self._opened_at >= self.open_s else "open"

    def allow(self) -> bool:
        """May a call go to this upstream now? (takes the one probe slot when half-open)"""
        state = self.state
        if state == "closed":
            return True
        if state == "half_open" and not self._probing:
            self._probing = True
            return True
        return False

    def release(self) -> None:
        """Give back a probe slot without a verdict (the call was cancelled)."""
        self._probing = False

    def success(self) -> None:
        self._consecutive, self._opened_at, self._probing = 0, None, False

    def failure(self) -> None:
        self._probing = False
        self._consecutive += 1
        if self._opened_at is not None or self._consecutive >= self.failures:
            self._opened_at = self.clock()  # (re)open: a failed probe waits a whole period again

    def retry_in_s(self) -> float:
        return 0.0 if self._opened_at is None else max(0.0, self.open_s - (self.clock() - self._opened_at))


@dataclass(slots=True)
class Breakers:
    """One breaker per upstream name."""

    failures: int = 5
    open_s: float = 30.0
    by_upstream: dict[str, CircuitBreaker] = field(default_factory=dict)

    def __getitem__(self, upstream: str) -> CircuitBreaker:
        breaker = self.by_upstream.get(upstream)
        if breaker is None:
            breaker = self.by_upstream[upstream] = CircuitBreaker(self.failures, self.open_s)
        return breaker

    def states(self) -> Mapping[str, str]:
        return {name: b.state for name, b in self.by_upstream.items()}

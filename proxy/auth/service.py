"""Who is calling and may they: authentication (``[auth] mode``), the key's model list, and the
admission of a request against its key's rate limits and budget (settled when it finishes)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.auth.keys import KeyRecord, KeyStore
from proxy.auth.limits import Counters, DatabaseCounters, KeyLimits, RedisCounters, Refusal, Reservation
from proxy.config.settings import Settings
from proxy.identity import key_id_from_authorization
from proxy.pricing import PriceBook
from proxy.wire.errors import (
    AuthenticationFailed,
    InvalidRequest,
    PermissionDenied,
    QuotaExceeded,
    RateLimited,
    ThriftyError,
)

log = logging.getLogger(__name__)
AUTH_MODES = ("open", "keys")
BYTES_PER_TOKEN = 3  # a conservative prompt-size estimate for the reservation (settled with the real count)


@dataclass(frozen=True, slots=True)
class Principal:
    """The caller: its tenant id and, for an issued key, the key."""

    key_id: str
    key: KeyRecord | None = None


def bearer_token(header: str | None) -> str:
    if not header:
        return ""
    return header[7:].strip() if header.lower().startswith("bearer ") else header.strip()


class AuthService:
    """Authenticates callers and admits their requests."""

    def __init__(self, settings: Settings, engine: AsyncEngine,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.mode = settings.auth.mode
        self.keys = KeyStore(engine)
        self._assumed_max_tokens = settings.auth.assumed_max_tokens
        self._prices = PriceBook(settings.prices)
        router = settings.router
        self._routed = {router.public_model: (router.small_model, router.large_model)} if router.enabled else {}
        self.counters: Counters = RedisCounters(settings.auth.redis_url, settings.auth.redis_namespace) \
            if settings.auth.redis_url else DatabaseCounters(engine)
        self._clock = clock
        self._settling: set[asyncio.Task] = set()

    async def authenticate(self, authorization: str | None) -> Principal:
        """The caller of a request; in ``keys`` mode only a live issued key passes (401 otherwise)."""
        if self.mode == "open":
            return Principal(key_id_from_authorization(authorization))
        token = bearer_token(authorization)
        if not token:
            raise AuthenticationFailed("an API key is required: Authorization: Bearer sk-...", code="missing_api_key")
        key = await self.keys.find(token)
        if key is None or key.revoked_at is not None:
            shown = token[:8] + "..." if len(token) > 8 else "***"
            raise AuthenticationFailed(f"incorrect API key provided: {shown}", code="invalid_api_key")
        return Principal(key.id, key)

    async def identify(self, authorization: str | None) -> str:
        """The tenant id of an authenticated caller (Files, Batches, feedback)."""
        return (await self.authenticate(authorization)).key_id

    def _max_cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        names = self._routed.get(model, (model,))
        costs = [self._prices.cost(name, prompt_tokens, completion_tokens) for name in names]
        return max((c for c in costs if c is not None), default=0.0)

    async def admit(self, principal: Principal, data: dict[str, Any], raw_bytes: int) -> Reservation | None:
        """Check the key may use the model and has room for the request's worst case; returns the
        reservation to settle when the request finishes (None when the key has no limits)."""
        key = principal.key
        if key is None:
            return None
        model = data.get("model")
        if key.models is not None and model not in key.models:
            raise PermissionDenied(f"this API key may not use model {model!r}; it may use {sorted(key.models)}",
                                   param="model", code="model_not_allowed")
        limits = KeyLimits(key.rpm, key.tpm, key.budget_usd, key.budget_period)
        if limits == KeyLimits():
            return None
        asked = data.get("max_completion_tokens") or data.get("max_tokens") or self._assumed_max_tokens
        completion = int(asked) * max(1, int(data.get("n") or 1))
        prompt = max(1, raw_bytes // BYTES_PER_TOKEN)
        if key.tpm is not None and prompt + completion > key.tpm:
            raise InvalidRequest(f"this request may use up to {prompt + completion} tokens, more than this key's "
                                 f"limit of {key.tpm} tokens per minute; lower max_tokens", code="tokens_over_limit")
        outcome = await self.counters.reserve(key.id, limits, prompt + completion,
                                              self._max_cost(str(model), prompt, completion), self._clock())
        if isinstance(outcome, Refusal):
            raise _refusal_error(outcome, key)
        return outcome

    async def admit_batch_line(self, key_id: str, data: dict[str, Any], raw_bytes: int
                               ) -> Callable[[Any], None] | None:
        """Admit one line of a batch on behalf of the key that created the batch, as :meth:`admit` does
        for an interactive request (model list, budget, RPM/TPM); returns the settle callback. In ``keys``
        mode a key revoked since the batch was created is refused (401)."""
        if self.mode == "open":
            return None
        key = await self.keys.get(key_id)
        if key is None or key.revoked_at is not None:
            raise AuthenticationFailed("the API key that created this batch has been revoked",
                                       code="invalid_api_key")
        return self.settle_later(await self.admit(Principal(key_id, key), data, raw_bytes))

    def settle_later(self, reservation: Reservation | None) -> Callable[[Any], None] | None:
        """A callback for the pipeline's log entry that settles ``reservation`` with the real usage."""
        if reservation is None:
            return None

        def settle(entry: Any) -> None:
            tokens = (entry.prompt_tokens or 0) + (entry.completion_tokens or 0)
            cost = entry.cost_usd or 0.0
            if entry.status_code >= 400 and not entry.cost_usd:
                tokens, cost = 0, 0.0  # an unanswered request gives its tokens and money back
            task = asyncio.get_running_loop().create_task(self._settle(reservation, tokens, cost))
            self._settling.add(task)  # held until done: the loop keeps only a weak reference to tasks
            task.add_done_callback(self._settling.discard)

        return settle

    async def _settle(self, reservation: Reservation, tokens: int, cost: float) -> None:
        try:
            await self.counters.settle(reservation, tokens, cost)
        except Exception:  # noqa: BLE001 - a counter outage must not fail the answered request
            log.exception("could not settle the usage of key %s", reservation.key_id)

    async def aclose(self) -> None:
        if self._settling:  # settle what finished before the counters go away
            await asyncio.gather(*list(self._settling), return_exceptions=True)
        await self.counters.aclose()


def _refusal_error(refusal: Refusal, key: KeyRecord) -> ThriftyError:
    if refusal.kind == "budget":
        return QuotaExceeded(f"this API key has used its budget of ${key.budget_usd:g} per {key.budget_period}",
                             code="insufficient_quota")
    limit = f"{key.rpm} requests" if refusal.kind == "rpm" else f"{key.tpm} tokens"
    error = RateLimited(f"rate limit reached for this API key: {limit} per minute; retry after "
                        f"{refusal.retry_after_s} s", code="rate_limit_exceeded")
    error.headers = {"retry-after": str(refusal.retry_after_s)}
    if refusal.kind == "tpm":
        error.type = "tokens"
    return error


"""Cost accounting and the request log row of every finished request (:class:`CallAccounting`)."""

from __future__ import annotations

import time
from typing import Any

from proxy.logs import log_access
from proxy.pipeline.answers import usage_tokens
from proxy.pipeline.call import CallContext
from proxy.pricing import PriceBook
from proxy.storage.request_log import LogEntry, RequestLogWriter


class CallAccounting:
    """Completes a request's log entry (status, latency, cost and saving) and queues it.

    ``router``: the router stage (its large tier is the saving's baseline), or None; ``metrics``: counts
    every finished request; ``batch_discount``: batch lines pay ``1 - discount`` of the list price."""

    def __init__(self, prices: PriceBook, request_log: RequestLogWriter, *, router: Any = None, metrics: Any = None,
                 batch_discount: float = 0.0, access_log: bool = False) -> None:
        self._prices, self._log, self._router, self._metrics = prices, request_log, router, metrics
        self._batch_discount, self._access_log = batch_discount, access_log

    @staticmethod
    def fill_usage(entry: LogEntry, usage: Any) -> None:
        """The entry's token counts from an OpenAI ``usage`` object (unknown where malformed)."""
        entry.prompt_tokens, entry.completion_tokens, entry.cached_tokens = usage_tokens(usage)

    def finish(self, ctx: CallContext, entry: LogEntry, status: int, error: str | None = None,
                cache_hit: bool = False) -> None:
        """Complete the log entry (status, latency, cost and saving) and queue it.

        Cost is the served model's price for the tokens (nothing for a cache hit); the saving is
        measured against the large tier (when routing is configured and priced), else against
        serving the same model uncached.
        """
        entry.status_code = status
        entry.error = error
        if status >= 400:
            entry.routing_request = None  # retraining exports only answered requests: keep no prompt text
        entry.latency_ms = (time.perf_counter() - ctx.started) * 1000
        if status < 400 and entry.prompt_tokens is not None:
            tokens = (entry.prompt_tokens, entry.completion_tokens, entry.cached_tokens)
            full = self._prices.cost(self.alias_name_for(entry), *tokens)
            cost = 0.0 if cache_hit else full
            if cost is not None and entry.extra_cost_usd is not None:
                cost += entry.extra_cost_usd  # earlier calls of this request (cascade's small answer)
            if cost and ctx.batch_id is not None and self._batch_discount:
                entry.batch_saved_usd = cost * self._batch_discount  # paid at the batch price
                cost -= entry.batch_saved_usd
            entry.cost_usd = cost
            large = self._router.tier_models["large"] if self._router else None
            baseline = self._prices.cost(large, *tokens) if large and self._prices.known(large) else full
            if baseline is not None and entry.cost_usd is not None:
                entry.saved_usd = baseline - entry.cost_usd
        elif entry.extra_cost_usd is not None:  # a cascade whose large call failed: the small call was paid
            entry.cost_usd = entry.extra_cost_usd
        if ctx.on_finish is not None:
            ctx.on_finish(entry)
        self._log.record(entry)
        if self._access_log:
            log_access(entry)
        if self._metrics is not None:
            self._metrics.observe_request(entry)

    def alias_name_for(self, entry: LogEntry) -> str | None:
        if entry.route and self._router:
            return self._router.tier_models.get(entry.route)
        return entry.model_requested

    def log_rejected(self, ctx: CallContext, status: int, error: str, model: str | None) -> None:
        """Record a request refused before the pipeline (validation)."""
        entry = LogEntry(id=ctx.request_id, key_id=ctx.key_id, endpoint=ctx.endpoint, status_code=status,
                         client_request_id=ctx.client_request_id, model_requested=model)
        self.finish(ctx, entry, status, error=error)

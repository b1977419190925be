"""The proxy's Prometheus metrics, served at ``/metrics``.

One :class:`ProxyMetrics` per app owns its own ``CollectorRegistry`` (never the process-wide
default one, so two apps in one process, as in tests, never share counts). It is fed from three
places: the pipeline's ``_finish`` (every request's log entry: status, route, cache outcome,
latency, TTFT), the upstream client (each upstream call's latency and failures) and the batch
worker (lines done or failed). Live values owned by others (request-log counters, cache sizes)
are read when Prometheus scrapes.

Names follow Prometheus conventions (``_total`` counters, ``_seconds`` histograms) with the label
names LiteLLM users know (``model``, ``status_code``). Label values that come from callers (the
model name) are bounded to the configured public models, so a caller cannot grow the series count.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from caches.types import SKIP_REASONS
from proxy.storage.request_log import LogEntry

log = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4"  # the server adds "; charset=utf-8"

#: Latency buckets (seconds): cache hits take about a millisecond, long generations minutes.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 40.0,
                   80.0, 160.0, 300.0)
CACHE_HIT_KINDS = ("exact", "semantic")
CIRCUIT_STATES = ("closed", "open", "half_open")
_CACHE_STATS_TIMEOUT_S = 2.0
_OTHER = "other"  # the model label of a name that is not a configured public model
_NONE = "none"  # a label whose value is absent (no route, no cache lookup)


#: finish reasons counted by name (OpenAI's, and the bundled backend's abort); any other is counted as "other"
FINISH_REASONS = frozenset({"stop", "length", "tool_calls", "content_filter", "function_call", "abort"})


class ProxyMetrics:
    """Counters and histograms of one proxy app, and the Prometheus text of all of them."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._models: frozenset[str] = frozenset()
        self._cache_stats: dict[str, Any] = {}
        r = self.registry
        self.requests = Counter("thrifty_requests", "Requests answered, by endpoint, model, route tier, cache "
                                "outcome and HTTP status.", ["endpoint", "model", "route", "cache", "status_code"],
                                registry=r)
        self.latency = Histogram("thrifty_request_duration_seconds", "End-to-end request latency at the proxy.",
                                 ["endpoint", "model", "cache"], buckets=LATENCY_BUCKETS, registry=r)
        self.ttft = Histogram("thrifty_time_to_first_token_seconds", "Time to the first token (the whole answer "
                              "for a non-streamed cache hit).", ["endpoint", "model", "cache"],
                              buckets=LATENCY_BUCKETS, registry=r)
        self.upstream_latency = Histogram("thrifty_upstream_request_duration_seconds", "Upstream call latency "
                                          "(to the whole answer; to the response headers for streams).",
                                          ["upstream"], buckets=LATENCY_BUCKETS, registry=r)
        self.upstream_errors = Counter("thrifty_upstream_errors", "Failed upstream calls, by upstream and error "
                                       "(timeout, unavailable, error, or http_<status> for 429 and 5xx answers).",
                                       ["upstream", "error"], registry=r)
        self.cache_lookups = Counter("thrifty_cache_lookups", "Requests looked up in the response cache.",
                                     registry=r)
        self.cache_hits = Counter("thrifty_cache_hits", "Requests answered from the cache, by kind (exact, "
                                  "semantic); hit ratio = hits / lookups.", ["kind"], registry=r)
        self.router_decisions = Counter("thrifty_router_decisions", "Requests the router sent to each tier.",
                                        ["tier"], registry=r)
        self.batch_lines = Counter("thrifty_batch_lines", "Batch lines finished by this replica's worker, by "
                                   "outcome (completed, failed).", ["outcome"], registry=r)
        self.auth_failures = Counter("thrifty_auth_failures", "Failed admin logins (401) and attempts refused "
                                     "while locked out (429), by surface (ui_login, admin_api).",
                                     ["surface", "status"], registry=r)
        self.error_responses = Counter("thrifty_error_responses", "Requests the proxy answered with an OpenAI error "
                                       "of its own, by status and error code (invalid_api_key, rate_limit_exceeded, "
                                       "insufficient_quota, model_not_found, upstream_timeout...).",
                                       ["status_code", "code"], registry=r)
        self.finishes = Counter("thrifty_finish_reasons", "Answers from an upstream (cache hits excluded), by "
                                "finish reason and the cap the proxy put on them (default, learned, clamped, or "
                                "none: the caller's own limit); finish_reason=\"length\" counts answers a limit cut.",
                                ["model", "finish_reason", "cap"], registry=r)
        self._live = _LiveValues(self._cache_stats)
        r.register(self._live)

    def watch(self, request_log: Any, public_models: Iterable[str]) -> None:
        """Report ``request_log``'s written/dropped counters; label requests with these model names
        (any other requested name is counted as ``other``)."""
        self._live.request_log = request_log
        self._models = frozenset(public_models)

    # --- recording ----------------------------------------------------------------------------

    def observe_request(self, entry: LogEntry) -> None:
        """Count one finished request from its log entry (called once per request by the pipeline)."""
        model = entry.model_requested if entry.model_requested in self._models else _OTHER
        cache = entry.cache_outcome or _NONE
        self.requests.labels(entry.endpoint, model, entry.route or _NONE, cache, str(entry.status_code)).inc()
        if entry.latency_ms is not None:
            self.latency.labels(entry.endpoint, model, cache).observe(entry.latency_ms / 1000)
        if entry.ttft_ms is not None and entry.status_code < 400:
            self.ttft.labels(entry.endpoint, model, cache).observe(entry.ttft_ms / 1000)
        if entry.cache_outcome in (*CACHE_HIT_KINDS, "miss"):
            self.cache_lookups.inc()
            if entry.cache_outcome in CACHE_HIT_KINDS:
                self.cache_hits.labels(entry.cache_outcome).inc()
        if entry.route:
            self.router_decisions.labels(entry.route).inc()
        if entry.finish_reason and entry.cache_outcome not in CACHE_HIT_KINDS:
            reason = entry.finish_reason if entry.finish_reason in FINISH_REASONS else _OTHER  # bounded labels
            self.finishes.labels(model, reason, entry.cap or "none").inc()

    def upstream_answered(self, upstream: str, seconds: float, status: int) -> None:
        """One upstream call that got an HTTP answer; 429 and 5xx also count as errors."""
        self.upstream_latency.labels(upstream).observe(seconds)
        if status == 429 or status >= 500:
            self.upstream_errors.labels(upstream, f"http_{status}").inc()

    def upstream_failed(self, upstream: str, error: str) -> None:
        """One upstream call that failed in transport (``error``: timeout, unavailable, error)."""
        self.upstream_errors.labels(upstream, error).inc()

    def auth_failure(self, surface: str, status: int) -> None:
        """One failed or locked-out admin login (``surface``: ui_login | admin_api; ``status``: 401 | 429)."""
        self.auth_failures.labels(surface, str(status)).inc()

    def error_response(self, status: int, code: str | None) -> None:
        """One error answer built by the proxy (``code``: the error object's code, a fixed string)."""
        self.error_responses.labels(str(status), code or _NONE).inc()

    def watch_circuits(self, states: Callable[[], Mapping[str, str]]) -> None:
        """Report each upstream's circuit-breaker state (closed, open, half_open) read from ``states``
        at scrape time, as ``thrifty_upstream_circuit_state{upstream, state}`` = 1 for the current one."""
        self._live.circuit_states = states

    def batch_line(self, failed: bool) -> None:
        """One batch line whose answer (or error) was recorded."""
        self.batch_lines.labels("failed" if failed else "completed").inc()

    # --- scraping -----------------------------------------------------------------------------

    async def refresh_cache_stats(self, cache: Any) -> None:
        """Read the caches' entry and byte counts (a database count); keeps the last on failure.
        Also takes the cache's lookup-skip and write-back-shed counters (read as they are)."""
        if cache is None:
            return
        self._live.cache = cache
        try:
            stats = await asyncio.wait_for(cache.stats(), _CACHE_STATS_TIMEOUT_S)
        except Exception as exc:  # noqa: BLE001 - a scrape must answer even when the database does not
            log.warning("metrics: could not read cache stats: %r", exc)
            return
        self._cache_stats.clear()
        self._cache_stats.update(stats)

    def render(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)


class _LiveValues(Collector):
    """Values read at scrape time: the request log's counters and the caches' sizes."""

    def __init__(self, cache_stats: dict[str, Any]) -> None:
        self.request_log: Any = None
        self.circuit_states: Callable[[], Mapping[str, str]] | None = None
        self.cache: Any = None  # caches.service.ResponseCache: lookup skips and shed write-backs
        self._cache_stats = cache_stats

    def describe(self) -> Iterator[Metric]:
        return iter(())  # names vary with what is configured; nothing to check at registration

    def collect(self) -> Iterator[Metric]:
        request_log = self.request_log
        if request_log is not None:
            yield CounterMetricFamily("thrifty_proxy_request_log_written", "Request-log rows written.",
                                      value=request_log.written)
            yield CounterMetricFamily("thrifty_proxy_request_log_dropped", "Request-log rows dropped (queue full or "
                                      "write failure).", value=request_log.dropped)
            yield GaugeMetricFamily("thrifty_proxy_request_log_pending", "Request-log rows queued for the database.",
                                    value=request_log.pending)
            yield GaugeMetricFamily("thrifty_proxy_request_log_backpressure", "1 while new requests wait for the "
                                    "request-log writer to catch up, else 0.", value=int(request_log.backpressure))
            yield CounterMetricFamily("thrifty_proxy_request_log_backpressure_waits", "Requests held back until the "
                                      "request-log writer caught up.", value=request_log.backpressure_waits)
            yield CounterMetricFamily("thrifty_proxy_request_log_backpressure_seconds", "Seconds requests spent "
                                      "held back by the request-log writer.", value=request_log.backpressure_seconds)
            yield CounterMetricFamily("thrifty_proxy_request_log_replayed", "Request-log rows written at start-up "
                                      "from the journal of a process that died.", value=request_log.replayed)
        entries = GaugeMetricFamily("thrifty_cache_entries", "Entries in each response cache (as of the last "
                                    "scrape's count).", labels=["cache"])
        size = GaugeMetricFamily("thrifty_cache_bytes", "Stored bytes of each response cache.", labels=["cache"])
        for name, stats in sorted(self._cache_stats.items()):
            entries.add_metric([name], stats.entries)
            size.add_metric([name], stats.bytes)
        yield entries
        yield size
        skips = CounterMetricFamily("thrifty_cache_lookup_skipped", "Semantic lookups given up and forwarded as "
                                    "misses, by reason (late, deadline, queue_full, too_long, error).", labels=["reason"])
        counts = dict.fromkeys(SKIP_REASONS, 0)
        counts.update(getattr(self.cache, "lookup_skips", None) or {})
        for reason, count in sorted(counts.items()):
            skips.add_metric([reason], count)
        yield skips
        yield CounterMetricFamily("thrifty_cache_lookup_proved_miss", "Semantic lookups answered as misses "
                                  "without embedding the query: no cached question of its scope could pass "
                                  "verification.", value=getattr(self.cache, "lookups_proved_miss", 0) or 0)
        yield CounterMetricFamily("thrifty_cache_writeback_shed", "Write-backs whose semantic entry was dropped "
                                  "because the embedding queue was full (the exact entry is still stored).",
                                  value=getattr(self.cache, "writebacks_shed", 0) or 0)
        if self.circuit_states is not None:
            circuits = GaugeMetricFamily("thrifty_upstream_circuit_state", "Each upstream's circuit breaker: 1 for "
                                         "its current state (closed, open, half_open), 0 for the others.",
                                         labels=["upstream", "state"])
            for upstream, current in sorted(self.circuit_states().items()):
                for state in sorted({*CIRCUIT_STATES, current}):
                    circuits.add_metric([upstream, state], 1.0 if state == current else 0.0)
            yield circuits

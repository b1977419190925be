"""The backend's Prometheus metrics, served at ``/metrics``.

Two families of names, from one ``CollectorRegistry`` per server (never the process-wide default):

- vLLM's names (``vllm:num_requests_running``, ``vllm:kv_cache_usage_perc``,
  ``vllm:prefix_cache_hits_total``, ``vllm:time_to_first_token_seconds``…, label ``model_name``),
  so dashboards and alerts written for a vLLM server work unchanged on the bundled backend;
- the ``thrifty_backend_*`` and ``thrifty_engine_*`` names this server has always exposed.

Gauges and engine counters are read from the engine's latest snapshot when Prometheus scrapes;
request counters and latency histograms are recorded as each request finishes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from backend.generation import RequestStats

CONTENT_TYPE = "text/plain; version=0.0.4"  # the server adds "; charset=utf-8"

#: Request latency buckets (seconds), from a cached one-token answer to a long generation.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 320.0)
#: Time-per-output-token buckets (seconds).
TPOT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 2.5)


class BackendMetrics:
    """Request counters, latency histograms and the engine's gauges of one backend server.

    ``engine_snapshot``: returns the engine's latest ``EngineMetrics`` (the engine service's
    ``metrics``); None for a service without an engine (only request metrics then).
    """

    def __init__(self, model_name: str, engine_snapshot: Callable[[], Any] | None = None) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.model_name = model_name
        self.started = time.time()
        self.requests = 0
        self.errors = 0
        self.aborted = 0  # requests whose client went away before the answer was complete
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.in_flight = 0
        r, labels = self.registry, ["model_name"]
        self._ttft = Histogram("vllm:time_to_first_token_seconds", "Time to the first token, from arrival.",
                               labels, buckets=LATENCY_BUCKETS, registry=r).labels(model_name)
        self._e2e = Histogram("vllm:e2e_request_latency_seconds", "End-to-end request latency.", labels,
                              buckets=LATENCY_BUCKETS, registry=r).labels(model_name)
        self._queue = Histogram("vllm:request_queue_time_seconds", "Time a request waited before its first step.",
                                labels, buckets=LATENCY_BUCKETS, registry=r).labels(model_name)
        self._tpot = Histogram("vllm:time_per_output_token_seconds", "Mean time per output token after the first.",
                               labels, buckets=TPOT_BUCKETS, registry=r).labels(model_name)
        r.register(_Snapshot(self, engine_snapshot))

    def finished(self, stats: RequestStats) -> None:
        """Count one request's tokens and observe its latencies (also for an aborted request)."""
        self.prompt_tokens += stats.prompt_tokens
        self.completion_tokens += stats.completion_tokens
        if stats.total_time > 0:
            self._e2e.observe(stats.total_time)
            self._queue.observe(stats.queue_time)
        if stats.ttft is not None:
            self._ttft.observe(stats.ttft)
        if stats.tpot is not None:
            self._tpot.observe(stats.tpot)

    def render(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)


class _Snapshot(Collector):
    """Counters and gauges read at scrape time (the server's counts, the engine's snapshot)."""

    def __init__(self, metrics: BackendMetrics, engine_snapshot: Callable[[], Any] | None) -> None:
        self._m = metrics
        self._engine = engine_snapshot

    def describe(self) -> Iterator[Metric]:
        return iter(())  # the engine's names appear only when there is an engine

    def collect(self) -> Iterator[Metric]:
        m = self._m
        yield _counter("thrifty_backend_requests", "Requests accepted for generation.", m.requests)
        yield _counter("thrifty_backend_errors", "Requests that failed inside the server.", m.errors)
        yield _counter("thrifty_backend_aborted_requests", "Requests aborted because the client went away.",
                       m.aborted)
        yield _counter("thrifty_backend_prompt_tokens", "Prompt tokens of finished requests.", m.prompt_tokens)
        yield _counter("thrifty_backend_generation_tokens", "Generated tokens of finished requests.",
                       m.completion_tokens)
        yield _gauge("thrifty_backend_requests_in_flight", "Requests being answered now.", m.in_flight)
        model = [m.model_name]
        yield _counter("vllm:prompt_tokens", "Prompt tokens of finished requests.", m.prompt_tokens, model)
        yield _counter("vllm:generation_tokens", "Generated tokens of finished requests.", m.completion_tokens, model)
        if self._engine is None:
            return
        e = self._engine()
        yield _gauge("vllm:num_requests_running", "Sequences in the running batch.", e.running, model)
        yield _gauge("vllm:num_requests_waiting", "Sequences waiting to be scheduled.", e.waiting, model)
        usage = e.blocks_used / e.blocks_total if e.blocks_total else 0.0
        yield _gauge("vllm:kv_cache_usage_perc", "Fraction of KV-cache blocks held by sequences (0-1).", usage, model)
        yield _counter("vllm:prefix_cache_queries", "Prompt tokens looked up in the prefix cache.",
                       e.prefix_cache_queries, model)
        yield _counter("vllm:prefix_cache_hits", "Prompt tokens found in the prefix cache.", e.prefix_cache_hits,
                       model)
        yield _counter("vllm:num_preemptions", "Sequences preempted because the KV cache ran out.", e.preemptions,
                       model)
        if getattr(e, "spec_enabled", False):  # speculative decoding, from start-up (vLLM's spec_decode names)
            yield _counter("vllm:spec_decode_num_drafts", "Verifications of draft tokens (per sequence and step).",
                           e.spec_verifications, model)
            yield _counter("vllm:spec_decode_num_draft_tokens", "Draft tokens verified.", e.spec_draft_tokens, model)
            yield _counter("vllm:spec_decode_num_accepted_tokens", "Draft tokens accepted.", e.spec_accepted_tokens,
                           model)
            yield _gauge("thrifty_engine_spec_acceptance_rate", "Accepted / verified draft tokens since start.",
                         e.spec_accepted_tokens / e.spec_draft_tokens if e.spec_draft_tokens else 0.0)
            yield _gauge("thrifty_engine_spec_mean_accepted_length",
                         "Tokens emitted per verification (accepted drafts + the target's own token).",
                         (e.spec_accepted_tokens + e.spec_verifications) / e.spec_verifications
                         if e.spec_verifications else 0.0)
        for name, doc, value, kind in (
            ("running_seqs", "Sequences in the running batch.", e.running, _gauge),
            ("waiting_seqs", "Sequences waiting to be scheduled.", e.waiting, _gauge),
            ("kv_blocks_total", "KV-cache blocks in the pool.", e.blocks_total, _gauge),
            ("kv_blocks_used", "KV-cache blocks held by sequences.", e.blocks_used, _gauge),
            ("kv_blocks_cached", "Free KV-cache blocks still holding a reusable prefix.", e.blocks_cached, _gauge),
            ("kv_blocks_free", "KV-cache blocks free to allocate.", e.blocks_free, _gauge),
            ("prefix_cache_hit_rate", "Prompt tokens served from the prefix cache / tokens looked up.",
             e.prefix_cache_hit_rate, _gauge),
            ("prefix_cache_queried_tokens", "Prompt tokens looked up in the prefix cache.", e.prefix_cache_queries,
             _counter),
            ("prefix_cache_hit_tokens", "Prompt tokens found in the prefix cache.", e.prefix_cache_hits, _counter),
            ("generation_tokens_per_second", "Generated tokens per second over the last few seconds.",
             e.generation_tokens_per_s, _gauge),
            ("prompt_tokens_per_second", "Prompt tokens computed per second over the last few seconds.",
             e.prompt_tokens_per_s, _gauge),
            ("preemptions", "Sequences preempted because the KV cache ran out.", e.preemptions, _counter),
            ("steps", "Engine steps run.", e.steps, _counter),
            ("generated_tokens", "Tokens the engine generated (aborted requests included).", e.generated_tokens,
             _counter),
        ):
            yield kind(f"thrifty_engine_{name}", doc, value)


def _counter(name: str, documentation: str, value: float, label_values: list[str] | None = None) -> Metric:
    family = CounterMetricFamily(name, documentation, labels=["model_name"] if label_values else None)
    family.add_metric(label_values or [], value)
    return family


def _gauge(name: str, documentation: str, value: float, label_values: list[str] | None = None) -> Metric:
    family = GaugeMetricFamily(name, documentation, labels=["model_name"] if label_values else None)
    family.add_metric(label_values or [], value)
    return family

"""Thrifty's benchmarks and evaluations (``thrifty bench ...``, ``thrifty eval ...``), kept out of the runtime.

Organised by what they measure: ``proxy`` (added latency, sustained load), ``engine`` (the bundled
backend: throughput, profiles, speculative decoding, quantized weights, KV dtypes), ``kernels``,
``router``, ``savings``, ``shaping``, ``ui``, ``batch`` and ``caches``. Shared parts: :mod:`.harness`
(child servers, readiness, free ports), :mod:`.sse` (one SSE reader) and :mod:`.batches` (one
Batches API client).

This package may import every runtime package (``proxy``, ``router``, ``caches``, ``backend``,
``kernels``); none of them imports it (an import-linter contract in ``pyproject.toml``). The CLI loads
its modules lazily, by name, when a ``bench`` or ``eval`` command runs.
"""

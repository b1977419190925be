"""``thrifty bench engine`` pieces: the seeded workload, percentiles, tables, a tiny Thrifty replay."""

from __future__ import annotations

import math

import pytest

from backend.engine import EngineConfig
from benchmarks.engine.workload import (
    BenchResult,
    RequestTiming,
    WorkloadSpec,
    make_workload,
    percentile,
    results_table,
    run_thrifty,
)
from tests.backend.test_engine_support import TINY, tiny_loaded


def test_workload_is_seeded_and_within_bounds() -> None:
    spec = WorkloadSpec(num_requests=200, min_prompt=16, max_prompt=1024, min_output=8, max_output=512, seed=3)
    a, b = make_workload(spec), make_workload(spec)
    assert a == b
    assert all(16 <= len(r.prompt_ids) <= 1024 and 8 <= r.output_len <= 512 for r in a)
    assert all(r.arrival == 0.0 for r in a)
    lengths = sorted(len(r.prompt_ids) for r in a)
    assert lengths[len(lengths) // 2] < sum(lengths) / len(lengths)  # long-tailed: median below mean
    poisson = make_workload(WorkloadSpec(num_requests=50, rate=10.0, seed=3))
    arrivals = [r.arrival for r in poisson]
    assert arrivals == sorted(arrivals) and 2.0 < arrivals[-1] < 10.0
    assert make_workload(WorkloadSpec(num_requests=5, seed=4)) != make_workload(WorkloadSpec(num_requests=5, seed=5))


def test_percentile_and_table() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([5.0], 99) == 5.0
    assert math.isnan(percentile([], 50))
    timings = [RequestTiming(0.0, 3, first_token=0.1, finish=0.3, tokens=3),
               RequestTiming(0.0, 1, first_token=0.2, finish=0.2, tokens=1)]
    result = BenchResult("x", timings, wall=2.0)
    assert result.output_tokens == 4 and result.throughput == 2.0
    assert result.tpots() == pytest.approx([0.1])
    table = results_table([result])
    assert "| x | 2 | 4 | 2.0 | 2.0 |" in table


def test_thrifty_replay_on_a_tiny_model() -> None:
    spec = WorkloadSpec(num_requests=12, min_prompt=4, max_prompt=40, min_output=2, max_output=20, seed=1)
    workload = make_workload(spec, token_low=2, token_high=TINY.vocab_size)
    config = EngineConfig(block_size=4, num_blocks=256, max_model_len=128, max_num_seqs=8, max_num_batched_tokens=32)
    result = run_thrifty(tiny_loaded(), workload, config, progress=False)
    assert result.output_tokens == sum(r.output_len for r in workload)
    assert len(result.ttfts()) == 12 and all(t >= 0 for t in result.ttfts())
    assert all(t.finish is not None and t.tokens == t.output_len for t in result.timings)

"""The bound ``thrifty eval shaping --part bound`` reports: the prompt tokens a perfect prefix cache
could serve, per token and per whole block."""

from __future__ import annotations

from proxy.shaping.evaluation import prefix_bounds, trace_runs


def test_prefix_bounds_count_the_longest_earlier_prefix_per_token_and_per_block() -> None:
    prompts = [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 9, 9, 9], [1, 2, 7], [1, 2, 3, 4, 5, 6]]
    # second: 4 shared with the first; third: 2; fourth: 5 (its last token is always computed)
    assert prefix_bounds(prompts, block_size=1) == (11, 11)
    assert prefix_bounds(prompts, block_size=4) == (11, 8)
    assert prefix_bounds([[5, 6, 7]], block_size=2) == (0, 0)


def test_the_trace_runs_compare_off_safe_and_replica_choice() -> None:
    labels = [r.label for r in trace_runs(2)]
    assert labels[:3] == ["off", "safe", "safe, note in system prompt"]
    assert [r.replica_choice for r in trace_runs(2)[3:]] == ["random", "prefix"]
    assert [r.note_position for r in trace_runs(1)] == ["auto", "auto", "system"]

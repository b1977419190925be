"""The drafting policy sizes drafts by what extra rows cost on this machine: the step-cost averages, the
draft length they lead to, and the engine reporting its decode steps."""

from __future__ import annotations

import pytest
import torch

from backend.engine import Engine, EngineConfig
from backend.engine.sequence import Sequence, SequenceStatus
from backend.sampling import SamplingParams
from backend.speculative.config import SpeculativeConfig
from backend.speculative.decoder import SpeculativeDecoder
from backend.speculative.step_cost import MIN_SAMPLES, PRIOR_ROW_COST, StepCosts
from tests.backend.test_engine_support import check_greedy_equal, oracle_tokens, run_engine, tiny_loaded


def _costs(seconds_by_rows: dict[int, float]) -> StepCosts:
    costs = StepCosts(max_rows=8)
    for rows, seconds in seconds_by_rows.items():
        for _ in range(MIN_SAMPLES):
            costs.observe(rows, seconds)
    return costs


def test_ratios_come_from_the_prior_until_both_row_counts_are_measured() -> None:
    costs = StepCosts(max_rows=8)
    assert costs.ratio(1, 5) == pytest.approx(1 + 4 * PRIOR_ROW_COST)
    for _ in range(MIN_SAMPLES):
        costs.observe(1, 0.010)
    assert costs.measured(1) == pytest.approx(0.010)
    assert costs.ratio(1, 5) == pytest.approx(1 + 4 * PRIOR_ROW_COST)  # 5 rows not seen yet
    for _ in range(MIN_SAMPLES):
        costs.observe(5, 0.025)
    assert costs.ratio(1, 5) == pytest.approx(2.5)
    assert costs.ratio(5, 1) == 1.0 and costs.ratio(3, 3) == 1.0


def test_the_average_follows_a_change_and_never_reports_fewer_rows_as_dearer() -> None:
    costs = _costs({1: 0.010, 2: 0.009})  # noise: two rows measured cheaper than one
    assert costs.ratio(1, 2) == 1.0
    for _ in range(60):
        costs.observe(2, 0.030)  # the machine got busier for two-row steps
    assert costs.ratio(1, 2) == pytest.approx(3.0, rel=0.01)


@pytest.mark.parametrize("rows, seconds", [(0, 0.01), (-1, 0.01), (9, 0.01), (1, 0.0), (1, -1.0), (1, float("nan"))])
def test_bad_observations_are_ignored(rows: int, seconds: float) -> None:
    costs = StepCosts(max_rows=8)
    for _ in range(MIN_SAMPLES):
        costs.observe(rows, seconds)
    assert all(costs.measured(r) is None for r in range(1, 9))


def test_a_step_cost_table_needs_a_row() -> None:
    with pytest.raises(ValueError, match="max_rows"):
        StepCosts(max_rows=0)


def _sequence() -> Sequence:
    tokens = [1, 2, 3, 4, 5, 6, 1, 2]  # prompt lookup finds "3 4 5 6" after "1 2"
    seq = Sequence(seq_id=0, request_id="r", index=0, token_ids=list(tokens), prompt_len=len(tokens) - 1,
                   params=SamplingParams(max_tokens=10_000, temperature=0.0))
    seq.status, seq.num_computed = SequenceStatus.RUNNING, len(tokens) - 1
    return seq


class _Repeat:
    """Drafts the k tokens that follow; every one of them will be accepted by the test's logits."""

    def propose(self, requests: list[tuple[Sequence, int]]) -> None:
        for seq, k in requests:
            seq.draft_ids, seq.draft_probs = [7] * k, None


def _accept_all(decoder: SpeculativeDecoder, seq: Sequence) -> None:
    k = len(seq.draft_ids)
    logits = torch.zeros(k + 1, 16)
    logits[:, 7] = 1.0
    verdict = decoder.verify(seq, logits, k)
    seq.token_ids.extend(verdict.tokens)
    seq.num_computed = seq.num_tokens - 1


@pytest.mark.parametrize("extra_row_cost, expected", [
    (0.0, 4),   # rows are free (a GPU, a memory-bound step): draft all K
    (0.3, 4),   # a well-accepted sequence still pays for every draft
    (1.0, 0),   # each extra row costs a whole step: no length beats plain decoding, drafting pauses
])
def test_a_well_accepted_sequence_drafts_what_its_machine_pays_for(extra_row_cost: float, expected: int) -> None:
    decoder = SpeculativeDecoder(SpeculativeConfig("ngram", 4), _Repeat(), 100_000)
    decoder.step_costs = _costs({rows: 0.01 * (1 + extra_row_cost * (rows - 1)) for rows in range(1, 6)})
    seq = _sequence()
    lengths = []
    for _ in range(6):
        decoder.propose([seq])
        lengths.append(len(seq.draft_ids))
        if seq.draft_ids:
            _accept_all(decoder, seq)
        else:
            seq.token_ids.append(7)
            seq.num_computed = seq.num_tokens - 1
    assert lengths[-1] == expected
    if expected == 0:
        assert seq.spec.drafted == 0 and seq.spec.paused_until > 0


def test_a_doubtful_sequence_drafts_less_where_rows_are_dear() -> None:
    """At the starting estimate (0.6), free rows buy all K; rows at half a step each buy only one draft."""
    for extra_row_cost, expected in ((0.0, 4), (0.5, 1)):
        decoder = SpeculativeDecoder(SpeculativeConfig("ngram", 4), _Repeat(), 100_000)
        decoder.step_costs = _costs({rows: 0.01 * (1 + extra_row_cost * (rows - 1)) for rows in range(1, 6)})
        seq = _sequence()
        decoder.propose([seq])
        assert len(seq.draft_ids) == expected


def test_without_auto_off_every_step_drafts_k_whatever_rows_cost() -> None:
    decoder = SpeculativeDecoder(SpeculativeConfig("ngram", 4, auto_off=False), _Repeat(), 100_000)
    decoder.step_costs = _costs({rows: 0.01 * rows for rows in range(1, 6)})
    seq = _sequence()
    decoder.propose([seq])
    assert len(seq.draft_ids) == 4


def test_the_engine_reports_its_decode_steps_and_the_answer_does_not_change() -> None:
    loaded = tiny_loaded()
    engine = Engine(loaded, EngineConfig(block_size=4, num_blocks=64, max_model_len=192, max_num_seqs=4,
                                         max_num_batched_tokens=32, speculative=SpeculativeConfig("ngram", 4)))
    prompt = [3, 4, 5, 6] * 4
    params = SamplingParams(max_tokens=48, temperature=0.0, ignore_eos=True)
    tokens = run_engine(engine, [("a", prompt, params)])["a"][0]
    costs = engine.speculator.step_costs
    assert any(costs.measured(rows) is not None for rows in range(1, 6))
    assert costs.measured(6) is None  # nothing beyond one sequence's row and its K drafts ran
    check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), tokens)

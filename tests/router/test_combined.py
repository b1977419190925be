"""Combined routing's cost/quality arithmetic and its threshold choice, checked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from router.combined import choose_thresholds, combined_outcome

# four prompts: the first two need the large model (weak wrong, strong right)
PROMPT = np.array([0.9, 0.2, 0.1, 0.3])  # the prompt router is sure only about prompt 0
ESCALATION = np.array([0.5, 0.8, 0.1, 0.2])  # the escalation model catches prompt 1
WEAK = np.array([0.0, 0.0, 1.0, 1.0])
STRONG = np.array([1.0, 1.0, 1.0, 1.0])


def test_outcome_counts_the_wasted_small_call_of_escalated_prompts():
    out = combined_outcome(PROMPT, ESCALATION, WEAK, STRONG, direct_threshold=0.5, escalation_threshold=0.6,
                           cost_ratio=0.1)
    # prompt 0 direct (1.0); prompts 1-3 cascade (0.1 each); prompt 1 escalated (+1.0)
    assert out.cost == pytest.approx((1.0 + 3 * 0.1 + 1.0) / 4)
    assert (out.direct_share, out.escalated_share) == (0.25, 0.25)
    assert out.quality == 1.0 and out.pgr == pytest.approx(1.0)

    cascade_only = combined_outcome(PROMPT, ESCALATION, WEAK, STRONG, np.inf, 0.6, cost_ratio=0.1)
    assert cascade_only.cost == pytest.approx((4 * 0.1 + 1.0) / 4)
    assert cascade_only.quality == 0.75 and cascade_only.pgr == pytest.approx(0.5)


def test_choice_is_the_cheapest_pair_reaching_the_floor():
    chosen = choose_thresholds(PROMPT, ESCALATION, WEAK, STRONG, min_pgr=1.0, cost_ratio=0.1)
    # all-large costs 1; the cascade alone must escalate prompt 0 too (0.1 + 0.5 = 0.6);
    # sending prompt 0 direct and escalating prompt 1 costs 0.575
    assert chosen.cost == pytest.approx(0.575) and chosen.pgr == pytest.approx(1.0)
    assert PROMPT[0] >= chosen.direct_threshold > PROMPT[3]
    assert ESCALATION[1] >= chosen.escalation_threshold > ESCALATION[3]

    alone = choose_thresholds(PROMPT, ESCALATION, WEAK, STRONG, min_pgr=1.0, cost_ratio=0.1, direct=False)
    assert alone.direct_share == 0.0 and alone.cost == pytest.approx(0.6)

    # a floor met on all rows but not in one fold rules the pair out
    lenient = choose_thresholds(PROMPT, ESCALATION, WEAK, STRONG, min_pgr=0.5, cost_ratio=0.1)
    strict = choose_thresholds(PROMPT, ESCALATION, WEAK, STRONG, min_pgr=0.5, cost_ratio=0.1,
                               folds=[np.array([0, 2]), np.array([1, 3])])
    assert lenient.cost < strict.cost

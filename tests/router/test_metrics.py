from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.metrics import apgr, apgr_grid, cpt, curve_table, optimal_curve, routing_curve


def test_small_example_by_hand() -> None:
    weak = np.array([1, 0, 0, 1], float)
    strong = np.array([1, 1, 1, 0], float)
    scores = np.array([0.1, 0.9, 0.8, 0.2])  # routes the two "large needed" prompts first
    curve = routing_curve(scores, weak, strong)
    assert curve.weak_quality == 0.5 and curve.strong_quality == 0.75
    np.testing.assert_allclose(curve.quality, [0.5, 0.75, 1.0, 0.75, 0.75])
    np.testing.assert_allclose(curve.pgr, [0.0, 1.0, 2.0, 1.0, 1.0])
    assert cpt(curve, 0.5) == 0.25 and cpt(curve, 0.8) == 0.25
    # trapezoid over shares 0, .25, .5, .75, 1
    assert apgr(curve) == pytest.approx(np.trapezoid([0, 1, 2, 1, 1], [0, 0.25, 0.5, 0.75, 1]))


def test_reverse_ordering_is_worse() -> None:
    rng = np.random.default_rng(0)
    weak = rng.integers(0, 2, 500).astype(float)
    strong = np.maximum(weak, rng.integers(0, 2, 500)).astype(float)
    gain = strong - weak
    good = apgr(routing_curve(gain, weak, strong))
    bad = apgr(routing_curve(-gain, weak, strong))
    assert good > 0.5 > bad
    assert apgr(optimal_curve(weak, strong)) == pytest.approx(good)


def test_random_scores_give_about_half() -> None:
    rng = np.random.default_rng(1)
    weak = rng.integers(0, 2, 20_000).astype(float)
    strong = np.maximum(weak, rng.integers(0, 2, 20_000)).astype(float)
    curve = routing_curve(rng.random(20_000), weak, strong)
    assert apgr(curve) == pytest.approx(0.5, abs=0.02)
    assert apgr_grid(curve) == pytest.approx(0.5, abs=0.02)
    assert cpt(curve, 0.5) == pytest.approx(0.5, abs=0.03)


def test_ties_do_not_depend_on_input_order() -> None:
    weak = np.array([0, 0, 1, 1], float)
    strong = np.array([1, 1, 1, 1], float)
    constant = np.zeros(4)
    a = routing_curve(constant, weak, strong, tie_seed=3)
    b = routing_curve(constant, weak[::-1].copy(), strong, tie_seed=3)
    assert a.quality[-1] == b.quality[-1] == 1.0


def test_cpt_unreachable_and_zero_gap() -> None:
    curve = routing_curve([0.3, 0.2, 0.1], np.zeros(3), np.ones(3))
    assert math.isnan(cpt(curve, 1.5))
    same = routing_curve([0.1, 0.2], np.ones(2), np.ones(2))
    assert np.isnan(same.pgr).all() and math.isnan(cpt(same, 0.5))


def test_table_rows() -> None:
    curve = routing_curve(np.arange(10.0), np.zeros(10), np.ones(10))
    table = curve_table(curve)
    assert [round(p.share, 1) for p in table] == [i / 10 for i in range(11)]
    assert table[0].pgr == 0.0 and table[-1].pgr == 1.0
    assert table[3].quality == pytest.approx(0.3)


def test_bad_shapes() -> None:
    with pytest.raises(ValueError):
        routing_curve([0.1, 0.2], [1.0], [1.0, 0.0])
    with pytest.raises(ValueError):
        routing_curve([], [], [])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.floats(0, 1)), min_size=2, max_size=60))
def test_curve_invariants(rows: list[tuple[bool, bool, float]]) -> None:
    weak = np.array([r[0] for r in rows], float)
    strong = np.array([r[1] for r in rows], float)
    scores = np.array([r[2] for r in rows])
    curve = routing_curve(scores, weak, strong)
    assert curve.quality[0] == pytest.approx(weak.mean())
    assert curve.quality[-1] == pytest.approx(strong.mean())
    oracle = optimal_curve(weak, strong)
    assert np.all(oracle.quality >= curve.quality - 1e-12)

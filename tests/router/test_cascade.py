from __future__ import annotations

import numpy as np
import pytest

from router.cascade import (
    ANSWER_FEATURE_NAMES,
    answer_features,
    cascade_features,
    final_number,
    fit_escalation,
)
from router.errors import RouterDataError
from router.features import STAT_NAMES, prompt_body

BODY = prompt_body("Tom has 3 boxes of 4 apples and buys 5 more apples. How many apples does he have?")


def _f(answer: str) -> dict[str, float]:
    return dict(zip(ANSWER_FEATURE_NAMES, answer_features(BODY, answer).tolist(), strict=True))


def test_a_clean_answer() -> None:
    f = _f("3 boxes of 4 is 3*4 = <<3*4=12>>12 apples.\nThen 12 + 5 = <<12+5=17>>17.\n#### 17")
    assert f["has_final"] == 1.0 and f["no_final_number"] == 0.0
    assert f["any_calc_error"] == 0.0 and f["any_equation_error"] == 0.0
    assert f["final_differs_from_last_result"] == 0.0 and f["final_not_integer"] == 0.0
    assert f["log_calcs"] == pytest.approx(np.log1p(2))


def test_wrong_arithmetic_a_missing_final_answer_and_hedging_are_seen() -> None:
    f = _f("3 * 4 = <<3*4=13>>13 apples, however 13 + 5 = 19 so")
    assert f["any_calc_error"] == 1.0 and f["any_equation_error"] == 1.0
    assert f["no_final_number"] == 1.0 and f["log_hedges"] > 0
    g = _f("The answer is 8.5")
    assert g["has_final"] == 1.0 and g["final_not_integer"] == 1.0
    assert _f("line\nline\nline\n#### 5")["repeated_lines"] == pytest.approx(0.5)


def test_arithmetic_in_dollars_is_checked() -> None:
    assert _f("She pays 20 * $40 = $80 for the ties.\n#### 80")["any_equation_error"] == 1.0
    assert _f("She pays 20 * $40 = $800 for the ties.\n#### 800")["any_equation_error"] == 0.0
    assert _f("$30.00 / $30.00 = 0.02")["any_equation_error"] == 1.0


def test_expressions_are_never_executed_beyond_arithmetic() -> None:
    f = _f("<<__import__('os').getcwd()=1>> <<9**9**9=1>> #### 1")
    assert f["any_calc_error"] == 0.0  # not evaluated, so not counted either way


def test_escalation_model_learns_from_answer_features() -> None:
    good = "3*4 = <<3*4=12>>12; 12 + 5 = <<12+5=17>>17\n#### 17"
    bad = "3*4 = <<3*4=13>>13; so roughly, however"
    x = np.vstack([cascade_features(BODY, good if i % 2 else bad) for i in range(40)])
    y = np.array([0.0 if i % 2 else 1.0 for i in range(40)])
    y[:4] = 1 - y[:4]  # some noise
    model = fit_escalation(x, y)
    assert x.shape[1] == len(ANSWER_FEATURE_NAMES) + len(STAT_NAMES)
    p_bad, p_good = model.predict(np.vstack([cascade_features(BODY, bad), cascade_features(BODY, good)]))
    assert p_bad > 0.5 > p_good
    with pytest.raises(RouterDataError, match="both classes"):
        fit_escalation(x, np.zeros(40))


def test_final_number_prefers_the_last_marked_answer() -> None:
    assert final_number("so 3 + 4 = 7\n#### 1,250") == 1250.0
    assert final_number("#### 5 ... corrected: #### 6") == 6.0
    assert final_number("The answer is: $18.") == 18.0
    assert final_number("first 3 then 12 eggs") == 12.0
    assert final_number("no digits here") is None

"""The escalation model learned from the proxy's own traffic (``thrifty eval savings --learn-escalation``):
the threshold choice by hand, disjoint training traces, and one real exploration run (replay upstream,
``thrifty proxy serve`` child storing the weak answers, feedback, retraining)."""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from benchmarks.harness import serve_in_thread
from benchmarks.savings import evaluation, runs
from benchmarks.savings.learning import (
    TrafficRow,
    allowed_bad_answers,
    choose_thresholds,
    evaluation_questions,
    learn_escalation,
    out_of_fold_scores,
)
from benchmarks.savings.replay import ReplayBook, load_book, make_app
from benchmarks.savings.runs import _header_score
from benchmarks.savings.trace import TraceLine, default_trace
from proxy.pricing import ModelPrice
from router.escalation import load_escalation, public_escalation_rows
from tests.benchmarks.savings.conftest import GSM_ROWS


def _row(prompt: float, escalation: float, bad: bool, weak: float = 1.0, strong: float = 10.0) -> TrafficRow:
    return TrafficRow(prompt, escalation, bad, weak, strong)


def test_threshold_choice_by_hand() -> None:
    rows = [_row(0.9, 0.8, True), _row(0.1, 0.7, True), _row(0.2, 0.3, True), _row(0.1, 0.2, False),
            _row(0.3, 0.1, False)]
    best, candidates = choose_thresholds(rows, max_bad_served=0, grid=(0.5, 1.0))
    by_direct = {c.direct: c for c in candidates}
    # d = 0.5: row 0 direct (10); the others' bad escalation scores are 0.7, 0.3, so t = 0.3 escalates rows 1, 2;
    # cost = 10 + 4 weak calls + 2 strong calls = 34
    assert by_direct[0.5].escalation == pytest.approx(0.3)
    assert by_direct[0.5].cost_usd == pytest.approx(34.0)
    assert by_direct[0.5].bad_served == 0
    # d = 1.0: nothing direct; t = 0.3 escalates rows 0, 1, 2: 5 weak + 3 strong = 35
    assert by_direct[1.0].cost_usd == pytest.approx(35.0)
    assert best.direct == 0.5
    # allowing one bad answer served: d = 1.0 now keeps the lowest bad one (0.3) weak: t = 0.7
    best, candidates = choose_thresholds(rows, max_bad_served=1, grid=(1.0,))
    assert (best.escalation, best.bad_served) == (pytest.approx(0.7), 1)
    assert best.cost_usd == pytest.approx(5 + 2 * 10)


def test_no_bad_answer_left_to_catch_escalates_nothing() -> None:
    best, _ = choose_thresholds([_row(0.1, 0.4, False), _row(0.2, 0.9, False)], max_bad_served=0, grid=(1.0,))
    assert (best.escalation, best.cost_usd) == (1.0, 2.0)


def test_quality_budget_in_points_of_the_training_requests() -> None:
    assert allowed_bad_answers(280, 1.0) == 2  # 2.8 rounded down
    assert allowed_bad_answers(300, 1.0) == 3
    assert allowed_bad_answers(99, 1.0) == 0
    assert allowed_bad_answers(280, 0.0) == 0


def test_out_of_fold_scores_never_use_a_row_to_score_itself() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 3))
    y = (x[:, 0] > 0).astype(float)
    scores = out_of_fold_scores(None, x, y, c=1.0)
    assert scores.shape == (40,) and np.isfinite(scores).all()
    assert ((scores > 0.5) == (y > 0.5)).mean() > 0.8  # the signal carries over to held-out folds


def test_training_trace_is_disjoint_from_the_evaluated_one(book: ReplayBook) -> None:
    sizes = {"mmlu": 1, "gsm8k": 2, "faq": 1, "repeats": 1, "paraphrases": 0}
    evaluated = default_trace(book, 0, **sizes)
    training = default_trace(book, 1, exclude=[line.ref for line in evaluated], **sizes)
    refs = {json.dumps(line.ref, sort_keys=True) for line in evaluated}
    assert not refs & {json.dumps(line.ref, sort_keys=True) for line in training}
    with pytest.raises(ValueError):  # the tiny data has 5 GSM8K rows: 2 taken, 3 left
        default_trace(book, 1, exclude=[line.ref for line in evaluated], **{**sizes, "gsm8k": 4})
    # --train-scale: each kind's count scaled, still disjoint
    small = {"mmlu": 1, "gsm8k": 1, "faq": 0, "repeats": 1, "paraphrases": 0}
    evaluated = default_trace(book, 0, **small)
    scaled = default_trace(book, 1, exclude=[line.ref for line in evaluated], scale=2, **small)
    assert Counter(line.kind.removesuffix(" (batch)") for line in scaled) == {"mmlu": 2, "gsm8k": 2, "repeat": 2}
    assert not {json.dumps(line.ref, sort_keys=True) for line in evaluated} & {
        json.dumps(line.ref, sort_keys=True) for line in scaled if line.kind != "repeat"}


def test_public_rows_asked_by_the_evaluated_trace_are_left_out(data_dir: Path) -> None:
    x_all, y_all = public_escalation_rows(data_dir)
    x_some, y_some = public_escalation_rows(data_dir, {GSM_ROWS[2][0]})
    assert len(y_all) == len(GSM_ROWS) and len(y_some) == len(GSM_ROWS) - 1
    assert y_all.sum() == 1 and y_some.sum() == 0  # row 2 is the one the weak model gets wrong


@pytest.mark.parametrize(("value", "expected"), [("0.25", 0.25), ("nan", None), (None, None), ("x", None)])
def test_route_score_header(value: str | None, expected: float | None) -> None:
    assert _header_score(value) == expected


def _gsm_line(n: int, row: int, t: float) -> TraceLine:
    body = {"model": "thrifty-auto", "messages": [{"role": "user", "content": GSM_ROWS[row][0]}], "temperature": 0}
    return TraceLine(n, t, "sk-learn", body, {"source": "gsm8k", "id": str(row)}, batch=n == 3, kind="gsm8k")


def test_exploration_run_retrains_from_feedback(data_dir: Path, tmp_path: Path) -> None:
    """A real proxy serves every weak answer, stores it, receives the grades as feedback; the model is
    retrained from that log (logged answers only) and the thresholds are chosen on it."""
    training = [_gsm_line(n, row, 0.05 * n) for n, row in enumerate([0, 1, 2, 3, 4, 2, 0, 1], start=1)]
    evaluated = [_gsm_line(1, 4, 0.0)]
    args = argparse.Namespace(concurrency=2, time_scale=1.0, batch_timeout=60.0, batch_discount=0.5,
                              logs_only=True, quality_budget=0.0, escalation_out=None)
    weak, strong = runs.WEAK_MODEL, runs.STRONG_MODEL  # the names the child proxy is configured with
    book = load_book(data_dir, weak, strong)
    prices = {weak: ModelPrice(weak, 1.0, 1.0), strong: ModelPrice(strong, 10.0, 30.0)}
    with serve_in_thread(make_app(book)) as upstream:
        learned = learn_escalation(book, upstream, training, evaluated, args, prices, data_dir, tmp_path)
    assert learned.feedback_sent == len(training) and learned.feedback_failed == 0
    assert learned.judged == len(training)  # every weak answer was served, stored and judged
    assert learned.bad == 2  # row 2 twice: the weak model's answer is wrong
    assert "proxy logs, 8 judged small answers, 2 judged bad" in learned.provenance
    artifact = load_escalation(learned.artifact)
    assert artifact.model.weight.shape[0] > 0
    # a budget of 0 points: the chosen pair leaves no bad answer served on the training traffic
    chosen = next(c for c in learned.candidates
                  if (c.direct, c.escalation) == (learned.direct_threshold, learned.threshold))
    assert chosen.bad_served == 0
    # a budget of 0 on 8 rows: the cascade alone escalates every weak answer, so every weak call is of no use
    # and there is no request class to learn a direct route from: none is saved, the shipped prompt router
    # keeps deciding (tests/router/training/test_direct_route.py learns one)
    assert learned.router_artifact is None


def test_learning_needs_combined_mode_and_a_sane_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    (data / "router").mkdir(parents=True)
    assert evaluation.main(["--data-dir", str(data), "--learn-escalation"]) == 2
    assert "--learn-escalation needs --router-mode combined" in capsys.readouterr().err
    assert evaluation.main(["--data-dir", str(data), "--router-mode", "combined", "--learn-escalation",
                            "--quality-budget", "-1"]) == 2
    assert "--quality-budget must lie in [0, 100]" in capsys.readouterr().err
    assert evaluation.main(["--data-dir", str(data), "--router-mode", "combined", "--learn-escalation",
                            "--train-scale", "0"]) == 2
    assert "--train-scale must lie in [1, 10]" in capsys.readouterr().err


def test_an_unknown_prompt_score_is_cascaded_not_sent_direct() -> None:
    rows = [_row(-math.inf, 0.9, True), _row(0.1, 0.1, False)]
    _, candidates = choose_thresholds(rows, max_bad_served=0, grid=(0.1, 1.0))
    assert all(c.direct_share == 0.5 for c in candidates if c.direct == 0.1)  # only the scored row goes direct
    assert all(c.bad_served == 0 and c.escalated_share == 0.5 for c in candidates)  # the bad one is escalated


def test_a_repeated_question_shares_its_fold() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(30, 3))
    y = (x[:, 0] > 0).astype(float)
    x, y = np.vstack([x, x[:10]]), np.concatenate([y, y[:10]])  # rows 30-39 ask rows 0-9 again
    groups = [f"q{i}" for i in range(30)] + [f"q{i}" for i in range(10)]
    scores = out_of_fold_scores(None, x, y, c=1.0, groups=groups)
    assert np.allclose(scores[30:], scores[:10])  # same fold, same model, same score


def test_evaluation_questions_include_custom_lines(book: ReplayBook) -> None:
    custom = TraceLine(1, 0.0, "k", {"model": "m", "messages": [{"role": "user", "content": "What is 2+2?"}]},
                       {"expected": "4"})
    referenced = _gsm_line(2, 1, 0.0)
    assert evaluation_questions(book, [custom, referenced]) == {"What is 2+2?", GSM_ROWS[1][0]}

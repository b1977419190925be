"""The savings arithmetic: a five-request trace checked by hand, and attribution that sums to the saving."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.savings.accounting import CAUSES, LogRow, Outcome, account, attribute, baseline
from benchmarks.savings.replay import ReplayBook, complete
from benchmarks.savings.trace import TraceLine
from proxy.pricing import ModelPrice
from tests.benchmarks.savings.conftest import GSM_ROWS, STRONG, WEAK

PRICES = {WEAK: ModelPrice(WEAK, 1.0, 1.0), STRONG: ModelPrice(STRONG, 10.0, 30.0)}
M = 1e-6  # one USD per million tokens, per token


def _line(n: int, batch: bool = False) -> TraceLine:
    body = {"model": "thrifty-auto", "messages": [{"role": "user", "content": GSM_ROWS[n - 1][0]}], "temperature": 0}
    return TraceLine(n, float(n), "sk-a", body, {"source": "gsm8k", "id": str(n - 1)}, batch, "gsm8k")


def _row(n: int, model: str | None, route: str | None, cache: str, cost: float, prompt: int, completion: int,
         batch_saved: float | None = None, finish: str = "stop") -> LogRow:
    return LogRow(f"r{n}", 200, model, route, cache, None, cost, batch_saved, prompt, completion, 0, finish, None)


def test_five_request_trace_by_hand(book: ReplayBook) -> None:
    # every question is 20 characters: 4 + 5 = 9 prompt tokens; the strong answer "The answer is NN" is
    # 16 characters = 4 tokens, the weak "It is NN" 8 characters = 2 tokens.
    # all strong, per request: 9 x 10 + 4 x 30 = 210 (x 1e-6 USD); five requests: 1050
    lines = [_line(n, batch=(n == 4)) for n in range(1, 6)]
    rows = {
        "r1": _row(1, STRONG, None, "exact", 0.0, 9, 4),  # an exact-cache hit costs nothing
        "r2": _row(2, WEAK, "small", "miss", 11 * M, 9, 2),  # weak: 9 x 1 + 2 x 1 = 11
        "r3": _row(3, STRONG, "large", "miss", 210 * M, 9, 4),  # strong: 210
        "r4": _row(4, WEAK, "small", "miss", 5.5 * M, 9, 2, batch_saved=5.5 * M),  # weak at half price
        "r5": _row(5, STRONG, "large", "miss", 150 * M, 9, 2, finish="length"),  # capped at 2: 90 + 60
    }
    answers = ["The answer is 12", "It is 30", "The answer is 40", "It is 55", "The answ"]
    outcomes = [Outcome(line, f"r{line.line_no}", 200, text, 0.01) for line, text in zip(lines, answers, strict=True)]
    details: list[dict] = []
    report = account(book, outcomes, rows, PRICES, details)
    assert [d["cause"] for d in details] == ["exact_cache", "routing", "routing", "routing", "capping"]
    assert [d["right"] for d in details] == [True, True, True, True, False]
    assert report.baseline_usd == pytest.approx(1050 * M)
    assert report.cost_usd == pytest.approx((0 + 11 + 210 + 5.5 + 150) * M)
    assert report.saved_usd == pytest.approx(673.5 * M)
    assert report.saving_share == pytest.approx(673.5 / 1050)
    assert report.saved_by["exact_cache"] == pytest.approx(210 * M)
    assert report.saved_by["routing"] == pytest.approx((199 + 0 + 199 + 0) * M)  # 210 - 11 twice
    assert report.saved_by["batch"] == pytest.approx(5.5 * M)
    assert report.saved_by["capping"] == pytest.approx(60 * M)  # 2 fewer output tokens at 30
    assert sum(report.saved_by.values()) == pytest.approx(report.saved_usd)
    # quality: all strong is right on all five (the weak answer is wrong only on row 3, which went strong);
    # the capped answer lost its number
    assert (report.baseline_right, report.right) == (5, 4)
    assert report.quality_loss_points == pytest.approx(20.0)
    assert report.quality_lost_by["capping"] == 1 and report.requests_by["capping"] == 1


def test_a_missing_log_row_saves_nothing_and_errors_count(book: ReplayBook) -> None:
    line = _line(1)
    report = account(book, [Outcome(line, "gone", 502, None, 0.1, "upstream failed")], {}, PRICES)
    assert report.saved_usd == pytest.approx(0.0) and report.errors == 1 and report.missing_rows == 1
    assert report.right == 0 and report.baseline_right == 1
    # a logged failure (a 4xx/5xx row that cost nothing) is charged the baseline too: it saves nothing
    failed = LogRow("bad", 400, None, None, None, None, 0.0, None, None, None, None)
    report = account(book, [Outcome(line, "bad", 400, None, 0.1, "invalid model")], {"bad": failed}, PRICES)
    assert report.saved_usd == pytest.approx(0.0) and report.errors == 1 and report.missing_rows == 0
    assert sum(report.saved_by.values()) == pytest.approx(0.0)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # read-only book
@given(n=st.integers(1, 5), model=st.sampled_from([WEAK, STRONG, "unpriced"]),
       cache=st.sampled_from(["exact", "semantic", "miss", "bypass"]), route=st.sampled_from([None, "small", "large"]),
       cascade=st.sampled_from([None, "accepted", "escalated"]), cost=st.floats(0, 1e-3),
       batch=st.one_of(st.none(), st.floats(0, 1e-3)), prompt=st.integers(0, 500), completion=st.integers(0, 500),
       status=st.sampled_from([200, 200, 500]))
def test_attribution_sums_to_the_saving(book: ReplayBook, n: int, model: str, cache: str, route: str | None,
                                        cascade: str | None, cost: float, batch: float | None, prompt: int,
                                        completion: int, status: int) -> None:
    line = _line(n)
    done = complete(book, dict(line.body, model=STRONG))
    base = PRICES[STRONG].cost(done.prompt_tokens, done.completion_tokens)
    row = LogRow("r", status, model, route, cache, cascade, cost, batch, prompt, completion, 0)
    parts = attribute(book, line, row, base, PRICES)
    assert set(parts) == set(CAUSES)
    assert sum(parts.values()) == pytest.approx(base - cost, abs=1e-12)


def test_combined_mode_charges_the_wasted_weak_call_of_an_escalation_to_the_cascade(book: ReplayBook) -> None:
    # per request all strong: 210; the weak call: 9 x 1 + 2 x 1 = 11 (see the five-request trace)
    lines = [_line(n) for n in range(1, 4)]
    rows = {
        "r1": _row(1, STRONG, "large", "miss", 210 * M, 9, 4),  # the prompt router sent it straight to strong
        "r2": LogRow("r2", 200, WEAK, "small", "miss", "accepted", 11 * M, None, 9, 2, 0, "stop", None),
        # escalated: the log's cost holds both calls, its tokens are the strong answer's
        "r3": LogRow("r3", 200, STRONG, "large", "miss", "escalated", 221 * M, None, 9, 4, 0, "stop", None),
    }
    answers = ["The answer is 12", "It is 30", "The answer is 40"]
    outcomes = [Outcome(line, f"r{line.line_no}", 200, text, 0.01) for line, text in zip(lines, answers, strict=True)]
    details: list[dict] = []
    report = account(book, outcomes, rows, PRICES, details)
    assert [d["cause"] for d in details] == ["routing", "cascade", "cascade"]
    assert report.cost_usd == pytest.approx((210 + 11 + 221) * M)
    assert report.saved_by["routing"] == pytest.approx(0.0)
    assert report.saved_by["cascade"] == pytest.approx((199 - 11) * M)  # kept weak answer minus the wasted call
    assert report.saved_usd == pytest.approx(188 * M) and sum(report.saved_by.values()) == pytest.approx(188 * M)


def test_a_request_for_n_answers_costs_n_answers_in_the_baseline_and_the_replay(book: ReplayBook) -> None:
    # the strong answer is 4 tokens; n = 3 bills 12 output tokens, in the computed baseline as in the replay
    line = _line(1)
    line = TraceLine(1, 1.0, "sk-a", {**line.body, "n": 3}, line.ref, False, "gsm8k")
    cost, right = baseline(book, line, PRICES)
    assert cost == pytest.approx((9 * 10 + 3 * 4 * 30) * M) and right
    row = _row(1, STRONG, "large", "miss", cost, 9, 12)
    parts = attribute(book, line, row, cost, PRICES)
    assert parts["capping"] == pytest.approx(0.0) and sum(parts.values()) == pytest.approx(0.0)


def test_failed_requests_are_counted_by_status_with_their_messages(book: ReplayBook) -> None:
    lines = [_line(n) for n in range(1, 5)]
    outcomes = [Outcome(lines[0], "r1", 200, "The answer is 12", 0.01),
                Outcome(lines[1], "r2", 400, None, 0.01, "'max_tokens' must be between 1 and 1048576"),
                Outcome(lines[2], "r3", 400, None, 0.01, "invalid request"),
                Outcome(lines[3], "r4", 599, None, None, "batch b ended failed without it")]
    rows = {"r1": _row(1, STRONG, "large", "miss", 210 * M, 9, 4)}
    details: list[dict] = []
    report = account(book, outcomes, rows, PRICES, details)
    assert report.failed_by_status == {400: 2, 599: 1} and report.failed == 3
    assert report.failed_lost == 3  # all strong is right on rows 2-4: every lost answer is a failure here
    assert report.baseline_right - report.right == 3
    assert report.failure_samples[0] == "line 2: status 400: 'max_tokens' must be between 1 and 1048576"
    assert len(report.failure_samples) == 3
    assert [d["error"] for d in details] == [None, "'max_tokens' must be between 1 and 1048576", "invalid request",
                                             "batch b ended failed without it"]

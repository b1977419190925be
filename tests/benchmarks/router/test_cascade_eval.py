"""``thrifty eval cascade``: grading a live small model's GSM8K answers and the escalator's report."""

from __future__ import annotations

import csv
import json

import numpy as np

from benchmarks.router.cascade_eval import auroc, load_questions, main
from tests.support.servers import ScriptedUpstream, serve_in_thread


def test_auroc_counts_ties_half_and_needs_both_classes():
    assert auroc(np.array([0.9, 0.8, 0.1]), np.array([True, True, False])) == 1.0
    assert auroc(np.array([0.5, 0.5]), np.array([True, False])) == 0.5
    assert np.isnan(auroc(np.array([0.5]), np.array([True])))


def _data(tmp_path):
    folder = tmp_path / "router" / "gsm8k"
    folder.mkdir(parents=True)
    with (folder / "gsm8k_responses.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["prompt", "w", "s", "w_response", "s_response"])
        for i in range(6):
            strong_ok = i != 5  # the last row's strong answer is wrong: no reference, left out
            writer.writerow([f"Ann has {i} apples and buys 5 more. How many now?", "True", str(strong_ok),
                             "x", f"{i} + 5 = {i + 5}\n#### {i + 5}"])
    return tmp_path


def test_questions_with_a_correct_strong_answer_are_graded_against_it(tmp_path, capsys):
    data = _data(tmp_path)
    questions = load_questions(data, 10)
    assert [ref for _, ref in questions] == [5.0, 6.0, 7.0, 8.0, 9.0]
    script = ScriptedUpstream(content="0 + 5 = 5\n#### 5")  # right for the first question only
    with serve_in_thread(script) as up:
        assert main(["--data-dir", str(data), "--base-url", up, "--model", "small", "--limit", "5",
                     "--answers-out", str(tmp_path / "answers.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "5 GSM8K questions" in out and "1 right (20.0%), 4 wrong" in out
    assert "| fixed 0.5 (0.500) |" in out
    asked = [r for r in script.requests if r["_path"].endswith("/chat/completions")]
    assert len(asked) == 5 and all(r["temperature"] == 0 and r["model"] == "small" for r in asked)
    assert asked[0]["messages"][0]["content"].endswith("as '#### <number>'.")
    lines = [json.loads(line) for line in (tmp_path / "answers.jsonl").read_text().splitlines()]
    assert [x["correct"] for x in lines] == [True, False, False, False, False]
    assert all(0.0 <= x["score"] <= 1.0 and x["answer"] == "0 + 5 = 5\n#### 5" for x in lines)


def test_bad_arguments_are_refused(tmp_path, capsys):
    assert main(["--data-dir", str(tmp_path), "--limit", "0"]) == 2
    assert "must be positive" in capsys.readouterr().err

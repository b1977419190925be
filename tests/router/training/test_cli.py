"""The training command line: it trains, writes the artifact, reproduces it byte for byte (``--expect``)
and reports bad input with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from router.classifier import load_artifact
from router.features import prompt_body
from router.training.cli import main


def test_main_trains_and_writes_artifact(synthetic_data: Path, embedder, tmp_path: Path) -> None:
    out = tmp_path / "router.joblib"
    lines: list[str] = []
    code = main(
        ["--data-dir", str(synthetic_data), "--out", str(out), "--quiet"], embedder=embedder, out=lines.append
    )
    assert code == 0
    assert any("wrote" in line for line in lines)
    classifier = load_artifact(out)
    assert set(classifier.training["per_source"]) == {"mmlu", "gsm8k", "mt_bench"}
    assert "broken" not in classifier.training["mmlu_domains"]
    assert out.stat().st_size < 5 * 1024 * 1024
    hard = "Prove that the polynomial x^4 + 3x + 1 has no rational roots."
    easy = "Which animal says moo? Question 3."
    emb = embedder.embed([hard, easy])
    from router.features import request_stats

    stats = np.vstack([request_stats(prompt_body(t)).as_vector() for t in (hard, easy)])
    p_hard, p_easy = classifier.predict(emb, stats)
    assert p_hard > p_easy



def test_training_is_byte_reproducible_and_expect_checks_it(synthetic_data: Path, embedder, tmp_path: Path) -> None:
    first, second = tmp_path / "a.joblib", tmp_path / "b.joblib"
    args = ["--data-dir", str(synthetic_data), "--quiet"]
    assert main([*args, "--out", str(first)], embedder=embedder, out=lambda _: None) == 0
    lines: list[str] = []
    assert main([*args, "--out", str(second), "--expect", str(first)], embedder=embedder, out=lines.append) == 0
    assert first.read_bytes() == second.read_bytes() and "identical to" in lines[-1]
    other = tmp_path / "other.joblib"
    other.write_bytes(first.read_bytes()[:-1] + b"x")
    assert main([*args, "--out", str(second), "--expect", str(other)], embedder=embedder, out=lines.append) == 1
    assert "DIFFERS" in lines[-1]



def test_main_with_logs_only(embedder, tmp_path: Path) -> None:
    logs = tmp_path / "logs.jsonl"
    rows = []
    for i in range(30):
        hard = i % 2 == 0
        text = f"Derive the closed form of sum_k k^{i % 5 + 2} and prove it" if hard else f"say hello {i}"
        rows.append({"request": prompt_body(text), "served_tier": "small", "ok": not hard})
    rows.append({"request": prompt_body("x"), "served_tier": "large", "score": 1.0})
    logs.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    out = tmp_path / "logs.joblib"
    lines: list[str] = []
    code = main(
        ["--sources", "", "--logs", str(logs), "--out", str(out), "--quiet"],
        embedder=embedder,
        out=lines.append,
    )
    assert code == 0
    assert any("1 large-tier rows skipped" in line for line in lines)
    assert load_artifact(out).training["logs"]["used"] == 30



def test_main_reports_missing_data_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--data-dir", str(tmp_path / "nowhere"), "--out", str(tmp_path / "x.joblib"), "--quiet"])
    assert code == 2
    assert "not found" in capsys.readouterr().err
    assert not (tmp_path / "x.joblib").exists()



def test_expect_naming_the_output_file_is_refused(tmp_path, capsys) -> None:
    same = tmp_path / "a.joblib"
    same.write_bytes(b"x")
    assert main(["--sources", "", "--out", str(same), "--expect", str(same)]) == 2
    assert "compare the artifact with itself" in capsys.readouterr().err and same.read_bytes() == b"x"

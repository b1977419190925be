"""The evaluation command on a tiny synthetic data folder (the suite never needs ../shared)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from caches.embedder import SentenceTransformerEmbedder
from caches.evaluation import main

PAIRS = [
    ("How do I reverse a list in Python?", "How can I reverse a list in Python?"),
    ("What is the capital of Australia?", "What's the capital of Australia?"),
    ("How do I install Docker on Ubuntu?", "How can I install Docker on Ubuntu?"),
    ("Who wrote Pride and Prejudice?", "Who is the author of Pride and Prejudice?"),
    ("How do I make cold brew coffee?", "How can I make cold brew coffee?"),
    ("What is the boiling point of water in Celsius?", "What's the boiling point of water in Celsius?"),
    ("How do I center a div in CSS?", "How can I center a div in CSS?"),
    ("What does HTTP status 404 mean?", "What does the HTTP status 404 mean?"),
]


def test_missing_data_dir_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "--data-dir" in err and "gptcache_mock_data.json" in err


def test_runs_end_to_end_on_a_small_file(
    tmp_path: Path, embedder: SentenceTransformerEmbedder, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "data" / "semantic-cache"
    folder.mkdir(parents=True)
    (folder / "gptcache_mock_data.json").write_text(
        json.dumps([{"origin": o, "similar": s} for o, s in PAIRS])
    )
    rc = main(
        [
            "--data-dir",
            str(tmp_path / "data"),
            "--sizes",
            "40,60x3",
            "--latency-queries",
            "4",
            "--skip-hard-negatives",
        ],
        embedder=embedder,
    )
    out = capsys.readouterr().out
    assert "## 1. GPTCache protocol" in out and "## 3. Lookup latency" in out
    assert "| 0.90 **(default)** |" in out
    assert out.count("End-to-end `SemanticCache.get()` at the default agrees with the sweep: True.") == 3
    full = out[out.index("### full") :]
    default_row = next(line for line in full.splitlines() if line.startswith("| 0.90 **(default)**"))
    assert "100.0% / 100.0%" in default_row  # every clear paraphrase hits its own origin
    assert "| 40 | 1 | flat |" in out and "| 60 | 3 | flat |" in out
    assert rc == 0


@pytest.mark.parametrize(
    ("option", "value"),
    [("--thresholds", "abc"), ("--thresholds", "0.9,2"), ("--sizes", "abc"), ("--sizes", "10x0"), ("--sizes", ",")],
)
def test_bad_grid_values_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    assert main(["--data-dir", str(tmp_path), option, value]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and option in err and "Traceback" not in err


def test_summary_counts_the_heldout_false_hits(
    tmp_path: Path, embedder: SentenceTransformerEmbedder, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from caches import evaluation

    folder = tmp_path / "data" / "semantic-cache"
    folder.mkdir(parents=True)
    (folder / "gptcache_mock_data.json").write_text(json.dumps([{"origin": o, "similar": s} for o, s in PAIRS]))
    clean = evaluation.HardNegativeReport(3, [], {"negation": 3}, 1, 1, [], [("scope", False, False)], 0.5, False)

    async def fake_hard_negatives(*_args):
        return clean

    async def fake_heldout(*_args):
        return evaluation.HeldoutReport("| held-out set | cases | false hits |\n| text pairs | 4 | 1 |", 1)

    monkeypatch.setattr(evaluation, "hard_negatives", fake_hard_negatives)
    monkeypatch.setattr(evaluation, "heldout_negatives", fake_heldout)
    rc = main(["--data-dir", str(tmp_path / "data"), "--skip-latency"], embedder=embedder)
    summary = capsys.readouterr().out.split("## Summary", 1)[1]
    line = next(x for x in summary.splitlines() if "hard negatives" in x)
    assert "NOT met" in line and "held-out set: 1 false hits" in line and "development set" in line
    assert "held-out hard negatives" in summary and "(exit status 1;" in summary
    assert rc == 1

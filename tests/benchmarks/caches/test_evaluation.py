"""The evaluation command on a tiny synthetic data folder (the suite never needs ../shared)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.caches import shipped_sets
from benchmarks.caches.evaluation import main
from benchmarks.caches.shipped_sets import (
    GENERATED_SETS,
    OPENED_VERIFY_PASSES,
    UNOPENED_FALSE_HITS,
    UNOPENED_SETS,
    heldout_negatives,
    load_hard_negatives,
)
from caches.config import CacheConfig
from caches.embedder import SentenceTransformerEmbedder
from caches.verify import verify

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


async def test_the_real_heldout_set_through_the_real_cache(tmp_path: Path, embedder: SentenceTransformerEmbedder) -> None:
    """The frozen, generated held-out set (v3) through the real cache and embedder: no false hit
    and at least 70 % of its paraphrases (both targets; BENCHMARKS.md "Semantic cache: verification
    and held-out sets" says how often it was measured)."""
    report = await heldout_negatives(embedder, CacheConfig(), tmp_path)
    assert report.pairs == 109
    assert report.false_hits == 0
    assert report.hit_rate >= 0.70
    assert "must-not-hit pairs | 109 |" in report.table and "hit rate" in report.table


async def test_the_unopened_generated_set_has_no_false_hit(tmp_path: Path, embedder: SentenceTransformerEmbedder) -> None:
    """The generated sets never opened (their cases are not printed): through the real cache and embedder, not
    one of their must-not-hit pairs may hit, except the false hits a set is known to meet (v14's and v18's, a
    bound that only a fix may lower)."""
    for name in UNOPENED_SETS:
        report = await heldout_negatives(embedder, CacheConfig(), tmp_path, name=name)
        assert report.pairs >= 140 and report.false_hits <= UNOPENED_FALSE_HITS.get(name, 0), name


def test_sets_only_runs_without_data_and_reports_both_sets(
    embedder: SentenceTransformerEmbedder, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    clone = tmp_path / "clone"  # no ../shared/data from here, whatever other tests left beside tmp_path
    clone.mkdir()
    monkeypatch.chdir(clone)
    # two opened sets are enough to show the report's shape (every set's verification is tested below)
    monkeypatch.setattr(shipped_sets, "OPENED_SETS", shipped_sets.OPENED_SETS[:2])
    rc = main(["--show-heldout-cases"], embedder=embedder)
    out = capsys.readouterr().out
    assert "## 2. Development set and scope checks" in out and "## 3. Held-out set" in out
    summary = out.split("## Summary", 1)[1]
    dev = next(x for x in summary.splitlines() if x.startswith("- development set"))
    held = next(x for x in summary.splitlines() if x.startswith("- held-out set"))
    assert "0 false hits (met: zero)" in dev
    assert "false-hit rate 95% interval" in held and "paraphrase hit rate" in held
    assert rc == (0 if "NOT met" not in summary else 1)


@pytest.mark.parametrize("name", [s for s in GENERATED_SETS if s not in UNOPENED_SETS])
def test_verification_refuses_every_must_not_hit_pair_of_the_opened_sets(name: str) -> None:
    """Whatever the threshold: no must-not-hit pair of a generated set passes verification (without the
    embedder, so every set is checked on every run)."""
    pairs = load_hard_negatives(name)["text_pairs"]
    passed = [(p["category"], p["query"]) for p in pairs if verify(p["query"], p["stored"]).ok]
    assert len(passed) <= OPENED_VERIFY_PASSES.get(name, 0), passed


async def test_a_set_never_answers_another_sets_query(tmp_path: Path, embedder: SentenceTransformerEmbedder,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sets measured in one run share scope names; a text the first stores must not answer the second's query
    (two helpers wrote the same prompt into v15 and v20)."""
    shared = "In JavaScript, how do I replace every occurrence of a substring in a string?"
    sets = {
        "first.json": {"text_pairs": [{"category": "c", "stored": shared, "query": "How do I sort a list in Go?"}],
                       "positives": [{"category": "p", "stored": "What is rust?", "query": "what is rust"}]},
        "second.json": {"text_pairs": [{"category": "c", "stored": shared.replace("every", "the first"), "query": shared}],
                        "positives": [{"category": "p", "stored": "What is rust?", "query": "what is rust"}]},
    }
    monkeypatch.setattr(shipped_sets, "load_hard_negatives", lambda name: sets[name])
    first = await heldout_negatives(embedder, CacheConfig(), tmp_path, name="first.json")
    second = await heldout_negatives(embedder, CacheConfig(), tmp_path, name="second.json")
    assert (first.false_hits, second.false_hits) == (0, 0)

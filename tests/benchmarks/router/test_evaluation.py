from __future__ import annotations

import json
from pathlib import Path

from benchmarks.router.evaluation import main, split_domains
from router.data import split_rows


def test_domain_split_is_fixed_and_disjoint() -> None:
    domains = [f"d{i:02d}" for i in range(46)]
    train, test = split_domains(domains, 0.3, seed=0)
    assert len(test) == 14 and len(train) == 32
    assert not set(train) & set(test)
    assert split_domains(list(reversed(domains)), 0.3, seed=0) == (train, test)
    assert split_domains(domains, 0.3, seed=1) != (train, test)


def test_row_split() -> None:
    train, test = split_rows(1319, 0.3, 0)
    assert len(test) == 396 and len(train) == 923
    assert sorted(train + test) == list(range(1319))


def test_main_on_synthetic_data(synthetic_data: Path, embedder, tmp_path: Path) -> None:
    lines: list[str] = []
    out_json = tmp_path / "eval.json"
    code = main(
        [
            "--data-dir",
            str(synthetic_data),
            "--test-fraction",
            "0.4",
            "--latency-calls",
            "50",
            "--embedding-calls",
            "2",
            "--quiet",
            "--json-out",
            str(out_json),
            "--seeds",
            "3",
        ],
        embedder=embedder,
        out=lines.append,
    )
    assert code == 0
    text = "\n".join(lines)
    for needle in (
        "| random |",
        "| heuristic |",
        "| learned |",
        "CPT(50%)",
        "GSM8K, held-out rows",
        "p95 (ms)",
        "no data-quality rule",
        "Over 3 seeded splits",
        "Cost-quality curve",
        "GSM8K cascade",
        "cascade (answer features)",
    ):
        assert needle in text
    assert "mmlu/broken" in text  # the synthetic domain whose strong model is below chance
    payload = json.loads(out_json.read_text())
    split = payload["split"]
    assert not set(split["train_domains"]) & set(split["test_domains"])
    names = [b["name"] for b in payload["benchmarks"]]
    assert any(name.startswith("MMLU") for name in names)
    for bench in payload["benchmarks"]:
        for router in bench["routers"]:
            assert len(router["table"]) == 11
    assert payload["misgraded"] == ["mmlu/broken"]
    seeds = payload["seeds"]
    assert {r["seed"] for r in seeds} == {0, 1, 2}
    assert {r["router"] for r in seeds} == {"random", "heuristic", "learned", "oracle"}
    assert not any("broken" in r["test_set"] for r in seeds)
    for r in seeds:
        assert len(r["pgr"]) == 11 and r["pgr"][0] == 0.0 and abs(r["pgr"][-1] - 1.0) < 1e-9
        if r["router"] == "oracle" and "no rule" not in r["test_set"]:  # there the gap can be negative
            assert r["apgr"] >= max(o["apgr"] for o in seeds if o["seed"] == r["seed"]
                                    and o["test_set"] == r["test_set"]) - 1e-12


def test_main_missing_data_dir(tmp_path: Path) -> None:
    assert main(["--data-dir", str(tmp_path / "none"), "--quiet"]) == 2

from __future__ import annotations

import json
from pathlib import Path

from router.evaluation import main, split_domains, split_rows


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
    ):
        assert needle in text
    payload = json.loads(out_json.read_text())
    split = payload["split"]
    assert not set(split["train_domains"]) & set(split["test_domains"])
    names = [b["name"] for b in payload["benchmarks"]]
    assert any(name.startswith("MMLU") for name in names)
    for bench in payload["benchmarks"]:
        for router in bench["routers"]:
            assert len(router["table"]) == 11


def test_main_missing_data_dir(tmp_path: Path) -> None:
    assert main(["--data-dir", str(tmp_path / "none"), "--quiet"]) == 2

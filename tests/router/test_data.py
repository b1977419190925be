from __future__ import annotations

import json
from pathlib import Path

import pytest

from router.data import (
    load_gsm8k,
    load_logs,
    load_mmlu,
    load_mt_bench,
    model_pair,
    need_label,
    sane_mmlu_domains,
)
from router.errors import RouterDataError
from router.training.public_data import load_public_examples

from .conftest import STRONG, WEAK


def test_label_definition() -> None:
    assert need_label(0.0, 1.0) == 1.0  # strong right, weak wrong: large needed
    assert need_label(1.0, 1.0) == 0.0
    assert need_label(0.0, 0.0) == 0.0
    assert need_label(1.0, 0.0) == 0.0


def test_public_loaders(synthetic_data: Path) -> None:
    assert model_pair(synthetic_data) == (WEAK, STRONG)
    mmlu = load_mmlu(synthetic_data)
    assert {ex.group for ex in mmlu} == {
        f"mmlu/{d}" for d in ("algebra", "calculus", "trivia", "animals", "broken")
    }
    assert sane_mmlu_domains(mmlu) == {f"mmlu/{d}" for d in ("algebra", "calculus", "trivia", "animals")}
    algebra = [ex for ex in mmlu if ex.group == "mmlu/algebra"]
    assert all(ex.label == need_label(ex.weak, ex.strong) for ex in algebra)
    assert algebra[0].body["messages"][0]["role"] == "user"
    gsm = load_gsm8k(synthetic_data)
    assert len(gsm) == 40 and all(ex.source == "gsm8k" for ex in gsm)
    mt = load_mt_bench(synthetic_data, WEAK, STRONG)
    assert len(mt) == 8
    turn2 = [ex for ex in mt if len(ex.body["messages"]) == 3]
    assert turn2 and turn2[0].body["messages"][2]["content"] == "Now rewrite it as a poem."
    # strong 8 vs weak 4 -> large needed; strong 8 vs weak 7 -> not (margin 2)
    by_key = {ex.key: ex.label for ex in mt}
    assert by_key["mt_bench:0:1"] == 1.0 and by_key["mt_bench:3:1"] == 0.0


def test_misgraded_domains_dropped_from_training(synthetic_data: Path) -> None:
    groups = {ex.group for ex in load_public_examples(synthetic_data)}
    assert "mmlu/broken" not in groups and "gsm8k" in groups and "mt_bench" in groups
    groups = {ex.group for ex in load_public_examples(synthetic_data, drop_misgraded=False)}
    assert "mmlu/broken" in groups


def test_bad_csv(tmp_path: Path) -> None:
    folder = tmp_path / "router" / "mmlu"
    folder.mkdir(parents=True)
    (folder / "mmlu_x.csv").write_text("prompt,a,b\nq,maybe,True\n", encoding="utf-8")
    with pytest.raises(RouterDataError, match="expected True/False"):
        load_mmlu(tmp_path)
    with pytest.raises(RouterDataError, match="no MMLU files"):
        load_mmlu(tmp_path / "elsewhere")


def test_logs_labels(tmp_path: Path) -> None:
    request = {"messages": [{"role": "user", "content": "q"}]}
    rows = [
        {"request": request, "served_tier": "small", "ok": False},
        {"request": request, "served_tier": "small", "ok": True},
        {"request": request, "served_tier": "small", "score": 0.25},
        {"request": request, "served_tier": "large", "ok": True},
        {"request": request, "served_tier": "small"},
        {"served_tier": "small", "ok": True},
    ]
    path = tmp_path / "logs.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\nnot json\n", encoding="utf-8")
    examples, summary = load_logs(path)
    assert [ex.label for ex in examples] == [1.0, 0.0, 0.75]
    assert summary.used == 3 and summary.skipped_large == 1 and summary.skipped_invalid == 3
    assert all(ex.source == "logs" and ex.strong is None for ex in examples)

"""Tiny inline public-data fixtures for the savings evaluation (the suite never reads ../shared/data)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from benchmarks.savings.replay import ReplayBook, load_book

WEAK = "weak-model"
STRONG = "strong-model"

MMLU_ROWS = [
    ("Which organ filters blood?\nA. Heart\nB. Kidney\nC. Lung\nD. Skin\nAnswer:", "True", "True"),
    ("Which gas do plants absorb?\nA. Oxygen\nB. Helium\nC. Carbon dioxide\nD. Neon\nAnswer:", "False", "True"),
    ("What is 7 x 8?\nA. 54\nB. 56\nC. 58\nD. 64\nAnswer:", "False", "False"),
]
# every question 20 characters (9 prompt tokens with the replay's framing), answers of known length
GSM_ROWS = [
    ("Tom has 3 apples. ??", "True", "True", "It is 12", "The answer is 12"),
    ("Ann has 5 pears. ???", "True", "True", "It is 30", "The answer is 30"),
    ("Bob has 7 plums. ???", "False", "True", "It is 41", "The answer is 40"),
    ("Sue has 9 figs. ????", "True", "True", "It is 55", "The answer is 55"),
    ("Max has 2 kiwis. ???", "True", "True", "It is 77", "The answer is 77"),
]
PAIRS = [{"origin": "How do I reset my password?", "similar": "How can I reset my password?"},
         {"origin": "What time does the shop open?", "similar": "When does the shop open?"}]


def write_data(root: Path) -> Path:
    """Write the fixture data under ``root`` in the public data's layout; returns ``root``."""
    (root / "router" / "mmlu").mkdir(parents=True)
    (root / "router" / "gsm8k").mkdir(parents=True)
    (root / "semantic-cache").mkdir(parents=True)
    with (root / "router" / "mmlu" / "mmlu_tiny.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["prompt", WEAK, STRONG])
        w.writerows(MMLU_ROWS)
    with (root / "router" / "gsm8k" / "gsm8k_responses.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["prompt", WEAK, STRONG, f"{WEAK}_response", f"{STRONG}_response"])
        w.writerows(GSM_ROWS)
    (root / "semantic-cache" / "gptcache_mock_data.json").write_text(json.dumps(PAIRS))
    return root


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return write_data(tmp_path / "data")


@pytest.fixture
def book(data_dir: Path) -> ReplayBook:
    return load_book(data_dir, WEAK, STRONG)

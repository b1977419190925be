"""Fixtures for the router tests: the real embedding model (once per session) and a synthetic
public-data folder shaped like ``shared/data/router`` (the suite never reads ``/work/shared``)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from caches.embedder import SentenceTransformerEmbedder

WEAK = "weak/model-7b"
STRONG = "strong/model-xl"

HARD_TOPICS = [
    "Compute the definite integral of x^{k} * exp(x) from 0 to {n} and simplify.",
    "Prove that the polynomial x^{k} + {n}x + 1 has no rational roots.",
    "Find the eigenvalues of the {k}x{k} matrix with entries a_ij = i*j + {n}.",
    "Solve the recurrence T(n) = {k}T(n/2) + n^{n} and prove the bound.",
]
EASY_TOPICS = [
    "Which colour is the sky on a clear day? Option {k}.",
    "What is the name of the largest ocean? Quiz item {n}.",
    "Which animal says moo? Question {k}.",
    "What is the opposite of hot? Item {n}.",
]


def _mmlu_rows(templates: list[str], weak: bool, strong: bool, n: int) -> list[list[str]]:
    rows = []
    for i in range(n):
        text = templates[i % len(templates)].format(k=i % 7 + 2, n=i + 3)
        prompt = f"{text}\nA. 1\nB. 2\nC. 3\nD. 4\nAnswer:"
        # a few flipped labels so both classes appear everywhere
        w = weak if i % 5 else not weak
        rows.append([prompt, str(w), str(strong)])
    return rows


def write_synthetic_data(root: Path) -> Path:
    """A tiny ``<root>/router/{mmlu,gsm8k,mt_bench}`` tree in the public files' formats."""
    mmlu = root / "router" / "mmlu"
    gsm = root / "router" / "gsm8k"
    mt = root / "router" / "mt_bench"
    for folder in (mmlu, gsm, mt):
        folder.mkdir(parents=True, exist_ok=True)
    domains = {
        "algebra": _mmlu_rows(HARD_TOPICS, weak=False, strong=True, n=30),
        "calculus": _mmlu_rows(HARD_TOPICS[::-1], weak=False, strong=True, n=30),
        "trivia": _mmlu_rows(EASY_TOPICS, weak=True, strong=True, n=30),
        "animals": _mmlu_rows(EASY_TOPICS[::-1], weak=True, strong=True, n=30),
        "broken": _mmlu_rows(EASY_TOPICS, weak=True, strong=False, n=20),  # strong below chance
    }
    for name, rows in domains.items():
        with (mmlu / f"mmlu_{name}.csv").open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["prompt", WEAK, STRONG])
            writer.writerows(rows)
    with (gsm / "gsm8k_responses.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["prompt", WEAK, STRONG, f"{WEAK}_response", f"{STRONG}_response"])
        for i in range(40):
            hard = i % 2 == 0
            words = " Then she sells 3/7 of the rest at $4.25 each and buys 12 more." * (3 if hard else 0)
            prompt = f"Ann has {i + 5} apples and eats {i % 3}.{words} How many apples are left?"
            writer.writerow([prompt, str(not hard if i % 7 else hard), "True", "w answer", "s answer"])
    lines = []
    for qid in range(4):
        question = f"Explain topic number {qid} in detail, with examples."
        follow_up = "Now rewrite it as a poem."
        for model, base in ((WEAK, 4 + qid), (STRONG, 8)):
            lines.append(
                {
                    "question_id": qid,
                    "model": model,
                    "judge": ["gpt-4", "single-v1"],
                    "turn": 1,
                    "score": base,
                    "user_prompt": f"[Instruction]\nJudge.\n\n[Question]\n{question}\n\n"
                    "[The Start of Assistant's Answer]\nanswer\n[The End of Assistant's Answer]",
                }
            )
            lines.append(
                {
                    "question_id": qid,
                    "model": model,
                    "judge": ["gpt-4", "single-v1-multi-turn"],
                    "turn": 2,
                    "score": base - 1,
                    "user_prompt": "<|The Start of Assistant A's Conversation with User|>\n\n"
                    f"### User:\n{question}\n\n### Assistant A:\nfirst answer\n\n### User:\n{follow_up}\n\n"
                    "### Assistant A:\nsecond answer\n\n<|The End of Assistant A's Conversation with User|>",
                }
            )
    (mt / "judgements.jsonl").write_text(
        "\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8"
    )
    return root


@pytest.fixture(scope="session")
def synthetic_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A synthetic public-data folder (read-only use)."""
    return write_synthetic_data(tmp_path_factory.mktemp("router-data"))


@pytest.fixture(scope="session")
def tiny_classifier(synthetic_data: Path, embedder: SentenceTransformerEmbedder):
    """A classifier trained on the synthetic data (no calibration folds to keep it fast)."""
    from router.training.config import TrainingConfig
    from router.training.fitting import train_router
    from router.training.public_data import load_public_examples

    examples = load_public_examples(synthetic_data)
    return train_router(
        examples, embedder, config=TrainingConfig(min_expert_rows=30, calibration_folds=2), progress=False
    )

"""Labelled routing data: the public benchmark files and the proxy's own request logs.

Label ("large needed")
----------------------
Every example carries the quality of the small ("weak") and large ("strong") tier's answer when
known, and a target ``label`` in [0, 1] = the probability that the large tier is needed:

* MMLU and GSM8K (per-prompt correctness of both models): ``label = strong AND NOT weak``, the
  RouteLLM notion of a prompt that *needs* the strong model. Prompts both models answer alike are
  kept as negatives: routing them to the large tier buys nothing.
* MT-Bench (GPT-4 judge scores 1-10 of both models per turn): ``label = 1`` when the strong
  model's score beats the weak model's by at least :data:`MT_BENCH_MARGIN` points, else 0.
* Proxy logs (``--logs``): a request served by the **small** tier with quality ``q`` (``score`` in
  [0, 1], or ``ok`` as 1/0) gets the soft label ``1 - q``: bad feedback means the large tier was
  needed, good feedback means the small one sufficed. A request served by the **large** tier says
  nothing about what the small tier would have done, so it is skipped (and counted).

MMLU domains where the strong model scores below chance (25 %) have broken grading in the public
files (``high_school_mathematics``: 3 %) and are left out of training by :func:`sane_mmlu_domains`.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from jsonl_text import split_lines
from router.errors import RouterDataError
from router.features import prompt_body

#: MT-Bench: strong - weak judge score (1..10 scale) at which the large model counts as needed.
MT_BENCH_MARGIN = 2.0
#: MMLU domains whose strong-model accuracy is below this are treated as mis-graded.
MMLU_CHANCE = 0.25

_MT_QUESTION = re.compile(r"\[Question\]\n(.*?)\n\n\[The Start of", re.DOTALL)
_MT_USER = re.compile(
    r"### User:\n(.*?)\n\n### (?:Assistant A|Reference answer):\n(.*?)(?=\n\n### User:|\n\n<\|The End)",
    re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class LabelledExample:
    """One training / evaluation row.

    Attributes:
        body: OpenAI chat body the router sees.
        source: ``"mmlu"``, ``"gsm8k"``, ``"mt_bench"`` or ``"logs"``.
        group: finer grouping used for splits (``"mmlu/<domain>"``, ``"gsm8k"``, ...).
        weak: quality in [0, 1] of the small tier's answer, ``None`` if unknown.
        strong: quality in [0, 1] of the large tier's answer, ``None`` if unknown.
        label: target probability that the large tier is needed, in [0, 1].
        key: stable identifier (used for seeded row splits).
    """

    body: Mapping[str, Any]
    source: str
    group: str
    weak: float | None
    strong: float | None
    label: float
    key: str


@dataclass(frozen=True, slots=True)
class LogsSummary:
    """Counts from reading a proxy log file."""

    used: int
    skipped_large: int
    skipped_invalid: int


def _bool(value: str, path: Path, line: int) -> float:
    text = value.strip()
    if text == "True":
        return 1.0
    if text == "False":
        return 0.0
    raise RouterDataError(f"{path}:{line}: expected True/False, got {value!r}")


def need_label(weak: float, strong: float) -> float:
    """``strong AND NOT weak`` for 0/1 correctness (product form, so soft values also work)."""
    return float(strong * (1.0 - weak))


def _read_correctness_csv(path: Path, source: str, group: str) -> list[LabelledExample]:
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
    except OSError as exc:
        raise RouterDataError(f"cannot read {path}: {exc}") from exc
    if not rows or len(rows[0]) < 3 or rows[0][0] != "prompt":
        raise RouterDataError(f"{path}: expected a header 'prompt,<weak>,<strong>,...'")
    out: list[LabelledExample] = []
    for number, row in enumerate(rows[1:], start=2):
        if len(row) < 3:
            raise RouterDataError(f"{path}:{number}: expected at least 3 columns, got {len(row)}")
        weak, strong = _bool(row[1], path, number), _bool(row[2], path, number)
        out.append(
            LabelledExample(
                body=prompt_body(row[0]),
                source=source,
                group=group,
                weak=weak,
                strong=strong,
                label=need_label(weak, strong),
                key=f"{group}:{number}",
            )
        )
    return out


def mmlu_domains(data_dir: Path) -> list[str]:
    """Sorted MMLU domain names present under ``<data_dir>/router/mmlu``."""
    folder = data_dir / "router" / "mmlu"
    return sorted(p.stem.removeprefix("mmlu_") for p in folder.glob("mmlu_*.csv"))


def load_mmlu(data_dir: Path, domains: Iterable[str] | None = None) -> list[LabelledExample]:
    """MMLU rows of the given domains (all present ones by default), group ``mmlu/<domain>``."""
    folder = data_dir / "router" / "mmlu"
    names = list(domains) if domains is not None else mmlu_domains(data_dir)
    if not names:
        raise RouterDataError(f"no MMLU files (mmlu_<domain>.csv) under {folder}")
    out: list[LabelledExample] = []
    for domain in names:
        out.extend(_read_correctness_csv(folder / f"mmlu_{domain}.csv", "mmlu", f"mmlu/{domain}"))
    return out


def sane_mmlu_domains(examples: Sequence[LabelledExample]) -> set[str]:
    """MMLU groups whose strong-model accuracy is at least chance (the others are mis-graded)."""
    totals: dict[str, list[float]] = {}
    for ex in examples:
        if ex.source == "mmlu" and ex.strong is not None:
            totals.setdefault(ex.group, []).append(ex.strong)
    return {group for group, values in totals.items() if sum(values) / len(values) >= MMLU_CHANCE}


def load_gsm8k(data_dir: Path) -> list[LabelledExample]:
    """GSM8K rows, group ``gsm8k``."""
    return _read_correctness_csv(data_dir / "router" / "gsm8k" / "gsm8k_responses.csv", "gsm8k", "gsm8k")


def _mt_messages(judgement: Mapping[str, Any]) -> list[dict[str, str]] | None:
    prompt = str(judgement.get("user_prompt", ""))
    if int(judgement.get("turn", 1)) == 1:
        match = _MT_QUESTION.search(prompt)
        return [{"role": "user", "content": match.group(1).strip()}] if match else None
    start = prompt.find("<|The Start of Assistant A's Conversation with User|>")
    turns = _MT_USER.findall(prompt[start:] if start >= 0 else prompt)
    if len(turns) < 2:
        return None
    (q1, a1), (q2, _) = turns[0], turns[1]
    return [
        {"role": "user", "content": q1.strip()},
        {"role": "assistant", "content": a1.strip()},
        {"role": "user", "content": q2.strip()},
    ]


def load_mt_bench(data_dir: Path, weak_model: str, strong_model: str) -> list[LabelledExample]:
    """MT-Bench turns judged for both models, group ``mt_bench``; label by score margin."""
    path = data_dir / "router" / "mt_bench" / "judgements.jsonl"
    scores: dict[tuple[int, int], dict[str, float]] = {}
    bodies: dict[tuple[int, int], list[dict[str, str]]] = {}
    try:
        lines = split_lines(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RouterDataError(f"cannot read {path}: {exc}") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            key = (int(item["question_id"]), int(item["turn"]))
            score = float(item["score"])
            model = str(item["model"])
        except (ValueError, KeyError, TypeError) as exc:
            raise RouterDataError(f"{path}:{number}: malformed judgement ({exc})") from exc
        if score < 0:  # the judge failed to give a rating
            continue
        scores.setdefault(key, {})[model] = score
        if model == weak_model or key not in bodies:
            messages = _mt_messages(item)
            if messages is not None:
                bodies[key] = messages
    out: list[LabelledExample] = []
    for key in sorted(scores):
        pair = scores[key]
        if weak_model not in pair or strong_model not in pair or key not in bodies:
            continue
        weak, strong = (pair[weak_model] - 1) / 9, (pair[strong_model] - 1) / 9
        label = float(pair[strong_model] - pair[weak_model] >= MT_BENCH_MARGIN)
        out.append(
            LabelledExample(
                body={"messages": bodies[key]},
                source="mt_bench",
                group="mt_bench",
                weak=weak,
                strong=strong,
                label=label,
                key=f"mt_bench:{key[0]}:{key[1]}",
            )
        )
    return out


def model_pair(data_dir: Path) -> tuple[str, str]:
    """(weak, strong) model names from the GSM8K (or first MMLU) header."""
    candidates = [data_dir / "router" / "gsm8k" / "gsm8k_responses.csv"]
    candidates += sorted((data_dir / "router" / "mmlu").glob("mmlu_*.csv"))[:1]
    for path in candidates:
        if path.exists():
            with path.open(newline="", encoding="utf-8") as handle:
                header = next(csv.reader(handle), [])
            if len(header) >= 3:
                return header[1], header[2]
    raise RouterDataError(f"cannot find the model pair: no benchmark CSV under {data_dir / 'router'}")


def load_logs(path: Path) -> tuple[list[LabelledExample], LogsSummary]:
    """Rows of a proxy log JSONL (``{"request", "served_tier", "score" | "ok"}``) as examples.

    Small-tier rows get the soft label ``1 - quality``; large-tier rows are skipped (see the module
    docstring); malformed rows are skipped and counted.
    """
    try:
        lines = split_lines(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RouterDataError(f"cannot read logs {path}: {exc}") from exc
    out: list[LabelledExample] = []
    skipped_large = skipped_invalid = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            skipped_invalid += 1
            continue
        request = item.get("request") if isinstance(item, Mapping) else None
        if not isinstance(request, Mapping):
            skipped_invalid += 1
            continue
        quality: float | None = None
        score = item.get("score")
        if isinstance(score, int | float) and not isinstance(score, bool) and 0.0 <= score <= 1.0:
            quality = float(score)
        elif isinstance(item.get("ok"), bool):
            quality = float(item["ok"])
        tier = item.get("served_tier")
        if quality is None or tier not in ("small", "large"):
            skipped_invalid += 1
            continue
        if tier == "large":
            skipped_large += 1
            continue
        out.append(
            LabelledExample(
                body=request,
                source="logs",
                group="logs",
                weak=quality,
                strong=None,
                label=1.0 - quality,
                key=f"logs:{number}",
            )
        )
    return out, LogsSummary(used=len(out), skipped_large=skipped_large, skipped_invalid=skipped_invalid)


def split_rows(n: int, test_fraction: float = 0.3, seed: int = 0) -> tuple[list[int], list[int]]:
    """(train, test) row indices: a seeded permutation, the first part is test."""
    order = np.random.default_rng(seed).permutation(n)
    n_test = int(round(test_fraction * n))
    return sorted(order[n_test:].tolist()), sorted(order[:n_test].tolist())

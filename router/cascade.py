"""Cascade escalation: the small model answers first; features of its answer decide whether to ask
the large model.

A prompt-only router has to guess difficulty from the question; a cascade sees the small model's
attempt, which says much more (no final answer, arithmetic that does not check out, hedging,
repetition...). The price: every request pays a small-model call, and escalated requests wait for
two calls. At a large-model share ``s`` the cost is ``small + s * large`` instead of
``(1 - s) * small + s * large``.

This module is the library part: :func:`answer_features` (cheap string work on the answer),
:class:`EscalationModel` (standardised features → logistic regression, plain numpy at inference),
:func:`fit_escalation`, and :func:`evaluate_gsm8k_cascade` (held-out GSM8K rows, where the public
data has the weak model's answer to every prompt). The proxy's cascade mode uses it through
:mod:`router.escalation` (see ``router/README.md``).
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from router.data import LabelledExample
from router.errors import RouterDataError
from router.features import request_stats, routing_text
from router.metrics import curve_summary, routing_curve

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_CALC = re.compile(r"<<([^=<>]+)=([^<>]+)>>")  # GSM8K-style calculator annotations
# inline arithmetic "a op b ... = c", operands possibly in dollars ("20 * $40 = $80")
_EQUATION = re.compile(r"(\$?\d[\d,.]*(?:\s*[-+*/x×]\s*\$?\d[\d,.]*)+)\s*=\s*\$?(-?\d[\d,]*(?:\.\d+)?)")
_FINAL = re.compile(r"(?:####|answer is:?|\\boxed\{)\s*\$?\s*(-?[\d,]*\.?\d+)", re.IGNORECASE)
_RESULT = re.compile(r"=\s*\$?(-?\d[\d,]*(?:\.\d+)?)")
_HEDGE = re.compile(
    r"\b(?:however|actually|wait|assum\w*|approximately|not sure|cannot|can't|round\w*|but since|mistake|"
    r"incorrect|re-?evaluat\w*)\b",
    re.IGNORECASE,
)
_ARITHMETIC = re.compile(r"[\d.+\-*/() ]+")

ANSWER_FEATURE_NAMES: tuple[str, ...] = (
    "log_chars", "log_lines", "has_final", "no_final_number", "final_not_integer", "final_negative",
    "log_calcs", "log_calc_errors", "any_calc_error", "log_equation_errors", "any_equation_error",
    "log_hedges", "log_distinct_numbers", "numbers_from_prompt", "repeated_lines", "final_differs_from_last_result",
    "final_copied_from_prompt", "log_abs_final",
)  # fmt: skip


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", "").rstrip("."))
    except ValueError:
        return None


def _evaluate(expression: str) -> float | None:
    """Value of a plain arithmetic expression (digits, + - * / x ×, parentheses), else ``None``."""
    expr = expression.replace(",", "").replace("$", "").replace("x", "*").replace("×", "*").replace("÷", "/")
    if not _ARITHMETIC.fullmatch(expr) or len(expr) > 200 or "**" in expr:
        return None
    try:
        value = eval(compile(expr, "<arithmetic>", "eval"), {"__builtins__": {}}, {})  # noqa: S307 - digits/operators only
    except (SyntaxError, ZeroDivisionError, OverflowError, TypeError, ValueError):
        return None
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def _errors(pairs: Sequence[tuple[str, str]], tolerance: float) -> int:
    count = 0
    for expression, result in pairs:
        value, stated = _evaluate(expression), _number(result)
        if value is not None and stated is not None and abs(value - stated) > tolerance * max(1.0, abs(value)):
            count += 1
    return count


def answer_features(body: Mapping[str, Any], answer: str) -> np.ndarray:
    """Features of the small model's ``answer`` to ``body``, in :data:`ANSWER_FEATURE_NAMES` order."""
    text = answer.strip()
    final_match = _FINAL.search(text)
    final = _number(final_match.group(1)) if final_match else None
    calcs = _CALC.findall(text)
    numbers = [n for n in (_number(t) for t in _NUMBER.findall(text)) if n is not None]
    prompt_numbers = {_number(t) for t in _NUMBER.findall(routing_text(body))}
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    results = _RESULT.findall(text)
    last_result = _number(results[-1]) if results else None
    calc_errors = _errors(calcs, 1e-4)
    equation_errors = _errors(_EQUATION.findall(text), 1e-2)
    return np.array([
        math.log1p(len(text)), math.log1p(len(lines)), float(final_match is not None), float(final is None),
        float(final is not None and final != int(final)), float(final is not None and final < 0),
        math.log1p(len(calcs)), math.log1p(calc_errors), float(calc_errors > 0), math.log1p(equation_errors),
        float(equation_errors > 0), math.log1p(len(_HEDGE.findall(text))), math.log1p(len(set(numbers))),
        sum(n in prompt_numbers for n in numbers) / len(numbers) if numbers else 0.0,
        1.0 - len(set(lines)) / max(len(lines), 1),
        float(last_result is not None and final is not None and abs(last_result - final) > 1e-6),
        float(final is not None and final in prompt_numbers),
        math.log1p(abs(final)) if final is not None else 0.0,
    ], dtype=np.float64)  # fmt: skip


def cascade_features(body: Mapping[str, Any], answer: str) -> np.ndarray:
    """Answer features followed by the request statistics (the escalation model's input)."""
    return np.concatenate([answer_features(body, answer), request_stats(body).as_vector()])


@dataclass(frozen=True, slots=True)
class EscalationModel:
    """P(the large model is needed | small model's answer, request): standardise → logistic."""

    mean: np.ndarray
    scale: np.ndarray
    weight: np.ndarray
    bias: float

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Escalation probabilities of the rows of ``x`` (:func:`cascade_features` rows)."""
        z = ((np.atleast_2d(x) - self.mean) / self.scale) @ self.weight + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))

    def score(self, body: Mapping[str, Any], answer: str) -> float:
        """P(the large model is needed | the small model's ``answer`` to ``body``)."""
        return float(self.predict(cascade_features(body, answer))[0])


def cascade_matrix(
    examples: Sequence[LabelledExample], answers: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cascade_features` of each example with its small-model answer, ``(n, features)``,
    and the label 'strong right and weak wrong' of each, ``(n,)``."""
    x = np.vstack([cascade_features(ex.body, answer) for ex, answer in zip(examples, answers, strict=True)])
    return x, np.array([ex.label for ex in examples], dtype=np.float64)


def fit_escalation(x: np.ndarray, labels: np.ndarray, c: float = 0.1) -> EscalationModel:
    """Fit an :class:`EscalationModel` on :func:`cascade_features` rows and 0/1 labels.

    Raises:
        RouterDataError: fewer than two label classes.
    """
    from sklearn.linear_model import LogisticRegression

    y = (np.asarray(labels) >= 0.5).astype(int)
    if y.min() == y.max():
        raise RouterDataError("escalation labels need both classes")
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    model = LogisticRegression(C=c, max_iter=3000).fit((x - mean) / scale, y)
    return EscalationModel(mean, scale, model.coef_[0].astype(np.float64), float(model.intercept_[0]))


def final_number(text: str) -> float | None:
    """An answer's final number: the last one marked ('####', 'answer is', '\\boxed{'), else the
    last number in the text; ``None`` when there is none."""
    marked = _FINAL.findall(text)
    for candidate in reversed(marked or _NUMBER.findall(text)):
        value = _number(candidate)
        if value is not None:
            return value
    return None


def read_gsm8k_rows(data_dir: Path) -> list[list[str]]:
    """The rows of ``router/gsm8k/gsm8k_responses.csv`` (header first).

    Raises:
        RouterDataError: the file cannot be read.
    """
    path = data_dir / "router" / "gsm8k" / "gsm8k_responses.csv"
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            return list(csv.reader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise RouterDataError(f"cannot read {path}: {exc}") from exc


def load_gsm8k_answers(data_dir: Path, examples: Sequence[LabelledExample]) -> list[str]:
    """The weak model's answer (column ``<weak>_response``) to each of ``examples``, the rows of
    :func:`router.data.load_gsm8k` read from the same file, in the same order."""
    path = data_dir / "router" / "gsm8k" / "gsm8k_responses.csv"
    rows = read_gsm8k_rows(data_dir)
    header = rows[0] if rows else []
    if len(header) < 4 or header[3] != f"{header[1]}_response":
        raise RouterDataError(f"{path}: expected columns prompt, <weak>, <strong>, <weak>_response")
    if len(rows) - 1 != len(examples) or any(len(r) < 4 for r in rows[1:]):
        raise RouterDataError(f"{path}: expected a <weak>_response for each of the {len(examples)} GSM8K rows")
    return [r[3] for r in rows[1:]]


@dataclass(frozen=True, slots=True)
class CascadeResult:
    """Escalation-model metrics on one split's held-out GSM8K rows."""

    seed: int
    apgr: float
    cpt50: float
    cpt80: float
    pgr: tuple[float, ...]


def evaluate_gsm8k_cascade(
    examples: Sequence[LabelledExample],
    answers: Sequence[str],
    split: Callable[[int], tuple[list[int], list[int]]],
    seeds: Sequence[int],
    c: float = 0.1,
) -> list[CascadeResult]:
    """Fit on each seed's training rows (label: strong right and weak wrong), score its test rows.

    ``answers[i]``: the small model's answer to ``examples[i]`` (:func:`load_gsm8k_answers`)."""
    x, need = cascade_matrix(examples, answers)
    weak = np.array([ex.weak for ex in examples], dtype=np.float64)
    strong = np.array([ex.strong for ex in examples], dtype=np.float64)
    out = []
    for seed in seeds:
        train, test = (np.asarray(part, dtype=int) for part in split(seed))
        model = fit_escalation(x[train], need[train], c)
        curve = routing_curve(model.predict(x[test]), weak[test], strong[test])
        out.append(CascadeResult(seed, *curve_summary(curve)))
    return out


def format_cascade(primary: CascadeResult, seeds: Sequence[CascadeResult],
                   prompt_only: Mapping[str, tuple[float, Sequence[float]]]) -> str:
    """Markdown: the cascade on the primary split and over seeds, next to prompt-only routers.

    ``prompt_only``: router name -> (APGR on the primary split, APGRs over the same seeds).
    """

    def mean_sd(values: Sequence[float]) -> str:
        v = np.asarray(values, dtype=np.float64)
        return "n/a" if v.size == 0 else f"{v.mean():.3f} ± {v.std(ddof=1) if v.size > 1 else 0.0:.3f}"

    lines = [
        "### GSM8K cascade: the small model answers, its answer decides escalation ([router] mode = cascade)",
        "",
        "Escalation model: logistic regression (C=0.1, chosen by 5-fold CV inside the training rows) on "
        f"{len(ANSWER_FEATURE_NAMES)} features of the weak model's answer + the request statistics; label "
        "'strong right and weak wrong'. Every request pays a small-model call.",
        "",
        "| router | APGR, primary split | CPT(50%) | CPT(80%) | APGR over seeds (mean ± sd) |",
        "|---|---|---|---|---|",
        f"| cascade (answer features) | {primary.apgr:.3f} | {primary.cpt50 * 100:.1f}% | {primary.cpt80 * 100:.1f}% "
        f"| {mean_sd([r.apgr for r in seeds])} |",
    ]
    for name, (value, over_seeds) in prompt_only.items():
        lines.append(f"| {name} | {value:.3f} | | | {mean_sd(over_seeds)} |")
    lines += ["", "| large-model calls | cascade PGR (primary split) |", "|---|---|"]
    lines += [f"| {i * 10}% | {p:.3f} |" for i, p in enumerate(primary.pgr)]
    return "\n".join(lines)

"""The cascade's escalation model as a shipped artifact, and the decision the proxy takes with it.

The proxy's cascade mode asks the small tier first and escalates to the large tier when
:class:`Escalator` judges the small answer weak (see :mod:`router.cascade` for the features).
The artifact is plain JSON (feature names, standardisation, logistic weights): no pickle, a few
KiB, reproducible byte for byte by ``thrifty router train-escalation``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from router.cascade import (
    ANSWER_FEATURE_NAMES,
    EscalationModel,
    cascade_matrix,
    fit_escalation,
    load_gsm8k_answers,
)
from router.config import RouterConfig
from router.errors import RouterArtifactError, RouterDataError
from router.features import STAT_NAMES
from router.policy import ThresholdPolicy, build_policy

ARTIFACT_FORMAT = "thrifty-escalation"
ARTIFACT_VERSION = 1
DEFAULT_C = 0.1  # chosen by 5-fold CV inside GSM8K training rows (router/README.md)


def feature_names() -> tuple[str, ...]:
    """Names of the escalation model's inputs: answer features, then request statistics."""
    return (*ANSWER_FEATURE_NAMES, *(f"stat:{name}" for name in STAT_NAMES))


def default_escalation_path() -> Path:
    """The escalation artifact shipped with the package."""
    return Path(__file__).parent / "artifacts" / "default_escalation.json"


@dataclass(frozen=True, slots=True)
class EscalationArtifact:
    """A fitted escalation model and the distribution of its scores on its training rows."""

    model: EscalationModel
    score_quantiles: np.ndarray  # (101,): the 0, 1, ..., 100th percentiles of training scores

    def reference_threshold(self, target_share: float) -> float:
        """The score above which ``target_share`` of the training rows lie (a warm-up threshold)."""
        return float(np.interp(1.0 - target_share, np.linspace(0.0, 1.0, 101), self.score_quantiles))


def save_escalation(artifact: EscalationArtifact, path: Path, *, trained_on: str, c: float) -> None:
    """Write ``artifact`` as JSON (stable key order and float formatting)."""
    model = artifact.model
    document = {
        "format": ARTIFACT_FORMAT,
        "version": ARTIFACT_VERSION,
        "trained_on": trained_on,
        "c": c,
        "feature_names": list(feature_names()),
        "mean": [float(v) for v in model.mean],
        "scale": [float(v) for v in model.scale],
        "weight": [float(v) for v in model.weight],
        "bias": float(model.bias),
        "score_quantiles": [float(v) for v in artifact.score_quantiles],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def load_escalation(path: Path | None = None) -> EscalationArtifact:
    """Read an artifact written by :func:`save_escalation` (default: the shipped one).

    Raises:
        RouterArtifactError: missing, unreadable, malformed, or made for other features.
    """
    path = path or default_escalation_path()
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RouterArtifactError(path, f"cannot read escalation artifact: {exc}") from exc
    if not isinstance(document, dict) or document.get("format") != ARTIFACT_FORMAT:
        raise RouterArtifactError(path, "not a thrifty escalation artifact")
    if document.get("version") != ARTIFACT_VERSION:
        raise RouterArtifactError(path, f"unsupported artifact version {document.get('version')!r}")
    names = tuple(document.get("feature_names") or ())
    if names != feature_names():
        raise RouterArtifactError(path, "made for other features than this version computes; retrain it")
    try:
        arrays = [np.asarray(document[k], dtype=np.float64) for k in ("mean", "scale", "weight")]
        bias = float(document["bias"])
        quantiles = np.asarray(document["score_quantiles"], dtype=np.float64)
    except (KeyError, TypeError, ValueError) as exc:
        raise RouterArtifactError(path, f"malformed weights: {exc}") from exc
    if any(a.shape != (len(names),) or not np.isfinite(a).all() for a in arrays) or not np.isfinite(bias):
        raise RouterArtifactError(path, f"weights must be {len(names)} finite numbers each")
    if (arrays[1] <= 0).any():
        raise RouterArtifactError(path, "scales must be positive")
    if quantiles.shape != (101,) or not np.isfinite(quantiles).all() or (np.diff(quantiles) < 0).any():
        raise RouterArtifactError(path, "score_quantiles must be 101 non-decreasing finite numbers")
    return EscalationArtifact(EscalationModel(arrays[0], arrays[1], arrays[2], bias), quantiles)


@dataclass(frozen=True, slots=True)
class EscalationDecision:
    """Whether to ask the large tier after reading the small tier's answer, and why."""

    escalate: bool
    score: float
    threshold: float
    reason: str


class Escalator:
    """Scores a small-tier answer and decides on escalation with the router's threshold policy.

    In ``share`` mode the policy keeps the share of escalated requests near
    ``target_large_share`` (quantile of recent escalation scores); in ``fixed`` mode a request is
    escalated when its score reaches ``fixed_threshold``.
    """

    def __init__(self, model: EscalationModel, policy: ThresholdPolicy) -> None:
        self.model = model
        self.policy = policy

    @classmethod
    def from_config(cls, config: RouterConfig, path: Path | None = None) -> Escalator:
        """The escalator ``config``'s threshold settings describe, with the artifact at ``path``
        (default: the shipped one). Share mode warms up on the artifact's training scores.

        Raises:
            RouterArtifactError: see :func:`load_escalation`.
        """
        artifact = load_escalation(path)
        reference = artifact.reference_threshold(config.target_large_share)
        return cls(artifact.model, build_policy(config, reference_threshold=reference))

    def score(self, body: Mapping[str, Any], answer: str) -> float:
        """P(the large tier is needed | the small tier's ``answer`` to ``body``)."""
        return self.model.score(body, answer)

    def decide(
        self, body: Mapping[str, Any], answer: str | None, finish_reason: str | None = None
    ) -> EscalationDecision:
        """Escalate or keep the small answer; never raises. No text, an answer cut off at the
        token limit (``finish_reason == "length"``: small models often loop until then) or a
        scoring failure escalates without consulting the model (the score is NaN)."""
        if not isinstance(answer, str) or not answer.strip():
            return EscalationDecision(True, float("nan"), float("nan"), "small tier gave no text answer")
        if finish_reason == "length":
            return EscalationDecision(True, float("nan"), float("nan"), "small answer was cut off at max_tokens")
        try:
            score = self.score(body, answer)
            if not np.isfinite(score):
                raise ValueError(f"non-finite score {score}")
            escalate, threshold, reason = self.policy.choose(score)
        except Exception as exc:  # noqa: BLE001 - a broken check must not fail the request
            return EscalationDecision(True, float("nan"), float("nan"), f"error: {type(exc).__name__}: {exc}")
        return EscalationDecision(escalate, score, threshold, reason)


def public_escalation_rows(data_dir: Path, exclude_prompts: Collection[str] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels (strong right and weak wrong) of the public GSM8K rows under ``data_dir``,
    with the weak model's stored answers; rows whose question is in ``exclude_prompts`` are left out
    (e.g. the questions of an evaluation trace).

    Raises:
        RouterDataError: unreadable public data.
    """
    from router.data import load_gsm8k

    examples = load_gsm8k(data_dir)
    answers = load_gsm8k_answers(data_dir, examples)
    if exclude_prompts:
        excluded = set(exclude_prompts)
        kept = [(ex, a) for ex, a in zip(examples, answers, strict=True) if question_text(ex.body) not in excluded]
        examples, answers = [ex for ex, _ in kept], [a for _, a in kept]
    return cascade_matrix(examples, answers)


def logged_escalation_rows(logged: Sequence[tuple[Mapping[str, Any], str, float]]) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of ``(request body, small-tier answer, quality in [0, 1])`` rows from the
    proxy's own traffic: the large tier was needed when quality < 0.5."""
    from router.cascade import cascade_features

    x = np.vstack([cascade_features(body, answer) for body, answer, _ in logged])
    return x, np.array([1.0 if quality < 0.5 else 0.0 for _, _, quality in logged])


def question_text(body: Mapping[str, Any]) -> str:
    """The text of a request body's last message (what the escalation rows are keyed and excluded by)."""
    messages = body.get("messages") or []
    last = messages[-1] if messages else {}
    return str(last.get("content", "")) if isinstance(last, Mapping) else ""


@dataclass(frozen=True, slots=True)
class EscalationRows:
    """The escalation model's training rows, each part as ``(features, labels)``, and where they came from."""

    public: tuple[np.ndarray, np.ndarray] | None  # public GSM8K rows (None: not used)
    logged: tuple[np.ndarray, np.ndarray] | None  # the proxy's judged small answers (None: none given)
    provenance: str


def escalation_rows(data_dir: Path | None, logged: Sequence[tuple[Mapping[str, Any], str, float]] = (),
                    exclude_prompts: Collection[str] = ()) -> EscalationRows:
    """The GSM8K rows of the public data under ``data_dir`` (label: strong right and weak wrong; features
    of the weak model's answer; rows asking a question in ``exclude_prompts`` left out) and ``logged``
    rows ``(request body, small-tier answer, quality in [0, 1])`` from the proxy's own traffic (label: the
    large tier was needed when quality < 0.5). ``data_dir`` None: logged rows only.

    Raises:
        RouterDataError: unreadable public data, or no rows at all.
    """
    public = logged_rows = None
    parts = []
    if data_dir is not None:
        public = public_escalation_rows(data_dir, exclude_prompts)
        need = public[1]
        left_out = " (questions of an evaluation trace left out)" if exclude_prompts else ""
        parts.append(f"gsm8k weak-model answers, {len(need)} rows{left_out}, {int(need.sum())} need the large model")
    if logged:
        logged_rows = logged_escalation_rows(logged)
        parts.append(f"proxy logs, {len(logged)} judged small answers, {int(logged_rows[1].sum())} judged bad")
    if public is None and logged_rows is None:
        raise RouterDataError("no training rows: give public data, logged small answers, or both")
    return EscalationRows(public, logged_rows, "; ".join(parts))


def fit_escalation_artifact(rows: EscalationRows, c: float = DEFAULT_C) -> EscalationArtifact:
    """Fit the escalation model on all of ``rows`` (public first, then logged).

    Raises:
        RouterDataError: only one label class.
    """
    parts = [part for part in (rows.public, rows.logged) if part is not None]
    x, need = np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    model = fit_escalation(x, need, c)
    quantiles = np.quantile(model.predict(x), np.linspace(0.0, 1.0, 101))
    return EscalationArtifact(model, quantiles)


def train_escalation(data_dir: Path | None, c: float = DEFAULT_C,
                     logged: Sequence[tuple[Mapping[str, Any], str, float]] = (),
                     exclude_prompts: Collection[str] = ()) -> tuple[EscalationArtifact, str]:
    """Fit the escalation model on :func:`escalation_rows` (the same arguments); returns the model and a
    provenance line.

    Raises:
        RouterDataError: unreadable public data, no rows, or only one label class.
    """
    rows = escalation_rows(data_dir, logged, exclude_prompts)
    return fit_escalation_artifact(rows, c), rows.provenance


REPRODUCE_RTOL = 1e-9  # another CPU kind or BLAS build moves the last digits of a fit, nothing more


def artifact_difference(expected: Path, got: Path) -> float | None:
    """How far two escalation artifacts are apart: 0.0 when byte-identical, else the largest relative
    difference of their numbers (``None``: unreadable, or other fields, features or shapes)."""
    try:
        if expected.read_bytes() == got.read_bytes():
            return 0.0
        a, b = (json.loads(path.read_text(encoding="utf-8")) for path in (expected, got))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    numeric = ("mean", "scale", "weight", "bias", "score_quantiles")
    if not isinstance(a, dict) or not isinstance(b, dict) or set(a) != set(b) or \
            any(a[k] != b[k] for k in a if k not in numeric):
        return None
    largest = 0.0
    for key in numeric:
        x, y = np.asarray(a.get(key), dtype=np.float64), np.asarray(b.get(key), dtype=np.float64)
        if x.shape != y.shape:
            return None
        scale = np.maximum(np.maximum(np.abs(x), np.abs(y)), 1e-12)
        largest = max(largest, float(np.max(np.abs(x - y) / scale, initial=0.0)))
    return largest

"""The learned difficulty classifier: P(large tier needed | embedding, statistics).

Model (chosen by domain-grouped validation on training domains only; see ``router/README.md``):

* input ``x = [embedding (384) ⊕ standardised statistics]``;
* one L2 logistic regression *expert* per training source that has enough rows (MMLU-like
  knowledge questions, GSM8K-like word problems, the proxy's own logs), plus a *general* expert
  trained on every row (it also covers small sources such as MT-Bench);
* a multinomial logistic *gate* on the embedding that predicts which expert's data a prompt
  resembles; the score is the gate-weighted mixture of the experts' probabilities;
* a Platt *calibrator* fitted on out-of-fold mixture scores (folds grouped by MMLU domain), so
  that the probability stays calibrated on topics unseen in training.

Everything is plain linear algebra at inference time: :meth:`DifficultyClassifier.predict_one`
costs a few dot products (microseconds), independent of scikit-learn's per-call overhead.

Artifacts are joblib files (pickles: load only artifacts you trust) holding the fitted
scikit-learn estimators and a feature spec; :func:`load_artifact` validates them and raises
:class:`router.errors.RouterArtifactError` with the path and the reason on any problem.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from router.errors import RouterArtifactError
from router.features import FEATURE_VERSION, STAT_NAMES

ARTIFACT_FORMAT = "thrifty-router"
ARTIFACT_FORMAT_VERSION = 1
GENERAL_EXPERT = "general"

_LOGIT_EPS = 1e-6


def default_artifact_path() -> Path:
    """Path of the artifact shipped with the package."""
    return Path(__file__).resolve().parent / "artifacts" / "default_router.joblib"


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


def _logit(p: np.ndarray) -> np.ndarray:
    q = np.clip(p, _LOGIT_EPS, 1.0 - _LOGIT_EPS)
    return np.log(q / (1.0 - q))


@dataclass(frozen=True, slots=True)
class FeatureSpec:
    """What the classifier expects as input."""

    feature_version: int
    stat_names: tuple[str, ...]
    embedding_dim: int
    embedder: str

    def check_compatible(self) -> str | None:
        """Why this spec cannot be served by the installed feature code, or ``None`` if it can."""
        if self.feature_version != FEATURE_VERSION:
            return f"feature version {self.feature_version} != installed {FEATURE_VERSION}"
        if tuple(self.stat_names) != STAT_NAMES:
            return "statistics differ from the installed router.features.STAT_NAMES"
        return None


@dataclass(frozen=True, slots=True)
class _Linear:
    weight: np.ndarray  # (k, d) or (d,)
    bias: np.ndarray  # (k,) or ()


@dataclass(frozen=True)
class DifficultyClassifier:
    """A fitted mixture-of-experts classifier with a Platt calibrator.

    Attributes:
        spec: input feature spec.
        stat_mean / stat_scale: standardisation of the statistics.
        experts: name -> fitted ``LogisticRegression`` on ``[embedding, scaled stats]``.
        gate: fitted multinomial ``LogisticRegression`` on the embedding over ``gate_classes``,
            or ``None`` when there is a single expert.
        gate_classes: expert name of each gate class, in the gate's class order.
        calibrator: ``(a, b)`` of ``sigmoid(a * logit(p) + b)``.
        reference_quantiles: 101 quantiles (0 %, 1 %, ..., 100 %) of the calibrated scores on
            the training rows; the warm-up threshold of share mode.
        training: free-form summary of how the artifact was trained.
    """

    spec: FeatureSpec
    stat_mean: np.ndarray
    stat_scale: np.ndarray
    experts: Mapping[str, Any]
    gate: Any | None
    gate_classes: tuple[str, ...]
    calibrator: tuple[float, float]
    reference_quantiles: np.ndarray
    training: Mapping[str, Any] = field(default_factory=dict)
    _fast: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        experts = {
            name: _Linear(np.asarray(m.coef_[0], np.float64), np.asarray(m.intercept_[0], np.float64))
            for name, m in self.experts.items()
        }
        gate: _Linear | None = None
        if self.gate is not None:
            coef = np.asarray(self.gate.coef_, np.float64)
            bias = np.asarray(self.gate.intercept_, np.float64)
            if coef.shape[0] == 1:  # binary: P(class 1) = sigmoid(w.x + b) -> softmax over [0, w.x + b]
                coef = np.vstack([np.zeros_like(coef[0]), coef[0]])
                bias = np.array([0.0, bias[0]])
            gate = _Linear(coef, bias)
        self._fast.update(experts=experts, gate=gate)

    def _scaled(self, embeddings: np.ndarray, stats: np.ndarray) -> np.ndarray:
        return np.hstack([embeddings, (stats - self.stat_mean) / self.stat_scale])

    def predict(self, embeddings: np.ndarray, stats: np.ndarray) -> np.ndarray:
        """Calibrated P(large needed) for ``n`` rows: embeddings ``(n, dim)``, stats ``(n, n_stats)``."""
        emb = np.atleast_2d(np.asarray(embeddings, dtype=np.float64))
        st = np.atleast_2d(np.asarray(stats, dtype=np.float64))
        if emb.shape[1] != self.spec.embedding_dim:
            raise ValueError(f"embedding dim {emb.shape[1]} != model's {self.spec.embedding_dim}")
        if st.shape[1] != len(self.spec.stat_names) or st.shape[0] != emb.shape[0]:
            raise ValueError(
                f"stats shape {st.shape} does not match {emb.shape[0]} x {len(self.spec.stat_names)}"
            )
        x = self._scaled(emb, st)
        experts: dict[str, _Linear] = self._fast["experts"]
        gate: _Linear | None = self._fast["gate"]
        if gate is None:
            (only,) = self.gate_classes
            mixed = _sigmoid(x @ experts[only].weight + experts[only].bias)
        else:
            logits = emb @ gate.weight.T + gate.bias
            logits -= logits.max(axis=1, keepdims=True)
            weights = np.exp(logits)
            weights /= weights.sum(axis=1, keepdims=True)
            probs = np.column_stack(
                [_sigmoid(x @ experts[name].weight + experts[name].bias) for name in self.gate_classes]
            )
            mixed = (weights * probs).sum(axis=1)
        a, b = self.calibrator
        return _sigmoid(a * _logit(mixed) + b)

    def predict_one(self, embedding: np.ndarray, stats: np.ndarray) -> float:
        """Calibrated P(large needed) for one request."""
        return float(self.predict(np.asarray(embedding)[None, :], np.asarray(stats)[None, :])[0])

    def reference_threshold(self, target_share: float) -> float:
        """Score threshold that sends ``target_share`` of the training prompts to the large tier."""
        q = np.clip(1.0 - target_share, 0.0, 1.0)
        return float(
            np.interp(q, np.linspace(0.0, 1.0, self.reference_quantiles.size), self.reference_quantiles)
        )


def save_artifact(classifier: DifficultyClassifier, path: str | Path) -> Path:
    """Write ``classifier`` to ``path`` (joblib, compressed); returns the path."""
    import joblib

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "format": ARTIFACT_FORMAT,
        "format_version": ARTIFACT_FORMAT_VERSION,
        "feature_spec": {
            "feature_version": classifier.spec.feature_version,
            "stat_names": list(classifier.spec.stat_names),
            "embedding_dim": classifier.spec.embedding_dim,
            "embedder": classifier.spec.embedder,
        },
        "stat_mean": classifier.stat_mean,
        "stat_scale": classifier.stat_scale,
        "experts": dict(classifier.experts),
        "gate": classifier.gate,
        "gate_classes": list(classifier.gate_classes),
        "calibrator": list(classifier.calibrator),
        "reference_quantiles": classifier.reference_quantiles,
        "training": dict(classifier.training),
    }
    tmp = target.with_name(target.name + ".tmp")
    try:
        joblib.dump(payload, tmp, compress=3)
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


_REQUIRED = (
    "format",
    "format_version",
    "feature_spec",
    "stat_mean",
    "stat_scale",
    "experts",
    "gate",
    "gate_classes",
    "calibrator",
    "reference_quantiles",
)


def load_artifact(path: str | Path) -> DifficultyClassifier:
    """Load and validate an artifact written by :func:`save_artifact`.

    Raises:
        RouterArtifactError: the file is missing, unreadable, not a router artifact, of another
            format version, built for other features, or internally inconsistent.
    """
    import joblib

    source = Path(path)
    if not source.is_file():
        raise RouterArtifactError(source, "file not found")
    try:
        payload = joblib.load(source)
    except Exception as exc:  # noqa: BLE001 - pickle/zlib/EOF errors all mean "corrupt"
        raise RouterArtifactError(source, f"cannot be read ({type(exc).__name__}: {exc})") from exc
    if not isinstance(payload, Mapping) or payload.get("format") != ARTIFACT_FORMAT:
        raise RouterArtifactError(source, "not a thrifty router artifact")
    if payload.get("format_version") != ARTIFACT_FORMAT_VERSION:
        raise RouterArtifactError(
            source,
            f"format version {payload.get('format_version')!r} is not supported "
            f"(expected {ARTIFACT_FORMAT_VERSION}); retrain it with the router training command",
        )
    missing = [key for key in _REQUIRED if key not in payload]
    if missing:
        raise RouterArtifactError(source, f"missing fields {missing}")
    try:
        raw_spec = payload["feature_spec"]
        spec = FeatureSpec(
            feature_version=int(raw_spec["feature_version"]),
            stat_names=tuple(raw_spec["stat_names"]),
            embedding_dim=int(raw_spec["embedding_dim"]),
            embedder=str(raw_spec["embedder"]),
        )
        problem = spec.check_compatible()
        if problem:
            raise RouterArtifactError(source, f"incompatible features: {problem}; retrain it")
        a, b = (float(v) for v in payload["calibrator"])
        classifier = DifficultyClassifier(
            spec=spec,
            stat_mean=np.asarray(payload["stat_mean"], np.float64),
            stat_scale=np.asarray(payload["stat_scale"], np.float64),
            experts=dict(payload["experts"]),
            gate=payload["gate"],
            gate_classes=tuple(payload["gate_classes"]),
            calibrator=(a, b),
            reference_quantiles=np.asarray(payload["reference_quantiles"], np.float64),
            training=dict(payload.get("training") or {}),
        )
        _self_check(classifier)
    except RouterArtifactError:
        raise
    except Exception as exc:  # noqa: BLE001
        raise RouterArtifactError(source, f"inconsistent contents ({type(exc).__name__}: {exc})") from exc
    return classifier


def _self_check(classifier: DifficultyClassifier) -> None:
    n_stats = len(classifier.spec.stat_names)
    if classifier.stat_mean.shape != (n_stats,) or classifier.stat_scale.shape != (n_stats,):
        raise ValueError("statistics scaler does not match the statistics")
    if not set(classifier.gate_classes) <= set(classifier.experts) or not classifier.gate_classes:
        raise ValueError("gate classes do not match the experts")
    if (classifier.gate is None) != (len(classifier.gate_classes) == 1):
        raise ValueError("a gate is needed exactly when there are several experts")
    width = classifier.spec.embedding_dim + n_stats
    for name, expert in classifier.experts.items():
        if np.asarray(expert.coef_).shape != (1, width):
            raise ValueError(
                f"expert {name!r} expects {np.asarray(expert.coef_).shape[1]} inputs, not {width}"
            )
    probe = classifier.predict(np.zeros((1, classifier.spec.embedding_dim)), classifier.stat_mean[None, :])
    if not (probe.shape == (1,) and math.isfinite(float(probe[0]))):
        raise ValueError("probe prediction is not a finite probability")

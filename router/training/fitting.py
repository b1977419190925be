"""Fitting the difficulty classifier: from arrays (:func:`fit_classifier`: the mixture of experts, its
out-of-fold Platt calibrator, reference quantiles and the training summary stored in the artifact) or
from labelled examples (:func:`train_router`: featurize, embed, fit)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from caches.embedder import Embedder
from router.classifier import DifficultyClassifier, FeatureSpec
from router.data import LabelledExample
from router.errors import RouterDataError
from router.features import FEATURE_VERSION, STAT_NAMES
from router.metrics import auroc
from router.training.calibration import calibration_folds, fit_platt
from router.training.config import TrainingConfig
from router.training.inputs import embed_texts, embedder_name, featurize
from router.training.mixture import assign_experts, fit_mixture, has_both_classes
from router.training.progress import progress_bar


def fit_classifier(
    embeddings: np.ndarray,
    stats: np.ndarray,
    labels: np.ndarray,
    sources: Sequence[str],
    groups: Sequence[str],
    *,
    config: TrainingConfig | None = None,
    embedder: str = "unknown",
    progress: bool = True,
    training_info: dict[str, Any] | None = None,
    grouped_sources: Collection[str] = ("mmlu",),
) -> DifficultyClassifier:
    """Fit the mixture-of-experts classifier and its out-of-fold Platt calibrator.

    Args:
        embeddings: ``(n, dim)`` embeddings of the routing texts.
        stats: ``(n, len(STAT_NAMES))`` statistics.
        labels: ``(n,)`` targets P(large needed) in [0, 1].
        sources: source of each row (``"mmlu"``, ``"gsm8k"``, ``"mt_bench"``, ``"logs"``...).
        groups: group of each row (MMLU domain) for the calibration folds.
        grouped_sources: sources whose rows are folded by group (a group never straddles two folds); the
            other sources' rows are folded at random.
        config: hyper-parameters.
        embedder: embedder identity stored in the feature spec.
        progress: show a progress bar on stderr.
        training_info: extra summary stored in the artifact.

    Raises:
        RouterDataError: empty data, mismatched shapes, or only one class of label.
    """
    cfg = config or TrainingConfig()
    emb = np.asarray(embeddings, dtype=np.float64)
    st = np.asarray(stats, dtype=np.float64)
    y = np.clip(np.asarray(labels, dtype=np.float64), 0.0, 1.0)
    src = np.asarray(list(sources), dtype=object)
    grp = np.asarray(list(groups), dtype=object)
    n = y.shape[0]
    if n == 0:
        raise RouterDataError("no training examples")
    if not (emb.shape[0] == st.shape[0] == src.shape[0] == grp.shape[0] == n):
        raise RouterDataError("embeddings, stats, labels, sources and groups differ in length")
    if st.shape[1] != len(STAT_NAMES):
        raise RouterDataError(f"stats have {st.shape[1]} columns, expected {len(STAT_NAMES)}")
    if not has_both_classes(y):
        raise RouterDataError("training labels need both 'large needed' and 'small suffices' examples")

    mean = st.mean(axis=0)
    scale = st.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = np.hstack([emb, (st - mean) / scale])
    experts_of_rows = assign_experts(src, cfg, y)
    spec = FeatureSpec(FEATURE_VERSION, STAT_NAMES, int(emb.shape[1]), embedder)

    def build(
        rows: np.ndarray, calibrator: tuple[float, float], reference: np.ndarray
    ) -> DifficultyClassifier:
        experts, gate, classes = fit_mixture(emb[rows], x[rows], y[rows], experts_of_rows[rows], cfg)
        return DifficultyClassifier(
            spec=spec,
            stat_mean=mean,
            stat_scale=scale,
            experts=experts,
            gate=gate,
            gate_classes=classes,
            calibrator=calibrator,
            reference_quantiles=reference,
        )

    identity = (1.0, 0.0)
    flat = np.linspace(0.0, 1.0, 101)
    k = max(2, cfg.calibration_folds) if cfg.calibration_folds > 0 else 0  # 0: uncalibrated (evaluation)
    fold = calibration_folds(src, grp, k, cfg.seed, grouped_sources) if k else np.zeros(n, dtype=int)
    oof = np.full(n, np.nan)
    final: DifficultyClassifier | None = None
    calibrator = identity
    # steps 0..k-1: out-of-fold mixtures for the calibrator; step k: the final fit on every row
    for step in progress_bar(range(k + 1), progress, desc="training (folds + final)", unit="fit"):
        if step == k:
            done = ~np.isnan(oof)
            if done.sum() >= 20 and has_both_classes(y[done]):
                calibrator = fit_platt(oof[done], y[done])
            final = build(np.ones(n, dtype=bool), calibrator, flat)
            break
        train = fold != step
        held = ~train
        if not held.any() or not has_both_classes(y[train]):
            continue
        try:
            oof[held] = build(train, identity, flat).predict(emb[held], st[held])
        except RouterDataError:
            continue
    assert final is not None
    done = ~np.isnan(oof)
    scores = final.predict(emb, st)
    reference = np.quantile(scores, np.linspace(0.0, 1.0, 101))
    summary: dict[str, Any] = dict(training_info or {})
    per_source: dict[str, Any] = {}
    for source in sorted(set(src.tolist())):
        rows = src == source
        auc = auroc(y[rows & done], oof[rows & done]) if (rows & done).any() else None
        per_source[source] = {
            "rows": int(rows.sum()),
            "mean_label": round(float(y[rows].mean()), 4),
            "oof_auc": None if auc is None else round(auc, 4),
        }
    import sklearn

    summary.update(
        per_source=per_source,
        experts=list(final.gate_classes),
        config={
            "expert_sources": [list(p) for p in cfg.expert_sources],
            "general_c": cfg.general_c,
            "gate_c": cfg.gate_c,
            "min_expert_rows": cfg.min_expert_rows,
            "calibration_folds": k,
            "seed": cfg.seed,
        },
        calibrator=[round(calibrator[0], 6), round(calibrator[1], 6)],
        sklearn_version=sklearn.__version__,
    )
    return DifficultyClassifier(
        spec=spec,
        stat_mean=mean,
        stat_scale=scale,
        experts=final.experts,
        gate=final.gate,
        gate_classes=final.gate_classes,
        calibrator=calibrator,
        reference_quantiles=reference,
        training=summary,
    )


def train_router(
    examples: Sequence[LabelledExample],
    embedder: Embedder,
    *,
    config: TrainingConfig | None = None,
    progress: bool = True,
    embedding_cache: str | Path | None = None,
    training_info: dict[str, Any] | None = None,
) -> DifficultyClassifier:
    """Featurize, embed and fit ``examples``; returns the classifier (not yet saved)."""
    if not examples:
        raise RouterDataError("no training examples")
    texts, stats = featurize(examples)
    embeddings = embed_texts(embedder, texts, progress=progress, cache_path=embedding_cache)
    return fit_classifier(
        embeddings,
        stats,
        np.array([ex.label for ex in examples]),
        [ex.source for ex in examples],
        [ex.group for ex in examples],
        config=config,
        embedder=embedder_name(embedder),
        progress=progress,
        training_info=training_info,
    )

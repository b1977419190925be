"""The classifier's calibration: the folds its out-of-fold scores come from (:func:`calibration_folds`)
and the Platt calibrator fitted on those scores (:func:`fit_platt`)."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np


def calibration_folds(sources: np.ndarray, groups: np.ndarray, k: int, seed: int,
                      grouped_sources: Collection[str] = ("mmlu",)) -> np.ndarray:
    """Fold id of every row: rows of ``grouped_sources`` by group (MMLU: by domain), other rows at random
    (seeded)."""
    rng = np.random.default_rng(seed)
    fold = np.zeros(sources.shape[0], dtype=int)
    grouped = np.isin(sources, list(grouped_sources))
    domains = sorted(set(groups[grouped].tolist()))
    for i, domain in enumerate(rng.permutation(len(domains))):
        fold[grouped & (groups == domains[domain])] = i % k
    rest = np.flatnonzero(~grouped)
    fold[rest[rng.permutation(rest.size)]] = np.arange(rest.size) % k
    return fold


def fit_platt(scores: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Platt calibrator ``(a, b)`` of ``scores`` in (0, 1) for soft labels ``y``: the calibrated score is
    ``sigmoid(a * logit(score) + b)``."""
    from sklearn.linear_model import LogisticRegression

    z = np.log(np.clip(scores, 1e-6, 1 - 1e-6) / np.clip(1 - scores, 1e-6, 1)).reshape(-1, 1)
    hard = (y == 0.0) | (y == 1.0)
    soft = ~hard
    zs = np.vstack([z[hard], z[soft], z[soft]])
    ys = np.concatenate([y[hard], np.ones(soft.sum()), np.zeros(soft.sum())])
    ws = np.concatenate([np.ones(hard.sum()), y[soft], 1.0 - y[soft]])
    model = LogisticRegression(C=1e4, max_iter=1000).fit(zs, ys, sample_weight=ws)
    return float(model.coef_[0, 0]), float(model.intercept_[0])

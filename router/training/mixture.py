"""The mixture of experts on soft labels: which expert trains on each row (:func:`assign_experts`),
and fitting the experts (logistic regressions) and the gate over them (:func:`fit_mixture`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from router.classifier import GENERAL_EXPERT
from router.errors import RouterDataError
from router.training.config import TrainingConfig


def has_both_classes(y: np.ndarray) -> bool:
    """Whether soft labels ``y`` hold some weight of each class (a row above 0 and a row below 1)."""
    return bool(np.any(y > 0.0) and np.any(y < 1.0))


def _fit_lr(x: np.ndarray, y: np.ndarray, c: float, max_iter: int) -> Any:
    """Logistic regression on soft labels ``y`` in [0, 1] (fractional rows enter twice, weighted)."""
    from sklearn.linear_model import LogisticRegression

    hard = (y == 0.0) | (y == 1.0)
    soft = ~hard
    xs = np.vstack([x[hard], x[soft], x[soft]])
    ys = np.concatenate([y[hard], np.ones(soft.sum()), np.zeros(soft.sum())])
    ws = np.concatenate([np.ones(hard.sum()), y[soft], 1.0 - y[soft]])
    if len(np.unique(ys[ws > 0])) < 2:
        raise RouterDataError("training labels need both 'large needed' and 'small suffices' examples")
    model = LogisticRegression(C=c, max_iter=max_iter)
    model.fit(xs, ys, sample_weight=ws)
    return model


def assign_experts(sources: np.ndarray, config: TrainingConfig, y: np.ndarray) -> np.ndarray:
    """Expert name of every row (its source's expert, or the general one)."""
    counts = Counter(sources.tolist())
    out = np.full(sources.shape, GENERAL_EXPERT, dtype=object)
    for source, _ in config.expert_sources:
        rows = sources == source
        if counts.get(source, 0) >= config.min_expert_rows and has_both_classes(y[rows]):
            out[rows] = source
    return out


def fit_mixture(
    embeddings: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    experts_of_rows: np.ndarray,
    config: TrainingConfig,
) -> tuple[dict[str, Any], Any | None, tuple[str, ...]]:
    """The experts (name -> logistic regression on the features ``x``), the gate (a multinomial logistic
    regression on ``embeddings``; None with one expert) and the gate's class order.

    Every source expert named in ``experts_of_rows`` is fitted on its rows; the general expert on every
    row, when some row has no source expert or there is none.

    Raises:
        RouterDataError: an expert's rows hold one class only.
    """
    from sklearn.linear_model import LogisticRegression

    c_of = dict(config.expert_sources)
    names = sorted({str(e) for e in experts_of_rows} - {GENERAL_EXPERT})
    experts = {
        name: _fit_lr(x[experts_of_rows == name], y[experts_of_rows == name], c_of[name], config.max_iter)
        for name in names
    }
    gate_classes = tuple(names)
    if np.any(experts_of_rows == GENERAL_EXPERT) or not names:
        experts[GENERAL_EXPERT] = _fit_lr(x, y, config.general_c, config.max_iter)
        gate_classes += (GENERAL_EXPERT,)
    gate = None
    if len(gate_classes) > 1:
        index = {name: i for i, name in enumerate(gate_classes)}
        targets = np.array([index[str(e)] for e in experts_of_rows])
        gate = LogisticRegression(C=config.gate_c, max_iter=config.max_iter)
        gate.fit(embeddings, targets)
        # the gate's class order is sorted integer labels == gate_classes order
    return experts, gate, gate_classes

"""Fitting the classifier from arrays: deterministic, soft labels, one class refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from router.errors import RouterDataError
from router.features import STAT_NAMES
from router.training.config import TrainingConfig
from router.training.fitting import fit_classifier


def test_fit_is_deterministic_and_rejects_one_class() -> None:
    rng = np.random.default_rng(0)
    n = 120
    emb = rng.normal(size=(n, 8))
    stats = rng.normal(size=(n, len(STAT_NAMES)))
    labels = (emb[:, 0] > 0).astype(float)
    sources = ["mmlu"] * 80 + ["gsm8k"] * 40
    groups = [f"mmlu/d{i % 4}" for i in range(80)] + ["gsm8k"] * 40
    config = TrainingConfig(min_expert_rows=30)
    a = fit_classifier(emb, stats, labels, sources, groups, config=config, progress=False)
    b = fit_classifier(emb, stats, labels, sources, groups, config=config, progress=False)
    np.testing.assert_allclose(a.predict(emb, stats), b.predict(emb, stats))
    assert a.gate_classes == ("gsm8k", "mmlu")
    assert np.corrcoef(a.predict(emb, stats), labels)[0, 1] > 0.5
    with pytest.raises(RouterDataError, match="both"):
        fit_classifier(emb, stats, np.zeros(n), sources, groups, progress=False)



def test_soft_labels(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    emb = rng.normal(size=(60, 4))
    stats = np.zeros((60, len(STAT_NAMES)))
    labels = np.clip(0.5 + 0.4 * np.sign(emb[:, 0]), 0, 1)  # 0.1 / 0.9 soft targets
    model = fit_classifier(emb, stats, labels, ["logs"] * 60, ["logs"] * 60, progress=False)
    p = model.predict(emb, stats)
    assert p[emb[:, 0] > 0].mean() > 0.6 > 0.4 > p[emb[:, 0] < 0].mean()

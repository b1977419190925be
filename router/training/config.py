"""The hyper-parameters of a classifier fit (:class:`TrainingConfig`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TrainingConfig:
    """Hyper-parameters of :func:`router.training.fitting.fit_classifier` (chosen by domain-grouped validation).

    Attributes:
        expert_sources: (source, inverse L2 strength C) of the sources that get their own expert
            when they have at least ``min_expert_rows`` rows.
        general_c: C of the general expert (trained on every row).
        gate_c: C of the gate (multinomial logistic regression on the embedding).
        min_expert_rows: rows a source needs for its own expert.
        calibration_folds: folds of the out-of-fold scores the Platt calibrator is fitted on
            (MMLU rows are folded by domain, other rows at random); 0 skips calibration (one fit;
            the ranking, hence APGR/CPT, is the same since the calibrator is monotone).
        seed: seed of the fold assignment.
        max_iter: L-BFGS iterations per logistic regression.
    """

    expert_sources: tuple[tuple[str, float], ...] = (("mmlu", 0.1), ("gsm8k", 1.0), ("logs", 0.1))
    general_c: float = 0.1
    gate_c: float = 1.0
    min_expert_rows: int = 200
    calibration_folds: int = 5
    seed: int = 0
    max_iter: int = 2000

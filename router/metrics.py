"""Cost-quality metrics of a router on labelled prompts (RouteLLM's APGR and CPT).

Given per-prompt qualities of the weak and strong model and router scores, routing the top-``k``
scored prompts to the strong model (``k = 0..n``) traces a cost-quality curve:

* ``quality(k) = (sum(weak) + sum over the top-k of (strong - weak)) / n``
* ``PGR(k) = (quality(k) - quality_weak) / (quality_strong - quality_weak)`` (performance gap
  recovered; 0 = all-weak, 1 = all-strong quality).
* ``APGR`` = area under PGR against the strong-call share ``k / n`` over [0, 1]. :func:`apgr`
  integrates the exact curve (all ``n + 1`` points); :func:`apgr_grid` uses RouteLLM's 11-point
  grid (0 %, 10 %, ..., 100 %) with the trapezoid rule, as in ``routellm/evals/evaluate.py``.
* ``CPT(x)`` = the smallest strong-call share whose PGR reaches ``x`` (:func:`cpt`).

Ties in the scores are broken by a seeded random permutation, so a router with many equal scores
is neither rewarded nor punished by the input order.

:func:`auroc` measures the ranking alone (area under the ROC curve), e.g. of out-of-fold scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

GRID_SHARES: tuple[float, ...] = tuple(i / 10 for i in range(11))


@dataclass(frozen=True, slots=True)
class RoutingCurve:
    """Quality after routing the top-``k`` prompts to the strong model, for every ``k``."""

    quality: np.ndarray  # shape (n + 1,), quality[k]
    weak_quality: float
    strong_quality: float

    @property
    def n(self) -> int:
        """Number of prompts."""
        return int(self.quality.shape[0] - 1)

    @property
    def shares(self) -> np.ndarray:
        """Strong-call share of each point, ``k / n``."""
        return np.arange(self.n + 1, dtype=np.float64) / max(self.n, 1)

    @property
    def pgr(self) -> np.ndarray:
        """Performance gap recovered at each point (``nan`` if both models are equally good)."""
        gap = self.strong_quality - self.weak_quality
        if gap == 0:
            return np.full_like(self.quality, np.nan)
        return (self.quality - self.weak_quality) / gap

    def at_share(self, share: float) -> tuple[float, float]:
        """(quality, PGR) when ``round(share * n)`` prompts go to the strong model."""
        k = int(round(share * self.n))
        return float(self.quality[k]), float(self.pgr[k])


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """One row of a cost-quality table."""

    share: float
    quality: float
    pgr: float


def routing_curve(
    scores: Sequence[float] | np.ndarray,
    weak: Sequence[float] | np.ndarray,
    strong: Sequence[float] | np.ndarray,
    tie_seed: int = 0,
) -> RoutingCurve:
    """The cost-quality curve of ``scores`` (higher = send to the strong model first)."""
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(weak, dtype=np.float64)
    g = np.asarray(strong, dtype=np.float64)
    if not (s.shape == w.shape == g.shape) or s.ndim != 1 or s.size == 0:
        raise ValueError(
            f"scores, weak and strong must be equal-length non-empty 1-d, got {s.shape}, {w.shape}, {g.shape}"
        )
    tie_break = np.random.default_rng(tie_seed).permutation(s.size)
    order = np.lexsort((tie_break, -s))
    gains = np.concatenate([[0.0], np.cumsum((g - w)[order])])
    quality = (w.sum() + gains) / s.size
    return RoutingCurve(quality=quality, weak_quality=float(w.mean()), strong_quality=float(g.mean()))


def apgr(curve: RoutingCurve) -> float:
    """Average PGR over strong-call shares 0..1, integrating the exact curve."""
    return float(np.trapezoid(curve.pgr, curve.shares))


def apgr_grid(curve: RoutingCurve, shares: Sequence[float] = GRID_SHARES) -> float:
    """Average PGR with RouteLLM's grid (trapezoid rule over ``shares``, default 0, 0.1, ..., 1)."""
    points = [curve.at_share(share)[1] for share in shares]
    return float(np.trapezoid(points, shares))


def cpt(curve: RoutingCurve, fraction: float) -> float:
    """Smallest strong-call share whose PGR is at least ``fraction`` (``nan`` if never reached)."""
    reached = np.flatnonzero(curve.pgr >= fraction - 1e-12)
    return float(curve.shares[reached[0]]) if reached.size else float("nan")


def curve_table(curve: RoutingCurve, shares: Sequence[float] = GRID_SHARES) -> list[CurvePoint]:
    """Cost-quality table at the given strong-call shares."""
    rows = []
    for share in shares:
        quality, pgr = curve.at_share(share)
        rows.append(CurvePoint(share=float(share), quality=quality, pgr=pgr))
    return rows


def curve_summary(curve: RoutingCurve) -> tuple[float, float, float, tuple[float, ...]]:
    """``(APGR, CPT(50 %), CPT(80 %), PGR at each of GRID_SHARES)`` of one routing curve."""
    return apgr(curve), cpt(curve, 0.5), cpt(curve, 0.8), tuple(p.pgr for p in curve_table(curve))


def optimal_curve(weak: Sequence[float] | np.ndarray, strong: Sequence[float] | np.ndarray) -> RoutingCurve:
    """The oracle's curve: prompts ranked by their true gain ``strong - weak``."""
    w = np.asarray(weak, dtype=np.float64)
    g = np.asarray(strong, dtype=np.float64)
    return routing_curve(g - w, w, g)


def auroc(y: np.ndarray, p: np.ndarray) -> float | None:
    """Area under the ROC curve of scores ``p`` for labels ``y >= 0.5``; None when one class only."""
    from sklearn.metrics import roc_auc_score

    labels = (y >= 0.5).astype(int)
    if labels.min() == labels.max():
        return None
    return float(roc_auc_score(labels, p))

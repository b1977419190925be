"""Threshold policies: a router's score in [0, 1] becomes a tier.

* :class:`FixedThresholdPolicy`: large tier iff ``score >= threshold`` (a quality floor).
* :class:`ShareThresholdPolicy`: keeps the share of large-tier calls near a target by using the
  ``1 - target`` quantile of a sliding window of recent scores as the threshold, recomputed every
  few calls, so it follows traffic drift. Until the window holds ``min_window`` scores it uses a
  warm-up threshold (a reference quantile shipped with the artifact, or a fixed value).

Policies are thread-safe: the proxy decides in a thread pool.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from router.config import RouterConfig


@dataclass(frozen=True, slots=True)
class RouteDecision:
    """The router's answer for one request.

    Attributes:
        tier: chosen tier name (mapped to a concrete model by the proxy).
        score: router score in [0, 1] (predicted probability that the large tier is needed);
            ``nan`` when routing failed.
        threshold: threshold the score was compared with (``nan`` on failure).
        router: router kind that decided (``"learned"``, ``"heuristic"``, ``"random"``).
        reason: short human-readable explanation; starts with ``"error: "`` on failure.
    """

    tier: str
    score: float
    threshold: float
    router: str
    reason: str

    @property
    def failed(self) -> bool:
        """Whether routing failed and the default tier was used."""
        return self.reason.startswith("error:")


class ThresholdPolicy(Protocol):
    """Turns scores into a large/small choice."""

    def threshold(self) -> float:
        """The threshold the next score will be compared with."""
        ...

    def choose(self, score: float) -> tuple[bool, float, str]:
        """(use the large tier?, threshold used, reason) for ``score``; may record the score."""
        ...


class FixedThresholdPolicy:
    """Large tier iff ``score >= threshold``."""

    def __init__(self, threshold: float) -> None:
        self._threshold = float(threshold)

    def threshold(self) -> float:
        """The fixed threshold."""
        return self._threshold

    def choose(self, score: float) -> tuple[bool, float, str]:
        """Compare ``score`` with the fixed threshold."""
        large = score >= self._threshold
        op = ">=" if large else "<"
        return large, self._threshold, f"score {score:.3f} {op} fixed threshold {self._threshold:.3f}"


class ShareThresholdPolicy:
    """Threshold = ``1 - target_share`` quantile of the last ``window_size`` scores.

    Args:
        target_share: wanted share of large-tier calls in [0, 1].
        window_size: how many recent scores the quantile is computed over.
        min_window: scores needed before the window's quantile replaces ``initial_threshold``.
        recalibrate_every: recompute the quantile after this many new scores.
        initial_threshold: warm-up threshold.
    """

    def __init__(
        self,
        target_share: float,
        window_size: int,
        min_window: int,
        recalibrate_every: int,
        initial_threshold: float,
    ) -> None:
        if not 0.0 <= target_share <= 1.0:
            raise ValueError(f"target_share must be in [0, 1], got {target_share}")
        self._target = float(target_share)
        self._window: deque[float] = deque(maxlen=int(window_size))
        self._min_window = int(min_window)
        self._every = int(recalibrate_every)
        self._threshold = float(initial_threshold)
        self._since = 0
        self._calibrated = False
        self._lock = threading.Lock()

    @property
    def target_share(self) -> float:
        """The wanted share of large-tier calls."""
        return self._target

    @property
    def calibrated(self) -> bool:
        """Whether the threshold comes from the traffic window (not the warm-up value)."""
        return self._calibrated

    def threshold(self) -> float:
        """The threshold the next score will be compared with."""
        with self._lock:
            return self._threshold

    def observe(self, score: float) -> None:
        """Add a score to the window (recalibrating when due) without deciding."""
        with self._lock:
            self._observe_locked(score)

    def observe_many(self, scores: Sequence[float]) -> None:
        """Add several scores, then recalibrate."""
        with self._lock:
            for score in scores:
                self._window.append(float(score))
            self._recalibrate_locked()

    def choose(self, score: float) -> tuple[bool, float, str]:
        """Decide with the current threshold, then record ``score`` in the window."""
        with self._lock:
            threshold = self._threshold
            if self._target >= 1.0:
                large = True
            elif self._target <= 0.0:
                large = False
            else:
                large = score >= threshold
            self._observe_locked(score)
            source = "window" if self._calibrated else "warm-up"
        op = ">=" if large else "<"
        return (
            large,
            threshold,
            f"score {score:.3f} {op} threshold {threshold:.3f} "
            f"(target large share {self._target:.0%}, {source})",
        )

    def _observe_locked(self, score: float) -> None:
        self._window.append(float(score))
        self._since += 1
        if self._since >= self._every:
            self._recalibrate_locked()

    def _recalibrate_locked(self) -> None:
        self._since = 0
        if len(self._window) < self._min_window:
            return
        scores = np.fromiter(self._window, dtype=np.float64, count=len(self._window))
        self._threshold = float(np.quantile(scores, 1.0 - self._target))
        self._calibrated = True


def build_policy(config: RouterConfig, reference_threshold: float | None = None) -> ThresholdPolicy:
    """The policy ``config`` asks for.

    Args:
        config: router configuration.
        reference_threshold: warm-up threshold for share mode (the ``1 - target`` quantile of a
            reference score distribution, e.g. the artifact's training scores); defaults to
            ``config.fixed_threshold``.
    """
    if config.threshold_mode == "fixed":
        return FixedThresholdPolicy(config.fixed_threshold)
    return ShareThresholdPolicy(
        target_share=config.target_large_share,
        window_size=config.window_size,
        min_window=config.min_window,
        recalibrate_every=config.recalibrate_every,
        initial_threshold=config.fixed_threshold if reference_threshold is None else reference_threshold,
    )

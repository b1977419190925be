"""Router configuration: one frozen dataclass, validated on construction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from router.errors import RouterConfigError

RouterKind = Literal["learned", "heuristic", "random"]
ThresholdMode = Literal["share", "fixed"]

ROUTER_KINDS: tuple[str, ...] = ("learned", "heuristic", "random")
THRESHOLD_MODES: tuple[str, ...] = ("share", "fixed")
DEFAULT_TIERS: tuple[str, ...] = ("small", "large")


@dataclass(frozen=True, slots=True)
class RouterConfig:
    """How requests are scored and turned into a tier.

    Attributes:
        kind: ``"learned"`` (classifier artifact), ``"heuristic"`` (hand-written score from cheap
            request statistics) or ``"random"`` (uniform score; a baseline and an A/B control).
        artifact_path: the learned router's joblib artifact; ``None`` uses the shipped default
            (``router/artifacts/default_router.joblib``). Ignored by the other kinds.
        threshold_mode: ``"share"`` keeps the fraction of large-tier calls near
            ``target_large_share``: the threshold is the ``1 - target_large_share`` quantile of the
            last ``window_size`` scores and is recalibrated as traffic drifts. ``"fixed"`` is a
            quality floor: a request goes to the large tier whenever its score (the predicted
            probability that the small tier fails where the large one succeeds) is at least
            ``fixed_threshold``.
        target_large_share: wanted share of large-tier calls in ``"share"`` mode, in [0, 1].
        fixed_threshold: threshold of ``"fixed"`` mode, in [0, 1]; also the warm-up threshold of
            ``"share"`` mode for routers that carry no reference score distribution.
        window_size: number of recent scores the share-mode quantile is computed over.
        min_window: scores needed in the window before its quantile replaces the warm-up threshold.
        recalibrate_every: recompute the share-mode quantile after this many new scores.
        small_tier: tier name for requests the small model can handle.
        large_tier: tier name for requests that need the large model.
        default_tier: tier returned when routing fails (feature extraction, embedding, model).
        tiers: the tier names the proxy knows how to map to models; every tier above must be one.
        seed: seed of the random router's generator.
    """

    kind: RouterKind = "learned"
    artifact_path: str | None = None
    threshold_mode: ThresholdMode = "share"
    target_large_share: float = 0.3
    fixed_threshold: float = 0.5
    window_size: int = 2000
    min_window: int = 100
    recalibrate_every: int = 10
    small_tier: str = "small"
    large_tier: str = "large"
    default_tier: str = "small"
    tiers: tuple[str, ...] = DEFAULT_TIERS
    seed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in ROUTER_KINDS:
            raise RouterConfigError(f"unknown router kind {self.kind!r}; expected one of {ROUTER_KINDS}")
        if self.threshold_mode not in THRESHOLD_MODES:
            raise RouterConfigError(
                f"unknown threshold mode {self.threshold_mode!r}; expected one of {THRESHOLD_MODES}"
            )
        if not 0.0 <= self.target_large_share <= 1.0:
            raise RouterConfigError(f"target_large_share must be in [0, 1], got {self.target_large_share}")
        if not 0.0 <= self.fixed_threshold <= 1.0:
            raise RouterConfigError(f"fixed_threshold must be in [0, 1], got {self.fixed_threshold}")
        if self.window_size < 1:
            raise RouterConfigError(f"window_size must be >= 1, got {self.window_size}")
        if not 1 <= self.min_window <= self.window_size:
            raise RouterConfigError(
                f"min_window must be in [1, window_size={self.window_size}], got {self.min_window}"
            )
        if self.recalibrate_every < 1:
            raise RouterConfigError(f"recalibrate_every must be >= 1, got {self.recalibrate_every}")
        if not self.tiers or len(set(self.tiers)) != len(self.tiers):
            raise RouterConfigError(f"tiers must be non-empty and unique, got {self.tiers!r}")
        for name in ("small_tier", "large_tier", "default_tier"):
            tier = getattr(self, name)
            if tier not in self.tiers:
                raise RouterConfigError(f"{name}={tier!r} is not a known tier; known tiers: {self.tiers}")
        if self.small_tier == self.large_tier:
            raise RouterConfigError(f"small_tier and large_tier must differ, both are {self.small_tier!r}")

"""Routers and their registry: ``build_router(config, embedder) -> Router``.

Three interchangeable kinds, chosen by :attr:`router.config.RouterConfig.kind`:

* ``random``: uniform score from a seeded generator (baseline / A-B control).
* ``heuristic``: :func:`router.heuristic.heuristic_score` of the cheap statistics.
* ``learned``: the classifier artifact on ``[embedding, statistics]``.

``decide`` never raises: any failure (malformed body, embedder error, model error) returns the
configured default tier with a reason starting ``"error: "``. Building a router can raise
(:class:`router.errors.RouterArtifactError` for a bad artifact) so that misconfiguration is
caught at start-up.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np

from caches.embedder import Embedder
from router.classifier import DifficultyClassifier, default_artifact_path, load_artifact
from router.config import RouterConfig
from router.errors import RouterConfigError
from router.features import RequestFeatures, extract_features
from router.heuristic import heuristic_score
from router.policy import RouteDecision, ThresholdPolicy, build_policy


@runtime_checkable
class Router(Protocol):
    """Scores requests and turns the score into a tier."""

    @property
    def kind(self) -> str:
        """``"learned"``, ``"heuristic"`` or ``"random"``."""
        ...

    @property
    def needs_embedding(self) -> bool:
        """Whether :meth:`score` uses the embedding of :attr:`RequestFeatures.text`."""
        ...

    def score(self, features: RequestFeatures, embedding: np.ndarray | None = None) -> float:
        """Probability-like score in [0, 1] that the large tier is needed (may raise)."""
        ...

    def decide(self, body: Mapping[str, Any], embedding: np.ndarray | None = None) -> RouteDecision:
        """Tier for an OpenAI chat body; never raises.

        ``embedding`` may be passed when the caller already embedded ``routing_text(body)`` with
        the same embedder (it is then not recomputed).
        """
        ...

    async def decide_async(
        self, body: Mapping[str, Any], embedding: np.ndarray | None = None
    ) -> RouteDecision:
        """:meth:`decide` in a worker thread (for the async proxy); never raises."""
        ...


class _BaseRouter:
    """Shared decision logic: features -> score -> policy -> :class:`RouteDecision`."""

    kind: str = "base"
    needs_embedding: bool = False

    def __init__(self, config: RouterConfig, policy: ThresholdPolicy) -> None:
        self.config = config
        self.policy = policy

    def score(self, features: RequestFeatures, embedding: np.ndarray | None = None) -> float:
        raise NotImplementedError

    def decide(self, body: Mapping[str, Any], embedding: np.ndarray | None = None) -> RouteDecision:
        """Tier for an OpenAI chat body; on any failure the configured default tier."""
        try:
            features = extract_features(body)
            score = float(self.score(features, embedding))
            if not np.isfinite(score):
                raise ValueError(f"non-finite score {score}")
            large, threshold, reason = self.policy.choose(score)
        except Exception as exc:  # noqa: BLE001 - routing must degrade, never fail a request
            return RouteDecision(
                tier=self.config.default_tier,
                score=float("nan"),
                threshold=float("nan"),
                router=self.kind,
                reason=f"error: {type(exc).__name__}: {exc}",
            )
        tier = self.config.large_tier if large else self.config.small_tier
        return RouteDecision(tier=tier, score=score, threshold=threshold, router=self.kind, reason=reason)

    async def decide_async(
        self, body: Mapping[str, Any], embedding: np.ndarray | None = None
    ) -> RouteDecision:
        """:meth:`decide` in a worker thread."""
        return await asyncio.to_thread(self.decide, body, embedding)


class RandomRouter(_BaseRouter):
    """Uniform random scores from a seeded generator."""

    kind = "random"

    def __init__(self, config: RouterConfig, policy: ThresholdPolicy) -> None:
        super().__init__(config, policy)
        self._rng = np.random.default_rng(config.seed)
        self._lock = threading.Lock()

    def score(self, features: RequestFeatures, embedding: np.ndarray | None = None) -> float:
        """A uniform draw in [0, 1) (the request is ignored)."""
        with self._lock:
            return float(self._rng.random())


class HeuristicRouter(_BaseRouter):
    """Hand-written score from the cheap statistics (:func:`router.heuristic.heuristic_score`)."""

    kind = "heuristic"

    def score(self, features: RequestFeatures, embedding: np.ndarray | None = None) -> float:
        """Heuristic difficulty score of the request."""
        return heuristic_score(features.stats)


class LearnedRouter(_BaseRouter):
    """The trained classifier on ``[embedding of the routing text, statistics]``."""

    kind = "learned"
    needs_embedding = True

    def __init__(
        self,
        config: RouterConfig,
        policy: ThresholdPolicy,
        classifier: DifficultyClassifier,
        embedder: Embedder,
    ) -> None:
        super().__init__(config, policy)
        self.classifier = classifier
        self.embedder = embedder

    def score(self, features: RequestFeatures, embedding: np.ndarray | None = None) -> float:
        """Calibrated P(large needed) for the request."""
        if embedding is None:
            embedding = self.embedder.embed([features.text])[0]
        return self.classifier.predict_one(embedding, features.stats.as_vector())


def build_router(
    config: RouterConfig,
    embedder: Embedder | None = None,
    *,
    classifier: DifficultyClassifier | None = None,
) -> Router:
    """The router ``config`` describes.

    Args:
        config: router configuration.
        embedder: needed by the ``learned`` kind (the same embedder the proxy shares with the
            semantic cache); ignored by the others.
        classifier: an in-memory classifier for the ``learned`` kind instead of loading
            ``config.artifact_path`` (used by evaluation and tests).

    Raises:
        RouterArtifactError: the learned router's artifact is missing, corrupt or incompatible.
        RouterConfigError: ``kind="learned"`` without an embedder.
    """
    if config.kind == "random":
        reference = None if config.threshold_mode == "fixed" else 1.0 - config.target_large_share
        return RandomRouter(config, build_policy(config, reference))
    if config.kind == "heuristic":
        return HeuristicRouter(config, build_policy(config))
    if embedder is None:
        raise RouterConfigError("the learned router needs an embedder")
    if classifier is None:
        classifier = load_artifact(config.artifact_path or default_artifact_path())
    reference = classifier.reference_threshold(config.target_large_share)
    return LearnedRouter(config, build_policy(config, reference), classifier, embedder)

"""Thrifty's difficulty router: predicts whether a request needs the large model.

Public API (a library: no HTTP, never calls upstreams)::

    from router import RouterConfig, build_router
    router = build_router(RouterConfig(kind="learned"), embedder)
    decision = router.decide(openai_chat_body)          # never raises
    decision.tier, decision.score, decision.threshold, decision.router, decision.reason

Training and evaluation commands: :func:`router.training.cli.main`, ``thrifty eval router`` (:mod:`benchmarks.router.evaluation`).
"""

from __future__ import annotations

from router.classifier import (
    ARTIFACT_FORMAT_VERSION,
    DifficultyClassifier,
    default_artifact_path,
    load_artifact,
    save_artifact,
)
from router.config import ROUTER_KINDS, THRESHOLD_MODES, RouterConfig
from router.errors import RouterArtifactError, RouterConfigError, RouterDataError, RouterError
from router.features import (
    STAT_NAMES,
    RequestFeatures,
    RequestStats,
    extract_features,
    request_stats,
    routing_text,
)
from router.policy import FixedThresholdPolicy, RouteDecision, ShareThresholdPolicy, build_policy
from router.registry import HeuristicRouter, LearnedRouter, RandomRouter, Router, build_router

__all__ = [
    "ARTIFACT_FORMAT_VERSION",
    "ROUTER_KINDS",
    "STAT_NAMES",
    "THRESHOLD_MODES",
    "DifficultyClassifier",
    "FixedThresholdPolicy",
    "HeuristicRouter",
    "LearnedRouter",
    "RandomRouter",
    "RequestFeatures",
    "RequestStats",
    "RouteDecision",
    "Router",
    "RouterArtifactError",
    "RouterConfig",
    "RouterConfigError",
    "RouterDataError",
    "RouterError",
    "ShareThresholdPolicy",
    "build_policy",
    "build_router",
    "default_artifact_path",
    "extract_features",
    "load_artifact",
    "request_stats",
    "routing_text",
    "save_artifact",
]

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from router.config import RouterConfig
from router.errors import RouterArtifactError, RouterConfigError
from router.features import prompt_body, routing_text
from router.registry import HeuristicRouter, LearnedRouter, RandomRouter, Router, build_router

HARD = prompt_body(
    "Prove that the polynomial x^5 + 3x + 1 has no rational roots and compute the integral of it from 0 to 2."
)
EASY = prompt_body("Which animal says moo?")


class FailingEmbedder:
    dim = 384

    def embed(self, texts):  # noqa: ANN001, ANN201
        raise RuntimeError("embedding service down")


@pytest.mark.parametrize(("kind", "cls"), [("random", RandomRouter), ("heuristic", HeuristicRouter)])
def test_kinds_without_artifact(kind: str, cls: type) -> None:
    router = build_router(RouterConfig(kind=kind))
    assert isinstance(router, cls) and isinstance(router, Router)
    assert router.kind == kind and router.needs_embedding is False
    decision = router.decide(HARD)
    assert decision.router == kind and decision.tier in ("small", "large")
    assert 0.0 <= decision.score <= 1.0 and not decision.failed


def test_random_is_seeded() -> None:
    a = build_router(RouterConfig(kind="random", seed=7))
    b = build_router(RouterConfig(kind="random", seed=7))
    assert [a.decide(EASY).score for _ in range(5)] == [b.decide(EASY).score for _ in range(5)]


def test_random_share_warm_up_threshold_matches_target() -> None:
    router = build_router(RouterConfig(kind="random", target_large_share=0.2))
    assert router.decide(EASY).threshold == pytest.approx(0.8)
    tiers = [router.decide(EASY).tier for _ in range(2000)]
    assert tiers.count("large") / len(tiers) == pytest.approx(0.2, abs=0.04)


def test_heuristic_orders_hard_above_easy() -> None:
    router = build_router(RouterConfig(kind="heuristic", threshold_mode="fixed", fixed_threshold=0.3))
    hard, easy = router.decide(HARD), router.decide(EASY)
    assert hard.score > easy.score
    assert hard.tier == "large" and easy.tier == "small"
    assert "fixed threshold" in hard.reason


def test_learned_with_in_memory_classifier(embedder, tiny_classifier) -> None:
    router = build_router(RouterConfig(kind="learned"), embedder, classifier=tiny_classifier)
    assert isinstance(router, LearnedRouter) and router.needs_embedding
    hard, easy = router.decide(HARD), router.decide(EASY)
    assert hard.score > easy.score
    assert hard.router == "learned" and not hard.failed
    # a precomputed embedding gives the same score
    vector = embedder.embed([routing_text(HARD)])[0]
    assert router.decide(HARD, vector).score == pytest.approx(hard.score, rel=1e-5)


def test_custom_tier_names(tiny_classifier, embedder) -> None:
    config = RouterConfig(
        kind="learned",
        tiers=("cheap", "premium"),
        small_tier="cheap",
        large_tier="premium",
        default_tier="premium",
        threshold_mode="fixed",
        fixed_threshold=0.0,
    )
    router = build_router(config, embedder, classifier=tiny_classifier)
    assert router.decide(EASY).tier == "premium"


def test_failures_return_default_tier(tiny_classifier) -> None:
    config = RouterConfig(kind="learned", default_tier="large")
    router = build_router(config, FailingEmbedder(), classifier=tiny_classifier)
    decision = router.decide(EASY)
    assert decision.tier == "large" and decision.failed
    assert decision.reason.startswith("error: RuntimeError: embedding service down")
    assert np.isnan(decision.score)
    bad_body = build_router(RouterConfig(kind="heuristic")).decide(None)  # type: ignore[arg-type]
    assert bad_body.failed and bad_body.tier == "small"
    wrong_dim = build_router(config, FailingEmbedder(), classifier=tiny_classifier).decide(EASY, np.zeros(10))
    assert wrong_dim.failed and "embedding dim" in wrong_dim.reason


def test_decide_async(tiny_classifier, embedder) -> None:
    router = build_router(RouterConfig(kind="learned"), embedder, classifier=tiny_classifier)
    decision = asyncio.run(router.decide_async(HARD))
    assert decision.router == "learned" and not decision.failed


def test_learned_needs_embedder_and_valid_artifact(tmp_path) -> None:
    with pytest.raises(RouterConfigError, match="embedder"):
        build_router(RouterConfig(kind="learned"))
    missing = str(tmp_path / "missing.joblib")
    with pytest.raises(RouterArtifactError, match="file not found"):
        build_router(RouterConfig(kind="learned", artifact_path=missing), FailingEmbedder())

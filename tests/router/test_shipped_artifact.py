from __future__ import annotations

import pytest

from router.classifier import default_artifact_path, load_artifact
from router.config import RouterConfig
from router.features import prompt_body
from router.registry import build_router


def test_shipped_artifact_is_small_and_loads() -> None:
    path = default_artifact_path()
    assert path.is_file()
    assert path.stat().st_size < 5 * 1024 * 1024
    classifier = load_artifact(path)
    assert classifier.spec.embedding_dim == 384
    assert "mmlu" in classifier.training["per_source"]


@pytest.fixture(scope="module")
def shipped(embedder):
    return build_router(RouterConfig(threshold_mode="fixed"), embedder)


def test_plausible_ordering(shipped) -> None:
    def score(text: str) -> float:
        decision = shipped.decide(prompt_body(text))
        assert not decision.failed, decision.reason
        return decision.score

    hi = score("hi")
    proof = score(
        "Let f(x) = x^3 - 3x + 1. Compute the integral of f from 0 to 2 and prove that f has three real roots."
    )
    primes = score("Prove that there are infinitely many primes p with p = 3 (mod 4). Give a rigorous proof.")
    assert proof > hi
    assert primes > hi
    assert score("Thanks!") < proof


def test_share_mode_uses_reference_threshold(embedder) -> None:
    router = build_router(RouterConfig(target_large_share=0.3), embedder)
    decision = router.decide(prompt_body("hi"))
    assert "warm-up" in decision.reason
    assert 0.0 < decision.threshold < 1.0

from __future__ import annotations

import threading

import numpy as np
import pytest

from router.config import RouterConfig
from router.policy import FixedThresholdPolicy, RouteDecision, ShareThresholdPolicy, build_policy


def test_fixed_threshold() -> None:
    policy = FixedThresholdPolicy(0.4)
    assert policy.choose(0.4)[0] is True
    assert policy.choose(0.39)[0] is False
    assert policy.threshold() == 0.4
    assert "fixed threshold" in policy.choose(0.9)[2]


def _share(target: float, window: int = 500, min_window: int = 50, every: int = 1, initial: float = 0.5):
    return ShareThresholdPolicy(target, window, min_window, every, initial)


def test_warm_up_threshold_until_window_fills() -> None:
    policy = _share(0.3, min_window=50, initial=0.77)
    for _ in range(49):
        large, threshold, reason = policy.choose(0.1)
        assert threshold == 0.77 and not large and "warm-up" in reason
    policy.choose(0.1)
    assert policy.calibrated


@pytest.mark.parametrize("target", [0.1, 0.3, 0.5, 0.8])
def test_share_converges_to_target(target: float) -> None:
    rng = np.random.default_rng(0)
    policy = _share(target)
    decisions = [policy.choose(float(s))[0] for s in rng.beta(2, 5, size=4000)]
    share = float(np.mean(decisions[1000:]))
    assert share == pytest.approx(target, abs=0.04)
    assert policy.threshold() == pytest.approx(np.quantile(rng.beta(2, 5, 200_000), 1 - target), abs=0.05)


def test_threshold_recalibrates_after_drift() -> None:
    rng = np.random.default_rng(1)
    policy = _share(0.2, window=400, every=10)
    for s in rng.uniform(0.0, 0.5, 1000):
        policy.choose(float(s))
    before = policy.threshold()
    assert before == pytest.approx(0.4, abs=0.03)
    # traffic drifts to harder requests: the threshold follows and the share comes back
    decisions = [policy.choose(float(s))[0] for s in rng.uniform(0.5, 1.0, 1500)]
    assert policy.threshold() == pytest.approx(0.9, abs=0.03)
    assert np.mean(decisions[:50]) > 0.9  # right after the drift, almost everything looked hard
    assert np.mean(decisions[-500:]) == pytest.approx(0.2, abs=0.05)


def test_extreme_targets() -> None:
    always = _share(1.0)
    never = _share(0.0)
    assert all(always.choose(s)[0] for s in (0.0, 0.5, 1.0))
    assert not any(never.choose(s)[0] for s in (0.0, 0.5, 1.0))


def test_observe_many_and_thread_safety() -> None:
    policy = _share(0.5, window=1000, every=5)
    policy.observe_many(list(np.linspace(0, 1, 101)))
    assert policy.threshold() == pytest.approx(0.5)

    errors: list[BaseException] = []

    def worker(seed: int) -> None:
        try:
            for s in np.random.default_rng(seed).uniform(0, 1, 2000):
                policy.choose(float(s))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    # whatever the interleaving, the window holds uniform scores: the median is near 0.5
    assert 0.4 < policy.threshold() < 0.6


def test_build_policy_modes() -> None:
    assert isinstance(
        build_policy(RouterConfig(threshold_mode="fixed", fixed_threshold=0.3)), FixedThresholdPolicy
    )
    share = build_policy(RouterConfig(target_large_share=0.25), reference_threshold=0.61)
    assert isinstance(share, ShareThresholdPolicy)
    assert share.threshold() == 0.61 and share.target_share == 0.25
    assert build_policy(RouterConfig(fixed_threshold=0.33)).threshold() == 0.33


def test_decision_failed_flag() -> None:
    ok = RouteDecision("small", 0.1, 0.5, "heuristic", "score 0.1 < 0.5")
    bad = RouteDecision("small", float("nan"), float("nan"), "learned", "error: boom")
    assert not ok.failed and bad.failed

from __future__ import annotations

import pytest

from router.config import RouterConfig
from router.errors import RouterConfigError


def test_defaults_are_valid() -> None:
    config = RouterConfig()
    assert config.kind == "learned" and config.threshold_mode == "share"
    assert config.default_tier in config.tiers


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "magic"}, "unknown router kind"),
        ({"threshold_mode": "median"}, "unknown threshold mode"),
        ({"target_large_share": 1.5}, "target_large_share"),
        ({"fixed_threshold": -0.1}, "fixed_threshold"),
        ({"default_tier": "medium"}, "default_tier='medium' is not a known tier"),
        ({"large_tier": "huge"}, "large_tier='huge'"),
        ({"small_tier": "large"}, "must differ"),
        ({"window_size": 10, "min_window": 20}, "min_window"),
        ({"tiers": ()}, "tiers"),
        ({"recalibrate_every": 0}, "recalibrate_every"),
    ],
)
def test_invalid_values_raise_clear_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(RouterConfigError, match=message):
        RouterConfig(**kwargs)


def test_custom_tiers() -> None:
    config = RouterConfig(
        tiers=("cheap", "premium"), small_tier="cheap", large_tier="premium", default_tier="cheap"
    )
    assert config.large_tier == "premium"


def test_frozen() -> None:
    with pytest.raises(AttributeError):
        RouterConfig().kind = "random"  # type: ignore[misc]

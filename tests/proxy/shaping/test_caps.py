"""Output caps: defaults, the hard maximum (clamp or 400), per tier/model/key resolution."""

from __future__ import annotations

import pytest

from proxy.config.shaping import ShapingOverride, ShapingPolicy, ShapingSettings, resolve
from proxy.shaping.caps import CapOutcome, apply_cap, finish_reason_of, fit_added_limit
from proxy.wire.errors import InvalidRequest


def policy(default: int = 512, limit: int = 0, over: str = "clamp") -> ShapingPolicy:
    return ShapingPolicy(mode="safe", default_max_tokens=default, max_tokens_limit=limit, over_limit=over)


def test_a_request_without_a_limit_gets_the_default() -> None:
    data: dict = {"messages": []}
    outcome = apply_cap(data, policy(default=300))
    assert data["max_tokens"] == 300 and outcome.kind == "default"
    assert outcome.header == "default; max_tokens=300"


def test_the_default_never_exceeds_the_hard_maximum() -> None:
    data: dict = {}
    assert apply_cap(data, policy(default=512, limit=100)).max_tokens == 100 and data["max_tokens"] == 100


def test_no_default_and_no_maximum_leaves_the_request_alone() -> None:
    data: dict = {"max_tokens": None}
    outcome = apply_cap(data, policy(default=0))
    assert outcome.kind is None and outcome.header is None and data == {"max_tokens": None}


@pytest.mark.parametrize("field", ["max_tokens", "max_completion_tokens"])
def test_over_the_maximum_is_clamped_and_said(field: str) -> None:
    data = {field: 5000}
    outcome = apply_cap(data, policy(limit=1000))
    assert data[field] == 1000 and outcome.kind == "clamped"
    assert outcome.header == "clamped; max_tokens=1000; requested=5000"


def test_under_the_maximum_the_callers_limit_stands() -> None:
    data = {"max_tokens": 40}
    outcome = apply_cap(data, policy(limit=1000))
    assert data == {"max_tokens": 40} and outcome.kind is None and outcome.max_tokens == 40


def test_over_the_maximum_is_a_clear_400_by_policy() -> None:
    with pytest.raises(InvalidRequest) as caught:
        apply_cap({"max_completion_tokens": 5000}, policy(limit=1000, over="reject"))
    assert caught.value.status == 400 and caught.value.param == "max_completion_tokens"
    assert "at most 1000" in caught.value.message


def test_key_beats_model_beats_tier_beats_the_section() -> None:
    settings = ShapingSettings(
        default_max_tokens=512, max_tokens_limit=0,
        tiers=(ShapingOverride("small", default_max_tokens=128, mode="aggressive"),),
        models=(ShapingOverride("gpt-x", default_max_tokens=256, max_tokens_limit=2000),),
        keys=(ShapingOverride("alice", tenant="key-" + "a" * 24, default_max_tokens=64, over_limit="reject"),))
    plain = resolve(settings, tenant="anonymous", model="other", tier=None)
    assert (plain.default_max_tokens, plain.max_tokens_limit, plain.mode) == (512, 0, "safe")
    small = resolve(settings, tenant="anonymous", model="other", tier="small")
    assert (small.default_max_tokens, small.mode) == (128, "aggressive")
    model = resolve(settings, tenant="anonymous", model="gpt-x", tier="small")
    assert (model.default_max_tokens, model.max_tokens_limit, model.mode) == (256, 2000, "aggressive")
    alice = resolve(settings, tenant="key-" + "a" * 24, model="gpt-x", tier="small")
    assert (alice.default_max_tokens, alice.max_tokens_limit, alice.over_limit) == (64, 2000, "reject")


def test_finish_reason_counts_any_cut_choice_as_length() -> None:
    assert finish_reason_of({"choices": [{"finish_reason": "stop"}, {"finish_reason": "length"}]}) == "length"
    assert finish_reason_of({"choices": [{"finish_reason": "tool_calls"}]}) == "tool_calls"
    assert finish_reason_of({"choices": "nope"}) is None and finish_reason_of({}) is None


def test_both_limit_fields_are_clamped_whichever_one_the_upstream_reads() -> None:
    data = {"max_tokens": 500, "max_completion_tokens": 50}
    outcome = apply_cap(data, policy(limit=100))
    assert data == {"max_tokens": 100, "max_completion_tokens": 50}  # 500 is never forwarded
    assert outcome.kind == "clamped" and outcome.header == "clamped; max_tokens=50; requested=500"
    both = {"max_tokens": 700, "max_completion_tokens": 300}
    assert apply_cap(both, policy(limit=100)).header == "clamped; max_tokens=100; requested=700"
    assert both == {"max_tokens": 100, "max_completion_tokens": 100}


def test_either_limit_field_over_the_maximum_is_rejected_by_policy() -> None:
    with pytest.raises(InvalidRequest) as caught:
        apply_cap({"max_tokens": 500, "max_completion_tokens": 50}, policy(limit=100, over="reject"))
    assert caught.value.param == "max_tokens" and "'max_tokens' is 500" in caught.value.message


@pytest.mark.parametrize(("kind", "prompt", "window", "expected"), [
    ("default", 1900, 2048, 148),  # lowered to the room left
    ("learned", 1900, 2048, 148),
    ("default", 100, 2048, 512),  # room enough: unchanged
    ("default", 2048, 2048, 512),  # the prompt alone fills the context: the upstream says so
    ("default", None, 2048, 512),  # not counted
    ("clamped", 1900, 2048, 512),  # a caller's own (clamped) limit is never fitted
    (None, 1900, 2048, 512),
])
def test_an_added_limit_is_fitted_to_the_context(kind, prompt, window, expected) -> None:
    data = {"max_tokens": 512}
    outcome = fit_added_limit(data, CapOutcome(kind, 512), prompt, window)
    assert outcome.max_tokens == expected and data["max_tokens"] == expected
    assert (outcome.header or "").endswith("fitted-to-context") == (expected != 512)


@pytest.mark.parametrize("model", ["o1", "o3-mini", "o4-mini-2025-04-16", "gpt-5", "gpt-5-mini", "openai/gpt-5.1",
                                   "O3"])
def test_a_reasoning_model_gets_no_default_and_only_max_completion_tokens(model: str) -> None:
    data: dict = {"model": model, "max_tokens": None}
    outcome = apply_cap(data, policy(default=512))
    assert outcome.kind is None and data == {"model": model, "max_tokens": None}  # no chat-sized default
    data = {"model": model}
    outcome = apply_cap(data, policy(default=512, limit=4000))
    assert data == {"model": model, "max_completion_tokens": 4000} and outcome.max_tokens == 4000


@pytest.mark.parametrize("model", ["gpt-4o", "gpt-4.1-mini", "smollm2-135m-instruct", "llama-3-o1-finetune", "omni"])
def test_other_models_get_the_default_as_max_tokens(model: str) -> None:
    data: dict = {"model": model}
    assert apply_cap(data, policy(default=300)).kind == "default" and data["max_tokens"] == 300


"""Cache policy: determinism, opt-outs, cacheable responses."""

from __future__ import annotations

import json
import logging

import pytest

from caches.config import PolicyConfig
from caches.policy import decide, is_cacheable_response, parse_cache_control
from tests.caches.helpers import chat_body, completion


def test_deterministic_requests_are_semantic_eligible() -> None:
    d = decide(chat_body("What is 2+2?"))
    assert (d.lookup, d.store, d.semantic) == (True, True, True)
    seeded = chat_body("What is 2+2?", temperature=0.7, seed=7)
    assert decide(seeded).semantic


@pytest.mark.parametrize("params", [{"temperature": 0.7}, {"temperature": None}, {"temperature": 1, "n": 2}])
def test_sampled_requests_skip_the_caches_unless_the_policy_replays_them(params: dict[str, object]) -> None:
    body = chat_body("What is 2+2?") | params
    if params.get("temperature", 0) is None:
        body.pop("temperature")  # absent: OpenAI's default temperature is 1
    d = decide(body)
    assert not d.lookup and not d.store and not d.semantic
    assert "sampled" in d.reason
    replayed = decide(body, config=PolicyConfig(replay_sampled=True))
    assert replayed.lookup and replayed.store and not replayed.semantic
    assert "not deterministic" in replayed.reason
    assert decide(body | {"seed": 3}).lookup  # a seeded sample is reproducible: cached as usual


@pytest.mark.parametrize(
    ("params", "why"),
    [
        ({"n": 3}, "n != 1"),
        ({"tools": [{"type": "function", "function": {"name": "f"}}]}, "tools"),
        ({"logprobs": True}, "logprobs"),
    ],
)
def test_non_deterministic_requests_get_exact_cache_only(params: dict[str, object], why: str) -> None:
    body = chat_body("What is 2+2?") | params
    if params.get("temperature", 0) is None:
        body.pop("temperature")
    d = decide(body)
    assert d.lookup and d.store and not d.semantic
    assert why in d.reason


def test_non_text_last_message_is_not_semantic() -> None:
    body = {
        "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "u"}}]}],
        "temperature": 0,
    }
    assert not decide(body).semantic
    assert decide(body).lookup


@pytest.mark.parametrize(
    ("header", "lookup", "store"),
    [
        ("no-cache", False, True),
        ("No-Cache, private", False, True),
        ("max-age=0", False, True),
        ("no-store", False, False),
        ("no-cache, no-store", False, False),
        ("max-age=60", True, True),
        ("", True, True),
        (None, True, True),
    ],
)
def test_cache_control_header(header: str | None, lookup: bool, store: bool) -> None:
    d = decide(chat_body("q"), cache_control=header)
    assert (d.lookup, d.store) == (lookup, store)


@pytest.mark.parametrize(
    ("ext", "lookup", "store", "semantic"),
    [
        ({"cache": False}, False, False, False),
        ({"cache": "off"}, False, False, False),
        ({"cache": True}, True, True, True),
        ({"cache": "no-cache"}, False, True, True),
        ({"cache": "no-store"}, False, False, False),
        ({"cache": "exact"}, True, True, False),
        ({"cache": {"semantic": False}}, True, True, False),
        ({"cache": {"lookup": False}}, False, True, True),
        ({}, True, True, True),
    ],
)
def test_thrifty_extension_field(ext: dict[str, object], lookup: bool, store: bool, semantic: bool) -> None:
    d = decide(chat_body("q", thrifty=ext))
    assert (d.lookup, d.store, d.semantic) == (lookup, store, semantic)


@pytest.mark.parametrize(
    "ext", [{"cache": "maybe"}, {"cache": {"lookup": "yes"}}, "cache=false", {"cache": {"x": True}}]
)
def test_malformed_extension_disables_caching_with_a_log_line(
    ext: object, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="caches.policy"):
        d = decide(chat_body("q", thrifty=ext))
    assert (d.lookup, d.store, d.semantic) == (False, False, False)
    assert caplog.records


def test_header_and_extension_combine_most_restrictive() -> None:
    d = decide(chat_body("q", thrifty={"cache": "exact"}), cache_control="no-cache")
    assert (d.lookup, d.store, d.semantic) == (False, True, False)


def test_policy_config_switches() -> None:
    body = chat_body("q", temperature=1.0)
    assert decide(body, config=PolicyConfig(semantic_requires_determinism=False)).semantic
    assert not decide(chat_body("q"), config=PolicyConfig(semantic=False)).semantic


def test_parse_cache_control() -> None:
    assert parse_cache_control(' no-cache , MAX-AGE="0", foo=bar') == frozenset({"no-cache", "foo"})


def test_cacheable_responses() -> None:
    assert is_cacheable_response(json.loads(completion("hi")))
    assert not is_cacheable_response({"error": {"message": "boom"}})
    assert not is_cacheable_response({"choices": []})
    assert not is_cacheable_response([1, 2])
    filtered = json.loads(completion("x"))
    filtered["choices"][0]["finish_reason"] = "content_filter"
    assert not is_cacheable_response(filtered)
    tool = json.loads(completion(""))
    tool["choices"][0]["message"]["tool_calls"] = [{"id": "1", "type": "function"}]
    assert is_cacheable_response(tool) and not is_cacheable_response(tool, semantic=True)

"""Lexical verification of semantic-cache candidates."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from caches.verify import extract_features, verify

HARD = json.loads(resources.files("caches").joinpath("hard_negatives.json").read_text("utf-8"))


@pytest.mark.parametrize("pair", HARD["text_pairs"], ids=lambda p: f"{p['category']}:{p['query'][:30]}")
def test_every_hard_negative_is_rejected(pair: dict[str, str]) -> None:
    result = verify(pair["query"], pair["stored"])
    assert not result.ok
    assert verify(pair["stored"], pair["query"]).ok is False  # symmetric


@pytest.mark.parametrize("pair", HARD["positives"], ids=lambda p: p["query"][:30])
def test_paraphrases_are_accepted(pair: dict[str, str]) -> None:
    assert verify(pair["query"], pair["stored"]).ok


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        ("Is 5 a prime?", "Is 7 a prime?", "numbers"),
        ("Walk 3 km", "Walk 3 miles", "units"),
        ("Is it raining?", "Isn't it raining?", "negation"),
        ("Weather in Paris today", "Weather in Rome today", "entities"),
        ("Sort ascending", "Sort descending", "direction"),
        ("Flights from Oslo to Rome", "Flights from Rome to Oslo", "order"),
        ("Did the cat scratch the dog?", "Did the dog scratch the cat?", "order"),
    ],
)
def test_rejection_reasons(a: str, b: str, reason: str) -> None:
    assert verify(a, b).reason == reason


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("What is 1,000 times 3?", "What is 1000 times 3?"),
        ("Is 5k enough?", "Is 5000 enough?"),
        ("What's 15% of 80?", "What is 15 percent of 80?"),
        ("No, it doesn't work.", "It does not work."),
        ("What does `timm` do?", "What does Timm do?"),
        ("Who is older, Alice or Bob?", "Who is older, Bob or Alice?"),
        ("How do I set up Docker?", "How do I install Docker?"),
        ("WHAT IS THE CAPITAL OF FRANCE", "what is the capital of france"),
    ],
)
def test_equivalent_surface_forms_pass(a: str, b: str) -> None:
    assert verify(a, b).ok, verify(a, b)


def test_direction_words_are_strict_in_short_texts_but_only_conflicts_reject_in_long_ones() -> None:
    assert verify("What is the maximum batch size?", "What is the batch size?").reason == "direction"
    long_a = (
        "Gradio enables developers to create machine learning demos and web applications with a few lines "
        "of Python code and share them with colleagues."
    )
    long_b = "Gradio is a tool to build machine learning demos and other web apps in just a few lines of Python and share them."
    assert verify(long_a, long_b).ok
    assert verify(long_a, long_b.replace("build", "disable")).reason == "direction"


def test_features_are_normalised() -> None:
    f = extract_features("Convert 2,500 USD to EUR in version v2.10.0 (1) not today")
    assert {"2500", "2.10.0"} <= f.numbers
    assert {"usd", "eur"} <= f.units and {"usd", "eur"} <= f.entities
    assert f.negated
    assert ("usd", "eur") in f.ordered_pairs

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


# --- generalised checks: polarity lexicon, affixes, quantifiers, calendar, roles, code -----------------
# These examples are written for the tests; caches/hard_negatives_heldout.json is kept out of them
# (and out of the rules): `thrifty eval cache` reports it separately.


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        ("Is red wine good for sleep?", "Is red wine bad for sleep?", "direction"),
        ("Why did the merger succeed?", "Why did the merger fail?", "direction"),
        ("Which is the cheapest airline in Europe?", "Which is the most expensive airline in Europe?", "direction"),
        ("Is jogging at night safe?", "Is jogging at night dangerous?", "direction"),
        ("Is this contract enforceable?", "Is this contract unenforceable?", "polarity"),
        ("Why are some people patient?", "Why are some people impatient?", "polarity"),
        ("Is the sensor reading reliable?", "Is the sensor reading unreliable?", "polarity"),
        ("What makes a tool useful?", "What makes a tool useless?", "polarity"),
        ("Do all birds migrate in winter?", "Do some birds migrate in winter?", "direction"),
        ("Why does everyone trust banks?", "Why does nobody trust banks?", "negation"),
        ("Where can I eat brunch on saturday?", "Where can I eat brunch on friday?", "calendar"),
        ("What should I pack for a trip in summer?", "What should I pack for a trip in winter?", "calendar"),
        ("What time does the pharmacy open tomorrow?", "What time does the pharmacy open today?", "calendar"),
        ("What does a lender check before a loan?", "What does a borrower check before a loan?", "direction"),
        ("What are a guest's duties at a wedding?", "What are a host's duties at a wedding?", "direction"),
        ("Why is `a && b` false here?", "Why is `a || b` false here?", "code"),
        ("What does print(len(xs) - 1) print?", "What does print(len(xs) + 1) print?", "code"),
        ("Fix this: for i in range(n): total = total * i", "Fix this: for i in range(n): total = total + i", "code"),
    ],
)
def test_generalised_rejections(a: str, b: str, reason: str) -> None:
    assert verify(a, b).reason == reason
    assert verify(b, a).reason == reason  # symmetric


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Is red wine good for sleep?", "Is red wine good for your sleep?"),
        ("Why does `a && b` fail?", "Why does  `a && b`  fail ?"),  # code equal outside whitespace
        ("Where can I eat brunch on saturday?", "Where can I get brunch on saturday?"),
        ("What is the capital of Australia?", "Which city is the capital of Australia?"),
        ("How do I bake bread at home?", "How can I bake bread at home?"),
    ],
)
def test_generalised_checks_keep_paraphrases(a: str, b: str) -> None:
    assert verify(a, b).ok, verify(a, b)

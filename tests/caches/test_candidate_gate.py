"""The candidate gate: never prunes a pair that verification accepts, and keeps its counts in step."""

from __future__ import annotations

import json
import random
from importlib import resources

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caches.candidate_gate import CandidateGate, gate_keys
from caches.lexicon import default_lexicon
from caches.text_features import extract_features
from caches.verify import verify

FAST = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _gate() -> CandidateGate:
    lexicon = default_lexicon()
    assert lexicon is not None  # WordNet ships with the test extras: the synonym keys are under test
    return CandidateGate(lexicon.synonym_keys)


def _keys(text: str):
    return gate_keys(extract_features(text))


def _assert_sound(query: str, stored: str) -> bool:
    """When verification accepts ``stored`` for ``query``, the gate holding only ``stored`` lets
    ``query`` through and offers ``stored`` as a pending match. Returns verification's verdict."""
    accepted = verify(query, stored).ok
    gate = _gate()
    gate.add("s", 1, _keys(stored), pending_text=stored)
    if accepted:
        assert gate.may_match("s", _keys(query)), (query, stored)
        assert gate.pending_matches("s", _keys(query), 4) == [(1, stored)], (query, stored)
    return accepted


# --- soundness: a necessary condition of verification, on generated pairs ------------------------

_TOPICS = st.sampled_from(
    "river mountain library engine budget ticket garden window doctor market winter sugar planet cable "
    "village harbour museum lesson printer forest car automobile city town purchase buy".split()
)
_ADJECTIVES = st.sampled_from("largest biggest tallest highest oldest fast quick big large small little".split())
_FRAMES = st.sampled_from([
    "What is the {adj} {topic}?", "Which {topic} is the {adj}?", "Can you explain the {adj} {topic}?",
    "Tell me about the {adj} {topic} in {place}.", "What year was the {topic} in {place} built?",
    "When was the {topic} in {place} built?", "Is the {topic} not {adj}?", "Why is the {topic} {adj}?",
    "How do I fix the {topic} near {place}?", "Where is the {adj} {topic}?", "Who built the {topic}?",
    "Compare the {topic} and the {adj} {topic} in {place}.", "The {topic} in {place}: what is it?",
    "what   is THE {adj} {topic}?", "In {n} words, describe the {topic}.", "Explain `{code}` for the {topic}.",
])
_PLACES = st.sampled_from(["Paris", "Lyon", "Oslo", "the Nile river", "the Nile", "Kenya", "Peru"])


@st.composite
def _text(draw) -> str:
    return draw(_FRAMES).format(
        adj=draw(_ADJECTIVES), topic=draw(_TOPICS), place=draw(_PLACES), n=draw(st.integers(1, 5)),
        code=draw(st.sampled_from(["x += 1", "x -= 1", "len(items)", "a[i] * 2"])),
    )


@FAST
@given(_text(), _text())
def test_the_gate_never_prunes_a_pair_verification_accepts(query: str, stored: str) -> None:
    _assert_sound(query, stored)


@FAST
@given(_text(), st.randoms(use_true_random=False))
def test_edits_that_verification_accepts_pass_the_gate(text: str, rng: random.Random) -> None:
    # edits of one text: case, spacing, a dropped or moved word, a request frame
    words = text.split()
    variants = [text.upper(), "  ".join(words), f"Please, {text}", f"I'd like to know: {text}"]
    if len(words) > 3:
        k = rng.randrange(len(words))
        variants.append(" ".join(words[:k] + words[k + 1:]))
        moved = words[:]
        moved.insert(rng.randrange(len(words)), moved.pop(k))
        variants.append(" ".join(moved))
    for variant in variants:
        _assert_sound(variant, text)
        _assert_sound(text, variant)


def test_every_accepted_pair_of_the_development_set_passes_the_gate() -> None:
    data = json.loads(resources.files("benchmarks.caches").joinpath("data", "dev_hard_negatives.json").read_text())
    pairs = [(p["query"], p["stored"]) for p in data["text_pairs"] + data["positives"]]
    accepted = sum(_assert_sound(q, s) + _assert_sound(s, q) for q, s in pairs)
    assert accepted >= len(data["positives"])  # the positives are accepted pairs: the check is not vacuous


# --- pruning -----------------------------------------------------------------------------------------

def test_a_different_number_or_negation_is_pruned_and_a_rewording_is_not() -> None:
    gate = _gate()
    gate.add("s", 1, _keys("What is 17 * 23 in Python?"))
    gate.add("s", 2, _keys("How do I reverse a list in `numpy`?"))
    gate.add("s", 3, _keys("Is Rust a compiled language?"))
    assert not gate.may_match("s", _keys("What is 17 * 24 in Python?"))
    # another code span passes the gate (code in backticks may be the same code typed plainly), and verification refuses it
    assert gate.may_match("s", _keys("How do I reverse a list in `pandas`?"))
    assert not verify("How do I reverse a list in `pandas`?", "How do I reverse a list in `numpy`?").ok
    assert gate.may_match("s", _keys("How do I reverse a list in numpy?"))
    assert not gate.may_match("s", _keys("Is Rust not a compiled language?"))
    assert not gate.may_match("s", _keys("Who painted the ceiling of the chapel?"))  # no shared word
    assert not gate.may_match("other scope", _keys("What is 17 * 23 in Python?"))
    assert gate.may_match("s", _keys("what is 17*23 in python"))
    assert gate.may_match("s", _keys("Is Rust a language that is compiled?"))


def test_removal_by_id_scope_and_clear_leaves_nothing_behind() -> None:
    gate = _gate()
    texts = ["What is the tallest mountain?", "Which river is the longest?", "What is 2 + 2?"]
    for i, text in enumerate(texts):
        gate.add("a", i, _keys(text), pending_text=text if i else None)
    gate.add("b", 10, _keys(texts[0]), pending_text=texts[0])
    gate.add("a", 0, _keys(texts[1]))  # the same id again replaces its keys
    assert len(gate) == 4 and gate.pending_count() == 3 and gate.pending_count("a") == 2
    assert not gate.may_match("a", _keys("Which mountain peak is in the Alps?"))  # id 0: new keys
    gate.embedded([1])
    assert gate.pending_count("a") == 1
    assert gate.remove([0, 1, 99]) == 2 and gate.pending_matches("a", _keys("Which river is the longest?"), 4) == []
    assert gate.remove_scope("b") == 1 and not gate.may_match("b", _keys(texts[0]))
    gate.clear()
    assert len(gate) == 0 and gate.pending_count() == 0 and not gate.may_match("a", _keys(texts[2]))
    # counts return to nothing: adding and removing many entries leaves no key behind
    for i in range(50):
        gate.add("a", i, _keys(f"What is the {i}th tallest mountain in the range?"), pending_text="x")
    gate.remove(range(50))
    # the bookkeeping itself is under test: no count, key or posting is left behind
    assert not (gate._identities or gate._structures or gate._words or gate._key_words  # noqa: SLF001
                or gate._holders or gate._pending or gate._postings)  # noqa: SLF001


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 7), st.one_of(st.none(), _text())), min_size=1, max_size=30),
       st.lists(_text(), min_size=1, max_size=5))
def test_after_adds_replacements_and_removals_the_gate_answers_as_one_built_fresh(steps, queries) -> None:
    """Entries added, replaced under their id and removed in any order: the gate answers every query as a gate
    holding only the entries left does (a word's synonym keys are listed while some entry holds it)."""
    gate, held = _gate(), {}
    for entry_id, text in steps:
        if text is None:
            gate.remove([entry_id])
            held.pop(entry_id, None)
        else:
            gate.add("s", entry_id, _keys(text), pending_text=text)
            held[entry_id] = text
    fresh = _gate()
    for entry_id, text in held.items():
        fresh.add("s", entry_id, _keys(text), pending_text=text)
    for query in queries:
        assert gate.may_match("s", _keys(query)) == fresh.may_match("s", _keys(query))
        assert sorted(gate.pending_matches("s", _keys(query), 8)) == sorted(fresh.pending_matches("s", _keys(query), 8))
    assert gate._key_words == fresh._key_words  # noqa: SLF001


def test_pending_matches_rank_by_shared_words_and_respect_the_limit() -> None:
    gate = _gate()
    stored = ["Which planet has the most moons?", "How many moons does the planet Jupiter have?",
              "What is the hottest planet?", "How big is the planet Jupiter?"]
    for i, text in enumerate(stored):
        gate.add("s", i, _keys(text), pending_text=text)
    found = gate.pending_matches("s", _keys("How many moons does distant Jupiter have?"), 2)
    assert [entry_id for entry_id, _ in found] == [1, 3]  # most shared words first, then the newest
    assert len(gate.pending_matches("s", _keys("Tell me about planets."), 10)) == 4
    assert gate.pending_matches("s", _keys("How many moons does Jupiter have?"), 0) == []


def test_an_incomplete_gate_proves_nothing_until_marked_complete() -> None:
    lexicon = default_lexicon()
    assert lexicon is not None
    gate = CandidateGate(lexicon.synonym_keys, complete=False)  # a start-up still registering stored rows
    gate.add("s", 1, _keys("What is 17 * 23 in Python?"))
    assert gate.may_match("s", _keys("Who wrote Hamlet?")) and gate.may_match("t", _keys("What is 1 + 1?"))
    gate.mark_complete()
    assert gate.complete and not gate.may_match("s", _keys("Who wrote Hamlet?"))


def test_an_old_pending_entry_is_found_behind_many_newer_ones() -> None:
    gate = _gate()
    target = "How do I bake sourdough bread at home?"
    gate.add("s", 0, _keys(target), pending_text=target)
    for i in range(1, 700):  # newer entries of the same structure, sharing a common word with the query
        gate.add("s", i, _keys(f"How do I clean the {['oven', 'stove', 'sink', 'floor'][i % 4]} at home?"),
                 pending_text="x")
    found = gate.pending_matches("s", _keys("How can I bake sourdough bread at home?"), 8)
    assert found[0] == (0, target)


def test_every_accepted_paraphrase_of_the_generated_sets_passes_the_gate() -> None:
    # the sets' paraphrases reorder sentences, move numbers with their units and put code in backticks or not: each
    # rule that accepts such a pair must find it past the gate, or the cache never sees it (as happened to three of
    # them until the gate keyed on numbers alone)
    from benchmarks.caches.shipped_sets import GENERATED_SETS, UNOPENED_SETS

    accepted = 0
    for name in GENERATED_SETS:
        if name in UNOPENED_SETS:
            continue
        data = json.loads(resources.files("benchmarks.caches").joinpath("data", name).read_text())
        accepted += sum(_assert_sound(p["query"], p["stored"]) for p in data["positives"])
    assert accepted > 1500

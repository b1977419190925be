"""Phrasal verbs read as one word, with the real WordNet reader: pairs with their synonyms, never with their opposites."""

from __future__ import annotations

import pytest

from caches.lexicon import default_lexicon
from caches.phrasal import match_phrasal
from caches.verify import verify


@pytest.fixture(scope="module")
def lex():
    lexicon = default_lexicon()
    assert lexicon is not None, "the WordNet files ship with the package"
    return lexicon


@pytest.mark.parametrize(("a", "b"), [("switch off", "turn off"), ("switch on", "turn on"), ("find out", "discover"),
                                      ("put off", "postpone"), ("figure out", "solve")])
@pytest.mark.parametrize("frame", ["How do I {} the {}?", "Should I {} the {} until Friday?"])
@pytest.mark.parametrize("thing", ["alarm", "meeting", "heater"])
def test_a_phrasal_verb_hits_its_synonym(a, b, frame, thing) -> None:
    assert verify(frame.format(a, thing), frame.format(b, thing)).ok
    assert verify(frame.format(b, thing), frame.format(a, thing)).ok


@pytest.mark.parametrize(("a", "b"), [("turn on", "turn off"), ("set up", "set off"), ("back up", "back out"),
                                      ("switch on", "switch off"), ("put off", "put on"), ("pick up", "pick out")])
def test_another_particle_or_none_is_a_miss(a, b) -> None:
    for thing in ("heater", "printer", "photos"):
        assert not verify(f"How do I {a} the {thing}?", f"How do I {b} the {thing}?").ok


def test_the_matcher_pairs_only_words_that_head_a_phrasal_verb(lex) -> None:
    assert match_phrasal(["how", "do", "i", "switch", "off", "it"], ["how", "do", "i", "turn", "off", "it"],
                         ["switch"], ["turn"], lex) == {"turn": "switch"}
    # *turn* alone, with no particle after it in either text, is no phrasal verb: the word-by-word check decides
    assert match_phrasal(["switch", "it"], ["turn", "it"], ["switch"], ["turn"], lex) == {}
    assert match_phrasal([], [], [], ["x"], lex) == {}
    assert match_phrasal(["a"] * 3, ["b"] * 3, [f"w{k}" for k in range(9)], [f"v{k}" for k in range(9)], lex) == {}

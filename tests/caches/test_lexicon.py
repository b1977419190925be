"""The WordNet reader: synonyms, antonyms and kinds, read from the installed WordNet files."""

from __future__ import annotations

import itertools

import pytest

from caches.lexicon import default_lexicon
from caches.verify import verify

COLOURS = "red blue green yellow black white orange purple pink brown".split()


@pytest.fixture(scope="module")
def lexicon():
    lex = default_lexicon()
    assert lex is not None, "WordNet ships with the project's dependencies"
    return lex


def test_adjectives_that_only_share_a_cluster_head_are_not_synonyms(lexicon) -> None:
    # every colour is "similar to" chromatic/achromatic: that makes them kinds of one thing, not synonyms
    for a, b in itertools.combinations(COLOURS, 2):
        assert not lexicon.synonyms(a, b), (a, b)
        assert not verify(f"Why is the river {a}?", f"Why is the river {b}?").ok
    # a satellite and its head are still synonyms, and so are two words of one synset
    assert lexicon.synonyms("huge", "large") and lexicon.synonyms("tiny", "small")
    assert lexicon.synonyms("biggest", "largest") and lexicon.synonyms("grey", "gray")
    assert not lexicon.synonyms("tiny", "huge")


def test_synonym_keys_meet_wherever_synonyms_hold(lexicon) -> None:
    words = [*COLOURS, "huge", "large", "big", "tiny", "small", "quick", "fast", "simple", "simply", "easy"]
    for a, b in itertools.product(words, repeat=2):
        if lexicon.synonyms(a, b):
            assert lexicon.synonym_keys(a) & lexicon.synonym_keys(b), (a, b)


def test_a_word_with_a_lone_surrogate_has_no_reading(lexicon) -> None:
    # a code span may carry one (JSON allows escaped lone surrogates); the gate registers its words
    assert lexicon.lemmas("x\ud800") == [] or not lexicon.lemmas("x\ud800")
    assert lexicon.synonym_keys("x\ud800")


def test_degrees_of_comparison(lexicon) -> None:
    degrees = {w: lexicon.degree(w) for w in
               "cheap cheaper cheapest good better best bad worse worst big bigger biggest happier happiest "
               "simple simpler simplest".split()}
    assert degrees == {"cheap": "", "cheaper": "comparative", "cheapest": "superlative", "good": "",
                       "better": "comparative", "best": "superlative", "bad": "", "worse": "comparative",
                       "worst": "superlative", "big": "", "bigger": "comparative", "biggest": "superlative",
                       "happier": "comparative", "happiest": "superlative", "simple": "",
                       "simpler": "comparative", "simplest": "superlative"}
    # words that only end like a comparison: an adjective of their own, or a noun or verb
    assert [lexicon.degree(w) for w in "clever honest number forest manager water".split()] == [""] * 6


def test_verb_groups_come_from_wordnet_files() -> None:
    lex = default_lexicon()
    assert lex is not None
    assert lex.verb_group("explain") == "communication" and lex.verb_group("explained") == "communication"
    assert lex.verb_group("write") == "creation"
    assert lex.verb_group("eat") == "consumption"
    assert lex.verb_group("qwzx") == "" and lex.verb_group("the") == ""


def test_a_hyphenated_word_is_read_as_wordnet_spells_it() -> None:
    lex = default_lexicon()
    assert lex is not None
    assert lex.synonyms("grown-up", "adult") and lex.synonyms("second-hand", "used")
    assert lex.lemmas("well-known")  # spelt with its hyphen in WordNet
    assert not lex.synonyms("grown-up", "child")


def test_two_units_of_measure_are_one_only_by_a_unit_sense(lexicon) -> None:
    # units that WordNet also reads as one non-unit sense (*a second* / *a minute*: a moment; *days* / *years*: a
    # lifetime) stay apart
    units = "second minute hour day week month year inch foot yard mile ounce pound gram kilogram litre ton".split()
    for a, b in itertools.combinations(units, 2):
        assert not lexicon.synonyms(a, b), (a, b)
        assert not verify(f"how many {a}s in a decade", f"how many {b}s in a decade").ok, (a, b)
    # one unit's spellings and names are still one
    assert lexicon.synonyms("litre", "liter") and lexicon.synonyms("gram", "gramme") and lexicon.synonyms("hour", "hr")
    assert lexicon.synonyms("year", "yr") and lexicon.synonyms("kilometre", "kilometer")

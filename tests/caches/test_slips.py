from __future__ import annotations

import pytest

from caches.lexicon import default_lexicon
from caches.slips import match_typos, misspelt_function_words
from caches.text_features import extract_features


@pytest.fixture(scope="module")
def lex():
    lexicon = default_lexicon()
    assert lexicon is not None
    return lexicon


def test_a_misspelt_grammar_word_needs_the_right_word_in_its_place(lex) -> None:
    slip = extract_features("How do I change teh address?")
    assert misspelt_function_words(slip, ["teh"], frozenset(), lex, extract_features("How do I change the address?")) == ["teh"]
    # the other text has *the* elsewhere, not beside *change* or *address*
    assert misspelt_function_words(slip, ["teh"], frozenset(), lex, extract_features("The form: how do I change my address?")) == []
    late = extract_features("Can I drink coffee aftre lunch?")
    assert misspelt_function_words(late, ["aftre"], frozenset(), lex, extract_features("Can I drink coffee before lunch?")) == []


def test_a_typo_pairs_an_unknown_word_with_a_known_one(lex) -> None:
    assert match_typos(["restaurant"], ["resturant"], lex) == {"resturant": "restaurant"}
    assert match_typos(["affect"], ["effect"], lex) == {}


def test_a_clipped_spelling_pairs_with_the_one_known_word_it_clips() -> None:
    from caches.lexicon import default_lexicon
    from caches.slips import match_abbreviations

    lex = default_lexicon()
    assert match_abbreviations(["approx", "moon"], ["approximately", "moon"], lex) == {"approximately": "approx"}
    assert match_abbreviations(["government"], ["govt"], lex) == {"govt": "government"}
    assert match_abbreviations(["tsp"], ["teaspoons", "tablespoon"], lex) == {}  # two words it could clip
    assert match_abbreviations(["db"], ["database"], lex) == {}  # WordNet knows *db* (a decibel)
    assert match_abbreviations(["xq"], ["quixotic"], lex) == {}  # not the first letter

from __future__ import annotations

from caches.clause_checks import clauses_reordered, condition_moved, material_reordered, narration_reordered
from caches.lexicon import default_lexicon
from caches.text_features import extract_features as features


def test_one_adverbial_moved_a_list_reordered_or_neither() -> None:
    assert clauses_reordered(features("In June, what is the weather in Lima?"),
                             features("What is the weather in Lima in June?")) is True
    assert clauses_reordered(features("Run git add, git commit, git push."),
                             features("Run git add, git push, git commit.")) is False
    assert clauses_reordered(features("What is the weather in Lima?"), features("How is the weather in Lima?")) is None


def test_material_and_conditions() -> None:
    assert material_reordered(features("Translate: good morning, my friend"), features("Translate: my friend, good morning"))
    assert not material_reordered(features("Translate: good morning, my friend"), features("Please translate: good morning, my friend"))
    assert condition_moved(features("If the harbour is closed, is the museum open?"),
                           features("If the museum is closed, is the harbour open?"), {})
    assert not condition_moved(features("If the harbour is closed, is the museum open?"),
                               features("Is the museum open if the harbour is closed?"), {})


def test_events_told_in_sentences_keep_their_order() -> None:
    lex = default_lexicon()
    assert narration_reordered(features("I sold the bike. I repaired the roof. Was that wise?"),
                               features("I repaired the roof. I sold the bike. Was that wise?"), lex)
    # questions, instructions and present facts may come in any order
    assert not narration_reordered(features("I live in Oslo. I am 30. What is my tax rate?"),
                                   features("I am 30. I live in Oslo. What is my tax rate?"), lex)
    assert not narration_reordered(features("What is X? Answer briefly."), features("Answer briefly. What is X?"), lex)


def test_a_time_clause_traded_with_its_main_clause() -> None:
    assert condition_moved(features("After the baby arrived, we moved to Denver."),
                           features("After we moved to Denver, the baby arrived."), {})
    assert condition_moved(features("By the time the bus came, I had walked home."),
                           features("By the time I had walked home, the bus came."), {})
    # a preposition inside a sentence opens no clause
    assert features("Should I walk after dinner?").condition is None


def test_dated_background_facts_may_come_in_any_order() -> None:
    lex = default_lexicon()
    assert not narration_reordered(features("I worked as a nurse for five years. I studied biology. Am I a fit?"),
                                   features("I studied biology. I worked as a nurse for five years. Am I a fit?"), lex)

from __future__ import annotations

from caches.clause_checks import clauses_reordered, condition_moved, material_reordered
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

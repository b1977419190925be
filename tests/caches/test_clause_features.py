from __future__ import annotations

from caches.text_features import extract_features


def test_sentences_clauses_and_material() -> None:
    f = extract_features("In June, what is the weather in Lima? Translate into Spanish: good morning, my friend.")
    assert f.clauses == ((("in", "june"), ("what", "is", "the", "weather", "in", "lima")),
                         (("translate", "to", "spanish"), ("good", "morning", "my", "friend")))  # (*into* a language reads as *to*)
    assert f.material == (("good", "morning", "my", "friend"),)


def test_condition_words_inside_and_outside() -> None:
    inside, outside = extract_features("If the harbour is closed, is the museum open?").condition
    assert inside == {"harbour", "closed"} and outside == {"museum", "open"}
    assert extract_features("Is the museum open on Sundays?").condition is None


def test_a_long_text_has_no_clauses() -> None:
    assert extract_features("word, " * 300).clauses == ()

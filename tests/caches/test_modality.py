"""Modality wherever it is said (:mod:`caches.modality`): generated property tests, through :func:`verify`."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caches.lexicon import default_lexicon
from caches.modality import modal_kinds, modality_changed
from caches.text_features import extract_features
from caches.verify import verify

FAST = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

# one form of each kind, as a statement's and a question's modal
_KINDS = {"possible": ["can", "could", "may", "might", "am allowed to"], "advice": ["should", "ought to"],
          "obligation": ["must", "have to", "need to"]}
_ACTIONS = st.sampled_from(["sell the old piano", "cancel the gym membership", "report the broken fence",
                            "return the winter coat", "renew the parking permit", "repaint the garden shed"])
_KIND_PAIRS = st.sampled_from([(a, b) for a in _KINDS for b in _KINDS if a != b])


def _tokens(text: str) -> list[str]:
    return extract_features(text).tokens


def _changed(a: str, b: str) -> bool:
    return modality_changed(extract_features(a), extract_features(b), default_lexicon())


@FAST
@given(_KIND_PAIRS, st.data(), _ACTIONS)
def test_a_modal_of_another_kind_is_a_miss_in_questions_statements_and_requests(kinds, data, action) -> None:
    a = data.draw(st.sampled_from(_KINDS[kinds[0]]))
    b = data.draw(st.sampled_from(_KINDS[kinds[1]]))
    for frame in ("Tell me whether I {} {}.", "My neighbour says I {} {}. What are my options?",
                  "I {} {} this week. Where do I start?"):
        assert not verify(frame.format(a, action), frame.format(b, action)).ok, (frame, a, b)


@FAST
@given(st.sampled_from([m for forms in _KINDS.values() for m in forms]),
       st.sampled_from(["sell the old piano", "move out of the flat", "leave the chess club", "pay the parking fine"]))
def test_a_modal_against_a_plain_verb_is_a_miss_in_a_yes_no_question_or_a_statement(modal, action) -> None:
    if " " not in modal:  # *do I pay* / *should I pay*
        assert not verify(f"Do I {action}?", f"{modal.capitalize()} I {action}?").ok
    # (a verb of speech, thought or making after *I* is the asker's task: *I have to write* / *I am writing*)
    assert not verify(f"The letter says I {modal} {action}. What now?", f"The letter says I {action}. What now?").ok
    text = f"The letter says I {modal} {action}. What now?"
    assert verify(text, text.upper()).ok


@FAST
@given(_ACTIONS, st.sampled_from(["How long", "How often", "When", "Where", "How"]))
def test_a_question_word_may_lose_its_modal_but_not_change_it(action, lead) -> None:
    # *how long should I boil an egg* / *how long do I boil an egg*; *can* and *should* there still differ
    assert verify(f"{lead} should I {action}?", f"{lead} do I {action}?").ok
    if lead != "How":  # *how can I* / *how should I* both ask for a way
        assert not verify(f"{lead} can I {action}?", f"{lead} should I {action}?").ok


@FAST
@given(st.sampled_from(["explain", "write", "describe", "summarize", "translate"]),
       st.sampled_from(["Can", "Could", "Would", "Will"]), st.sampled_from(["Can", "Could", "Would", "Will"]),
       st.sampled_from(["the water cycle", "a short poem about rain", "this contract"]))
def test_requests_to_the_one_addressed_keep_any_modal(verb, first, second, thing) -> None:
    assert verify(f"{first} you {verb} {thing}?", f"{second} you {verb} {thing}?").ok
    assert verify(f"{first} you please {verb} {thing}?", f"{verb.capitalize()} {thing}.").ok


@FAST
@given(st.sampled_from(["die from", "get sick from", "survive on", "live on"]),
       st.sampled_from(["drinking sea water", "eating raw flour", "a diet of rice"]))
def test_a_generic_you_with_another_modal_is_a_miss(verb, thing) -> None:
    assert not verify(f"Can you {verb} {thing}?", f"Will you {verb} {thing}?").ok
    assert not verify(f"Can you {verb} {thing}?", f"Should you {verb} {thing}?").ok


def test_the_same_kind_in_other_words_and_politeness_are_no_change() -> None:
    for a, b in [("Do I need to tip in Japan?", "Do I have to tip in Japan?"),
                 ("Can I bring a dog on the train?", "Am I allowed to bring a dog on the train?"),
                 ("Can I bring a dog on the train?", "Is it okay for me to bring a dog on the train?"),
                 ("Must I carry my passport?", "Is it necessary to carry my passport?"),
                 ("May I ask what a mortgage is?", "What is a mortgage?"),
                 ("I need to know how to bake bread.", "How do I bake bread?"),
                 ("How long shuold I rest after a sprain?", "How long should I rest after a sprain?"),
                 ("How early should I get to the airport?", "For a flight abroad, how early should I get there?"),
                 ("What would happen if I missed a payment?", "What will happen if I missed a payment?")]:
        assert not _changed(a, b), (a, b)
    assert _changed("My package may have been stolen.", "My package was stolen.")
    assert _changed("I want to leave my job.", "I have to leave my job.")


def test_kinds_are_read_per_token_and_bounded() -> None:
    lex = default_lexicon()
    assert modal_kinds(_tokens("I might need to move"), lex) == ["", "possible", "obligation", "", ""]
    assert modal_kinds(_tokens("the time needed to heal"), lex) == [""] * 5  # no subject before *needed*
    assert modal_kinds(_tokens("as fast as possible"), lex) == [""] * 4  # *possible* before no *to*
    long_text = "I can go. " * 200
    assert not _changed(long_text, long_text.replace("can", "must"))  # not aligned


def test_the_askers_task_may_drop_its_modal_but_not_change_it() -> None:
    # what the asker is to say, learn or make for the request is no situation; replacing its modal still is
    assert verify("I have to write a toast for my brother's wedding. Can you help?",
                  "I am writing a toast for my brother's wedding. Can you help?").ok
    assert not verify("My landlord says I must repaint the walls. Is that normal?",
                      "My landlord says I may repaint the walls. Is that normal?").ok
    assert not verify("I want to leave my job. Where do I start?", "I have to leave my job. Where do I start?").ok


def test_asking_for_a_recommendation_is_asking_for_advice() -> None:
    assert verify("Would you recommend getting AppleCare for a MacBook?", "Should I get AppleCare for a MacBook?").ok
    assert not verify("Would you recommend getting AppleCare for a MacBook?", "Can I get AppleCare for a MacBook?").ok


def test_a_description_rewords_its_modals_freely() -> None:
    # documentation and descriptions (no question, no asker, no request) say *can be used* for *is used*
    assert not _changed("The library can be used with TensorFlow and JAX.", "The library is used with TensorFlow and JAX.")
    assert not _changed("The cache should be cleared weekly.", "The cache is cleared weekly.")
    # a question, the asker or a request makes them meaning again
    assert _changed("Can the library be used with JAX?", "Is the library used with JAX?")
    assert _changed("The museum might close early. When should we go?", "The museum will close early. When should we go?")
    assert _changed("Explain whether the library can run on JAX.", "Explain whether the library must run on JAX.")

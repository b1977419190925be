"""The subjects of auxiliary-led questions, and the verification's miss when the person asked about changes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caches.subjects import ADDRESSEE, ASKER, question_subjects, subjects_changed
from caches.text_features import extract_features
from caches.verify import verify

FAST = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

_PEOPLE = st.sampled_from("neighbour cousin dentist coach tutor flatmate grandmother accountant".split())
_VERBS = st.sampled_from("help trust call visit forgive thank invite".split())
_LEADS = st.sampled_from(["How can", "Should", "Why would", "When can"])


def test_the_subject_after_the_auxiliary() -> None:
    assert question_subjects(extract_features("How can I help my cousin?")) == (ASKER,)
    assert question_subjects(extract_features("Should my cousin call me?")) == (f"{ASKER} cousin",)
    assert question_subjects(extract_features("Why does she ignore her brother?")) == ("she",)
    assert question_subjects(extract_features("Does their dog bark at night?")) == ("their dog",)
    # the asker's pronouns are one subject; a subject that is no person is not read
    assert question_subjects(extract_features("How do you reset a router?")) == (ASKER,)
    assert question_subjects(extract_features("How long does an egg take to boil?")) == ()
    assert question_subjects(extract_features("Is it safe to swim after eating?")) == ()
    assert question_subjects(extract_features("Tell me a joke about cats.")) == ()


@FAST
@given(_LEADS, _VERBS, _PEOPLE)
def test_the_asker_and_someone_else_trading_places_is_a_miss(lead, verb, person) -> None:
    a, b = f"{lead} I {verb} my {person}?", f"{lead} my {person} {verb} me?"
    assert not verify(a, b).ok and not verify(b, a).ok, (a, b)
    assert subjects_changed(extract_features(a), extract_features(b), {})


@FAST
@given(_LEADS, _VERBS, _PEOPLE, st.sampled_from(["you", "we"]))
def test_the_askers_pronouns_ask_the_same(lead, verb, person, other) -> None:
    a, b = f"{lead} I {verb} my {person}?", f"{lead} {other} {verb} my {person}?"
    assert not subjects_changed(extract_features(a), extract_features(b), {})
    assert verify(a, b).ok, (a, b)


def test_a_subject_that_is_no_person_is_left_to_the_other_checks() -> None:
    assert not subjects_changed(extract_features("How long should I boil an egg?"),
                                extract_features("How long does an egg take to boil?"), {})


@FAST
@given(st.sampled_from(["What can {a} do for {b}?", "Will {a} wait for {b}?", "Should {a} call {b} tomorrow?",
                        "Why would {a} lie to {b}?"]))
def test_you_beside_the_askers_me_is_the_one_asked(frame) -> None:
    a, b = frame.format(a="you", b="me"), frame.format(a="I", b="you")
    assert question_subjects(extract_features(a)) == (ADDRESSEE,)
    assert not verify(a, b).ok and not verify(b, a).ok, (a, b)
    # *you* beside the asker's *my* stays the asker (a general question), and so does a request
    assert question_subjects(extract_features("How do you reset my password?")) == (ASKER,)
    assert question_subjects(extract_features("Could you please show me how to freeze a row?")) == (ASKER,)
    assert verify("Could you please show me how to freeze a row in Excel?", "How do I freeze a row in Excel?").ok

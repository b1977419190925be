"""Who a question is about: the subject after the auxiliary that opens it, when that subject is a person.

*How can I help my friend?* and *How can my friend help me?* say the same words with the people in other places,
and a verb such as *help* that request frames also use is no content word, so the role checks of
:mod:`caches.verify` cannot see the swap. The subject of a question led by an auxiliary (*can*, *should*, *do*,
*is* ...) is read from the tokens of :attr:`caches.text_features.TextFeatures.clauses`: a personal pronoun, or a
noun after a possessive (*my friend*, *your landlord*). The asker's pronouns (*I*, *we*, *you*, *one*) are one
subject (*how do I* / *how do you* / *how does one* ask the same), except *you* in a sentence where the asker also
says *I* or *me*: then it is the one asked (*what can you do for me* / *what can I do for you*; *how do you reset my
password* and the request *could you show me how* stay the asker's). A subject that is no person (*the moon*, *it*, *there*) is not compared, so that *how
long should I boil an egg* and *how long does an egg take to boil* stay free to match.
"""

from __future__ import annotations

from collections.abc import Iterator

from caches.english import POSSESSIVE_PRONOUNS, QUESTION_LEADS, REQUEST_VERBS
from caches.text_features import TextFeatures

__all__ = ["ADDRESSEE", "ASKER", "infinitive_subjects", "person_against_thing", "possessor", "question_subjects",
           "subjects_changed"]

ASKER = "asker"  # I, we, you, one: whoever asks, or anyone
ADDRESSEE = "addressee"  # *you* beside the asker's own *I* or *me*: the one asked
_FIRST_PERSON = frozenset("i me myself".split())
_PRONOUN_SUBJECTS = {"i": ASKER, "we": ASKER, "you": ASKER, "one": ASKER, "he": "he", "she": "she", "they": "they"}
_QUESTION_OPENERS = frozenset("how what which why when where who whom whose much many long often far".split())


def question_subjects(f: TextFeatures) -> tuple[str, ...]:
    """The person each sentence's auxiliary-led question asks about, in order: ``asker``, ``addressee``, ``he``,
    ``she``, ``they`` or ``my friend``-like (the possessive's noun, with the possessive); sentences without one are
    skipped, and a question whose subject is no person ends the reading (``()`` when the first is none)."""
    found: list[str] = []
    for tokens, at in _auxiliary_questions(f):
        head = tokens[at + 1]
        if head == "you" and _FIRST_PERSON.intersection(tokens) and not _request(tokens[at + 2:]):
            found.append(ADDRESSEE)  # *what can you do for me*: *you* is who is asked, not anyone
        elif head in _PRONOUN_SUBJECTS:
            found.append(_PRONOUN_SUBJECTS[head])
        elif head in POSSESSIVE_PRONOUNS and at + 2 < len(tokens):
            found.append(f"{ASKER if head in ('my', 'our', 'your') else head} {tokens[at + 2]}")
        else:
            break
    return tuple(found)


def _auxiliary_questions(f: TextFeatures) -> Iterator[tuple[list[str], int]]:
    """For each sentence of ``f`` whose question is led by an auxiliary (*can I*, *how much does X*): its tokens and
    where that auxiliary stands (a subject follows it)."""
    for tokens in f.sentence_tokens:
        at = _after_openers(tokens)
        if at + 1 < len(tokens) and tokens[at] in QUESTION_LEADS:
            yield tokens, at


LEADING_WORDS = 2  # words that may stand before a question's first question word (*roughly how much*, *so why*)


def _after_openers(tokens: list[str]) -> int:
    """Where a question's auxiliary should stand: after its question words (*how much*), which may follow up to
    :data:`LEADING_WORDS` other words (*roughly how much would I*)."""
    start = next((k for k in range(min(LEADING_WORDS, len(tokens) - 1) + 1) if tokens[k] in _QUESTION_OPENERS), 0)
    at = start
    while at < len(tokens) and tokens[at] in _QUESTION_OPENERS:
        at += 1
    return at


def _request(rest: list[str]) -> bool:
    """The words after *you* open a request (*please show me*, *help me*)."""
    verbs = [t for t in rest[:2] if t != "please"]
    return bool(verbs) and verbs[0] in REQUEST_VERBS


_OBJECT_PERSONS = {"me": ASKER, "us": ASKER, "you": ASKER, "one": ASKER, "him": "he", "her": "she", "them": "they"}
_ASKERS_POSSESSIVES = frozenset({"my", "our", "your"})


def possessor(word: str) -> str:
    """Whose a possessive pronoun says: :data:`ASKER` for *my*, *our* and *your* (as *I*, *we* and *you* ask alike),
    the pronoun itself otherwise (*his*, *her*, *their*)."""
    return ASKER if word in _ASKERS_POSSESSIVES else word


def infinitive_subjects(f: TextFeatures) -> tuple[str, ...]:
    """Who does what a *for ... to* clause says (*is it legal for me to enter*, *for my landlord to enter*): the
    asker, *he*, *she*, *they*, or a possessive's noun (*asker landlord*), in order."""
    tokens = f.tokens
    found: list[str] = []
    for k, token in enumerate(tokens[:-2]):
        if token != "for":
            continue
        first, second = tokens[k + 1], tokens[k + 2]
        if first in _OBJECT_PERSONS and second == "to":
            found.append(_OBJECT_PERSONS[first])
        elif first in POSSESSIVE_PRONOUNS and k + 3 < len(tokens) and tokens[k + 3] == "to":
            found.append(f"{possessor(first)} {second}")
    return tuple(found)


def subjects_changed(q: TextFeatures, c: TextFeatures, mapping: dict[str, str]) -> bool:
    """Both texts ask auxiliary-led questions about people, as many, and one of them about someone else, or both say
    who does what with *for ... to* and name another doer (``mapping``: the candidate's words replaced by the
    query's synonyms, for the possessive's noun)."""
    for found_q, found_c in ((infinitive_subjects(q), infinitive_subjects(c)),
                             (question_subjects(q), question_subjects(c))):
        if found_q and len(found_q) == len(found_c) and found_q != tuple(_renamed(who, mapping) for who in found_c):
            return True
    return False


def _renamed(who: str, mapping: dict[str, str]) -> str:
    """A person read by this module with a possessive's noun replaced by its synonym in ``mapping`` (*asker mum* for
    *asker mother*); a pronoun's reading unchanged."""
    owner, _, noun = who.partition(" ")
    return f"{owner} {mapping.get(noun, noun)}" if noun else who


_ARTICLES = frozenset("the a an this that".split())


def person_against_thing(q: TextFeatures, c: TextFeatures) -> bool:
    """The first auxiliary-led question of one text asks about a person and the other's about a thing the first
    text names elsewhere: *How much do I weigh on Mars?* / *How much does Mars weigh?* (call it with texts of the
    same content words: with other words, *how long should I boil an egg* / *how long does an egg take to boil* is
    a rewording)."""
    first_q, first_c = _first_subject(q), _first_subject(c)
    if first_q is None or first_c is None:
        return False
    for (kind_a, _, verb_a), (kind_b, head_b, _), other in ((first_q, first_c, q), (first_c, first_q, c)):
        # (a *thing* that is the person's verb is a subject the text left out: *how can one clean X*)
        if kind_a == "person" and kind_b == "thing" and head_b in other.content and head_b != verb_a:
            return True
    return False


def _first_subject(f: TextFeatures) -> tuple[str, str, str] | None:
    """``("person", who, the word after it)`` or ``("thing", its head word, the word after it)`` for the subject of
    ``f``'s first auxiliary-led question (articles skipped), or None where it has none."""
    for tokens, at in _auxiliary_questions(f):
        head = at + 1
        while head < len(tokens) and tokens[head] in _ARTICLES:
            head += 1
        if head >= len(tokens):
            return None
        word = tokens[head]
        if word == "you" and (head + 1 >= len(tokens) or _request(tokens[head + 1:])):
            continue  # a request (*can you explain ...*, *could you help?*), not a question about a person
        after = tokens[head + 1] if head + 1 < len(tokens) else ""
        if word in _PRONOUN_SUBJECTS or word in POSSESSIVE_PRONOUNS:
            return ("person", word, after)
        return ("thing", word, after)
    return None

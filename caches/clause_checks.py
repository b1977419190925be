"""Clause structure in cache verification (:mod:`caches.verify`): whether two texts are the same words with an
adverbial clause moved (*In June, what is X?* / *What is X in June?*) or with clauses in another order (a list,
parallel clauses), whether a condition traded places with its consequence, and whether material a colon introduces
was reordered. The features compared are :attr:`caches.text_features.TextFeatures.clauses`, ``material`` and
``condition`` (see :mod:`caches.clause_features`)."""

from __future__ import annotations

from collections import Counter

from caches.english import (
    ADVERBIAL_OPENERS,
    AUXILIARIES,
    CLITICS,
    DO_FORMS,
    MID_ADVERBS,
    NUMBER_WORDS,
    POSSESSIVE_PRONOUNS,
    QUESTION_LEADS,
    QUESTION_WORDS,
    RELATIONAL,
    SUBJECT_PRONOUNS,
)
from caches.lexicon import Lexicon
from caches.text_features import TextFeatures

__all__ = [
    "MAX_MOVED_CLAUSES",
    "animate",
    "clauses_reordered",
    "condition_moved",
    "material_reordered",
    "narration_reordered",
    "sentences_reordered",
]

MAX_MOVED_CLAUSES = 8  # texts cut into more clauses than this are not compared as reordered clauses
MAX_NARRATED_SENTENCES = 12  # sentences of events compared for their order (at most this many a text)
MAX_REORDERED_SENTENCES = 12  # sentences a text may have to be compared as the same sentences in another order
SAME_SENTENCE = 0.6  # the share of tokens two sentences must have in common to be read as one event told twice


def material_reordered(q: TextFeatures, c: TextFeatures) -> bool:
    """One text introduces material with a colon (*translate into Spanish: good morning, my friend*), and the other
    has all of its tokens but not in that order: other material to work on."""
    for f, other in ((q, c), (c, q)):
        if not f.material:
            continue
        theirs = other.tokens
        counts = Counter(theirs)
        for piece in f.material:
            if not Counter(piece) - counts and not _contains_run(theirs, piece):
                return True
    return False


def _contains_run(tokens: list[str], run: tuple[str, ...]) -> bool:
    n = len(run)
    return any(tuple(tokens[i:i + n]) == run for i in range(len(tokens) - n + 1))


def condition_moved(q: TextFeatures, c: TextFeatures, mapping: dict[str, str]) -> bool:
    """Both texts have a subordinate clause (*if*, *unless*, *because*), a content word is inside it in one text
    and outside it in the other, and another the other way round: condition and consequence traded places (*if it
    rains, is the match off* / *if the match is off, does it rain*). Words on both sides of one text's clause
    boundary say nothing."""
    if q.condition is None or c.condition is None:
        return False
    in_q, out_q = q.condition
    in_c = {mapping.get(w, w) for w in c.condition[0]}
    out_c = {mapping.get(w, w) for w in c.condition[1]}
    only_in_q, only_out_q = in_q - out_q, out_q - in_q
    only_in_c, only_out_c = in_c - out_c, out_c - in_c
    # both ways: a phrase at the clause's end may attach to either clause (*check if X exists in Python* / *check in
    # Python if X exists*); a swap moves words into the clause and others out of it
    return bool(only_in_q & only_out_c) and bool(only_in_c & only_out_q)


_REFERRING = frozenset("he she it they".split())  # a sentence's subject that stands for an earlier one's
_SUBJECT_ENDS = AUXILIARIES | DO_FORMS | MID_ADVERBS | frozenset(CLITICS)  # what follows a subject's last word
_SUBJECT_STARTS = SUBJECT_PRONOUNS | POSSESSIVE_PRONOUNS | frozenset("the a an this that these those there".split())
_THIRD_PERSONS = frozenset("he she it they him her them its his their".split())
_NOUN_PHRASE_STARTS = POSSESSIVE_PRONOUNS | frozenset("the a an this that these those".split())
_CLAUSE_SUBJECTS = SUBJECT_PRONOUNS | POSSESSIVE_PRONOUNS
_APPROXIMATORS = frozenset("about around roughly nearly almost over under approximately".split())
_QUANTIFIERS = frozenset("some all most many few both each every none several half".split())
_PAST_AUXILIARIES = frozenset("was were had did".split())
_PRESENT_BE_FORMS = frozenset("is are am be being".split())  # before a participle: a passive in the present
_BE_READ_AS_PAST = frozenset({"am", "are"})  # (WordNet lists them among the irregular forms of *be*)
# a present *be*, its clitics read as words (*I'm*: *m*): a participle after one is a state, no event
_PRESENT_BE = (_PRESENT_BE_FORMS - {"be", "being"}) | {"m", "s", "re"}
_SEQUENCE_WORDS = frozenset("then first next finally later afterwards earlier".split())
# *after* and *before* order a sentence against another only when nothing of their own follows them (*after that*,
# *before it*, *... the week before*); with a noun phrase or a clause they order things inside their sentence (*I take
# home $4,100 a month after tax*, *I want to get there two hours before departure*)
_ORDERING_PREPOSITIONS = frozenset(("after", "before"))
_POINTING_BACK = frozenset("that this it which then".split())


def sentences_reordered(q: TextFeatures, c: TextFeatures, lex: Lexicon | None) -> bool | None:
    """Whether the two texts say the same sentences in another order: ``True`` when each moved sentence is a
    statement led by its subject or a question (*My boss is vegetarian. She's coming on Friday. What can I cook?* /
    *My boss is coming on Friday. She's vegetarian. ...*), none of them telling a past event; clauses joined by *and*,
    each led by its subject, count as sentences (*I work nights and I have a baby* / *I have a baby and I work
    nights*); ``False`` when the sentences are the same but a pronoun comes to stand for another person (*My boss is
    vegan. My wife is coming. She is allergic to nuts.* / *My wife is coming. My boss is vegan. She is ...*); ``None``
    otherwise (the other checks decide). A sentence whose
    subject is *he, she, it* or *they* is read with the subject of the nearest earlier sentence led by a noun
    phrase in its place; clitics are read as their words (*she's* = *she is*). Left to the other checks:
    instructions (the steps of a procedure), sentences with a word of sequence (*then*, *first*), and past events
    (:func:`narration_reordered` runs first)."""
    if lex is None or Counter(q.content) != Counter(c.content):  # (sentences that moved keep every content word)
        return None
    whole: set[tuple[str, ...]] = set()  # the units of ``q`` that are whole sentences
    a, b = _resolved_sentences(q, lex, resolve=True, whole=whole), _resolved_sentences(c, lex, resolve=True)
    if a == b or not 1 < len(a) <= MAX_REORDERED_SENTENCES or len(a) != len(b):
        return None
    # a time or place put before a sentence's subject is the same sentence with it at the end (*Next week I'm
    # travelling to Japan* / *I'm travelling to Japan next week*)
    a, b = [_adverbial_last(x) for x in a], [_adverbial_last(x) for x in b]
    whole = {_adverbial_last(x) for x in whole}
    if a == b:
        return True
    if Counter(a) != Counter(b):
        said_q, said_c = _resolved_sentences(q, lex, resolve=False), _resolved_sentences(c, lex, resolve=False)
        # (a pronoun with nothing before it to stand for is read as no one's: *It crashes. My phone is new.*)
        unread = any(s and s[0] in _REFERRING for s in a + b)
        return False if Counter(said_q) == Counter(said_c) and said_q != said_c and not unread else None
    # (a whole sentence telling a past event was compared for its order by :func:`narration_reordered`; a clause
    # cut from a sentence was not, and may not move if it tells one)
    # the sentences that may not move (an instruction, a sentence led by a name or an adjective) keep their order
    # among themselves, so the others moved around them: with two sentences, a question and an instruction
    # swapped is the question moved (*I'm learning Spanish. What does X mean?* / *What does X mean? I'm learning
    # Spanish.*)
    fixed_a = [x for x in a if not _movable_sentence(x, lex)]
    if fixed_a != [x for x in b if not _movable_sentence(x, lex)]:
        return None
    moved = [x for x, y in zip(a, b, strict=True) if x != y and _movable_sentence(x, lex)]
    return True if all(x in whole or not _past(x, lex) for x in moved) else None


_ADVERBIAL_OPENERS = frozenset("on in at during since until by next last this yesterday today tomorrow tonight every".split())
_FRONTED_WORDS = 4  # tokens of a time or place put before the subject


def _adverbial_last(sentence: tuple[str, ...]) -> tuple[str, ...]:
    """``sentence`` with a short time or place that opens it (*next week*, *on July 22*, *in Paris*: at most
    :data:`_FRONTED_WORDS` tokens from a preposition or a time word, up to a subject pronoun) moved to its end."""
    if not sentence or sentence[0] not in _ADVERBIAL_OPENERS:
        return sentence
    for k in range(1, min(_FRONTED_WORDS, len(sentence) - 2) + 1):
        if sentence[k] in _CLAUSE_SUBJECTS and sentence[k] not in _NOUN_PHRASE_STARTS:
            return sentence[k:] + sentence[:k]
    return sentence


def _past(sentence: tuple[str, ...], lex: Lexicon) -> bool:
    """The sentence has a verb in a past form that is no present form too (it may tell an event, whose place in a
    story is its order; *rent* and *read* may be either, and are read as present)."""
    return any(t in _PAST_AUXILIARIES or (t.isalpha() and t not in _BE_READ_AS_PAST and lex.past_form(t)
                                          and ("v", t) not in lex.lemmas(t)
                                          and not (k > 0 and sentence[k - 1] in _PRESENT_BE))  # *I'm booked on X*
               for k, t in enumerate(sentence))


def _resolved_sentences(f: TextFeatures, lex: Lexicon, *, resolve: bool,
                        whole: set[tuple[str, ...]] | None = None) -> list[tuple[str, ...]]:
    """Each sentence's tokens (a sentence cut at each *and* before a clause's subject), clitics read as words and
    (with ``resolve``) a leading *he/she/it/they* replaced by the subject of the nearest earlier sentence whose
    subject is a noun phrase that the pronoun may stand for: *he, she* and *they* a person or an animal (*my boss*, *my
    cat*), *it* a thing or a plant (*my laptop*); a word WordNet does not know may be either (none: the pronoun
    stays). ``whole``, if given, receives the units that are whole sentences."""
    out: list[tuple[str, ...]] = []
    subjects: list[tuple[list[str], bool | None]] = []  # (subject, a person or an animal: None when unknown)
    units = [(unit, len(cut)) for sentence in f.sentence_tokens for cut in [_joined_clauses(sentence)] for unit in cut]
    for tokens, parts in units:
        words = [CLITICS.get(t, t) if k and tokens[k - 1] not in POSSESSIVE_PRONOUNS else t for k, t in enumerate(tokens)]
        if not words:
            continue
        led = words[0] in _REFERRING  # the subject is a pronoun: the sentence names no new subject
        if resolve and words[0] in _THIRD_PERSONS:
            words = _stand_in(words[0], subjects) + words[1:]
        if not led and words[0] in _NOUN_PHRASE_STARTS:  # (this sentence's subject, before its own pronouns)
            end = next((k for k, w in enumerate(words[:8]) if k and (w in _SUBJECT_ENDS or _only_a_verb(w, lex))), 0)
            if end:
                head = words[end - 1]
                living = animate(head, lex)
                subjects.append((words[:end], living))
            else:  # a subject whose end was not found: a pronoun after it stands for this sentence's unknown subject
                subjects.append((["?" + " ".join(words)], None))
        if resolve:
            start = len(words) - len(tokens) + 1  # (past the leading word and what stands in for it)
            words = words[:start] + [w for word in words[start:] for w in _stand_in(word, subjects)]
        out.append(tuple(words))
        if whole is not None and parts == 1:
            whole.add(out[-1])
    return out


def animate(word: str, lex: Lexicon) -> bool | None:
    """Whether ``word`` names a person or an animal (what *he*, *she* and *they* may stand for) or not (what *it* may
    stand for); ``None`` for a word WordNet does not know, which may be either."""
    if not lex.lemmas(word):
        return None
    return lex.is_a(word, "animal", top=2) or lex.is_a(word, "person", top=2)


def _joined_clauses(tokens: list[str]) -> list[list[str]]:
    """A sentence cut before each *and* that joins a clause led by a subject pronoun or a possessive (*I work nights
    and I have a baby*: two), the *and* dropped."""
    cuts = [k for k in range(1, len(tokens) - 1) if tokens[k] == "and" and tokens[k + 1] in _CLAUSE_SUBJECTS]
    bounds = [0, *cuts, len(tokens)]
    return [tokens[lo + (lo > 0):hi] for lo, hi in zip(bounds, bounds[1:], strict=False) if tokens[lo + (lo > 0):hi]]


def _only_a_verb(word: str, lex: Lexicon) -> bool:
    """WordNet reads ``word`` as a verb and never as a noun (*gets*, *wants*; not *plant*): the verb after a subject."""
    readings = {pos for pos, _ in lex.lemmas(word)}
    return "v" in readings and "n" not in readings


def _stand_in(word: str, subjects: list[tuple[list[str], bool | None]]) -> list[str]:
    """What a third-person pronoun stands for: the nearest earlier subject it may stand for (a person or an animal for
    *he, she, they, him, her, them, his, their*; a thing for *it, its*), its words (possessives marked *'s*); any other
    word, or a pronoun with nothing to stand for, as it is."""
    if word not in _THIRD_PERSONS:
        return [word]
    wanted = word not in ("it", "its")
    subject = next((s for s, living in reversed(subjects) if living is None or living == wanted), None)
    if subject is None and word in ("they", "them", "their") and subjects:
        subject = subjects[-1][0]
    if subject is None:
        return [word]
    return subject + ["s"] if word in ("its", "his", "their") else list(subject)


def _movable_sentence(sentence: tuple[str, ...], lex: Lexicon | None = None) -> bool:
    """A sentence that may change places: a statement led by its subject (a pronoun, a determiner, a number or a
    quantifier, maybe after *about*, or a plural noun: an imperative's verb is never plural), or a question; with no
    word of sequence."""
    if not sentence or _sequence_word(sentence) or _orders_against_another(sentence):
        return False
    first = sentence[0]
    return (first in _SUBJECT_STARTS or first in QUESTION_WORDS or first in QUESTION_LEADS or first in NUMBER_WORDS
            or (first in RELATIONAL and len(sentence) > 1 and sentence[1] in QUESTION_WORDS)  # *In which city is X?*
            or first.isdigit() or first in _QUANTIFIERS  # (*Two of the guests are vegan.*, *Most of us drive.*)
            or (first in _APPROXIMATORS and len(sentence) > 1 and (sentence[1].isdigit() or sentence[1] in NUMBER_WORDS))
            or (lex is not None and _plural_noun(first, lex)))  # (*Refunds go back to the card.*)


Sentences = list[tuple[str, ...]]


def sentences_moved(q: TextFeatures, c: TextFeatures) -> tuple[Sentences, Sentences] | None:
    """Both texts' sentences, word for word, when they are the same sentences in another order (``None`` otherwise):
    what the order checks below, and verification's trade of names, read."""
    a = [tuple(s) for s in q.sentence_tokens]
    b = [tuple(s) for s in c.sentence_tokens]
    if a == b or len(a) < 2 or Counter(a) != Counter(b):
        return None
    return a, b


def sequenced_sentences_moved(moved: tuple[Sentences, Sentences] | None) -> bool:
    """The same sentences in another order (:func:`sentences_moved`), where a sentence that moved orders itself against
    another (*then*, *after that*, *next*, *finally* opening it: *I eat lunch. Then I take my pill.* / *Then I take my
    pill. I eat lunch.*)."""
    return moved is not None and any(x != y and _sequenced(x) for x, y in zip(*moved, strict=True))


def instructions_reordered(q: TextFeatures, c: TextFeatures, moved: tuple[Sentences, Sentences] | None,
                           lex: Lexicon) -> bool:
    """The same sentences in another order (``moved``, :func:`sentences_moved`), where two instructions (each opened by a verb's base form, maybe after
    *please*) changed places: the steps of a procedure (*Sort the list. Reverse it.* / *Reverse it. Sort the list.*).
    Not where a text sets material off (a line break, a colon): an instruction put before or after the material it is
    about moves past the material's own sentences (*Make this longer.\n\nCome by ...* / *Come by ...\n\nMake this
    longer.*), which :func:`caches.verify` reads as the same request."""
    if moved is None or q.material or c.material or "\n" in q.text or "\n" in c.text:
        return False
    a, b = moved
    steps_a, steps_b = [x for x in a if _instruction(x, lex)], [x for x in b if _instruction(x, lex)]
    # (only steps that work on what an earlier one left: one of them refers back, *Reverse it*; two independent
    # requests, *Explain X. Give an example of Y.*, may come in either order)
    return steps_a != steps_b and any(_REFERRING_BACK & set(x) for x in steps_a)


_REFERRING_BACK = frozenset("it them this that these those result results output".split())


def _instruction(sentence: tuple[str, ...], lex: Lexicon) -> bool:
    """A sentence opened by a verb in its base form (after *please*), that is no statement or question."""
    words = sentence[1:] if sentence[:1] == ("please",) else sentence
    return bool(words) and not _movable_sentence(words, lex) and ("v", words[0]) in lex.lemmas(words[0])


_FIRST_PERSONS = frozenset(("i", "we"))
_OTHER_PERSONS = frozenset(("you", "he", "she", "they"))


def actor_changed(q: TextFeatures, c: TextFeatures, lex: Lexicon) -> bool:
    """The texts differ in one word only: the subject of a verb that tells an event (a past form, or *have* / *had*
    before one), one text's *I* or *we* against the other's *you*, *he*, *she* or *they* (*I cancelled my flight* / *You
    cancelled my flight*). A present tense is left alone, where *you* is often anyone (*how do you cancel* / *how do I
    cancel*)."""
    a, b = q.sentence_tokens, c.sentence_tokens
    if len(a) != len(b) or any(len(x) != len(y) for x, y in zip(a, b, strict=True)):
        return False
    differ = [(x, k) for x, y in zip(a, b, strict=True) for k in range(len(x)) if x[k] != y[k]]
    if len(differ) != 1:
        return False
    x, k = differ[0]
    y = b[a.index(x)]
    persons = {x[k], y[k]}
    if not (persons & _FIRST_PERSONS and persons & _OTHER_PERSONS) or k + 1 >= len(x):
        return False
    verb = x[k + 1]
    return (verb in ("have", "had") or (verb.isalpha() and lex.past_form(verb))) and verb not in _BE_READ_AS_PAST


_OPENING_SEQUENCE = frozenset("then next finally afterwards later first second third lastly".split())


def _sequenced(sentence: tuple[str, ...]) -> bool:
    """The sentence opens by ordering itself against another: *Then ...*, *Finally ...*, *After that ...*."""
    return bool(sentence) and (sentence[0] in _OPENING_SEQUENCE or (
        sentence[0] in _ORDERING_PREPOSITIONS and len(sentence) > 1 and sentence[1] in _POINTING_BACK))


_ADJECTIVAL_SEQUENCE = frozenset(("next", "first"))


def _sequence_word(sentence: tuple[str, ...]) -> bool:
    """A word of :data:`_SEQUENCE_WORDS` in ``sentence`` that orders it: not *next* or *first* before a noun (*next week*,
    *my first solo trip*)."""
    return any(t in _SEQUENCE_WORDS and not (t in _ADJECTIVAL_SEQUENCE and k + 1 < len(sentence)
                                             and sentence[k + 1].isalpha() and sentence[k + 1] not in _CLAUSE_SUBJECTS
                                             and sentence[k + 1] not in _SUBJECT_STARTS)
               for k, t in enumerate(sentence))


def _orders_against_another(sentence: tuple[str, ...]) -> bool:
    """*after* or *before* in ``sentence`` with nothing of its own after it: it orders the sentence against another."""
    return any(t in _ORDERING_PREPOSITIONS and (k == 0 or k + 1 == len(sentence) or sentence[k + 1] in _POINTING_BACK)
               for k, t in enumerate(sentence))


def _plural_noun(word: str, lex: Lexicon) -> bool:
    """WordNet reads ``word`` as the plural of a noun (*refunds*, *customers*, *children*), not as a lemma of its own."""
    readings = lex.lemmas(word)
    return any(pos == "n" and lemma != word for pos, lemma in readings) and ("n", word) not in readings


def clauses_reordered(q: TextFeatures, c: TextFeatures) -> bool | None:
    """Whether the two texts are the same words with clauses moved, sentence by sentence: ``True`` when in each
    sentence that differs one text is the other with one adverbial clause moved from its front to its end or back
    (*In June, what is X?* / *What is X in June?*: the moved clause opens with a preposition or a subordinator);
    ``False`` when a sentence is a list of three or more clauses in another order (*git add, git commit, git push*;
    *on my phone, it loads, on my laptop, it doesn't*): its order is part of what is asked; ``None`` otherwise (the
    other checks decide). Tokens are compared whole, function words, numbers and spans included; sentences never
    move (the steps of a procedure), and a list of bare numbers or spans is never read as clauses."""
    if not q.clauses or len(q.clauses) != len(c.clauses):
        return None
    moved = False
    for sq, sc, flat_q, flat_c in zip(q.clauses, c.clauses, q.sentence_tokens, c.sentence_tokens, strict=True):
        if flat_q == flat_c:
            continue
        if sorted(flat_q) != sorted(flat_c):
            return None
        orders = [(a, order) for a, flat in ((sq, flat_c), (sc, flat_q))
                  if 1 < len(a) <= MAX_MOVED_CLAUSES and all(map(_movable, a)) and (order := _tiling(a, flat))]
        if not orders:
            return None
        if not all(_adverbial_moved(a, order) for a, order in orders):
            # the same clauses in another order, beyond one adverbial moved: a list whose order is asked about, or
            # parallel clauses traded (*on X, A, on Y, B*); a pair of plain clauses is left to the other checks
            return False if any(len(a) > 2 for a, _ in orders) else None
        moved = True
    return True if moved else None


def _movable(chunk: tuple[str, ...]) -> bool:
    return any(t.replace("-", "").isalpha() and t not in NUMBER_WORDS for t in chunk)


def _adverbial_moved(chunks: tuple[tuple[str, ...], ...], order: list[int]) -> bool:
    """``order`` (the chunks' order in the other text) moves one chunk that opens with a preposition or a
    subordinator from the front to the end or from the end to the front, and keeps the others in order."""
    n = len(chunks)
    rotated_left = order == list(range(1, n)) + [0]
    rotated_right = order == [n - 1] + list(range(n - 1))
    return ((rotated_left and chunks[0][0] in ADVERBIAL_OPENERS)
            or (rotated_right and chunks[n - 1][0] in ADVERBIAL_OPENERS))


def _tiling(chunks: tuple[tuple[str, ...], ...], flat: list[str]) -> list[int]:
    """The order in which all ``chunks`` concatenated make ``flat`` (a depth-first search; few chunks), or ``[]``."""
    order: list[int] = []
    used = [False] * len(chunks)

    def extend(at: int) -> bool:
        if at == len(flat):
            return all(used)
        for i, chunk in enumerate(chunks):
            if not used[i] and tuple(flat[at:at + len(chunk)]) == chunk:
                used[i] = True
                order.append(i)
                if extend(at + len(chunk)):
                    return True
                used[i] = False
                order.pop()
        return False

    return order if extend(0) else []


def narration_reordered(q: TextFeatures, c: TextFeatures, lex: Lexicon) -> bool:
    """Both texts tell the same events in sentences of their own, in another order (*I ate breakfast. I took my
    pill. Was that okay?* / *I took my pill. I ate breakfast. ...*). A sentence tells an event when it is no
    question, has a verb in a past form and is not dated (*I worked as a nurse for five years. I studied
    biology.*: dated facts of a background, whose order the dates carry; an amount of money dates nothing), and a
    present perfect tells a state, not an event (*I've paid back half*); two sentences are one event told twice
    when most of their tokens are shared (:data:`SAME_SENTENCE` of the larger). Other sentences (questions,
    instructions, facts in the present) may come in any order."""
    told_q, told_c = _narrated(q, lex), _narrated(c, lex)
    if len(told_q) < 2 or len(told_c) < 2:
        return False
    order: list[int] = []
    for sentence in told_q:
        best = max(range(len(told_c)), key=lambda j: len(sentence & told_c[j]))
        if len(sentence & told_c[best]) >= SAME_SENTENCE * max(len(sentence), len(told_c[best])):
            order.append(best)
    return any(later < earlier for earlier, later in zip(order, order[1:], strict=False))


_CURRENCY = frozenset("$ £ € ¥".split()) | frozenset("dollars dollar euros euro pounds pound bucks usd eur gbp".split())


_CALENDAR = frozenset("""january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday""".split())


def _dated(tokens: list[str]) -> bool:
    """The sentence names a date (a month or a weekday: *in September*) or a number (an age, a span of time: *for five
    years*, *in 2019*) other than an amount of money (*$600*, *600 euros*), which dates nothing."""
    return any(t in _CALENDAR or ((t[0].isdigit() or t in NUMBER_WORDS) and not (k and tokens[k - 1] in _CURRENCY)
                                  and not (k + 1 < len(tokens) and tokens[k + 1] in _CURRENCY))
               for k, t in enumerate(tokens))


def _perfect(tokens: list[str], k: int) -> bool:
    """Token ``k`` is a participle of the present perfect (*I've paid*, *she has already left*): a state now, not an
    event in a sequence."""
    j = k - 1
    while j >= 0 and tokens[j] in MID_ADVERBS:
        j -= 1
    return j >= 0 and tokens[j] in ("have", "has", "ve")


def _narrated(f: TextFeatures, lex: Lexicon) -> list[frozenset[str]]:
    """The token sets of ``f``'s sentences that tell an event (see :func:`narration_reordered`), in order."""
    out: list[frozenset[str]] = []
    for tokens in f.sentence_tokens[:MAX_NARRATED_SENTENCES]:
        if tokens and tokens[0] not in QUESTION_LEADS and tokens[0] not in QUESTION_WORDS \
                and not _dated(tokens) \
                and any(lex.past_form(t) and not (k and tokens[k - 1] in _PRESENT_BE_FORMS) and not _perfect(tokens, k)
                        for k, t in enumerate(tokens) if t.isalpha()):  # (*is built with X*, *I've paid X*: no event)
            out.append(frozenset(tokens))
    return out

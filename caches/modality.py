"""Modality wherever it is said: *may* against *should* in a statement, an embedded question or a question.

:mod:`caches.text_features` reads the modals of a text's questions as a set, which cannot see a modal that
replaces a plain verb (*do I pay* / *should I pay*), a statement's modal (*my package may have been stolen* / *was
stolen*, *I want to leave* / *I have to leave*) or one inside a request (*tell me whether I may* / *whether I
should*). :func:`modality_changed` aligns the two texts' tokens (of a question or request, or of a text that speaks of
the asker: a description's modals are reworded freely) and compares, in each place where they differ, the
kinds of modality each side says there: ``possible`` (*can, could, may, might, be able to, possible, allowed*),
``advice`` (*should, ought to, supposed to, advisable*), ``obligation`` (*must, have to, need to, required,
necessary*) and ``future`` (*will, shall, 'll*). Left out, because they ask for nothing else:

- *would* and *'d*: politeness or a hypothesis (*would it be safe* / *is it safe*, *I'd like*);
- a modal that asks the one addressed to do something for the asker (*can you explain*, *would you write*, *could
  you help me*): the verb after *you* is a request verb, one of speech or making in WordNet, or is followed by
  *me* or *us*; a modal before *you* with any other verb is modality (*can you die from* / *will you die from*);
- the asker's own politeness (*may I ask*, *could I add*);
- a modal right after a *how* that asks for a way (*how can I* / *how should I* / *how do I*); after another
  question word a modal may be left out (*how long should I* / *how long do I*) but not replaced;
- the kind of a modal after *you* (*you should answer briefly* / *you must answer briefly*): an instruction, whose
  advice and obligation are one; it may be left out, but not turned into a possibility;
- *will* against nothing: the tense checks own it (*will I lose my deposit* / *do I lose*).

The alignment is :class:`difflib.SequenceMatcher` over at most :data:`MAX_TOKENS` tokens a text.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher

from caches.english import (
    BE_FORMS,
    JUDGING_ADJECTIVES,
    MODAL_ADJECTIVES,
    QUESTION_LEADS,
    QUESTION_WORDS,
    REQUEST_VERBS,
    SUBJECT_PRONOUNS,
)
from caches.lexicon import Lexicon
from caches.slips import typing_slips
from caches.text_features import TextFeatures

__all__ = ["MAX_TOKENS", "asks_or_tells_of_the_asker", "modal_kinds", "modality_changed"]

MAX_TOKENS = 256  # texts longer than this are not aligned (difflib is quadratic on repeats)
_MODALS = {"can": "possible", "could": "possible", "may": "possible", "might": "possible", "should": "advice",
           "ought": "advice", "must": "obligation", "will": "future", "shall": "future", "ll": "future",
           "gotta": "obligation"}
# words that say a modality before *to* (*have to*, *need to*, *able to*, *supposed to*)
_BEFORE_TO = {"supposed": "advice", "have": "obligation", "has": "obligation", "had": "obligation",
              "need": "obligation", "needs": "obligation", "needed": "obligation", "got": "obligation",
              "able": "possible", "allowed": "possible", "permitted": "possible"}
# of those, the forms that are modal only after a subject, an auxiliary or *not* (*do I need to*, *they are able
# to*; not *the time needed to*)
_AFTER_SUBJECT = frozenset({"needed", "able", "allowed", "permitted", "supposed"})
_ADJECTIVE_FOLLOWERS = frozenset({"to", "that", "for"})
_WEAK = "~"  # marks the kind of a modal that a rewording may leave out (see :func:`_weak`)
_INSTRUCTION = "instruction"  # the kind of *you should* / *you must*: advice and obligation alike
_BINDING = frozenset({"advice", "obligation", _INSTRUCTION})
_FIRST_PERSON = frozenset("i me my mine myself we us our ours ourselves".split())
_INVERTED_SUBJECTS = SUBJECT_PRONOUNS | {"it", "one", "there"}
_SOFT = frozenset({"would", "d"})  # *would*, *'d*: politeness or a hypothesis
_ASKERS = frozenset({"i", "we"})
_POLITE_VERBS = frozenset({"ask", "add", "mention", "request", "say", "trouble", "bother"})  # *may I ask*
_ASKER_OBJECTS = frozenset({"me", "us"})
_FILLERS = frozenset({"please", "kindly", "just", "also", "maybe", "perhaps"})
# what a request asks for: speech, making, thought or looking (WordNet's verb groups), besides the request verbs
_REQUEST_GROUPS = frozenset({"communication", "creation", "cognition", "perception"})
_TASK_GROUPS = frozenset({"cognition", "communication", "creation"})  # see :func:`_asker_task`
_CLITIC_BES = frozenset({"m", "re", "am", "are"})
# verbs that ask for advice after *you* (*would you recommend X* asks what *should I X* asks)
_ADVICE_VERBS = frozenset({"recommend", "advise", "suggest"})
# what a modal's subject may be: the words after which *needed*, *able* ... are modal
_SUBJECTS = SUBJECT_PRONOUNS | BE_FORMS | frozenset("it one not s re m ve do does did will ll".split())
# the modals a typing slip may hide (*shuold*): long enough that one slip cannot make another word of them; in a fixed
# order, for a slip one letter from two of them (*sould*)
_SLIPPABLE = ("should", "could", "would", "might", "must")


def _next_words(tokens: list[str], k: int) -> list[str]:
    """Up to two words after position ``k``, fillers (*please*, *just*) left out."""
    return [t for t in tokens[k + 1:k + 5] if t not in _FILLERS][:2]


def _request_verb(verb: str, after: str, lex: Lexicon | None) -> bool:
    if verb in REQUEST_VERBS or after in _ASKER_OBJECTS:
        return True
    return lex is not None and lex.verb_group(verb) in _REQUEST_GROUPS


def _slip_of(token: str) -> str:
    """The modal that ``token`` misspells by one typing slip (one swap of neighbours or one letter added, dropped or
    replaced: :func:`caches.slips.typing_slips`), the first in :data:`_SLIPPABLE`'s order; ``""`` for none."""
    return next((modal for modal in _SLIPPABLE if modal != token and typing_slips(token, modal) == 1), "")


def _weak(tokens: list[str], k: int) -> bool:
    """The modal at ``k`` may be left out by a rewording, though it may not be replaced: after a question word
    (*how long should I boil* / *how long do I boil*, *where can I watch* / *where do I watch*), or before *you* and
    a verb that is no request (*can you die from* / *is it deadly*, but not *will you die from*)."""
    if any(t in QUESTION_WORDS for t in tokens[max(0, k - 4):k]):
        return True
    rest = _next_words(tokens, k)
    return len(rest) == 2 and rest[0] == "you"


def _asker_task(tokens: list[str], k: int, lex: Lexicon | None) -> bool:
    """The modal at ``k`` follows the asker's own *I* or *we* (*I must*, *I'm supposed to*, *we need to*) and comes
    before a verb of thought, speech or making (*know*, *admit*, *write*): what the asker is to learn, say or make
    for the request, not a situation (*I have to leave my job* / *I want to leave my job* stay apart)."""
    back = k - 1
    while back >= 0 and tokens[back] in _CLITIC_BES:
        back -= 1  # *I'm supposed to*, *we're able to*
    if lex is None or back < 0 or tokens[back] not in _ASKERS:
        return False
    verb = tokens[k + 2] if tokens[k] in _BEFORE_TO else (_next_words(tokens, k) or [""])[0]
    return lex.verb_group(verb) in _TASK_GROUPS


def modal_kinds(tokens: list[str], lex: Lexicon | None) -> list[str]:
    """Each token's kind of modality (``""`` for none), in order; see the module's docstring."""
    kinds = [""] * len(tokens)
    for k, token in enumerate(tokens):
        after = tokens[k + 1] if k + 1 < len(tokens) else ""
        before = tokens[k - 1] if k > 0 else ""
        if token not in _MODALS and lex is not None and len(token) >= 4 and not lex.lemmas(token):
            token = _slip_of(token) or token
        if token in _MODALS and not (token == "ll" and k == 0):
            kind = _MODALS[token]
        elif token in _BEFORE_TO and after == "to" and (token not in _AFTER_SUBJECT or before in _SUBJECTS):
            kind = _BEFORE_TO[token]
        elif token in MODAL_ADJECTIVES and after in _ADJECTIVE_FOLLOWERS:
            kind = MODAL_ADJECTIVES[token]
        elif token in JUDGING_ADJECTIVES and before == "it" and after == "to":
            kind = JUDGING_ADJECTIVES[token]  # *is it better to X or Y* asks *should I X or Y*
        elif token in _ADVICE_VERBS and before == "you":
            kinds[k] = _WEAK + "advice"  # *would you recommend getting X* / *should I get X*
            continue
        else:
            continue
        if token in _MODALS and before == "how":
            continue  # *how can I* asks for a way, as *how should I* and *how do I* do
        if before == "you":  # *you should* / *you need to*: an instruction, advice and obligation alike
            kinds[k] = _WEAK + (_INSTRUCTION if kind in ("advice", "obligation") else kind)
            continue
        rest = _next_words(tokens, k)
        if token in _MODALS and len(rest) >= 2:
            subject, verb = rest[0], rest[1]
            if subject == "you" and ("please" in tokens[k + 1:k + 4]
                                     or _request_verb(verb, tokens[k + 3] if k + 3 < len(tokens) else "", lex)):
                continue  # *can you explain*, *will you help me*, *could you please convert*
            if subject in _ASKERS and kind == "possible" and verb in _POLITE_VERBS:
                continue  # *may I ask*, *could I add*
        if _asker_task(tokens, k, lex):  # *I need to know*, *I have to write a toast*: the asker's task, not a situation
            kinds[k] = _WEAK + kind  # (it may be left out, not replaced: *I must repaint* / *I may repaint*)
            continue
        kinds[k] = _WEAK + kind if token in _MODALS and _weak(tokens, k) else kind
    return kinds


def asks_or_tells_of_the_asker(f: TextFeatures, lex: Lexicon | None) -> bool:
    """``f`` is a request whose modals are its meaning: it has a question (a sentence led by an auxiliary, a modal or
    a question word, or a modal before its subject), speaks of the asker (*I*, *my*, *we* ...) or asks for speech or
    making (*write*, *explain*, *tell*). A text of statements about something else (*Datasets can be used with
    TensorFlow* / *Datasets are compatible with TensorFlow*: documentation, a description) rewords its modals
    freely, and its modals are not compared."""
    for tokens in f.sentence_tokens:
        if not tokens:
            continue
        first = tokens[0]
        if first in QUESTION_LEADS or first in QUESTION_WORDS or first in _MODALS or _FIRST_PERSON.intersection(tokens):
            return True
        if any(t in _MODALS and u in _INVERTED_SUBJECTS for t, u in zip(tokens, tokens[1:], strict=False)):
            return True  # *so, can I ...*, *quick question: should we ...*
        if first in REQUEST_VERBS:
            return True
    return False


def modality_changed(q: TextFeatures, c: TextFeatures, lex: Lexicon | None) -> bool:
    """Where the two texts' tokens differ, one side says a kind of modality the other does not say there (a
    *will* against nothing aside), unless neither text asks or tells of the asker (see
    :func:`asks_or_tells_of_the_asker`). *Would* and *'d* are dropped before aligning."""
    q_tokens, c_tokens = q.tokens, c.tokens
    if len(q_tokens) > MAX_TOKENS or len(c_tokens) > MAX_TOKENS:
        return False
    if not (asks_or_tells_of_the_asker(q, lex) or asks_or_tells_of_the_asker(c, lex)):
        return False
    q = [t for t in q_tokens if t not in _SOFT]
    c = [t for t in c_tokens if t not in _SOFT]
    kinds_q, kinds_c = modal_kinds(q, lex), modal_kinds(c, lex)
    said_q, said_c = _instructions_folded(_said(kinds_q), _said(kinds_c))
    if Counter(said_q) == Counter(said_c):
        return False  # the same modals, perhaps in other places (*how early should I get to X* / *for X, how ...*)
    for op, i1, i2, j1, j2 in SequenceMatcher(None, q, c, autojunk=False).get_opcodes():
        if op != "equal" and _span_changed(kinds_q[i1:i2], kinds_c[j1:j2]):
            return True
    return False


def _said(kinds: list[str]) -> list[str]:
    """The kinds said, their weak marks dropped."""
    return [k.lstrip(_WEAK) for k in kinds if k]


def _instructions_folded(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    """Where either side gives an instruction, advice and obligation on both sides count as one kind with it: an
    instruction is either."""
    if _INSTRUCTION not in a and _INSTRUCTION not in b:
        return a, b
    folded_a, folded_b = ([_INSTRUCTION if k in _BINDING else k for k in said] for said in (a, b))
    return folded_a, folded_b


def _span_changed(a: list[str], b: list[str]) -> bool:
    """Two aligned spans' kinds of modality differ: each side says another kind, or one side says a kind firmly
    and the other none (*will* against nothing aside: a tense, which the tense checks compare)."""
    said_a, said_b = (set(said) for said in _instructions_folded(_said(a), _said(b)))
    if said_a and said_b:
        return said_a != said_b
    firm = {k for k in a + b if k and not k.startswith(_WEAK)}
    return bool(firm - {"future"})

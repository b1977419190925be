# Over 500 lines on purpose: one extraction pass over a text's tokens whose branches share its state (spans, be-forms,
# copula, participles); clause structure lives in caches.clause_features and the rewrites' word lists in caches.english.
"""Features of a question that :mod:`caches.verify` compares, extracted once per text by
:func:`extract_features`: its exact spans (numbers, symbols, code, quoted strings, URLs, identifiers),
negations, question words, the sequence of content and relational words, names, passive participles,
pictographs, the copula's clause, whether it asks about a subject or an object, the personal pronouns,
the tense and modality of its questions, and an identity that ignores case and spacing.

The word classes and phrase rewrites it reads are closed classes of English (:mod:`caches.english`),
never topic words.
"""

from __future__ import annotations

import bisect
import hashlib
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from caches.clause_features import condition_words, split_clauses
from caches.english import (
    AUXILIARIES,
    BE_FORMS,
    CLITICS,
    CODE_FOLLOWS,
    CODE_KIND,
    CODE_MARKS,
    CODE_REFERENCE,
    CONDITIONALS,
    CONTRACTIONS,
    DISCOURSE_OPENERS,
    DO_FORMS,
    FUNCTION_WORDS,
    INTERJECTIONS,
    IRREGULAR_PARTICIPLES,
    JUDGING_ADJECTIVES,
    MANNER_PHRASE,
    MID_ADVERBS,
    MODAL_ADJECTIVES,
    MODALS,
    NEGATIONS,
    NUMBER_WORDS,
    OBLIGED,
    PERSONS,
    PHATIC,
    PHATIC_CORE,
    QUESTION_LEADS,
    QUESTION_WORDS,
    RELATIONAL,
    REQUEST_FRAMES,
    REQUEST_VERBS,
    REWORDED_FRAMES,
    SENTENCE_ENDS,
    SENTENCE_PUNCTUATION,
    SUBJECT_PRONOUNS,
    SUBJECT_QUESTIONS,
    TENSES,
    TOPIC_RELATIONS,
)

__all__ = ["POSSESSIVE", "TextFeatures", "extract_features", "normalise"]

POSSESSIVE = "'s"  # *A's B*: a pivot for the role check (*daughter's father's sister*), not a relation to compare

# where a sentence ends: a run of its punctuation (taken whole, from its first mark) before a space or the end
_SENTENCE_END = re.compile(r"(?<![.!?:])[.!?:]++(?=\s|$)")
_LETTERS = re.compile(r"[a-z]+")
_TYPED_LETTERS = re.compile(r"[A-Za-z]+")
_PARTICLES = frozenset("on up out off over in at down away after into with".split())
_ACRONYM_PLURAL = re.compile(r"[A-Z]{2,}s")

# --- span patterns --------------------------------------------------------------------------------

_FENCED = re.compile(r"```.*?(?:```|$)|(?:^|(?<=\n))~~~.*?(?:~~~|$)", re.S)  # (tildes fence a block as backticks do)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_URL_ADDRESS = re.compile(r"(?:https?://|ftp://|www\.)[^\s<>\"'`]+", re.I)
_URL = re.compile(_URL_ADDRESS.pattern + r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+", re.I)
_QUOTED = re.compile(r"\"([^\"\n]{1,200})\"|(?<![\w'])'([^'\n]{1,200})'(?![\w'])")
# *v2.10.0*, *v3*: a version number, compared as the word *version* and the number
_VERSION = re.compile(r"[vV](\d+(?:\.\d+)*)")
_TOKEN = re.compile(r"\b" + _VERSION.pattern + r"\b|[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|[A-Za-z]+(?:-[A-Za-z]+)+|\d+(?:[.,]\d+)*|\w+|[^\w\s]+")
_OPERATOR_CHARS = frozenset("=<>+*/%&|^~")
_CAMEL = re.compile(r"[a-z][A-Z]")
# letters whose case is meaning, not style: an escape (*\\s* / *\\S*, *\\d* / *\\D*) and letter ranges (*A-Z*)
_CASED = re.compile(r"(?<=\\)[A-Za-z]|(?<![A-Za-z])(?:[A-Za-z]-[A-Za-z])+(?![A-Za-z])")
# what a shouted text keeps as typed: code, double quotes, escapes and letter ranges (see :data:`_CASED`)
_SHOUT_KEPT = re.compile("|".join((_FENCED.pattern, _INLINE_CODE.pattern, r"\"[^\"\n]{1,200}\"", _CASED.pattern)), re.S)
# verbatim blocks as the cache's differing parts cut them out (caches.reworded_parts): fenced and inline code
CODE_SPANS = re.compile(_FENCED.pattern + "|" + _INLINE_CODE.pattern, re.S)
# *one* as the generic pronoun, not the number: a modal follows it
# (*one can*, *one should*) or a modal before it in a question (*how can one*); or as the head of a noun phrase
# that ends a clause, after a determiner and perhaps one adjective (*this might be a silly one.*), or after *this*,
# *that* or *which* (*which one is cheaper*)
_PRONOUN_ONE = re.compile(
    r"\b(one)(?=\s+(?:can|could|should|must|may|might|will|would|shall|needs|ought)\b)"
    r"|\b(?:can|could|should|must|may|might|will|would|shall)\s+(one)\b(?!\s+(?:be|of|or|and|more|less)\b)"
    r"|\b(?:a|an|the|this|that|which|another|each|any|every)\s+(?:[a-z]+\s+)?(one)(?=\s*(?:[.,!?;:]|$))"
    r"|\b(?:this|that|which)\s+(one)\b(?!-)",
    re.I,
)
# pictographs (emoji, their joiners and variation selectors): decoration that a rewording may drop
# (*🤗 Datasets* / *Datasets*), but two texts that both have some must have the same
_PICTOGRAPHS = re.compile("[\U0001F000-\U0001FAFF\u200d\ufe0f]")
# emoticons typed as punctuation (*:)*, *;-)*, *:D*, *<3*): decoration, dropped
_EMOTICON = re.compile(r"(?:(?<=\s)|^)(?:[:;=][-']?[)(DPp/|]+|<3+)(?=\s|$|[.,!?])")
_SPACES = re.compile(r"\s+")
_EDGE_PUNCT = ".,;:!?'\"()[]-–—… \t\n"


@dataclass(frozen=True, slots=True)
class TextFeatures:
    """What :func:`verify` compares, extracted once per text."""

    normalised: str  # the prose outside code, quotes and URLs (see :func:`normalise`)
    exact: tuple[str, ...]  # code, symbols, numbers, quoted strings, URLs, identifiers, in order
    negations: int
    questions: frozenset[str]  # question words, ``which`` folded into ``what``
    sequence: tuple[tuple[str, str], ...]  # ("w", content word) / ("r", relational word), in order
    names: frozenset[str] = frozenset()  # lower-cased capitalised words inside sentences, acronyms
    passive: frozenset[str] = frozenset()  # participles after a form of *be*: *is used*, *should be included*
    agented: frozenset[str] = frozenset()  # those of them followed by their agent: *is called by*
    pictographs: tuple[str, ...] = ()  # emoji, sorted
    # the content words after a copula that opens a question (*are all integers rational numbers*, *why
    # are squares rectangles*), up to a relational word or the sentence's end: subject, then predicate
    copula: tuple[str, ...] = ()
    # a question about the subject (*who succeeded X*, *which team beat X*: ``subject``) or, with *do*,
    # about the object (*who did X succeed*, *which team did X beat*: ``object``); empty otherwise
    asks_about: str = ""
    # the sequence with the personal pronouns in it (*I paid X and my roommate paid Y*), for the role check
    # of texts that only reorder their words; empty when the text has none
    with_persons: tuple[tuple[str, str], ...] = ()
    # the items of each coordinated list (*of A, B and C*), case-folded and sorted: the text holds them sorted
    lists: tuple[tuple[str, ...], ...] = ()
    # where each sentence after the first starts in ``sequence`` (the number of entries before it)
    sentence_starts: tuple[int, ...] = ()
    # the text up to case and spacing: a digest of its prose, its verbatim spans in order and its pictographs
    identity: int = 0
    bound: frozenset[tuple[str, str]] = frozenset()  # each number with the content word right after it: *12 miles*
    tense: frozenset[str] = frozenset()  # of the auxiliaries: ``present`` (*is*, *does*), ``past``, ``future``
    modality: frozenset[str] = frozenset()  # ``possible`` (*can*, *may*), ``advice``, ``obligation``, ``conditional``
    # each finite verb after its subject (a pronoun, a subject question word, a noun phrase opening a clause), outside
    # conditional clauses, with the tense its auxiliary marks (``past``, ``present``, ``future``; ``""``: the verb's
    # own form decides, *I lost* / *I lose*)
    finite: tuple[tuple[str, str], ...] = ()
    # every token of the text (words of any class, numbers, symbols, verbatim spans; no punctuation), in order, cut
    # into sentences (at ``. ? !``) and those into clauses (at ``, ; :``): *In June, what is X?* / *What is X in June?*
    clauses: tuple[tuple[tuple[str, ...], ...], ...] = ()
    # what colons introduce (each as one clause of ``clauses``): material whose order is its content
    material: tuple[tuple[str, ...], ...] = ()
    # the content words inside clauses a subordinator opens (*if*, *unless*, *because*: up to the clause's
    # punctuation) and those outside them, when the text has such a clause: *if A, B* asks another thing than
    # *if B, A* (``None``: no such clause)
    condition: tuple[frozenset[str], frozenset[str]] | None = None
    # the text's lines (when it has :data:`MIN_LINES` or more with words), list markers dropped, case-folded and
    # spaced alike: a list, steps, a log or a checklist, whose order is part of what is asked
    lines: tuple[str, ...] = ()
    text: str = ""  # the text as given (NFKC): verification re-reads it without its code marks (caches.verify)

    @property
    def tokens(self) -> list[str]:
        """Every token of :attr:`clauses`, in order (empty for a text too long to be cut into clauses)."""
        return [t for sentence in self.clauses for chunk in sentence for t in chunk]

    @property
    def sentence_tokens(self) -> list[list[str]]:
        """The tokens of each sentence of :attr:`clauses`, its clauses joined, in order."""
        return [[t for chunk in sentence for t in chunk] for sentence in self.clauses]

    @property
    def content(self) -> tuple[str, ...]:
        return tuple(text for kind, text in self.sequence if kind == "w")

    @property
    def relations(self) -> tuple[str, ...]:
        return tuple(text for kind, text in self.sequence if kind == "r" and text != POSSESSIVE)


# grammar words that, written in capitals inside a sentence of mixed case, name a keyword (SQL's *WHERE*, *GROUP BY*)
_KEYWORD_LIKE = frozenset(QUESTION_WORDS) | RELATIONAL | FUNCTION_WORDS


def normalise(text: str) -> str:
    """NFKC, case-folded (except escapes and letter ranges, see :data:`_CASED`), whitespace collapsed,
    surrounding punctuation removed."""
    text = unicodedata.normalize("NFKC", text)
    out, last = [], 0
    for m in _CASED.finditer(text):
        out += [text[last:m.start()].casefold(), m.group(0)]
        last = m.end()
    text = "".join(out) + text[last:].casefold()
    return _SPACES.sub(" ", text).strip(_EDGE_PUNCT)


def _cased(raw: str, escaped: bool) -> str:
    """An identifier as compared: lower case, but an escape's letter and letter ranges keep theirs."""
    if _CASED.fullmatch(raw):
        return raw
    return raw[0] + raw[1:].casefold() if escaped else raw.casefold()


def _number(token: str) -> str:
    """A digit token without thousands separators, as a canonical decimal string."""
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", token):
        token = token.replace(",", "")
    try:
        value = float(token.replace(",", "."))
    except ValueError:
        return token
    if abs(value) >= 1e15:
        return token
    return str(int(value)) if value.is_integer() else repr(value)


MAX_FRAME_CHARS = 400  # whole-text rewrites (*A vs B*, *how do you say X in L*) apply to texts this short
# the spans the rewrites leave alone: code, web addresses and quoted strings (the patterns cut below)
_VERBATIM = re.compile("|".join(p.pattern for p in (_FENCED, _INLINE_CODE, _URL_ADDRESS, _QUOTED)), re.S | re.I)


# (pattern, replacement or a function of the match, a literal every match contains)
Rewrite = tuple[re.Pattern[str], "str | Callable[[re.Match[str]], str]", str | None]


def _required_literal(pattern: re.Pattern[str]) -> str | None:
    """The longest run of literal characters at the top level of ``pattern`` (every match contains it), lower-cased,
    or None where it has none (a top-level alternation) or cannot be read. A text without it cannot match, so its
    ``sub`` is skipped: most rewrites match few texts, and their searches were half of a feature extraction."""
    try:
        from re import _constants, _parser  # the compiler's own reading of the pattern (CPython 3.11+)

        tree = _parser.parse(pattern.pattern, pattern.flags)
    except (ImportError, AttributeError, re.error):
        return None
    best, run = "", ""
    for op, value in tree:
        if op is _constants.LITERAL:
            run += chr(value)
            continue
        best, run = max(best, run, key=len), ""
    best = max(best, run, key=len)
    return best.lower() if best else None


def _rewrites(pairs: tuple[tuple[re.Pattern[str], str], ...]) -> tuple[Rewrite, ...]:
    return tuple((pattern, repl, _required_literal(pattern)) for pattern, repl in pairs)


_CONTRACTIONS = _rewrites(tuple(CONTRACTIONS))
_REWORDED_FRAMES = _rewrites(tuple(REWORDED_FRAMES))


def _apply(text: str, rewrite: Rewrite, lowered: str | None) -> str:
    """One rewrite on ``text``; skipped where ``lowered`` (``text`` lower-cased, given for ASCII texts only, where
    lower-casing matches the patterns' case folding) lacks its literal."""
    pattern, repl, literal = rewrite
    if literal is not None and lowered is not None and literal not in lowered:
        return text
    return pattern.sub(repl, text)


def _outside_spans(text: str, rewrites: list[Rewrite], *, whole: bool = False) -> str:
    """``rewrites``, in order, applied to the prose between code, URLs and quoted strings, which keep their
    text (no replacement makes or breaks such a span, so the spans are found once for all of them).
    ``whole``: the caller knows ``text`` holds no such span (it is all prose)."""
    if not rewrites:
        return text

    def rewrite(gap: str) -> str:
        ascii_gap = gap.isascii()
        lowered = gap.lower() if ascii_gap else None
        for one in rewrites:
            changed = _apply(gap, one, lowered)
            if changed != gap:
                gap = changed
                lowered = gap.lower() if ascii_gap else None
        return gap

    if whole:
        return rewrite(text)
    out, last = [], 0
    for m in _VERBATIM.finditer(text):
        out += [rewrite(text[last:m.start()]), m.group(0)]
        last = m.end()
    return "".join(out) + rewrite(text[last:])


def _has_quote_marks(text: str) -> bool:
    return "'" in text or '"' in text or "`" in text


def _rewrite(text: str) -> str:
    """``text`` with :data:`CONTRACTIONS` and :data:`REWORDED_FRAMES` applied in order: those that replace
    words only between verbatim spans, those that re-emit what they captured (a quoted phrase may stand
    inside) on the whole text, if it is at most :data:`MAX_FRAME_CHARS` long.

    Most texts hold no verbatim span, and then the rewrites run on the whole text without looking for
    spans again where they cannot have made one: no replacement adds a quote mark, backtick or address,
    so a text without quote marks stays without spans. A text with quote marks but no span is searched
    again whenever a rewrite changed it (*'we can't go'* becomes the quoted *'we can not go'*; a newline
    or a long run removed between two quotes makes them a span)."""
    pending: list[Rewrite] = list(_CONTRACTIONS)
    spans, searched = _VERBATIM.search(text) is not None, text

    def between(text: str, rewrites: list[Rewrite]) -> str:
        nonlocal spans, searched
        if not spans and text != searched and _has_quote_marks(text):
            spans, searched = _VERBATIM.search(text) is not None, text
        return _outside_spans(text, rewrites, whole=not spans)

    for one in _REWORDED_FRAMES:
        if "\\" in one[1]:
            text, pending = between(text, pending), []
            if len(text) <= MAX_FRAME_CHARS:
                text = _apply(text, one, text.lower() if text.isascii() else None)
        else:
            pending.append(one)
    return between(text, pending)


_WITHOUT_CODE_MARKS = str.maketrans("", "", "".join(CODE_MARKS))


def _shows_code(text: str) -> bool:
    """``text`` holds three or more :data:`CODE_MARKS`, as code does (counted by one ``str.translate``; a generator
    over the characters cost ~40 us a 1,000-character text, and a text is tested twice)."""
    return len(text) - len(text.translate(_WITHOUT_CODE_MARKS)) >= 3


def _strip_request_frames(text: str) -> str:
    """``text`` without the request frames of :data:`REQUEST_FRAMES` (the topic stays) and, when it shows
    code, with one reference to it (after :func:`_rewrite`)."""
    if "`" in text:
        # named right before the code (*the command `ls -l`*, *what this regex does: `...`*): only the code;
        # elsewhere: one word for it
        text = CODE_REFERENCE.sub(lambda m: m.group(1) if CODE_FOLLOWS.match(text, m.end()) else m.group(0), text)
    elif _shows_code(text):  # code pasted without quotes: one name for its kind
        text = CODE_KIND.sub(r"\1 code", text)
    about, means, meant = REQUEST_FRAMES
    text = about.sub("", text)
    text = means.sub(lambda m: "explain " + m.group(1), text)
    return meant.sub("explain ", text)


def _identity(normalised: str, exact: tuple[str, ...], pictographs: tuple[str, ...]) -> int:
    """:attr:`TextFeatures.identity`: a digest of a text's normalised prose (its verbatim spans blanked out),
    those spans in order (from ``exact``) and its pictographs."""
    # (and the identifiers that keep their case: escapes, letter ranges and flags, whose case is what they say)
    spans = tuple(token for token in exact if token.startswith(("code:", "quote:", "url:"))
                  or (token.startswith("id:") and not token.islower()))
    digest = hashlib.blake2b(repr((normalised, spans, pictographs)).encode("utf-8", "surrogatepass"),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _segments(text: str) -> list[tuple[int, int]]:
    """The sentences of ``text`` as ``(start, end)``: each from its first non-space character to the end of
    its closing punctuation (before a space or the text's end), or to the text's end. Linear in the text."""
    out: list[tuple[int, int]] = []
    at = 0
    for m in _SENTENCE_END.finditer(text):
        start = at
        while start < m.start() and text[start].isspace():
            start += 1
        if start < m.end() and not text[start].isspace():
            out.append((start, m.end()))
        at = m.end()
    rest = at
    while rest < len(text) and text[rest].isspace():
        rest += 1
    if rest < len(text):
        out.append((rest, len(text)))
    return out


def _bind(bound: set[tuple[str, str]], number: str, matches: list[re.Match[str]], k: int) -> None:
    """Record ``number`` (token ``k``) with the content word right after it, if there is one."""
    if k + 2 < len(matches) and matches[k + 1].group(0) == "-" and matches[k].end() == matches[k + 1].start() \
            and matches[k + 1].end() == matches[k + 2].start():
        k += 1  # *a 4-year loan*: the word after the hyphen
    if k + 2 < len(matches) and _acronym_modifier(matches[k + 1].group(0)):
        k += 1  # *50 US dollars*: the noun after the acronym (*US* is not *us*)
    if k + 1 < len(matches):
        word = matches[k + 1].group(0).casefold()
        if word.isalpha() and not (word in FUNCTION_WORDS or word in RELATIONAL or word in NEGATIONS
                                   or word in QUESTION_WORDS or word in NUMBER_WORDS):
            bound.add((number, word))


def _acronym_modifier(raw: str) -> bool:
    """``raw`` is an acronym in capitals that spells a function word in lower case (*US*, *IT*, *OR*)."""
    return 1 < len(raw) <= 4 and raw.isalpha() and raw.isupper() and raw.casefold() in FUNCTION_WORDS


def _is_possessive(text: str, matches: list[re.Match[str]], k: int) -> bool:
    """Token ``k``, an *s*, ends a possessive: *the daughter's*, not *what's* or *it's*."""
    if k < 2 or matches[k - 1].group(0) != "'":
        return False
    owner, mark = matches[k - 2], matches[k - 1]
    word = owner.group(0).casefold()
    return (owner.end() == mark.start() and mark.end() == matches[k].start() and word[0].isalpha()
            and word not in FUNCTION_WORDS and word not in QUESTION_WORDS)


def _asks_about(words: list[str]) -> str:
    """Whether the first *who*, *what* or *which* asks for a subject or, with *do* support, an object:
    *which team beat X* / *which team did X beat* (a noun may stand after *what* and *which*); ``words``: the
    text's tokens, case-folded."""
    k = next((i for i, w in enumerate(words) if w in SUBJECT_QUESTIONS), None)
    if k is None or k + 1 >= len(words):
        return ""
    j = k + 1

    def plain(word: str) -> bool:  # a content word: not grammar, not punctuation, not a number
        return (word[0].isalpha() and word not in FUNCTION_WORDS and word not in RELATIONAL
                and word not in QUESTION_WORDS and word not in NEGATIONS)

    if words[j] in DO_FORMS:
        return "object"
    if words[k] != "who" and plain(words[j]) and j + 1 < len(words):
        after = words[j + 1]  # *which team did*, *which team beat*, *what causes*, *what colour is*
        if after in DO_FORMS:
            return "object"
        return "" if after in AUXILIARIES else "subject"
    return "subject" if plain(words[j]) else ""


def _question_words(words: list[str]) -> list[int]:
    """Indices of the words in a text's questions: sentences that end with *?* or open with a question
    word, an auxiliary or a modal. A statement's *should* or *must* is style as often as meaning."""
    out: list[int] = []
    start = 0
    for k in range(len(words) + 1):
        if k < len(words) and words[k][0] not in SENTENCE_ENDS:
            continue
        sentence = range(start, k)
        first = words[start] if start < k else ""
        if (k < len(words) and "?" in words[k]) or first in QUESTION_WORDS or first in TENSES or first in MODALS:
            out.extend(sentence)
        start = k + 1
    return out


def _tense_and_modality(words: list[str]) -> dict[str, frozenset[str]]:
    """The tenses of the auxiliaries in a text's questions and the kinds of their modals: *what currency is used* / *was used*,
    *can I* / *should I* / *do I have to*. A modal asking *you* (*can you*, *would you*) and *would like*
    are requests, not modality; *have to* is an obligation, not a tense."""
    tense: set[str] = set()
    modality: set[str] = set()
    for k in _question_words(words):
        word = words[k]
        after = words[k + 1] if k + 1 < len(words) else ""
        if word in OBLIGED and after == "to":
            modality.add("obligation")
        elif word in MODALS:
            if after not in ("you", "like"):
                modality.add(MODALS[word])
        elif word in TENSES and not (word in ("will", "shall") and after == "you"):
            tense.add(TENSES[word])
    return {"tense": frozenset(tense), "modality": frozenset(modality)}


_INVERTED = {"did": "past", "do": "present", "does": "present", "will": "future", "shall": "future", "have": "past",
             "has": "past", "had": "past"}  # an auxiliary before the subject (*did I lose*): its tense


def _after_subject(words: list[str], k: int) -> list[str]:
    """Up to four words after position ``k``, within the clause: apostrophes dropped, a clitic right after one read
    as its auxiliary (*'ll* = *will*), the adverbs that stand before a verb (and *not*) left out."""
    out: list[str] = []
    apostrophe = False
    for word in words[k:k + 8]:
        if word == "'":
            apostrophe = True
            continue
        if not word[0].isalnum():
            break
        word = CLITICS.get(word, word) if apostrophe else word
        apostrophe = False
        if word not in MID_ADVERBS:
            out.append(word)
        if len(out) == 4:
            break
    return out


def _finite_verbs(words: list[str]) -> tuple[tuple[str, str], ...]:
    """The finite verbs of a text's statements and questions, each after its subject, with the tense its auxiliary
    marks: *I lost* (``""``: the verb's form decides), *I will lose* / *I'm going to lose* (``future``), *I did lose* /
    *did I lose* / *I've lost* (``past``), *do I lose* (``present``), *we're having* (``present``). A subject is a
    personal pronoun, a question word that asks for the subject (*who won*, *which team will win*) or a noun phrase
    opened by *the* or a possessive (*the package arrived* / *will arrive*); after *which*, *what* or a determiner, each
    reading of up to two words as the noun is taken, since the words alone do not tell noun from verb. Left out:
    clauses opened by *if*, *when* or *unless* (their tense is hypothetical), past progressives (*I was trying* is
    narrative), a copula, and a modal (modality is not time)."""
    out: list[tuple[str, str]] = []
    conditional = False
    for k, word in enumerate(words):
        if word in CONDITIONALS:
            conditional = True
        elif not word[0].isalnum() and word != "'":
            conditional = False  # a clause ends at its punctuation
        elif conditional:
            continue
        elif word in SUBJECT_PRONOUNS:
            _verb_after(words, k, words[k - 1] if k else "", out)
        elif word in SUBJECT_QUESTIONS or (word in _NOUN_DETERMINERS and (
                k == 0 or not words[k - 1][0].isalnum() or words[k - 1] in _CLAUSE_LINKS)):
            nouns = 0 if word == "who" else 2
            determiner = word in _NOUN_DETERMINERS  # (a determiner is never the whole subject; a question word may be)
            for end in range(k + determiner, k + nouns + 1):  # the subject's last word: the question word, or its noun's
                if end > k and (end >= len(words) or not words[end][0].isalpha() or words[end] in FUNCTION_WORDS):
                    break
                _verb_after(words, end, "", out)
    return tuple(out)


# a noun phrase opening a clause (at a sentence's start, after punctuation or a conjunction): its verb may follow it
_NOUN_DETERMINERS = frozenset("the my your our his their".split())
_CLAUSE_LINKS = frozenset("and but so because since then".split())


def _verb_after(words: list[str], k: int, before: str, out: list[tuple[str, str]]) -> None:
    """Append to ``out`` the finite verb after the subject ending at position ``k`` (see :func:`_finite_verbs`), with
    the tense its auxiliary marks; ``before``: the word before the subject (an inverted auxiliary: *did I lose*)."""
    rest = _after_subject(words, k + 1)
    if not rest or not rest[0].isalpha():
        return
    first, second = rest[0], rest[1] if len(rest) > 1 else ""
    if before in _INVERTED:
        out.append((_INVERTED[before], first))
    elif first in ("was", "were") and second.endswith("ing") and len(second) > 4 and second != "going" \
            and "for" in words[k + 3:k + 8]:
        out.append(("past", second))  # a span that ended: *we were dating for two years* / *we've been dating ...*
    elif before in MODALS or before in BE_FORMS or first in MODALS or first in BE_FORMS and first not in (
            "am", "is", "are"):
        return
    elif first in ("am", "is", "are"):
        if second == "going" and len(rest) == 4 and rest[2] == "to":
            out.append(("future", rest[3]))
        elif second.endswith("ing") and second != "going" and len(second) > 4:
            out.append(("present", second))  # *we're having a baby in March* / *we had a baby in March*
    elif first == "used" and second == "to" and len(rest) > 2 and rest[2].isalpha():
        out.append(("past", rest[2]))  # a habit that ended: *I used to smoke* / *I smoke*
    elif first in ("have", "has", "ve") and second == "been" and len(rest) > 2 and rest[2].endswith("ing") \
            and len(rest[2]) > 4:
        out.append(("present", rest[2]))  # still going on: *we've been dating for two years* / *we were dating ...*
    elif first in _INVERTED:
        if second and second.isalpha() and second not in FUNCTION_WORDS and second != "to":
            out.append((_INVERTED[first], second))
        elif first in ("have", "has", "had") and second != "to":
            out.append(("", first))  # the verb itself: *we had a baby* / *we're having a baby*
    elif first not in FUNCTION_WORDS:
        out.append(("", first))


def _is_phatic(segment: str) -> bool:
    """``segment`` is a social formula: a greeting, thanks or apology word, and nothing but formula and
    function words."""
    typed = _TYPED_LETTERS.findall(segment)
    words = [w.casefold() for w in typed]
    # the name of whoever is greeted or signs off (*Many thanks, Marcus*, *Hi Anna*): a capitalised word past the first
    names = {k for k, w in enumerate(typed) if k > 0 and w[:1].isupper() and w[1:].islower()}
    return (any(w in PHATIC_CORE for w in words)  # (*I hope you don't mind me asking*: its *not* goes with it)
            and len(names) <= 2
            and all(w in PHATIC or w in FUNCTION_WORDS or w in RELATIONAL or w in NEGATIONS or k in names
                    for k, w in enumerate(words)))


_PHATIC_BREAK = re.compile(r",|\s[-\u2013\u2014]+\s")  # what ends a formula inside a sentence: a comma, a spaced dash


def _blank_phatic_ends(text: str) -> str:
    """``text`` with the sentences of :data:`PHATIC` formulas at its start and end blanked out (same
    length). A sentence after a colon is what the colon introduces (*translate: good morning*), and a
    text made only of formulas is kept whole."""
    segments = _segments(text)
    lo, hi = 0, len(segments)
    while lo < hi and _is_phatic(text[slice(*segments[lo])]):
        lo += 1
    if lo < hi:  # formulas before a comma or a dash in the first other sentence: *(Hi!) Sorry to bother you, but*,
        # *hey, quick question - tell me X*
        start = segments[lo][0]
        while (cut := _PHATIC_BREAK.search(text, start, segments[lo][1])) and _is_phatic(text[start:cut.start()]):
            start = cut.end()
        if start > segments[lo][0]:
            text = " " * start + text[start:]
            segments[lo] = (start, segments[lo][1])
    while (hi > lo + 1 and _is_phatic(text[slice(*segments[hi - 1])])
           and not (text[segments[hi - 2][1] - 1] == ":" and segments[hi - 1][0] - segments[hi - 2][1] <= 2)):
        hi -= 1  # (a blanked code span between a colon and the formula: the colon introduced the code)
    if lo < hi:  # thanks after a comma or a dash that ends the last sentence: *Write a haiku, thanks in advance!*
        start, end = segments[hi - 1]
        cuts = list(_PHATIC_BREAK.finditer(text, start, end))
        if cuts and _is_phatic(text[cuts[-1].end():end]) and not _is_phatic(text[start:cuts[-1].start()]) \
                and ":" not in text[:cuts[-1].start()]:  # (after a colon it is material: *translate: X, good morning*)
            text = text[:cuts[-1].start()] + " " * (end - cuts[-1].start()) + text[end:]
    for k in range(lo + 1, hi - 1):  # a formula that introduces the next sentence inside the text: *My exam is
        # tomorrow. Quick question: what is X?* (not one that a colon introduces: that is material)
        start, end = segments[k]
        if text[end - 1] == ":" and text[segments[k - 1][1] - 1] != ":" and _is_phatic(text[start:end]):
            text = text[:start] + " " * (end - start) + text[end:]
    if lo == hi or (lo == 0 and hi == len(segments)):
        return text
    start, end = segments[lo][0], segments[hi - 1][1]
    return " " * start + text[start:end] + " " * (len(text) - end)


def _is_minus(matches: list[re.Match[str]], k: int) -> bool:
    """A dash between two short operands (*x - y*, *n-1*) is a minus, not punctuation."""
    if matches[k].group(0) not in ("-", "\u2212", "\u2013") or not 0 < k < len(matches) - 1:
        return False
    return all(len(matches[j].group(0)) <= 2 and matches[j].group(0).isalnum() for j in (k - 1, k + 1))


def _operand_of(matches: list[re.Match[str]], op: int, k: int) -> bool:
    """Whether the operator token ``op`` takes its neighbour ``k`` as an operand: not where a space parts them and
    the operator is glued to the token on its other side, whose prefix or suffix it is (*the regex ^\\d+*, *does
    =SUM(A1)*, *at 9% for*)."""
    other = op + (op - k)
    if not 0 <= other < len(matches):
        return True
    spaced = matches[max(op, k)].start() > matches[min(op, k)].end()
    glued = matches[max(op, other)].start() == matches[min(op, other)].end()
    return not (spaced and glued)


def _is_participle(word: str) -> bool:
    return (len(word) > 3 and word.endswith(("ed", "en", "wn"))) or word in IRREGULAR_PARTICIPLES


def _modifies_verb(word: str) -> bool:
    """A word that may stand between *be* and its participle: *not*, or an adverb in *-ly*."""
    low = word.casefold()
    return low == "not" or (len(low) > 4 and low.endswith("ly"))


def _sentence_start(text: str, at: int) -> bool:
    """Whether position ``at`` opens a sentence: only spaces, or the end of one, before it."""
    i = at - 1
    while i >= 0 and text[i].isspace():  # (not ``text[:at].rstrip()``: that copies the text before ``at``)
        i -= 1
    return i < 0 or text[i] in ".!?:\n"


MAX_LIST_ITEMS = 12  # items before the last that a list may have (each search for one reads a bounded stretch)
# a coordinated list of three or more short items (*of A, B and C*, *: A, B or C*) after a preposition that takes a
# set of things or after a colon: (the word before it, the list). Not after *from*, *to*, *into* or *than*, whose
# order is a direction or a comparison.
_LIST_ITEM = r"[^\W\d_][\w'-]*(?:[ \t]+[^\W\d_][\w'-]*){0,2}"
_COORDINATED_LIST = re.compile(
    r"(\b(?:of|between|among|about|for|with|like|including|in|on)\s+|:\s*)"
    r"(" + _LIST_ITEM + r"(?:\s*,\s*" + _LIST_ITEM + r"){1," + str(MAX_LIST_ITEMS) + r"}\s*,?\s+(?:and|or)\s+" + _LIST_ITEM + r")",
    re.I)
_LIST_SPLIT = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+", re.I)
_LIST_ARTICLES = frozenset({"the", "a", "an"})
_NOT_LIST_WORDS = FUNCTION_WORDS | RELATIONAL | NEGATIONS | QUESTION_WORDS.keys()


def _sort_lists(text: str) -> tuple[str, tuple[tuple[str, ...], ...]]:
    """``text`` with the items of its coordinated lists (:data:`_COORDINATED_LIST`) in alphabetical order (*of stocks,
    bonds and funds* = *of funds, bonds and stocks*: the same set), and those lists' items, case-folded. A list is
    read where every item is a short name of a thing: words that are no function, relational or negation word (an
    article may open it); what follows the last item's first such word stays after the list (*of A, B and C in
    2020*)."""
    found: list[tuple[str, ...]] = []

    def sort(m: re.Match[str]) -> str:
        head, body = m.group(1), m.group(2)
        conjunction = "or" if re.search(r"\bor\s+\S+[^,]*$", body, re.I) else "and"
        items = _LIST_SPLIT.split(body)
        last = items[-1].split()
        cut = next((k for k, w in enumerate(last) if k and w.casefold() in _NOT_LIST_WORDS), len(last))
        items[-1], rest = " ".join(last[:cut]), " ".join(last[cut:])
        for item in items:
            words = [w.casefold() for w in item.split()]
            if words and words[0] in _LIST_ARTICLES:
                words = words[1:]
            if not words or any(w in _NOT_LIST_WORDS for w in words):
                return m.group(0)
        ordered = sorted(items, key=str.casefold)
        found.append(tuple(item.casefold() for item in ordered))
        return head + ", ".join(ordered[:-1]) + f" {conjunction} " + ordered[-1] + (" " + rest if rest else "")

    return _outside_spans(text, [(_COORDINATED_LIST, sort, None)]), tuple(found)


_OPENER_RUN = DISCOURSE_OPENERS | INTERJECTIONS
# interjections opening a sentence before its clause (*ok so is X a Y?*, *hmm, what is X?*): blanked. Not before
# other words: *Ok to eat raw eggs?* asks whether it is okay.
_INTERJECTION_RUN = re.compile(
    r"((?:^|[.!?:\n])\s*)((?:(?:" + "|".join(sorted(INTERJECTIONS)) + r")\b[\s,]*)+)"
    r"(?=(?:" + "|".join(sorted(QUESTION_LEADS | QUESTION_WORDS.keys() | SUBJECT_PRONOUNS | DISCOURSE_OPENERS
                               | REQUEST_VERBS)) + r")\b|[-\u2013\u2014])", re.I)
OPENER_WORDS = 4  # words an opening phrase before a comma may have (*In general, is X a Y?*)


def _clause_start(text: str, at: int) -> bool:
    """Whether position ``at`` opens a sentence or its main clause: after words of :data:`DISCOURSE_OPENERS` and
    :data:`INTERJECTIONS` (*So is X a Y?*, *ok so is X a Y?*) or a short opening phrase and a comma (*In general, is
    every X a Y?*, *Honestly, are X Y?*: at most :data:`OPENER_WORDS` words, with no comma of their own, between the
    sentence's start and that comma)."""
    if _sentence_start(text, at):
        return True
    i = at - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    if i < 0:
        return False
    if text[i] != ",":  # a run of discourse words and interjections from the sentence's start (*ok so is X a Y?*)
        end = i
        while True:
            start = end
            while start >= 0 and text[start].isalpha():
                start -= 1
            if text[start + 1:end + 1].casefold() not in _OPENER_RUN:
                return False
            if _sentence_start(text, start + 1):
                return True
            end = start
            while end >= 0 and (text[end].isspace() or text[end] == ","):
                end -= 1
            if end < 0:
                return False
    j = i - 1
    while j >= 0 and text[j] not in ".!?:\n,":
        j -= 1
    return (j < 0 or text[j] != ",") and 0 < len(text[j + 1:i].split()) <= OPENER_WORDS


MIN_LINES = 3
_LIST_MARKER = re.compile(r"^\s*(?:\d{1,3}[.)]|[-*\u2022>]|\[[ xX]\])\s+")


# a markdown quote's mark at a line's start (*> text*), and a line that is only a rule (*---*, ****, *___*)
_QUOTE_MARKS = re.compile(r"^[ \t]*>[ \t]?", re.M)
_RULES = re.compile(r"^[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*$", re.M)


def _unquoted(text: str) -> str:
    """``text`` without the marks of :data:`_QUOTE_MARKS` and the rules of :data:`_RULES`, outside fenced blocks."""
    out, last = [], 0
    for m in _FENCED.finditer(text):
        out += [_QUOTE_MARKS.sub("", _RULES.sub("", text[last:m.start()])), m.group(0)]
        last = m.end()
    return "".join(out) + _QUOTE_MARKS.sub("", _RULES.sub("", text[last:]))


# (a label may end the line of a sentence before it: *Why won't my app start? Here's the log:*, *Snippet below.* before a
# fence)
_LABEL = re.compile(r"(?:^[ \t]*|(?<=[.!?])[ \t]+)((?:[\w'-]+[ \t]+){0,4}[\w'-]+)[ \t]*([:.])[ \t]*\n(?=[ \t]*(\S{0,3}))",
                    re.M)
_POINTERS = frozenset("here below above attached following follows as".split())


def _unlabelled(text: str) -> str:
    """``text`` without the lines that only label the material after them: at most five words before a colon that
    ends the line, and either only pointing words (*Here it is:*, *As follows:*) or a name for the fenced block right
    after it (*Email below:*, *Here's the excerpt:*, *The script:*), never a request's verb (*Translate this:* asks
    something), a negation or a question word. (A label before lines of prose may be their meaning: *Pros:* /
    *Cons:*.)"""
    def drop(m: re.Match[str]) -> str:
        words = m.group(1).casefold().replace("'", " ").split()
        if any(w in REQUEST_VERBS or w in NEGATIONS or w in QUESTION_WORDS for w in words):
            return m.group(0)
        fence = m.group(3).startswith(("```", "~~~"))
        if m.group(2) == "." and not (fence and any(w in _POINTERS for w in words)):
            return m.group(0)  # (a sentence with a full stop labels only a fenced block it points to: *Snippet below.*)
        pointing = all(w in FUNCTION_WORDS or w in _POINTERS for w in words)
        return "\n" if pointing or fence else m.group(0)
    return _LABEL.sub(drop, text)


def _lines(text: str) -> tuple[str, ...]:
    """:attr:`TextFeatures.lines` of ``text``."""
    if text.count("\n") < MIN_LINES - 1:
        return ()
    out = [_SPACES.sub(" ", _LIST_MARKER.sub("", line)).casefold().strip(_EDGE_PUNCT) for line in text.split("\n")]
    out = [line for line in out if any(ch.isalpha() for ch in line)]
    return tuple(out) if len(out) >= MIN_LINES else ()


def _code_block(fenced: str) -> str:
    """A fenced block as compared: its fences (backticks or tildes) and language tag dropped, blank lines and trailing spaces too, runs
    of spaces inside a line made one, but each line's indentation kept (tabs as four spaces): in Python or YAML
    it is meaning."""
    lines = fenced.strip("`~").split("\n")
    if len(lines) > 1 and re.fullmatch(r"[\w+#.-]{1,20}", lines[0].strip()):
        lines = lines[1:]  # the language tag (*```python*): how the block is shown, not what it holds
    out = []
    for line in lines:
        body = line.strip()
        if body:
            indent = len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())
            out.append(" " * indent + _SPACES.sub(" ", body))
    return "\n".join(out)


def _unshouted(text: str) -> str:
    """A text typed all in capitals, its prose lower-cased (code and quotes kept as typed): *IM A JUNIOR DEVELOPER*
    asks what *I'm a junior developer* asks, and none of its capitals marks a name, an acronym or a variable."""
    out, last = [], 0
    for m in _SHOUT_KEPT.finditer(text):
        out += [text[last:m.start()].lower(), m.group(0)]
        last = m.end()
    return "".join(out) + text[last:].lower()


def extract_features(text: str) -> TextFeatures:
    """Split ``text`` into the parts :func:`verify` compares."""
    text = unicodedata.normalize("NFKC", text).strip()  # whitespace around a prompt never changes what it asks
    original = text
    mixed_case = any(ch.islower() for ch in text)  # (a text all in capitals shouts; its grammar words are words)
    if not mixed_case:
        text = _unshouted(text)
    text = text.replace("\u2018", "'").replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    if "\n" in text:
        text = _unlabelled(_unquoted(text))  # *> quoted* lines, *---* rules and *Email below:*: how material is set off
    text = MANNER_PHRASE.sub(lambda m: m.group(1), _strip_request_frames(_rewrite(text)))
    lists: tuple[tuple[str, ...], ...] = ()
    if "," in text:
        text, lists = _sort_lists(text)
    positioned: list[tuple[int, str]] = []  # (position, exact token)

    def cut(pattern: re.Pattern[str], kind: str, value) -> None:
        # each span is blanked out (same length), so later positions stay comparable
        nonlocal text
        out, last = [], 0
        for m in pattern.finditer(text):
            positioned.append((m.start(), f"{kind}:{value(m)}"))
            out.append(text[last:m.start()] + " " * (m.end() - m.start()))
            last = m.end()
        text = "".join(out) + text[last:]

    cut(_FENCED, "code", lambda m: _code_block(m.group(0)))
    cut(_INLINE_CODE, "code", lambda m: _SPACES.sub(" ", m.group(0).strip("`")).strip())
    cut(_URL, "url", lambda m: m.group(0).rstrip(".,;:!?)").casefold())
    cut(_QUOTED, "quote", lambda m: m.group(1) if m.group(1) is not None else m.group(2))
    spans = list(positioned)  # the verbatim spans, tokens of the clauses
    text = _blank_phatic_ends(text)
    text = _INTERJECTION_RUN.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)
    # the spans cut so far are also words of the sequence, where their order is the role check's
    placed: list[tuple[int, tuple[str, str]]] = [(at, ("w", token)) for at, token in positioned]
    pictographs = tuple(sorted(ch for ch in _PICTOGRAPHS.findall(text) if ch not in "\u200d\ufe0f"))
    text = _PICTOGRAPHS.sub(" ", text)
    text = _EMOTICON.sub(lambda m: " " * len(m.group(0)), text)
    text = _PRONOUN_ONE.sub(lambda m: m.group(0)[: m.start(m.lastindex) - m.start()] + "   ", text)

    negations = 0
    questions: set[str] = set()
    names: set[str] = set()
    passive: set[str] = set()
    agented: set[str] = set()
    persons: list[tuple[int, tuple[str, str]]] = []  # personal pronouns, for ``with_persons``
    bound: set[tuple[str, str]] = set()
    since_be, be_opens = 99, False  # tokens since the last form of *be*; whether it opened its sentence
    copula_at, copula_end = -1, -1  # where the question's copula and its clause end (-1: none yet)
    matches = list(_TOKEN.finditer(text))
    tokens = [m.group(0) for m in matches]
    lows = [raw.casefold() for raw in tokens]
    shows_code = _shows_code(text)
    # which tokens are operators (read for the neighbours of a word that may be an operand; a word or number is none)
    operator = [not raw.isalnum() and (not _OPERATOR_CHARS.isdisjoint(raw) or _is_minus(matches, k))
                for k, raw in enumerate(tokens)]
    last = len(matches) - 1

    for k, m in enumerate(matches):
        raw, low = tokens[k], lows[k]
        # a letter right after a backslash is an escape (*\\s+*), whatever the tokens around it
        escaped = k > 0 and tokens[k - 1].endswith("\\") and matches[k - 1].end() == m.start()
        if low in BE_FORMS:
            since_be = 0
            # a question opens with *be* (after a short opening phrase, maybe) and its subject comes next (*are children
            # ...*, *is the lexer called*, *in short, is X Y*)
            be_opens = _clause_start(text, m.start())
            if copula_at < 0 and (be_opens or (k > 0 and lows[k - 1] in QUESTION_WORDS)):
                copula_at = m.start()
            elif copula_at >= 0 and copula_end < 0:
                copula_end = m.start()
        else:
            since_be = 99 if low in SENTENCE_ENDS else since_be + 1
            if copula_at >= 0 and copula_end < 0 and low[0] in SENTENCE_ENDS:
                copula_end = m.start()
        # (*stepped on by*, *looked after by*: a phrasal verb's particle before its agent)
        by_follows = k < last and (lows[k + 1] == "by" or (
            k + 1 < last and lows[k + 2] == "by" and lows[k + 1] in _PARTICLES))
        if _is_participle(low) and (
            (not be_opens and (since_be == 1 or (since_be == 2 and _modifies_verb(tokens[k - 1]))))
            # a question puts *be* before the subject: *is the lexer called by the parser*
            or (since_be < 99 and by_follows)
        ):
            passive.add(low)
            if by_follows:
                agented.add(low)
        version = _VERSION.fullmatch(raw)
        if version:
            positioned.append((m.start(), f"num:{_number(version.group(1))}"))
            placed.append((m.start(), ("w", "version")))
        elif raw[0].isdigit():
            positioned.append((m.start(), f"num:{_number(raw)}"))
            _bind(bound, f"num:{_number(raw)}", matches, k)
        elif not (raw[0].isalpha() or raw[0] == "_"):
            symbols = raw.rstrip(".,;!?")  # "]." ends a sentence after a bracket
            if symbols and (not SENTENCE_PUNCTUATION.match(symbols) or _is_minus(matches, k)):
                positioned.append((m.start(), f"sym:{symbols}"))
                placed.append((m.start(), ("r", f"sym:{symbols}")))  # a pivot: *`a` - `b`* / *`b` - `a`*
        elif ((k > 0 and operator[k - 1] and _operand_of(matches, k - 1, k))
              or (k < last and operator[k + 1] and _operand_of(matches, k + 1, k)) or "." in raw or "_" in raw or _CAMEL.search(raw) or (not raw.isalpha() and any(c.isdigit() for c in raw))
              or (len(raw) == 1 and raw.isupper() and raw != "I" and not _sentence_start(text, m.start()))
              or escaped or _CASED.fullmatch(raw)):
            # a command-line flag keeps its case: *-r* is not *-R*, *+x* not *+X*
            flag = k > 0 and tokens[k - 1][-1:] in "-+" and matches[k - 1].end() == m.start()
            word = raw if flag else _cased(raw, escaped)
            positioned.append((m.start(), f"id:{word}"))
            placed.append((m.start(), ("w", word)))  # also a word, whose role can change
        elif mixed_case and len(raw) > 1 and raw.isupper() and raw.isalpha() and low in _KEYWORD_LIKE \
                and not _sentence_start(text, m.start()):
            # a grammar word in capitals inside a sentence names a keyword (*is WHERE applied before GROUP BY*)
            placed.append((m.start(), ("w", low)))
            names.add(low)
        elif low in NUMBER_WORDS:
            positioned.append((m.start(), f"num:{_number(str(NUMBER_WORDS[low]))}"))
            _bind(bound, f"num:{_number(str(NUMBER_WORDS[low]))}", matches, k)
        elif low in NEGATIONS:
            # a sentence-opening "No," answers; it does not negate what follows
            interjection = low == "no" and _sentence_start(text, m.start()) and text[m.end():m.end() + 1] == ","
            negations += not interjection
        elif low in QUESTION_WORDS and not (shows_code and raw.isupper() and len(raw) > 2):
            questions.add(QUESTION_WORDS[low])  # (a capital *WHERE* among code is SQL's keyword)
        elif low in ("many", "much") and k > 0 and lows[k - 1] == "how":
            questions.add("how much")  # *how many calories* asks what *calories in X* asks, not what *how* asks
        elif low == "s" and _is_possessive(text, matches, k):
            placed.append((m.start(), ("r", POSSESSIVE)))
        elif low in RELATIONAL:
            placed.append((m.start(), ("r", TOPIC_RELATIONS.get(low, low))))
        elif low in PERSONS:
            persons.append((m.start(), ("w", f"person:{PERSONS[low]}")))
        elif (low in MODAL_ADJECTIVES or low in JUDGING_ADJECTIVES) and k > 0 and lows[k - 1] == "it" \
                and k + 1 < len(lows) and lows[k + 1] in ("to", "for"):
            pass  # *is it possible to X*, *is it better to X*: a modality (caches.modality compares it), no topic
        elif low not in FUNCTION_WORDS:
            if _ACRONYM_PLURAL.fullmatch(raw):
                low = low[:-1]  # *APIs* is the plural of *API* (not *HTTPS* of *HTTP*)
            placed.append((m.start(), ("w", low)))
            if raw[0].isupper() and (raw.isupper() or not _sentence_start(text, m.start())):
                names.add(low)
    positioned.sort(key=lambda item: item[0])
    placed.sort(key=lambda item: item[0])
    sequence = [entry for _, entry in placed]
    # (a sentence's start is marked, for the role check sentence by sentence: *X is lending me ... for me?*)
    with_persons: tuple[tuple[str, str], ...] = ()
    starts = [(start, ("s", "")) for start, _ in _segments(text)[1:]] if len(placed) > 1 else []
    placed_at = [at for at, _ in placed]
    sentence_starts = tuple(bisect.bisect_left(placed_at, start) for start, _ in starts)
    if persons:
        ordered = sorted(placed + persons + starts, key=lambda item: (item[0], item[1][0] != "s"))  # mark, then word
        with_persons = tuple(entry for _, entry in ordered)
    copula: list[str] = []
    for at, (kind, word) in placed if copula_at >= 0 else ():
        if at <= copula_at:
            continue
        if kind != "w" or 0 <= copula_end <= at:
            break
        copula.append(word)
    prose = normalise(text)  # code, quotes and URLs are in ``exact``
    clauses, material = split_clauses(matches, tokens, lows, spans)
    condition = condition_words(matches, tokens, lows, placed)
    exact = tuple(token for _, token in positioned)
    words = lows
    return TextFeatures(
        normalised=prose,
        identity=_identity(prose, exact, pictographs),
        exact=exact,
        negations=negations,
        questions=frozenset(questions),
        sequence=tuple(sequence),
        names=frozenset(names),
        passive=frozenset(passive),
        agented=frozenset(agented),
        pictographs=pictographs,
        copula=tuple(copula),
        asks_about=_asks_about(words),
        with_persons=with_persons,
        sentence_starts=sentence_starts,
        lists=lists,
        bound=frozenset(bound),
        **_tense_and_modality(words),
        finite=_finite_verbs(words),
        clauses=clauses,
        material=material,
        condition=condition,
        lines=_lines(original),
        text=original,
    )

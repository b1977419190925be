"""Verification of semantic-cache candidates by structure: does the cached question ask the same
thing as the query?

Sentence embeddings are good at "same topic" and poor at "same question": ``x += 1`` and
``x -= 1``, *Lyon to Oslo* and *Oslo to Lyon*, *in one sentence* and *in one paragraph* embed
almost alike. :func:`verify` therefore compares the two texts' structure, never a list of topic
words:

1. **Identical after normalisation** (Unicode NFKC, case, whitespace, surrounding punctuation):
   accepted at once, so case-only and whitespace-only changes always hit.
2. **Exact spans** must be equal: numbers (digits and number words, thousands separators removed,
   *percent* as ``%``, *v2.1* as *version* 2.1) and operators and other symbols in order, as the
   skeleton of a formula; code (back-quoted or fenced), quoted strings, URLs and e-mail addresses
   as multisets; identifiers (``snake_case``, ``camelCase``, ``dotted.names``, words with digits,
   operands of an operator) as a set. Code and quoted strings keep their case. Emoji are
   decoration; *one* before a modal (*one can*) is a pronoun, not a number.
3. **Negation**: the number of negation markers (*not*, *no*, *never*, *without*, *n't*, ...) must
   be equal.
4. **Content words** (everything but a closed class of function words: articles, pronouns,
   auxiliaries, politeness and request forms): any word one text adds, drops or replaces changes
   the request, which covers answer constraints (format, length, language, audience, tone) as well
   as topics, unless the replacement is a synonym in WordNet (:mod:`caches.lexicon`: one of the
   first senses of each word is shared and the two are not antonyms) or another form of the same
   lemma. Antonyms are never synonyms, whatever the words: the test is WordNet's, not a list here.
5. **Relations**: a relational word (preposition, comparison, conjunction) replaced by another
   (*to*/*from*, *and*/*or*) rejects; one merely dropped by a rewording (*module in Python* /
   *Python's module*) does not. Question words must agree (*why* is not *how*; *what* = *which*)
   unless the question is reworded beyond one slot (*what is the population of* / *how many
   people live in*). Hyphenated compounds are one word (*well-known*).
6. **Roles**: two content words that trade places around a shared pivot word (*A beats B* / *B
   beats A*, *from A to B* / *from B to A*) ask a different question; a word moved without
   crossing a pivot (*the largest park* / *the park ... is the largest*) does not. Code, quoted
   strings and URLs take part as words, and between two of them every shared word, symbols and
   *and*/*with* included, is a pivot (*replace "a" with "b"* / *replace "b" with "a"*).

7. **Lists and steps**: the items of a coordinated list of things (*the capitals of A, B and C*) may come in any
   order, and an item changed is a changed request; steps (runs of words opening with a verb's base form, in one
   sentence) in another order are another procedure (*preheat the oven, mix the batter* / *mix ..., preheat ...*).

The features compared are extracted by :mod:`caches.text_features`; clause order, conditions and material after a
colon are compared by :mod:`caches.clause_checks`, typing slips by :mod:`caches.slips`. All checks are symmetric and
conservative: a rejected paraphrase only costs an upstream call.
Work is linear in the texts' length (the role check looks at most at :data:`MAX_ROLE_WORDS` words).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from caches.clause_checks import (
    actor_changed,
    animate,
    clauses_reordered,
    condition_moved,
    instructions_reordered,
    material_reordered,
    narration_reordered,
    sentences_moved,
    sentences_reordered,
    sequenced_sentences_moved,
)
from caches.english import (
    BE_FORMS,
    FUNCTION_WORDS,
    PERSONS,
    POSSESSIVE_PRONOUNS,
    QUESTION_LEADS,
    QUESTION_WORDS,
    RELATIONAL,
    REQUEST_VERBS,
    SIMPLE_PASTS,
    STANCE_VERBS,
)
from caches.lexicon import Lexicon, default_lexicon
from caches.modality import asks_or_tells_of_the_asker, modality_changed
from caches.phrasal import match_phrasal
from caches.slips import MAX_SUBSTITUTION_PAIRS, match_abbreviations, match_typos, misspelt_function_words
from caches.subjects import person_against_thing, possessor, subjects_changed
from caches.text_features import TextFeatures, extract_features

__all__ = ["DROPPED_WORDS", "VerifyResult", "identity_key", "structure_key", "unmarked_reading", "verify"]

MAX_ROLE_WORDS = 64
_SPAN_KINDS = ("code:", "quote:", "url:")  # verbatim spans: words of the sequence with these prefixes
# operators whose operands keep their places in a formula (a slash is left out: *Pacific/Fakaofo* names a zone)
_OPERATORS = frozenset(f"sym:{op}" for op in "^ ** + - * < > <= >= == != % // -> =".split())
MAX_DIFF_WORDS = 256  # sequence entries of two texts diffed as a whole (difflib is quadratic on repeats)
SLOT_EDITS = 2
SLOT_WORDS = 3
ONE_SLOT_WORDS = 6  # the words a side of a changed slot when it is the only change
ADDED_CLAUSE_WORDS = 2  # content words inserted in one place that add a requirement
# relational words that cannot mark roles (symmetric: *A and B* = *B and A*)
_SYMMETRIC = frozenset("and or with between".split())
# a question word and the noun kind it asks for: *when* = *what year*, *where* = *which city*;
# the kinds are WordNet's own top categories, never a list of their members
_QUESTION_KINDS = {"when": ("time_period", "time_unit", "time"), "where": ("location",), "who": ("person",)}


@dataclass(frozen=True, slots=True)
class VerifyResult:
    """Outcome of :func:`verify`; ``reason`` names the first check that failed."""

    ok: bool
    reason: str | None = None
    # the same content words, up to synonyms and other forms of a lemma: only function words,
    # request frames, word order or the question's form differ (a hit may then score lower)
    close: bool = False


def _match_synonyms(only_a: list[str], only_b: list[str], lexicon: Lexicon | None) -> dict[str, str]:
    """Pair words of ``only_b`` with distinct synonyms (or other forms of the same lemma) in
    ``only_a``: ``{word of b: its partner in a}``, for the words that have one."""
    mapping: dict[str, str] = {}
    if lexicon is None or len(only_a) * len(only_b) > MAX_SUBSTITUTION_PAIRS:
        return mapping
    free = list(only_a)
    for word in only_b:
        partner = next((a for a in free if lexicon.synonyms(a, word)), None)
        if partner is not None:
            free.remove(partner)
            mapping[word] = partner
    return mapping


def _small_edit(a: list[tuple[str, str]], b: list[tuple[str, str]]) -> bool:
    """``b`` is ``a`` with at most :data:`SLOT_EDITS` short edits (each at most
    :data:`SLOT_WORDS` words a side) in an otherwise shared frame: one slot of the request changed
    (*in one sentence* / *in one paragraph*, *to a child* / *to a lawyer*, an added *in French*)."""
    mid_a, mid_b = a, b
    if len(a) + len(b) > MAX_DIFF_WORDS:
        # a long pair: the diff runs on what lies between the shared start and end, and a middle too long
        # to diff in bounded time counts as a changed slot (a refusal: the conservative answer)
        start = 0
        while start < min(len(a), len(b)) and a[start] == b[start]:
            start += 1
        end = 0
        while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
            end += 1
        mid_a, mid_b = a[start:len(a) - end], b[start:len(b) - end]
        if len(mid_a) + len(mid_b) > MAX_DIFF_WORDS:
            return True
    ops = [op for op in SequenceMatcher(None, mid_a, mid_b, autojunk=False).get_opcodes() if op[0] != "equal"]
    shared = len(a) - sum(i2 - i1 for _, i1, i2, _, _ in ops)
    # *in total* / *on average per day*; in a long shared frame, slots of a quarter of its length
    widest = max(ONE_SLOT_WORDS if len(ops) == 1 else SLOT_WORDS, shared // 4)
    return shared > 0 and len(ops) <= max(SLOT_EDITS, shared // 8) and all(
        max(i2 - i1, j2 - j1) <= widest for _, i1, i2, j1, j2 in ops
    )


def _added_clause(a: list[tuple[str, str]], b: list[tuple[str, str]], only_a: Counter, only_b: Counter) -> bool:
    """One text inserts, in one place, :data:`ADDED_CLAUSE_WORDS` or more content words the other lacks
    (*... and name a historian for each point*, *... and it must be free to host*)."""
    if len(a) + len(b) > MAX_DIFF_WORDS:
        return False
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "delete" and sum(1 for kind, w in a[i1:i2] if kind == "w" and w in only_a) >= ADDED_CLAUSE_WORDS:
            return True
        if op == "insert" and sum(1 for kind, w in b[j1:j2] if kind == "w" and w in only_b) >= ADDED_CLAUSE_WORDS:
            return True
    return False


def _only_verbs_between(seq: list[tuple[str, str]], i: int, j: int, verbs: set[str]) -> bool:
    """Every content word between positions ``i`` and ``j`` of ``seq`` is one of ``verbs``: the two words are that
    verb's own arguments (*A beats B*, *A is beaten by B*), not words of other clauses around it."""
    lo, hi = sorted((i, j))
    return all(text in verbs for kind, text in seq[lo + 1:hi] if kind == "w")


def _roles_swapped(a: list[tuple[str, str]], b: list[tuple[str, str]], among: frozenset[str] | None = None,
                   voice: frozenset[str] = frozenset(), agented: frozenset[str] = frozenset()) -> bool:
    """Two content words (of ``among``, if given) that occur once in each sequence trade places
    around a shared pivot: a content word, or a relational word that is not symmetric (*and*,
    *or*, *with*, *between*. Around a pivot in ``voice`` (a verb active in one text and passive in
    the other) it is the other way round: the voice turns the sentence, so its arguments must trade
    places (*A beats B* / *B is beaten by A*), and where the passive names its agent (``agented``:
    *by B*), two words that keep their order swapped roles (*A is beaten by B*)."""
    words_a = [text for kind, text in a if kind == "w"]
    words_b = [text for kind, text in b if kind == "w"]
    count_a, count_b = Counter(words_a), Counter(words_b)
    single = [w for w in words_a if count_a[w] == 1 and count_b[w] == 1
              and (among is None or w in among or w.startswith(_SPAN_KINDS))]
    single = single[:MAX_ROLE_WORDS]
    pos_a = {text: i for i, (kind, text) in enumerate(a) if kind == "w" and text in count_b}
    pos_b = {text: i for i, (kind, text) in enumerate(b) if kind == "w" and text in count_a}

    def pivots(seq: list[tuple[str, str]], lo: int, hi: int, strict: bool) -> set[tuple[str, str]]:
        # between two verbatim spans every shared word is a pivot: *replace "a" with "b"*; a possessive pronoun is
        # a determiner, no pivot (*my terrier was bitten by my neighbour's cat*)
        return {(kind, text) for kind, text in seq[lo + 1:hi] if (strict or kind == "w" or text not in _SYMMETRIC)
                and not (text.startswith("person:") and text.endswith("'s"))}

    for i, u in enumerate(single):
        for v in single[i + 1:]:
            same_order = (pos_a[u] < pos_a[v]) == (pos_b[u] < pos_b[v])
            if same_order and not agented:
                continue
            strict = u.startswith(_SPAN_KINDS) or v.startswith(_SPAN_KINDS)
            shared = pivots(a, *sorted((pos_a[u], pos_a[v])), strict) & pivots(b, *sorted((pos_b[u], pos_b[v])), strict)
            turned = {text for _, text in shared if text in voice}
            if same_order and turned & agented and _only_verbs_between(a, pos_a[u], pos_a[v], turned) \
                    and _only_verbs_between(b, pos_b[u], pos_b[v], turned):
                return True  # *A beats B* / *A is beaten by B*: the voice changed and the words did not move
            if not same_order and shared and len(turned) < len(shared):
                return True  # a swap around a pivot that is not a verb whose voice changed
    return False


def verify(
    query: str | TextFeatures,
    candidate: str | TextFeatures,
    *,
    lexicon: Lexicon | None = None,
) -> VerifyResult:
    """Check that ``candidate`` (a cached question) asks the same thing as ``query``.

    Either argument may be pre-extracted :class:`TextFeatures`. ``lexicon``: the WordNet reader
    (default: the installed one; without it every replaced word is a different meaning)."""
    q = query if isinstance(query, TextFeatures) else extract_features(query)
    c = candidate if isinstance(candidate, TextFeatures) else extract_features(candidate)
    if q.identity == c.identity:
        return VerifyResult(True, close=True)  # only case, spacing or the order of sentences changed
    # (whole sentences that moved trade their names only because they moved: the sentence checks below judge them)
    moved_sentences = sentences_moved(q, c)
    if moved_sentences is None and _names_traded(q.sequence, c.sequence):
        return VerifyResult(False, "roles swapped")  # *Julia owes Kenji ... Kenji keeps ...* / *Kenji owes Julia ...*
    if _instruction_moved(q, c):
        return VerifyResult(True, close=True)  # *Summarize this:\n<email>* / *<email>\nSummarize this.*
    if _lines_reordered(q.lines, c.lines):
        return VerifyResult(False, "step order")  # a list, steps or a log in another order
    lex = lexicon if lexicon is not None else default_lexicon()
    if lex is not None and (_pronoun_named(q, c, lex) or _pronoun_named(c, q, lex)):
        return VerifyResult(True, close=True)  # *My aunt Chloe called. She wants $900.* / *... Chloe wants $900.*
    if lex is not None and narration_reordered(q, c, lex):
        return VerifyResult(False, "event order")  # *I ate breakfast. I took my pill.* / *I took my pill. I ate ...*
    if lex is not None and actor_changed(q, c, lex):
        return VerifyResult(False, "roles swapped")  # *I cancelled my flight* / *You cancelled my flight*
    if sequenced_sentences_moved(moved_sentences):
        return VerifyResult(False, "step order")  # *I eat lunch. Then I take my pill.* / *Then I take my pill. I eat lunch.*
    if lex is not None and instructions_reordered(q, c, moved_sentences, lex):
        return VerifyResult(False, "step order")  # *Sort the list. Reverse it.* / *Reverse it. Sort the list.*
    moved = sentences_reordered(q, c, lex)  # *I'm 35. I run 20 km a week. How ...* / *I run 20 km a week. I'm 35. ...*
    if moved is not None:
        return VerifyResult(True, close=True) if moved else VerifyResult(False, "roles swapped")
    alone = _one_sentence_changed(q, c)
    if alone is not None and lex is not None and _no_word_in_common(*alone, lex):
        return VerifyResult(False, "changed words")  # the same context, a question on another topic
    if lex is not None and _condition_replaced(q, c, lex):
        return VerifyResult(False, "changed words")  # *locked because I typed the wrong password* / *because someone else ...*
    if (_exact_key(_named_as_words(q, c)) != _exact_key(_named_as_words(c, q)) and not _numbers_moved_with_their_units(q, c)) or (
        q.pictographs and c.pictographs and q.pictographs != c.pictographs
    ):
        unmarked = _code_marked_alike(q, c)
        if unmarked is not None:  # *What does `chmod +x deploy.sh` do?* / *What does chmod +x deploy.sh do?*
            return verify(*unmarked, lexicon=lexicon)
        return VerifyResult(False, "exact spans")
    if q.lists and c.lists and q.lists != c.lists:
        return VerifyResult(False, "changed words")  # a list's item changed (their order is read as the same)
    reordered = clauses_reordered(q, c)
    if reordered is not None:  # the same words, whole clauses moved: *In June, what is X?* / *What is X in June?*
        return VerifyResult(True, close=True) if reordered else VerifyResult(False, "roles swapped")
    if q.negations != c.negations:
        return VerifyResult(False, "negation")
    if _read_otherwise(_apportioned(q), _apportioned(c)):
        return VerifyResult(False, "quantity")  # *each of the rooms needs 3 gallons* / *the rooms need 3 gallons in total*
    if _read_otherwise(_scope(q), _scope(c)):
        return VerifyResult(False, "quantity")  # *install it for all users* / *install it for my user only*
    if q.tense and c.tense and q.tense != c.tense:
        return VerifyResult(False, "tense")  # *what currency is used* / *was used*
    if not (_asks_a_way(q) and _asks_a_way(c)):  # a *how* question asks for a way either way (not *how much*)
        if q.modality and c.modality and q.modality != c.modality:
            return VerifyResult(False, "modality")  # *can I* / *should I*
        if _possible_against_future(q, c) or _possible_against_future(c, q):
            return VerifyResult(False, "modality")  # *will it rain tomorrow* / *could it rain tomorrow*
    if modality_changed(q, c, lex):
        return VerifyResult(False, "modality")  # *do I pay* / *should I pay*; *my package may have been* / *was*
    if lex is not None:
        q, c = _fold_question_kind(q, c, lex)
        q, c = _fold_how_adjective(q, c, lex)
        q, c = _drop_redundant_heads(q, c, lex), _drop_redundant_heads(c, q, lex)
        q, c = _unnamed_agent_dropped(q, c, lex), _unnamed_agent_dropped(c, q, lex)
    questions_differ = bool(q.questions and c.questions and q.questions != c.questions)
    words_q, words_c = Counter(q.content), Counter(c.content)
    only_q = list((words_q - words_c).elements())
    only_c = list((words_c - words_q).elements())
    only_q, only_c = _hyphens_spelt_apart(only_q, only_c, tuple(c.tokens))
    only_c, only_q = _hyphens_spelt_apart(only_c, only_q, tuple(q.tokens))
    # a name is itself (*HTTP* is not *HTTPS*, though WordNet reads one as the other's plural)
    names = q.names | c.names
    mapping = _match_synonyms([w for w in only_q if w not in names], [w for w in only_c if w not in names], lex) \
        if only_q and only_c else {}
    if lex is not None and only_q and only_c:  # *find out who* / *learn who*, *switch off* / *turn off*
        mapping.update(match_phrasal(q.tokens, c.tokens, [w for w in only_q if w not in names and w not in mapping.values()],
                                     [w for w in only_c if w not in names and w not in mapping], lex))
    clipped: dict[str, str] = {}  # words read as clipped spellings: a guess, never a close reading
    if lex is not None and words_q & words_c:  # (with a word in common, so the candidate gate's rule holds)
        mapping.update(match_typos([w for w in only_q if w not in mapping.values() and w not in names],
                                    [w for w in only_c if w not in mapping and w not in names], lex))
        clipped = match_abbreviations([w for w in only_q if w not in mapping.values() and w not in names],
                                      [w for w in only_c if w not in mapping and w not in names], lex)
        mapping.update(clipped)
        q, c = (_without_words(q, misspelt_function_words(q, [w for w in only_q if w not in mapping.values()], names, lex, c)),
                _without_words(c, misspelt_function_words(c, [w for w in only_c if w not in mapping], names, lex, q)))
        only_q = [w for w in only_q if w in q.content]
        only_c = [w for w in only_c if w in c.content]
    if lex is not None and any(_simple_past_changed(q, a, c, b, lex) for b, a in mapping.items()):
        return VerifyResult(False, "tense")  # *I just ate* / *I want to eat*
    if lex is not None and any(_degree_changed(a, b, lex) for b, a in mapping.items()):
        return VerifyResult(False, "degree")  # *a cheap laptop* / *the cheapest laptop*; *good* / *best*
    if lex is not None and _number_changed(q, c, mapping, lex):
        return VerifyResult(False, "number")  # *the longest river* / *the longest rivers*
    if lex is not None and _statement_tense_changed(q, c, lex):
        return VerifyResult(False, "tense")  # *I lost my job* / *I will lose my job*
    if lex is not None and _state_tense_changed(q, c, lex):
        return VerifyResult(False, "tense")  # *my cat was sick. She's fine now* / *my cat is sick. She was fine*
    seq_c = _renamed(c.sequence, mapping)
    left_q = Counter(only_q) - Counter(mapping.values())
    left_c = [w for w in only_c if w not in mapping]
    converse = _converse_verbs(q, c, left_q, left_c, lex)  # *my brother lent me X* / *I borrowed X from my brother*
    if converse:
        mapping[converse[1]] = converse[0]
        seq_c = _renamed(c.sequence, mapping)
        left_q, left_c = Counter(), []
    if not left_q and not left_c:
        # the same content words (up to synonyms): a reordering, or relational words dropped
        rel_q, rel_c = Counter(q.relations), Counter(c.relations)
        if (rel_q - rel_c) and (rel_c - rel_q) and not (converse and set((rel_q - rel_c) + (rel_c - rel_q)) <= _MARKS):
            if _converse(q, c, seq_c, rel_q - rel_c, rel_c - rel_q):
                return VerifyResult(True)  # *was A born after B* / *was B born before A*
            return VerifyResult(False, "relation")
        if _alternative_dropped(rel_q - rel_c, rel_c, lex) or _alternative_dropped(rel_c - rel_q, rel_q, lex):
            return VerifyResult(False, "relation")  # *before or after breakfast* / *after breakfast*
        if questions_differ:  # the same words asked with another question word: why/how, who/when
            return VerifyResult(False, "question word")
        if lex is not None and _steps_reordered(q, c, mapping, lex):
            return VerifyResult(False, "step order")  # *preheat the oven, mix the batter* / *mix ..., preheat ...*
    elif _small_edit(list(q.sequence), seq_c):
        return VerifyResult(False, "question word" if questions_differ else "changed words")
    elif not (words_q & Counter(mapping.get(w, w) for w in c.content)):
        return VerifyResult(False, "changed words")  # no content word in common: another topic
    elif (not left_q or not left_c) and (_added_clause(list(q.sequence), seq_c, left_q, Counter(left_c))
                                         or (not left_q and len(left_c) >= ADDED_CLAUSE_WORDS and _terse(q))
                                         or (not left_c and sum(left_q.values()) >= ADDED_CLAUSE_WORDS and _terse(c))):
        # one text says all the other says, and more in one place: a requirement added, however long; or a query of
        # keywords that a question asks more of, wherever (*acetaminophen max dose* / *what happens if you take more
        # than the max dose of acetaminophen*)
        return VerifyResult(False, "added words")
    else:
        # a rewording: it may change words, but never into their opposites, and it keeps the names
        if (_terse(q) and len(left_c) >= sum(left_q.values()) + ADDED_CLAUSE_WORDS) or (
                _terse(c) and sum(left_q.values()) >= len(left_c) + ADDED_CLAUSE_WORDS):
            return VerifyResult(False, "added words")  # *pothos sunlight needs* / *why is my pothos turning yellow in ...*
        if lex is not None and any(lex.antonyms(x, y) for x in left_q for y in left_c):
            return VerifyResult(False, "antonym")
        if not _names_kept(q, c):
            return VerifyResult(False, "names")
        if questions_differ and not (q.questions & c.questions) and "what" not in q.questions | c.questions:
            return VerifyResult(False, "question word")  # reworded *who approves X* / *how do I request X*
    # roles: among all words when only the order changed; among names in a rewording
    roles_of = None if not left_q and not left_c else (q.names | c.names)
    # a verb passive in one text only turns the sentence around it: *X should include Y* / *Y should be
    # included in X*; its arguments trading places there is the voice, not a role swap
    voice = q.passive ^ frozenset(mapping.get(w, w) for w in c.passive)
    agented = voice & (q.agented | frozenset(mapping.get(w, w) for w in c.agented))
    if converse:  # a converse verb turns the sentence as the passive does (its sides were checked to trade places)
        voice = voice | {converse[0]}
    # (with a converse verb, its two sides were checked to trade places, and the orders around it are its own)
    if ((not converse and _roles_swapped(list(q.sequence), seq_c, roles_of, voice, agented))
            or _copula_swapped(q, c, mapping)
            or (q.asks_about and c.asks_about and q.asks_about != c.asks_about)
            or (roles_of is None and not converse and _persons_swapped(q, c, mapping, voice, agented))
            or _numbers_rebound(q, c, mapping) or _agent_made_subject(q, c, mapping, agented)
            or (not converse and (_neighbours_swapped(q, c, mapping, voice) or _pairings_changed(q, c, mapping, voice)))
            or _sequence_swapped(q, c, seq_c)
            or condition_moved(q, c, mapping)
            or material_reordered(q, c) or (not voice and subjects_changed(q, c, mapping))
            or _possessions_changed(q, c, mapping, reworded=roles_of is not None)
            or (roles_of is None and (_third_persons_changed(q, c) or person_against_thing(q, c)
                                      or _ages_rebound(q, c)))):
        return VerifyResult(False, "roles swapped")
    return VerifyResult(True, close=roles_of is None and not clipped)


DROPPED_WORDS = 2
"""Content words :func:`verify` may set aside in the query before comparing words: one folded into
its question word (:func:`_fold_question_kind`) and one redundant head (:func:`_drop_redundant_heads`).
A query with more content words than this passes only a candidate that shares one of them, or a
synonym of one (see :meth:`caches.lexicon.Lexicon.synonym_keys`)."""


def identity_key(f: TextFeatures) -> tuple[object, ...]:
    """Two texts with equal identity keys pass :func:`verify` at once (case, spacing, sentence order)."""
    return (f.identity,)


def structure_key(f: TextFeatures) -> tuple[object, ...]:
    """What :func:`verify` requires equal of two texts whose identity keys differ: their exact spans, read with any code
    marks dropped (code in backticks and the same code typed plainly may pass), in any order (sentences and numbers
    may move), and the count of negations. A necessary condition only."""
    f = unmarked_reading(f)
    # (spans as a multiset and identifiers as a set, as verification compares them, less the identifiers of letters
    # alone, which the other text may type as a plain word)
    return (tuple(sorted(t for t in f.exact if not t.startswith("id:"))),
            tuple(sorted({t for t in f.exact if t.startswith("id:") and not t[3:].isalpha()})), f.negations)


def unmarked_reading(f: TextFeatures) -> TextFeatures:
    """``f``, or the features of its text with backticks and fence lines dropped when it has some: what the candidate
    gate keys on (:func:`structure_key` and the content words), since verification may accept code in backticks for the
    same code typed plainly."""
    if "`" in f.text or "~~~" in f.text:
        return extract_features(_BACKTICKED.sub(r"\1", _FENCE_LINE.sub("", f.text)))
    return f


_LIVING_PRONOUNS = frozenset("he him she her they them".split())
_NAMED_BY = frozenset("my our your his her their the".split())  # what opens a noun phrase a pronoun may stand for


def _pronoun_named(a: TextFeatures, b: TextFeatures, lex: Lexicon) -> bool:
    """``b`` is ``a`` with one pronoun replaced by the one earlier person, animal or thing it can stand for: *My aunt
    Chloe called me. She wants to borrow $900.* / *... Chloe wants to borrow $900.*; *How do we make her feel at
    home?* after *My mum is moving in*. The named one is said before the pronoun, and nothing else said before it
    could be meant (another person or animal for *he, she, they*; another thing for *it*)."""
    ta, tb = a.tokens, b.tokens
    if not ta or len(tb) <= len(ta) - 1 or len(tb) > len(ta) + 2:
        return False
    start = 0
    while start < len(ta) and start < len(tb) and ta[start] == tb[start]:
        start += 1
    if start == len(ta):
        return False
    pronoun, suffix = ta[start], ta[start + 1:]
    if pronoun not in _LIVING_PRONOUNS and pronoun != "it":
        return False
    size = len(tb) - len(ta) + 1
    named, rest = tb[start:start + size], tb[start + size:]
    if rest != suffix or not named or not all(w.isalpha() for w in named):
        return False
    head, prefix = named[-1], ta[:start]
    if len(named) > 1 and named[0] not in _NAMED_BY:
        return False
    at = next((k for k in range(len(prefix) - size + 1) if prefix[k:k + size] == named), None)
    if at is None:
        return False
    living = pronoun in _LIVING_PRONOUNS

    def alive(word: str) -> bool | None:
        return None if word in a.names or word in b.names else animate(word, lex)  # (a name may be either)

    if alive(head) is (not living):
        return False
    # no other candidate before the pronoun (words just before the named one are its title: *my aunt Chloe*)
    for k, word in enumerate(prefix):
        if at - 2 <= k < at + size or word in FUNCTION_WORDS or word in PERSONS or not word.isalpha():
            continue
        kind = alive(word)
        if (kind is True and living) or (kind is False and not living and word in a.content and pronoun == "it"):
            if word != head:
                return False
    return True


def _names_traded(a: tuple[tuple[str, str], ...], b: tuple[tuple[str, str], ...]) -> bool:
    """The same sequence with two words traded wherever either stands (*Julia owes Kenji $370 and Kenji keeps
    asking* / *Kenji owes Julia $370 and Julia keeps asking*), where the role check, which reads words said once,
    cannot see it; not when each trade is of two neighbours, or of two words with only symmetric relations between
    them (*A and B*, *between A and B*, *compare A with B*): a list or a symmetric pair in another order."""
    if len(a) != len(b) or a == b:
        return False
    differ = [k for k in range(len(a)) if a[k] != b[k]]
    traded = {a[k] for k in differ}
    if len(traded) != 2 or {b[k] for k in differ} != traded or any(a[k][0] != "w" for k in differ):
        return False
    x, y = sorted(traded)
    if any((a[k], b[k]) not in ((x, y), (y, x)) for k in differ):
        return False
    used: set[int] = set()
    for i in differ:  # each position with the next one it trades with
        if i in used:
            continue
        j = next((m for m in differ if m > i and m not in used and a[m] == b[i] and b[m] == a[i]), None)
        if j is None or any(kind == "w" or text not in _SYMMETRIC for kind, text in a[i + 1:j]):
            return True
        used.update((i, j))
    return False


def _instruction_moved(q: TextFeatures, c: TextFeatures) -> bool:
    """The same lines, one of them moved from the start to the end or back (an instruction put after the material it
    is about, or before it), and the same verbatim spans and numbers: the same request."""
    a, b = q.lines, c.lines
    if not a or len(a) != len(b) or a == b or Counter(a) != Counter(b):
        return False
    if b != a[1:] + a[:1] and b != a[-1:] + a[:-1]:
        return False
    return Counter(q.exact) == Counter(c.exact) and q.pictographs == c.pictographs


def _lines_reordered(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The same lines in another order, other than one block moved from the end to the start or back (an
    instruction put before or after the material it is about): the items of a list, the steps of a procedure or
    the lines of a log traded places."""
    if not a or len(a) != len(b) or a == b or Counter(a) != Counter(b):
        return False
    return not any(b == a[k:] + a[:k] for k in range(1, len(a)))


def _hyphens_spelt_apart(only_a: list[str], only_b: list[str], words_b: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """``only_a`` without its hyphenated words that the other text spells apart or closed up (*follow-up* / *follow up*
    / *followup*), and ``only_b`` without the parts of them it holds."""
    for word in [w for w in only_a if "-" in w.strip("-")]:
        parts = [part for part in word.split("-") if part]
        closed = "".join(parts)
        apart = any(list(words_b[i:i + len(parts)]) == parts for i in range(len(words_b) - len(parts) + 1))
        if closed in only_b:
            only_b = list(only_b)
            only_b.remove(closed)
        elif not apart:
            continue
        only_a = list(only_a)
        only_a.remove(word)
        only_b = [w for w in only_b if w not in parts] if apart else only_b
    return only_a, only_b


def _renamed(seq: tuple[tuple[str, str], ...], mapping: dict[str, str]) -> list[tuple[str, str]]:
    """``seq`` (a text's sequence) with its words renamed by ``mapping`` (a candidate's word to its query partner)."""
    return [(kind, mapping.get(text, text) if kind == "w" else text) for kind, text in seq]


TERSE_WORDS = 6  # tokens of a query typed as keywords, with no function word


def _terse(f: TextFeatures) -> bool:
    """``f`` is a query of keywords: a few tokens, each a content word (*acetaminophen max dose*)."""
    tokens = f.tokens
    return 0 < len(tokens) <= TERSE_WORDS and len(f.content) == len(tokens)


def _condition_replaced(q: TextFeatures, c: TextFeatures, lex: Lexicon) -> bool:
    """The same words outside a clause that a subordinator opens (*because*, *if*, *when*), and inside it two clauses
    of two content words or more with no word or synonym in common: another reason or condition, however similar the
    rest (*locked because I typed the wrong password* / *locked because someone else tried to log in*)."""
    if q.condition is None or c.condition is None or q.condition[1] != c.condition[1]:
        return False
    inside_q, inside_c = q.condition[0], c.condition[0]
    return (len(inside_q) >= 2 and len(inside_c) >= 2
            and _no_word_in_common(tuple(sorted(inside_q)), tuple(sorted(inside_c)), lex))


def _no_word_in_common(a: tuple[str, ...], b: tuple[str, ...], lex: Lexicon) -> bool:
    """The two sentences' tokens share no content word, nor a synonym of one."""
    words_a, words_b = [t for t in a if t not in _GRAMMAR], [t for t in b if t not in _GRAMMAR]
    return bool(words_a) and bool(words_b) and not any(x == y or lex.synonyms(x, y) for x in words_a for y in words_b)


_GRAMMAR = FUNCTION_WORDS | RELATIONAL | frozenset(QUESTION_WORDS) | frozenset(PERSONS)


def _one_sentence_changed(q: TextFeatures, c: TextFeatures) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The tokens of the one sentence of each text that the other does not say, when every other sentence is said by
    both (*I'm flying to Dublin with my son. How early should we get to the airport?* / *... What should I pack for
    him?*); ``None`` otherwise, or when those sentences hold numbers, code or other verbatim spans."""
    said_q, said_c = [tuple(s) for s in q.sentence_tokens], [tuple(s) for s in c.sentence_tokens]
    if len(said_q) < 2 or len(said_c) < 2:
        return None
    only_q, only_c = Counter(said_q) - Counter(said_c), Counter(said_c) - Counter(said_q)
    if sum(only_q.values()) != 1 or sum(only_c.values()) != 1:
        return None
    a, b = next(iter(only_q)), next(iter(only_c))
    if not all(token.isalpha() or "'" in token or "-" in token for token in a + b):
        return None
    return a, b


_UNNAMED = frozenset({"someone", "somebody"})


def _unnamed_agent_dropped(f: TextFeatures, other: TextFeatures, lex: Lexicon) -> TextFeatures:
    """``f`` without *someone* where it is the subject of a verb that ``other`` says in the passive with no agent:
    *someone stole my bike* / *my bike was stolen* (the passive leaves the doer unnamed, as *someone* does)."""
    tokens = f.tokens
    for k, token in enumerate(tokens[:-1]):
        verb = tokens[k + 1]
        if token in _UNNAMED and ("w", token) in f.sequence and any(
                lex.same_lemma(verb, passive) for passive in other.passive - other.agented):
            return _without_word(f, token)
    return f


def _without_words(f: TextFeatures, words: list[str]) -> TextFeatures:
    """``f`` with the first occurrence of each content word of ``words`` removed."""
    for word in words:
        f = _without_word(f, word)
    return f


def _without_word(f: TextFeatures, word: str) -> TextFeatures:
    """``f`` with the first occurrence of the content word ``word`` removed."""
    at = f.sequence.index(("w", word))
    return replace(f, sequence=f.sequence[:at] + f.sequence[at + 1:],
                   sentence_starts=tuple(n - (n > at) for n in f.sentence_starts))


def _fold_question_kind(q: TextFeatures, c: TextFeatures, lex: Lexicon) -> tuple[TextFeatures, TextFeatures]:
    """*When did X happen* asks *what year did X happen*: when one text asks *what* and the other
    a question word of :data:`_QUESTION_KINDS`, and the *what* text has one more content word,
    of that word's kind, the word is folded into the question word."""
    for asks_what, other, swap in ((q, c, False), (c, q, True)):
        extra = asks_what.questions - other.questions
        kinds = [k for k in other.questions - asks_what.questions if k in _QUESTION_KINDS]
        if extra != {"what"} or len(kinds) != 1:
            continue
        others = set(other.content)
        noun = next((w for w in asks_what.content if w not in others
                     and any(lex.is_a(w, kind, top=3) for kind in _QUESTION_KINDS[kinds[0]])), None)
        if noun is None:
            continue
        folded = replace(_without_word(asks_what, noun), questions=other.questions)
        return (other, folded) if swap else (folded, other)
    return q, c


def _fold_how_adjective(q: TextFeatures, c: TextFeatures, lex: Lexicon) -> tuple[TextFeatures, TextFeatures]:
    """*How tall is X* asks *what is the height of X*: when one text asks *how* with an adjective the other lacks, and
    the other asks *what* with a noun the first lacks that names the adjective's attribute (:meth:`Lexicon.attribute`),
    both words are set aside and the question words made one."""
    for asks_how, asks_what, swap in ((q, c, False), (c, q, True)):
        if "how" not in asks_how.questions or "what" not in asks_what.questions \
                or asks_how.questions - {"how"} != asks_what.questions - {"what"} \
                or asks_how.modality != asks_what.modality:  # (*how heavy should X be* asks no weight X has)
            continue
        words_how, words_what = set(asks_how.content), set(asks_what.content)
        pair = next(((a, n) for a in asks_how.content if a not in words_what
                     for n in asks_what.content if n not in words_how and lex.attribute(a, n)), None)
        if pair is None:
            continue
        folded_how = replace(_without_word(asks_how, pair[0]), questions=asks_what.questions)
        folded_what = _without_word(asks_what, pair[1])
        return (folded_what, folded_how) if swap else (folded_how, folded_what)
    return q, c


def _drop_redundant_heads(f: TextFeatures, other: TextFeatures, lex: Lexicon) -> TextFeatures:
    """*the Nile river* says no more than *the Nile*: a content word only ``f`` has, next to a
    word both texts have whose sense is a kind of it, is dropped."""
    shared, mine = set(other.content), Counter(f.content)
    seq = f.sequence
    for k, (kind, word) in enumerate(seq):
        if kind != "w" or word in shared or mine[word] != 1:
            continue
        beside = [seq[j][1] for j in (k - 1, k + 1) if 0 <= j < len(seq) and seq[j][0] == "w"]
        if any(b in shared and lex.is_a(b, word, top=3) for b in beside):
            return _without_word(f, word)
    return f


def _statement_tense_changed(q: TextFeatures, c: TextFeatures, lex: Lexicon) -> bool:
    """A verb both texts say after a subject pronoun (one lemma) is past in one and not in the other: *I lost my
    job* / *I will lose my job*, *we paid* / *we pay*. Verbs of stance are left out: *I wanted to ask* / *I want
    to ask* is politeness."""
    def past(tense: str, verb: str) -> bool:
        return tense == "past" or (not tense and lex.past_form(verb))

    for tense_q, verb_q in q.finite:
        for tense_c, verb_c in c.finite:
            if (lex.same_lemma(verb_q, verb_c) and past(tense_q, verb_q) != past(tense_c, verb_c)
                    and not any(lemma in STANCE_VERBS for _, lemma in lex.lemmas(verb_q) + lex.lemmas(verb_c))):
                return True
    return False


_PAST_BE = frozenset({"was", "were"})
_PRESENT_BE = frozenset({"is", "are", "am", "re", "m"})
_CLITIC_HOSTS = frozenset("he she it that there here what who i you we they".split())  # *she's*: *she is*
_DEGREE_WORDS = frozenset("not very so really quite too still now already also just completely totally".split())


def _state_tense_changed(q: TextFeatures, c: TextFeatures, lex: Lexicon) -> bool:
    """An adjective both texts say after a copula is past in one (*was sick*) and present in the other (*is sick*):
    *my cat was sick last month. She's fine now* / *my cat is sick now. She was fine last month*. Only in requests
    (descriptions reword their tenses) and for adjectives that are no participle (*was designed* / *is designed*)."""
    states_q, states_c = _states(q.tokens, lex), _states(c.tokens, lex)
    shared = {word for word, _ in states_q} & {word for word, _ in states_c}
    return bool(shared) and any({t for w, t in states_q if w == word} != {t for w, t in states_c if w == word}
                                for word in shared) \
        and asks_or_tells_of_the_asker(q, lex) and asks_or_tells_of_the_asker(c, lex)


def _states(tokens: list[str], lex: Lexicon) -> set[tuple[str, str]]:
    """(adjective, ``past`` or ``present``) for each copula and the adjective after it (past a few adverbs)."""
    out: set[tuple[str, str]] = set()
    for k, token in enumerate(tokens):
        if token in _PAST_BE:
            tense = "past"
        elif token in _PRESENT_BE or (token == "s" and k > 0 and tokens[k - 1] in _CLITIC_HOSTS):
            tense = "present"
        else:
            continue
        j = k + 1
        while j < len(tokens) and j <= k + 3 and tokens[j] in _DEGREE_WORDS:
            j += 1
        word = tokens[j] if j < len(tokens) else ""
        if (word.isalpha() and not word.endswith(("ed", "ing")) and not lex.past_form(word)
                and any(pos == "a" for pos, _ in lex.lemmas(word))):
            out.add((word, tense))
    return out


def _simple_past_changed(q: TextFeatures, a: str, c: TextFeatures, b: str, lex: Lexicon) -> bool:
    """``a`` (of ``q``) and ``b`` (of ``c``), forms of one verb, are a simple past and another form (*ate* / *eat*),
    unless that other form is a verb in a question asked in the past: a participle (*who wrote X* / *by whom was X
    written*: the passive of the same time) or the base form after *did* (*World War I ended in which year* / *in
    what year did World War I end*)."""
    if (a in SIMPLE_PASTS) == (b in SIMPLE_PASTS) or not lex.same_lemma(a, b):
        return False
    other, text = (b, c) if a in SIMPLE_PASTS else (a, q)
    lemmas = [lemma for pos, lemma in lex.lemmas(other) if pos == "v"]
    tokens = text.tokens
    # the passive past tells the same time (*someone stole my bike* / *my bike was stolen*)
    passive_past = any(t == other and k > 0 and tokens[k - 1] in _PAST_BE for k, t in enumerate(tokens))
    return not (("past" in text.tense or passive_past) and any(lemma != other or "did" in tokens for lemma in lemmas))


MAX_STEP_WORDS = 48  # content words of a text compared for reordered steps


def _steps_reordered(q: TextFeatures, c: TextFeatures, mapping: dict[str, str], lex: Lexicon) -> bool:
    """The same content words, with two neighbouring runs of them in one sentence traded, each run opening with a verb
    and two words or more (one will do for a past: *I installed the driver and rebooted* / *I rebooted and installed
    the driver*), both in one form: the base form of a step (*preheat the oven, mix the batter and bake* / *mix the batter,
    preheat the oven and bake*), the past of narrated events (*I deleted the folder and emptied the trash* / *I emptied
    the trash and deleted the folder*) or the *-ing* form. Two events joined by *and* are read as a sequence even where
    their order does not matter (*I cleared the cache and restarted my phone*): such a paraphrase is a lost hit. Runs
    that open otherwise, or with two forms, moved a phrase, not a step (*how do I find the max, given a list* / *given
    a list, how do I find the max*)."""
    placed_q, placed_c = _words_by_sentence(q), _words_by_sentence(c)
    words_q = [w for w, _ in placed_q]
    words_c = [mapping.get(w, w) for w, _ in placed_c]
    if words_q == words_c or len(words_q) != len(words_c) or len(words_q) > MAX_STEP_WORDS:
        return False
    start = 0
    while words_q[start] == words_c[start]:
        start += 1
    end = len(words_q)
    while words_q[end - 1] == words_c[end - 1]:
        end -= 1
    mid_q, mid_c = words_q[start:end], words_c[start:end]
    if len({n for _, n in placed_q[start:end]}) > 1 or len({n for _, n in placed_c[start:end]}) > 1:
        return False  # whole sentences moved: the other checks read those
    for cut in range(1, len(mid_q)):
        first, second = mid_q[:cut], mid_q[cut:]
        if mid_c == second + first and (form := _verb_form(first[0], lex)) and form == _verb_form(second[0], lex) \
                and (form == "past" or min(len(first), len(second)) > 1):
            return True
    return False


_CONVERSES = {"before": "after", "after": "before"}


_MARKS = frozenset({"to", "from", "against"})  # what marks a converse verb's other side (*lend to*, *win against*)


def _converse_verbs(q: TextFeatures, c: TextFeatures, left_q: Counter, left_c: list[str],
                    lex: Lexicon | None) -> tuple[str, str] | None:
    """The one word only each text says is a verb and its converse: WordNet's opposites (*lend* / *borrow*, *sell* /
    *buy*, *export* / *import*, *win* / *lose*) where one text marks the other side with *to* or *from* in a way the
    other does not (*my brother lent me X* / *I borrowed X from my brother*). Returned as (the word of ``q``, the word
    of ``c``); the role checks then require the two sides to trade places. Opposites that name no side (*hire* /
    *fire*) stay opposites."""
    if lex is None or sum(left_q.values()) != 1 or len(left_c) != 1:
        return None
    a, b = next(iter(left_q)), left_c[0]
    if not all(any(pos == "v" for pos, _ in lex.lemmas(w)) for w in (a, b)) or not lex.antonyms(a, b):
        return None
    marks_q, marks_c = _MARKS.intersection(q.relations), _MARKS.intersection(c.relations)
    if marks_q == marks_c:
        return None
    seq_q, seq_c = list(q.with_persons or q.sequence), list(c.with_persons or c.sequence)
    subject_q, subject_c = _subject_of(seq_q, a), _subject_of(seq_c, b)
    # each text's subject is the other side in the other text: *my brother lent me* / *I borrowed from my brother*
    if not subject_q or not subject_c or subject_q == subject_c:
        return None
    return (a, b) if _after(seq_c, b, subject_q) and _after(seq_q, a, subject_c) else None


def _agent_made_subject(q: TextFeatures, c: TextFeatures, mapping: dict[str, str], agented: frozenset[str]) -> bool:
    """A verb passive with its agent in one text (*I was sued by my landlord*) and active in the other keeps its
    subject there (*I sued my landlord*): the one acted upon became the actor. The same event in the active has the
    agent for its subject (*my landlord sued me*). Read on the words with the personal pronouns."""
    if not agented:
        return False
    seq_q = list(q.with_persons or q.sequence)
    seq_c = _renamed(c.with_persons or c.sequence, mapping)
    for verb in agented:
        passive_seq, active_seq = (seq_q, seq_c) if verb in q.passive else (seq_c, seq_q)
        subject_passive, subject_active = _subject_of(passive_seq, verb), _subject_of(active_seq, verb)
        if subject_passive and subject_passive == subject_active and _agent_of(passive_seq, verb) not in ("", subject_active):
            return True
    return False


def _first_at(seq: list[tuple[str, str]], verb: str) -> int | None:
    """Where ``verb`` first occurs in ``seq`` (``None``: nowhere)."""
    return next((k for k, entry in enumerate(seq) if entry == ("w", verb)), None)


def _agent_of(seq: list[tuple[str, str]], verb: str) -> str:
    """The last word of the phrase after *by* that follows ``verb`` (its agent), or ``""``."""
    at = _first_at(seq, verb)
    if at is None:
        return ""
    rest = seq[at + 1:at + 3]
    if ("r", "by") not in rest:
        return ""
    words: list[str] = []
    for kind, text in seq[at + 1 + rest.index(("r", "by")) + 1:]:
        if kind != "w":
            break
        words.append(text)
    return words[-1] if words else ""


def _subject_of(seq: list[tuple[str, str]], verb: str) -> str:
    """The word right before ``verb``'s first occurrence in ``seq``, its subject (``""``: none)."""
    at = _first_at(seq, verb)
    before = seq[at - 1] if at else ("", "")
    return before[1] if before[0] == "w" and not before[1].endswith("'s") else ""


def _after(seq: list[tuple[str, str]], verb: str, word: str) -> bool:
    """``word`` comes after ``verb`` in the sentence of ``seq`` that says it."""
    at = _first_at(seq, verb)
    if at is None:
        return False
    end = next((k for k in range(at, len(seq)) if seq[k][0] == "s"), len(seq))
    return ("w", word) in seq[at + 1:end]


def _converse(q: TextFeatures, c: TextFeatures, seq_c: list[tuple[str, str]], only_q: Counter, only_c: Counter) -> bool:
    """The same words, one relation turned into its converse and what stands on its two sides traded: *was A born
    after B* / *was B born before A*, *should I eat before I swim* / *should I swim after I eat*. What follows the
    relation in its sentence must be what the other text puts before it, both ways (*add the garlic after the onions
    soften* / *add the onions before the garlic softens* trades the onions, not the softening). Only *before* and
    *after*, said once."""
    if sum(only_q.values()) != 1 or sum(only_c.values()) != 1:
        return False
    word, other = next(iter(only_q)), next(iter(only_c))
    if _CONVERSES.get(word) != other:
        return False
    left_q, right_q = _sides(list(q.sequence), q.sentence_starts, word)
    left_c, right_c = _sides(seq_c, c.sentence_starts, other)
    # what is traded opens its sentence's content on the left: *was [A] born after [B]*, not *drink [coffee] after
    # [lunch]* / *drink [lunch] before [coffee]*, where the verb keeps its place and takes another object
    return (bool(right_q and right_c) and set(left_q[:len(right_c)]) == set(right_c)
            and set(left_c[:len(right_q)]) == set(right_q))


_SEQUENCE_WORDS = ("then", "before", "after")


def _sequence_swapped(q: TextFeatures, c: TextFeatures, seq_c: list[tuple[str, str]]) -> bool:
    """Both texts say one sequence word (*then*, *before*, *after*) once, and words on its left in one text stand on
    its right in the other and others the other way round, however the rest is reworded: *I put primer on the wall
    and then painted it* / *I painted the wall and then put primer on top*."""
    for word in _SEQUENCE_WORDS:
        if q.sequence.count(("r", word)) != 1 or seq_c.count(("r", word)) != 1:
            continue
        left_q, right_q = (set(side) for side in _sides(list(q.sequence), q.sentence_starts, word))
        left_c, right_c = (set(side) for side in _sides(seq_c, c.sentence_starts, word))
        # (a word said on both sides in one text, *by running A and then running B*, shows no order)
        left_q, right_q, left_c, right_c = left_q - right_q, right_q - left_q, left_c - right_c, right_c - left_c
        if left_q & right_c and right_q & left_c:
            return True
    return False


def _sides(seq: list[tuple[str, str]], starts: tuple[int, ...], relation: str) -> tuple[list[str], list[str]]:
    """The content words before and after ``relation`` (its only occurrence) within its sentence, in order."""
    at = next(k for k, (kind, text) in enumerate(seq) if kind == "r" and text == relation)
    sentence = bisect.bisect_right(starts, at)
    lo = starts[sentence - 1] if sentence else 0
    hi = starts[sentence] if sentence < len(starts) else len(seq)
    return ([text for kind, text in seq[lo:at] if kind == "w"], [text for kind, text in seq[at + 1:hi] if kind == "w"])


def _words_by_sentence(f: TextFeatures) -> list[tuple[str, int]]:
    """The content words of ``f``'s sequence, each with the number of its sentence."""
    return [(text, bisect.bisect_right(f.sentence_starts, k)) for k, (kind, text) in enumerate(f.sequence) if kind == "w"]


def _verb_form(word: str, lex: Lexicon) -> str:
    """The form of verb ``word`` is, for runs of events: ``base`` (a step: *preheat*), ``past`` (a narrated event:
    *ate*, *took*), ``ing`` (*eating*), or ``""`` for none (a base form is a verb WordNet reads as its own lemma)."""
    if any(pos == "v" and lemma == word for pos, lemma in lex.lemmas(word)):
        return "base"
    if lex.past_form(word):
        return "past"
    if word.endswith("ing") and any(pos == "v" for pos, _ in lex.lemmas(word)):
        return "ing"
    return ""


def _third_persons_changed(q: TextFeatures, c: TextFeatures) -> bool:
    """The same content words about other people: the third-person pronouns (*he*, *she*, *they*, in any case) of
    one text are not those of the other (*how do I tell my son he is adopted* / *... I am adopted*). The asker's
    own pronouns (*I*, *we*, *you*) are one person and are not compared."""
    def third(f: TextFeatures) -> Counter:
        return Counter(text.removesuffix("'s") for kind, text in f.with_persons
                       if kind == "w" and text.startswith("person:3"))

    return third(q) != third(c)


def _possessions_changed(q: TextFeatures, c: TextFeatures, mapping: dict[str, str], *, reworded: bool = False) -> bool:
    """The same words with another owner of a thing: *I broke my sister's TV* / *my sister broke my TV*, *my friend's
    laptop was stolen from my car* / *my laptop was stolen from my friend's car*. The pairs (owner, thing owned) are
    read from the tokens: a possessive pronoun or a word before *'s*, then the content word right after it (*my best
    friend's laptop*: *my* owns *best*, *friend* owns *laptop*). Compared only when both texts say whose something
    is: *the collections module in Python* / *Python's collections module* is a rewording. In a rewording
    (``reworded``: other words changed too) only when both texts own the same things: *my ex still has my keys. How
    do I get them back?* / *I still have my ex's keys. How do I give them back?*."""
    owned_q, owned_c = _possessions(q.tokens, {}), _possessions(c.tokens, mapping)
    if reworded:  # (a rewording may say a pair twice: *your dataset ... the features of your dataset*)
        return {thing for _, thing in owned_q} == {thing for _, thing in owned_c} and set(owned_q) != set(owned_c)
    return bool(owned_q) and bool(owned_c) and owned_q != owned_c


def _possessions(tokens: list[str], rename: dict[str, str]) -> Counter:
    pairs: Counter = Counter()
    for k, token in enumerate(tokens):
        if token in POSSESSIVE_PRONOUNS:
            owner = possessor(token)
        elif token == "s" and k > 0 and _word(tokens[k - 1]) and tokens[k - 1] not in _NOT_OWNERS:
            owner = rename.get(tokens[k - 1], tokens[k - 1])
        else:
            continue
        j = k + 1
        while token in POSSESSIVE_PRONOUNS and j < min(len(tokens) - 1, k + 3) and not tokens[j][0].isalnum():
            j += 1  # a unit's symbol before a count (*my $800 deposit*)
        owned = tokens[j] if j < len(tokens) else ""
        if owned.isdigit():  # an ordinal is owned (*my roommate's 50th*); after a count, the thing counted (*my $800
            # deposit*), but a count after *'s* reads it as *is* (*my laptop's 4 years old*)
            after = tokens[j + 1] if j + 1 < len(tokens) else ""
            owned = owned + after if after in _ORDINAL_SUFFIXES else after if token in POSSESSIVE_PRONOUNS else ""
        if _word(owned) and owned not in _NOT_OWNERS:
            pairs[(owner, rename.get(owned, owned))] += 1
    return pairs


def _word(token: str) -> bool:
    return token.replace("-", "").isalnum()  # *sister-in-law*, *50th*


def _ages_rebound(q: TextFeatures, c: TextFeatures) -> bool:
    """Both texts give people numbers with *is* (*she's 19 and he's 45*), and pair them otherwise (*he's 19 and
    she's 45*)."""
    said_q, said_c = _person_numbers(q.tokens), _person_numbers(c.tokens)
    return bool(said_q) and bool(said_c) and said_q != said_c


def _person_numbers(tokens: list[str]) -> Counter:
    """(pronoun, number) for each *he's 19*, *she is 45*, *they were 3*."""
    return Counter((tokens[k], tokens[k + 2]) for k in range(len(tokens) - 2)
                   if tokens[k] in PERSONS and tokens[k + 1] in _IS_FORMS and tokens[k + 2][:1].isdigit())


_IS_FORMS = _PAST_BE | _PRESENT_BE | {"s"}


# words that own nothing before an *'s* (*she's*, *what's*, *it's*: a clitic *is*), and no thing owned
_ASKED_FOR = BE_FORMS | REQUEST_VERBS | frozenset({"me"})  # before *the* and what is asked for
_ORDINAL_SUFFIXES = frozenset("st nd rd th".split())
_NOT_OWNERS = FUNCTION_WORDS | RELATIONAL | frozenset(PERSONS) | frozenset(QUESTION_WORDS)


def _persons_swapped(q: TextFeatures, c: TextFeatures, mapping: dict[str, str], voice: frozenset[str] = frozenset(),
                     agented: frozenset[str] = frozenset()) -> bool:
    """The role check again with the personal pronouns as words: *I paid the rent and my roommate paid
    the bills* / *my roommate paid the rent and I paid the bills* reorder the same words. Then sentence by
    sentence, for two sentences with the same words: a pronoun repeated in another sentence (*My roommate is
    lending me X. How is it taxed for me?* / *I'm lending my roommate X. ...*) hides a swap from the whole text.
    ``voice`` and ``agented``: as for :func:`_roles_swapped` (*I was fired by my manager* / *my manager fired me*)."""
    if not q.with_persons or not c.with_persons:
        return False
    seq_c = _renamed(c.with_persons, mapping)
    sentences_q, sentences_c = _sentences(list(q.with_persons)), _sentences(seq_c)
    if sorted(map(tuple, sentences_q)) == sorted(map(tuple, sentences_c)):
        return False  # the same sentences in another order
    whole_q = [entry for entry in q.with_persons if entry[0] != "s"]
    if _roles_swapped(whole_q, [entry for entry in seq_c if entry[0] != "s"], None, voice, agented):
        return True
    for sentence_q in sentences_q:
        if len(sentence_q) < 3 or not any(text.startswith("person:") for _, text in sentence_q):
            continue
        words_q = Counter(sentence_q)
        if any(Counter(sentence_c) == words_q and _roles_swapped(sentence_q, sentence_c, None, voice, agented)
               for sentence_c in sentences_c):
            return True
    return False


def _neighbours_swapped(q: TextFeatures, c: TextFeatures, mapping: dict[str, str], voice: frozenset[str]) -> bool:
    """Around a word both texts say once (*owes*), its two neighbours trade places, one of them a personal pronoun:
    *my mom owes me* / *I owe my mom*. Checked in rewordings too, where the role check reads only names. A possessive
    belongs to the noun after it, and a verb whose voice changed turns its neighbours by right."""
    if not q.with_persons or not c.with_persons:
        return False
    words_q = [text for kind, text in q.with_persons if kind == "w" and not text.endswith("'s")]
    words_c = [mapping.get(text, text) for kind, text in c.with_persons if kind == "w" and not text.endswith("'s")]
    count_q, count_c = Counter(words_q), Counter(words_c)
    for i in range(1, len(words_q) - 1):
        word = words_q[i]
        if count_q[word] != 1 or count_c[word] != 1 or word in voice or word.startswith("person:"):
            continue
        j = words_c.index(word)
        if not 0 < j < len(words_c) - 1:
            continue
        left, right = words_q[i - 1], words_q[i + 1]
        if (left != right and (left, right) == (words_c[j + 1], words_c[j - 1])
                and (left.startswith("person:") or right.startswith("person:"))):
            return True
    return False


def _pairings_changed(q: TextFeatures, c: TextFeatures, mapping: dict[str, str], voice: frozenset[str]) -> bool:
    """A word said as often in both texts has the same words before it and after it, but paired otherwise, and a
    person or a name is among those before it: *if I covered $40 and Sam covered the rest* / *if Sam covered $40 and
    I covered the rest* (who did what). A verb whose voice changed turns its neighbours by right."""
    if not q.with_persons or not c.with_persons:
        return False
    names = q.names | c.names

    def around(f: TextFeatures, rename: dict[str, str]) -> dict[str, Counter]:
        entries = [text.removesuffix("'s") if kind == "w" else text for kind, text in f.with_persons if kind != "s"]
        entries = [rename.get(text, text) for text in entries]
        out: dict[str, Counter] = {}
        for k in range(1, len(entries) - 1):
            out.setdefault(entries[k], Counter())[entries[k - 1], entries[k + 1]] += 1
        return out

    pairs_q, pairs_c = around(q, {}), around(c, mapping)
    for word, seen_q in pairs_q.items():
        seen_c = pairs_c.get(word)
        if (seen_c is None or seen_q == seen_c or word in voice or word.startswith("person:")
                or sum(seen_q.values()) < 2 or sum(seen_q.values()) != sum(seen_c.values())):
            continue
        lefts_q, lefts_c = Counter(a for a, _ in seen_q.elements()), Counter(a for a, _ in seen_c.elements())
        rights_q, rights_c = Counter(b for _, b in seen_q.elements()), Counter(b for _, b in seen_c.elements())
        if lefts_q == lefts_c and rights_q == rights_c and any(
                left.startswith("person:") or left in names for left in lefts_q):
            return True
    return False


def _read_otherwise(a: str, b: str) -> bool:
    """Both texts say how they read something (:func:`_apportioned`, :func:`_scope`), and not alike."""
    return bool(a and b) and a != b


_DISTRIBUTIVE = frozenset(("each", "every", "apiece"))
_COLLECTIVE = frozenset(("total", "altogether", "combined", "overall"))


def _apportioned(f: TextFeatures) -> str:
    """How a text apportions an amount when it says so one way only: ``each`` (*each*, *every*, *apiece*), ``total``
    (*in total*, *altogether*, *combined*), or ``""`` (neither, or both: *each ticket is $20, what is the total*)."""
    words = set(f.tokens)
    each, total = bool(words & _DISTRIBUTIVE), bool(words & _COLLECTIVE)
    return "each" if each and not total else "total" if total and not each else ""


def _scope(f: TextFeatures) -> str:
    """Whether a text restricts what it asks about (``only``) or extends it to everything (``all``: *all*, *every*,
    *everyone*, *everything*), when it says one of them only."""
    tokens = f.tokens
    only = "only" in tokens
    # (*all you need is X*, *all that is required*: *only* in other words)
    every = any(t in _UNIVERSAL and not (t == "all" and k + 1 < len(tokens) and tokens[k + 1] in _ALL_THAT)
                for k, t in enumerate(tokens))
    return "only" if only and not every else "all" if every and not only else ""


_UNIVERSAL = frozenset(("all", "every", "everyone", "everybody", "everything"))
_ALL_THAT = frozenset(("that", "you", "i", "we", "they", "it", "one"))


def _asks_a_way(f: TextFeatures) -> bool:
    """A *how* that asks for a way: right before an auxiliary, a modal or *do* (*how do I*, *how can I*), not *how
    much*, *how long* or *how often*."""
    tokens = f.tokens
    return any(token == "how" and k + 1 < len(tokens) and tokens[k + 1] in QUESTION_LEADS
               for k, token in enumerate(tokens))


def _sentences(seq: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """``seq`` cut at its sentence marks (``("s", "")``)."""
    out: list[list[tuple[str, str]]] = [[]]
    for entry in seq:
        if entry[0] == "s":
            out.append([])
        else:
            out[-1].append(entry)
    return [sentence for sentence in out if sentence]


def _numbers_rebound(q: TextFeatures, c: TextFeatures, mapping: dict[str, str]) -> bool:
    """The same number bound to another word both texts have: *how many kilometers is 12 miles* / *12 km
    to miles*."""
    bound_c = {(num, mapping.get(word, word)) for num, word in c.bound}
    # (a number bound in one text only is not rebound: *my $800 deposit* / *my deposit of $800*)
    both = {num for num, _ in q.bound} & {num for num, _ in bound_c}
    moved = {(num, word) for num, word in q.bound ^ bound_c if num in both}
    words = set(q.content) & {mapping.get(w, w) for w in c.content}
    return bool(moved) and all(word in words for _, word in moved)


def _copula_swapped(q: TextFeatures, c: TextFeatures, mapping: dict[str, str]) -> bool:
    """*Are all integers rational numbers?* / *Are all rational numbers integers?*: after a copula that opens
    a question, subject and predicate follow each other with no word between to pivot on, so the same
    words in another order there ask the converse question."""
    words_c = tuple(mapping.get(w, w) for w in c.copula)
    return len(set(q.copula)) > 1 and Counter(q.copula) == Counter(words_c) and q.copula != words_c


def _number_changed(q: TextFeatures, c: TextFeatures, mapping: dict[str, str], lex: Lexicon) -> bool:
    """A noun right after a superlative, or after a possessive, is singular in one text and plural in the other: one
    thing against a list (*what is the longest river* / *what are the longest rivers*), or one person against
    several (*a gift for my brother* / *for my brothers*), or after *the* in both (*the official language of X* /
    *the official languages of X*: a definite plural names a set), or after a demonstrative or *which* (*translate this
    sentence* / *these sentences*, *which planet* / *which planets*); those two in requests only, since descriptions
    reword them freely (*defines the name and type of X* / *specifies the names and types of X*); with *a* or no article the plural is often generic
    (*a book for a teenager* / *books for teenagers*) and is left alone."""
    for b, a in mapping.items():
        if a != b and (a.endswith("s") != b.endswith("s")) and (
                (_after_superlative(q, a, lex) and _after_superlative(c, b, lex))
                or (_after_possessive(q, a) and _after_possessive(c, b))
                or (((_after_definite(q, a) and _after_definite(c, b)) or (_after_pointer(q, a) and _after_pointer(c, b)))
                    and asks_or_tells_of_the_asker(q, lex) and asks_or_tells_of_the_asker(c, lex))):
            return True
    return False


_POINTERS = frozenset("this that these those which what".split())


def _after_pointer(f: TextFeatures, word: str) -> bool:
    """``word`` follows a demonstrative or *which* / *what*, directly (*translate this sentence* / *these sentences*,
    *which planet has* / *which planets have*)."""
    tokens = f.tokens
    return any(token == word and k > 0 and tokens[k - 1] in _POINTERS for k, token in enumerate(tokens))


def _after_definite(f: TextFeatures, word: str) -> bool:
    """``word`` follows *the*, directly or after up to two words, where a copula or a request names it as what is
    asked for (*what are the official languages*, *tell me the languages*; not *how the river works*)."""
    tokens = f.tokens
    return any(token == word and any(tokens[i] == "the" and i > 0 and tokens[i - 1] in _ASKED_FOR
                                     for i in range(max(0, k - 3), k))
               for k, token in enumerate(tokens))


def _after_possessive(f: TextFeatures, word: str) -> bool:
    """``word`` follows a possessive pronoun (*my brothers*)."""
    tokens = f.tokens
    return any(token == word and k > 0 and tokens[k - 1] in POSSESSIVE_PRONOUNS for k, token in enumerate(tokens))


def _alternative_dropped(dropped: Counter, kept: Counter, lex: Lexicon | None) -> bool:
    """One of two alternatives left out: the relational words only one text says are an *or* with another
    relational word (*should I brush before or after breakfast* / *after breakfast*), or one of them is the
    opposite of a relational word both say (*above or below the line* / *above the line*)."""
    if "or" in dropped and len(dropped) > 1 and kept:
        return True
    return lex is not None and any(lex.antonyms(x, y) for x in dropped for y in kept)


_NOT_FUTURE = frozenset({"possible", "advice", "obligation"})


def _possible_against_future(a: TextFeatures, b: TextFeatures) -> bool:
    """``a`` asks what will happen and ``b`` what may, should or must (*will I get a refund* / *can I get a refund*,
    *will my car pass* / *should my car pass*); *would* is left alone (*what would happen* / *what will happen*)."""
    return "future" in a.tense and not a.modality and bool(_NOT_FUTURE & b.modality) and "future" not in b.tense


def _degree_changed(a: str, b: str, lex: Lexicon) -> bool:
    """``a`` and ``b`` (a word and its replacement) compare to another degree: forms of one adjective or adverb
    (*cheap* / *cheapest*, *good* / *better*), or a comparative against a superlative (*larger* / *biggest*). A
    degree against another word's positive is a rewording (*fastest* / *as quickly as possible*)."""
    da, db = lex.degree(a), lex.degree(b)
    return da != db and ((da and db) or lex.same_lemma(a, b))


def _after_superlative(f: TextFeatures, word: str, lex: Lexicon) -> bool:
    """``word`` follows an adjective in the superlative (*the longest river*)."""
    seq = f.sequence
    return any(entry == ("w", word) and k > 0 and seq[k - 1][0] == "w" and seq[k - 1][1].endswith("est")
               and _superlative(seq[k - 1][1], lex) for k, entry in enumerate(seq))


def _superlative(word: str, lex: Lexicon) -> bool:
    """An adjective's superlative: WordNet reads it as another adjective and not as a noun of its own (*longest*;
    not *forest*)."""
    readings = lex.lemmas(word)
    return (any(pos == "a" and lemma != word for pos, lemma in readings)
            and not any(pos == "n" and lemma == word for pos, lemma in readings))


_FENCE_LINE = re.compile(r"^[ \t]*(?:```|~~~)[^\n]*(?:\n|$)", re.M)
_BACKTICKED = re.compile(r"`([^`\n]+)`")
_MARKED = re.compile(r"^[ \t]*(?:```|~~~)[^\n]*\n(.*?)\n[ \t]*(?:```|~~~)[ \t]*$|`([^`\n]+)`", re.M | re.S)


def _code_marked_alike(q: TextFeatures, c: TextFeatures) -> tuple[str, str] | None:
    """The two texts with the code that one marks (backticks, a fence) marked the same way in the other, where the other
    types it plainly, character for character, as a whole run (*What does `chmod +x deploy.sh` do?* / *What does chmod
    +x deploy.sh do?*); ``None`` when no such code is found (its tokens stay compared as verbatim spans)."""
    if not (q.text and c.text) or ("`" not in q.text and "~" not in q.text and "`" not in c.text and "~" not in c.text):
        return None
    a, b = _marked_as_in(q.text, c.text), _marked_as_in(c.text, q.text)
    return None if (a, b) == (q.text, c.text) else (a, b)


def _marked_as_in(text: str, other: str) -> str:
    """``text`` with each code run that ``other`` marks (and ``text`` types plainly, outside its own marks, with no
    letter, digit or mark glued to either end) marked as ``other`` marks it."""
    own = [m.span() for m in _MARKED.finditer(text)]
    for m in _MARKED.finditer(other):
        fenced, code = m.group(1) is not None, (m.group(1) if m.group(1) is not None else m.group(2)).strip()
        if not code:
            continue
        for found in re.finditer(r"(?<![\w`~])" + re.escape(code) + r"(?![\w`~])", text):
            if not any(lo <= found.start() < hi for lo, hi in own):
                marked = f"\n```\n{code}\n```\n" if fenced else f"`{code}`"
                text = text[:found.start()] + marked + text[found.end():]
                own = [x.span() for x in _MARKED.finditer(text)]
                break
    return text


def _named_as_words(f: TextFeatures, other: TextFeatures) -> tuple[str, ...]:
    """``f``'s exact spans without the identifiers of letters alone that ``other`` types as a plain word (*JavaScript* /
    *javascript*, *PayPal* / *paypal*: a name in mixed case is read as an identifier, and case alone changes nothing);
    an operand beside an operator stays (*a^b*)."""
    if not other.content:
        return f.exact
    words, ids = set(other.content), set(other.exact)
    return tuple(t for k, t in enumerate(f.exact) if not (
        t.startswith("id:") and t[3:].isalpha() and t not in ids and t[3:] in words
        and not any(f.exact[j] in _OPERATORS for j in (k - 1, k + 1) if 0 <= j < len(f.exact))))


def _exact_key(exact: tuple[str, ...]) -> tuple[object, ...]:
    """What must be equal of two texts' exact spans: numbers, symbols and the identifiers beside them in order (the
    skeleton of a formula or of unquoted code), code, quoted strings and URLs as multisets and identifiers as a
    set (their order is the role check's: *use `b` with `a`* may be reworded *with `a`, use `b`*,
    but *`a` to `b`* is not *`b` to `a`*)."""
    spans = sorted(token for token in exact if token.startswith(_SPAN_KINDS))
    # an identifier beside a symbol is a formula's operand, in its place: *e^pi* is not *pi^e*
    skeleton = tuple(token for k, token in enumerate(exact) if token.startswith(("num:", "sym:")) or (
        token.startswith("id:") and any(exact[j] in _OPERATORS for j in (k - 1, k + 1) if 0 <= j < len(exact))))
    identifiers = frozenset(token for token in exact if token.startswith("id:"))
    return tuple(spans), skeleton, identifiers


_UNIT_SIGNS = frozenset({"sym:$", "sym:£", "sym:€", "sym:¥", "sym:%"})


def _numbers_moved_with_their_units(q: TextFeatures, c: TextFeatures) -> bool:
    """The same numbers in another order, each carried by what names it: *a $12,000 loan at 9% for 4 years* / *a
    4-year loan of $12,000 at 9%*. Each number differs from the others, every number is bound to the same
    word in both texts (a plural read as its singular) or by a sign no other number has, and the only symbols are
    currency and percent signs, each beside the same number (a currency sign before it, a percent sign after it). Identifiers, code and formulas keep
    their order (:func:`_exact_key`)."""
    numbers_q = [t for t in q.exact if t.startswith("num:")]
    numbers_c = [t for t in c.exact if t.startswith("num:")]
    if len(numbers_q) < 2 or len(set(numbers_q)) != len(numbers_q) or sorted(numbers_q) != sorted(numbers_c):
        return False
    if any(not t.startswith("num:") and t not in _UNIT_SIGNS for t in q.exact + c.exact):
        return False

    def signs(exact: tuple[str, ...]) -> Counter:
        return Counter((t, exact[k + 1] if t != "sym:%" else exact[k - 1]) for k, t in enumerate(exact)
                       if t in _UNIT_SIGNS and 0 <= (k + 1 if t != "sym:%" else k - 1) < len(exact))

    def words(f: TextFeatures) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for number, word in f.bound:
            out.setdefault(number, set()).add(word[:-1] if word.endswith("s") and len(word) > 3 else word)
        return out

    if signs(q.exact) != signs(c.exact) or sum(t in _UNIT_SIGNS for t in q.exact) != sum(t in _UNIT_SIGNS for t in c.exact):
        return False
    bound_q, bound_c = words(q), words(c)
    # a number is carried by the word bound to it in both texts, or by a sign no other number has (*$12,000*, *9%*)
    marked = Counter(sign for sign, _ in signs(q.exact).elements())
    carried = {number for sign, number in signs(q.exact) if marked[sign] == 1}
    loose = [n for n in numbers_q if n not in carried and not (bound_q.get(n) and bound_q.get(n) == bound_c.get(n))]
    return not loose


def _names_kept(q: TextFeatures, c: TextFeatures) -> bool:
    """Every name (a capitalised word inside a sentence, an acronym) of each text occurs in the other."""
    words_q, words_c = set(q.content), set(c.content)
    return q.names <= words_c and c.names <= words_q

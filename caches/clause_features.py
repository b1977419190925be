"""The clause structure of a text, for :mod:`caches.text_features`: its tokens cut into sentences and clauses (what
a colon introduces kept whole as material), and the content words inside and outside its subordinate clauses
(*if*, *when*, *unless* ..., and *before*, *after*, *by the time* ... at a sentence's start).
:mod:`caches.clause_checks` compares them."""

from __future__ import annotations

import re

from caches.english import SENTENCE_PUNCTUATION, SUBORDINATORS

__all__ = ["MAX_CLAUSE_TOKENS", "condition_words", "split_clauses"]

MAX_CLAUSE_TOKENS = 200  # texts whose clauses are compared for reordering (see :func:`split_clauses`)
_CLAUSE_MARKS = frozenset(",;:.?!")
_SENTENCE_MARKS = frozenset(".?!")
_TIME_OPENERS = frozenset({"before", "after", "until", "till", "since"})
_TIME_PHRASES = frozenset({("by", "the", "time"), ("as", "soon", "as")})


def condition_words(matches: list[re.Match[str]], tokens: list[str], lows: list[str],
                    placed: list[tuple[int, tuple[str, str]]]) -> tuple[frozenset[str], frozenset[str]] | None:
    """See :attr:`TextFeatures.condition`: the spans of subordinate clauses (from the subordinator to the next
    clause punctuation), and the content words of ``placed`` inside and outside them."""
    spans: list[tuple[int, int]] = []
    open_at = -1
    for k, m in enumerate(matches):
        if open_at < 0 and (lows[k] in SUBORDINATORS or _opens_time_clause(tokens, lows, k)):
            open_at = m.end()
        elif open_at >= 0 and _CLAUSE_MARKS.intersection(tokens[k]) and SENTENCE_PUNCTUATION.match(tokens[k]):
            spans.append((open_at, m.start()))
            open_at = -1
    if open_at >= 0:
        spans.append((open_at, matches[-1].end()))
    if not spans:
        return None
    inside, outside = set(), set()
    for at, (kind, word) in placed:
        if kind == "w" and word not in SUBORDINATORS:
            (inside if any(lo <= at < hi for lo, hi in spans) else outside).add(word)
    return frozenset(inside), frozenset(outside)


def _opens_time_clause(tokens: list[str], lows: list[str], k: int) -> bool:
    """A sentence opens at ``k`` with a word of time that also serves as a preposition (*before*, *after*,
    *until*, *since*) or with *by the time* / *as soon as*: a clause that sets when its sentence's other clause
    happens (*after the baby arrived, we moved* is not *after we moved, the baby arrived*). Elsewhere those
    words are read as prepositions."""
    if k > 0 and not _SENTENCE_MARKS.intersection(tokens[k - 1]):
        return False
    return lows[k] in _TIME_OPENERS or tuple(lows[k:k + 3]) in _TIME_PHRASES


def _clause_token(raw: str, low: str) -> str:
    """A token as :func:`split_clauses` keeps it: a word or number lower-cased, ``.`` for a sentence's end, ``:`` for a
    colon, ``,`` for other clause punctuation, ``""`` for the rest of punctuation (quotes, dashes, brackets), a
    symbol as it is."""
    if raw[0].isalnum() or raw[0] == "_":
        return low
    if SENTENCE_PUNCTUATION.match(raw):
        if _SENTENCE_MARKS.intersection(raw):
            return "."
        return (":" if ":" in raw else ",") if _CLAUSE_MARKS.intersection(raw) else ""
    return raw


def split_clauses(matches: list[re.Match[str]], tokens: list[str], lows: list[str],
                  spans: list[tuple[int, str]]) -> tuple[tuple[tuple[tuple[str, ...], ...], ...], tuple[tuple[str, ...], ...]]:
    """The text's sentences, each as its clauses, each as its tokens (lower-cased words and numbers, verbatim
    spans, symbols; punctuation left out) in order; empty for a text of more than :data:`MAX_CLAUSE_TOKENS`.
    What a colon introduces stays one clause, commas included: it is the material of the request, whose order
    is its content (*translate: good morning, my friend*); those clauses are returned apart too."""
    if len(matches) + len(spans) > MAX_CLAUSE_TOKENS:
        return (), ()
    entries = [_clause_token(raw, low) for raw, low in zip(tokens, lows, strict=True)]
    if spans:
        entries = [token for _, token in sorted(spans + [(m.start(), entries[k]) for k, m in enumerate(matches)])]
    sentences: list[tuple[tuple[str, ...], ...]] = []
    sentence: list[tuple[str, ...]] = []
    chunk: list[str] = []
    introduced = False  # after a colon: what the colon introduces is material (*translate: A, B*), one clause
    material: list[tuple[str, ...]] = []
    for token in entries + ["."]:
        if token in (",", ".", ":") and not (token == "," and introduced):
            if chunk:
                sentence.append(tuple(chunk))
            chunk = []
            if introduced and sentence and token != ",":
                material.append(sentence[-1])
            introduced = token == ":" or (introduced and token != ".")
            if token == "." and sentence:
                sentences.append(tuple(sentence))
                sentence = []
        elif token and token != ",":
            chunk.append(token)
    return tuple(sentences), tuple(material)


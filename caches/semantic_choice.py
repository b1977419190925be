"""Which cached question may answer a query: the choice among a semantic lookup's candidates.

:func:`choose` applies the rules of :mod:`caches.semantic` to the candidates the index found: verification
(:mod:`caches.verify`), the threshold, contested answers (:data:`CONTESTED`), no fall-through past a
rejected closer question, and ambiguity between two answers. :func:`answer_fingerprint` says when two
answers are the same; :func:`entry_key` names a (scope, question) row.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from caches.db import sha256_hex
from caches.keys import canonical_json
from caches.reworded_parts import differing_requests
from caches.text_features import TextFeatures, extract_features
from caches.verify import VerifyResult, verify

__all__ = ["CONTESTED", "Candidate", "answer_fingerprint", "choose", "close_threshold_of", "entry_key",
           "verify_beside_material"]

CONTESTED = "contested"
"""``answer_sha256`` of a row whose question was stored again, in the same scope and for the same
model version, with a different answer: the answer is not determined by the question (sampling
noise, a time-dependent answer, or two sources disagreeing), so no paraphrase may be served from
it, and it makes nearby queries ambiguous. The row stays (so later stores of the same question
keep it contested) until it expires or the model version changes. Never a hex digest."""


def entry_key(scope: str, query: str) -> str:
    """Unique key of a (scope, question) row."""
    return sha256_hex(f"{scope}\x00{query}".encode())


@dataclass(frozen=True, slots=True)
class Candidate:
    """A cached question close to the query: row id, cosine similarity, text, answer fingerprint."""

    entry_id: int
    similarity: float
    query_text: str
    answer_sha256: str


def answer_fingerprint(body: bytes) -> str:
    """SHA-256 of what the model answered (per choice: message content and tool calls, or text),
    ignoring ``id``, ``created``, ``usage`` and the like; of the raw bytes if not a completion."""
    try:
        parsed = json.loads(body)
        choices = parsed["choices"]
        parts = [
            [
                c.get("index"),
                (c.get("message") or {}).get("content"),
                (c.get("message") or {}).get("tool_calls"),
                c.get("text"),
            ]
            for c in choices
        ]
        return sha256_hex(canonical_json(parts).encode("utf-8"))
    except (ValueError, KeyError, TypeError, AttributeError):
        return sha256_hex(body)


def verify_beside_material(query: str, query_features: TextFeatures, cached: str,
                           features: Callable[[str], TextFeatures] = extract_features) -> VerifyResult:
    """:func:`caches.verify.verify` of the two texts, and where it fails for two prompts that differ only in their
    request about the same material (:func:`caches.reworded_parts.differing_requests`), of the two requests alone:
    *Where is the bug in this code?* / *Can you find the bug in this code?* above the same 20 lines are judged as
    the two questions would be (the cache then holds them to its thresholds on their own, see ``SemanticCache``)."""
    result = verify(query_features, features(cached))
    if result.ok:
        return result
    requests = differing_requests(query, cached)
    return result if requests is None else verify(features(requests[0]), features(requests[1]))


def close_threshold_of(threshold: float, distance_factor: float) -> float:
    """The similarity a *close* candidate needs: ``distance_factor`` times as far from the query
    as ``threshold`` allows, in cosine distance (``1 - similarity``); never below 0."""
    return max(0.0, 1.0 - (1.0 - threshold) * distance_factor)


def choose(
    query: str,
    candidates: Sequence[Candidate],
    *,
    threshold: float,
    ambiguity_margin: float,
    verify_candidates: bool = True,
    close_threshold: float | None = None,
    features: Callable[[str], TextFeatures] = extract_features,
) -> Candidate | None:
    """Pick the candidate that may answer ``query``, or ``None``.

    Candidates failing verification are discarded, and so are those below ``threshold``, except
    that a *close* candidate (verification found the same content words, up to synonyms: only
    function words, request frames, word order or the question's form differ) needs only
    ``close_threshold`` (``None``: ``threshold``; never above it). The best remaining one is refused when

    - it is *contested* (the same question was answered differently in its scope, see
      :data:`CONTESTED`): the answer is not a function of the question;
    - a discarded candidate with another answer scored above it: the query is closest to a
      question that verification rejected, so falling through to a farther one would answer a
      different question (verification also rejects true paraphrases; the fallback is then wrong);
    - another candidate passing verification (at its threshold or not) with a different answer
      (or a contested one) scores within ``ambiguity_margin`` of it: the query sits between two
      cached questions.
    """
    ranked = sorted(candidates, key=lambda c: c.similarity, reverse=True)
    floor = threshold if close_threshold is None or not verify_candidates else min(threshold, close_threshold)
    if not ranked or ranked[0].similarity < floor:
        return None
    if verify_candidates:
        qf = features(query)
        passing: list[Candidate] = []  # verified, whatever the score: they make a query ambiguous
        eligible: list[Candidate] = []  # verified and at their threshold: they may answer
        for c in ranked:
            if c.similarity < floor - ambiguity_margin:
                break
            result = verify_beside_material(query, qf, c.query_text, features)
            if result.ok:
                passing.append(c)
                if c.similarity >= (floor if result.close else threshold):
                    eligible.append(c)
    else:
        passing = [c for c in ranked if c.similarity >= threshold - ambiguity_margin]
        eligible = [c for c in passing if c.similarity >= threshold]
    if not eligible:
        return None
    best = eligible[0]
    if best.answer_sha256 == CONTESTED:
        return None
    if best is not ranked[0] and ranked[0].answer_sha256 != best.answer_sha256:
        # the closest cached question was rejected (or is below its threshold): never fall through
        # to a farther one with another answer (verification also rejects true paraphrases)
        return None
    for other in passing:
        if other is best:
            continue
        if other.similarity < best.similarity - ambiguity_margin:
            break
        if other.answer_sha256 != best.answer_sha256:
            return None
    return best

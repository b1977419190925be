"""The parts two prompts do not share, when they share material: what a reworded request must keep close.

Verification lets a *rewording* through (other words, no antonym, the same names) and leaves the judgement to the
similarity threshold. A long prompt that carries material (a code block, an email, a log) embeds close to any
other prompt with the same material, whatever is asked about it: *explain what this script does* and *add a
comment to each line of this script* around the same 20-line script score above 0.99. :func:`differing_parts`
cuts both prompts into their sentences, lines and verbatim blocks and returns what each says that the other does
not (the instruction, when only it was reworded), for the cache to embed and compare on its own.
"""

from __future__ import annotations

import re
from collections import Counter

from caches.english import REQUEST_VERBS
from caches.text_features import CODE_SPANS

__all__ = ["differing_parts", "differing_requests"]

MIN_SHARED_LINES = 3
_OPENERS = frozenset("please pls kindly can could would will".split())

_UNITS = re.compile(r"(?<=[.!?:])\s+|\n+")
_EDGES = " .!?:;,\t"


def _units(text: str) -> tuple[list[str], list[str], dict[str, str]]:
    """(sentences and lines outside verbatim blocks, normalised; the blocks, whitespace collapsed; each normalised
    unit as written, spaces collapsed)."""
    blocks = [" ".join(m.group(0).split()) for m in CODE_SPANS.finditer(text)]
    prose = CODE_SPANS.sub("\n", text)
    units: list[str] = []
    written: dict[str, str] = {}
    for unit in _UNITS.split(prose):
        spaced = " ".join(unit.split())
        key = spaced.casefold().strip(_EDGES)
        if any(ch.isalpha() for ch in key):
            units.append(key)
            written.setdefault(key, spaced)
    return units, blocks, written


def _is_request(unit: str) -> bool:
    """A question, an instruction that introduces material (*...:*) or a sentence led by a request's verb or a
    polite opener (*Translate ...*, *Please ...*, *Can you ...*)."""
    words = unit.casefold().split()
    return bool(words) and (unit.endswith(("?", ":")) or words[0] in REQUEST_VERBS or words[0] in _OPENERS)


def differing_requests(a: str, b: str) -> tuple[str, str] | None:
    """The one sentence each text says and the other does not, as written, when both are requests about the same
    material: the texts carry it on lines of their own (a verbatim block, or :data:`MIN_SHARED_LINES` sentences or
    lines), the same blocks and the same shared sentences come in the same order, and nothing else differs. Then
    the two requests may be compared alone; else ``None``. Verification of a sentence alone is weaker than of the
    whole text (a statement's modality or roles are read against the question), so a context sentence is never
    compared apart, and neither are two places that differ (names traded between a greeting and a signature read
    alike once cut out of an email)."""
    if "\n" not in a or "\n" not in b:
        return None
    units_a, blocks_a, written_a = _units(a)
    units_b, blocks_b, written_b = _units(b)
    if blocks_a != blocks_b:
        return None
    shared = Counter(units_a) & Counter(units_b)
    size = sum(shared.values())
    if len(units_a) - size != 1 or len(units_b) - size != 1 or (not blocks_a and size < MIN_SHARED_LINES):
        return None
    if _kept(units_a, shared) != _kept(units_b, shared):
        return None
    only_a = next(u for u in units_a if not shared[u] or units_a.count(u) > shared[u])
    only_b = next(u for u in units_b if not shared[u] or units_b.count(u) > shared[u])
    request_a, request_b = written_a[only_a], written_b[only_b]
    return (request_a, request_b) if _is_request(request_a) and _is_request(request_b) else None


def _kept(units: list[str], shared: Counter) -> list[str]:
    """``units`` that are in ``shared``, as many times as it counts them, in order."""
    left = Counter(shared)
    out = []
    for unit in units:
        if left[unit] > 0:
            left[unit] -= 1
            out.append(unit)
    return out


def differing_parts(a: str, b: str) -> tuple[str, str] | None:
    """``(what only a says, what only b says)``, each its sentences in order, when the two texts share a verbatim
    block or a sentence and each says something the other does not; else ``None`` (nothing shared: the whole
    texts' similarity already weighs the difference; or one text only adds to the other: verification reads
    additions)."""
    units_a, blocks_a, _ = _units(a)
    units_b, blocks_b, _ = _units(b)
    count_a, count_b = Counter(units_a), Counter(units_b)
    if not (count_a & count_b) and not set(blocks_a) & set(blocks_b):
        return None
    only_a, only_b = count_a - count_b, count_b - count_a
    if not only_a or not only_b:
        return None
    return (" ".join(dict.fromkeys(u for u in units_a if only_a[u])),
            " ".join(dict.fromkeys(u for u in units_b if only_b[u])))

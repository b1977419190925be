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

__all__ = ["differing_parts"]

_BLOCKS = re.compile(r"```.*?(?:```|$)|(?:^|(?<=\n))~~~.*?(?:~~~|$)|`[^`\n]+`", re.S)
_UNITS = re.compile(r"(?<=[.!?:])\s+|\n+")
_EDGES = " .!?:;,\t"


def _units(text: str) -> tuple[list[str], list[str]]:
    """(sentences and lines outside verbatim blocks, normalised; the blocks, whitespace collapsed)."""
    blocks = [" ".join(m.group(0).split()) for m in _BLOCKS.finditer(text)]
    prose = _BLOCKS.sub("\n", text)
    units = [" ".join(unit.split()).casefold().strip(_EDGES) for unit in _UNITS.split(prose)]
    return [unit for unit in units if any(ch.isalpha() for ch in unit)], blocks


def differing_parts(a: str, b: str) -> tuple[str, str] | None:
    """``(what only a says, what only b says)``, each its sentences in order, when the two texts share a verbatim
    block or a sentence and each says something the other does not; else ``None`` (nothing shared: the whole
    texts' similarity already weighs the difference; or one text only adds to the other: verification reads
    additions)."""
    units_a, blocks_a = _units(a)
    units_b, blocks_b = _units(b)
    count_a, count_b = Counter(units_a), Counter(units_b)
    if not (count_a & count_b) and not set(blocks_a) & set(blocks_b):
        return None
    only_a, only_b = count_a - count_b, count_b - count_a
    if not only_a or not only_b:
        return None
    return (" ".join(dict.fromkeys(u for u in units_a if only_a[u])),
            " ".join(dict.fromkeys(u for u in units_b if only_b[u])))

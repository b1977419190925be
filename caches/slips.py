"""Typing slips in cache verification (:mod:`caches.verify`): a word WordNet does not know that is one slip from a
known word of the other text (*resturant* / *restaurant*), and a misspelt grammar word (*teh*, *explian*,
*beetween*) that the other text spells right in the same place. Damerau-Levenshtein distance, counted up to 3."""

from __future__ import annotations

from caches.english import LONG_FUNCTION_WORDS, NEGATING_PREFIXES, SHORT_FUNCTION_WORDS
from caches.lexicon import Lexicon
from caches.text_features import TextFeatures

__all__ = ["MAX_SLIP_CHECKS", "MAX_SUBSTITUTION_PAIRS", "TYPO_MIN_LENGTH", "match_typos", "misspelt_function_words",
           "negated_by_prefix", "typing_slips"]

MAX_SUBSTITUTION_PAIRS = 256  # word pairs of two texts tested for a synonym or a slip

TYPO_MIN_LENGTH = 6  # shorter unknown words are as often names of things (*ipad*, *lyft*, *vlog*) as slips


def match_typos(only_a: list[str], only_b: list[str], lexicon: Lexicon) -> dict[str, str]:
    """Pair a word WordNet does not know with a known word of the other text one typing slip away
    (two for words of eight letters or more: *reccomend* / *recommend*, *resturant* / *restaurant*):
    ``{word of b: its partner in a}``. Two known words are never a typo of each other (*affect* /
    *effect*), and neither are two unknown ones (names), nor a word and its negation by a prefix (*synchronously* /
    *asynchronously*, *blocking* / *unblocking*: one letter or two, and the opposite meaning)."""
    mapping: dict[str, str] = {}
    if len(only_a) * len(only_b) > MAX_SUBSTITUTION_PAIRS:
        return mapping
    free = [w for w in only_a if len(w) >= TYPO_MIN_LENGTH and w.isalpha()]
    for word in only_b:
        if len(word) < TYPO_MIN_LENGTH or not word.isalpha():
            continue
        known = lexicon.known([word])
        partner = next((a for a in free if lexicon.known([a]) != known
                        and typing_slips(a, word) <= (2 if min(len(a), len(word)) >= 8 else 1)
                        and not negated_by_prefix(a, word)), None)
        if partner is not None:
            free.remove(partner)
            mapping[word] = partner
    return mapping


ABBREVIATION_LENGTHS = (2, 6)  # letters of a word read as a clipped spelling of a longer one


def match_abbreviations(only_a: list[str], only_b: list[str], lexicon: Lexicon) -> dict[str, str]:
    """Pair a short word WordNet does not know with the one known word of the other text that it clips: its first
    letter, then its other letters in order, in a word at least two letters longer (*approx* / *approximately*, *govt* /
    *government*, *tsp* / *teaspoon*, *js* / *javascript*, *bday* / *birthday*): ``{word of b: its partner in a}``.
    Nothing is paired where two words of the other text could be meant, and a word WordNet knows is never a clipping
    (*db* is a decibel there, and stays itself)."""
    mapping: dict[str, str] = {}
    if len(only_a) * len(only_b) > MAX_SUBSTITUTION_PAIRS:
        return mapping
    for short_side, long_side, short_is_b in ((only_b, only_a, True), (only_a, only_b, False)):
        for word in short_side:
            if not (ABBREVIATION_LENGTHS[0] <= len(word) <= ABBREVIATION_LENGTHS[1] and word.isalpha()) \
                    or lexicon.known([word]) or word in mapping or word in mapping.values():
                continue
            fits = [w for w in long_side if w.isalpha() and len(w) >= len(word) + 2 and _clips(word, w)
                    and lexicon.known([w]) and w not in mapping and w not in mapping.values()]
            if len(set(fits)) == 1:
                if short_is_b:
                    mapping[word] = fits[0]
                else:
                    mapping[fits[0]] = word
    return mapping


def _clips(short: str, word: str) -> bool:
    """``short`` is ``word``'s first letter, then letters of ``word`` in order."""
    if short[0] != word[0]:
        return False
    rest = iter(word[1:])
    return all(letter in rest for letter in short[1:])


def negated_by_prefix(a: str, b: str) -> bool:
    """One word is the other with a negating prefix (:data:`caches.english.NEGATING_PREFIXES`) before it."""
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    return any(longer == prefix + shorter for prefix in NEGATING_PREFIXES)


MAX_SLIP_CHECKS = 8  # unmatched words a text may have tested against the function words


def misspelt_function_words(f: TextFeatures, unmatched: list[str], names: frozenset[str], lexicon: Lexicon,
                            other: TextFeatures) -> list[str]:
    """Those of ``f``'s ``unmatched`` words (not names, at most :data:`MAX_SLIP_CHECKS` of them) that WordNet does
    not know, that are a slip from a function word (*explian*, *reccomend*, *teh*), and whose place ``other`` fills
    with that function word: a neighbour of the slip is that word's neighbour there (*change teh address* / *change
    the address*; not *coffee aftre X* / *coffee before X*, nor *pre order* / *an order*)."""
    checked = [w for w in unmatched if w.isalpha() and len(w) >= 3 and w not in names][:MAX_SLIP_CHECKS]
    if not checked:
        return []
    mine, theirs = f.tokens, other.tokens
    return [word for word in checked
            if word in f.content and word in mine and not lexicon.known([word])
            and any(_takes_the_place(mine, mine.index(word), theirs, source) for source in _slip_sources(word))]


def _takes_the_place(mine: list[str], at: int, theirs: list[str], word: str) -> bool:
    """``word`` stands in ``theirs`` next to a token that is next to position ``at`` of ``mine`` on the same side."""
    for j, token in enumerate(theirs):
        if token == word and ((at > 0 and j > 0 and mine[at - 1] == theirs[j - 1])
                              or (at + 1 < len(mine) and j + 1 < len(theirs) and mine[at + 1] == theirs[j + 1])):
            return True
    return False


def _slip_sources(word: str) -> list[str]:
    """The function words ``word`` is a typing slip from: one slip from one of four letters or more (two from one
    of seven or more: *explian*, *reccomend*), or, shorter than five letters, two neighbouring letters swapped
    from one of three or four (*teh*, *adn*)."""
    if len(word) < 5:
        return [f for f in SHORT_FUNCTION_WORDS if len(f) == len(word) and _swapped_neighbours(f, word)]
    return [f for f in LONG_FUNCTION_WORDS
            if abs(len(f) - len(word)) <= 2 and typing_slips(f, word) <= (2 if len(f) >= 7 else 1)]


def _swapped_neighbours(a: str, b: str) -> bool:
    """``b`` is ``a`` with two neighbouring letters swapped."""
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def typing_slips(a: str, b: str) -> int:
    """Typing slips between two words (Damerau-Levenshtein: insert, delete, replace, swap two
    neighbours), counted up to 3."""
    if abs(len(a) - len(b)) > 2:
        return 3
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                row[j] = min(row[j], previous2[j - 2] + 1)
        previous2, previous = previous, row
    return min(previous[-1], 3)

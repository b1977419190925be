"""Phrasal verbs read as one word: *find out* is *learn*, *switch off* is *turn off*, *figure out* is *solve*.

Verification compares content words one by one, so a verb whose meaning lies in its particle (*find* + *out*) never
meets its one-word synonym (*learn*), nor another phrasal verb of the same sense (*switch off* / *turn off*, which
share only their particle). :func:`match_phrasal` reads a content word followed by a particle as the phrasal verb
WordNet lists under that spelling, and pairs it with a word or a phrasal verb of the other text that shares one of
its first senses (:meth:`caches.lexicon.Lexicon.synonyms`: antonyms never pair). The particle itself is a
relational word, which a rewording may drop (*find out who* / *learn who*).
"""

from __future__ import annotations

from collections.abc import Sequence

from caches.lexicon import Lexicon

__all__ = ["match_phrasal"]

# the adverbial particles of English phrasal verbs (WordNet spells the verb with one of them: *find_out*)
PARTICLES = frozenset("up out off on down over away back in through around about along apart".split())
MAX_PHRASAL_PAIRS = 64  # unmatched words compared in one pair of texts (bounded work)


def _phrases(tokens: Sequence[str], words: Sequence[str], lex: Lexicon) -> dict[str, str]:
    """``{word: "word particle"}`` for each of ``words`` that some token sequence shows followed by a particle, where
    WordNet knows the pair as a verb."""
    wanted = set(words)
    out: dict[str, str] = {}
    for k in range(len(tokens) - 1):
        word, particle = tokens[k], tokens[k + 1]
        if word in wanted and word not in out and particle in PARTICLES:
            phrase = f"{word} {particle}"
            if any(pos == "v" for pos, _ in lex.lemmas(phrase)):
                out[word] = phrase
    return out


def match_phrasal(tokens_a: Sequence[str], tokens_b: Sequence[str], only_a: Sequence[str], only_b: Sequence[str],
                  lex: Lexicon) -> dict[str, str]:
    """Pair words of ``only_b`` with words of ``only_a`` when one of them, or both, head a phrasal verb (read from
    the texts' tokens) and the two readings are synonyms: ``{word of b: its partner in a}``."""
    if not only_a or not only_b or len(only_a) * len(only_b) > MAX_PHRASAL_PAIRS:
        return {}
    phrases_a, phrases_b = _phrases(tokens_a, only_a, lex), _phrases(tokens_b, only_b, lex)
    if not phrases_a and not phrases_b:
        return {}
    mapping: dict[str, str] = {}
    free = list(dict.fromkeys(only_a))
    for word in dict.fromkeys(only_b):
        if word not in phrases_b and not phrases_a:
            continue
        read_b = phrases_b.get(word, word)
        partner = next((a for a in free if (a in phrases_a or word in phrases_b)
                        and lex.synonyms(phrases_a.get(a, a), read_b)), None)
        if partner is not None:
            free.remove(partner)
            mapping[word] = partner
    return mapping

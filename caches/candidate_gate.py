"""Which cached questions could pass verification: a miss proved without embedding the query.

:func:`caches.verify.verify` accepts a candidate only when (a) both texts are the same up to case
and spacing, or (b) their exact spans, in any order and read with code marks dropped, and their negation counts
are equal (:func:`caches.verify.structure_key`)
and, for a query of more than :data:`caches.verify.DROPPED_WORDS` content words, the candidate
shares a content word with it or a synonym of one. A semantic hit needs a verified candidate
(:func:`caches.semantic_choice.choose`), so when no entry of the query's scope meets (a) or (b) the
lookup is a miss whatever the embeddings say, and the embedding forward can be skipped.

:class:`CandidateGate` counts, per scope, the entries of each identity key, of each structure key,
and of each (structure key, content word); a map shared by all entries takes a synonym key
(:meth:`caches.lexicon.Lexicon.synonym_keys`) to the stored words that have it. The test is then a
few hundred dictionary reads per query, whatever the size of the cache. The keys are necessary
conditions only: a query that passes the gate may still be a miss.

The gate also holds the *pending* entries: rows stored without an embedding (the write-back of a
miss whose query was never embedded). Their vectors are computed when a later query passes the
gate against them (:meth:`CandidateGate.pending_matches`), so traffic that never repeats itself
costs no embedding at all. Thread-safe (one lock).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import islice

from caches.text_features import TextFeatures
from caches.verify import DROPPED_WORDS, identity_key, structure_key, unmarked_reading

__all__ = ["CandidateGate", "GateKeys", "gate_keys"]

SynonymKeys = Callable[[str], frozenset]
SCAN_IDS = 512  # pending entries one lookup ranks


@dataclass(frozen=True, slots=True)
class GateKeys:
    """What the gate compares of one text (see the module docstring)."""

    identity: int  # hash of caches.verify.identity_key
    structure: int  # hash of caches.verify.structure_key
    words: tuple[str, ...]  # distinct content words
    word_count: int  # content words with repeats (the query side's DROPPED_WORDS test)


def gate_keys(features: TextFeatures) -> GateKeys:
    """The gate keys of one text's verification features."""
    plain = unmarked_reading(features)  # (code in backticks may pass for the same code typed plainly)
    return GateKeys(
        identity=hash(identity_key(features)),
        structure=hash(structure_key(plain)),
        words=tuple(dict.fromkeys(plain.content)),
        word_count=len(plain.content),
    )


@dataclass(slots=True)
class _Entry:
    scope: str
    keys: GateKeys
    text: str | None  # the question, while the entry has no vector (pending)


class CandidateGate:
    """Counts of what verification compares, per scope, and the entries still without a vector.

    Memory grows with the entries' distinct content words, not with their synonym keys: an entry
    adds one count per (scope, exact spans, word); the map from a synonym key to the words that
    have it is shared by all entries, so it is bounded by the vocabulary. Counts are keyed by the
    hash of their tuple; a collision can only let a query through, never prune one.

    ``synonym_keys``: a word's synonym keys (:meth:`caches.lexicon.Lexicon.synonym_keys`; without a
    lexicon, ``lambda w: frozenset({("w", w)})``: verification then knows no synonyms either).
    ``complete=False``: some stored entries are not registered yet (a start-up still computing their
    keys); :meth:`may_match` then proves nothing until :meth:`mark_complete`.
    """

    def __init__(self, synonym_keys: SynonymKeys, *, complete: bool = True) -> None:
        self._synonym_keys = synonym_keys
        self._complete = complete
        self._lock = threading.Lock()
        self._entries: dict[int, _Entry] = {}
        self._identities: Counter[int] = Counter()  # hash((scope, identity))
        self._structures: Counter[int] = Counter()  # hash((scope, structure))
        self._words: Counter[int] = Counter()  # hash((scope, structure, word))
        self._holders: Counter[str] = Counter()  # word -> entries that hold it
        self._key_words: dict[object, set[str]] = {}  # synonym key -> the held words that have it
        self._pending: dict[str, dict[int, None]] = {}  # scope -> pending ids, oldest first
        # hash of an identity, structure or (structure, word) count -> the pending ids that have it: one id
        # as an int (most words of most entries), several as a dict in insertion order
        self._postings: dict[int, int | dict[int, None]] = {}

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    @property
    def complete(self) -> bool:
        """Every stored entry is registered: :meth:`may_match` may prove misses."""
        return self._complete

    def mark_complete(self) -> None:
        self._complete = True

    def __contains__(self, entry_id: object) -> bool:
        with self._lock:
            return entry_id in self._entries

    def ids(self) -> list[int]:
        """Every entry id held (a snapshot)."""
        with self._lock:
            return list(self._entries)

    def pending_count(self, scope: str | None = None) -> int:
        """Entries without a vector (in ``scope``, or in all scopes)."""
        with self._lock:
            if scope is not None:
                return len(self._pending.get(scope, ()))
            return sum(len(ids) for ids in self._pending.values())

    @staticmethod
    def _count_keys(scope: str, keys: GateKeys) -> list[int]:
        """The hashed counts one entry adds: its identity, its structure, then one per word."""
        return [hash((scope, "i", keys.identity)), hash((scope, "s", keys.structure)),
                *(hash((scope, keys.structure, word)) for word in keys.words)]

    def add(self, scope: str, entry_id: int, keys: GateKeys, *, pending_text: str | None = None) -> None:
        """Register an entry (replacing one of the same id). ``pending_text``: the question of an
        entry stored without a vector; ``None`` for an entry whose vector is in the index."""
        # the synonym keys of words no entry holds yet, read outside the lock (WordNet); a held word's keys are
        # already listed, so most entries of a steady vocabulary cost one count per word
        holders = self._holders
        synonyms = {word: self._synonym_keys(word) for word in keys.words if not holders.get(word)}
        with self._lock:
            self._remove_locked(entry_id)
            for word in keys.words:  # every key read before any count changes (a failed read leaves nothing half done)
                if not holders.get(word) and word not in synonyms:
                    synonyms[word] = self._synonym_keys(word)
            self._entries[entry_id] = _Entry(scope, keys, pending_text)
            counts = self._count_keys(scope, keys)
            identity, structure, *words = counts
            self._identities[identity] += 1
            self._structures[structure] += 1
            self._words.update(words)
            for word in keys.words:
                held = holders[word]
                holders[word] = held + 1
                if not held:
                    for key in synonyms[word]:
                        have = self._key_words.get(key)
                        if have is None:
                            have = self._key_words[key] = set()
                        have.add(word)
            if pending_text is not None:
                self._post(scope, entry_id, counts)

    def _post(self, scope: str, entry_id: int, counts: list[int]) -> None:
        """List a pending entry under each of its counts' keys (see :meth:`_count_keys`)."""
        self._pending.setdefault(scope, {})[entry_id] = None
        postings = self._postings
        for key in counts:
            ids = postings.get(key)
            if ids is None:
                postings[key] = entry_id
            elif isinstance(ids, int):
                postings[key] = {ids: None, entry_id: None}
            else:
                ids[entry_id] = None

    def _unpost(self, scope: str, entry_id: int, counts: list[int]) -> None:
        pending = self._pending.get(scope)
        if pending is not None:
            pending.pop(entry_id, None)
            if not pending:
                del self._pending[scope]
        postings = self._postings
        for key in counts:
            ids = postings.get(key)
            if ids == entry_id:
                del postings[key]
            elif isinstance(ids, dict):
                ids.pop(entry_id, None)
                if len(ids) == 1:
                    postings[key] = next(iter(ids))

    def _posting(self, key: int) -> tuple[int, ...] | dict[int, None]:
        ids = self._postings.get(key)
        return () if ids is None else (ids,) if isinstance(ids, int) else ids

    def embedded(self, ids: Iterable[int]) -> list[int]:
        """Entries whose vectors are now in the index: no longer pending. Returns those that were."""
        done = []
        with self._lock:
            for entry_id in ids:
                entry = self._entries.get(int(entry_id))
                if entry is not None and entry.text is not None:
                    entry.text = None
                    self._unpost(entry.scope, int(entry_id), self._count_keys(entry.scope, entry.keys))
                    done.append(int(entry_id))
        return done

    def remove(self, ids: Iterable[int]) -> int:
        """Forget entries (unknown ids are ignored); returns how many were held."""
        with self._lock:
            return sum(self._remove_locked(int(i)) for i in ids)

    def _remove_locked(self, entry_id: int) -> bool:
        entry = self._entries.pop(entry_id, None)
        if entry is None:
            return False
        keys = entry.keys
        counts = self._count_keys(entry.scope, keys)
        identity, structure, *words = counts
        _decrement(self._identities, identity)
        _decrement(self._structures, structure)
        for word_count in words:
            _decrement(self._words, word_count)
        for word in keys.words:
            _decrement(self._holders, word)
            if self._holders.get(word):
                continue
            for key in self._synonym_keys(word):  # no entry holds it any more
                have = self._key_words.get(key)
                if have is not None:
                    have.discard(word)
                    if not have:
                        del self._key_words[key]
        if entry.text is not None:
            self._unpost(entry.scope, entry_id, counts)
        return True

    def remove_scope(self, scope: str) -> int:
        """Forget a whole scope; returns how many entries it held."""
        with self._lock:
            gone = [i for i, entry in self._entries.items() if entry.scope == scope]
            for entry_id in gone:
                self._remove_locked(entry_id)
            return len(gone)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._identities.clear()
            self._structures.clear()
            self._words.clear()
            self._holders.clear()
            self._key_words.clear()
            self._pending.clear()
            self._postings.clear()

    def _held_words(self, keys: GateKeys) -> set[str]:
        """Words of held entries that share a synonym key with a word of ``keys`` (under the lock)."""
        return {held for word in keys.words for key in self._synonym_keys(word)
                for held in self._key_words.get(key, ())}

    def may_match(self, scope: str, keys: GateKeys) -> bool:
        """Could any entry of ``scope`` pass verification against a query with these keys?
        ``False`` proves a miss; ``True`` proves nothing."""
        for word in keys.words:
            self._synonym_keys(word)  # warm the memo outside the lock
        with self._lock:
            if not self._complete or self._identities.get(hash((scope, "i", keys.identity))):
                return True
            if not self._structures.get(hash((scope, "s", keys.structure))):
                return False
            if keys.word_count <= DROPPED_WORDS:
                return True
            return any(self._words.get(hash((scope, keys.structure, held))) for held in self._held_words(keys))

    def pending_matches(self, scope: str, keys: GateKeys, limit: int) -> list[tuple[int, str]]:
        """Up to ``limit`` pending entries of ``scope`` that pass the gate against ``keys``, as
        (id, question): the same text up to case and spacing first, then those sharing the most of the
        query's words or their synonyms, newest first. The rarest shared words are read first; a word
        shared by more entries than :data:`SCAN_IDS` only adds to the counts of entries already met."""
        with self._lock:
            if not self._pending.get(scope) or limit <= 0:
                return []
            chosen = list(islice(reversed(self._posting(hash((scope, "i", keys.identity)))), limit))
            if keys.word_count <= DROPPED_WORDS:
                ranked = list(islice(reversed(self._posting(hash((scope, "s", keys.structure)))), SCAN_IDS))
            else:
                found = (self._posting(hash((scope, keys.structure, held))) for held in self._held_words(keys))
                shared: Counter[int] = Counter()
                for posting in sorted((p for p in found if p), key=len):
                    if not shared:  # the rarest word: its newest ids
                        shared.update(islice(reversed(posting), SCAN_IDS))
                    elif len(shared) + len(posting) > SCAN_IDS:  # a common word: count the ids already met
                        shared.update([i for i in shared if i in posting])
                    else:
                        shared.update(list(posting))  # ids, not a mapping of counts
                ranked = sorted(shared, key=lambda i: (-shared[i], -i))
            for entry_id in ranked:
                if len(chosen) >= limit:
                    break
                if entry_id not in chosen:
                    chosen.append(entry_id)
            return [(entry_id, self._entries[entry_id].text or "") for entry_id in chosen]


def _decrement(counts: Counter, key: object) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)

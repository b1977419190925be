"""FAISS inner-product indexes, one per scope, flat while small and IVF when large.

Vectors must be L2-normalised float32 (inner product = cosine similarity). Each scope (see
:func:`caches.keys.scope_key`) has its own partition, so a search only ever sees candidates of the
query's scope and costs O(size of that scope), however many entries other scopes hold.

A partition is an ``IndexIDMap2(IndexFlatIP)`` (exact search) until it reaches
``IndexConfig.ivf_min_size`` vectors; it is then rebuilt as an ``IndexIVFFlat`` (inner product,
hash-table direct map) trained on its own vectors. IVF is used rather than HNSW because it
supports ``remove_ids``: deleting an entry really removes its vector. A partition that shrinks
below half the switch size goes back to flat; an empty one is dropped. An IVF partition that has
grown to ``IndexConfig.retrain_growth`` times the size it was trained at is retrained by
:meth:`ScopedIndex.retrain_grown` (called from the cache's periodic maintenance): the new index is
trained and filled outside the lock from a snapshot and swapped in if the partition did not
change meanwhile (otherwise it is rebuilt under the lock), so searches are not held up by training.

A :class:`caches.candidate_gate.CandidateGate` may ride along: removals (by id, by scope, all) then
forget its entries too, so every deletion path keeps both in step, and :meth:`ScopedIndex.ids`
lists its entries without a vector as well.

All methods are synchronous, CPU-bound and thread-safe (one lock); async callers run them in a
thread pool (see :class:`caches.semantic.SemanticCache`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable
from typing import Literal

import faiss
import numpy as np

from caches.candidate_gate import CandidateGate
from caches.config import IndexConfig

__all__ = ["ScopedIndex"]

PartitionKind = Literal["flat", "ivf"]


class _Partition:
    """The vectors of one scope."""

    __slots__ = ("dim", "config", "kind", "index", "quantizer", "trained_size", "changes")

    def __init__(self, dim: int, config: IndexConfig) -> None:
        self.dim = dim
        self.config = config
        self.kind: PartitionKind = "flat"
        self.quantizer: faiss.Index | None = None
        self.index: faiss.Index = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
        self.trained_size = 0  # vectors the IVF index was trained on (0 while flat)
        self.changes = 0  # adds and removes so far (detects changes during an unlocked retrain)

    @property
    def size(self) -> int:
        return int(self.index.ntotal)

    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        self.index.add_with_ids(vectors, ids)
        self.changes += 1
        if self.kind == "flat" and self.size >= self.config.ivf_min_size:
            self._rebuild("ivf")

    def remove(self, ids: np.ndarray) -> int:
        self.changes += 1
        if self.kind == "ivf":
            removed = int(self.index.remove_ids(faiss.IDSelectorArray(ids)))
            if self.size < self.config.ivf_min_size // 2:
                self._rebuild("flat")
        else:
            removed = int(self.index.remove_ids(faiss.IDSelectorBatch(ids)))
        return removed

    def search(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        k = min(k, self.size)
        if k <= 0:
            return []
        scores, ids = self.index.search(vector.reshape(1, -1), k)
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0], strict=True) if i >= 0]

    def contents(self) -> tuple[np.ndarray, np.ndarray]:
        """(ids, vectors) currently held."""
        if self.kind == "flat":
            ids = faiss.vector_to_array(self.index.id_map).astype(np.int64)
            flat = faiss.downcast_index(self.index.index)
            vectors = flat.reconstruct_n(0, self.size) if self.size else np.empty((0, self.dim), np.float32)
            return ids, np.ascontiguousarray(vectors, dtype=np.float32)
        invlists = self.index.invlists
        id_parts, vec_parts = [], []
        for list_no in range(self.index.nlist):
            n = invlists.list_size(list_no)
            if n == 0:
                continue
            id_parts.append(faiss.rev_swig_ptr(invlists.get_ids(list_no), n).copy())
            codes = faiss.rev_swig_ptr(invlists.get_codes(list_no), n * self.dim * 4).copy()
            vec_parts.append(codes.view(np.float32).reshape(n, self.dim))
        if not id_parts:
            return np.empty(0, np.int64), np.empty((0, self.dim), np.float32)
        return np.concatenate(id_parts).astype(np.int64), np.ascontiguousarray(np.concatenate(vec_parts))

    def needs_retrain(self) -> bool:
        return self.kind == "ivf" and self.size >= self.trained_size * self.config.retrain_growth

    def _rebuild(self, kind: PartitionKind) -> None:
        ids, vectors = self.contents()
        self.install(kind, *self.build(kind, ids, vectors), trained_size=len(ids))

    def install(
        self, kind: PartitionKind, index: faiss.Index, quantizer: faiss.Index | None, *, trained_size: int
    ) -> None:
        self.index, self.quantizer, self.kind = index, quantizer, kind
        self.trained_size = trained_size if kind == "ivf" else 0

    def build(
        self, kind: PartitionKind, ids: np.ndarray, vectors: np.ndarray
    ) -> tuple[faiss.Index, faiss.Index | None]:
        """A new index of ``kind`` holding ``vectors`` (trained on them for IVF) and its
        quantizer (kept alive with it); touches nothing of this partition."""
        quantizer: faiss.Index | None = None
        if kind == "flat":
            index: faiss.Index = faiss.IndexIDMap2(faiss.IndexFlatIP(self.dim))
        else:
            cfg = self.config
            n = len(ids)
            nlist = max(1, min(cfg.max_nlist, int(math.sqrt(n) * cfg.nlist_factor), n // 39 or 1))
            quantizer = faiss.IndexFlatIP(self.dim)
            index = faiss.IndexIVFFlat(quantizer, self.dim, nlist, faiss.METRIC_INNER_PRODUCT)
            n_train = min(n, nlist * cfg.train_points_per_list)
            rng = np.random.default_rng(0)
            sample = vectors if n_train >= n else vectors[rng.choice(n, n_train, replace=False)]
            index.cp.max_points_per_centroid = cfg.train_points_per_list
            index.train(np.ascontiguousarray(sample))
            index.set_direct_map_type(faiss.DirectMap.Hashtable)
            index.nprobe = min(cfg.nprobe, nlist)
        if len(ids):
            index.add_with_ids(vectors, ids)
        return index, quantizer


class ScopedIndex:
    """Per-scope FAISS indexes with a global id -> scope map (ids are database row ids), and the
    optional ``gate`` of the entries' verification keys (see the module docstring)."""

    def __init__(self, dim: int, config: IndexConfig | None = None, gate: CandidateGate | None = None) -> None:
        self._dim = dim
        self._config = config or IndexConfig()
        self._gate = gate
        self._lock = threading.RLock()
        self._partitions: dict[str, _Partition] = {}
        self._scope_of: dict[int, str] = {}

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def gate(self) -> CandidateGate | None:
        """The verification keys of the entries (with and without vectors), if kept."""
        return self._gate

    def __len__(self) -> int:
        with self._lock:
            return len(self._scope_of)

    def __contains__(self, entry_id: object) -> bool:
        with self._lock:
            return entry_id in self._scope_of

    def ids(self) -> list[int]:
        """Every id held, vectors and the gate's entries without one (a snapshot)."""
        with self._lock:
            held = list(self._scope_of)
        if self._gate is None:
            return held
        return list(dict.fromkeys(held + self._gate.ids()))

    def scope_count(self) -> int:
        """Number of non-empty scopes."""
        with self._lock:
            return len(self._partitions)

    def scope_size(self, scope: str) -> int:
        with self._lock:
            part = self._partitions.get(scope)
            return 0 if part is None else part.size

    def partition_kind(self, scope: str) -> PartitionKind | None:
        """``"flat"``, ``"ivf"`` or ``None`` when the scope has no vectors."""
        with self._lock:
            part = self._partitions.get(scope)
            return None if part is None else part.kind

    def contents(self, scope: str) -> tuple[np.ndarray, np.ndarray]:
        """(ids, vectors) of one scope (copies)."""
        with self._lock:
            part = self._partitions.get(scope)
            if part is None:
                return np.empty(0, np.int64), np.empty((0, self._dim), np.float32)
            return part.contents()

    def add(self, scope: str, ids: Iterable[int], vectors: np.ndarray) -> None:
        """Add (or replace) vectors of one scope. ``vectors``: (n, dim) float32, unit rows."""
        id_arr = np.asarray(list(ids), dtype=np.int64)
        vecs = np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1, self._dim)
        if len(id_arr) != len(vecs):
            raise ValueError(f"{len(id_arr)} ids for {len(vecs)} vectors")
        if len(id_arr) == 0:
            return
        # the last occurrence of a repeated id wins
        _, last = np.unique(id_arr[::-1], return_index=True)
        keep = np.sort(len(id_arr) - 1 - last)
        id_arr, vecs = id_arr[keep], vecs[keep]
        with self._lock:
            self._remove_locked(int(i) for i in id_arr if int(i) in self._scope_of)
            part = self._partitions.get(scope)
            if part is None:
                part = self._partitions[scope] = _Partition(self._dim, self._config)
            part.add(id_arr, vecs)
            for i in id_arr:
                self._scope_of[int(i)] = scope

    def remove(self, ids: Iterable[int]) -> int:
        """Remove vectors by id (unknown ids are ignored; the gate forgets them too); returns how
        many vectors were removed."""
        ids = [int(i) for i in ids]
        if self._gate is not None:
            self._gate.remove(ids)
        with self._lock:
            return self._remove_locked(ids)

    def _remove_locked(self, ids: Iterable[int]) -> int:
        by_scope: dict[str, list[int]] = {}
        for i in ids:
            scope = self._scope_of.pop(int(i), None)
            if scope is not None:
                by_scope.setdefault(scope, []).append(int(i))
        removed = 0
        for scope, scope_ids in by_scope.items():
            part = self._partitions[scope]
            removed += part.remove(np.asarray(scope_ids, dtype=np.int64))
            if part.size == 0:
                del self._partitions[scope]
        return removed

    def remove_scope(self, scope: str) -> int:
        """Drop a whole scope (from the gate too); returns how many vectors it held."""
        if self._gate is not None:
            self._gate.remove_scope(scope)
        with self._lock:
            part = self._partitions.pop(scope, None)
            if part is None:
                return 0
            ids, _ = part.contents()
            for i in ids:
                self._scope_of.pop(int(i), None)
            return len(ids)

    def clear(self) -> None:
        if self._gate is not None:
            self._gate.clear()
        with self._lock:
            self._partitions.clear()
            self._scope_of.clear()

    def retrain_grown(self) -> list[str]:
        """Retrain every IVF partition that has grown ``retrain_growth`` times beyond the size
        it was trained at; returns the scopes retrained. Training runs outside the lock."""
        with self._lock:
            grown = [scope for scope, part in self._partitions.items() if part.needs_retrain()]
        done: list[str] = []
        for scope in grown:
            with self._lock:
                part = self._partitions.get(scope)
                if part is None or not part.needs_retrain():
                    continue
                ids, vectors = part.contents()
                seen = part.changes
            index, quantizer = part.build("ivf", ids, vectors)
            with self._lock:
                if self._partitions.get(scope) is not part:
                    continue  # dropped meanwhile
                if part.changes == seen and part.kind == "ivf":
                    part.install("ivf", index, quantizer, trained_size=len(ids))
                elif part.needs_retrain():
                    part._rebuild("ivf")  # changed while training: redo it on the current vectors
                else:
                    continue
            done.append(scope)
        return done

    def trained_size(self, scope: str) -> int:
        """Vectors the scope's IVF index was trained on (0 for a flat or absent partition)."""
        with self._lock:
            part = self._partitions.get(scope)
            return 0 if part is None else part.trained_size

    def search(self, scope: str, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Top-``k`` (id, cosine similarity) of ``scope`` for one unit ``vector``, best first."""
        vec = np.ascontiguousarray(vector, dtype=np.float32).reshape(1, self._dim)
        with self._lock:
            part = self._partitions.get(scope)
            if part is None:
                return []
            return part.search(vec, k)

"""Per-scope FAISS index: flat/IVF switching, real removal, scope isolation."""

from __future__ import annotations

import numpy as np
import pytest

from caches.config import IndexConfig
from caches.index import ScopedIndex

DIM = 32


def unit(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.standard_normal((n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


def test_search_returns_nearest_in_scope_only(rng: np.random.Generator) -> None:
    index = ScopedIndex(DIM)
    a, b = unit(rng, 50), unit(rng, 50)
    index.add("A", range(0, 50), a)
    index.add("B", range(100, 150), b)
    hits = index.search("A", b[3], 5)  # a B vector queried in scope A never returns B ids
    assert hits and all(0 <= i < 50 for i, _ in hits)
    top, score = index.search("B", b[3], 1)[0]
    assert top == 103 and score == pytest.approx(1.0, abs=1e-5)
    brute = np.argsort(-(a @ a[7]))[:5]
    assert [i for i, _ in index.search("A", a[7], 5)] == list(brute)
    assert index.search("missing", a[0], 3) == []


def test_switches_to_ivf_and_back_and_removal_is_real(rng: np.random.Generator) -> None:
    cfg = IndexConfig(ivf_min_size=400, nprobe=64)
    index = ScopedIndex(DIM, cfg)
    vecs = unit(rng, 600)
    index.add("s", range(300), vecs[:300])
    assert index.partition_kind("s") == "flat"
    index.add("s", range(300, 600), vecs[300:])
    assert index.partition_kind("s") == "ivf" and index.scope_size("s") == 600
    for i in (0, 250, 599):  # every stored vector finds itself through the IVF lists
        assert index.search("s", vecs[i], 1)[0][0] == i
    ids, vectors = index.contents("s")
    assert sorted(ids.tolist()) == list(range(600)) and np.allclose(vectors[np.argsort(ids)], vecs, atol=1e-6)
    assert index.remove([250, 251, 9999]) == 2
    assert index.scope_size("s") == 598 and 250 not in index
    assert all(i != 250 for i, _ in index.search("s", vecs[250], 10))
    index.remove(range(0, 450))
    assert index.partition_kind("s") == "flat" and index.scope_size("s") == 150
    assert index.search("s", vecs[500], 1)[0][0] == 500
    index.remove(range(450, 600))
    assert index.partition_kind("s") is None and len(index) == 0 and index.scope_count() == 0


def test_re_adding_an_id_replaces_its_vector(rng: np.random.Generator) -> None:
    index = ScopedIndex(DIM)
    v = unit(rng, 3)
    index.add("s", [1], v[:1])
    index.add("s", [1], v[1:2])
    assert index.scope_size("s") == 1
    assert index.search("s", v[1], 1)[0] == (1, pytest.approx(1.0, abs=1e-5))
    index.add("t", [1], v[2:3])  # moving an id to another scope removes it from the first
    assert index.scope_size("s") == 0 and index.search("t", v[2], 1)[0][0] == 1


def test_remove_scope_and_clear(rng: np.random.Generator) -> None:
    index = ScopedIndex(DIM)
    index.add("a", [1, 2], unit(rng, 2))
    index.add("b", [3], unit(rng, 1))
    assert index.remove_scope("a") == 2 and 1 not in index and 3 in index
    index.clear()
    assert len(index) == 0 and index.ids() == []


def test_rejects_mismatched_ids(rng: np.random.Generator) -> None:
    with pytest.raises(ValueError):
        ScopedIndex(DIM).add("s", [1, 2], unit(rng, 3))


def test_grown_ivf_partition_is_retrained(rng: np.random.Generator) -> None:
    cfg = IndexConfig(ivf_min_size=400, nprobe=64, retrain_growth=2.0)
    index = ScopedIndex(DIM, cfg)
    vecs = unit(rng, 1300)
    index.add("s", range(400), vecs[:400])
    index.add("small", [5000], vecs[:1])
    assert index.partition_kind("s") == "ivf" and index.trained_size("s") == 400
    index.add("s", range(400, 799), vecs[400:799])
    assert index.retrain_grown() == []  # 799 < 2 x 400
    index.add("s", range(799, 1300), vecs[799:])
    assert index.trained_size("s") == 400  # adding alone never retrains
    assert index.retrain_grown() == ["s"]
    assert index.trained_size("s") == 1300 and index.scope_size("s") == 1300
    assert index.retrain_grown() == []
    ids, _ = index.contents("s")
    assert sorted(ids.tolist()) == list(range(1300))
    for i in (0, 650, 1299):
        assert index.search("s", vecs[i], 1)[0][0] == i
    assert index.remove([650]) == 1 and all(i != 650 for i, _ in index.search("s", vecs[650], 5))


def test_retraining_keeps_vectors_added_while_it_trained(
    rng: np.random.Generator, monkeypatch: pytest.MonkeyPatch
) -> None:
    from caches import index as index_module

    cfg = IndexConfig(ivf_min_size=200, nprobe=64, retrain_growth=2.0)
    index = ScopedIndex(DIM, cfg)
    vecs = unit(rng, 501)
    index.add("s", range(200), vecs[:200])
    index.add("s", range(200, 500), vecs[200:500])
    real_build = index_module._Partition.build

    def build_while_another_thread_adds(self, kind, ids, vectors):  # type: ignore[no-untyped-def]
        if len(ids) == 500:  # the unlocked retrain: a store lands meanwhile
            index.add("s", [500], vecs[500:501])
        return real_build(self, kind, ids, vectors)

    monkeypatch.setattr(index_module._Partition, "build", build_while_another_thread_adds)
    assert index.retrain_grown() == ["s"]
    assert index.scope_size("s") == 501 and index.trained_size("s") == 501
    assert index.search("s", vecs[500], 1)[0][0] == 500

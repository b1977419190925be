"""The sentence embedder: dtype choice, float32 unit vectors whatever the model runs in."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import torch

from caches.embedder import EmbedderConfig, SentenceTransformerEmbedder, resolve_embedding_dtype

TEXTS = ["What is the capital of France?", "How do I reverse a list in Python?",
         "The boiling point of water is 100 degrees Celsius at sea level.", "ok"]


def test_unknown_dtype_is_refused():
    with pytest.raises(ValueError, match="embedder dtype"):
        EmbedderConfig(dtype="int4")


def test_dtype_names_resolve():
    assert resolve_embedding_dtype("float32", "cpu") is torch.float32
    assert resolve_embedding_dtype("bfloat16", "cpu") is torch.bfloat16
    assert resolve_embedding_dtype("auto", "cuda") is torch.float16
    assert resolve_embedding_dtype("auto", "cpu") in (torch.bfloat16, torch.float32)


def test_bfloat16_vectors_are_unit_float32_and_match_float32():
    fp32 = SentenceTransformerEmbedder(EmbedderConfig(dtype="float32")).embed(TEXTS)
    bf16 = SentenceTransformerEmbedder(EmbedderConfig(dtype="bfloat16")).embed(TEXTS)
    for vectors in (fp32, bf16):
        assert vectors.dtype == np.float32 and vectors.shape == (len(TEXTS), 384)
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    cosines = (fp32 * bf16).sum(axis=1)
    assert cosines.min() > 0.999  # measured ~0.99996: thresholds chosen in fp32 still hold
    assert not np.array_equal(fp32, bf16)  # it really ran in bf16


def test_no_texts_give_an_empty_matrix(embedder):
    out = embedder.embed([])
    assert out.shape == (0, embedder.dim) and out.dtype == np.float32


def test_threads_below_one_are_refused():
    with pytest.raises(ValueError, match="threads"):
        EmbedderConfig(threads=0)


def test_model_runs_on_one_thread_of_its_own_with_its_thread_limit():
    embedder = SentenceTransformerEmbedder(EmbedderConfig(threads=1))
    seen: list[tuple[int, int]] = []
    model = embedder._on_embedding_thread(embedder._load)
    original = model.forward

    def spy(*args, **kwargs):
        seen.append((threading.get_ident(), torch.get_num_threads()))
        return original(*args, **kwargs)

    model.forward = spy
    before = torch.get_num_threads()
    results: list[np.ndarray] = []
    callers = [threading.Thread(target=lambda: results.append(embedder.embed(TEXTS[:2]))) for _ in range(3)]
    for t in callers:
        t.start()
    for t in callers:
        t.join()
    results.append(embedder.embed(TEXTS[:2]))
    embedder.close()
    assert len(seen) == 4 and len({ident for ident, _ in seen}) == 1  # one thread for every caller
    assert seen[0][0] != threading.get_ident() and {n for _, n in seen} == {1}
    assert torch.get_num_threads() == before  # the caller's own torch threads are untouched
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


def test_vectors_come_back_in_input_order_across_batches():
    embedder = SentenceTransformerEmbedder(EmbedderConfig(dtype="float32", batch_size=2))
    texts = ["a short one", TEXTS[2], "mid length sentence here", TEXTS[0], "x"]
    together = embedder.embed(texts)
    alone = np.stack([embedder.embed([t])[0] for t in texts])
    np.testing.assert_allclose(together, alone, atol=2e-5)
    embedder.close()


def test_single_texts_are_memoised_and_batches_are_not():
    embedder = SentenceTransformerEmbedder(EmbedderConfig(memo_size=2))
    calls: list[list[str]] = []
    original = embedder._embed

    def counting(texts):
        calls.append(list(texts))
        return original(texts)

    embedder._embed = counting
    first = embedder.embed([TEXTS[0]])
    again = embedder.embed([TEXTS[0]])
    np.testing.assert_array_equal(first, again)
    again[0, 0] = 42.0  # callers get copies: the memo cannot be corrupted through them
    np.testing.assert_array_equal(embedder.embed([TEXTS[0]]), first)
    assert calls == [[TEXTS[0]]]
    embedder.embed([TEXTS[1]])
    embedder.embed([TEXTS[2]])  # memo of 2: TEXTS[0] (least recently used) is evicted
    embedder.embed([TEXTS[0]])
    embedder.embed(TEXTS[:2])
    embedder.embed(TEXTS[:2])
    assert calls == [[TEXTS[0]], [TEXTS[1]], [TEXTS[2]], [TEXTS[0]], TEXTS[:2], TEXTS[:2]]
    embedder.close()
    with pytest.raises(ValueError, match="memo_size"):
        EmbedderConfig(memo_size=-1)


def test_the_embedder_works_again_after_close_on_a_new_thread():
    embedder = SentenceTransformerEmbedder(EmbedderConfig(memo_size=0))
    first = embedder.embed(TEXTS[:1])
    threads = [embedder._on_embedding_thread(threading.get_ident)]
    embedder.close()
    np.testing.assert_array_equal(embedder.embed(TEXTS[:1]), first)
    threads.append(embedder._on_embedding_thread(threading.get_ident))
    embedder.close()
    assert threading.get_ident() not in threads  # never ran on the caller's thread

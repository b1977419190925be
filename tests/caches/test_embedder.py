"""The sentence embedder: dtype choice, float32 unit vectors whatever the model runs in."""

from __future__ import annotations

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

"""The classifier's inputs: embeddings through the on-disk cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from router.training.inputs import embed_texts


def test_embedding_cache(embedder, tmp_path: Path) -> None:
    cache = tmp_path / "emb.npz"
    texts = ["alpha", "beta", "alpha"]
    first = embed_texts(embedder, texts, progress=False, cache_path=cache)
    assert first.shape == (3, 384) and cache.is_file()

    class NoCalls:
        dim = 384
        name = "all-MiniLM-L6-v2"

        def embed(self, batch):  # noqa: ANN001, ANN201
            raise AssertionError("cache miss")

    again = embed_texts(NoCalls(), texts, progress=False, cache_path=cache)
    np.testing.assert_allclose(first, again)

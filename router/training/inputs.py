"""The classifier's inputs from labelled examples: routing texts and request statistics
(:func:`featurize`), and the texts' embeddings (:func:`embed_texts`, optionally through an on-disk cache
tagged with :func:`embedder_name`)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from caches.embedder import Embedder
from router.data import LabelledExample
from router.features import extract_features, stats_matrix
from router.training.progress import progress_bar


def embedder_name(embedder: Embedder) -> str:
    """A human-readable identity of an embedder, stored in artifacts."""
    name = getattr(embedder, "name", None)
    if isinstance(name, str) and name:
        return name
    config = getattr(embedder, "_config", None)
    path = getattr(config, "model_path", None)
    if type(embedder).__name__ == "SentenceTransformerEmbedder" and path is None:
        return "all-MiniLM-L6-v2"
    return str(path or type(embedder).__name__)


def _text_key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def embed_texts(
    embedder: Embedder,
    texts: Sequence[str],
    *,
    batch_size: int = 256,
    progress: bool = True,
    cache_path: str | Path | None = None,
) -> np.ndarray:
    """Embed ``texts`` in batches (progress bar on stderr), optionally through an on-disk cache.

    The cache is an ``.npz`` of text SHA-1 digests and vectors tagged with the embedder's name;
    a cache written by another embedder is ignored.
    """
    name = embedder_name(embedder)
    known: dict[str, np.ndarray] = {}
    cache = Path(cache_path) if cache_path else None
    if cache is not None and cache.is_file():
        with np.load(cache, allow_pickle=False) as stored:
            if str(stored["embedder"]) == name:
                known = {str(k): v for k, v in zip(stored["keys"], stored["vectors"], strict=True)}
    keys = [_text_key(t) for t in texts]
    todo = sorted({k: i for i, k in enumerate(keys) if k not in known}.values())
    batches = [todo[i : i + batch_size] for i in range(0, len(todo), batch_size)]
    for batch in progress_bar(batches, progress, desc="embedding", unit="batch"):
        vectors = embedder.embed([texts[i] for i in batch])
        for i, vector in zip(batch, vectors, strict=True):
            known[keys[i]] = np.asarray(vector, dtype=np.float32)
    if cache is not None and todo:
        cache.parent.mkdir(parents=True, exist_ok=True)
        all_keys = list(known)
        np.savez(
            cache,
            embedder=np.array(name),
            keys=np.array(all_keys, dtype="U40"),
            vectors=np.vstack([known[k] for k in all_keys]).astype(np.float32),
        )
    if not texts:
        return np.zeros((0, int(embedder.dim)), dtype=np.float32)
    return np.vstack([known[k] for k in keys]).astype(np.float32)


def featurize(examples: Sequence[LabelledExample]) -> tuple[list[str], np.ndarray]:
    """Routing texts and the statistics matrix of ``examples``."""
    features = [extract_features(ex.body) for ex in examples]
    return [f.text for f in features], stats_matrix([f.stats for f in features])

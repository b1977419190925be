"""The bundled embedding model (all-MiniLM-L6-v2) as the proxy serves it on ``/v1/embeddings``.

The vectors come from the proxy's one embedder (the semantic cache's and the router's, which runs
every forward on its own thread); only MiniLM's tokenizer is loaded here, to count tokens for
``usage`` and to turn token-id inputs back into text.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from caches.embedder import Embedder, default_minilm_path
from proxy.wire.errors import InvalidRequest

#: MiniLM's window as sentence-transformers runs it (``max_seq_length``), [CLS] and [SEP] included.
DEFAULT_WINDOW = 256
DEFAULT_DIM = 384


@dataclass(frozen=True, slots=True)
class Counted:
    """Token counts of texts: ``tokens[i]`` as embedded (cut at the window), ``truncated[i]`` when cut."""

    tokens: list[int]
    truncated: list[bool]


class LocalEmbeddingModel:
    """MiniLM behind the proxy's embedder: token counting, token-id decoding and embedding.

    Every method blocks (tokenizing, the forward): callers run them in a worker thread.
    """

    def __init__(self, embedder: Embedder, model_path: str | None = None) -> None:
        self._embedder = embedder
        self._path = Path(model_path) if model_path else None
        self._lock = threading.Lock()
        self._tokenizer = None
        self._window: int | None = None
        self._dim: int | None = None

    def _folder(self) -> Path:
        return self._path or default_minilm_path()

    def _load(self):
        with self._lock:
            if self._tokenizer is None:
                from tokenizers import Tokenizer

                folder = self._folder()
                tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
                tokenizer.no_truncation()
                tokenizer.no_padding()
                config = folder / "sentence_bert_config.json"
                window = json.loads(config.read_text()).get("max_seq_length") if config.exists() else None
                self._window = int(window) if isinstance(window, int) and window > 2 else DEFAULT_WINDOW
                self._tokenizer = tokenizer
            return self._tokenizer

    @property
    def window(self) -> int:
        """Tokens per input the model reads ([CLS] and [SEP] included); later tokens are cut off."""
        self._load()
        assert self._window is not None
        return self._window

    @property
    def dim(self) -> int:
        """The vectors' size (the first call may load the model; later ones are free)."""
        if self._dim is None:
            self._dim = int(self._embedder.dim)
        return self._dim

    @property
    def known_dim(self) -> int | None:
        """The vectors' size once known (None before the first :attr:`dim`)."""
        return self._dim

    def count(self, texts: Sequence[str]) -> Counted:
        """Tokens each text is embedded with: at most :attr:`window`, special tokens included."""
        tokenizer = self._load()
        window = self.window
        lengths = [len(e.ids) for e in tokenizer.encode_batch(list(texts))]
        return Counted([min(n, window) for n in lengths], [n > window for n in lengths])

    def decode(self, arrays: Sequence[Sequence[int]]) -> list[str]:
        """The texts of token-id arrays in MiniLM's vocabulary (a 400 for an id outside it)."""
        tokenizer = self._load()
        size = tokenizer.get_vocab_size()
        texts = []
        for i, ids in enumerate(arrays):
            bad = next((t for t in ids if t >= size), None)
            if bad is not None:
                raise InvalidRequest(f"token id {bad} in 'input' (array {i}) is outside the vocabulary of the "
                                     f"bundled embedding model (0..{size - 1}); token arrays are read as MiniLM "
                                     "(BERT WordPiece) ids, so send text instead", param="input",
                                     code="invalid_token_id")
            texts.append(tokenizer.decode(list(ids), skip_special_tokens=True))
        return texts

    def embed(self, texts: Sequence[str], chunk: int = 64) -> np.ndarray:
        """Unit vectors of shape (len(texts), dim), float32, in chunks of ``chunk`` texts so that the
        semantic cache's lookups, which share the embedding thread, wait for one chunk at most."""
        parts = [self._embedder.embed(list(texts[i:i + chunk])) for i in range(0, len(texts), chunk)]
        return np.concatenate(parts) if parts else np.zeros((0, self.dim), dtype=np.float32)


def reduce_dimensions(vectors: np.ndarray, dimensions: int | None) -> np.ndarray:
    """The first ``dimensions`` components of each row, renormalised to unit length
    (``vectors``: (n, dim) float32; unchanged when ``dimensions`` is None or the full size)."""
    if dimensions is None or dimensions >= vectors.shape[1]:
        return vectors
    cut = vectors[:, :dimensions]  # (n, dimensions)
    norms = np.linalg.norm(cut, axis=1, keepdims=True)
    return np.ascontiguousarray(cut / np.maximum(norms, 1e-12), dtype=np.float32)

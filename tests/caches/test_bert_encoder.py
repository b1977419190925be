"""Our own BERT sentence encoder against sentence-transformers on the real all-MiniLM-L6-v2 weights: the same bits
in float32 and bfloat16, alone and in padded batches, for generated texts (unicode, whitespace, over-long);
any other model layout falls back to sentence-transformers itself."""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
import sys

import pytest
import torch

from caches.bert_encoder import load_bert_encoder
from caches.embedder import (
    EmbedderConfig,
    SentenceTransformerEmbedder,
    default_minilm_path,
    resolve_embedding_dtype,
)

ALPHABET = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,;:!?'\"()[]{}<>=+-*/\\_#@$%^&|~`"
            "\t\n éüñçßøæ東京日本語한국어Ωπλ😀🚀—…")


def _texts(seed: int, count: int) -> list[str]:
    """Random strings of 0-1,500 characters (some far over the 256-token limit), random words, and a few
    whitespace-only and padded ones."""
    rng = random.Random(seed)
    words = ["the", "capital", "of", "France", "what", "is", "how", "do", "I", "reverse", "a", "list", "in",
             "Python", "x=1", "3.14", "[CLS]", "[SEP]", "[PAD]", "##ing", "naïve", "café"]
    out = ["", "   ", "\n\t", "  padded question?  "]
    for _ in range(count):
        if rng.random() < 0.5:
            out.append("".join(rng.choice(ALPHABET) for _ in range(rng.choice([1, 5, 40, 200, 1500]))))
        else:
            out.append(" ".join(rng.choice(words) for _ in range(rng.randint(1, 300))))
    return out


@pytest.fixture(scope="module")
def loaded_reference():
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(default_minilm_path()), device="cpu").eval()


@pytest.fixture
def reference(loaded_reference):
    """sentence-transformers' model in float32, a copy per test (``.to(dtype)`` casts a module in place)."""
    return copy.deepcopy(loaded_reference)


def _st_vectors(model, texts: list[str]) -> torch.Tensor:
    with torch.inference_mode():
        return model(model.preprocess(texts))["sentence_embedding"]


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_vectors_are_sentence_transformers_bits(reference, dtype) -> None:
    encoder = load_bert_encoder(default_minilm_path())
    assert encoder is not None and encoder.dim == 384 and encoder.max_length == 256
    encoder, model = encoder.to(dtype), reference.to(dtype)
    # bfloat16 is the embedder's dtype only where the CPU has bf16 matmuls; elsewhere it is emulated (~20x
    # slower), so that case gets a smaller sample of the same generated kinds
    emulated = dtype == torch.bfloat16 and resolve_embedding_dtype("auto", "cpu") != torch.bfloat16
    texts = _texts(seed=int(dtype == torch.bfloat16), count=8 if emulated else 40)
    with torch.inference_mode():
        ids, mask = encoder.tokenize(texts)
        features = model.preprocess(texts)
        assert torch.equal(ids, features["input_ids"]) and torch.equal(mask, features["attention_mask"])
        assert ids.shape[1] == 256  # the long texts were truncated to the model's limit
        assert torch.equal(encoder.forward(ids, mask), _st_vectors(model, texts))  # one padded batch
        for text in texts[:6 if emulated else 12]:  # alone: no padding, attention without a mask
            assert torch.equal(encoder.forward(*encoder.tokenize([text])), _st_vectors(model, [text])), text


def test_the_embedder_runs_the_default_model_without_importing_sentence_transformers() -> None:
    probe = ("import sys\nfrom caches.embedder import SentenceTransformerEmbedder\n"
             "v = SentenceTransformerEmbedder().embed(['What is the capital of France?'])\n"
             "print(v.shape, 'sentence_transformers' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=180, check=True)
    assert out.stdout.split() == ["(1,", "384)", "False"], out.stderr[-2000:]


def test_the_embedder_gives_sentence_transformers_vectors(reference) -> None:
    texts = _texts(seed=7, count=20)
    ours = SentenceTransformerEmbedder(EmbedderConfig(dtype="float32", batch_size=8)).embed(texts)
    theirs = reference.encode(texts, convert_to_numpy=True, normalize_embeddings=True)
    assert abs(ours - theirs).max() < 1e-6


def _copy_model(tmp_path, edit) -> str:
    """A copy of the default model's folder with its JSON files edited: ``edit(name, data)`` returns the new data."""
    target = tmp_path / "model"
    shutil.copytree(default_minilm_path(), target)
    for name in ("1_Pooling/config.json", "config.json", "modules.json", "tokenizer_config.json"):
        path = target / name
        path.write_text(json.dumps(edit(name, json.loads(path.read_text()))))
    return str(target)


def test_other_layouts_fall_back_to_sentence_transformers(tmp_path, reference) -> None:
    def cls_pooling(name, data):
        if name == "1_Pooling/config.json":
            return {**data, "pooling_mode_mean_tokens": False, "pooling_mode_cls_token": True}
        return data

    path = _copy_model(tmp_path, cls_pooling)
    assert load_bert_encoder(tmp_path / "model") is None
    embedder = SentenceTransformerEmbedder(EmbedderConfig(model_path=path, dtype="float32"))
    ours = embedder.embed(["What is the capital of France?", "ok"])
    from sentence_transformers import SentenceTransformer

    theirs = SentenceTransformer(path, device="cpu").encode(["What is the capital of France?", "ok"],
                                                            normalize_embeddings=True)
    assert abs(ours - theirs).max() < 1e-6
    mean = SentenceTransformerEmbedder(EmbedderConfig(dtype="float32")).embed(["What is the capital of France?"])
    assert abs(ours[0] - mean[0]).max() > 1e-3  # CLS pooling really ran


@pytest.mark.parametrize("edit", [
    lambda name, data: {**data, "model_type": "roberta"} if name == "config.json" else data,
    lambda name, data: {**data, "hidden_act": "relu"} if name == "config.json" else data,
    lambda name, data: [*data, {"idx": 3, "name": "3", "path": "3_Dense",
                                "type": "sentence_transformers.models.Dense"}] if name == "modules.json" else data,
    # transformers would rebuild the normalizer to keep the case; tokenizer.json lower-cases
    lambda name, data: {**data, "do_lower_case": False} if name == "tokenizer_config.json" else data,
    lambda name, data: {**data, "pad_token": "<no such token>"} if name == "tokenizer_config.json" else data,
])
def test_layouts_it_does_not_know_are_refused(tmp_path, edit) -> None:
    _copy_model(tmp_path, edit)
    assert load_bert_encoder(tmp_path / "model") is None


def test_sentence_transformers_can_be_asked_for_and_gives_the_same_vectors() -> None:
    texts = _texts(seed=11, count=6)
    ours = SentenceTransformerEmbedder(EmbedderConfig(dtype="float32")).embed(texts)
    library = SentenceTransformerEmbedder(EmbedderConfig(dtype="float32", implementation="sentence-transformers"))
    assert not isinstance(library._load(), type(load_bert_encoder(default_minilm_path())))  # noqa: SLF001
    assert (ours == library.embed(texts)).all()
    with pytest.raises(ValueError, match="implementation"):
        EmbedderConfig(implementation="onnx")

"""A lean sentence encoder for BERT-family sentence-transformers models (all-MiniLM-L6-v2 and its kind):
the same vectors as sentence-transformers, without importing it.

sentence-transformers is a general framework (multimodal inputs, prompts, routers, training), and both its
import and its per-call preprocessing cost more than the forward of a small model. ``import
sentence_transformers`` took ~3 s of CPU on a 2-core machine (it pulls in scikit-learn, SciPy and
transformers' distributed tensors) before the first lookup could run, and each single-text call spent
several milliseconds in Python before the first matmul. This module reads the three parts such a model is
made of, as sentence-transformers saves them:

- ``modules.json``: a ``Transformer`` over a BERT ``config.json``, then ``Pooling`` (mean of the token
  vectors, padding excluded), then ``Normalize``;
- the WordPiece tokenizer from ``tokenizer.json`` (the ``tokenizers`` library, which transformers' fast
  tokenizer wraps), truncating to ``sentence_bert_config.json``'s ``max_seq_length`` and padding to the
  longest text of a batch;
- the weights from ``model.safetensors``.

:func:`load_bert_encoder` returns ``None`` for any other layout (another architecture, CLS or max pooling,
extra modules, a missing file): the caller then falls back to sentence-transformers. The forward is BERT's
post-norm encoder written out with torch ops (``scaled_dot_product_attention`` with a padding mask, exact
GELU); a test holds its vectors to sentence-transformers' own."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_TRANSFORMER = "sentence_transformers.models.Transformer"
_POOLING = "sentence_transformers.models.Pooling"
_NORMALIZE = "sentence_transformers.models.Normalize"


@dataclass(frozen=True, slots=True)
class BertShape:
    """The sizes of a BERT encoder (``config.json``)."""

    hidden: int
    layers: int
    heads: int
    intermediate: int
    eps: float
    max_positions: int


def _plain_bert_layout(path: Path) -> tuple[BertShape, int, bool] | None:
    """``(shape, max_seq_length, normalised)`` when ``path`` holds a BERT encoder with mean pooling and normalisation and
    nothing else, else ``None``."""
    try:
        modules = json.loads((path / "modules.json").read_text(encoding="utf-8"))
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        types = [m.get("type") for m in modules]
        if types not in ([_TRANSFORMER, _POOLING, _NORMALIZE], [_TRANSFORMER, _POOLING]) or modules[0].get("path"):
            return None
        pooling = json.loads((path / modules[1]["path"] / "config.json").read_text(encoding="utf-8"))
        bert_config = json.loads((path / "sentence_bert_config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return None
    means_only = pooling.get("pooling_mode_mean_tokens") and not any(
        pooling.get(k) for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens",
                                 "pooling_mode_weightedmean_tokens", "pooling_mode_lasttoken"))
    plain = (config.get("model_type") == "bert" and config.get("hidden_act") == "gelu" and means_only
             and config.get("position_embedding_type", "absolute") == "absolute" and not bert_config.get("do_lower_case")
             and (path / "tokenizer.json").is_file() and (path / "model.safetensors").is_file())
    if not plain:
        return None
    shape = BertShape(hidden=int(config["hidden_size"]), layers=int(config["num_hidden_layers"]),
                      heads=int(config["num_attention_heads"]), intermediate=int(config["intermediate_size"]),
                      eps=float(config.get("layer_norm_eps", 1e-12)), max_positions=int(config["max_position_embeddings"]))
    max_len = int(bert_config.get("max_seq_length") or shape.max_positions)
    return shape, min(max_len, shape.max_positions), len(types) == 3


class BertEncoder:
    """Mean-pooled BERT sentence vectors (unit length where the model ends with ``Normalize``), in the dtype
    the weights were cast to."""

    def __init__(self, shape: BertShape, tokenizer: Any, weights: dict[str, Any], max_length: int,
                 normalize: bool) -> None:
        self.shape = shape
        self.normalize = normalize
        self.max_length = max_length
        self._tokenizer = tokenizer
        self._w = weights

    @property
    def dim(self) -> int:
        return self.shape.hidden

    @property
    def dtype(self):
        return self._w["embeddings.word_embeddings.weight"].dtype

    def to(self, dtype) -> BertEncoder:
        """The encoder with every weight cast to ``dtype`` (token ids stay integers)."""
        return BertEncoder(self.shape, self._tokenizer, {k: v.to(dtype) for k, v in self._w.items()}, self.max_length,
                           self.normalize)

    def tokenize(self, texts: list[str]):
        """``(ids, mask)``: int64 tensors of shape (batch, longest), padded with 0 on the right."""
        import torch

        # sentence-transformers strips each text before tokenizing
        encodings = self._tokenizer.encode_batch([t.strip() for t in texts])
        ids = torch.tensor([e.ids for e in encodings], dtype=torch.long)
        mask = torch.tensor([e.attention_mask for e in encodings], dtype=torch.long)
        return ids, mask

    def forward(self, ids, mask):
        """Sentence vectors of shape (batch, hidden) for token ids and mask of shape (batch, length)."""
        import torch
        import torch.nn.functional as F

        w, s = self._w, self.shape
        batch, length = ids.shape
        head_dim = s.hidden // s.heads
        # (batch, length, hidden); summed in BERT's order, which fixes the bits in bfloat16
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.token_type_embeddings.weight"][0]
        x = x + w["embeddings.position_embeddings.weight"][:length]
        x = F.layer_norm(x, (s.hidden,), w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], s.eps)
        # (batch, 1, 1, length): True for the tokens a query may attend to; none without padding (as BERT
        # itself does: attention then takes the unmasked kernel, whose bits differ in bfloat16)
        keep = None if bool(mask.all()) else mask[:, None, None, :].bool()
        for i in range(s.layers):
            p = f"encoder.layer.{i}."
            # (batch, heads, length, head_dim) each
            q, k, v = (F.linear(x, w[f"{p}attention.self.{n}.weight"], w[f"{p}attention.self.{n}.bias"])
                       .view(batch, length, s.heads, head_dim).transpose(1, 2) for n in ("query", "key", "value"))
            attended = F.scaled_dot_product_attention(q, k, v, attn_mask=keep, scale=1.0 / math.sqrt(head_dim))
            attended = attended.transpose(1, 2).reshape(batch, length, s.hidden)
            h = F.linear(attended, w[f"{p}attention.output.dense.weight"], w[f"{p}attention.output.dense.bias"])
            x = F.layer_norm(h + x, (s.hidden,), w[f"{p}attention.output.LayerNorm.weight"],
                             w[f"{p}attention.output.LayerNorm.bias"], s.eps)
            h = F.gelu(F.linear(x, w[f"{p}intermediate.dense.weight"], w[f"{p}intermediate.dense.bias"]))
            h = F.linear(h, w[f"{p}output.dense.weight"], w[f"{p}output.dense.bias"])
            x = F.layer_norm(h + x, (s.hidden,), w[f"{p}output.LayerNorm.weight"], w[f"{p}output.LayerNorm.bias"], s.eps)
        # mean over the real tokens: (batch, hidden), summed in float32 for 16-bit dtypes, as
        # sentence-transformers' pooling does, then back to the model's dtype
        weights = mask[:, :, None].to(x.dtype)
        accumulate = torch.float32 if x.dtype in (torch.float16, torch.bfloat16) else x.dtype
        total = (x * weights).sum(1, dtype=accumulate)
        pooled = (total / weights.sum(1, dtype=accumulate).clamp(min=1e-9)).to(x.dtype)
        return F.normalize(pooled, p=2, dim=-1) if self.normalize else pooled


def _tokenizer_options(path: Path) -> dict[str, Any]:
    """``tokenizer_config.json`` (empty when absent)."""
    config = path / "tokenizer_config.json"
    return json.loads(config.read_text(encoding="utf-8")) if config.is_file() else {}


def _normalizer_agrees(tokenizer: Any, options: dict[str, Any]) -> bool:
    """Whether the tokenizer's BERT normalizer (from ``tokenizer.json``) does what ``tokenizer_config.json`` asks:
    transformers' fast BERT tokenizer rebuilds the normalizer when they differ (lower-casing, accents, Chinese
    characters), and this module reads ``tokenizer.json`` alone, so such a model goes to sentence-transformers."""
    from tokenizers.normalizers import BertNormalizer

    normalizer = tokenizer.normalizer
    if not isinstance(normalizer, BertNormalizer):
        return False
    pairs = (("do_lower_case", "lowercase"), ("strip_accents", "strip_accents"),
             ("tokenize_chinese_chars", "handle_chinese_chars"))
    return all(options[ours] == getattr(normalizer, theirs) for ours, theirs in pairs if ours in options)


def load_bert_encoder(path: Path) -> BertEncoder | None:
    """The encoder of the sentence-transformers model saved in ``path``, or ``None`` when its layout is not a
    plain BERT with mean pooling (see the module docstring) or a part cannot be read."""
    layout = _plain_bert_layout(path)
    if layout is None:
        return None
    shape, max_length, normalize = layout
    try:
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        options = _tokenizer_options(path)
        raw = load_file(str(path / "model.safetensors"))
    except Exception:  # noqa: BLE001 - any unreadable part: the caller falls back to sentence-transformers
        return None
    pad_token = options.get("pad_token", "[PAD]")
    pad_id = tokenizer.token_to_id(pad_token) if isinstance(pad_token, str) else None
    if pad_id is None or not _normalizer_agrees(tokenizer, options):
        return None
    tokenizer.enable_truncation(max_length)
    tokenizer.enable_padding(pad_id=pad_id, pad_type_id=0, pad_token=pad_token)  # to the longest text of the batch
    # checkpoints name their tensors with or without the "bert." prefix
    weights = {k.removeprefix("bert."): v for k, v in raw.items()}
    needed = ["embeddings.word_embeddings.weight", "embeddings.position_embeddings.weight",
              "embeddings.token_type_embeddings.weight", "embeddings.LayerNorm.weight",
              f"encoder.layer.{shape.layers - 1}.output.LayerNorm.bias"]
    if any(k not in weights for k in needed):
        return None
    return BertEncoder(shape, tokenizer, weights, max_length, normalize)

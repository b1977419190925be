"""``thrifty kv-size``: KV-cache bytes for a model, sequence length and batch, from the model's metadata."""

from __future__ import annotations

import json
from dataclasses import dataclass

import torch

from backend.config import ModelConfig
from backend.engine.config import kv_cache_bytes, kv_scale_bytes
from backend.weights import open_gguf
from tokenization.models import ModelSource, WeightsError, resolve_model


def read_model_config(path: str | None) -> ModelConfig:
    """The decoder shape of a GGUF file or safetensors folder, read from metadata only (no weights)."""
    source = resolve_model(path)
    if source.kind == "gguf":
        return _gguf_config(source)
    try:
        raw = json.loads((source.path / "config.json").read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise WeightsError(f"cannot read {source.path / 'config.json'}: {exc}") from exc
    heads = int(raw["num_attention_heads"])
    return ModelConfig(
        vocab_size=int(raw["vocab_size"]), hidden_size=int(raw["hidden_size"]),
        intermediate_size=int(raw["intermediate_size"]), num_layers=int(raw["num_hidden_layers"]),
        num_heads=heads, num_kv_heads=int(raw.get("num_key_value_heads", heads)),
        head_dim=int(raw.get("head_dim") or raw["hidden_size"] // heads),
        max_position_embeddings=int(raw.get("max_position_embeddings", 2048)),
    )


def _gguf_config(source: ModelSource) -> ModelConfig:
    field = open_gguf(source.path).get

    arch = field("general.architecture")
    if arch != "llama":
        raise WeightsError(f"{source.path}: architecture {arch!r} is not supported (only 'llama')")
    hidden = int(field("llama.embedding_length"))
    heads = int(field("llama.attention.head_count"))
    return ModelConfig(
        vocab_size=int(field("llama.vocab_size", 0) or 1), hidden_size=hidden,
        intermediate_size=int(field("llama.feed_forward_length")), num_layers=int(field("llama.block_count")),
        num_heads=heads, num_kv_heads=int(field("llama.attention.head_count_kv", heads)),
        head_dim=int(field("llama.attention.key_length", hidden // heads)),
        max_position_embeddings=int(field("llama.context_length", 2048)),
    )


@dataclass(frozen=True, slots=True)
class KVSize:
    """The terms of 2 × layers × kv_heads × (head_dim × bytes per element + scale bytes) × seq_len × batch.

    ``scale_bytes`` is the per-(token, KV head) scale of an int8 cache (4, float32), 0 otherwise."""

    layers: int
    kv_heads: int
    head_dim: int
    seq_len: int
    batch: int
    bytes_per_element: int
    scale_bytes: int = 0

    @property
    def total_bytes(self) -> int:
        per_head = self.head_dim * self.bytes_per_element + self.scale_bytes
        return 2 * self.layers * self.kv_heads * per_head * self.seq_len * self.batch

    def render(self) -> str:
        gib = self.total_bytes / 2**30
        mib = self.total_bytes / 2**20
        if self.scale_bytes:
            head = f"({self.head_dim} head_dim x {self.bytes_per_element} bytes + {self.scale_bytes} scale bytes)"
            return (f"2 x {self.layers} layers x {self.kv_heads} kv_heads x {head} x {self.seq_len} seq_len x "
                    f"{self.batch} batch\n= {self.total_bytes} bytes ({mib:.1f} MiB, {gib:.3f} GiB)")
        return (f"2 x {self.layers} layers x {self.kv_heads} kv_heads x {self.head_dim} head_dim x "
                f"{self.seq_len} seq_len x {self.batch} batch x {self.bytes_per_element} bytes\n"
                f"= {self.total_bytes} bytes ({mib:.1f} MiB, {gib:.3f} GiB)")


def kv_size(model: ModelConfig, seq_len: int, batch: int, dtype: torch.dtype) -> KVSize:
    """The KV-cache size of ``batch`` sequences of ``seq_len`` tokens with ``dtype`` elements (int8: + scales)."""
    if seq_len < 1 or batch < 1:
        raise ValueError("seq_len and batch must be positive")
    element = torch.empty((), dtype=dtype).element_size()
    size = KVSize(model.num_layers, model.num_kv_heads, model.head_dim, seq_len, batch, element, kv_scale_bytes(dtype))
    assert size.total_bytes == kv_cache_bytes(model, seq_len, batch, dtype)
    return size

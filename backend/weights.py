"""Locating and reading model weights: GGUF files (dequantized) and Hugging Face safetensors folders.

Both paths produce the same thing: a :class:`ModelConfig` and a state dict whose names and layouts
follow Hugging Face's Llama (``model.layers.N.self_attn.q_proj.weight`` ...), so the model code has
one weight layout to understand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from backend.config import ModelConfig
from backend.gguf_dequant import dequantize_blocks
from backend.gguf_file import GGUFFile, GGUFFormatError
from tokenization.models import ModelSource, WeightsError

GGUF_TENSOR_NAMES = {
    "token_embd.weight": "model.embed_tokens.weight",
    "output_norm.weight": "model.norm.weight",
    "output.weight": "lm_head.weight",
}
GGUF_LAYER_NAMES = {
    "attn_norm": "input_layernorm",
    "ffn_norm": "post_attention_layernorm",
    "attn_q": "self_attn.q_proj",
    "attn_k": "self_attn.k_proj",
    "attn_v": "self_attn.v_proj",
    "attn_output": "self_attn.o_proj",
    "ffn_gate": "mlp.gate_proj",
    "ffn_up": "mlp.up_proj",
    "ffn_down": "mlp.down_proj",
}


def _unpermute_rope(weight: torch.Tensor, num_heads: int) -> torch.Tensor:
    """Undo llama.cpp's row permutation of q/k projections (pairwise → half-split rotary layout)."""
    # weight: [num_heads * head_dim, hidden]
    rows, cols = weight.shape
    half = rows // num_heads // 2
    return weight.reshape(num_heads, half, 2, cols).transpose(1, 2).reshape(rows, cols)


def open_gguf(path: Path) -> GGUFFile:
    """The metadata and tensor views of the GGUF file at ``path`` (:class:`backend.gguf_file.GGUFFile`);
    a file that cannot be read or parsed raises :class:`WeightsError` naming it."""
    try:
        return GGUFFile(path)
    except (OSError, GGUFFormatError) as exc:
        raise WeightsError(f"cannot read GGUF file {path}: {exc}") from exc


def _reader(path_or_reader):
    return open_gguf(path_or_reader) if isinstance(path_or_reader, str | Path) else path_or_reader


def load_gguf(path: Path, dtype: torch.dtype, progress: Callable[[int, int], None] | None = None, reader=None):
    """Read a Llama GGUF file into ``(ModelConfig, state_dict)`` with dequantized tensors
    (``reader``: an already open :func:`open_gguf` of ``path``)."""
    import gguf

    reader = reader if reader is not None else open_gguf(path)
    arch = reader.get("general.architecture")
    if arch != "llama":
        raise WeightsError(f"{path}: architecture {arch!r} is not supported (only 'llama')")
    hidden = int(reader.get("llama.embedding_length"))
    heads = int(reader.get("llama.attention.head_count"))
    kv_heads = int(reader.get("llama.attention.head_count_kv", heads))
    tensors = {t.name: t for t in reader.tensors}
    vocab = int(reader.get("llama.vocab_size", 0)) or int(tensors["token_embd.weight"].shape[-1])
    config = ModelConfig(
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=int(reader.get("llama.feed_forward_length")),
        num_layers=int(reader.get("llama.block_count")),
        num_heads=heads,
        num_kv_heads=kv_heads,
        head_dim=int(reader.get("llama.attention.key_length", hidden // heads)),
        rope_theta=float(reader.get("llama.rope.freq_base", 10000.0)),
        rms_norm_eps=float(reader.get("llama.attention.layer_norm_rms_epsilon", 1e-5)),
        max_position_embeddings=int(reader.get("llama.context_length", 2048)),
        tie_word_embeddings="output.weight" not in tensors,
        bos_token_id=_optional_int(reader.get("tokenizer.ggml.bos_token_id")),
        eos_token_id=_optional_int(reader.get("tokenizer.ggml.eos_token_id")),
    )
    state: dict[str, torch.Tensor] = {}
    for i, (name, tensor) in enumerate(tensors.items()):
        array = _dequantize(gguf, name, tensor)
        value = torch.from_numpy(np.array(array, dtype=np.float32, copy=True))
        state[_hf_name(name)] = value
        if progress:
            progress(i + 1, len(tensors))
    for layer in range(config.num_layers):
        q, k = f"model.layers.{layer}.self_attn.q_proj.weight", f"model.layers.{layer}.self_attn.k_proj.weight"
        state[q] = _unpermute_rope(state[q], config.num_heads)
        state[k] = _unpermute_rope(state[k], config.num_kv_heads)
    return config, {k: v.to(dtype) for k, v in state.items()}


def _dequantize(gguf, name: str, tensor) -> np.ndarray:
    """One GGUF tensor → float array; an unsupported quantization type names the tensor and the type."""
    fast = dequantize_blocks(tensor.data, getattr(tensor.tensor_type, "name", ""))
    if fast is not None:  # Q4_0, Q4_1, Q8_0: whole-tensor torch ops, gguf's values bit for bit
        return fast
    try:
        return gguf.quants.dequantize(tensor.data, tensor.tensor_type)
    except (NotImplementedError, KeyError, ValueError) as exc:
        type_name = getattr(tensor.tensor_type, "name", str(tensor.tensor_type))
        raise WeightsError(
            f"tensor {name!r} uses GGUF quantization type {type_name}, which this loader cannot dequantize "
            f"({exc}); re-export the model with a supported type (F32, F16, BF16, Q8_0, Q4_0, Q4_1, "
            "the K-quants), e.g. `llama-quantize --allow-requantize IN.gguf OUT.gguf Q8_0`, or pass a "
            "safetensors folder with --model") from exc


def gguf_projection_types(path_or_reader) -> dict[str, str]:
    """GGUF type name (``Q4_1``, ``Q8_0``, ``F32`` ...) of each linear projection, by Hugging Face name
    (``path_or_reader``: a GGUF path or an :func:`open_gguf` reader)."""
    reader = _reader(path_or_reader)
    names = ((_hf_name(t.name), t.tensor_type.name) for t in reader.tensors)
    return {n: t for n, t in names if n.startswith("model.layers.") and n.endswith("_proj.weight")}


def read_gguf_4bit_blocks(path_or_reader, config: ModelConfig) -> tuple[dict, dict[str, str]]:
    """The linear layers' own 4-bit blocks of a GGUF file, without dequantizing them.

    Returns ``(blocks, other_types)``: ``blocks`` maps Hugging Face names (``model.layers.N.self_attn.q_proj.weight``)
    to :class:`backend.quant.blocks.Int4Weight` for every Q4_0/Q4_1 projection (q/k rows un-permuted as
    :func:`load_gguf` does); ``other_types`` maps the remaining projections to their GGUF type name, for
    the caller to quantize from the dequantized weights and say so."""
    from backend.quant.blocks import FOUR_BIT_GGUF_TYPES, decode_gguf_4bit

    reader = _reader(path_or_reader)
    blocks, other_types = {}, {}
    for tensor in reader.tensors:
        name = _hf_name(tensor.name)
        if not name.startswith("model.layers.") or not name.endswith("_proj.weight"):
            continue
        type_name = tensor.tensor_type.name
        if type_name not in FOUR_BIT_GGUF_TYPES:
            other_types[name] = type_name
            continue
        cols, rows = (int(d) for d in tensor.shape)  # ggml order: [K, N]
        weight = decode_gguf_4bit(tensor.data, type_name, rows, cols)
        heads = config.num_heads if name.endswith("q_proj.weight") else config.num_kv_heads
        if name.endswith(("q_proj.weight", "k_proj.weight")):
            order = _unpermute_rope(torch.arange(rows, dtype=torch.float64)[:, None], heads)[:, 0].long()
            weight = weight.select_rows(order)
        blocks[name] = weight
    return blocks, other_types


def _optional_int(value) -> int | None:
    return None if value is None else int(value)


def _hf_name(gguf_name: str) -> str:
    if gguf_name in GGUF_TENSOR_NAMES:
        return GGUF_TENSOR_NAMES[gguf_name]
    parts = gguf_name.split(".")
    if len(parts) == 4 and parts[0] == "blk" and parts[2] in GGUF_LAYER_NAMES:
        return f"model.layers.{parts[1]}.{GGUF_LAYER_NAMES[parts[2]]}.{parts[3]}"
    raise WeightsError(f"unexpected tensor {gguf_name!r} in GGUF file")


def load_safetensors(folder: Path, dtype: torch.dtype):
    """Read a Hugging Face Llama folder (config.json + *.safetensors) into ``(ModelConfig, state_dict)``."""
    from safetensors.torch import load_file

    try:
        raw = json.loads((folder / "config.json").read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise WeightsError(f"cannot read {folder / 'config.json'}: {exc}") from exc
    if raw.get("model_type") not in ("llama", "mistral", None):
        raise WeightsError(f"{folder}: model_type {raw.get('model_type')!r} is not a Llama model")
    heads = int(raw["num_attention_heads"])
    config = ModelConfig(
        vocab_size=int(raw["vocab_size"]),
        hidden_size=int(raw["hidden_size"]),
        intermediate_size=int(raw["intermediate_size"]),
        num_layers=int(raw["num_hidden_layers"]),
        num_heads=heads,
        num_kv_heads=int(raw.get("num_key_value_heads", heads)),
        head_dim=int(raw.get("head_dim") or raw["hidden_size"] // heads),
        rope_theta=float(raw.get("rope_theta", 10000.0)),
        rms_norm_eps=float(raw.get("rms_norm_eps", 1e-5)),
        max_position_embeddings=int(raw.get("max_position_embeddings", 2048)),
        tie_word_embeddings=bool(raw.get("tie_word_embeddings", False)),
        bos_token_id=_optional_int(raw.get("bos_token_id")),
        eos_token_id=_optional_int(raw.get("eos_token_id") if not isinstance(raw.get("eos_token_id"), list) else raw["eos_token_id"][0]),
    )
    state: dict[str, torch.Tensor] = {}
    for file in sorted(folder.glob("*.safetensors")):
        state.update(load_file(str(file)))
    return config, {k: v.to(dtype) for k, v in state.items()}


def load_weights(source: ModelSource, dtype: torch.dtype, progress: Callable[[int, int], None] | None = None,
                 reader=None):
    """Load ``(ModelConfig, state_dict)`` from either source kind (``reader``: an open GGUF, for ``gguf``)."""
    if source.kind == "gguf":
        return load_gguf(source.path, dtype, progress, reader)
    return load_safetensors(source.path, dtype)

"""Weight loading: safetensors folders and GGUF files (tiny random models written by the test)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from backend.config import BackendConfig
from backend.model import ContiguousKVCache, LlamaForCausalLM
from backend.weights import load_gguf, load_safetensors
from tokenization.models import WeightsError, resolve_model


@pytest.fixture(scope="module")
def tiny_hf(tmp_path_factory):
    """A random 2-layer HF Llama with GQA (4 query heads, 2 KV heads), saved as safetensors."""
    from transformers import LlamaConfig
    from transformers import LlamaForCausalLM as HFLlama

    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=128, hidden_size=64, intermediate_size=96, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         rope_theta=10000.0, tie_word_embeddings=False)
    model = HFLlama(config).eval()
    folder = tmp_path_factory.mktemp("tiny-llama")
    model.save_pretrained(folder, safe_serialization=True)
    return model, folder


def _forward(config, state, ids):
    model = LlamaForCausalLM(config)
    model.load_state(state)
    cache = ContiguousKVCache(config, len(ids), torch.float32, "cpu")
    return model.compute_logits(model(torch.tensor(ids), torch.arange(len(ids)), cache))


def test_safetensors_folder_matches_transformers(tiny_hf):
    hf_model, folder = tiny_hf
    config, state = load_safetensors(folder, torch.float32)
    assert (config.num_heads, config.num_kv_heads, config.num_layers) == (4, 2, 2)
    ids = [1, 5, 9, 33, 2, 7, 100, 64, 3]
    with torch.no_grad():
        ref = hf_model(torch.tensor([ids])).logits[0]
    assert torch.allclose(_forward(config, state, ids), ref, atol=1e-4)


def _llama_cpp_permute(weight: np.ndarray, heads: int) -> np.ndarray:
    """The row order llama.cpp's converter uses for q/k (pairs interleaved per head)."""
    rows = weight.shape[0]
    return weight.reshape(heads, 2, rows // heads // 2, *weight.shape[1:]).swapaxes(1, 2).reshape(weight.shape)


def test_gguf_file_round_trips_to_the_same_logits(tiny_hf, tmp_path):
    import gguf

    hf_model, _ = tiny_hf
    cfg = hf_model.config
    path = tmp_path / "tiny.gguf"
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_block_count(cfg.num_hidden_layers)
    writer.add_context_length(cfg.max_position_embeddings)
    writer.add_embedding_length(cfg.hidden_size)
    writer.add_feed_forward_length(cfg.intermediate_size)
    writer.add_head_count(cfg.num_attention_heads)
    writer.add_head_count_kv(cfg.num_key_value_heads)
    writer.add_rope_freq_base(10000.0)
    writer.add_layer_norm_rms_eps(cfg.rms_norm_eps)
    writer.add_vocab_size(cfg.vocab_size)
    names = {"input_layernorm": "attn_norm", "post_attention_layernorm": "ffn_norm", "self_attn.q_proj": "attn_q",
             "self_attn.k_proj": "attn_k", "self_attn.v_proj": "attn_v", "self_attn.o_proj": "attn_output",
             "mlp.gate_proj": "ffn_gate", "mlp.up_proj": "ffn_up", "mlp.down_proj": "ffn_down"}
    for name, tensor in hf_model.state_dict().items():
        array = tensor.detach().float().numpy()
        if name == "model.embed_tokens.weight":
            target = "token_embd.weight"
        elif name == "model.norm.weight":
            target = "output_norm.weight"
        elif name == "lm_head.weight":
            target = "output.weight"
        else:
            layer, rest = name.split(".")[2], ".".join(name.split(".")[3:-1])
            target = f"blk.{layer}.{names[rest]}.weight"
            if rest == "self_attn.q_proj":
                array = _llama_cpp_permute(array, cfg.num_attention_heads)
            elif rest == "self_attn.k_proj":
                array = _llama_cpp_permute(array, cfg.num_key_value_heads)
        writer.add_tensor(target, np.ascontiguousarray(array))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()

    config, state = load_gguf(path, torch.float32)
    assert not config.tie_word_embeddings
    ids = [3, 1, 4, 1, 5, 9, 2, 6]
    with torch.no_grad():
        ref = hf_model(torch.tensor([ids])).logits[0]
    assert torch.allclose(_forward(config, state, ids), ref, atol=1e-4)


def test_bad_model_paths_are_reported(tmp_path):
    with pytest.raises(WeightsError, match="expected a .gguf file"):
        resolve_model(str(tmp_path / "missing"))
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"not a gguf file at all")
    with pytest.raises(WeightsError, match="cannot read GGUF"):
        load_gguf(bad, torch.float32)


def test_default_model_is_found_in_the_installed_wheel():
    source = resolve_model(BackendConfig().model_path)
    assert source.kind == "gguf" and source.path.name.endswith(".gguf") and source.path.stat().st_size > 50e6

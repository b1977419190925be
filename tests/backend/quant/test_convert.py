"""Swapping a model's linear layers for int4/int8 ones: from a GGUF file's own Q4_1 blocks, or quantized at load."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from backend.config import ModelConfig
from backend.model import LlamaForCausalLM
from backend.quant.blocks import quantize_int4
from backend.quant.convert import convert_linears
from backend.quant.linear import Int4Linear, Int8Linear, QuantizedLinearError
from backend.sampling import SamplingParams
from backend.weights import load_gguf, read_gguf_4bit_blocks
from tests.backend.quant.test_blocks import random_blocks
from tests.backend.test_engine_support import (
    TINY,
    check_greedy_equal,
    oracle_tokens,
    run_engine,
    tiny_engine,
    tiny_loaded,
)
from tokenization.models import WeightsError

GGUF_CONFIG = ModelConfig(vocab_size=64, hidden_size=64, intermediate_size=96, num_layers=2, num_heads=4,
                          num_kv_heads=2, head_dim=16, max_position_embeddings=128)
PROJECTIONS = ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down")


def write_gguf(path, projection_type: str = "Q4_1", odd_tensor: str | None = None,
               cfg: ModelConfig = GGUF_CONFIG) -> None:
    """A tiny llama GGUF whose projections are random 4-bit blocks (``odd_tensor`` written as Q8_1;
    ``projection_type="F32"``: plain float32 projections)."""
    import gguf

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_block_count(cfg.num_layers)
    writer.add_context_length(cfg.max_position_embeddings)
    writer.add_embedding_length(cfg.hidden_size)
    writer.add_feed_forward_length(cfg.intermediate_size)
    writer.add_head_count(cfg.num_heads)
    writer.add_head_count_kv(cfg.num_kv_heads)
    writer.add_vocab_size(cfg.vocab_size)
    rng = np.random.default_rng(0)
    writer.add_tensor("token_embd.weight", rng.normal(0, 0.3, (cfg.vocab_size, cfg.hidden_size)).astype(np.float32))
    writer.add_tensor("output_norm.weight", np.ones(cfg.hidden_size, np.float32))
    for layer in range(cfg.num_layers):
        writer.add_tensor(f"blk.{layer}.attn_norm.weight", np.ones(cfg.hidden_size, np.float32))
        writer.add_tensor(f"blk.{layer}.ffn_norm.weight", np.ones(cfg.hidden_size, np.float32))
        q_rows, kv_rows = cfg.num_heads * cfg.head_dim, cfg.num_kv_heads * cfg.head_dim
        rows_of = {"attn_q": q_rows, "attn_k": kv_rows, "attn_v": kv_rows, "attn_output": cfg.hidden_size,
                   "ffn_gate": cfg.intermediate_size, "ffn_up": cfg.intermediate_size, "ffn_down": cfg.hidden_size}
        for i, name in enumerate(PROJECTIONS):
            rows = rows_of[name]
            cols = cfg.intermediate_size if name == "ffn_down" else (q_rows if name == "attn_output" else cfg.hidden_size)
            full = f"blk.{layer}.{name}.weight"
            if projection_type == "F32":
                writer.add_tensor(full, rng.normal(0, 0.1, (rows, cols)).astype(np.float32))
            elif full == odd_tensor:
                raw = rng.integers(0, 256, size=(rows, cols // 32 * 40), dtype=np.uint8)  # Q8_1: 40-byte blocks
                writer.add_tensor(full, raw, raw_dtype=gguf.GGMLQuantizationType.Q8_1)
            else:
                raw = random_blocks(projection_type, rows, cols, seed=layer * 10 + i)
                writer.add_tensor(full, raw, raw_dtype=getattr(gguf.GGMLQuantizationType, projection_type))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def test_int4_layers_come_from_the_files_blocks_and_equal_the_dequantized_model(tmp_path) -> None:
    path = tmp_path / "tiny-q4_1.gguf"
    write_gguf(path)
    config, state = load_gguf(path, torch.float32)
    blocks, other = read_gguf_4bit_blocks(path, config)
    assert other == {} and len(blocks) == 7 * config.num_layers
    for name, weight in blocks.items():  # q/k rows un-permuted like the loader's
        assert torch.equal(weight.dequantize(), state[name]), name
    model = LlamaForCausalLM(config)
    model.load_state(state)
    ids, positions = torch.tensor([3, 1, 4, 1, 5, 9, 2, 6]), torch.arange(8)
    from backend.model import ContiguousKVCache

    exact = model.compute_logits(model(ids, positions, ContiguousKVCache(config, 8, torch.float32, "cpu")))
    report = convert_linears(model, "int4", kernel_max_rows=4, dense_dtype=torch.float32, blocks=blocks)
    assert len(report.from_file_blocks) == 4 * config.num_layers and report.quantized_here == []
    assert report.int8 == ["lm_head"]
    assert isinstance(model.model.layers[1].self_attn.qkv_proj, Int4Linear)
    assert isinstance(model.lm_head, Int8Linear)
    got = model.compute_logits(model(ids, positions, ContiguousKVCache(config, 8, torch.float32, "cpu")))
    assert torch.allclose(got, exact, atol=0.03 * float(exact.abs().max()))


def test_blocks_that_disagree_with_the_loaded_weights_are_refused() -> None:
    loaded = tiny_loaded()
    state = {n: p.detach() for n, p in loaded.model.named_parameters()}
    wrong = {"model.layers.0.mlp.down_proj.weight": quantize_int4(torch.randn_like(state["model.layers.0.mlp.down_proj.weight"]))}
    with pytest.raises(QuantizedLinearError, match="down_proj.*do not match"):
        convert_linears(loaded.model, "int4", kernel_max_rows=4, dense_dtype=torch.float32, blocks=wrong)


def test_unsupported_gguf_type_names_the_tensor_and_the_type(tmp_path) -> None:
    path = tmp_path / "odd.gguf"
    write_gguf(path, odd_tensor="blk.1.ffn_up.weight")
    with pytest.raises(WeightsError, match=r"'blk\.1\.ffn_up\.weight' uses GGUF quantization type Q8_1.*re-export"):
        load_gguf(path, torch.float32)


def test_other_block_types_are_reported_for_quantizing_at_load(tmp_path) -> None:
    path = tmp_path / "tiny-q4_0.gguf"
    write_gguf(path, projection_type="Q4_0")
    config, state = load_gguf(path, torch.float32)
    blocks, other = read_gguf_4bit_blocks(path, config)
    assert len(blocks) == 14 and other == {}
    del blocks["model.layers.0.mlp.up_proj.weight"]  # as if this one were, say, Q6_K
    model = LlamaForCausalLM(config)
    model.load_state(state)
    report = convert_linears(model, "int4", kernel_max_rows=4, dense_dtype=torch.float32, blocks=blocks)
    assert report.quantized_here == ["model.layers.0.mlp.gate_up_proj"] and len(report.from_file_blocks) == 7


def test_int4_shapes_that_do_not_fit_fail_before_any_layer_changes() -> None:
    config = ModelConfig(vocab_size=64, hidden_size=48, intermediate_size=96, num_layers=1, num_heads=3,
                         num_kv_heads=1, head_dim=16, max_position_embeddings=64)
    model = LlamaForCausalLM(config)
    with pytest.raises(QuantizedLinearError, match=r"model\.layers\.0\.self_attn\.qkv_proj.*group size 32"):
        convert_linears(model, "int4", kernel_max_rows=4, dense_dtype=torch.float32)
    assert isinstance(model.model.layers[0].self_attn.qkv_proj, torch.nn.Linear)  # untouched


@pytest.mark.parametrize("mode", ["int4", "int8"])
def test_engine_with_quantized_weights_matches_its_single_request_path(mode: str) -> None:
    loaded = tiny_loaded()
    convert_linears(loaded.model, mode, kernel_max_rows=2, dense_dtype=torch.float32)
    params = SamplingParams(max_tokens=12, temperature=0.0, ignore_eos=True)
    prompts = {f"r{i}": [2 + (i * 13 + j * 7) % (TINY.vocab_size - 2) for j in range(5 + 6 * i)] for i in range(4)}
    got = run_engine(tiny_engine(loaded), [(rid, p, params) for rid, p in prompts.items()])
    for rid, prompt in prompts.items():
        check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), got[rid][0])


def test_int4_on_a_model_whose_shapes_do_not_fit_is_a_plain_start_up_error(tmp_path, capsys) -> None:
    from backend.config import BackendConfig
    from backend.runtime import load_model
    from proxy.cli import main

    path = tmp_path / "hidden48.gguf"
    write_gguf(path, projection_type="F32", cfg=ModelConfig(
        vocab_size=64, hidden_size=48, intermediate_size=96, num_layers=1, num_heads=3, num_kv_heads=1,
        head_dim=16, max_position_embeddings=64))
    with pytest.raises(WeightsError, match=r"qkv_proj: --weights-dtype int4 needs .* group size 32, got 80x48"):
        load_model(BackendConfig(model_path=str(path), weights_dtype="int4", data_dir=str(tmp_path)))
    config = tmp_path / "thrifty.toml"
    config.write_text("")
    code = main(["backend", "serve", "--config", str(config), "--model", str(path), "--weights-dtype", "int4",
                 "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and "thrifty: model.layers.0.self_attn.qkv_proj: --weights-dtype int4 needs" in err
    assert "Traceback" not in err


def test_the_lm_head_can_be_int4_too() -> None:
    loaded = tiny_loaded()
    report = convert_linears(loaded.model, "int4", kernel_max_rows=4, dense_dtype=torch.float32, head="int4")
    assert isinstance(loaded.model.lm_head, Int4Linear) and report.int8 == []
    assert "lm_head" in report.quantized_here

"""Quantized linear weights on the real SmolLM2 (its Q4_1 GGUF): loaded from the file's blocks, and within
a perplexity bound of the fp32 weights on both kernel paths (slow: the real model)."""

from __future__ import annotations

import pytest

from backend.engine import EngineConfig
from backend.quant.linear import Int4Linear, Int8Linear
from backend.sampling import SamplingParams
from backend.weights import open_gguf, read_gguf_4bit_blocks
from benchmarks.engine.kv_eval import paged_perplexity
from benchmarks.engine.kv_eval_text import KV_EVAL_TEXT
from benchmarks.engine.weights_eval import weights_variant
from tests.backend.test_engine_support import oracle_tokens, run_engine, teacher_forced_logits

pytestmark = pytest.mark.slow

TEXT_TOKENS = 384
# perplexity bounds relative to fp32 (measured: BENCHMARKS.md, issue 15, weights quality table)
INT4_BOUND = 0.01  # the 1 % budget for a default
INT8_BOUND = 0.05
# The batch-invariant default quantizes O, gate/up and down activations to one 8-bit level (llama.cpp's Q8). Its
# perplexity moves with the last bits of other kernels: on the full essay +0.12 % with AVX2 builds and +1.19 %
# with AVX-512 ones (same weights; BENCHMARKS.md, "Fused CPU layers"), and on these 384 tokens up to +2.0 %.
INT4_INVARIANT_BOUND = 0.03
# The fused kernel (4-bit values, fp32 accumulation) and the dense path (the same values rounded to bf16)
# differ by bf16 rounding, and which one a token meets depends on how many rows its step has, so greedy
# outputs of the engine and the single-request path may part where the top two logits are this close.
QUANTIZED_NEAR_TIE = 0.25


@pytest.fixture(scope="module")
def variants(smollm2):
    blocks, other = read_gguf_4bit_blocks(open_gguf(smollm2.source.path), smollm2.model.config)
    assert other == {} and len(blocks) == 7 * smollm2.model.config.num_layers  # every projection is Q4_1
    return {"int4": weights_variant(smollm2, "int4", blocks), "int8": weights_variant(smollm2, "int8"),
            "int4 invariant": weights_variant(smollm2, "int4", blocks, batch_invariant=True)}


def _perplexities(loaded, ids, chunks=(128, 8)) -> dict[int, float]:
    config = EngineConfig(block_size=16, num_blocks=len(ids) // 16 + 4, max_model_len=len(ids) + 16,
                          max_num_seqs=1, max_num_batched_tokens=512)
    return {chunk: paged_perplexity(loaded, config, ids, chunk) for chunk in chunks}


def test_quantized_weights_stay_within_the_perplexity_bound_on_both_kernel_paths(smollm2, variants) -> None:
    ids = smollm2.tokenizer.encode(KV_EVAL_TEXT)[:TEXT_TOKENS]
    fp32 = _perplexities(smollm2, ids)
    int4 = variants["int4"]
    layer = int4.model.model.layers[0].mlp.gate_up_proj
    assert isinstance(layer, Int4Linear) and isinstance(int4.model.lm_head, Int8Linear)
    assert 8 <= layer.kernel_max_rows < 128  # chunk 8 runs the fused kernel, chunk 128 the dense matmul
    invariant = variants["int4 invariant"].model.model.layers[0].mlp.gate_up_proj
    assert invariant.native_codes.dim() == 5  # the 4-bit panel kernel, for every row count
    for name, bound in (("int4", INT4_BOUND), ("int8", INT8_BOUND), ("int4 invariant", INT4_INVARIANT_BOUND)):
        got = _perplexities(variants[name], ids)
        for chunk, value in got.items():
            assert abs(value / fp32[chunk] - 1) < bound, (name, chunk, value, fp32[chunk])


def test_engine_with_int4_weights_matches_its_single_request_path(smollm2, variants) -> None:
    loaded = variants["int4"]
    tok = loaded.tokenizer
    params = SamplingParams(max_tokens=16, temperature=0.0, ignore_eos=True)
    prompts = {f"r{i}": tok.encode_chat([{"role": "user", "content": q}])
               for i, q in enumerate(("What is the capital of France?", "Name three colours.", "Count to five."))}
    engine_config = EngineConfig(block_size=16, num_blocks=64, max_model_len=256, max_num_seqs=4,
                                 max_num_batched_tokens=256)
    from backend.engine import Engine

    got = run_engine(Engine(loaded, engine_config), [(rid, p, params) for rid, p in prompts.items()])
    for rid, prompt in prompts.items():
        expected, tokens = oracle_tokens(loaded, prompt, params), got[rid][0]
        assert len(tokens) == len(expected) == 16
        first = next((i for i, (a, b) in enumerate(zip(expected, tokens, strict=True)) if a != b), None)
        if first is not None:
            logits = teacher_forced_logits(loaded, prompt, expected[:first])
            top2 = logits.topk(2)
            assert {expected[first], tokens[first]} == set(top2.indices.tolist()), (rid, first)
            assert float(top2.values[0] - top2.values[1]) < QUANTIZED_NEAR_TIE, (rid, first)

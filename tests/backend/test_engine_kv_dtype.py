"""``kv_cache_dtype``: int8 pools with float32 per-token-per-head scales, and float pools of another dtype,
on the tiny random-weight Llama: sizing, agreement with the fp32 cache, and torch/kernels backends agreeing."""

from __future__ import annotations

import pytest
import torch

from backend.engine import EngineConfig
from backend.engine.config import kv_bytes_per_token, parse_kv_cache_dtype, pool_num_blocks
from backend.engine.kvsize import kv_size
from backend.engine.model_runner import ModelRunner
from backend.sampling import SamplingParams
from tests.backend.test_engine_core import random_requests
from tests.backend.test_engine_support import TINY, run_engine, tiny_engine, tiny_loaded


@pytest.fixture(scope="module")
def loaded():
    return tiny_loaded()


def agreement(a: dict[str, dict[int, list[int]]], b: dict[str, dict[int, list[int]]]) -> float:
    """Fraction of generated tokens that are equal position by position (choice 0 of every request)."""
    same = total = 0
    for rid in a:
        x, y = a[rid][0], b[rid][0]
        total += len(x)
        same += sum(1 for i, j in zip(x, y, strict=True) if i == j)
    return same / total


def test_parse_kv_cache_dtype() -> None:
    assert parse_kv_cache_dtype("auto", torch.bfloat16) == torch.bfloat16
    assert parse_kv_cache_dtype("INT8", torch.float32) == torch.int8
    assert parse_kv_cache_dtype("bf16", torch.float32) == torch.bfloat16
    with pytest.raises(ValueError, match="kv_cache_dtype must be one of auto, int8"):
        parse_kv_cache_dtype("int4", torch.float32)
    with pytest.raises(ValueError, match="kv_cache_dtype"):
        EngineConfig(kv_cache_dtype="fp8")


def test_int8_pool_sizing_counts_scales(loaded) -> None:
    # per token: 2 x layers x kv_heads x (head_dim x 1 byte + 4 scale bytes)
    assert kv_bytes_per_token(TINY, torch.int8) == 2 * 2 * 2 * (16 + 4)
    budget = 64 * 1024
    blocks = {name: pool_num_blocks(EngineConfig(block_size=4, kv_cache_memory=budget, kv_cache_dtype=name), TINY,
                                    parse_kv_cache_dtype(name, torch.float32), torch.device("cpu"))
              for name in ("fp32", "bf16", "int8")}
    assert blocks["bf16"] == 2 * blocks["fp32"]
    assert blocks["int8"] == budget // (4 * 160) and blocks["int8"] > 1.5 * blocks["bf16"]
    engine = tiny_engine(loaded, num_blocks=None, kv_cache_memory=budget, kv_cache_dtype="int8")
    runner = engine.runner
    assert runner.k_cache.dtype == torch.int8 and runner.k_scale is not None
    assert runner.k_scale.shape == (2, blocks["int8"], 4, 2) and runner.k_scale.dtype == torch.float32
    assert runner.kv_cache_bytes == kv_size(TINY, 4 * blocks["int8"], 1, torch.int8).total_bytes <= budget
    fp32 = tiny_engine(loaded, num_blocks=None, kv_cache_memory=budget)
    assert runner.kv_cache_bytes / runner.num_blocks < 0.32 * fp32.runner.kv_cache_bytes / fp32.runner.num_blocks


def test_kv_size_renders_int8_scales() -> None:
    size = kv_size(TINY, seq_len=10, batch=3, dtype=torch.int8)
    assert size.scale_bytes == 4 and size.total_bytes == 2 * 2 * 2 * (16 + 4) * 10 * 3
    assert "+ 4 scale bytes" in size.render() and str(size.total_bytes) in size.render()
    assert "scale" not in kv_size(TINY, 10, 3, torch.float32).render()


@pytest.mark.parametrize("backend", ["torch", "kernels"])
def test_int8_engine_mostly_agrees_with_fp32(loaded, backend: str) -> None:
    requests = random_requests(12, seed=5, shared_prefix=6)
    reference = run_engine(tiny_engine(loaded, attention_backend=backend), requests)
    engine = tiny_engine(loaded, attention_backend=backend, kv_cache_dtype="int8", max_num_batched_tokens=24)
    got = run_engine(engine, requests)
    assert agreement(reference, got) >= 0.8
    assert engine.block_manager.prefix_hits > 0  # cached int8 blocks (and their scales) were reused
    engine.block_manager.check_invariants()


def test_int8_torch_and_kernels_backends_agree(loaded) -> None:
    """Both backends read the same quantised K/V, so their logits agree to float rounding."""
    requests = random_requests(6, seed=9)
    outs = {}
    for backend in ("torch", "kernels"):
        engine = tiny_engine(loaded, attention_backend=backend, kv_cache_dtype="int8", max_num_batched_tokens=16)
        outs[backend] = run_engine(engine, requests)
    assert outs["torch"] == outs["kernels"]


def test_float_kv_of_another_dtype(loaded) -> None:
    requests = random_requests(6, seed=3)
    reference = run_engine(tiny_engine(loaded), requests)
    engine = tiny_engine(loaded, kv_cache_dtype="bf16", attention_backend="torch")
    assert engine.runner.k_cache.dtype == torch.bfloat16 and engine.runner.k_scale is None
    assert agreement(reference, run_engine(engine, requests)) >= 0.8
    with pytest.raises(ValueError, match="kernels attention backend keeps K/V in the model dtype"):
        ModelRunner(loaded.model, 8, 4, torch.float32, torch.device("cpu"), "kernels", torch.float16)


def test_int8_copy_blocks_copies_scales(loaded) -> None:
    runner = ModelRunner(loaded.model, 8, 4, torch.float32, torch.device("cpu"), "torch", torch.int8)
    assert runner.k_scale is not None and runner.v_scale is not None
    with torch.inference_mode():
        runner.k_cache[:, 1].fill_(3)
        runner.k_scale[:, 1].fill_(0.5)
        runner.v_scale[:, 1].fill_(0.25)
    runner.copy_blocks([(1, 5)])
    assert torch.equal(runner.k_cache[:, 5], runner.k_cache[:, 1])
    assert float(runner.k_scale[:, 5].min()) == 0.5 and float(runner.v_scale[:, 5].max()) == 0.25


def test_single_token_prompts_with_int8(loaded) -> None:
    """A one-token prompt reads its own quantised K/V back (fresh prompts go through the pool)."""
    requests = [(f"x{i}", [7 + i], SamplingParams(max_tokens=5, temperature=0.0, ignore_eos=True)) for i in range(3)]
    reference = run_engine(tiny_engine(loaded), requests)
    engine = tiny_engine(loaded, kv_cache_dtype="int8")
    got = run_engine(engine, requests)
    assert all(len(got[rid][0]) == 5 for rid, _, _ in requests)
    # the first token attends to the prompt's one quantised K/V only; it must be the fp32 cache's token
    assert [got[rid][0][0] for rid, _, _ in requests] == [reference[rid][0][0] for rid, _, _ in requests]
    assert agreement(reference, got) >= 0.8
    engine.block_manager.check_invariants()


def test_compare_outputs() -> None:
    from benchmarks.engine.kv_eval import compare_outputs

    a = compare_outputs([[1, 2, 3, 4], [5, 6]], [[1, 2, 9, 4], [5, 6]])
    assert (a.tokens, a.identical, a.identical_prompts, a.prompts) == (6, 5, 1, 2)
    assert a.mean_first_divergence == (2 + 2) / 2 and a.token_fraction == 5 / 6
    with pytest.raises(ValueError, match="reference outputs"):
        compare_outputs([[1]], [])


def test_paged_perplexity_reads_the_pool(loaded) -> None:
    """Chunked teacher forcing through the paged pool equals one dense forward (fp32 KV); int8 is close."""
    from backend.model import ContiguousKVCache
    from benchmarks.engine.kv_eval import paged_perplexity

    ids = [(i * 37 + 11) % (TINY.vocab_size - 2) + 2 for i in range(45)]
    cache = ContiguousKVCache(TINY, len(ids), torch.float32, "cpu")
    logits = loaded.model.compute_logits(loaded.model(torch.tensor(ids), torch.arange(len(ids)), cache))
    logp = torch.log_softmax(logits[:-1].double(), -1).gather(1, torch.tensor(ids[1:])[:, None])
    dense = float(torch.exp(-logp.mean()))
    config = EngineConfig(block_size=4, num_blocks=16, max_model_len=64)
    for chunk in (7, 44, 100):
        assert paged_perplexity(loaded, config, ids, chunk) == pytest.approx(dense, rel=1e-5)
    int8 = EngineConfig(block_size=4, num_blocks=16, max_model_len=64, kv_cache_dtype="int8")
    quantised = paged_perplexity(loaded, int8, ids, 7)
    assert quantised != dense and quantised == pytest.approx(dense, rel=0.05)


def test_backend_flags_reach_the_engine_config() -> None:
    from backend.cli import serve_parser
    from backend.config import BackendConfig

    args = serve_parser().parse_args(["--kv-cache-dtype", "INT8", "--cuda-graphs", "off"])
    assert (args.kv_cache_dtype, args.cuda_graphs) == ("int8", "off")
    config = EngineConfig.from_backend_config(BackendConfig(kv_cache_dtype=args.kv_cache_dtype, cuda_graphs="off"))
    assert (config.kv_cache_dtype, config.cuda_graphs) == ("int8", "off")
    with pytest.raises(SystemExit):
        serve_parser().parse_args(["--kv-cache-dtype", "int4"])


def test_every_kv_cache_dtype_name_maps_to_a_dtype():
    """The torch-free name list the CLI offers and the engine's name → dtype table agree."""
    from backend.config import KV_CACHE_DTYPE_NAMES
    from backend.engine.config import KV_CACHE_DTYPES

    assert tuple(KV_CACHE_DTYPES) == KV_CACHE_DTYPE_NAMES

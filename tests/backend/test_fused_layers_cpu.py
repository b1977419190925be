"""The fused CPU decoder layers (:mod:`backend.fused_layers_cpu`): the same bits as the op-by-op path, row for
row, whatever the step holds; used only where the configuration allows it; bad inputs refused plainly.

A 2-layer random-weight model on 4-bit panels here; the real SmolLM2 weights are held to the same equality in
``test_batch_invariance.py`` (op-by-op answers equal the fused ones through HTTP)."""

from __future__ import annotations

import pytest
import torch

from backend.engine import Engine, EngineConfig
from backend.fused_layers_cpu import FusedLayers, load_fused_layers
from backend.layer_ops_cpu import native_layer_ops
from backend.runtime import LoadedModel
from backend.sampling import SamplingParams
from backend.speculative.config import SpeculativeConfig
from backend.weights_dtype import apply_weights_plan, plan_weights
from tests.backend.test_engine_support import run_engine, tiny_loaded

pytestmark = pytest.mark.skipif(load_fused_layers() is None, reason="needs a C++ compiler (the fused layers build)")


def _int4_tiny(seed: int = 0) -> LoadedModel:
    """The tiny model as the server runs it on CPU: 4-bit panels for every row count, native layer ops, and
    fused layers attached."""
    loaded = tiny_loaded(seed=seed)
    plan = plan_weights("int4", torch.float32, torch.device("cpu"), batch_invariant=True)
    apply_weights_plan(loaded.model, plan, torch.float32)
    loaded.model.use_layer_ops(native_layer_ops())
    loaded.model.use_fused_layers(FusedLayers.from_model)
    return loaded


def _requests() -> list[tuple[str, list[int], SamplingParams]]:
    """Prompts that share a prefix (prefix-cache hits), one long enough to be chunked, short ones beside them."""
    params = SamplingParams(max_tokens=20, temperature=0.0, ignore_eos=True, logprobs=True)
    seeded = SamplingParams(max_tokens=20, temperature=0.9, seed=7, ignore_eos=True, logprobs=True)
    shared = [(7 * i + 3) % 90 + 2 for i in range(40)]
    return [("shared-a", shared + [5, 9], params), ("shared-b", shared + [11], params),
            ("long", [(5 * i + 1) % 90 + 2 for i in range(150)], params), ("short", [4, 8, 15, 16, 23], params),
            ("seeded", [42, 7, 7, 42, 3], seeded), ("repeats", [10, 11, 12, 13] * 6, params)]


def _answers(loaded: LoadedModel, fuse: bool, **engine_options) -> dict[str, list[tuple[int, float]]]:
    """Every request's (token id, log-probability) pairs, all submitted at once on a fresh engine."""
    loaded.model.fuse_layers = fuse
    options = dict(block_size=4, num_blocks=512, max_model_len=512, max_num_seqs=8, max_num_batched_tokens=48,
                   batch_invariant=True)
    options.update(engine_options)
    engine = Engine(loaded, EngineConfig(**options))
    answers: dict[str, list[tuple[int, float]]] = {}
    for rid, prompt, params in _requests():
        engine.add(rid, prompt, params)
        answers[rid] = []
    while engine.has_unfinished():
        for out in engine.step():
            assert out.error is None, out.error
            answers[out.request_id] += [(e.token_id, e.logprob) for e in out.events if e.token_id is not None]
    return answers


def test_the_fused_layers_serve_the_int4_panel_model_and_nothing_else() -> None:
    assert isinstance(FusedLayers.from_model(_int4_tiny().model), FusedLayers)
    dense = tiny_loaded()  # float32 weights: the projections are plain nn.Linear
    dense.model.use_layer_ops(native_layer_ops())
    assert FusedLayers.from_model(dense.model) is None
    no_native_ops = tiny_loaded()
    apply_weights_plan(no_native_ops.model, plan_weights("int4", torch.float32, torch.device("cpu"),
                                                         batch_invariant=True), torch.float32)
    assert FusedLayers.from_model(no_native_ops.model) is None  # the kernels package's ops, not the native ones


def test_fused_and_op_by_op_layers_give_the_same_tokens_in_mixed_steps() -> None:
    """Decode rows, chunked prefills, prefix-cache hits and seeded sampling side by side; the two paths
    must agree on every token."""
    loaded = _int4_tiny(seed=5)
    fused = _answers(loaded, fuse=True)
    assert _answers(loaded, fuse=False) == fused
    assert all(len(tokens) == 20 for tokens in fused.values())


def test_fused_layers_run_every_step_and_no_op_by_op_layer(monkeypatch) -> None:
    loaded = _int4_tiny(seed=2)
    ops = loaded.model.layer_ops

    def refuse(*args, **kwargs):
        raise AssertionError("an op-by-op layer op ran although the step could be fused")
    for name in ("rms_norm", "fused_add_rms_norm", "rotary_embedding", "silu_and_mul"):
        monkeypatch.setattr(ops, name, refuse)
    # n-gram speculation: verification rows (extends) of several sequences share steps with decode rows
    answers = _answers(loaded, fuse=True, speculative=SpeculativeConfig(method="ngram", num_tokens=3,
                                                                         max_step_rows=0, auto_off=False))
    monkeypatch.undo()
    assert answers == _answers(loaded, fuse=False)


def test_an_int8_kv_pool_keeps_the_op_by_op_path() -> None:
    loaded = _int4_tiny(seed=3)
    engine = Engine(loaded, EngineConfig(block_size=4, num_blocks=128, max_model_len=256, max_num_seqs=4,
                                         max_num_batched_tokens=64, kv_cache_dtype="int8"))
    assert engine.runner.attention.__class__.__name__ != "NativePagedAttention" or \
        engine.runner.attention.fused_inputs() is None
    tokens = run_engine(engine, [("a", [5, 6, 7, 8], SamplingParams(max_tokens=6, temperature=0.0, ignore_eos=True))])
    assert len(tokens["a"][0]) == 6


def test_bad_inputs_are_refused_with_a_plain_message() -> None:
    loaded = _int4_tiny(seed=4)
    fused = FusedLayers.from_model(loaded.model)
    engine = Engine(loaded, EngineConfig(block_size=4, num_blocks=64, max_model_len=128, max_num_seqs=2,
                                         max_num_batched_tokens=32, batch_invariant=True))
    attention = engine.runner.attention
    from backend.fused_layers_cpu import FusedAttentionInputs

    hidden = torch.randn(2, loaded.model.config.hidden_size)
    good = FusedAttentionInputs(attention.k_cache, attention.v_cache, torch.tensor([0, 1]),
                                torch.zeros(1, 1, dtype=torch.int32), torch.zeros(2, dtype=torch.int32),
                                torch.tensor([1, 2], dtype=torch.int32), 0.25)
    out = fused(hidden, torch.tensor([0, 1]), good)
    assert out.shape == hidden.shape and torch.isfinite(out).all()
    far = FusedAttentionInputs(*[getattr(good, f) for f in ("k_cache", "v_cache")], torch.tensor([0, 10 ** 9]),
                               good.tables, good.row_seq, good.row_len, good.scale)
    with pytest.raises(RuntimeError, match="slot out of the KV pool"):
        fused(hidden, torch.tensor([0, 1]), far)
    with pytest.raises(RuntimeError, match="rotary table"):
        fused(hidden, torch.tensor([0, 10 ** 6]), good)
    with pytest.raises(RuntimeError, match="positions/slots"):
        fused(hidden, torch.tensor([0]), good)

"""``thrifty bench engine-profile``: the per-part breakdown of an engine step (on the tiny model)."""

from __future__ import annotations

import pytest
from torch import nn

import kernels
from backend.engine import EngineConfig
from benchmarks.engine.step_profile import (
    CATEGORIES,
    OVERHEAD,
    StepProfile,
    instrumented,
    profile_decode,
    profile_prefill,
)
from tests.backend.test_engine_support import tiny_loaded

CONFIG = EngineConfig(block_size=4, num_blocks=512, max_model_len=256, max_num_seqs=8, max_num_batched_tokens=64)


def _check(result: StepProfile) -> None:
    assert set(result.categories) == {*CATEGORIES, OVERHEAD}
    assert all(ms >= 0 for ms in result.categories.values())
    for part in ("linears", "attention", "norms", "rope", "activation", "sampling", "scheduler"):
        assert result.categories[part] > 0, part
    # the parts (overhead included) add up to the profiled step
    assert sum(result.categories.values()) == pytest.approx(result.profiled_ms, rel=1e-6)
    assert result.wall_ms > 0
    assert result.top_ops and all(op.startswith(("aten::", "thrifty_cpu::")) for op, _ms, _calls in result.top_ops)
    assert "| linears |" in result.table()


def test_decode_and_prefill_breakdowns_cover_every_part() -> None:
    loaded = tiny_loaded()
    batch4 = profile_decode(loaded, CONFIG, batch=4, steps=2, prompt_len=12)
    _check(batch4)
    assert "batch 4" in batch4.name
    prefill = profile_prefill(loaded, CONFIG, prompt_len=100, steps=2)
    _check(prefill)
    assert "100-token" in prefill.name


def test_instrumentation_is_removed_afterwards() -> None:
    from backend.engine import Engine

    loaded = tiny_loaded()
    engine = Engine(loaded, CONFIG)
    originals = {name: getattr(kernels, name) for name in ("rms_norm", "fused_add_rms_norm", "rotary_embedding",
                                                           "silu_and_mul")}
    with instrumented(engine):
        assert kernels.rms_norm is not originals["rms_norm"]
        assert "_sample" in vars(engine) and "attend" in vars(engine.runner.attention)
    assert {name: getattr(kernels, name) for name in originals} == originals
    assert "_sample" not in vars(engine) and "prepare" not in vars(engine.runner)
    assert "schedule" not in vars(engine.scheduler) and "attend" not in vars(engine.runner.attention)
    assert all("forward" not in vars(m) for m in loaded.model.modules() if isinstance(m, nn.Linear))


def test_compare_attention_times_each_backend_on_shared_prefix_blocks() -> None:
    from backend.engine.config import EngineConfig
    from benchmarks.engine.step_profile import _shared_prefix_engine, compare_attention
    from tests.backend.test_engine_support import tiny_loaded

    loaded = tiny_loaded()
    config = EngineConfig(block_size=4, num_blocks=128, max_model_len=128, max_num_batched_tokens=64)
    engine = _shared_prefix_engine(loaded, config, batch=3, prefix_len=20, question_len=3, steps=2)
    tables = [s.block_table for s in engine.scheduler.running]
    assert len(tables) == 3 and tables[0][:5] == tables[1][:5] == tables[2][:5]  # the prefix's blocks, shared
    text = compare_attention(loaded, config, ["torch", "native"], batch=3, prefix_len=20, question_len=3, steps=2)
    assert "| torch |" in text and "| native |" in text and "1.00x" in text


def test_native_layer_ops_are_profiled_and_restored() -> None:
    from backend.engine import Engine
    from backend.layer_ops_cpu import native_layer_ops

    loaded = tiny_loaded()
    ops = native_layer_ops()
    assert ops is not None
    loaded.model.use_layer_ops(ops)
    engine = Engine(loaded, CONFIG)
    with instrumented(engine):
        assert "fused_add_rms_norm" in vars(ops) and "rotary_embedding" in vars(ops)
    assert not {"rms_norm", "fused_add_rms_norm", "rotary_embedding", "silu_and_mul"} & set(vars(ops))
    result = profile_decode(loaded, CONFIG, batch=1, steps=2)
    assert result.categories["norms"] > 0 and result.categories["rope"] > 0 and result.categories["activation"] > 0

"""Decode through static, padded buffers (the CUDA-graph path, emulated eagerly off CUDA) on the tiny
random-weight Llama: outputs, logits and the KV pool must equal the plain path for several batch sizes."""

from __future__ import annotations

import pytest
import torch

from backend.engine import EngineConfig
from backend.engine.cuda_graphs import graph_batch_sizes, resolve_cuda_graphs
from backend.sampling import SamplingParams
from tests.backend.test_engine_support import run_engine, tiny_engine, tiny_loaded


@pytest.fixture(scope="module")
def loaded():
    return tiny_loaded()


def test_batch_sizes_and_mode_resolution() -> None:
    assert graph_batch_sizes(1) == [1]
    assert graph_batch_sizes(16) == [1, 2, 4, 8, 16]
    assert graph_batch_sizes(12) == [1, 2, 4, 8, 12]
    cpu, cuda = torch.device("cpu"), torch.device("cuda")
    assert resolve_cuda_graphs("auto", cuda, "kernels") and not resolve_cuda_graphs("auto", cpu, "kernels")
    assert not resolve_cuda_graphs("auto", cuda, "torch") and not resolve_cuda_graphs("off", cuda, "kernels")
    assert resolve_cuda_graphs("on", cpu, "kernels")  # emulation
    with pytest.raises(ValueError, match="need the kernels attention backend"):
        resolve_cuda_graphs("on", cpu, "torch")
    with pytest.raises(ValueError, match="cuda_graphs must be auto, on or off"):
        EngineConfig(cuda_graphs="yes")


def requests_for(batch: int) -> list[tuple[str, list[int], SamplingParams]]:
    return [(f"r{i}", [3 + i, 9, 27 + i, 4 + 2 * i] * (1 + i % 3), SamplingParams(max_tokens=6 + i % 4,
             temperature=0.0, ignore_eos=True)) for i in range(batch)]


@pytest.mark.parametrize("kv_cache_dtype", ["auto", "int8"])
@pytest.mark.parametrize("batch", [1, 3, 5, 8])
def test_padded_decode_equals_plain(loaded, batch: int, kv_cache_dtype: str) -> None:
    requests = requests_for(batch)
    plain = tiny_engine(loaded, attention_backend="kernels", kv_cache_dtype=kv_cache_dtype, max_num_seqs=8,
                        cuda_graphs="off")
    graphs = tiny_engine(loaded, attention_backend="kernels", kv_cache_dtype=kv_cache_dtype, max_num_seqs=8,
                         cuda_graphs="on")
    assert plain.runner.graphs is None and graphs.runner.graphs is not None
    assert run_engine(graphs, requests) == run_engine(plain, requests)
    assert graphs.runner.graphs.replays > 0
    # padding rows wrote nothing: the same slots hold K/V, with the same values up to batch-shape rounding
    for pool in ("k_cache", "v_cache", "k_scale", "v_scale"):
        a, b = getattr(graphs.runner, pool), getattr(plain.runner, pool)
        if a is None:
            continue
        written = lambda x: x.reshape(*x.shape[:3], -1).ne(0).any(-1)  # noqa: E731 - [L, NB, BS]
        assert torch.equal(written(a), written(b)), pool
        if a.dtype != torch.int8:
            torch.testing.assert_close(a, b, atol=1e-5, rtol=1e-5)


def test_padded_step_logits_equal_plain(loaded) -> None:
    """One decode step of 3 sequences (padded to 4): logits equal the eager path; padding slots stay -1."""
    requests = requests_for(3)
    engines = [tiny_engine(loaded, attention_backend="kernels", max_num_seqs=8, cuda_graphs=mode)
               for mode in ("off", "on")]
    logits = []
    for engine in engines:
        for rid, prompt, params in requests:
            engine.add(rid, prompt, params)
        engine.step()  # prefill (not a graph step)
        sched = engine.scheduler.schedule()
        out, seqs = engine.runner.execute(sched.scheduled)
        assert len(seqs) == 3
        logits.append(out)
    torch.testing.assert_close(logits[1], logits[0], atol=1e-5, rtol=1e-5)
    buffers = engines[1].runner.graphs
    assert buffers is not None and buffers.replays == 1
    assert int(buffers.slot_mapping[3]) == -1 and int(buffers.context_lens[3]) == 0

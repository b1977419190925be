"""The native CPU paged attention (backend/attention_cpu.py): the operator against a per-row PyTorch
reference on paged layouts with shared blocks and ragged lengths, and the engine on the ``native`` backend
against the gather (``torch``) backend and the single-request oracle."""

from __future__ import annotations

import random

import pytest
import torch

from backend.attention_cpu import load_paged_attention, paged_attention, reference_paged_attention
from backend.engine.model_runner import ModelRunner, resolve_attention_backend
from backend.sampling import SamplingParams
from tests.backend.test_engine_support import (
    TINY,
    check_greedy_equal,
    oracle_tokens,
    run_engine,
    tiny_engine,
    tiny_loaded,
)


@pytest.fixture(scope="module")
def loaded():
    return tiny_loaded()


def test_the_kernel_builds_here() -> None:
    # the test machines have a compiler; a silent fallback to the gather path would hide a broken build
    assert load_paged_attention() is not None


def _paged_case(seed: int, head_dim: int, block_size: int, lengths: list[int], shared_blocks: int,
                pool_dtype: torch.dtype, queries_per_seq: int = 1, heads: tuple[int, int] = (9, 3)):
    """Sequences whose block tables share their first ``shared_blocks`` blocks, with shuffled private blocks;
    each sequence contributes ``queries_per_seq`` causal query rows ending at its length. ``heads``: (query heads,
    kv heads)."""
    gen = torch.Generator().manual_seed(seed)
    hq, hkv = heads
    width = max(-(-n // block_size) for n in lengths)
    num_blocks = shared_blocks + len(lengths) * width + 3
    k_pool = torch.randn(num_blocks, block_size, hkv, head_dim, generator=gen).to(pool_dtype)
    v_pool = torch.randn(num_blocks, block_size, hkv, head_dim, generator=gen).to(pool_dtype)
    free = list(range(shared_blocks, num_blocks))
    random.Random(seed).shuffle(free)
    tables = torch.zeros(len(lengths), width, dtype=torch.int32)
    for s, n in enumerate(lengths):
        used = -(-n // block_size)
        row = list(range(min(shared_blocks, used))) + [free.pop() for _ in range(used - min(shared_blocks, used))]
        tables[s, :used] = torch.tensor(row, dtype=torch.int32)
    row_seq, row_len = [], []
    for s, n in enumerate(lengths):
        for i in range(min(queries_per_seq, n)):
            row_seq.append(s)
            row_len.append(n - min(queries_per_seq, n) + 1 + i)
    q = torch.randn(len(row_seq), hq, head_dim, generator=gen)
    return (q, k_pool, v_pool, tables, torch.tensor(row_seq, dtype=torch.int32),
            torch.tensor(row_len, dtype=torch.int32))


@pytest.mark.parametrize("pool_dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("head_dim", [64, 24])  # 64: the specialised loop; 24: the generic one
@pytest.mark.parametrize("queries_per_seq", [1, 5])  # decode rows; a short causal extend per sequence
def test_matches_reference_on_shared_ragged_pages(pool_dtype: torch.dtype, head_dim: int,
                                                  queries_per_seq: int) -> None:
    lengths = [1, 7, 16, 17, 40, 63, 64, 65, 130]
    args = _paged_case(0, head_dim, 16, lengths, shared_blocks=2, pool_dtype=pool_dtype,
                       queries_per_seq=queries_per_seq)
    scale = head_dim ** -0.5
    got = paged_attention(*args, scale)
    want = reference_paged_attention(*args, scale)
    assert got.shape == want.shape and got.dtype == torch.float32
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("pool_dtype", [torch.float32, torch.bfloat16])
@pytest.mark.parametrize("head_dim", [64, 24])
def test_each_row_gets_the_same_bits_alone_and_in_any_call(pool_dtype: torch.dtype, head_dim: int) -> None:
    """Batch invariance: a row's output does not depend on the other rows of the call (a prefill's rows, other
    sequences' decode rows), whether its keys fill whole groups of 16 or end in a partial one."""
    q, k_pool, v_pool, tables, row_seq, row_len = _paged_case(3, head_dim, 16, [1, 15, 16, 33, 70], 1, pool_dtype,
                                                               queries_per_seq=6)
    together = paged_attention(q, k_pool, v_pool, tables, row_seq, row_len, 0.125)
    for i in range(q.shape[0]):
        alone = paged_attention(q[i:i + 1], k_pool, v_pool, tables, row_seq[i:i + 1], row_len[i:i + 1], 0.125)
        assert torch.equal(alone, together[i:i + 1]), i
    for lo, hi in ((0, 7), (5, 19), (3, q.shape[0])):
        part = paged_attention(q[lo:hi], k_pool, v_pool, tables, row_seq[lo:hi], row_len[lo:hi], 0.125)
        assert torch.equal(part, together[lo:hi])


@pytest.mark.parametrize(("heads", "block_size"), [((4, 4), 16), ((8, 4), 8), ((8, 2), 32), ((12, 3), 24),
                                                   ((10, 2), 16)])
def test_other_head_groupings_and_block_sizes(heads: tuple[int, int], block_size: int) -> None:
    """1, 2, 4 and 5 query heads per kv head (5: past the specialised groupings), blocks smaller and larger than
    a group of 16 keys and not a multiple of it: the reference's values, and each row's bits alone equal the call's."""
    args = _paged_case(4, 64, block_size, [1, 9, 31, 50, 97], 1, torch.float32, queries_per_seq=4, heads=heads)
    got = paged_attention(*args, 0.125)
    torch.testing.assert_close(got, reference_paged_attention(*args, 0.125), rtol=1e-5, atol=1e-5)
    q, k_pool, v_pool, tables, row_seq, row_len = args
    for i in range(q.shape[0]):
        alone = paged_attention(q[i:i + 1], k_pool, v_pool, tables, row_seq[i:i + 1], row_len[i:i + 1], 0.125)
        assert torch.equal(alone, got[i:i + 1]), i


def test_rows_do_not_see_past_their_length() -> None:
    """Changing K/V beyond a row's visible length (inside its last block) leaves its output unchanged."""
    q, k_pool, v_pool, tables, row_seq, row_len = _paged_case(1, 64, 16, [20], 0, torch.float32)
    before = paged_attention(q, k_pool, v_pool, tables, row_seq, row_len, 0.125)
    last = int(tables[0, 1])
    k_pool[last, 4:] = 1e4
    v_pool[last, 4:] = -1e4
    torch.testing.assert_close(paged_attention(q, k_pool, v_pool, tables, row_seq, row_len, 0.125), before)
    k_pool[last, 3] = 10.0  # the row's last visible key does count
    assert not torch.allclose(paged_attention(q, k_pool, v_pool, tables, row_seq, row_len, 0.125), before)


def test_bad_inputs_say_what_is_wrong() -> None:
    q, k_pool, v_pool, tables, row_seq, row_len = _paged_case(2, 64, 16, [10, 20], 0, torch.float32)
    with pytest.raises(RuntimeError, match="tables: i32"):
        paged_attention(q, k_pool, v_pool, tables.long(), row_seq, row_len, 0.125)
    with pytest.raises(RuntimeError, match="pool dtype must be float32 or bfloat16"):
        paged_attention(q, k_pool.half(), v_pool.half(), tables, row_seq, row_len, 0.125)
    with pytest.raises(RuntimeError, match="one row_seq/row_len per query row"):
        paged_attention(q, k_pool, v_pool, tables, row_seq[:1], row_len, 0.125)


def test_auto_picks_native_on_cpu_and_refuses_int8() -> None:
    cpu = torch.device("cpu")
    assert resolve_attention_backend("auto", cpu, torch.float32) == "native"
    assert resolve_attention_backend("auto", cpu, torch.int8) == "torch"
    with pytest.raises(ValueError, match="native attention backend runs on CPU"):
        resolve_attention_backend("native", cpu, torch.int8)


def _requests(count: int, seed: int, shared_prefix: int) -> list[tuple[str, list[int], SamplingParams]]:
    rng = random.Random(seed)
    prefix = [rng.randrange(2, TINY.vocab_size) for _ in range(shared_prefix)]
    return [(f"q{i}", prefix + [rng.randrange(2, TINY.vocab_size) for _ in range(rng.randrange(1, 30))],
             SamplingParams(max_tokens=rng.randrange(1, 20), temperature=0.0, ignore_eos=True))
            for i in range(count)]


@pytest.mark.parametrize("kv_cache_dtype", ["auto", "bf16"])
def test_engine_native_matches_gather_backend(loaded, kv_cache_dtype: str) -> None:
    """Shared prefixes (cache hits → short extends over cached blocks), ragged lengths, chunked prefill:
    the native backend's greedy tokens equal the gather backend's, and no block leaks."""
    requests = _requests(20, seed=4, shared_prefix=21)
    outs = {}
    for backend in ("torch", "native"):
        engine = tiny_engine(loaded, attention_backend=backend, kv_cache_dtype=kv_cache_dtype,
                             max_num_batched_tokens=24)
        assert engine.runner.attention_backend == backend
        outs[backend] = run_engine(engine, requests)
        assert engine.block_manager.prefix_hits > 0
        engine.block_manager.check_invariants()
    assert outs["native"] == outs["torch"]


def test_engine_native_matches_oracle(loaded) -> None:
    requests = _requests(12, seed=7, shared_prefix=9)
    got = run_engine(tiny_engine(loaded, attention_backend="native", max_num_batched_tokens=16), requests)
    for rid, prompt, params in requests:
        check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), got[rid][0])


@pytest.mark.parametrize("batch_invariant", [False, True])
def test_native_runner_marks_short_extends_native(loaded, batch_invariant: bool) -> None:
    """A step with decode rows, a short extend over cached K/V and a fresh prompt: without batch invariance
    only the first two go through the kernel, with per-row causal lengths; with it the fresh prompt too
    (every row attends the same way, whatever the step holds)."""
    engine = tiny_engine(loaded, attention_backend="native", max_num_batched_tokens=64,
                         batch_invariant=batch_invariant)
    runner: ModelRunner = engine.runner
    prompt = list(range(2, 30))
    run_engine(engine, [("warm", prompt, SamplingParams(max_tokens=2, temperature=0.0, ignore_eos=True))])
    engine.add("a", prompt + [5, 6, 7], SamplingParams(max_tokens=4, temperature=0.0, ignore_eos=True))
    engine.add("b", [9] * 40, SamplingParams(max_tokens=4, temperature=0.0, ignore_eos=True))
    scheduled = engine.scheduler.schedule().scheduled
    step = runner.prepare(scheduled)
    natives = [span for span in step.prefills if span.native]
    assert len(natives) == (2 if batch_invariant else 1) and len(step.prefills) == 2
    for span in natives:
        lens = step.native.row_len[span.start:span.end].tolist()
        assert lens == list(range(span.context_len - len(lens) + 1, span.context_len + 1))

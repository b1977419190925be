"""Partial-block (token-granular) prefix-cache reuse: the block manager's partial matches, the held copy
source, the scheduler's pending copies, and the engine on a tiny random-weight Llama (cached token counts
exact to the token, outputs equal to an engine without prefix caching, many admissions sharing sources
in one step, a pool small enough to evict, a failed step)."""

from __future__ import annotations

import itertools
import random

import pytest
import torch

from backend.engine import EngineConfig
from backend.engine.block_manager import PARTIAL_SCAN_LIMIT, BlockManager, PartialMatch
from backend.engine.scheduler import Scheduler
from backend.engine.sequence import Sequence, SequenceStatus
from backend.generation import RequestStats
from backend.sampling import SamplingParams
from tests.backend.test_engine_support import (
    TINY,
    check_greedy_equal,
    oracle_tokens,
    tiny_engine,
    tiny_loaded,
)

_ids = itertools.count()


def make_seq(tokens: list[int], extra_key=None) -> Sequence:
    return Sequence(seq_id=next(_ids), request_id=f"r{next(_ids)}", index=0, token_ids=list(tokens),
                    prompt_len=len(tokens), params=SamplingParams(), extra_key=extra_key)


def compute(bm: BlockManager, seq: Sequence, computed: list[int] | None = None,
            partial: PartialMatch | None = None) -> None:
    """Allocate and 'compute' every token of ``seq`` (copies and holds left to the caller)."""
    hit = bm.num_hit_tokens(computed or [], partial)
    assert bm.allocate_slots(seq, seq.num_tokens - hit, computed if computed is not None else [], partial)
    seq.num_computed = seq.num_tokens
    bm.cache_full_blocks(seq)


def cached_48(bm: BlockManager) -> list[int]:
    """A 40-token prompt that decoded 8 more tokens: 3 full 16-token blocks registered, then freed.
    → its block ids."""
    a = make_seq(list(range(100, 140)))
    compute(bm, a)
    a.token_ids.extend(range(140, 148))
    assert bm.allocate_slots(a, 8)
    a.num_computed = 48
    bm.cache_full_blocks(a)
    table = list(a.block_table)
    bm.free(a)
    assert bm.num_cached_blocks == (3 if bm.enable_prefix_caching else 0)
    return table


# ---------------------------------------------------------------------------------------- block manager


def test_partial_match_after_full_blocks_gets_a_fresh_block_and_holds_the_source() -> None:
    bm = BlockManager(num_blocks=16, block_size=16)
    cached = cached_48(bm)
    b = make_seq(list(range(100, 137)) + [7, 8, 9, 10])  # shares 37 tokens, then differs
    computed = bm.match_prefix(b)
    assert computed == cached[:2]
    partial = bm.match_partial(b, computed)
    assert partial == PartialMatch(cached[2], 5)
    assert bm.num_hit_tokens(computed, partial) == 37
    evictable = bm.num_cached_blocks
    assert bm.allocate_slots(b, b.num_tokens - 37, computed, partial)
    source = bm.blocks[partial.block_id]
    assert b.block_table[:2] == computed and len(b.block_table) == 3
    assert b.block_table[2] not in cached  # a fresh block, never the shared source
    assert bm.blocks[b.block_table[2]].ref_count == 1 and not bm.blocks[b.block_table[2]].registered
    assert source.ref_count == 1 and bm.num_held_sources == 1  # held: out of the evictable set
    assert bm.num_cached_blocks == evictable - 3
    bm.check_invariants()
    big = make_seq(list(range(300, 300 + 16 * 13)))  # takes every other block: evicts all it can
    assert not bm.can_allocate(big, big.num_tokens, [])  # the held source is not available
    bm.release_source(partial.block_id)
    assert source.ref_count == 0 and source.registered and bm.num_held_sources == 0
    assert partial.block_id in bm._evictable
    bm.check_invariants()
    bm.free(b)
    bm.check_invariants()
    assert bm.num_used_blocks == 0


def test_option_off_and_prefix_caching_off_match_whole_blocks_only() -> None:
    for bm in (BlockManager(num_blocks=16, block_size=16, partial_block_reuse=False),
               BlockManager(num_blocks=16, block_size=16, enable_prefix_caching=False)):
        cached_48(bm)
        b = make_seq(list(range(100, 137)) + [7, 8, 9, 10])
        computed = bm.match_prefix(b)
        assert bm.match_partial(b, computed) is None
        assert len(computed) * 16 == (32 if bm.enable_prefix_caching else 0)


@pytest.mark.parametrize(("prompt_len", "full", "partial"), [(48, 2, 15), (40, 2, 7), (33, 2, None), (2, 0, 1)])
def test_last_token_is_never_matched(prompt_len: int, full: int, partial: int | None) -> None:
    bm = BlockManager(num_blocks=16, block_size=16)
    cached_48(bm)
    b = make_seq(list(range(100, 100 + prompt_len)))  # a prefix of the cached tokens (or all of them)
    computed = bm.match_prefix(b)
    match = bm.match_partial(b, computed)
    assert len(computed) == full
    assert (match.num_tokens if match else None) == partial
    assert bm.num_hit_tokens(computed, match) <= prompt_len - 1


def test_longest_candidate_under_the_same_parent_and_extra_key_wins() -> None:
    bm = BlockManager(num_blocks=32, block_size=4)
    for tail in ([5, 6, 1, 1], [5, 6, 7, 1], [5, 2, 2, 2]):
        compute(bm, make_seq([1, 2, 3, 4] + tail + [0]))
    compute(bm, make_seq([9, 9, 9, 9, 5, 6, 7, 8, 0]))  # same tokens under another parent
    compute(bm, make_seq([1, 2, 3, 4, 5, 6, 7, 8, 0], extra_key="adapter"))  # another extra key
    b = make_seq([1, 2, 3, 4, 5, 6, 7, 8, 0, 0])
    computed = bm.match_prefix(b)
    assert len(computed) == 1
    match = bm.match_partial(b, computed)
    assert match is not None and match.num_tokens == 3
    assert bm.blocks[match.block_id].token_ids == (5, 6, 7, 1)
    assert bm.match_partial(make_seq([1, 2, 3, 4, 8, 8, 8]), computed) is None  # no candidate starts with 8
    bm.check_invariants()


def test_scan_is_bounded_to_the_newest_candidates() -> None:
    bm = BlockManager(num_blocks=4 * (PARTIAL_SCAN_LIMIT + 2), block_size=4)
    compute(bm, make_seq([7, 1, 2, 3, 0]))  # the best candidate, registered first (oldest)
    for i in range(PARTIAL_SCAN_LIMIT):
        compute(bm, make_seq([7, 50 + i, 0, 0, 0]))
    match = bm.match_partial(make_seq([7, 1, 2, 9, 9]), [])
    assert match is not None and match.num_tokens == 1  # the oldest candidate is past the scan limit
    compute(bm, make_seq([7, 1, 2, 3, 0], extra_key="x"))  # unrelated key: does not disturb the index
    bm.check_invariants()


def test_evicted_source_leaves_the_index() -> None:
    bm = BlockManager(num_blocks=3, block_size=16)
    cached_48(bm)
    b = make_seq(list(range(100, 137)) + [7])
    assert bm.match_partial(b, bm.match_prefix(b)) is not None
    other = make_seq(list(range(500, 548)))
    assert bm.allocate_slots(other, 48, [])  # evicts all three cached blocks
    assert bm.match_prefix(b) == [] and bm.match_partial(b, []) is None
    assert not bm._children
    bm.check_invariants()


def test_the_hold_costs_a_block_and_the_scheduler_falls_back_to_whole_blocks() -> None:
    bm = BlockManager(num_blocks=3, block_size=4)
    a = make_seq(list(range(10, 22)))
    compute(bm, a)
    bm.free(a)  # 3 registered blocks, all evictable, none free
    b = make_seq(list(range(10, 20)) + [90, 91])  # 2 full blocks + 2 tokens of the third
    computed = bm.match_prefix(b)
    partial = bm.match_partial(b, computed)
    assert len(computed) == 2 and partial is not None and partial.num_tokens == 2
    assert not bm.can_allocate(b, 2, computed, partial=partial)  # the source is held and a new block taken
    assert bm.can_allocate(b, 4, computed)
    cfg = EngineConfig(block_size=4, num_blocks=3, max_model_len=64)
    sched = Scheduler(cfg, bm)
    sched.add(b)
    out = sched.schedule()
    assert out.copies == [] and [s.num_tokens for s in out.scheduled] == [4]
    assert b.num_computed == 8 and b.num_cached_tokens == 8
    bm.check_invariants()


def test_copied_block_registers_as_a_duplicate_of_its_source() -> None:
    bm = BlockManager(num_blocks=16, block_size=16)
    cached = cached_48(bm)
    b = make_seq(list(range(100, 140)))
    computed = bm.match_prefix(b)
    partial = bm.match_partial(b, computed)
    assert partial is not None and partial.num_tokens == 7
    compute(bm, b, computed, partial)
    bm.release_source(partial.block_id)
    b.token_ids.extend(range(140, 148))  # decodes the source's remaining tokens
    assert bm.allocate_slots(b, 8)
    b.num_computed = 48
    bm.cache_full_blocks(b)
    copy = bm.blocks[b.block_table[2]]
    assert not copy.registered and copy.canonical == bm.blocks[cached[2]].ref
    bm.free(b)
    bm.check_invariants()
    assert bm.num_used_blocks == 0


def test_preempting_a_sequence_before_its_copy_ran_releases_the_source() -> None:
    bm = BlockManager(num_blocks=16, block_size=16)
    cached = cached_48(bm)
    cfg = EngineConfig(block_size=16, num_blocks=16, max_model_len=256)
    sched = Scheduler(cfg, bm)
    b = make_seq(list(range(100, 137)) + [7, 8])
    sched.add(b)
    out = sched.schedule()
    assert [(c.seq, c.src, c.dst) for c in out.copies] == [(b, cached[2], b.block_table[2])]
    assert out.copy_pairs == [(cached[2], b.block_table[2])]
    assert b.num_computed == 37 and b.num_cached_tokens == 37 and bm.num_held_sources == 1
    sched._preempt(b, out)
    assert out.copies == [] and bm.num_held_sources == 0
    assert b.block_table == [] and b.num_computed == 0 and b.status is SequenceStatus.WAITING
    bm.check_invariants()
    assert bm.num_used_blocks == 0
    out = sched.schedule()  # readmitted: the same partial match again
    assert len(out.copies) == 1
    sched.release_copies(out)
    sched.release_copies(out)  # idempotent
    assert bm.num_held_sources == 0
    bm.check_invariants()


# ---------------------------------------------------------------------------------------- engine

GREEDY = SamplingParams(max_tokens=6, temperature=0.0, ignore_eos=True, logprobs=True)


@pytest.fixture(scope="module")
def loaded():
    return tiny_loaded()


def run(engine, requests, check=True):
    """Add the requests at once, step to the end; → id → (tokens, logprobs, stats)."""
    stats = {rid: RequestStats() for rid, _, _ in requests}
    tokens: dict[str, list[int]] = {rid: [] for rid, _, _ in requests}
    logprobs: dict[str, list[float]] = {rid: [] for rid, _, _ in requests}
    for rid, prompt, params in requests:
        engine.add(rid, prompt, params, stats=stats[rid])
    while engine.has_unfinished():
        for out in engine.step():
            assert out.error is None, out.error
            for ev in out.events:
                if ev.token_id is not None:
                    tokens[out.request_id].append(ev.token_id)
                    logprobs[out.request_id].append(ev.logprob)
        if check:
            engine.block_manager.check_invariants()
            assert engine.block_manager.num_held_sources == 0
    return {rid: (tokens[rid], logprobs[rid], stats[rid]) for rid in tokens}


def prompt_a(seed: int = 3, length: int = 30) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(2, TINY.vocab_size) for _ in range(length)]


def sharing(base: list[int], shared: int, length: int, seed: int) -> list[int]:
    """``base[:shared]`` then tokens that differ from ``base[shared]`` at once."""
    rng = random.Random(seed)
    tail = [rng.randrange(2, TINY.vocab_size) for _ in range(max(1, length - shared))]
    while shared < len(base) and tail[0] == base[shared]:
        tail[0] = rng.randrange(2, TINY.vocab_size)
    return base[:shared] + tail


def spy_copies(engine) -> list[list[tuple[int, int]]]:
    calls: list[list[tuple[int, int]]] = []
    copy = engine.runner.copy_blocks

    def recording(pairs):
        if pairs:
            calls.append(list(pairs))
        copy(pairs)

    engine.runner.copy_blocks = recording
    return calls


@pytest.mark.parametrize("shared", [27, 31, 2, 13])
def test_partial_hit_counts_exact_tokens_and_output_equals_no_cache(loaded, shared: int) -> None:
    """Block size 4: A's 30-token prompt plus its outputs fill 8 full blocks; B shares ``shared`` tokens
    (31: into A's generated tokens; 2: a partial match at the root)."""
    a = prompt_a()
    engine = tiny_engine(loaded)
    copies = spy_copies(engine)
    a_tokens, _, a_stats = run(engine, [("a", a, GREEDY)])["a"]
    full = a + a_tokens
    b = sharing(full, shared, 40, seed=shared)
    b_tokens, b_logprobs, b_stats = run(engine, [("b", b, GREEDY)])["b"]
    assert a_stats.cached_tokens == 0
    assert b_stats.cached_tokens == shared  # token-granular, not rounded down to a block
    assert len(copies) == 1 and len(copies[0]) == 1
    reference = tiny_engine(loaded, enable_prefix_caching=False)
    ref_tokens, ref_logprobs, ref_stats = run(reference, [("b", b, GREEDY)])["b"]
    assert ref_stats.cached_tokens == 0
    assert b_tokens == ref_tokens  # the copied K/V are right
    torch.testing.assert_close(torch.tensor(b_logprobs), torch.tensor(ref_logprobs), atol=1e-4, rtol=1e-4)
    bm = engine.block_manager
    assert bm.num_used_blocks == 0 and bm.num_held_sources == 0
    assert bm.prefix_hits == shared

    whole = tiny_engine(loaded, partial_block_reuse=False)
    run(whole, [("a", a, GREEDY)])
    assert run(whole, [("b", b, GREEDY)])["b"][2].cached_tokens == shared // 4 * 4


def test_a_missing_copy_would_be_caught(loaded) -> None:
    """The comparison above has teeth: without the copy, B's first token's logprob is wrong."""
    a = prompt_a()
    b = sharing(a, 27, 40, seed=1)
    logprobs = []
    for sabotage in (False, True):
        engine = tiny_engine(loaded)
        run(engine, [("a", a, GREEDY)])
        if sabotage:
            engine.runner.copy_blocks = lambda pairs: None
        logprobs.append(run(engine, [("b", b, GREEDY)])["b"][1][0])
    reference = run(tiny_engine(loaded, enable_prefix_caching=False), [("b", b, GREEDY)])["b"][1][0]
    assert logprobs[0] == pytest.approx(reference, abs=1e-4)
    assert logprobs[1] != pytest.approx(reference, abs=1e-4)


def test_several_admissions_in_one_step_share_partial_sources(loaded) -> None:
    a = prompt_a()
    engine = tiny_engine(loaded, max_num_batched_tokens=256)
    copies = spy_copies(engine)
    a_tokens = run(engine, [("a", a, GREEDY)])["a"][0]
    full = a + a_tokens
    shares = {"b25": 25, "b26": 26, "b27": 27, "b13": 13, "b2": 2, "b31": 31}
    requests = [(rid, sharing(full, n, 36 + i, seed=i), GREEDY) for i, (rid, n) in enumerate(shares.items())]
    got = run(engine, requests)
    assert len(copies) == 1 and len(copies[0]) == len(shares)  # all admitted in one step, copied together
    sources = [src for src, _ in copies[0]]
    assert sources[0] == sources[1] == sources[2]  # b25, b26, b27 copy the same cached block
    assert len({dst for _, dst in copies[0]}) == len(shares)
    for rid, prompt, params in requests:
        tokens, _, stats = got[rid]
        assert stats.cached_tokens == shares[rid]
        check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), tokens)
    bm = engine.block_manager
    assert bm.num_used_blocks == 0 and bm.num_held_sources == 0


def test_partial_hits_under_eviction_and_preemption(loaded) -> None:
    """A 24-block pool (96 tokens): waves of prompts sharing random-length prefixes of earlier ones evict
    cached blocks, chunked prefill mixes with decodes, and sequences get preempted."""
    rng = random.Random(7)
    engine = tiny_engine(loaded, num_blocks=24, max_model_len=96, max_num_batched_tokens=16, max_num_seqs=4)
    copies = spy_copies(engine)
    seen = [prompt_a(seed=s, length=rng.randrange(20, 36)) for s in range(3)]
    hits = 0
    for wave in range(8):
        requests = []
        for i in range(3):
            base = rng.choice(seen)
            prompt = sharing(base, rng.randrange(1, len(base)), rng.randrange(24, 40), seed=wave * 10 + i)
            seen.append(prompt)
            params = SamplingParams(max_tokens=rng.randrange(2, 8), temperature=0.0, ignore_eos=True)
            requests.append((f"w{wave}-{i}", prompt, params))
        got = run(engine, requests)
        for rid, prompt, params in requests:
            tokens, _, stats = got[rid]
            hits += stats.cached_tokens % 4 != 0
            check_greedy_equal(loaded, prompt, oracle_tokens(loaded, prompt, params), tokens)
    bm = engine.block_manager
    assert bm.evictions > 0 and copies and hits > 0
    assert engine.scheduler.num_preemptions > 0
    assert bm.num_used_blocks == 0 and bm.num_held_sources == 0
    bm.check_invariants()


def test_failed_step_releases_the_held_sources(loaded, monkeypatch) -> None:
    a = prompt_a()
    engine = tiny_engine(loaded)
    run(engine, [("a", a, GREEDY)])
    copies = spy_copies(engine)

    def boom(scheduled):
        raise RuntimeError("injected")

    monkeypatch.setattr(engine.runner, "execute", boom)
    engine.add("b", sharing(a, 27, 40, seed=1), GREEDY)
    outs = engine.step()
    assert [o.request_id for o in outs] == ["b"] and isinstance(outs[0].error, RuntimeError)
    assert len(copies) == 1
    bm = engine.block_manager
    assert bm.num_held_sources == 0 and bm.num_used_blocks == 0
    bm.check_invariants()
    monkeypatch.undo()

    def failing_copy(pairs):
        raise RuntimeError("copy failed")

    engine.runner.copy_blocks = failing_copy
    engine.add("c", sharing(a, 26, 40, seed=2), GREEDY)
    outs = engine.step()
    assert [o.request_id for o in outs] == ["c"] and isinstance(outs[0].error, RuntimeError)
    assert bm.num_held_sources == 0 and bm.num_used_blocks == 0
    bm.check_invariants()

"""Scheduler: token budget, chunked prefill mixed with decodes, priorities, FCFS, preemption."""

from __future__ import annotations

import itertools

from backend.engine.block_manager import BlockManager
from backend.engine.config import EngineConfig
from backend.engine.scheduler import Scheduler, SchedulerOutput
from backend.engine.sequence import Priority, Sequence, SequenceStatus
from backend.sampling import SamplingParams

_ids = itertools.count()


def make_seq(prompt_len: int, max_tokens: int = 4, priority: Priority = Priority.INTERACTIVE,
             arrival: float | None = None, first_token: int = 0) -> Sequence:
    seq_id = next(_ids)
    tokens = [first_token + (seq_id * 7919 + i) % 1000 for i in range(prompt_len)]
    return Sequence(seq_id=seq_id, request_id=f"r{seq_id}", index=0, token_ids=tokens, prompt_len=prompt_len,
                    params=SamplingParams(max_tokens=max_tokens), priority=priority,
                    arrival=float(seq_id) if arrival is None else arrival)


def make_scheduler(num_blocks: int = 64, block_size: int = 4, **config) -> Scheduler:
    cfg = EngineConfig(block_size=block_size, num_blocks=num_blocks, max_model_len=4096, **config)
    return Scheduler(cfg, BlockManager(num_blocks, block_size, cfg.enable_prefix_caching))


def step(sched: Scheduler) -> SchedulerOutput:
    """Schedule and commit like the engine does (sampled token: 5); finish at max_tokens."""
    out = sched.schedule()
    sched.release_copies(out)  # the engine copies partial prefix matches' K/V here, then releases them
    for item in out.scheduled:
        seq = item.seq
        samples = item.samples
        seq.num_computed += item.num_tokens
        sched.block_manager.cache_full_blocks(seq)
        if samples:
            seq.token_ids.append(5)
            if seq.num_output >= seq.params.max_tokens:
                sched.remove(seq)
    sched.block_manager.check_invariants()
    return out


def run_to_completion(sched: Scheduler, limit: int = 10_000) -> int:
    steps = 0
    while sched.has_work():
        step(sched)
        steps += 1
        assert steps < limit, "scheduler made no progress"
    return steps


def test_budget_mixes_decodes_with_a_chunked_long_prompt() -> None:
    sched = make_scheduler(num_blocks=256, max_num_batched_tokens=16, max_num_seqs=8)
    running = [make_seq(4, max_tokens=50) for _ in range(4)]
    for seq in running:
        sched.add(seq)
    step(sched)  # the four short prompts fill 16 tokens
    long = make_seq(100, max_tokens=2)
    sched.add(long)
    chunks = []
    while long.num_computed < long.prompt_len:
        out = step(sched)
        by_seq = {item.seq.seq_id: item.num_tokens for item in out.scheduled}
        assert all(by_seq.get(s.seq_id) == 1 for s in running), "a running stream was stalled"
        assert out.num_tokens <= 16
        chunks.append(by_seq[long.seq_id])
    assert chunks[0] == 12 and len(chunks) > 5  # 16 - 4 decodes per step


def test_without_chunking_a_prompt_runs_whole() -> None:
    sched = make_scheduler(num_blocks=256, max_num_batched_tokens=16, enable_chunked_prefill=False)
    long = make_seq(100, max_tokens=1)
    sched.add(long)
    out = step(sched)
    assert [(i.seq.seq_id, i.num_tokens) for i in out.scheduled] == [(long.seq_id, 100)]


def test_fcfs_within_a_class_and_interactive_first() -> None:
    sched = make_scheduler(num_blocks=256, max_num_batched_tokens=8, max_num_seqs=1)
    batch_early = make_seq(4, max_tokens=1, priority=Priority.BATCH, arrival=0.0)
    inter_a = make_seq(4, max_tokens=1, arrival=1.0)
    inter_b = make_seq(4, max_tokens=1, arrival=2.0)
    for seq in (inter_b, batch_early, inter_a):
        sched.add(seq)
    order = []
    while sched.has_work():
        out = step(sched)
        order += [i.seq.seq_id for i in out.scheduled]
    assert order == [inter_a.seq_id, inter_b.seq_id, batch_early.seq_id]


def test_batch_work_uses_idle_capacity() -> None:
    sched = make_scheduler(num_blocks=256, max_num_batched_tokens=32, max_num_seqs=4)
    inter = make_seq(4, max_tokens=3)
    batch = make_seq(4, max_tokens=3, priority=Priority.BATCH)
    sched.add(inter)
    sched.add(batch)
    out = step(sched)
    assert {i.seq.seq_id for i in out.scheduled} == {inter.seq_id, batch.seq_id}


def test_interactive_preempts_batch_for_a_slot() -> None:
    sched = make_scheduler(num_blocks=256, max_num_batched_tokens=32, max_num_seqs=2)
    batch = [make_seq(4, max_tokens=100, priority=Priority.BATCH) for _ in range(2)]
    for seq in batch:
        sched.add(seq)
    step(sched)
    inter = make_seq(4, max_tokens=2)
    sched.add(inter)
    out = step(sched)
    assert inter.status is SequenceStatus.RUNNING
    assert out.preempted == [batch[1]]  # the latest batch arrival goes first
    assert batch[1].status is SequenceStatus.WAITING and batch[1].block_table == []
    run_to_completion(sched)
    assert sched.block_manager.num_used_blocks == 0


def test_interactive_preempts_batch_for_blocks() -> None:
    sched = make_scheduler(num_blocks=8, block_size=4, max_num_batched_tokens=64, max_num_seqs=8,
                           enable_prefix_caching=False)
    batch = make_seq(24, max_tokens=6, priority=Priority.BATCH)  # 6 of the 8 blocks after its prefill
    sched.add(batch)
    step(sched)
    inter = make_seq(12, max_tokens=2)
    sched.add(inter)
    out = step(sched)
    assert batch in out.preempted and inter.status is SequenceStatus.RUNNING
    run_to_completion(sched)
    assert sched.block_manager.num_used_blocks == 0


def test_preemption_when_blocks_run_out_recomputes_and_leaks_nothing() -> None:
    sched = make_scheduler(num_blocks=10, block_size=4, max_num_batched_tokens=64, max_num_seqs=8)
    seqs = [make_seq(8, max_tokens=12) for _ in range(4)]  # 4 x 5 blocks at the end > 10
    for seq in seqs:
        sched.add(seq)
    preempted = 0
    while sched.has_work():
        out = step(sched)
        preempted += len(out.preempted)
        for victim in out.preempted:
            assert victim.block_table == [] and victim.num_computed == 0
    assert preempted > 0
    assert all(s.status is SequenceStatus.FINISHED and s.num_output == 12 for s in seqs)
    bm = sched.block_manager
    assert bm.num_used_blocks == 0 and bm.num_free_blocks + bm.num_cached_blocks == 10


def test_preemption_picks_latest_arrival() -> None:
    sched = make_scheduler(num_blocks=6, block_size=4, max_num_batched_tokens=64, max_num_seqs=8,
                           enable_prefix_caching=False)
    first, second = make_seq(8, max_tokens=20), make_seq(8, max_tokens=20)
    sched.add(first)
    sched.add(second)
    victims = []
    for _ in range(12):
        victims += step(sched).preempted
        if victims:
            break
    assert victims and victims[0] is second


def test_max_num_seqs_is_respected() -> None:
    sched = make_scheduler(num_blocks=256, max_num_batched_tokens=512, max_num_seqs=3)
    for _ in range(7):
        sched.add(make_seq(4, max_tokens=5))
    while sched.has_work():
        step(sched)
        assert sched.num_running <= 3


def test_prefix_hit_skips_cached_tokens() -> None:
    sched = make_scheduler(num_blocks=64, block_size=4, max_num_batched_tokens=64)
    a = make_seq(17, max_tokens=1)
    sched.add(a)
    run_to_completion(sched)
    b = make_seq(17, max_tokens=1)
    b.token_ids = list(a.token_ids[:17])
    sched.add(b)
    out = step(sched)
    assert [i.num_tokens for i in out.scheduled] == [1] and b.num_cached_tokens == 16
    assert sched.block_manager.prefix_hits == 16

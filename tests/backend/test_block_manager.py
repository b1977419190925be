"""BlockManager: allocation, ref counts, the chained-hash prefix cache and its LRU, with Hypothesis
state machines over random operation sequences."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from backend.engine.block_manager import BlockError, BlockManager
from backend.engine.sequence import Sequence
from backend.sampling import SamplingParams

_ids = itertools.count()


def make_seq(tokens: list[int], extra_key=None) -> Sequence:
    return Sequence(seq_id=next(_ids), request_id="r", index=0, token_ids=list(tokens), prompt_len=len(tokens),
                    params=SamplingParams(), extra_key=extra_key)


def admit(bm: BlockManager, seq: Sequence) -> int:
    """Admit a whole prompt like the scheduler does (prefix hit + the rest); → hit tokens."""
    computed = bm.match_prefix(seq)
    hit = len(computed) * bm.block_size
    assert bm.allocate_slots(seq, seq.num_tokens - hit, computed)
    seq.num_computed = seq.num_tokens
    bm.cache_full_blocks(seq)
    return hit


def test_allocate_grow_free_counts() -> None:
    bm = BlockManager(num_blocks=8, block_size=4)
    seq = make_seq(list(range(10)))
    assert bm.allocate_slots(seq, 10, [])
    assert len(seq.block_table) == 3 and bm.num_used_blocks == 3 and bm.num_free_blocks == 5
    seq.num_computed = 10
    seq.token_ids.append(99)
    assert bm.allocate_slots(seq, 1)  # position 10 still fits the third block
    assert len(seq.block_table) == 3
    seq.num_computed = 11
    seq.token_ids.append(98)
    assert bm.allocate_slots(seq, 1)
    assert len(seq.block_table) == 3  # 12 tokens = 3 full blocks
    seq.num_computed = 12
    bm.cache_full_blocks(seq)
    seq.token_ids.append(97)
    assert bm.allocate_slots(seq, 1)
    assert len(seq.block_table) == 4
    bm.free(seq)
    bm.check_invariants()
    assert bm.num_used_blocks == 0
    assert bm.num_free_blocks + bm.num_cached_blocks == 8
    assert bm.num_cached_blocks == 3  # the three full blocks stay cached


def test_freed_blocks_are_reused_first() -> None:
    # a stack, not a queue: the pool's never-written (never resident) blocks are taken only when needed
    bm = BlockManager(num_blocks=100, block_size=4, enable_prefix_caching=False)
    first = make_seq(list(range(12)))
    assert bm.allocate_slots(first, 12, [])
    used = set(first.block_table)
    bm.free(first)
    for _ in range(5):
        seq = make_seq(list(range(12)))
        assert bm.allocate_slots(seq, 12, [])
        assert set(seq.block_table) == used
        bm.free(seq)
    bm.check_invariants()


def test_allocation_is_all_or_nothing() -> None:
    bm = BlockManager(num_blocks=2, block_size=4, enable_prefix_caching=False)
    seq = make_seq(list(range(12)))
    assert not bm.allocate_slots(seq, 12, [])
    assert seq.block_table == [] and bm.num_free_blocks == 2
    bm.check_invariants()


def test_prefix_hit_shares_blocks_and_excludes_last_token() -> None:
    bm = BlockManager(num_blocks=16, block_size=4)
    a = make_seq(list(range(12)))
    assert admit(bm, a) == 0
    b = make_seq(list(range(12)))  # identical prompt: the last block is recomputed (its last token needs logits)
    assert admit(bm, b) == 8
    assert b.block_table[:2] == a.block_table[:2] and b.block_table[2] != a.block_table[2]
    assert bm.blocks[a.block_table[0]].ref_count == 2
    c = make_seq(list(range(8)) + [50, 51, 52, 53, 54])
    assert admit(bm, c) == 8
    bm.free(a)
    bm.free(b)
    bm.free(c)
    bm.check_invariants()
    assert bm.num_used_blocks == 0


def test_extra_key_separates_caches() -> None:
    bm = BlockManager(num_blocks=16, block_size=4)
    admit(bm, make_seq(list(range(9)), extra_key="adapter-a"))
    assert bm.match_prefix(make_seq(list(range(9)), extra_key="adapter-b")) == []
    assert len(bm.match_prefix(make_seq(list(range(9)), extra_key="adapter-a"))) == 2


def test_cached_blocks_survive_finish_and_evict_lru() -> None:
    bm = BlockManager(num_blocks=4, block_size=4)
    a = make_seq(list(range(9)))
    admit(bm, a)
    bm.free(a)
    assert bm.num_cached_blocks == 2 and bm.num_free_blocks == 2
    again = make_seq(list(range(9)))
    assert len(bm.match_prefix(again)) == 2
    big = make_seq(list(range(100, 116)))  # needs all 4 blocks: evicts both cached ones
    assert bm.allocate_slots(big, 16, [])
    assert bm.evictions == 2
    assert bm.match_prefix(make_seq(list(range(9)))) == []
    bm.check_invariants()


def test_free_order_evicts_tail_first() -> None:
    bm = BlockManager(num_blocks=4, block_size=2)
    a = make_seq(list(range(7)))  # 3 full blocks cached
    admit(bm, a)
    bm.free(a)
    other = make_seq([90, 91])
    assert bm.allocate_slots(other, 2, [])  # takes the free block
    other2 = make_seq([92, 93])
    assert bm.allocate_slots(other2, 2, [])  # must evict: the tail block of a goes first
    assert len(bm.match_prefix(make_seq(list(range(7))))) == 2


def test_hash_collisions_are_verified_against_tokens() -> None:
    bm = BlockManager(num_blocks=16, block_size=2, hash_fn=lambda parent, tokens, extra: 7)  # every hash collides
    a = make_seq([1, 2, 3, 4, 5])
    admit(bm, a)
    b = make_seq([1, 9, 3, 4, 5])
    assert bm.match_prefix(b) == []  # same hash, different tokens: a miss, not a wrong hit
    c = make_seq([1, 2, 3, 4, 5])
    assert len(bm.match_prefix(c)) == 1  # only one entry per hash; still verified
    bm.check_invariants()


def test_parent_chain_is_verified() -> None:
    # the hash ignores the parent: a block with equal tokens under a different prefix must not match
    bm = BlockManager(num_blocks=16, block_size=2, hash_fn=lambda parent, tokens, extra: hash(tokens))
    admit(bm, make_seq([1, 2, 3, 4, 0]))
    assert len(bm.match_prefix(make_seq([5, 6, 3, 4, 0]))) == 0
    assert len(bm.match_prefix(make_seq([1, 2, 3, 4, 0]))) == 2


def test_double_free_is_detected() -> None:
    bm = BlockManager(num_blocks=4, block_size=2)
    seq = make_seq([1, 2, 3])
    assert bm.allocate_slots(seq, 3, [])
    table = list(seq.block_table)
    bm.free(seq)
    seq.block_table = table
    with pytest.raises(BlockError):
        bm.free(seq)


def test_fork_shares_full_blocks_and_copies_tail() -> None:
    bm = BlockManager(num_blocks=8, block_size=4)
    parent = make_seq(list(range(10)))
    admit(bm, parent)
    child = make_seq(list(range(10)))
    copies = bm.fork(parent, child)
    assert copies == [(parent.block_table[2], child.block_table[2])]
    assert child.block_table[:2] == parent.block_table[:2]
    assert all(bm.blocks[b].ref_count == 2 for b in parent.block_table[:2])
    assert child.num_computed == 10
    bm.free(parent)
    bm.free(child)
    bm.check_invariants()
    assert bm.num_used_blocks == 0


class BlockManagerMachine(RuleBasedStateMachine):
    """Random admissions (with full and partial prefix matches), growth, forks, preemptions, speculative
    verifications with rollback and frees; invariants after every step.

    ``slots`` models the K/V pool's content (the token whose K/V each slot holds), so a rollback that
    frees a block still in use, a block registered in the prefix cache with a rejected draft token's
    K/V in it, or a partial match's copy source evicted and reused before its copy ran, shows up as a
    mismatch between a sequence's (or a cache entry's) tokens and its slots (a block's slots are
    forgotten when it is allocated again)."""

    BS = 2  # block size

    def __init__(self) -> None:
        super().__init__()
        self.bm = BlockManager(num_blocks=12, block_size=self.BS, hash_fn=self.weak_hash)
        self.live: list[Sequence] = []
        self.slots: dict[int, int] = {}  # flat slot → the token whose K/V it holds
        self.prompts: list[list[int]] = []  # every prompt seen, for prompts that share a prefix with one
        self.partial_hits = 0
        take = self.bm._take

        def take_garbage():  # a (re)allocated block's old K/V are garbage from now on: forget them
            block = take()
            for offset in range(self.BS):
                self.slots.pop(block.block_id * self.BS + offset, None)
            return block

        self.bm._take = take_garbage  # stricter than the pool (which keeps stale K/V until overwritten)

    def write(self, seq: Sequence, start: int, tokens: list[int]) -> None:
        """Model the forward storing K/V of ``tokens`` at positions ``start..`` of ``seq``."""
        bs = self.BS
        for pos, token in enumerate(tokens, start):
            self.slots[seq.block_table[pos // bs] * bs + pos % bs] = token

    def copy(self, src: int, dst: int) -> None:
        """Model :meth:`ModelRunner.copy_blocks`: the whole block's K/V, stale slots included."""
        bs = self.BS
        for offset in range(bs):
            if src * bs + offset in self.slots:
                self.slots[dst * bs + offset] = self.slots[src * bs + offset]
            else:
                self.slots.pop(dst * bs + offset, None)

    @staticmethod
    def weak_hash(parent, tokens, extra) -> int:
        return hash((parent, tokens, extra)) % 5  # frequent collisions on purpose

    def admit_all(self, seqs: list[Sequence], drop: int | None = None) -> None:
        """Admit ``seqs`` like one scheduling pass: every match and allocation first (later allocations may
        evict), then the pending copies, the holds released, then the prefill writes. ``drop``: the index of
        a sequence preempted after its allocation, before its copy ran."""
        bs = self.BS
        admitted: list[tuple[Sequence, int]] = []
        pending: list[tuple[Sequence, int, int]] = []
        for seq in seqs:
            computed = self.bm.match_prefix(seq)
            partial = self.bm.match_partial(seq, computed)
            for i, block_id in enumerate(computed):  # a cache hit implies identical tokens (and extra key)
                block = self.bm.blocks[block_id]
                assert block.token_ids == tuple(seq.token_ids[i * bs:(i + 1) * bs])
                assert block.extra_key == seq.extra_key
            hit = len(computed) * bs
            if partial is not None:
                block = self.bm.blocks[partial.block_id]
                assert 1 <= partial.num_tokens < bs and block.registered and block.extra_key == seq.extra_key
                assert block.token_ids[:partial.num_tokens] == tuple(seq.token_ids[hit:hit + partial.num_tokens])
                assert hit + partial.num_tokens <= seq.num_tokens - 1  # the last token is never matched
                hit += partial.num_tokens
            if self.bm.allocate_slots(seq, seq.num_tokens - hit, computed, partial):
                admitted.append((seq, hit))
                if partial is not None:
                    pending.append((seq, partial.block_id, seq.block_table[len(computed)]))
                    assert seq.block_table[len(computed)] != partial.block_id  # a fresh block, never shared
                    self.partial_hits += 1
            else:
                assert seq.block_table == []
                if seq in self.live:
                    self.live.remove(seq)
        if drop is not None and admitted:
            victim, _ = admitted.pop(drop % len(admitted))
            for item in [p for p in pending if p[0] is victim]:
                pending.remove(item)
                self.bm.release_source(item[1])
            self.bm.free(victim)
            if victim in self.live:
                self.live.remove(victim)
            self.bm.check_invariants()
        for _, src, dst in pending:
            self.copy(src, dst)
        for _, src, _ in pending:
            self.bm.release_source(src)
        assert self.bm.num_held_sources == 0
        for seq, hit in admitted:
            self.write(seq, hit, seq.token_ids[hit:])
            seq.num_computed = seq.num_tokens
            self.bm.cache_full_blocks(seq)
            if seq not in self.live:
                self.live.append(seq)

    @rule(tokens=st.lists(st.integers(0, 3), min_size=1, max_size=9), extra=st.sampled_from([None, "x"]))
    def admit_sequence(self, tokens: list[int], extra) -> None:
        self.prompts.append(tokens)
        self.admit_all([make_seq(tokens, extra)])

    @precondition(lambda self: self.prompts)
    @rule(data=st.data(), count=st.integers(1, 3), drop=st.none() | st.integers(0, 2))
    def admit_sharing(self, data, count: int, drop: int | None) -> None:
        """Prompts that share a prefix of random length with earlier ones, admitted in one pass."""
        seqs = []
        for _ in range(count):
            base = data.draw(st.sampled_from(self.prompts))
            cut = data.draw(st.integers(0, len(base)))
            tail = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=4))
            self.prompts.append(base[:cut] + tail)
            seqs.append(make_seq(base[:cut] + tail, data.draw(st.sampled_from([None, None, "x"]))))
        self.admit_all(seqs, drop)

    @precondition(lambda self: self.live)
    @rule(data=st.data(), token=st.integers(0, 3))
    def decode(self, data, token: int) -> None:
        seq = data.draw(st.sampled_from(self.live))
        seq.token_ids.append(token)
        if self.bm.allocate_slots(seq, 1):
            self.write(seq, seq.num_computed, [token])
            seq.num_computed += 1
            self.bm.cache_full_blocks(seq)
        else:
            seq.token_ids.pop()

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def fork(self, data) -> None:
        parent = data.draw(st.sampled_from(self.live))
        child = make_seq(parent.token_ids, parent.extra_key)
        copies = self.bm.fork(parent, child)
        if copies is not None:
            for src, dst in copies:
                self.copy(src, dst)
            self.live.append(child)

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def finish(self, data) -> None:
        seq = data.draw(st.sampled_from(self.live))
        self.live.remove(seq)
        self.bm.free(seq)

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def preempt_and_recompute(self, data) -> None:
        seq = data.draw(st.sampled_from(self.live))
        self.bm.free(seq)
        seq.num_computed = 0
        self.admit_all([seq])

    @precondition(lambda self: self.live)
    @rule(data=st.data(), token=st.integers(0, 3), draft=st.lists(st.integers(0, 3), min_size=1, max_size=5),
          accept=st.integers(0, 5))
    def speculate(self, data, token: int, draft: list[int], accept: int) -> None:
        """Verify ``draft`` after a new ``token`` like the engine: slots for all of them, K/V written for all,
        then the accepted prefix kept and the rejected tail's blocks released (rollback)."""
        seq = data.draw(st.sampled_from(self.live))
        start = seq.num_computed
        seq.token_ids.append(token)
        if not self.bm.allocate_slots(seq, 1 + len(draft)):
            seq.token_ids.pop()
            return
        self.write(seq, start, [token] + draft)  # rejected drafts' K/V land in the pool too
        accepted = min(accept, len(draft))
        seq.token_ids.extend(draft[:accepted])
        seq.num_computed = start + 1 + accepted
        self.bm.truncate(seq, seq.num_tokens)
        assert len(seq.block_table) == self.bm.blocks_for(seq.num_tokens)
        self.bm.cache_full_blocks(seq)

    @invariant()
    def consistent(self) -> None:
        self.bm.check_invariants()
        refs: dict[int, int] = {}
        for seq in self.live:
            for block_id in seq.block_table:
                refs[block_id] = refs.get(block_id, 0) + 1
        for block in self.bm.blocks:
            assert block.ref_count == refs.get(block.block_id, 0), "ref count != live references"
        bs = self.BS
        for seq in self.live:  # every computed position's slot holds that position's token
            for pos in range(seq.num_computed):
                slot = seq.block_table[pos // bs] * bs + pos % bs
                assert self.slots.get(slot) == seq.token_ids[pos], f"slot of position {pos} was corrupted"
        for block in self.bm.blocks:  # a prefix-cache entry's K/V are those of its tokens, never a draft's
            if block.registered or block.canonical is not None:
                held = tuple(self.slots.get(block.block_id * bs + offset) for offset in range(bs))
                assert held == block.token_ids, "a cached block holds K/V of other tokens"
        assert self.bm.num_held_sources == 0  # no hold outlives its scheduling pass
        total = self.bm.num_free_blocks + self.bm.num_used_blocks + self.bm.num_cached_blocks
        assert total == self.bm.num_blocks

    def teardown(self) -> None:
        for seq in self.live:
            self.bm.free(seq)
        self.bm.check_invariants()
        assert self.bm.num_used_blocks == 0  # nothing leaks


class WideBlockManagerMachine(BlockManagerMachine):
    """The same machine with 4-token blocks: partial matches of 1 to 3 tokens."""

    BS = 4


TestBlockManagerMachine = BlockManagerMachine.TestCase
TestBlockManagerMachine.settings = settings(max_examples=150, stateful_step_count=40, deadline=None,
                                            suppress_health_check=[HealthCheck.too_slow])
TestWideBlockManagerMachine = WideBlockManagerMachine.TestCase
TestWideBlockManagerMachine.settings = settings(max_examples=100, stateful_step_count=40, deadline=None,
                                                suppress_health_check=[HealthCheck.too_slow])

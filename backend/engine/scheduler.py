"""Continuous batching at token granularity.

Every step fills a token budget: running sequences first (one token per decode, a chunk of the
remaining prompt for a prefill in progress), then new sequences from the waiting queue, whose prompts
are split into chunks that fit the budget left (chunked prefill), so a long prompt shares steps with
running streams instead of stalling them. Work is taken class by class — interactive before batch —
and first-come-first-served within a class.

When the KV pool runs dry a running sequence is *preempted*: its blocks are freed and it goes back to
the waiting queue to be recomputed later (its prefix blocks usually survive in the prefix cache). The
victim is the least important unscheduled sequence: batch before interactive, latest arrival first.
A waiting interactive sequence may preempt running batch sequences to get in; batch work is admitted
only while no interactive work is left waiting.

An admission may reuse a token-granular part of one more cached block (a *partial* prefix match, see
:mod:`backend.engine.block_manager`): the output then lists a :class:`BlockCopy` that the engine must
run before the step's forward, and the source block stays held until :meth:`Scheduler.release_copies`.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from backend.engine.block_manager import BlockManager, PartialMatch
from backend.engine.config import EngineConfig
from backend.engine.sequence import Priority, Sequence, SequenceStatus


@dataclass(slots=True)
class ScheduledSeq:
    """``num_tokens`` tokens of ``seq`` (from ``seq.num_computed`` on) run in this step.

    With ``num_draft > 0`` (speculative decoding) the last ``num_draft`` of them are the first draft
    tokens of ``seq.draft_ids``, not yet part of the sequence: the step verifies them and needs the
    logits of all ``num_draft + 1`` rows.
    """

    seq: Sequence
    num_tokens: int
    num_draft: int = 0

    @property
    def samples(self) -> bool:
        """Whether this step reaches the end of the sequence's tokens (so a new token is sampled)."""
        return self.seq.num_computed + self.num_tokens - self.num_draft == self.seq.num_tokens

    @property
    def num_logits(self) -> int:
        """Rows whose logits the step needs: one per sampled token, plus one per draft token."""
        return self.num_draft + 1 if self.samples else 0

    def token_ids(self) -> list[int]:
        """The ids this step feeds the model for ``seq``."""
        seq, start = self.seq, self.seq.num_computed
        if not self.num_draft:
            return seq.token_ids[start:start + self.num_tokens]
        return seq.token_ids[start:] + seq.draft_ids[:self.num_draft]


@dataclass(frozen=True, slots=True)
class BlockCopy:
    """A partial prefix match of ``seq``: copy block ``src``'s K/V into its block ``dst`` before the forward.

    ``src`` is held by the block manager until :meth:`Scheduler.release_copies`."""

    seq: Sequence
    src: int
    dst: int


@dataclass(slots=True)
class SchedulerOutput:
    scheduled: list[ScheduledSeq] = field(default_factory=list)
    preempted: list[Sequence] = field(default_factory=list)
    admitted: list[Sequence] = field(default_factory=list)
    copies: list[BlockCopy] = field(default_factory=list)  # pending partial-match copies, run before the forward

    @property
    def copy_pairs(self) -> list[tuple[int, int]]:
        """``(src, dst)`` block pairs for :meth:`ModelRunner.copy_blocks`."""
        return [(c.src, c.dst) for c in self.copies]

    @property
    def num_tokens(self) -> int:
        return sum(s.num_tokens for s in self.scheduled)

    def first_rows(self, sampled: list[Sequence]) -> list[int]:
        """The first logits row of each of ``sampled`` (the sequences in the runner's logits order): a
        sequence verifying d drafts has d + 1 consecutive rows."""
        drafts = {item.seq.seq_id: item.num_draft for item in self.scheduled}
        rows, cursor = [], 0
        for seq in sampled:
            rows.append(cursor)
            cursor += drafts.get(seq.seq_id, 0) + 1
        return rows


class Scheduler:
    """Decides, step by step, which tokens of which sequences run next."""

    def __init__(self, config: EngineConfig, block_manager: BlockManager) -> None:
        self.config = config
        self.block_manager = block_manager
        self.waiting: dict[Priority, list[Sequence]] = {p: [] for p in Priority}
        self.running: list[Sequence] = []
        self.num_preemptions = 0
        # blocks kept free when admitting new work next to running sequences, so they can grow a while
        # before anything must be preempted (admission into an idle engine ignores it)
        self.watermark_blocks = max(1, block_manager.num_blocks // 100)

    # ------------------------------------------------------------------ queues

    @property
    def num_waiting(self) -> int:
        return sum(len(q) for q in self.waiting.values())

    @property
    def num_running(self) -> int:
        return len(self.running)

    def has_work(self) -> bool:
        return bool(self.running) or any(self.waiting.values())

    def add(self, seq: Sequence) -> None:
        """Queue a sequence (new, preempted, or an n > 1 sibling that could not be forked)."""
        seq.status = SequenceStatus.WAITING
        bisect.insort(self.waiting[seq.priority], seq, key=Sequence.order_key)

    def add_running(self, seq: Sequence) -> None:
        """Adopt a sequence that already holds its blocks (a forked n > 1 sibling)."""
        seq.status = SequenceStatus.RUNNING
        seq.admitted = True
        self.running.append(seq)

    def has_room(self) -> bool:
        return len(self.running) < self.config.max_num_seqs

    def remove(self, seq: Sequence) -> None:
        """Take a sequence out of the queues (finish or abort), freeing its blocks."""
        if seq.status is SequenceStatus.RUNNING:
            self.running.remove(seq)
        elif seq.status is SequenceStatus.WAITING:
            queue = self.waiting[seq.priority]
            if seq in queue:
                queue.remove(seq)
        self.block_manager.free(seq)
        seq.status = SequenceStatus.FINISHED

    def release_copies(self, out: SchedulerOutput) -> None:
        """Drop the holds on the copy sources of ``out`` (after the copies ran, or when they never will)."""
        copies, out.copies = out.copies, []
        for copy in copies:
            self.block_manager.release_source(copy.src)

    def _preempt(self, seq: Sequence, out: SchedulerOutput) -> None:
        pending = [c for c in out.copies if c.seq is seq]
        if pending:  # its copy has not run: drop it with the blocks (recomputed from scratch later)
            out.copies = [c for c in out.copies if c.seq is not seq]
            for copy in pending:
                self.block_manager.release_source(copy.src)
        self.running.remove(seq)
        self.block_manager.free(seq)
        seq.num_computed = 0
        seq.draft_ids = []
        seq.num_preemptions += 1
        self.num_preemptions += 1
        self.add(seq)
        out.preempted.append(seq)

    def _victim(self, scheduled: set[int], only_batch: bool) -> Sequence | None:
        """The least important running sequence not scheduled in this step."""
        candidates = [s for s in self.running if s.seq_id not in scheduled
                      and (not only_batch or s.priority is Priority.BATCH)]
        return max(candidates, key=Sequence.order_key, default=None)

    # ------------------------------------------------------------------ the step

    def _chunk(self, seq: Sequence, computed: list[int], partial: PartialMatch | None, budget: int) -> int:
        """Tokens an admission after this match would run in this step (the budget caps them)."""
        return min(seq.num_tokens - self.block_manager.num_hit_tokens(computed, partial), budget)

    def schedule(self) -> SchedulerOutput:
        """Pick this step's work under the token budget and the KV pool; preempt if blocks run out."""
        out = SchedulerOutput()
        budget = self.config.step_token_budget
        chunked = self.config.enable_chunked_prefill
        scheduled: set[int] = set()
        bm = self.block_manager
        interactive_blocked = False
        for priority in Priority:
            # running sequences of this class, FCFS
            for seq in sorted((s for s in self.running if s.priority is priority), key=Sequence.order_key):
                if budget <= 0:
                    break
                if seq.status is not SequenceStatus.RUNNING:
                    continue  # preempted earlier in this step
                n = seq.num_uncomputed
                draft = min(len(seq.draft_ids), budget - 1) if n == 1 else 0
                n += max(draft, 0)
                if n > budget:
                    if not chunked:
                        continue  # a whole prompt must fit; it runs in a later step
                    n = budget
                while not bm.allocate_slots(seq, n):
                    if draft > 0:  # drop the speculation before preempting anyone
                        n, draft = n - draft, 0
                        continue
                    victim = self._victim(scheduled, only_batch=False)
                    if victim is None or victim.order_key() < seq.order_key():
                        victim = seq
                    self._preempt(victim, out)
                    if victim is seq:
                        break
                else:
                    scheduled.add(seq.seq_id)
                    out.scheduled.append(ScheduledSeq(seq, n, max(draft, 0)))
                    budget -= n
            # waiting sequences of this class, FCFS with head-of-line blocking
            queue = self.waiting[priority]
            if priority is Priority.BATCH and interactive_blocked:
                continue
            while queue and budget > 0:
                seq = queue[0]
                if not self.has_room():
                    if priority is Priority.INTERACTIVE and (victim := self._victim(scheduled, only_batch=True)):
                        self._preempt(victim, out)
                        continue
                    break
                computed = bm.match_prefix(seq)
                partial = bm.match_partial(seq, computed)
                reserve = self.watermark_blocks if self.running else 0
                if partial is not None and not bm.can_allocate(seq, self._chunk(seq, computed, partial, budget),
                                                               computed, reserve, partial):
                    partial = None  # holding the source costs a block the pool lacks: recompute those tokens
                num_hit = bm.num_hit_tokens(computed, partial)
                n = seq.num_tokens - num_hit
                if n > budget:
                    if not chunked:
                        break
                    n = budget
                if self.running and not bm.can_allocate(seq, n, computed, reserve, partial):
                    if priority is Priority.INTERACTIVE and (victim := self._victim(scheduled, only_batch=True)):
                        self._preempt(victim, out)
                        continue
                    break
                if not bm.allocate_slots(seq, n, computed, partial):
                    if priority is Priority.INTERACTIVE and (victim := self._victim(scheduled, only_batch=True)):
                        self._preempt(victim, out)
                        continue
                    break
                queue.pop(0)
                if partial is not None:
                    out.copies.append(BlockCopy(seq, partial.block_id, seq.block_table[len(computed)]))
                seq.status = SequenceStatus.RUNNING
                seq.num_computed = num_hit
                if not seq.admitted:
                    seq.admitted = True
                    seq.num_cached_tokens = num_hit
                    bm.record_lookup(seq.num_tokens, num_hit)
                self.running.append(seq)
                scheduled.add(seq.seq_id)
                out.scheduled.append(ScheduledSeq(seq, n))
                out.admitted.append(seq)
                budget -= n
            if priority is Priority.INTERACTIVE and queue:
                interactive_blocked = True
        return out

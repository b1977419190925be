"""Drafting with a model: a separate draft model (``draft``) or the target's first layers (``self``).

The draft model keeps its own paged KV: a :class:`BlockManager` and :class:`ModelRunner` of its own
(no prefix caching, no CUDA graphs) and, per target sequence, a *shadow* :class:`Sequence` holding the
tokens the draft has seen. Before each proposal the shadow is synced with the target's tokens: the
common prefix keeps its K/V, anything after it (rejected draft tokens) is rolled back, and the new
tokens are run through the draft model. K draft tokens then take K batched draft forwards (the first
one also catches up on the accepted tokens, a small extend). A shadow is dropped when its sequence
finishes, or to make room in the draft pool for a sequence that is drafting now.

The draft pool has as many blocks as the target's (its size scales with the draft's layers); the
engine sizes the two together from one KV budget (``pool_num_blocks``' ``draft_bytes_per_token``).
Simplification (documented, deliberate): a long prompt enters the draft in one forward, not in
chunks.
"""

from __future__ import annotations

from dataclasses import replace

import torch
from torch import nn

from backend.engine.block_manager import BlockManager
from backend.engine.model_runner import ModelRunner
from backend.engine.scheduler import ScheduledSeq
from backend.engine.sequence import Sequence, SequenceStatus
from backend.model import AttentionBackend, LlamaForCausalLM
from backend.sampling import sampling_probs


class LayerPrefixModel(nn.Module):
    """The first ``num_layers`` decoder layers of ``full`` with its final norm and LM head (shared weights):
    a self-speculation drafter that costs ``num_layers / full.config.num_layers`` of a target forward."""

    def __init__(self, full: LlamaForCausalLM, num_layers: int) -> None:
        super().__init__()
        if not 1 <= num_layers <= full.config.num_layers:
            raise ValueError(f"a self-speculation drafter needs 1..{full.config.num_layers} layers, got {num_layers}")
        self.config = replace(full.config, num_layers=num_layers)
        self.full = full

    @torch.inference_mode()
    def forward(self, input_ids: torch.Tensor, positions: torch.Tensor, backend: AttentionBackend) -> torch.Tensor:
        """input_ids, positions: [T] → the normed hidden state after the first layers [T, hidden]."""
        return self.full(input_ids, positions, backend, num_layers=self.config.num_layers)

    @torch.inference_mode()
    def compute_logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """hidden: [N, hidden] → fp32 logits [N, vocab] through the target's LM head."""
        return self.full.compute_logits(hidden)


class DraftModelDrafter:
    """Proposes K tokens per sequence with a draft model over its own paged KV pool."""

    def __init__(self, model: nn.Module, num_blocks: int, block_size: int, dtype: torch.dtype,
                 device: torch.device, attention_backend: str = "auto", max_num_seqs: int = 64,
                 max_model_len: int = 2048) -> None:
        self.block_manager = BlockManager(num_blocks, block_size, enable_prefix_caching=False)
        self.runner = ModelRunner(model, num_blocks, block_size, dtype, device,  # type: ignore[arg-type]
                                  attention_backend, None, "off", max_num_seqs, max_model_len)
        self._shadows: dict[int, tuple[Sequence, Sequence]] = {}  # target seq id → (target, shadow)
        self.forwards = 0

    @property
    def num_shadows(self) -> int:
        return len(self._shadows)

    def _release(self, seq_id: int) -> None:
        _, shadow = self._shadows.pop(seq_id)
        self.block_manager.free(shadow)

    def _shadow(self, seq: Sequence) -> Sequence:
        """The draft's copy of ``seq``, synced: rejected tokens rolled back, new ones queued for compute."""
        entry = self._shadows.get(seq.seq_id)
        if entry is None:
            shadow = Sequence(seq_id=seq.seq_id, request_id=seq.request_id, index=seq.index,
                              token_ids=list(seq.token_ids), prompt_len=seq.prompt_len, params=seq.params)
            shadow.status = SequenceStatus.RUNNING
            shadow.spec = len(seq.token_ids)  # tokens known equal to the target's
            self._shadows[seq.seq_id] = (seq, shadow)
            return shadow
        shadow = entry[1]
        mine, target = shadow.token_ids, seq.token_ids
        common = min(shadow.spec, len(mine), len(target))
        limit = min(len(mine), len(target))
        while common < limit and mine[common] == target[common]:
            common += 1
        del mine[common:]
        mine.extend(target[common:])
        shadow.spec = len(target)
        computed = min(shadow.num_computed, common, len(target) - 1)
        if computed < shadow.num_computed:
            shadow.num_computed = computed
            self.block_manager.truncate(shadow, computed)
        return shadow

    def _allocate(self, shadow: Sequence, n: int, keep: set[int]) -> bool:
        """Slots for ``n`` more tokens, evicting shadows of sequences not drafting now if needed."""
        bm = self.block_manager
        while not bm.allocate_slots(shadow, n):
            idle = next((sid for sid in self._shadows if sid not in keep), None)
            if idle is None:
                return False
            self._release(idle)
        return True

    def propose(self, requests: list[tuple[Sequence, int]]) -> None:
        """``requests``: (sequence, k) pairs; sets ``draft_ids`` (and ``draft_probs`` [k, V] for sampled ones)."""
        for seq_id in [sid for sid, (target, _) in self._shadows.items() if target.is_finished]:
            self._release(seq_id)
        active: dict[int, tuple[Sequence, Sequence, int]] = {}
        probs: dict[int, list[torch.Tensor]] = {}
        for seq, k in requests:
            seq.draft_ids, seq.draft_probs = [], None
            active[seq.seq_id] = (seq, self._shadow(seq), k)
            probs[seq.seq_id] = []
        keep = set(active)
        for _ in range(max((k for _, _, k in active.values()), default=0)):
            items = []
            for seq_id, (seq, shadow, k) in list(active.items()):
                if len(seq.draft_ids) >= k:
                    continue
                n = shadow.num_uncomputed
                if not self._allocate(shadow, n, keep):
                    del active[seq_id]  # no room in the draft pool: this sequence drafts less this step
                    continue
                items.append(ScheduledSeq(shadow, n))
            if not items:
                break
            logits, rows = self.runner.execute(items)  # [len(items), V], shadows in row order
            self.forwards += 1
            for item in items:
                item.seq.num_computed += item.num_tokens
            for row, shadow in enumerate(rows):
                seq = active[shadow.seq_id][0]
                if seq.params.greedy:
                    token = int(logits[row].argmax())
                elif seq.params.seed is not None:
                    # verified by replaying plain decoding's draws (acceptance.verify_replayed): the likeliest
                    # draft, and no draw from the sequence's generator, whose draws belong to its answer
                    token = int(sampling_probs(logits[row], seq.params).argmax())
                else:
                    q = sampling_probs(logits[row], seq.params)  # [V]
                    token = int(torch.multinomial(q, 1, generator=seq.generator))
                    probs[seq.seq_id].append(q)
                shadow.token_ids.append(token)
                seq.draft_ids.append(token)
        for seq, _ in requests:
            rows_q = probs.get(seq.seq_id)
            if rows_q and len(rows_q) == len(seq.draft_ids):
                seq.draft_probs = torch.stack(rows_q)  # [k, V]

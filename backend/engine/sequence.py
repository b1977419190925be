"""One generated choice of a request, as the engine tracks it."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

import torch

from backend.sampling import SamplingParams
from backend.stops import StopChecker
from tokenization.tokenizer import IncrementalDetokenizer


class Priority(enum.IntEnum):
    """Scheduling class: interactive work first; batch work uses idle capacity and is preempted first."""

    INTERACTIVE = 0
    BATCH = 1

    @classmethod
    def parse(cls, value: str | Priority | None) -> Priority:
        """``"interactive"`` / ``"batch"`` (case-insensitive) / ``None`` (interactive) → :class:`Priority`."""
        if value is None:
            return cls.INTERACTIVE
        if isinstance(value, Priority):
            return value
        try:
            return cls[str(value).strip().upper()]
        except KeyError:
            raise ValueError(f"priority must be 'interactive' or 'batch', got {value!r}") from None


class SequenceStatus(enum.Enum):
    WAITING = "waiting"  # queued, or preempted (its KV freed; recomputed when admitted again)
    RUNNING = "running"  # holds KV blocks
    FINISHED = "finished"


@dataclass(slots=True, eq=False)
class Sequence:
    """Tokens (prompt + output), KV bookkeeping and decoding state of one choice.

    ``num_computed`` counts the leading tokens whose K/V are in the cache; the tokens after it are
    what the next steps must run through the model. A decode step has exactly one such token.
    """

    seq_id: int
    request_id: str
    index: int  # choice index within the request (n > 1)
    token_ids: list[int]
    prompt_len: int
    params: SamplingParams
    priority: Priority = Priority.INTERACTIVE
    arrival: float = 0.0
    extra_key: Any = None  # mixed into the prefix-cache hash (e.g. an adapter id)
    status: SequenceStatus = SequenceStatus.WAITING
    num_computed: int = 0
    block_table: list[int] = field(default_factory=list)
    block_hashes: list[int] = field(default_factory=list)  # chained hashes of the full blocks so far
    num_cached_blocks: int = 0  # leading blocks of block_table already registered in the prefix cache
    num_cached_tokens: int = 0  # prompt tokens served from the prefix cache at first admission
    admitted: bool = False
    num_preemptions: int = 0
    fork_parent: Sequence | None = None  # an n > 1 sibling waits for this sequence's prefill
    finish_reason: str | None = None
    generator: torch.Generator | None = None
    detok: IncrementalDetokenizer | None = None
    stops: StopChecker | None = None
    stop_ids: frozenset[int] = frozenset()
    draft_ids: list[int] = field(default_factory=list)  # speculative tokens proposed for the next step
    draft_probs: torch.Tensor | None = None  # [len(draft_ids), V] the drafter's q; None: deterministic draft
    spec: Any = None  # the speculative decoder's per-sequence state (acceptance, n-gram index)
    matcher: Any = None  # llguidance.LLMatcher of a constrained request: has consumed exactly output_ids

    @property
    def num_tokens(self) -> int:
        return len(self.token_ids)

    @property
    def num_output(self) -> int:
        return len(self.token_ids) - self.prompt_len

    @property
    def output_ids(self) -> list[int]:
        return self.token_ids[self.prompt_len:]

    @property
    def num_uncomputed(self) -> int:
        """Tokens still to run through the model before the next sample."""
        return len(self.token_ids) - self.num_computed

    @property
    def is_finished(self) -> bool:
        return self.status is SequenceStatus.FINISHED

    def order_key(self) -> tuple[int, float, int]:
        """FCFS within a priority class."""
        return (int(self.priority), self.arrival, self.seq_id)

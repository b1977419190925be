"""Prompt-lookup drafting: continue the sequence the way it continued after its last suffix's earlier match.

For each suffix length n from ``max_n`` down to ``min_n``, the last n tokens of the sequence (prompt +
output) are looked up among its earlier n-grams; at the most recent earlier occurrence, the tokens that
followed it are the draft. Code edits, quoted summaries and answers from a given document copy long
runs of the prompt, so the draft is often right; plain chat rarely matches, and then nothing is drafted.

The lookup is incremental: each sequence keeps a map n-gram → position just after its latest
occurrence, extended by the tokens added since the last call (O(new tokens × sizes) per step).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from backend.engine.sequence import Sequence


@dataclass(slots=True)
class NgramIndex:
    """One sequence's n-gram positions: ``ends[n][gram]`` is the index just after its latest occurrence."""

    min_n: int
    max_n: int
    ends: dict[int, dict[tuple[int, ...], int]] = field(default_factory=dict)
    indexed: int = 0  # n-grams ending before this index are in ``ends``

    def propose(self, tokens: list[int], k: int) -> list[int]:
        """Up to ``k`` draft tokens following the longest matching suffix of ``tokens`` (may be empty)."""
        size = len(tokens)
        # index every n-gram that has a continuation: those ending at e <= size - 1
        for e in range(max(self.indexed, 1), size):
            for n in range(self.min_n, self.max_n + 1):
                if e >= n:
                    self.ends.setdefault(n, {})[tuple(tokens[e - n:e])] = e
        self.indexed = max(self.indexed, size)
        for n in range(min(self.max_n, size), self.min_n - 1, -1):
            end = self.ends.get(n, {}).get(tuple(tokens[size - n:]))
            if end is not None:
                return tokens[end:end + k]
        return []


class NgramDrafter:
    """Prompt-lookup drafter; deterministic, so its drafts carry no probabilities (a point mass)."""

    def __init__(self, min_n: int = 2, max_n: int = 4) -> None:
        self.min_n, self.max_n = min_n, max_n

    def propose(self, requests: list[tuple[Sequence, int]]) -> None:
        """``requests``: (sequence, k) pairs; sets each sequence's ``draft_ids`` (``draft_probs`` None).

        The index lives in the sequence's speculative state (``seq.spec.ngram``)."""
        for seq, k in requests:
            state = seq.spec
            if state.ngram is None:
                state.ngram = NgramIndex(self.min_n, self.max_n)
            seq.draft_ids = state.ngram.propose(seq.token_ids, k)
            seq.draft_probs = None


def lookup_ceiling(prompt: list[int], output: list[int], k: int, min_n: int = 2, max_n: int = 4) -> tuple[int, int]:
    """Replay a finished greedy answer through prompt lookup, offline: ``(tokens, steps)``.

    Walks ``output`` (the tokens a plain decode produced after ``prompt``) as speculative decoding
    would, with every step drafting up to ``k`` tokens from the history so far and accepting the
    draft's longest prefix that equals the answer's next tokens, plus the target's own token.
    ``tokens / steps`` is then the most tokens a decode step could yield with this drafter on this
    answer, i.e. the speed-up over plain decoding if verifying drafts cost nothing; a real
    verification costs more than a plain step, so it bounds the measured speed-up from above.

    The first output token comes from the prefill and is not counted; a draft never runs past the
    answer's last token."""
    index = NgramIndex(min_n, max_n)
    history = list(prompt) + list(output[:1])
    position, steps = 1, 0
    while position < len(output):
        draft = index.propose(history, min(k, len(output) - position - 1))
        accepted = 0
        for drafted, actual in zip(draft, output[position:], strict=False):
            if drafted != actual:
                break
            accepted += 1
        steps += 1
        history += output[position:position + accepted + 1]
        position += accepted + 1
    return len(output) - 1 if output else 0, steps

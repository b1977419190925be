"""Allowed-token masks of constrained sequences, computed while the forward pass runs.

The engine calls :meth:`GrammarMasks.start` with the sequences that sample in a step *before* it runs the
forward: the masks are filled on a worker thread by llguidance (which drops the GIL, as torch's forward
does), so the two overlap. After the forward, :meth:`GrammarMasks.apply` waits for the masks and sets
the disallowed logits of the constrained rows to ``-inf``. Unconstrained rows are never touched, so
their tokens are exactly what they would be without any constrained neighbour.
"""

from __future__ import annotations

from collections.abc import Sequence as Seq
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import torch


def unpack_bitmask(bitmask: torch.Tensor, vocab_size: int) -> torch.Tensor:
    """llguidance's packed masks ``[B, ceil(V / 32)]`` int32 (bit j of word w: token 32 w + j) → ``[B, V]`` bool."""
    bits = torch.arange(32, dtype=torch.int32)  # [32]
    unpacked = (bitmask.unsqueeze(-1) >> bits) & 1  # [B, W, 32]
    return unpacked.reshape(bitmask.shape[0], -1)[:, :vocab_size].bool()  # [B, V]


def forbidden_table() -> torch.Tensor:
    """``[256, 8]`` bool: row b says which of byte value b's bits (least significant first) are 0."""
    return ((torch.arange(256).unsqueeze(-1) >> torch.arange(8)) & 1) == 0


def forbidden(bitmask: torch.Tensor, vocab_size: int, table: torch.Tensor) -> torch.Tensor:
    """The tokens a packed mask ``[B, W]`` int32 forbids, ``[B, V]`` bool, through :func:`forbidden_table`
    (little-endian words: byte k of word w holds tokens 32 w + 8 k ... 32 w + 8 k + 7)."""
    rows = bitmask.shape[0]
    octets = bitmask.contiguous().view(torch.uint8).reshape(-1).int()  # [B * W * 4]
    return table.index_select(0, octets).reshape(rows, -1)[:, :vocab_size]  # [B, V]


def allocate(rows: int, vocab_size: int) -> torch.Tensor:
    """An int32 bitmask buffer ``[rows, ceil(V / 32)]`` on the CPU."""
    return torch.zeros(rows, (vocab_size + 31) // 32, dtype=torch.int32)


@dataclass(slots=True)
class PendingMasks:
    """Masks being computed for one step: ``rows`` maps a sequence id to its row of ``bitmask``."""

    future: Future
    rows: dict[int, int]
    bitmask: torch.Tensor  # [len(rows), W] int32


class GrammarMasks:
    """The engine's mask computer (one per engine; a single worker thread keeps steps in order)."""

    def __init__(self, vocab_size: int, threads: int | None = None) -> None:
        """``vocab_size``: the logits' width; ``threads``: llguidance's parallel mask threads (default: its own)."""
        import llguidance

        self.vocab_size = vocab_size
        self._table = forbidden_table()  # [256, 8]
        self._executor = llguidance.LLExecutor(num_threads=threads)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grammar-masks")

    def _fill(self, matchers: list[tuple[Any, int]], bitmask: torch.Tensor) -> None:
        import llguidance.torch

        llguidance.torch.fill_next_token_bitmask_par(self._executor, matchers, bitmask)

    def start(self, seqs: Seq[Any]) -> PendingMasks | None:
        """Begin computing the masks of the constrained ones among ``seqs`` (None: none is constrained)."""
        constrained = [s for s in seqs if s.matcher is not None]
        if not constrained:
            return None
        bitmask = allocate(len(constrained), self.vocab_size)  # [C, W]
        rows = {s.seq_id: i for i, s in enumerate(constrained)}
        future = self._pool.submit(self._fill, [(s.matcher, i) for i, s in enumerate(constrained)], bitmask)
        return PendingMasks(future, rows, bitmask)

    def apply(self, pending: PendingMasks | None, logits: torch.Tensor, seqs: Seq[Any],
              first_rows: Seq[int] | None = None) -> None:
        """Mask ``logits: [N, V]`` in place: ``seqs[i]``'s row is ``first_rows[i]`` (default ``i``). Rows of
        unconstrained sequences and of sequences without a pending mask are left as they are."""
        if pending is None:
            return
        pending.future.result()
        picked = [i for i, s in enumerate(seqs) if s.seq_id in pending.rows]
        if not picked:
            return
        rows = [first_rows[i] if first_rows is not None else i for i in picked]
        order = [pending.rows[seqs[i].seq_id] for i in picked]
        packed = pending.bitmask if order == list(range(len(order))) else pending.bitmask[order]  # [R, W]
        banned = forbidden(packed, self.vocab_size, self._table).to(logits.device)  # [R, V']
        width = min(banned.shape[1], logits.shape[1])
        with torch.inference_mode():  # the forward's logits are inference tensors
            if rows == list(range(logits.shape[0])) and width == logits.shape[1]:  # every row constrained
                logits.masked_fill_(banned[:, :width], float("-inf"))
                return
            for r, row in enumerate(rows):
                logits[row, :width].masked_fill_(banned[r, :width], float("-inf"))
                logits[row, width:] = float("-inf")

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def mask_logits(matcher: Any, logits: torch.Tensor) -> torch.Tensor:
    """One sequence's ``logits: [V]`` with the tokens ``matcher`` forbids at ``-inf`` (computed inline; the
    serial path and n > 1 siblings use it)."""
    import llguidance.torch

    vocab = logits.shape[-1]
    bitmask = allocate(1, vocab)  # [1, W]
    llguidance.torch.fill_next_token_bitmask(matcher, bitmask, 0)
    banned = forbidden(bitmask, vocab, forbidden_table())[0].to(logits.device)  # [V]
    return logits.masked_fill(banned, float("-inf"))


def advance(matcher: Any, token: int) -> None:
    """Feed the sampled ``token`` to ``matcher``; a token the grammar forbids is a bug, raised as one."""
    if not matcher.consume_token(token):
        raise RuntimeError(f"token {token} violates the request's grammar: {matcher.get_error()[:200]}")

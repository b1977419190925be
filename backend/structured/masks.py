"""Allowed-token masks of constrained sequences, computed while the forward pass runs.

The engine calls :meth:`GrammarMasks.start` with the sequences that sample in a step *before* it runs the
forward: the masks are filled on a worker thread by llguidance (which drops the GIL, as torch's forward
does), so the two overlap. A constrained sequence that verifies ``d`` speculative drafts gets ``d + 1``
masks, one for each verified position: its matcher steps through the drafts and is rolled back. After
the forward, :meth:`GrammarMasks.apply` waits for the masks and sets the disallowed logits of the
constrained rows to ``-inf``. Unconstrained rows are never touched, so their tokens are exactly what they
would be without any constrained neighbour.
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
    """Masks being computed for one step: ``rows`` maps a sequence id to (its first row of ``bitmask``, its
    number of rows): one row, or ``d + 1`` for a sequence verifying ``d`` drafts."""

    future: Future
    rows: dict[int, tuple[int, int]]
    bitmask: torch.Tensor  # [sum of the rows, W] int32


class GrammarMasks:
    """The engine's mask computer (one per engine; a single worker thread keeps steps in order)."""

    def __init__(self, vocab_size: int, threads: int | None = None) -> None:
        """``vocab_size``: the logits' width; ``threads``: llguidance's parallel mask threads (default: its own)."""
        import llguidance

        self.vocab_size = vocab_size
        self._table = forbidden_table()  # [256, 8]
        self._executor = llguidance.LLExecutor(num_threads=threads)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grammar-masks")

    def _fill(self, single: list[tuple[Any, int]], drafted: list[tuple[Any, int, list[int]]],
              bitmask: torch.Tensor) -> None:
        import llguidance.torch

        if single:
            llguidance.torch.fill_next_token_bitmask_par(self._executor, single, bitmask)
        for matcher, row, draft in drafted:
            fill_along(matcher, draft, bitmask, row)

    def start(self, scheduled: Seq[tuple[Any, int]]) -> PendingMasks | None:
        """Begin computing the masks of the constrained sequences among ``scheduled``: (sequence, number of
        drafts it verifies) pairs. None: none is constrained."""
        rows: dict[int, tuple[int, int]] = {}
        single: list[tuple[Any, int]] = []
        drafted: list[tuple[Any, int, list[int]]] = []
        total = 0
        for seq, num_draft in scheduled:
            if seq.matcher is None:
                continue
            rows[seq.seq_id] = (total, num_draft + 1)
            if num_draft:
                drafted.append((seq.matcher, total, list(seq.draft_ids[:num_draft])))
            else:
                single.append((seq.matcher, total))
            total += num_draft + 1
        if not rows:
            return None
        bitmask = allocate(total, self.vocab_size)  # [R, W]
        future = self._pool.submit(self._fill, single, drafted, bitmask)
        return PendingMasks(future, rows, bitmask)

    def apply(self, pending: PendingMasks | None, logits: torch.Tensor, seqs: Seq[Any],
              first_rows: Seq[int] | None = None) -> None:
        """Mask ``logits: [N, V]`` in place: ``seqs[i]``'s rows start at ``first_rows[i]`` (default ``i``). Rows
        of unconstrained sequences and of sequences without a pending mask are left as they are."""
        if pending is None:
            return
        pending.future.result()
        logit_rows: list[int] = []
        mask_rows: list[int] = []
        for i, seq in enumerate(seqs):
            where = pending.rows.get(seq.seq_id)
            if where is None:
                continue
            first = first_rows[i] if first_rows is not None else i
            logit_rows += range(first, first + where[1])
            mask_rows += range(where[0], where[0] + where[1])
        if not logit_rows:
            return
        identity = mask_rows == list(range(pending.bitmask.shape[0]))
        packed = pending.bitmask if identity else pending.bitmask[mask_rows]  # [R, W]
        banned = forbidden(packed, self.vocab_size, self._table).to(logits.device)  # [R, V']
        width = min(banned.shape[1], logits.shape[1])
        with torch.inference_mode():  # the forward's logits are inference tensors
            if logit_rows == list(range(logits.shape[0])) and width == logits.shape[1]:  # every row constrained
                logits.masked_fill_(banned[:, :width], float("-inf"))
                return
            for r, row in enumerate(logit_rows):
                logits[row, :width].masked_fill_(banned[r, :width], float("-inf"))
                logits[row, width:] = float("-inf")

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def fill_along(matcher: Any, draft: list[int], bitmask: torch.Tensor, row: int) -> None:
    """Fill ``bitmask`` rows ``row … row + len(draft)`` with ``matcher``'s masks before each draft token and
    after the last, by consuming the drafts and rolling them back: the matcher ends where it began. The
    drafts must be ones the grammar accepts (:func:`backend.speculative.decoder.fit_to_grammar`)."""
    import llguidance.torch

    consumed = 0
    try:
        for i, token in enumerate(draft):
            llguidance.torch.fill_next_token_bitmask(matcher, bitmask, row + i)
            advance(matcher, token)
            consumed += 1
        llguidance.torch.fill_next_token_bitmask(matcher, bitmask, row + len(draft))
    finally:
        if consumed:
            matcher.rollback(consumed)


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

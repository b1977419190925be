"""Exact acceptance of draft tokens against the target model's logits.

Greedy requests keep a draft token while it equals the target's argmax; the first mismatch is replaced
by the argmax, and if every draft token matches the row after them adds one more (the "bonus" token).
The output is the target's greedy output, token for token.

Sampled requests use the rejection-sampling rule of Leviathan et al. / Chen et al.: draft token ``d``
drawn from the drafter's distribution ``q`` is accepted with probability ``min(1, p(d) / q(d))``; on
the first rejection a replacement is drawn from the normalised residual ``max(0, p - q)``; after K
acceptances the bonus token is drawn from ``p``. Every emitted token then follows ``p`` exactly, where
``p`` is the target's distribution after temperature / top-k / top-p (:func:`sampling_probs`). A
deterministic drafter (prompt lookup) is a point mass ``q = 1[d]``: accept with probability ``p(d)``,
else draw from ``p`` with ``d`` removed.

Randomness comes from the sequence's own generator, so a seeded request is reproducible. A seeded
sampled request goes further (:func:`verify_replayed`): each row draws its token exactly as plain decoding
would (:func:`backend.sampling.sample`, one draw per emitted token, in order), and a draft token is kept
while it equals that draw, so the answer is the one the same seed gives without speculation (batch
invariance), at the cost of accepting only drafts the draw agrees with.

Presence / frequency penalties are not applied here (each row would need its own prefix's counts): the
decoder never drafts for a penalized request (:meth:`~backend.speculative.decoder.SpeculativeDecoder._budget`).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from backend.sampling import SamplingParams, sample, sampling_probs


@dataclass(frozen=True, slots=True)
class Verdict:
    """``tokens``: the accepted draft tokens followed by one token of the target; ``num_accepted`` of them
    are draft tokens."""

    tokens: list[int]
    num_accepted: int


def verify_greedy(target_logits: torch.Tensor, draft: list[int]) -> Verdict:
    """target_logits: [k + 1, V] (row j predicts the token after draft[:j]); draft: k ids."""
    best = target_logits.argmax(dim=-1).tolist()  # [k + 1]
    accepted = 0
    while accepted < len(draft) and draft[accepted] == best[accepted]:
        accepted += 1
    return Verdict(draft[:accepted] + [best[accepted]], accepted)


def verify_sampled(target_probs: torch.Tensor, draft: list[int], draft_probs: torch.Tensor | None,
                   generator: torch.Generator | None) -> Verdict:
    """Rejection sampling. target_probs: [k + 1, V]; draft_probs: [k, V] (None: a point mass on each draft)."""
    k = len(draft)
    accepted = k
    if k:
        rows = torch.arange(k, device=target_probs.device)
        ids = torch.tensor(draft, dtype=torch.int64, device=target_probs.device)
        p = target_probs[rows, ids]  # [k]
        q = draft_probs[rows, ids] if draft_probs is not None else torch.ones_like(p)  # [k]
        u = torch.rand(k, generator=generator, device=target_probs.device)  # [k]
        ok = (u * q < p).tolist()  # u < p / q, without dividing (q > 0: d was drawn from q)
        accepted = ok.index(False) if False in ok else k
    if accepted == k:
        bonus = int(torch.multinomial(target_probs[k], 1, generator=generator))
        return Verdict(draft + [bonus], k)
    row = target_probs[accepted]  # [V]
    if draft_probs is not None:
        residual = (row - draft_probs[accepted]).clamp_min(0.0)
    else:
        residual = row.clone()
        residual[draft[accepted]] = 0.0
    total = float(residual.sum())
    if total <= 1e-12:  # p == q up to rounding: a rejection had probability ~0; draw from p itself
        residual, total = row, float(row.sum())
    token = int(torch.multinomial(residual / total, 1, generator=generator))
    return Verdict(draft[:accepted] + [token], accepted)


def verify_replayed(target_logits: torch.Tensor, draft: list[int], params: SamplingParams,
                    generator: torch.Generator | None) -> Verdict:
    """Plain decoding's own draws, row by row: target_logits [k + 1, V]; draft k ids. Row ``j`` samples
    with :func:`backend.sampling.sample`; the draft is kept while each draw equals it, and the first draw
    that differs (or the bonus row's draw) ends the verdict. Consumes the generator exactly as plain
    decoding of the emitted tokens does."""
    tokens: list[int] = []
    for row in range(len(draft) + 1):
        token = sample(target_logits[row], params, generator)
        tokens.append(token)
        if row == len(draft) or token != draft[row]:
            break
    return Verdict(tokens, len(tokens) - 1)


def verify(target_logits: torch.Tensor, draft: list[int], draft_probs: torch.Tensor | None,
           params: SamplingParams, generator: torch.Generator | None) -> Verdict:
    """The exact rule for ``params``: target_logits [k + 1, V] fp32, draft k ids, draft_probs [k, V] or None.
    ``params`` must not be penalized (penalized requests never draft)."""
    if params.penalized:
        raise ValueError("speculative verification does not apply presence / frequency penalties")
    if params.greedy:
        return verify_greedy(target_logits, draft)
    if params.seed is not None:  # the seed promises the plain answer: replay plain decoding's draws
        return verify_replayed(target_logits, draft, params, generator)
    return verify_sampled(sampling_probs(target_logits, params), draft, draft_probs, generator)

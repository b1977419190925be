"""Exact acceptance: greedy keeps the argmax prefix; rejection sampling emits the target's distribution
(checked statistically against known distributions with a chi-square test; failure rate ~1e-6)."""

from __future__ import annotations

import pytest
import torch
from scipy.stats import chisquare

from backend.sampling import SamplingParams
from backend.speculative.acceptance import verify, verify_greedy, verify_sampled

_MIN_P_VALUE = 1e-6  # a correct rule fails this one time in a million


def _dist(seed: int, size: int, sharp: float = 2.0) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed)
    return torch.softmax(torch.randn(size, generator=gen) * sharp, dim=-1)


def _fits(counts: torch.Tensor, probs: torch.Tensor) -> float:
    """Chi-square p-value of ``counts`` against ``probs`` (cells with expected count < 5 pooled)."""
    expected = probs * counts.sum()
    small = expected < 5
    obs = torch.cat([counts[~small], counts[small].sum(0, keepdim=True)]).double()
    exp = torch.cat([expected[~small], expected[small].sum(0, keepdim=True)]).double()
    if exp[-1] == 0:
        obs, exp = obs[:-1], exp[:-1]
    return float(chisquare(obs.numpy(), exp.numpy() * obs.sum().item() / exp.sum().item()).pvalue)


def test_greedy_accepts_the_argmax_prefix_then_corrects() -> None:
    logits = torch.full((4, 6), -1.0)
    for row, best in enumerate([3, 1, 5, 2]):
        logits[row, best] = 1.0
    assert verify_greedy(logits, [3, 1, 5]).tokens == [3, 1, 5, 2]  # all accepted + bonus
    assert verify_greedy(logits, [3, 4, 5]).tokens == [3, 1]  # second rejected: the argmax replaces it
    assert verify_greedy(logits, [0, 1, 5]).num_accepted == 0
    assert verify_greedy(logits[:1], []).tokens == [3]


@pytest.mark.parametrize("point_mass", [True, False])
def test_rejection_sampling_emits_the_target_distribution(point_mass: bool) -> None:
    vocab, trials = 8, 5_000
    p = torch.stack([_dist(1, vocab), _dist(2, vocab), _dist(3, vocab)])  # [3, V]: target rows
    q = torch.stack([_dist(4, vocab), _dist(5, vocab)])  # [2, V]: the drafter's
    gen = torch.Generator().manual_seed(7)
    first = torch.zeros(vocab)
    second = torch.zeros(vocab)  # the token after an accepted first draft
    accepted_first = 0
    for _ in range(trials):
        if point_mass:
            draft, probs = [2, 5], None  # a fixed (prompt-lookup) guess
        else:
            draft = [int(torch.multinomial(q[i], 1, generator=gen)) for i in range(2)]
            probs = q
        verdict = verify_sampled(p, draft, probs, gen)
        first[verdict.tokens[0]] += 1
        if verdict.num_accepted >= 1:
            accepted_first += 1
            second[verdict.tokens[1]] += 1
    assert _fits(first, p[0]) > _MIN_P_VALUE
    assert _fits(second, p[1]) > _MIN_P_VALUE
    expected_accept = float(p[0, 2]) if point_mass else float(torch.minimum(p[0], q[0]).sum())
    assert abs(accepted_first / trials - expected_accept) < 5 * (expected_accept / trials) ** 0.5 + 0.01


def test_a_biased_rule_would_be_caught() -> None:
    """The test's power: always accepting a point-mass draft is far from p and fails the chi-square."""
    p = _dist(1, 8)
    counts = torch.zeros(8)
    counts[2] = 12_000  # what "always accept draft 2" emits
    assert _fits(counts, p) < _MIN_P_VALUE


def test_seeded_verification_is_reproducible_and_respects_top_k() -> None:
    logits = torch.randn(4, 50, generator=torch.Generator().manual_seed(0))
    params = SamplingParams(temperature=0.8, top_k=3, seed=11)
    allowed = [set(torch.topk(logits[i], 3).indices.tolist()) for i in range(4)]
    runs = []
    for _ in range(2):
        gen = torch.Generator().manual_seed(11)
        runs.append([verify(logits, [7, 8, 9], None, params, gen).tokens for _ in range(30)])
    assert runs[0] == runs[1]
    for tokens in runs[0]:  # a draft outside the top-k has p = 0: never accepted, never resampled
        assert all(token in allowed[i] for i, token in enumerate(tokens))

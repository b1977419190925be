"""Sampler and stop-string behaviour."""

from __future__ import annotations

import torch

from backend.sampling import SamplingParams, make_generator, sample, token_logprobs
from backend.stops import StopChecker


def test_greedy_picks_the_argmax():
    logits = torch.tensor([0.1, 3.0, 2.9, -1.0])
    assert sample(logits, SamplingParams(temperature=0.0), None) == 1


def test_top_k_one_and_tiny_top_p_are_greedy():
    logits = torch.randn(1000, generator=torch.Generator().manual_seed(1))
    best = int(logits.argmax())
    for _ in range(20):
        assert sample(logits, SamplingParams(temperature=1.0, top_k=1), None) == best
        assert sample(logits, SamplingParams(temperature=1.0, top_p=1e-6), None) == best


def test_seed_makes_sampling_reproducible_and_seeds_differ():
    logits = torch.zeros(50000)
    params = SamplingParams(temperature=1.0, seed=42)
    first = [sample(logits, params, g) for g in [make_generator(params, "cpu")] for _ in range(10)]
    again = [sample(logits, params, g) for g in [make_generator(params, "cpu")] for _ in range(10)]
    other = [sample(logits, params, g) for g in [make_generator(params, "cpu", index=1)] for _ in range(10)]
    assert first == again
    assert first != other


def test_top_p_never_samples_outside_the_nucleus():
    logits = torch.log(torch.tensor([0.5, 0.3, 0.15, 0.05]))
    params = SamplingParams(temperature=1.0, top_p=0.7, seed=0)
    gen = make_generator(params, "cpu")
    seen = {sample(logits, params, gen) for _ in range(300)}
    assert seen == {0, 1}


def test_logprobs_are_normalised():
    logits = torch.tensor([1.0, 2.0, 3.0])
    chosen, top = token_logprobs(logits, 2, 2)
    assert abs(sum(torch.exp(torch.tensor([lp for _, lp in top] + [float(torch.log_softmax(logits, 0)[0])])).tolist()) - 1) < 1e-5
    assert top[0][0] == 2 and abs(chosen - top[0][1]) < 1e-7


def test_stop_string_split_across_deltas_is_held_back_and_cut():
    checker = StopChecker(["END"])
    text, out = "", []
    for delta in ["Hello E", "N", "D more"]:
        text += delta
        released, hit = checker.release(text)
        out.append(released)
        if hit:
            break
    assert "".join(out) == "Hello "
    assert hit


def test_text_that_only_looks_like_a_stop_prefix_is_released_at_the_end():
    checker = StopChecker(["###"])
    released, hit = checker.release("value #")
    assert (released, hit) == ("value ", False)
    released, hit = checker.release("value #", final=True)
    assert (released, hit) == ("#", False)

"""Sampler and stop-string behaviour."""

from __future__ import annotations

import pytest
import torch

from backend.sampling import (
    SEED_SPACE,
    SamplingParams,
    apply_penalties,
    generator_seed,
    make_generator,
    penalty_vector,
    sample,
    sampling_probs,
    token_logprobs,
)
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


def _draws(seed: int, index: int = 0, device: str = "cpu") -> list[int]:
    params = SamplingParams(temperature=1.0, seed=seed)
    gen = make_generator(params, device, index)
    return [sample(torch.zeros(50000, device=device), params, gen) for _ in range(8)]


@pytest.mark.parametrize("seed", [-(2**63), -1, 0, 2**63 - 1])
def test_extreme_signed_64_bit_seeds_with_any_choice_index_never_overflow(seed: int):
    for index in (0, 1, 7):
        assert 0 <= generator_seed(seed, index) < SEED_SPACE
        assert _draws(seed, index) == _draws(seed, index)


def test_seeds_that_differ_only_in_their_high_bits_give_different_draws():
    # the CPU generator keeps only the low 32 bits of its seed: -1 (2**64 - 1 mod 2**64) and 2**63 - 1,
    # or 5 and 5 + 2**32, collided before the seed was mixed
    assert _draws(-1) != _draws(2**63 - 1)
    assert _draws(-1, index=1) != _draws(2**63 - 1, index=1)
    assert _draws(5) != _draws(5 + 2**32)
    assert _draws(0) != _draws(-1)


def test_generator_seed_is_injective_over_neighbouring_seeds_and_indices():
    seeds = {generator_seed(s, i) for s in (-(2**63), -2, -1, 0, 1, 2**63 - 2, 2**63 - 1) for i in range(4)}
    assert len(seeds) == len({(s + i) % SEED_SPACE for s in (-(2**63), -2, -1, 0, 1, 2**63 - 2, 2**63 - 1)
                              for i in range(4)})
    assert len({generator_seed(s) & 0xFFFFFFFF for s in range(-1000, 1000)}) == 2000  # low 32 bits too


def test_logit_bias_steers_greedy_and_sampled_picks():
    logits = torch.tensor([0.1, 3.0, 2.9, -1.0])
    assert sample(logits, SamplingParams(temperature=0.0, logit_bias=((3, 5.0),)), None) == 3
    assert sample(logits, SamplingParams(temperature=0.0, logit_bias=((1, -100.0),)), None) == 2
    assert not SamplingParams(temperature=0.0, logit_bias=((3, 5.0),)).greedy  # the engine's raw argmax won't do
    assert SamplingParams(temperature=0.0).greedy
    banned = SamplingParams(temperature=1.0, seed=3, logit_bias=((1, -100.0), (2, -100.0)))
    gen = make_generator(banned, "cpu")
    assert {sample(logits, banned, gen) for _ in range(200)} <= {0, 3}
    forced = SamplingParams(temperature=1.5, top_p=0.9, logit_bias=((3, 100.0),))
    assert {sample(logits, forced, None) for _ in range(50)} == {3}


def test_sampling_probs_apply_the_bias_per_row_and_put_all_mass_on_the_biased_argmax_at_temperature_0():
    logits = torch.tensor([[0.1, 3.0, 2.9, -1.0], [5.0, 0.0, 0.0, 0.0]])  # [2, V]
    probs = sampling_probs(logits, SamplingParams(temperature=0.0, logit_bias=((2, 0.5),)))
    assert probs.tolist() == [[0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0]]
    warm = sampling_probs(logits, SamplingParams(temperature=1.0, logit_bias=((0, -100.0),)))
    assert torch.allclose(warm.sum(-1), torch.ones(2)) and float(warm[:, 0].max()) < 1e-30
    assert torch.equal(logits, torch.tensor([[0.1, 3.0, 2.9, -1.0], [5.0, 0.0, 0.0, 0.0]]))  # not modified


def test_penalties_subtract_frequency_times_count_plus_presence_by_hand():
    params = SamplingParams(temperature=1.0, presence_penalty=0.5, frequency_penalty=0.25)
    outputs = [2, 4, 2, 2, 0]  # counts: 0 → 1, 2 → 3, 4 → 1; 1, 3, 5 never generated
    penalty = penalty_vector(outputs, params, 6, "cpu")
    # t: 0.25 * count + 0.5 * (count > 0)
    assert penalty.tolist() == [0.75, 0.0, 1.25, 0.0, 0.75, 0.0]
    logits = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    assert apply_penalties(logits, outputs, params).tolist() == [0.25, 2.0, 1.75, 4.0, 4.25, 6.0]
    assert logits.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]  # not modified
    negative = SamplingParams(presence_penalty=-2.0, frequency_penalty=-1.0)  # negative values reward repeats
    assert penalty_vector([1, 1], negative, 3, "cpu").tolist() == [0.0, -4.0, 0.0]
    rows = apply_penalties(torch.zeros(2, 3), [1], params)  # [..., V]: the same vector on every row
    assert rows.tolist() == [[0.0, -0.75, 0.0], [0.0, -0.75, 0.0]]
    # nothing generated yet (the first token) or no penalty: nothing subtracted, the same tensor back
    assert penalty_vector([], params, 6, "cpu") is None
    assert penalty_vector(outputs, SamplingParams(), 6, "cpu") is None
    assert apply_penalties(logits, outputs, SamplingParams(presence_penalty=0.0)) is logits


def test_penalties_make_temperature_0_leave_the_raw_argmax_and_come_before_the_bias():
    logits = torch.tensor([0.1, 3.0, 2.9, -1.0])
    penalized = SamplingParams(temperature=0.0, frequency_penalty=0.2)
    assert penalized.penalized and not penalized.greedy  # the engine's raw argmax won't do
    assert not SamplingParams(presence_penalty=-0.0).penalized
    assert sample(logits, penalized, None) == 1  # first token: no generated tokens, no effect
    assert sample(logits, penalized, None, [1]) == 2  # 3.0 - 0.2 < 2.9
    assert sample(logits, penalized, None, [1, 2]) == 1  # both penalized once
    # presence counts a token once (3.0 - 2 > 2.9 - 2), frequency per occurrence (3.0 - 3 < 2.9 - 1)
    assert sample(logits, SamplingParams(temperature=0.0, presence_penalty=2.0), None, [1, 1, 1, 2]) == 1
    assert sample(logits, SamplingParams(temperature=0.0, frequency_penalty=1.0), None, [1, 1, 1, 2]) == 2
    # penalties, then logit_bias: the bias can still force a penalized token
    forced = SamplingParams(temperature=0.0, frequency_penalty=2.0, logit_bias=((1, 100.0),))
    assert sample(logits, forced, None, [1] * 10) == 1
    # sampled: a token penalized by -inf-like amounts is never drawn again
    banned = SamplingParams(temperature=1.0, seed=3, frequency_penalty=2.0)
    gen = make_generator(banned, "cpu")
    assert 1 not in {sample(logits, banned, gen, [1] * 60) for _ in range(200)}


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

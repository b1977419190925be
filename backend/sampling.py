"""Sampling parameters and the token sampler (greedy, temperature, top-k, top-p, logit bias, presence /
frequency penalties, seeded; a grammar constrains through masks applied before, see backend.structured)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

#: ``torch.Generator.manual_seed`` takes [-2**63, 2**64 - 1]; choice seeds live in [0, 2**64).
SEED_SPACE = 1 << 64


@dataclass(frozen=True, slots=True)
class SamplingParams:
    """Per-request decoding options, already validated against the server's limits."""

    max_tokens: int = 256
    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 0  # 0: disabled
    seed: int | None = None
    stop: tuple[str, ...] = ()
    stop_token_ids: tuple[int, ...] = ()
    ignore_eos: bool = False
    n: int = 1
    logprobs: bool = False
    top_logprobs: int = 0
    logit_bias: tuple[tuple[int, float], ...] = ()  # (token id, value added to its logit), OpenAI's logit_bias
    presence_penalty: float = 0.0  # OpenAI's: subtracted once from each token already generated
    frequency_penalty: float = 0.0  # OpenAI's: subtracted per occurrence among the generated tokens
    extra: dict = field(default_factory=dict)
    grammar: Any = field(default=None, compare=False)  # backend.structured.compiler.CompiledGrammar, or None
    call_grammars: Any = field(default=None, compare=False)  # tool_choice auto: backend.structured.compiler.CallGrammars

    @property
    def zero_temperature(self) -> bool:
        """Always the most likely token (of the biased, penalized logits when there are any)."""
        return self.temperature <= 1e-5

    @property
    def penalized(self) -> bool:
        """A nonzero ``presence_penalty`` or ``frequency_penalty``: the logits depend on the choice's own
        generated tokens (see :func:`apply_penalties`)."""
        return self.presence_penalty != 0.0 or self.frequency_penalty != 0.0

    @property
    def greedy(self) -> bool:
        """The argmax of the raw logits will do: temperature 0, no ``logit_bias`` and no penalties. A biased
        or penalized temperature-0 request is not ``greedy``: it goes through :func:`sample` /
        :func:`sampling_probs`, which penalize and bias the logits and then pick (or put all the mass on)
        the argmax."""
        return self.zero_temperature and not self.logit_bias and not self.penalized


def generator_seed(seed: int, index: int = 0) -> int:
    """The torch seed of choice ``index``: SplitMix64's mix of ``(seed + index) mod 2**64``.

    Taken modulo 2**64, any signed 64-bit seed plus an index fits ``manual_seed`` (never an overflow).
    The mix is a bijection of 64-bit values, so distinct seeds stay distinct generators on CUDA (Philox
    uses all 64 bits); it also spreads the high bits into the low 32, the only ones the CPU generator's
    Mersenne Twister keeps, so seeds that differ only above bit 31 (-1 and 2**63 - 1) do not collide there.
    """
    value = (seed + index) % SEED_SPACE
    value = (value + 0x9E3779B97F4A7C15) % SEED_SPACE
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) % SEED_SPACE
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) % SEED_SPACE
    return value ^ (value >> 31)


def make_generator(params: SamplingParams, device: torch.device | str, index: int = 0) -> torch.Generator | None:
    """A per-request RNG; choice ``index`` of an ``n > 1`` request gets :func:`generator_seed` (seed + index)."""
    if params.seed is None:
        return None
    gen = torch.Generator(device=device)
    gen.manual_seed(generator_seed(params.seed, index))
    return gen


def apply_logit_bias(logits: torch.Tensor, bias: tuple[tuple[int, float], ...]) -> torch.Tensor:
    """``logits: [..., V]`` with each ``(token id, value)`` of ``bias`` added (a new tensor; the input as is
    without a bias)."""
    if not bias:
        return logits
    ids = torch.tensor([i for i, _ in bias], dtype=torch.int64, device=logits.device)  # [B]
    values = torch.tensor([v for _, v in bias], dtype=logits.dtype, device=logits.device)  # [B]
    biased = logits.clone()  # [..., V]
    biased[..., ids] += values
    return biased


def penalty_vector(output_ids: Sequence[int], params: SamplingParams, vocab_size: int,
                   device: torch.device | str, dtype: torch.dtype = torch.float32) -> torch.Tensor | None:
    """What OpenAI's penalties subtract from each logit, ``[V]``: ``frequency_penalty * count(t) +
    presence_penalty * (count(t) > 0)``, counting ``t`` among ``output_ids`` (the choice's generated
    tokens, never the prompt). None when there is nothing to subtract (no penalty, or nothing generated yet)."""
    if not params.penalized or not output_ids:
        return None
    ids = torch.tensor(output_ids, dtype=torch.int64, device=device)  # [T]
    counts = torch.bincount(ids, minlength=vocab_size)[:vocab_size].to(dtype)  # [V]
    return params.frequency_penalty * counts + params.presence_penalty * (counts > 0).to(dtype)


def apply_penalties(logits: torch.Tensor, output_ids: Sequence[int], params: SamplingParams) -> torch.Tensor:
    """``logits: [..., V]`` less :func:`penalty_vector` (a new tensor; the input as is without one)."""
    penalty = penalty_vector(output_ids, params, logits.shape[-1], logits.device, logits.dtype)
    return logits if penalty is None else logits - penalty


def sampling_probs(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
    """The distribution a request draws from: logit bias, temperature, then top-k, then top-p.

    ``logits: [..., V]`` fp32 → probabilities ``[..., V]`` (each row sums to 1). At temperature 0 (a
    biased or penalized request that is not ``greedy``) all the mass is on the biased argmax. Penalties
    depend on the generated tokens, not on ``params`` alone: the caller applies them first
    (:func:`apply_penalties`; :func:`sample` does).
    """
    logits = apply_logit_bias(logits, params.logit_bias)  # [..., V]
    if params.zero_temperature:
        best = logits.argmax(dim=-1, keepdim=True)  # [..., 1]
        return torch.zeros_like(logits).scatter(-1, best, 1.0)
    scaled = logits / params.temperature  # [..., V]
    if params.top_k and params.top_k < scaled.shape[-1]:
        kth = torch.topk(scaled, params.top_k).values[..., -1:]  # [..., 1]
        scaled = scaled.masked_fill(scaled < kth, float("-inf"))
    if params.top_p < 1.0:
        sorted_logits, order = torch.sort(scaled, descending=True)  # [..., V]
        cumulative = torch.softmax(sorted_logits, dim=-1).cumsum(-1)
        # drop tokens once the mass before them already reaches top_p (always keep the first)
        drop = (cumulative - torch.softmax(sorted_logits, dim=-1)) >= params.top_p
        sorted_logits = sorted_logits.masked_fill(drop, float("-inf"))
        scaled = torch.full_like(scaled, float("-inf")).scatter(-1, order, sorted_logits)
    return torch.softmax(scaled, dim=-1)


def sample(logits: torch.Tensor, params: SamplingParams, generator: torch.Generator | None,
           output_ids: Sequence[int] = ()) -> int:
    """Pick the next token from fp32 ``logits: [vocab]``; ``output_ids``: the choice's generated tokens so
    far, which presence / frequency penalties count (ignored without them)."""
    if params.greedy:
        return int(torch.argmax(logits))
    logits = apply_penalties(logits, output_ids, params)  # [V]
    if params.zero_temperature:
        return int(torch.argmax(apply_logit_bias(logits, params.logit_bias)))
    probs = sampling_probs(logits, params)  # [V]
    return int(torch.multinomial(probs, 1, generator=generator))


def token_logprobs(logits: torch.Tensor, token_id: int, top: int) -> tuple[float, list[tuple[int, float]]]:
    """Log-probability of the chosen token and the ``top`` most likely alternatives."""
    logp = torch.log_softmax(logits, dim=-1)  # [V]
    alternatives: list[tuple[int, float]] = []
    if top:
        values, ids = torch.topk(logp, top)
        alternatives = [(int(i), float(v)) for i, v in zip(ids, values, strict=True)]
    return float(logp[token_id]), alternatives

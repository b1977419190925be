"""Sampling parameters and the token sampler (greedy, temperature, top-k, top-p, seeded)."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch


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
    extra: dict = field(default_factory=dict)

    @property
    def greedy(self) -> bool:
        return self.temperature <= 1e-5


def make_generator(params: SamplingParams, device: torch.device | str, index: int = 0) -> torch.Generator | None:
    """A per-request RNG; choice ``index`` of an ``n > 1`` request gets seed + index."""
    if params.seed is None:
        return None
    gen = torch.Generator(device=device)
    gen.manual_seed(params.seed + index)
    return gen


def sampling_probs(logits: torch.Tensor, params: SamplingParams) -> torch.Tensor:
    """The distribution a sampled request draws from: temperature, then top-k, then top-p.

    ``logits: [..., V]`` fp32 → probabilities ``[..., V]`` (each row sums to 1). Not for greedy params.
    """
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


def sample(logits: torch.Tensor, params: SamplingParams, generator: torch.Generator | None) -> int:
    """Pick the next token from fp32 ``logits: [vocab]``."""
    if params.greedy:
        return int(torch.argmax(logits))
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

"""Per-model prices and the cost of a request (USD per million input/output tokens)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ModelPrice:
    """Price of one public model name, in USD per million tokens."""

    model: str
    input_per_mtok: float = 0.0
    output_per_mtok: float = 0.0
    cached_input_per_mtok: float | None = None  # None: cached prompt tokens cost the input price

    def cost(self, prompt_tokens: int, completion_tokens: int, cached_tokens: int = 0) -> float:
        cached = min(max(cached_tokens, 0), prompt_tokens)
        cached_price = self.input_per_mtok if self.cached_input_per_mtok is None else self.cached_input_per_mtok
        return ((prompt_tokens - cached) * self.input_per_mtok + cached * cached_price
                + completion_tokens * self.output_per_mtok) / 1e6


class PriceBook:
    """Looks up prices; unknown models cost nothing (and say so through ``known``)."""

    def __init__(self, prices: Mapping[str, ModelPrice] | tuple[ModelPrice, ...]) -> None:
        items = prices.values() if isinstance(prices, Mapping) else prices
        self._prices = {p.model: p for p in items}

    def known(self, model: str) -> bool:
        return model in self._prices

    def cost(self, model: str | None, prompt_tokens: int | None, completion_tokens: int | None,
             cached_tokens: int | None = 0) -> float | None:
        """Cost in USD, or None when the model has no price or the token counts are unknown."""
        price = self._prices.get(model or "")
        if price is None or prompt_tokens is None or completion_tokens is None:
            return None
        return price.cost(prompt_tokens, completion_tokens, cached_tokens or 0)

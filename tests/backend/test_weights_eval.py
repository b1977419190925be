"""``python -m backend.weights_eval``: fp32 against bf16 linear weights (on the tiny model)."""

from __future__ import annotations

import math

import torch

from backend.weights_dtype import BF16Linear
from backend.weights_eval import evaluate, render
from tests.backend.test_engine_support import TINY, tiny_loaded


def test_fp32_row_is_the_reference_and_bf16_is_measured_against_it() -> None:
    loaded = tiny_loaded()
    prompts = [[2 + (i * 5 + j) % (TINY.vocab_size - 2) for j in range(6 + i)] for i in range(3)]
    text = [2 + (j * 11) % (TINY.vocab_size - 2) for j in range(70)]
    fp32, bf16 = evaluate(loaded, prompts, text, max_tokens=8, chunk=16)
    assert fp32.name == "fp32" and fp32.token_agreement == 1.0 and fp32.identical_outputs == 3
    assert bf16.name == "bf16" and 0.0 <= bf16.token_agreement <= 1.0 and bf16.prompts == 3
    assert math.isfinite(fp32.perplexity) and math.isfinite(bf16.perplexity) and fp32.perplexity > 1.0
    assert bf16.perplexity != fp32.perplexity  # the weights really changed
    assert isinstance(loaded.model.lm_head, BF16Linear) and loaded.model.lm_head.weight.dtype == torch.bfloat16
    table = render([fp32, bf16])
    assert "| fp32 | 100.0% | 3/3 |" in table and "+0.00%" in table

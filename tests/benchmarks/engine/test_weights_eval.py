"""``python -m benchmarks.engine.weights_eval``: fp32 against bf16/int8/int4 linear weights (on the tiny model)."""

from __future__ import annotations

import math

from backend.quant.linear import Int4Linear, Int8Linear
from backend.weights_dtype import BF16Linear
from benchmarks.engine.weights_eval import evaluate, render, weights_variant
from benchmarks.engine.weights_tasks import EncodedItem, build_tasks, encode_tasks
from tests.backend.test_engine_support import TINY, tiny_loaded


def test_each_weights_dtype_is_measured_against_the_fp32_row() -> None:
    loaded = tiny_loaded()
    variants = [loaded] + [weights_variant(loaded, n, flags={"avx512_bf16"}) for n in ("bf16", "int8", "int4")]
    assert isinstance(variants[1].model.lm_head, BF16Linear) and isinstance(variants[2].model.lm_head, Int8Linear)
    assert isinstance(variants[3].model.model.layers[0].mlp.down_proj, Int4Linear)
    assert type(loaded.model.lm_head).__name__ == "Linear"  # the reference itself is untouched
    prompts = [[2 + (i * 5 + j) % (TINY.vocab_size - 2) for j in range(6 + i)] for i in range(3)]
    text = [2 + (j * 11) % (TINY.vocab_size - 2) for j in range(70)]
    tasks = [EncodedItem("t", tuple(2 + (i * 3 + j) % 50 for j in range(5)), ((7,), (8, 9), (10,)), i % 3)
             for i in range(6)]
    rows = evaluate(variants, prompts, text, max_tokens=8, tasks=tasks, chunk=16)
    fp32 = rows[0]
    assert [r.name for r in rows] == ["fp32", "bf16", "int8", "int4"]
    assert fp32.token_agreement == 1.0 and fp32.identical_outputs == 3 and fp32.task_same_choice == 6
    for row in rows[1:]:
        assert 0.0 <= row.token_agreement <= 1.0 and row.prompts == 3 and row.task_items == 6
        assert math.isfinite(row.perplexity) and row.perplexity != fp32.perplexity  # the weights really changed
    table = render(rows)
    assert "| fp32 |" in table and "+0.00% | 100.0% | 3/3 |" in table and "| 6/6 |" in table


def test_task_items_are_fixed_and_answerable() -> None:
    items = build_tasks()
    assert len(items) == 289 and items == build_tasks()
    assert {i.family for i in items} >= {"addition", "capital", "plural", "next day"}
    for item in items:
        assert 2 <= len(item.options) <= 4 and len(set(item.options)) == len(item.options)
        assert 0 <= item.answer < len(item.options)
    capital = next(i for i in items if "capital of France" in i.prompt)
    assert capital.options[capital.answer] == " Paris"
    encoded = encode_tasks(items[:3], lambda text: [ord(c) for c in text])
    assert encoded[0].options[encoded[0].answer] == tuple(ord(c) for c in items[0].options[items[0].answer])

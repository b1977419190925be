"""``python -m backend.weights_eval``: how much bf16 linear weights change SmolLM2's output against fp32.

Two measurements per weights dtype, through the engine, with the functions of :mod:`backend.kv_eval`:
greedy agreement with the fp32 weights' output on the fixed chat prompts (EOS ignored), and perplexity
of the fixed text :mod:`backend.kv_eval_text` (teacher-forced in chunks through the paged KV path).
The model is loaded once in fp32 and converted in place to bf16 linears for the second row. No task
score yet (issue 15, item 4 asks for one).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class WeightsRow:
    name: str
    token_agreement: float  # fraction of generated tokens equal to fp32's, position by position
    identical_outputs: int
    prompts: int
    perplexity: float


def evaluate(loaded: Any, prompts: Sequence[Sequence[int]], text_ids: Sequence[int], max_tokens: int,
             chunk: int = 128) -> list[WeightsRow]:
    """fp32 then bf16 linear weights (``loaded``'s model is converted in place for the second row)."""
    from backend.engine import EngineConfig
    from backend.kv_eval import compare_outputs, greedy_outputs, paged_perplexity
    from backend.weights_dtype import convert_linears_to_bf16

    longest = max(max(map(len, prompts)) + max_tokens, len(text_ids)) + 16
    blocks = len(prompts) * (-(-longest // 16) + 1) + -(-len(text_ids) // 16) + 8
    config = EngineConfig(block_size=16, num_blocks=blocks, max_model_len=longest, max_num_seqs=len(prompts),
                          max_num_batched_tokens=512)
    rows, reference = [], None
    for name in ("fp32", "bf16"):
        if name == "bf16":
            convert_linears_to_bf16(loaded.model)
        outputs = greedy_outputs(loaded, config, prompts, max_tokens)
        reference = reference if reference is not None else outputs
        agreement = compare_outputs(reference, outputs)
        rows.append(WeightsRow(name, agreement.token_fraction, agreement.identical_prompts, len(prompts),
                               paged_perplexity(loaded, config, text_ids, chunk)))
    return rows


def render(rows: Sequence[WeightsRow]) -> str:
    base = rows[0].perplexity
    lines = ["| linear weights | identical tokens vs fp32 | identical outputs | perplexity | vs fp32 |",
             "|---|---:|---:|---:|---:|"]
    lines += [f"| {r.name} | {r.token_agreement:.1%} | {r.identical_outputs}/{r.prompts} | {r.perplexity:.3f} | "
              f"{(r.perplexity / base - 1):+.2%} |" for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import os

    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    p = argparse.ArgumentParser(prog="python -m backend.weights_eval", description=__doc__)
    p.add_argument("--model", help="GGUF file or safetensors folder (default: SmolLM2-135M-Instruct)")
    p.add_argument("--num-prompts", type=int, default=16)
    p.add_argument("--max-tokens", type=int, default=64)
    p.add_argument("--chunk", type=int, default=128)
    args = p.parse_args(argv)
    from backend.config import BackendConfig
    from backend.kv_eval import PROMPTS
    from backend.kv_eval_text import KV_EVAL_TEXT
    from backend.runtime import load_model

    loaded = load_model(BackendConfig(model_path=args.model, dtype="float32"))
    tok = loaded.tokenizer
    prompts = [tok.encode_chat([{"role": "user", "content": q}]) for q in PROMPTS[:args.num_prompts]]
    rows = evaluate(loaded, prompts, tok.encode(KV_EVAL_TEXT), args.max_tokens, args.chunk)
    print(f"## weights dtype quality\n\nmodel `{loaded.source.path.name}`, {len(prompts)} prompts x "
          f"{args.max_tokens} greedy tokens, perplexity of the kv-eval text in chunks of {args.chunk}.\n")
    print(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``python -m benchmarks.engine.weights_eval``: how much each ``--weights-dtype`` changes SmolLM2's output against fp32.

Per weights dtype (fp32, bf16, int8, int4 by default), on copies of one loaded model:

* **perplexity** of the fixed text :mod:`benchmarks.engine.kv_eval_text` (~1,400 tokens), teacher-forced in chunks
  through the engine's paged KV path (:func:`benchmarks.engine.kv_eval.paged_perplexity`);
* **greedy agreement** with the fp32 weights' output on the fixed chat prompts of :mod:`benchmarks.engine.kv_eval`
  (EOS ignored): identical tokens position by position, and whole outputs identical;
* **task score**: accuracy on the 289 multiple-choice items of :mod:`benchmarks.engine.weights_tasks` (options ranked
  by log-probability), and how many of its choices equal fp32's.

The int4 row reads the GGUF file's own 4-bit blocks, like the server does; ``int4-invariant`` (or
``int8-invariant``) runs the server's default batch-invariant kernels on them.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_DTYPES = ("fp32", "bf16", "int8", "int4")


@dataclass(frozen=True, slots=True)
class WeightsRow:
    name: str
    token_agreement: float  # fraction of generated tokens equal to fp32's, position by position
    identical_outputs: int
    prompts: int
    perplexity: float
    task_correct: int = 0
    task_same_choice: int = 0  # items where this dtype picked the same option as fp32
    task_items: int = 0


def weights_variant(loaded: Any, name: str, blocks: dict | None = None, flags: set[str] | None = None,
                    batch_invariant: bool = False) -> Any:
    """A copy of ``loaded`` (an fp32-weights model) with its linear layers converted as ``--weights-dtype name``
    (``batch_invariant``: the server's default kernels, one summation order per row whatever the row count)."""
    from backend.weights_dtype import apply_weights_plan, plan_weights

    plan = plan_weights(name, loaded.dtype, loaded.device, flags, four_bit_file=bool(blocks),
                        batch_invariant=batch_invariant)
    model = copy.deepcopy(loaded.model)
    apply_weights_plan(model, plan, loaded.dtype, blocks if plan.name == "int4" else None)
    return dataclasses.replace(loaded, model=model, weights_dtype=plan.name)


def evaluate(variants: Sequence[Any], prompts: Sequence[Sequence[int]], text_ids: Sequence[int], max_tokens: int,
             tasks: Sequence[Any] = (), chunk: int = 128, log=lambda message: None,
             labels: Sequence[str] | None = None) -> list[WeightsRow]:
    """One row per loaded model in ``variants``; the first is the reference (fp32). ``labels``: the rows'
    names (default: each variant's weights dtype)."""
    from backend.engine import EngineConfig
    from benchmarks.engine.kv_eval import compare_outputs, greedy_outputs, paged_perplexity
    from benchmarks.engine.weights_tasks import answer_all

    longest = max(max(map(len, prompts)) + max_tokens, len(text_ids)) + 16
    blocks = len(prompts) * (-(-longest // 16) + 1) + -(-len(text_ids) // 16) + 8
    config = EngineConfig(block_size=16, num_blocks=blocks, max_model_len=longest, max_num_seqs=len(prompts),
                          max_num_batched_tokens=512)
    rows, reference, reference_choices = [], None, None
    labels = list(labels) if labels is not None else [loaded.weights_dtype for loaded in variants]
    for loaded, label in zip(variants, labels, strict=True):
        started = time.perf_counter()
        outputs = greedy_outputs(loaded, config, prompts, max_tokens)
        reference = reference if reference is not None else outputs
        agreement = compare_outputs(reference, outputs)
        perplexity = paged_perplexity(loaded, config, text_ids, chunk)
        choices = answer_all(loaded, tasks)
        reference_choices = reference_choices if reference_choices is not None else choices
        rows.append(WeightsRow(label, agreement.token_fraction, agreement.identical_prompts,
                               len(prompts), perplexity,
                               sum(c == t.answer for c, t in zip(choices, tasks, strict=True)),
                               sum(a == b for a, b in zip(choices, reference_choices, strict=True)), len(tasks)))
        log(f"{label}: done in {time.perf_counter() - started:.0f}s")
    return rows


def render(rows: Sequence[WeightsRow]) -> str:
    base = rows[0].perplexity
    lines = ["| linear weights | perplexity | vs fp32 | identical tokens vs fp32 | identical outputs | "
             "task accuracy | same choice as fp32 |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        items = max(r.task_items, 1)
        lines.append(f"| {r.name} | {r.perplexity:.3f} | {(r.perplexity / base - 1):+.2%} | {r.token_agreement:.1%} | "
                     f"{r.identical_outputs}/{r.prompts} | {r.task_correct}/{r.task_items} ({r.task_correct / items:.1%}) "
                     f"| {r.task_same_choice}/{r.task_items} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import os

    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    p = argparse.ArgumentParser(prog="python -m benchmarks.engine.weights_eval", description=__doc__)
    p.add_argument("--model", help="GGUF file or safetensors folder (default: SmolLM2-135M-Instruct)")
    p.add_argument("--weights-dtypes", default=",".join(DEFAULT_DTYPES),
                   help="comma-separated, fp32 first (default: fp32,bf16,int8,int4); int4-invariant: batch-invariant")
    p.add_argument("--num-prompts", type=int, default=16)
    p.add_argument("--max-tokens", type=int, default=64)
    p.add_argument("--chunk", type=int, default=128)
    p.add_argument("--num-tasks", type=int, default=None, help="only the first N task items (default: all 289)")
    args = p.parse_args(argv)
    names = [n.strip().lower() for n in args.weights_dtypes.split(",") if n.strip()]
    if not names or names[0] not in ("fp32", "float32"):
        p.error("--weights-dtypes must start with fp32 (the reference)")

    from backend.config import BackendConfig
    from backend.runtime import load_model
    from backend.weights import open_gguf, read_gguf_4bit_blocks
    from benchmarks.engine.kv_eval import PROMPTS
    from benchmarks.engine.kv_eval_text import KV_EVAL_TEXT
    from benchmarks.engine.weights_tasks import build_tasks, encode_tasks

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    loaded = load_model(BackendConfig(model_path=args.model, dtype="float32", weights_dtype="fp32"))
    blocks = None
    if loaded.source.kind == "gguf" and any(n.startswith("int4") for n in names):
        blocks, _ = read_gguf_4bit_blocks(open_gguf(loaded.source.path), loaded.model.config)
    tok = loaded.tokenizer
    prompts = [tok.encode_chat([{"role": "user", "content": q}]) for q in PROMPTS[:args.num_prompts]]
    tasks = encode_tasks(build_tasks()[:args.num_tasks], tok.encode)
    variants = [loaded] + [weights_variant(loaded, n.removesuffix("-invariant"), blocks,
                                           batch_invariant=n.endswith("-invariant")) for n in names[1:]]
    rows = evaluate(variants, prompts, tok.encode(KV_EVAL_TEXT), args.max_tokens, tasks, args.chunk, log,
                    labels=names)
    print(f"## weights dtype quality\n\nmodel `{loaded.source.path.name}`, {len(prompts)} prompts x "
          f"{args.max_tokens} greedy tokens (EOS ignored), perplexity of the kv-eval text in chunks of "
          f"{args.chunk}, {len(tasks)} task items (benchmarks.engine.weights_tasks).\n")
    print(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``thrifty eval kv-cache``: how much a reduced-precision KV cache changes SmolLM2's output.

For each KV dtype (the model itself stays in one dtype, float32 by default) two measurements, both
through the engine's paged KV path:

* **greedy agreement** against the float32 KV cache: a fixed set of chat prompts, each decoded
  greedily for ``--max-tokens`` tokens (EOS ignored) by :class:`backend.engine.Engine`; reported as
  the fraction of generated tokens identical position by position, the number of prompts whose whole
  output is identical, and the mean position of the first divergence (``max_tokens`` when none).
* **perplexity** of a fixed English text (:mod:`benchmarks.engine.kv_eval_text`) teacher-forced through the
  engine's :class:`~backend.engine.model_runner.ModelRunner` in chunks of ``--chunk`` tokens, so every
  chunk attends to the K/V of the earlier chunks as stored (rounded / quantised) in the pool.

Module import stays light (no torch) because the CLI parser imports it lazily anyway.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

PROMPTS: tuple[str, ...] = (
    "Explain in two sentences why the sky is blue.",
    "Write a short poem about a lighthouse in winter.",
    "What are three good habits for writing readable code?",
    "Summarise the plot of a detective story you invent yourself.",
    "How does a refrigerator keep food cold?",
    "Give me a recipe for a simple vegetable soup.",
    "What is the difference between weather and climate?",
    "Describe a busy train station at eight in the morning.",
    "Why do cats purr? Answer briefly.",
    "List some tips for learning a new language as an adult.",
    "Write a friendly email declining an invitation to a party.",
    "What is a prime number? Give two examples.",
    "Explain how a bicycle stays upright while moving.",
    "Tell a short story about a robot that learns to paint.",
    "What should I pack for a three-day hiking trip?",
    "How do plants make food from sunlight?",
    "Compare reading a paper book with reading on a screen.",
    "What causes the seasons on Earth?",
    "Write a haiku about the first snow.",
    "Give advice to someone starting their first job.",
    "Why is sleep important for memory?",
    "Describe the taste of a lemon to someone who has never had one.",
    "What are the main parts of a computer?",
    "Explain what a budget is and why it helps.",
)

KV_DTYPES = ("float32", "bfloat16", "float16", "int8")


@dataclass(frozen=True, slots=True)
class Agreement:
    """Greedy outputs of one KV dtype against the reference outputs."""

    tokens: int  # generated tokens compared
    identical: int  # of them equal position by position
    identical_prompts: int  # prompts whose whole output is equal
    prompts: int
    mean_first_divergence: float  # position of the first differing token; max_tokens when none

    @property
    def token_fraction(self) -> float:
        return self.identical / self.tokens if self.tokens else 1.0


def compare_outputs(reference: Sequence[Sequence[int]], got: Sequence[Sequence[int]]) -> Agreement:
    """Position-wise comparison of two lists of generated token lists (same prompts, same lengths)."""
    if len(reference) != len(got):
        raise ValueError(f"got {len(got)} outputs for {len(reference)} reference outputs")
    tokens = identical = whole = 0
    firsts = []
    for ref, out in zip(reference, got, strict=True):
        n = max(len(ref), len(out))
        same = [a == b for a, b in zip(ref, out, strict=False)]
        tokens += n
        identical += sum(same)
        first = next((i for i, s in enumerate(same) if not s), min(len(ref), len(out)))
        if first == n:
            whole += 1
        firsts.append(first)
    mean_first = sum(firsts) / len(firsts) if firsts else 0.0
    return Agreement(tokens, identical, whole, len(reference), mean_first)


@dataclass(frozen=True, slots=True)
class KVRow:
    """One line of the report."""

    name: str
    bytes_per_token: int
    agreement: Agreement
    perplexity: float
    seconds: float


def _log(message: str) -> None:
    print(f"[eval kv-cache] {message}", file=sys.stderr, flush=True)


def greedy_outputs(loaded: Any, engine_config: Any, prompts: Sequence[Sequence[int]], max_tokens: int
                   ) -> list[list[int]]:
    """Greedy, EOS-ignoring generations of ``prompts`` through one engine, all submitted at once."""
    from backend.engine import Engine
    from backend.sampling import SamplingParams

    engine = Engine(loaded, engine_config)
    params = SamplingParams(max_tokens=max_tokens, temperature=0.0, ignore_eos=True)
    outputs: dict[str, list[int]] = {}
    for i, prompt in enumerate(prompts):
        engine.add(f"p{i}", prompt, params)
        outputs[f"p{i}"] = []
    done, last = 0, time.perf_counter()
    while engine.has_unfinished():
        for out in engine.step():
            if out.error is not None:
                raise RuntimeError(f"request {out.request_id} failed: {out.error}")
            outputs[out.request_id].extend(ev.token_id for ev in out.events if ev.token_id is not None)
            done += out.finished
        if time.perf_counter() - last > 5.0:
            last = time.perf_counter()
            _log(f"  generating: {sum(map(len, outputs.values()))}/{len(prompts) * max_tokens} tokens, "
                 f"{done}/{len(prompts)} prompts done")
    return [outputs[f"p{i}"] for i in range(len(prompts))]


def paged_perplexity(loaded: Any, engine_config: Any, ids: Sequence[int], chunk: int) -> float:
    """exp(mean NLL) of ``ids[1:]`` given their prefixes, fed ``chunk`` tokens per forward through the
    engine's model runner (later chunks read earlier K/V from the paged pool)."""
    import torch

    from backend.engine import Engine
    from backend.engine.scheduler import ScheduledSeq
    from backend.engine.sequence import Sequence as EngineSeq
    from backend.sampling import SamplingParams

    if len(ids) < 2 or chunk < 1:
        raise ValueError("perplexity needs at least two tokens and a positive chunk size")
    engine = Engine(loaded, engine_config)
    runner, bs = engine.runner, engine_config.block_size
    needed = -(-len(ids) // bs)
    if needed > runner.num_blocks:
        raise ValueError(f"the text needs {needed} KV blocks; the pool has {runner.num_blocks}")
    seq = EngineSeq(seq_id=0, request_id="ppl", index=0, token_ids=list(ids), prompt_len=len(ids),
                    params=SamplingParams(max_tokens=1), block_table=list(range(needed)))
    targets = torch.tensor(ids[1:], dtype=torch.int64)  # [N - 1]
    nll = torch.zeros((), dtype=torch.float64)
    with torch.inference_mode():
        for start in range(0, len(ids) - 1, chunk):
            n = min(chunk, len(ids) - 1 - start)  # the last token is only a target
            seq.num_computed = start
            step = runner.prepare([ScheduledSeq(seq, n)])
            runner.attention.step = step
            try:
                hidden = runner.model(step.input_ids, step.positions, runner.attention)  # [n, H]
            finally:
                runner.attention.step = None
            logits = runner.model.compute_logits(hidden)  # [n, V] fp32
            logp = torch.log_softmax(logits.double(), dim=-1)
            tgt = targets[start:start + n].to(logits.device)
            nll -= logp.gather(1, tgt[:, None]).sum().cpu()
    return math.exp(float(nll) / (len(ids) - 1))


def render(rows: Sequence[KVRow], max_tokens: int, chunk: int, text_tokens: int) -> str:
    """The markdown report."""
    lines = ["| KV dtype | KV bytes/token | identical tokens vs fp32 KV | prompts fully identical | "
             "mean first divergence | perplexity | seconds |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        a = r.agreement
        lines.append(f"| {r.name} | {r.bytes_per_token} | {a.token_fraction:.1%} ({a.identical}/{a.tokens}) | "
                     f"{a.identical_prompts}/{a.prompts} | {a.mean_first_divergence:.1f} / {max_tokens} | "
                     f"{r.perplexity:.3f} | {r.seconds:.0f} |")
    lines.append("")
    lines.append(f"Greedy: {rows[0].agreement.prompts} chat prompts x {max_tokens} tokens (EOS ignored), all "
                 f"submitted at once. Perplexity: {text_tokens}-token fixed text (benchmarks/engine/kv_eval_text.py), "
                 f"teacher-forced in chunks of {chunk} tokens through the paged KV pool.")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> str:
    import torch

    from backend.config import BackendConfig
    from backend.engine import EngineConfig
    from backend.engine.config import kv_bytes_per_token, parse_kv_cache_dtype
    from backend.runtime import load_model
    from benchmarks.engine.kv_eval_text import KV_EVAL_TEXT

    if args.num_threads:
        torch.set_num_threads(args.num_threads)
    dtypes = [d.strip().lower() for d in args.kv_dtypes.split(",") if d.strip()]
    for name in dtypes:
        parse_kv_cache_dtype(name, torch.float32)  # unknown names fail before the model loads
    loaded = load_model(BackendConfig(model_path=args.model, dtype=args.dtype, num_threads=args.num_threads))
    tok = loaded.tokenizer
    prompts = [tok.encode_chat([{"role": "user", "content": p}]) for p in PROMPTS[:args.num_prompts]]
    text_ids = tok.encode(KV_EVAL_TEXT)
    longest = max(max(map(len, prompts)) + args.max_tokens, len(text_ids))
    blocks = len(prompts) * (-(-(max(map(len, prompts)) + args.max_tokens) // 16) + 1) + -(-len(text_ids) // 16) + 8
    reference: list[list[int]] | None = None
    rows = []
    for name in ["float32", *[d for d in dtypes if parse_kv_cache_dtype(d, torch.float32) != torch.float32]]:
        started = time.perf_counter()
        config = EngineConfig(block_size=16, num_blocks=blocks, max_model_len=longest + 16,
                              max_num_seqs=len(prompts), max_num_batched_tokens=512, kv_cache_dtype=name,
                              attention_backend=args.attention_backend)
        _log(f"KV {name}: greedy generation of {len(prompts)} prompts x {args.max_tokens} tokens")
        outputs = greedy_outputs(loaded, config, prompts, args.max_tokens)
        reference = reference if reference is not None else outputs
        _log(f"KV {name}: perplexity of {len(text_ids)} tokens in chunks of {args.chunk}")
        ppl = paged_perplexity(loaded, config, text_ids, args.chunk)
        kv_dtype = parse_kv_cache_dtype(name, loaded.dtype)
        rows.append(KVRow(name, kv_bytes_per_token(loaded.model.config, kv_dtype), compare_outputs(reference, outputs),
                          ppl, time.perf_counter() - started))
        _log(f"KV {name}: done in {rows[-1].seconds:.0f}s, perplexity {ppl:.3f}, "
             f"identical tokens {rows[-1].agreement.token_fraction:.1%}")
    header = (f"## thrifty eval kv-cache\n\nmodel `{loaded.source.path.name}` ({args.dtype} weights and activations), "
              f"torch threads {torch.get_num_threads()}, attention backend {args.attention_backend}.\n")
    return header + "\n" + render(rows, args.max_tokens, args.chunk, len(text_ids))


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Flags of ``thrifty eval kv-cache``."""
    p.add_argument("--model", help="GGUF file or safetensors folder (default: SmolLM2-135M-Instruct)")
    p.add_argument("--dtype", default="float32", help="model weights/activations dtype (default float32)")
    p.add_argument("--kv-dtypes", default="bfloat16,float16,int8",
                   help="comma-separated KV dtypes compared with the float32 KV cache (default bfloat16,float16,int8)")
    p.add_argument("--num-prompts", type=int, default=len(PROMPTS), help=f"prompts (at most {len(PROMPTS)})")
    p.add_argument("--max-tokens", type=int, default=64, help="greedy tokens per prompt (default 64)")
    p.add_argument("--chunk", type=int, default=64, help="tokens per forward of the perplexity pass (default 64)")
    p.add_argument("--attention-backend", default="auto", choices=("auto", "torch", "kernels"))
    p.add_argument("--num-threads", type=int, default=None, help="torch CPU threads")
    p.add_argument("--output", help="also write the markdown report to this file")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty eval kv-cache", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    args = parser.parse_args(argv)
    if not 1 <= args.num_prompts <= len(PROMPTS):
        parser.error(f"--num-prompts must be between 1 and {len(PROMPTS)}")
    if args.max_tokens < 1 or args.chunk < 1:
        parser.error("--max-tokens and --chunk must be positive")
    try:
        report = run(args)
    except ValueError as exc:
        print(f"thrifty eval kv-cache: {exc}", file=sys.stderr)
        return 2
    print(report)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(report + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

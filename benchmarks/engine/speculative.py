"""``thrifty bench speculative``: decode speed with each drafter against no speculation, side by side.

Two workloads on the real model, greedy (so outputs must be identical with speculation on and off):

- **copy-heavy**: edit a piece of code and return it whole, summarise a document quoting it, answer a
  question from a given document (the answer copies long runs of the prompt);
- **plain chat**: open questions whose answers copy nothing.

Each is run single-stream (one request at a time; decode tokens/s = tokens after the first / time after
the first token) and batched (all prompts of the workload at once, ``--batch`` copies each; generated
tokens/s over the whole run). Every drafter runs the same request right after "off", so the noise of a
shared machine hits them alike; the table reports the ratio to "off", the acceptance rate (accepted /
drafted), the mean accepted length (tokens emitted per verification), for prompt lookup its
**ceiling** (the tokens per step it would reach on the plain run's answers if verifying cost
nothing: the most any verification kernel could give on this model and workload) and whether
every greedy output equals the one without speculation.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from backend.speculative.config import DEFAULT_MAX_STEP_ROWS
from jsonl_text import jsonl_lines

CODE = '''def parse_duration(text):
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    text = text.strip().lower()
    if not text:
        raise ValueError("empty duration")
    number, unit = text[:-1], text[-1]
    if unit not in units:
        number, unit = text, "s"
    value = float(number)
    if value < 0:
        raise ValueError("negative duration")
    return value * units[unit]


def format_duration(seconds):
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f}{unit}"
    return f"{seconds:.0f}s"
'''

DOCUMENT = """The city library opened its new reading room on the first of March. The room seats one hundred
and twenty people and stays open until ten in the evening on weekdays. Visitors can borrow up to twelve
books at a time, and the loan period is three weeks, which can be extended twice online. The library also
lends laptops for use inside the building; a laptop must be returned to the front desk one hour before
closing time. Children under twelve need a parent's signature to get a library card. The library runs a
free reading club every Thursday at six in the evening, and a language exchange on Saturday mornings.
Late returns cost twenty cents per book per day, up to a maximum of five euros per book. Lost books must
be paid for at their replacement price plus a handling fee of three euros."""

COPY_PROMPTS = [
    [{"role": "system", "content": "You are a coding assistant. Always answer with the complete code."},
     {"role": "user", "content": "Rename `parse_duration` to `read_duration` everywhere in this code and return "
                                 "the whole file in a code block:\n\n```python\n" + CODE + "```"}],
    [{"role": "user", "content": "Summarise the following text, quoting its key sentences word for word:\n\n"
                                 + DOCUMENT}],
    [{"role": "system", "content": "Answer using only the document, quoting it."},
     {"role": "user", "content": "Document:\n" + DOCUMENT + "\n\nQuestion: What are the library's rules for "
                                 "borrowing books and laptops? Quote the document."}],
]

CHAT_PROMPTS = [
    [{"role": "user", "content": "Tell me a short story about a cat who learns to fly."}],
    [{"role": "user", "content": "What are three good habits for staying healthy while working from home?"}],
    [{"role": "user", "content": "Explain why the sky is blue to a ten-year-old."}],
]


def load_prompts(text: str) -> dict[str, list[list[dict]]]:
    """``--prompts`` JSONL: one chat per line, ``{"workload": "name", "messages": [...]}`` (``workload``
    optional, default ``custom``) → workload name → chats, in file order. Blank lines are skipped.

    Raises:
        ValueError: naming the first bad line (not JSON, no messages list, a message without a role or
            string content) or an empty file.
    """
    workloads: dict[str, list[list[dict]]] = {}
    for number, raw in jsonl_lines(text):
        try:
            item = json.loads(raw)
        except ValueError as exc:
            raise ValueError(f"line {number}: not JSON ({exc})") from None
        messages = item.get("messages") if isinstance(item, dict) else None
        if not isinstance(messages, list) or not messages:
            raise ValueError(f"line {number}: expected an object with a non-empty \"messages\" list")
        for message in messages:
            if not (isinstance(message, dict) and isinstance(message.get("role"), str)
                    and isinstance(message.get("content"), str)):
                raise ValueError(f"line {number}: every message needs a \"role\" and a string \"content\"")
        name = item.get("workload", "custom")
        if not isinstance(name, str) or not name or "," in name:
            raise ValueError(f"line {number}: \"workload\" must be a name without commas")
        workloads.setdefault(name, []).append(messages)
    if not workloads:
        raise ValueError("no prompts in the file")
    return workloads


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="GGUF file or safetensors folder (default: SmolLM2-135M-Instruct)")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--weights-dtype", default="auto", type=str.lower,
                   help="linear layers' weights (as thrifty backend serve; default auto)")
    p.add_argument("--num-threads", type=int, default=None)
    p.add_argument("--drafters", default="ngram,self",
                   help="comma-separated drafters to compare with off: ngram, self, draft")
    p.add_argument("--num-speculative-tokens", type=int, default=4)
    p.add_argument("--no-auto-off", action="store_true", help="keep drafting whatever the acceptance")
    p.add_argument("--max-step-rows", type=int, default=DEFAULT_MAX_STEP_ROWS,
                   help="rows a step verifies at most, drafts included (0: no limit; default as the server)")
    p.add_argument("--draft-layers", type=int, default=0, help="layers of the self drafter (0: a quarter)")
    p.add_argument("--max-tokens", type=int, default=160)
    p.add_argument("--batch", type=int, default=4, help="copies of each prompt in the batched run (default 4)")
    p.add_argument("--workloads", default=None,
                   help="comma-separated workloads to run (default: copy,chat, or every workload of --prompts)")
    p.add_argument("--prompts", help="JSONL of your own chats instead of the built-in workloads (see docs)")
    p.add_argument("--modes", default="single,batched",
                   help="comma-separated: single (one request at a time) and/or batched (all prompts at once)")
    p.add_argument("--output", help="also write the markdown table to this file")


def _engine(loaded, method: str, args: argparse.Namespace, batch: int):
    from backend.engine import Engine, EngineConfig
    from backend.speculative.config import SpeculativeConfig

    spec = SpeculativeConfig(method, args.num_speculative_tokens, model="self" if method == "draft" else None,
                             draft_layers=args.draft_layers, auto_off=not args.no_auto_off,
                             max_step_rows=args.max_step_rows)
    config = EngineConfig(max_num_seqs=max(8, batch), kv_cache_memory=160 * 2**20, speculative=spec)
    return Engine(loaded, config, draft=loaded if method == "draft" else None)


def _run(engine, requests) -> tuple[dict[str, list[int]], dict, float]:
    """Run ``requests`` to completion → (request id → tokens, request id → stats, wall seconds)."""
    from backend.generation import RequestStats

    stats = {}
    tokens: dict[str, list[int]] = {rid: [] for rid, _, _ in requests}
    started = time.perf_counter()
    for rid, prompt, params in requests:
        stats[rid] = RequestStats()
        engine.add(rid, prompt, params, stats=stats[rid])
    while engine.has_unfinished():
        for out in engine.step():
            for event in out.events:
                if event.token_id is not None:
                    tokens[out.request_id].append(event.token_id)
    return tokens, stats, time.perf_counter() - started


def _ngram_ceiling(prompts: dict[str, list[int]], outputs: dict[str, list[int]], k: int) -> str:
    """Tokens per step prompt lookup could reach on the plain run's answers if verifying were free
    (:func:`~backend.speculative.ngram.lookup_ceiling`, the drafter's default n-gram sizes), as "1.23x"."""
    from backend.speculative.config import SpeculativeConfig
    from backend.speculative.ngram import lookup_ceiling

    sizes = SpeculativeConfig("ngram")
    tokens = steps = 0
    for rid, output in outputs.items():
        t, s = lookup_ceiling(prompts[rid], output, k, sizes.ngram_min, sizes.ngram_max)
        tokens, steps = tokens + t, steps + s
    return f"{tokens / steps:.2f}x" if steps else "-"


def main(argv: list[str] | None = None) -> int:
    """``thrifty bench speculative`` / ``python -m benchmarks.engine.speculative``."""
    # No OpenMP wait policy is forced: the engine runs as `thrifty backend serve` runs it (libgomp's
    # default), where a verification's extra rows cost what they cost in serving (BENCHMARKS.md,
    # "OpenMP wait policy"); set OMP_WAIT_POLICY=PASSIVE on a machine shared with other busy processes.
    parser = argparse.ArgumentParser(prog="thrifty bench speculative", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    args = parser.parse_args(argv)
    bad_modes = [m for m in args.modes.split(",") if m not in ("single", "batched")]
    problem = (f"--modes: unknown mode(s) {', '.join(map(repr, bad_modes))}; use single and/or batched" if bad_modes
               else "--max-tokens must be at least 2 (decode speed needs tokens after the first)"
               if args.max_tokens < 2 else "--batch must be at least 1" if args.batch < 1 else None)
    if problem:
        print(f"thrifty bench speculative: {problem}", file=sys.stderr)
        return 2
    try:
        from backend.speculative.config import SpeculativeConfig

        for method in args.drafters.split(","):
            SpeculativeConfig(method, args.num_speculative_tokens, model="x" if method == "draft" else None)
    except ValueError as exc:
        print(f"thrifty bench speculative: {exc}", file=sys.stderr)
        return 2
    workloads = {"copy": COPY_PROMPTS, "chat": CHAT_PROMPTS}
    if args.prompts:
        try:
            workloads = load_prompts(open(args.prompts, encoding="utf-8").read())
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            print(f"thrifty bench speculative: --prompts {args.prompts}: {exc}", file=sys.stderr)
            return 2
    chosen = args.workloads.split(",") if args.workloads else (list(workloads) if args.prompts else ["copy", "chat"])
    unknown = [w for w in chosen if w not in workloads]
    if unknown:
        print(f"thrifty bench speculative: unknown workload(s) {', '.join(unknown)}; known: {', '.join(workloads)}",
              file=sys.stderr)
        return 2

    from backend.config import BackendConfig
    from backend.runtime import load_model
    from backend.sampling import SamplingParams

    loaded = load_model(BackendConfig(model_path=args.model, dtype=args.dtype, num_threads=args.num_threads,
                                      weights_dtype=args.weights_dtype))
    params = SamplingParams(max_tokens=args.max_tokens, temperature=0.0)
    methods = ["off"] + [m for m in args.drafters.split(",") if m != "off"]
    rows = []
    for workload in chosen:
        prompts = [loaded.tokenizer.encode_chat(m) for m in workloads[workload]]
        for mode in args.modes.split(","):
            batch = args.batch if mode == "batched" else 1
            engines = {m: _engine(loaded, m, args, batch * len(prompts)) for m in methods}
            for engine in engines.values():  # warm-up (allocations, first-call overheads)
                _run(engine, [("w", prompts[0], SamplingParams(max_tokens=8, temperature=0.0))])
            before = {m: e.metrics() for m, e in engines.items()}
            acc = {m: {"tokens": 0, "time": 0.0, "steps": 0, "outputs": {}} for m in methods}
            prompt_of: dict[str, list[int]] = {}
            groups = ([[(f"p{i}", p, params)] for i, p in enumerate(prompts)] if mode == "single" else
                      [[(f"p{i}.{c}", p, params) for i, p in enumerate(prompts) for c in range(batch)]])
            for group in groups:
                prompt_of.update((rid, prompt) for rid, prompt, _ in group)
                for m in methods:
                    steps0 = engines[m].steps
                    tokens, stats, wall = _run(engines[m], group)
                    a = acc[m]
                    a["outputs"].update(tokens)
                    a["steps"] += engines[m].steps - steps0
                    if mode == "single":
                        st = next(iter(stats.values()))
                        a["tokens"] += st.completion_tokens - 1
                        a["time"] += st.total_time - (st.ttft or 0.0)
                    else:
                        a["tokens"] += sum(s.completion_tokens for s in stats.values())
                        a["time"] += wall
                    print(f"  {workload} {mode} {m}: {len(group)} request(s), "
                          f"{sum(len(t) for t in tokens.values())} tokens in {wall:.1f}s", file=sys.stderr, flush=True)
            base = acc["off"]["tokens"] / acc["off"]["time"]
            for m in methods:
                a = acc[m]
                after = engines[m].metrics()
                drafted = after.spec_draft_tokens - before[m].spec_draft_tokens
                accepted = after.spec_accepted_tokens - before[m].spec_accepted_tokens
                verifications = after.spec_verifications - before[m].spec_verifications
                same = sum(a["outputs"][k] == acc["off"]["outputs"][k] for k in a["outputs"])
                ceiling = (_ngram_ceiling(prompt_of, acc["off"]["outputs"], args.num_speculative_tokens)
                           if m == "ngram" else "-")
                speed = a["tokens"] / a["time"]
                rows.append((workload, mode, m, a["tokens"], f"{speed:.1f}", f"{speed / base:.2f}x",
                             f"{1000 * a['time'] / max(a['steps'], 1):.1f}",
                             f"{accepted / drafted:.0%}" if drafted else "-",
                             f"{(accepted + verifications) / verifications:.2f}" if verifications else "-",
                             ceiling, f"{same}/{len(a['outputs'])}"))
    header = ("workload", "mode", "drafter", "decode tokens", "tokens/s", "vs off", "ms/step", "acceptance",
              "mean accepted length", "ceiling", "greedy identical")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    table = "\n".join(lines)
    print(table)
    if args.output:
        with open(args.output, "w") as fh:
            fh.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

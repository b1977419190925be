"""``thrifty bench batch-invariance``: what batch invariance costs, and whether answers hold.

Loads the bundled model twice with the server's default weights (``auto``: int4 on CPU), once with
``batch_invariant`` on (the default) and once off, then:

1. **identity**: 16 greedy chat prompts of the matrix's case (a), 24 tokens each, run one at a time and
   all at once on a fresh engine per mode; prints how many of the 16 answers are token-for-token the same;
2. **cost**: the matrix cases (default a, b, c; :mod:`benchmarks.engine.matrix`), each run ``--repeats``
   times per mode, the modes alternating (on, off, off, on, ...) so that the machine's drift hits both;
   prints each mode's output tokens/s (median of the runs, and the runs), TTFT p50 and the on/off ratio.

Speed is a ratio measured in the same run, never an absolute claim: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import replace
from typing import Any

from benchmarks.engine.matrix import MatrixSpec, matrix_cases
from benchmarks.engine.workload import percentile, run_thrifty


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="thrifty bench batch-invariance", description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", default="a,b,c", help="matrix cases to time, comma-separated (default a,b,c)")
    p.add_argument("--repeats", type=int, default=2, help="runs per case and mode (default 2)")
    p.add_argument("--matrix-scale", type=float, default=1.0, help="multiply the matrix's request counts")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--num-threads", type=int, default=None, help="torch CPU threads (default: torch's)")
    p.add_argument("--skip-identity", action="store_true", help="only the cost table")
    p.add_argument("--output", help="also write the markdown report to this file")
    return p


def _answers(loaded: Any, engine_config: Any, prompts: list[list[int]], together: bool) -> list[list[int]]:
    """Greedy token ids of each prompt (24 tokens, EOS stops), all added at once or one after another."""
    from backend.engine import Engine
    from backend.sampling import SamplingParams

    engine = Engine(loaded, engine_config)
    params = SamplingParams(max_tokens=24, temperature=0.0)
    tokens: dict[str, list[int]] = {str(i): [] for i in range(len(prompts))}

    def drain() -> None:
        while engine.has_unfinished():
            for output in engine.step():
                tokens[output.request_id] += [event.token_id for event in output.events]

    for i, prompt in enumerate(prompts):
        engine.add(str(i), prompt, params)
        if not together:
            drain()
    drain()
    return [tokens[str(i)] for i in range(len(prompts))]


def _identity(models: dict[bool, Any], engine_config: Any, prompts: list[list[int]]) -> list[str]:
    lines = ["| batch invariance | answers identical alone and all at once |", "|---|---:|"]
    for mode, loaded in models.items():
        config = replace(engine_config, batch_invariant=mode)
        alone = _answers(loaded, config, prompts, together=False)
        together = _answers(loaded, config, prompts, together=True)
        same = sum(a == b for a, b in zip(alone, together, strict=True))
        lines.append(f"| {'on' if mode else 'off'} | {same}/{len(prompts)} |")
        print(lines[-1], flush=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the identity check and the cost table; print (and optionally write) the markdown report."""
    args = _parser().parse_args(argv)
    wanted = [c.strip() for c in args.cases.split(",") if c.strip()]
    if args.repeats < 1:
        print("thrifty bench batch-invariance: --repeats must be at least 1", file=sys.stderr)
        return 2
    import torch

    from backend.config import BackendConfig
    from backend.engine import EngineConfig
    from backend.runtime import load_model

    if args.num_threads:
        torch.set_num_threads(args.num_threads)
    models = {mode: load_model(BackendConfig(batch_invariant=mode)) for mode in (True, False)}
    loaded = models[True]
    if not loaded.batch_invariant_weights:
        print("thrifty bench batch-invariance: the native block kernel did not build here, so batch invariance "
              "cannot be measured (see the warning above)", file=sys.stderr)
        return 1
    cases = [c for c in matrix_cases(loaded.tokenizer, loaded.model.config.vocab_size,
                                     MatrixSpec(scale=args.matrix_scale, seed=args.seed)) if c.key in wanted]
    if not cases:
        print(f"thrifty bench batch-invariance: no matrix case in {args.cases!r} (use a, b, c, d, e)", file=sys.stderr)
        return 2
    base = EngineConfig.from_backend_config(BackendConfig(), loaded.model.config)
    report = [f"CPU threads: {torch.get_num_threads()}; weights: {loaded.weights_dtype}", ""]
    if not args.skip_identity:
        chat = next(c for c in matrix_cases(loaded.tokenizer, loaded.model.config.vocab_size,
                                            MatrixSpec(seed=args.seed)) if c.key == "a")
        report += _identity(models, base, [list(r.prompt_ids) for r in chat.requests[:16]]) + [""]
    report += ["| case | on tok/s (runs) | off tok/s (runs) | on / off | TTFT p50 ms on / off |",
               "|---|---:|---:|---:|---:|"]
    for case in cases:
        runs: dict[bool, list[Any]] = {True: [], False: []}
        for repeat in range(args.repeats):
            for mode in ((True, False) if repeat % 2 == 0 else (False, True)):
                config = replace(base, batch_invariant=mode, max_model_len=max(base.max_model_len, case.max_len))
                runs[mode].append(run_thrifty(models[mode], case.requests, config,
                                              name=f"({case.key}) invariant {'on' if mode else 'off'}",
                                              one_at_a_time=case.one_at_a_time))
        speed = {m: statistics.median(r.throughput for r in runs[m]) for m in runs}
        ttft = {m: statistics.median(percentile(r.ttfts(), 50) for r in runs[m]) * 1000 for m in runs}
        shown = {m: ", ".join(f"{r.throughput:.1f}" for r in runs[m]) for m in runs}
        report.append(f"| ({case.key}) {case.title} | {speed[True]:.1f} ({shown[True]}) | "
                      f"{speed[False]:.1f} ({shown[False]}) | {speed[True] / speed[False]:.2f}x | "
                      f"{ttft[True]:.0f} / {ttft[False]:.0f} |")
        print(report[-1], flush=True)
    text = "\n".join(report)
    print("\n" + text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``thrifty bench engine``: replay a fixed, seeded workload through Thrifty's engine and its peers.

Peers, on the same weights and the same workload, in the same run:

* **thrifty** — :class:`backend.engine.Engine` in-process (paged KV, continuous batching).
* **transformers** — Hugging Face ``generate()`` with static batching (``AutoModelForCausalLM`` loaded
  from the same GGUF file); a batch starts when the previous one ends, takes up to ``--hf-batch-size``
  arrived requests, left-padded, and runs until its longest request is done.
* **llama-cpp** — ``llama-cpp-python`` on the same GGUF file, one request at a time (optional: skipped
  with a message when not installed).

Every request asks for exactly its output length (EOS ignored) with greedy decoding. Reported per
peer: output tokens/s over the wall time of the replay, TTFT p50/p99 (from arrival), TPOT p50/p99.
Then two Thrifty-only checks: TTFT of a request whose 1,000-token prefix is cached versus uncached,
and throughput with prefix caching on versus off at a 0 % hit rate.

Module import stays light (no torch) because the CLI parser imports :func:`add_arguments`.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from backend.config import KV_CACHE_DTYPE_NAMES
from benchmarks.engine.http import serve_backend, serve_proxy, serve_thrifty
from benchmarks.engine.matrix import MatrixSpec, matrix_cases, matrix_table, run_matrix
from benchmarks.engine.workload import (
    BenchResult,
    WorkloadSpec,
    llama_cpp_available,
    make_workload,
    prefix_cache_ttft,
    results_table,
    run_llama_cpp,
    run_thrifty,
    run_transformers,
)

# --------------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``thrifty bench engine`` flags."""
    p.add_argument("--model", help="GGUF file (default: SmolLM2-135M-Instruct); peers use the same file")
    p.add_argument("--num-requests", type=int, default=128)
    p.add_argument("--min-prompt", type=int, default=16)
    p.add_argument("--max-prompt", type=int, default=1024)
    p.add_argument("--min-output", type=int, default=8)
    p.add_argument("--max-output", type=int, default=512)
    p.add_argument("--rate", type=float, default=None, help="Poisson arrivals per second (default: all at once)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--peers", default="transformers,llama-cpp",
                   help="comma-separated peers to run besides thrifty: transformers, llama-cpp ('' for none)")
    p.add_argument("--hf-batch-size", type=int, default=16, help="transformers static batch size")
    p.add_argument("--llama-threads", type=int, default=None, help="llama.cpp threads (default: torch's)")
    p.add_argument("--num-threads", type=int, default=None, help="torch CPU threads")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--weights-dtype", default="fp32", type=str.lower, choices=("auto", "fp32", "bf16", "int8", "int4"),
                   help="linear layers' weights (backend.weights_dtype)")
    p.add_argument("--max-num-seqs", type=int, default=64)
    p.add_argument("--max-num-batched-tokens", type=int, default=512)
    p.add_argument("--block-size", type=int, default=16)
    p.add_argument("--kv-cache-memory", default=None,
                   help="KV pool budget, e.g. 2GiB (default: sized like the server's, from available memory)")
    p.add_argument("--kv-cache-dtype", default="auto", type=str.lower,
                   choices=KV_CACHE_DTYPE_NAMES,
                   help="KV pool element type (auto: the model's dtype; int8: per-token-per-head scales)")
    p.add_argument("--attention-backend", default="auto", choices=("auto", "torch", "native", "kernels"),
                   help="engine attention (auto: native in-place kernel on CPU where it builds, else torch)")
    p.add_argument("--skip-prefix-test", action="store_true", help="skip the cached-prefix TTFT check")
    p.add_argument("--skip-overhead-test", action="store_true",
                   help="skip the prefix-caching-on-vs-off throughput check at a 0%% hit rate")
    p.add_argument("--overhead-requests", type=int, default=32,
                   help="requests of the on/off overhead check (same distribution, shorter outputs)")
    p.add_argument("--overhead-repeats", type=int, default=3, help="interleaved on/off runs of the overhead check")
    p.add_argument("--skip-main", action="store_true", help="skip the peer comparison (run only the checks)")
    p.add_argument("--output", help="also write the markdown report to this file")
    p.add_argument("--matrix", action="store_true",
                   help="instead: five traffic shapes, Thrifty and llama-cpp-python side by side (see docs)")
    p.add_argument("--matrix-scale", type=float, default=1.0, help="multiply the matrix's request counts")
    p.add_argument("--cases", default="a,b,c,d,e", help="matrix cases to run (comma-separated)")
    p.add_argument("--http", action="store_true",
                   help="with --matrix: Thrifty's side over HTTP, through a `thrifty backend serve` child")
    p.add_argument("--through-proxy", action="store_true",
                   help="with --http: through `thrifty proxy serve` in front of the backend child")
    p.add_argument("--through-serve", action="store_true",
                   help="with --http: through `thrifty serve` itself (proxy and bundled backend child)")


def _run_matrix(args: argparse.Namespace, loaded: Any, gguf_path: Path, engine_config: Any, header: str) -> int:
    import torch

    wanted = {c.strip() for c in args.cases.split(",") if c.strip()}
    cases = [c for c in matrix_cases(loaded.tokenizer, loaded.model.config.vocab_size,
                                     MatrixSpec(scale=args.matrix_scale, seed=args.seed)) if c.key in wanted]
    if not cases:
        print(f"thrifty bench engine: no matrix case in {args.cases!r} (use a, b, c, d, e)", file=sys.stderr)
        return 2
    llama = "llama-cpp" in args.peers
    threads = torch.get_num_threads()
    if args.http:
        import contextlib

        options = ["--model", str(gguf_path), "--max-num-seqs", str(args.max_num_seqs), "--max-num-batched-tokens",
                   str(args.max_num_batched_tokens), "--block-size", str(args.block_size), "--dtype", args.dtype]
        if args.kv_cache_memory:
            options += ["--kv-cache-memory", args.kv_cache_memory]
        max_len = max(c.max_len for c in cases) + 16
        with contextlib.ExitStack() as stack:
            if args.through_serve:
                backend = {"model_path": str(gguf_path), "max_num_seqs": str(args.max_num_seqs), "dtype": args.dtype,
                           "max_num_batched_tokens": str(args.max_num_batched_tokens),
                           "block_size": str(args.block_size)}
                if args.kv_cache_memory:
                    backend["kv_cache_memory"] = args.kv_cache_memory
                base = stack.enter_context(serve_thrifty(args.weights_dtype, max_len, threads, backend))
            else:
                base = stack.enter_context(serve_backend(args.weights_dtype, max_len, threads, options))
            if args.through_proxy:
                base = stack.enter_context(serve_proxy(base))
            results = run_matrix(loaded, gguf_path, engine_config, cases, llama=llama,
                                 n_threads=args.llama_threads or threads, http_base=base)
    else:
        results = run_matrix(loaded, gguf_path, engine_config, cases, llama=llama,
                             n_threads=args.llama_threads or threads)
    notes = [f"- thrifty ({r.case.key}): {r.thrifty.note}" for r in results if r.thrifty.note]
    if llama and not llama_cpp_available():
        notes.append("- llama-cpp-python: skipped (not installed; `pip install -e '.[bench]'`)")
    text = "\n".join([header, "### Workload matrix (output tokens/s; ratio = thrifty / llama-cpp-python)\n",
                      matrix_table(results), "", *notes,
                      f"- llama-cpp-python: one request at a time, n_threads={args.llama_threads or threads}, "
                      "its prompt cache reuses the prefix shared with the previous request", ""])
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")
    return 0


def run_from_args(args: argparse.Namespace) -> int:
    """Run the benchmark described by parsed CLI flags; prints markdown tables to stdout."""
    import torch

    from backend.config import BackendConfig
    from backend.engine.config import EngineConfig, parse_size
    from backend.runtime import load_model, parse_dtype
    from tokenization.models import resolve_model

    if (args.http and not args.matrix) or ((args.through_proxy or args.through_serve) and not args.http):
        print("thrifty bench engine: --http needs --matrix, and --through-proxy/--through-serve need --http",
              file=sys.stderr)
        return 2
    if args.through_proxy and args.through_serve:
        print("thrifty bench engine: choose one of --through-proxy and --through-serve", file=sys.stderr)
        return 2
    if args.num_threads:
        torch.set_num_threads(args.num_threads)
    spec = WorkloadSpec(args.num_requests, args.min_prompt, args.max_prompt, args.min_output, args.max_output,
                        args.rate, args.seed)
    source = resolve_model(args.model)
    if source.kind != "gguf":
        print("thrifty bench engine: --model must be a GGUF file (the peers load the same file)", file=sys.stderr)
        return 2
    loaded = load_model(BackendConfig(model_path=str(source.path), dtype=args.dtype, num_threads=args.num_threads,
                                      weights_dtype=args.weights_dtype))
    max_len = max(args.max_prompt + args.max_output, 1100)
    kv_budget = parse_size(args.kv_cache_memory) if args.kv_cache_memory else None
    engine_config = EngineConfig(block_size=args.block_size, kv_cache_memory=kv_budget,
                                 max_model_len=max_len, max_num_seqs=args.max_num_seqs,
                                 max_num_batched_tokens=args.max_num_batched_tokens, kv_cache_dtype=args.kv_cache_dtype,
                                 attention_backend=args.attention_backend)
    if args.matrix:
        header = (f"## thrifty bench engine --matrix\n\nmodel `{source.path.name}` ({args.dtype}, weights "
                  f"{args.weights_dtype}: {loaded.weights_dtype}), torch threads "
                  f"{torch.get_num_threads()}; Thrifty engine: max_num_seqs {args.max_num_seqs}, "
                  f"max_num_batched_tokens {args.max_num_batched_tokens}, KV pool {args.kv_cache_memory or 'auto'}; "
                  f"OpenMP wait policy in this process: {_openmp_policy()}.\n")
        return _run_matrix(args, loaded, source.path, engine_config, header)
    workload = make_workload(spec)
    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    unknown = set(peers) - {"transformers", "llama-cpp"}
    if unknown:
        print(f"thrifty bench engine: unknown peers {sorted(unknown)}", file=sys.stderr)
        return 2
    threads = torch.get_num_threads()
    report = [f"## thrifty bench engine\n\nmodel `{source.path.name}` ({args.dtype}), torch threads {threads}, "
              f"workload: {spec.describe()}; {sum(len(r.prompt_ids) for r in workload)} prompt tokens, "
              f"{sum(r.output_len for r in workload)} output tokens.\n",
              f"Thrifty engine: max_num_seqs {args.max_num_seqs}, max_num_batched_tokens "
              f"{args.max_num_batched_tokens}, block_size {args.block_size}, KV pool {args.kv_cache_memory or 'auto'} "
              f"({args.kv_cache_dtype}).\n"]
    results = [] if args.skip_main else [run_thrifty(loaded, workload, engine_config)]
    notes = [f"- thrifty: {results[0].note}"] if results else []
    if args.skip_main:
        peers = []
    if "transformers" in peers:
        results.append(run_transformers(source.path, workload, args.hf_batch_size, parse_dtype(args.dtype)))
        notes.append(f"- transformers: {results[-1].note}")
    if "llama-cpp" in peers:
        if llama_cpp_available():
            n_threads = args.llama_threads or threads
            results.append(run_llama_cpp(source.path, workload, n_threads, max_len + 16))
            notes.append(f"- llama-cpp-python: {results[-1].note}")
        else:
            notes.append("- llama-cpp-python: skipped (not installed; `pip install -e '.[bench]'`)")
    if results:
        report += ["### Throughput and latency\n", results_table(results), "", *notes, ""]
    targets: list[tuple[str, str, bool | None]] = []
    ratios = []
    for peer, goal in (("transformers", 3.0), ("llama-cpp-python", 2.0)):
        match = next((r for r in results if r.name == peer), None)
        if match is not None and match.throughput > 0:
            ratio = results[0].throughput / match.throughput
            ratios.append(f"| thrifty / {peer} | {ratio:.2f}x |")
            targets.append((f"throughput >= {goal:g}x {peer}", f"{ratio:.2f}x", ratio >= goal))
    if ratios:
        report += ["### Ratios (output tokens/s)\n", "| ratio | value |", "|---|---:|", *ratios, ""]
    if not args.skip_prefix_test:
        print("prefix-cache TTFT check...", file=sys.stderr)
        uncached, cached = prefix_cache_ttft(loaded, engine_config)
        speedup = uncached / cached if cached > 0 else float("inf")
        report += ["### Cached 1,000-token prefix (TTFT, median of 3)\n", "| prefix | TTFT ms |", "|---|---:|",
                   f"| uncached | {uncached * 1000:.0f} |", f"| cached | {cached * 1000:.0f} |",
                   f"| speed-up | {speedup:.1f}x |", ""]
        targets.append(("cached-prefix TTFT >= 5x lower", f"{speedup:.1f}x", speedup >= 5.0))
    if not args.skip_overhead_test:
        small = replace(spec, num_requests=args.overhead_requests, max_output=min(spec.max_output, 128),
                        seed=spec.seed + 1)
        load = make_workload(small)
        runs: dict[bool, list[BenchResult]] = {True: [], False: []}
        for caching in (True, False) * args.overhead_repeats:  # interleaved: drift in load hits both alike
            res = run_thrifty(loaded, load, replace(engine_config, enable_prefix_caching=caching),
                              name=f"caching {'on' if caching else 'off'}")
            runs[caching].append(res)
        on, off = (max(r.throughput for r in runs[c]) for c in (True, False))
        on_cpu, off_cpu = (max(r.cpu_throughput for r in runs[c]) for c in (True, False))
        loss = (off - on) / off if off > 0 else 0.0
        loss_cpu = (off_cpu - on_cpu) / off_cpu if off_cpu > 0 else 0.0
        walls = {c: ", ".join(f"{r.throughput:.1f}" for r in runs[c]) for c in (True, False)}
        report += [f"### Prefix caching at a 0 % hit rate (best of {args.overhead_repeats} interleaved runs each)\n",
                   f"workload: {small.describe()}\n",
                   "| prefix caching | output tok/s (best) | all runs | output tokens per CPU-second (best) |",
                   "|---|---:|---|---:|",
                   f"| on | {on:.1f} | {walls[True]} | {on_cpu:.1f} |",
                   f"| off | {off:.1f} | {walls[False]} | {off_cpu:.1f} |",
                   f"| throughput loss | {loss:.1%} | | {loss_cpu:.1%} |", ""]
        targets.append(("<= 3% throughput loss with caching on at 0% hits", f"{loss:.1%} (per CPU-second "
                        f"{loss_cpu:.1%})", loss <= 0.03))
    if targets:
        report += ["### Targets\n", "| target | measured | met |", "|---|---:|---|",
                   *[f"| {name} | {value} | {'yes' if ok else 'no'} |" for name, value, ok in targets], ""]
    text = "\n".join(report)
    print(text)
    if args.output:
        Path(args.output).write_text(text + "\n")
    return 0


def _openmp_policy() -> str:
    """How this process's OpenMP workers wait, as its environment says (libgomp reads it at load)."""
    import os

    chosen = [f"{name}={os.environ[name]}" for name in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT") if os.environ.get(name)]
    return ", ".join(chosen) or "libgomp's default"


def main(argv: list[str] | None = None) -> int:
    """``thrifty bench engine`` / ``python -m benchmarks.engine.bench``."""
    # No OpenMP wait policy is forced here: the peers in this process (llama-cpp-python, and the
    # in-process engine) run as their users run them, under libgomp's default (workers spin a while
    # between parallel regions). Forcing OMP_WAIT_POLICY=PASSIVE, as this command did before, made
    # llama-cpp-python 2.5x slower (28 against 70-83 tok/s single stream on the AVX-512 EPYC) and
    # flattered every ratio against it (BENCHMARKS.md, "OpenMP wait policy"). Thrifty's servers
    # (--http) are child processes under the same environment (`thrifty backend serve` forces nothing).
    parser = argparse.ArgumentParser(prog="thrifty bench engine", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run_from_args(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

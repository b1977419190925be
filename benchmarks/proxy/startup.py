"""``thrifty bench startup``: how long ``thrifty proxy serve`` (or, with ``--serve``, the whole ``thrifty serve``
with its bundled backend) takes to answer /health with the semantic cache on (which loads the embedder before the
proxy is ready), and the CPU its start-up costs, with our own MiniLM encoder against sentence-transformers
(``[cache] embed_implementation``), alternating, each start a fresh process and database (``--serve`` keeps one
data directory, so the converted tokenizer and the built kernels are reused as on a user's second start)."""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness import free_port, wait_healthy

SIDES = {"own encoder": "auto", "sentence-transformers": "sentence-transformers"}


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def start_once(implementation: str, workdir: Path, *, serve: bool = False) -> tuple[float, float]:
    """(seconds until /health answered, CPU seconds the processes used until then and their shutdown) of one
    start of ``thrifty proxy serve`` (``serve``: of ``thrifty serve``, whose backend child is counted too)."""
    port = free_port()
    command = ["serve"] if serve else ["proxy", "serve"]
    env = {**os.environ, "THRIFTY_BUNDLED__ENABLED": "true" if serve else "false", "THRIFTY_DATA_DIR": str(workdir),
           "THRIFTY_CACHE__ENABLED": "true", "THRIFTY_CACHE__SEMANTIC": "true",
           "THRIFTY_CACHE__EMBED_IMPLEMENTATION": implementation, "HF_HUB_OFFLINE": "1"}
    cpu_before = _children_cpu_s()
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "proxy.cli", *command, "--port", str(port)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, timeout_s=600, what=f"thrifty {' '.join(command)}",
                     poll_s=0.02)
        ready_s = time.perf_counter() - started
    finally:
        process.terminate()
        process.wait(60)
    return ready_s, _children_cpu_s() - cpu_before


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench startup", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="starts per side (alternating)")
    parser.add_argument("--serve", action="store_true", help="time thrifty serve (with its bundled backend)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    results: dict[str, list[tuple[float, float]]] = {side: [] for side in SIDES}
    what = "thrifty serve" if args.serve else "thrifty proxy serve"
    print(f"thrifty bench startup: {what} with the semantic cache on, {args.runs} starts per side, alternating",
          flush=True)
    with tempfile.TemporaryDirectory(prefix="thrifty-startup-") as tmp:
        if args.serve:  # a first start converts the tokenizer and builds the kernels: not what is compared
            start_once("auto", Path(tmp) / "data", serve=True)
        for run in range(args.runs):
            order = list(SIDES) if run % 2 == 0 else list(reversed(SIDES))
            for side in order:
                workdir = Path(tmp) / ("data" if args.serve else f"{run}-{SIDES[side]}")
                ready_s, cpu_s = start_once(SIDES[side], workdir, serve=args.serve)
                results[side].append((ready_s, cpu_s))
                print(f"  run {run + 1} {side}: ready in {ready_s:.2f} s, {cpu_s:.2f} s CPU", flush=True)
    print("\n| embedder | median ready s (min-max) | median CPU s (min-max) |\n|---|---|---|")
    medians = {}
    for side, rows in results.items():
        ready, cpu = [r for r, _ in rows], [c for _, c in rows]
        medians[side] = (statistics.median(ready), statistics.median(cpu))
        print(f"| {side} | {medians[side][0]:.2f} ({min(ready):.2f}-{max(ready):.2f}) | "
              f"{medians[side][1]:.2f} ({min(cpu):.2f}-{max(cpu):.2f}) |")
    ours, peer = medians["own encoder"], medians["sentence-transformers"]
    print(f"\nown encoder / sentence-transformers: ready {ours[0] / peer[0]:.2f}x, CPU {ours[1] / peer[1]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

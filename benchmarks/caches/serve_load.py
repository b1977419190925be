"""``thrifty bench cache-load``: what the response caches cost under load (issue 30).

Two measurements, each alternating caches on and off so that a machine whose load drifts (other
processes, thermal limits) biases neither side:

``serve``
    A fresh default ``thrifty serve`` (bundled SmolLM2 backend + proxy, new SQLite database) per run,
    once as shipped and once with ``THRIFTY_CACHE__ENABLED=false``. Each run sends ``--requests``
    (default 48) streamed chat requests at once: temperature 0, distinct prompts of 20-600 tokens,
    short answers (``--max-tokens``, default 32). Reports output tokens/s over the burst and the
    median time to first token per run, the medians over runs, their spread, and on/off ratios
    (targets: throughput >= 0.9x, TTFT p50 <= 1.3x).

``proxy``
    ``thrifty proxy serve`` in front of the stub upstream (:mod:`benchmarks.proxy.stub`), semantic
    cache on (the default; ``--caches exact``: the exact cache alone) against caches off. Every request is a miss (distinct ~50-token prompts,
    temperature 0, so every one is looked up and written back). Reports the proxy process's CPU time
    per request (user + system, from ``/proc/<pid>/stat``) and requests/s at each concurrency
    (default 1 and 32; target <= 3 ms CPU per request at 32).

Run: ``thrifty bench cache-load serve --runs 3`` or ``thrifty bench cache-load proxy``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from benchmarks.harness import free_port, wait_healthy
from benchmarks.sse import asse_chunks

MODEL = "smollm2-135m-instruct"
_WORDS = ("the of and to in is that for it as was with be by on not he this are or his from at which but have an "
          "they you were her she there been one all we their has would when if so no what up out who them some "
          "could into time only new other more these two may first then do any like my now over such our man me "
          "even most made after also did many before must through back years where much your way well down "
          "should because each just those people how too little state good very make world still own see men "
          "work long get here between both life being under never day same another know while last might us "
          "great old year off come since against go came right used take three river garden engine market "
          "window silver kitchen mountain letter doctor harbor bridge winter planet signal village theory").split()
_TASKS = ("Summarise the following notes in one sentence:", "What is the main topic of this text?",
          "Give a short title for this passage:", "Answer briefly: what does the writer want?",
          "List one key word from this text:", "In a few words, what is described here?")


def prompts(count: int, *, low: int, high: int, seed: int, numbered: bool = True) -> list[str]:
    """``count`` distinct prompts whose lengths spread evenly from about ``low`` to ``high`` tokens
    (about one SmolLM2 token per word of this vocabulary; the served token counts, chat template
    included, are reported from ``usage``). ``numbered``: each names its note's number, so no two
    can pass the cache's verification; without it they differ only in their words, all drawn from
    one small vocabulary."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        tokens = low + (high - low) * i // max(1, count - 1)
        words = max(3, tokens - 14)  # the task line and note number take about 14 tokens
        text = " ".join(rng.choice(_WORDS) for _ in range(words))
        out.append(f"{_TASKS[i % len(_TASKS)]} (note {i}) {text}" if numbered else f"{_TASKS[i % len(_TASKS)]} {text}")
    rng.shuffle(out)
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (its children's are left out)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- serve: the whole default server under a burst of chat requests ------------------------------


@dataclass
class BurstResult:
    """One burst against one server."""

    label: str
    seconds: float
    output_tokens: int
    ttft_s: list[float]
    prompt_tokens: list[int]
    errors: int
    headers: dict[str, int] = field(default_factory=dict)  # x-thrifty-cache / -skipped values seen

    @property
    def tokens_per_s(self) -> float:
        return self.output_tokens / self.seconds if self.seconds > 0 else 0.0

    @property
    def ttft_p50(self) -> float:
        return statistics.median(self.ttft_s) if self.ttft_s else float("nan")


async def _stream_one(client: httpx.AsyncClient, base: str, prompt: str, max_tokens: int, result: BurstResult,
                      sent: float) -> None:
    body = {"model": MODEL, "temperature": 0, "max_tokens": max_tokens, "stream": True,
            "stream_options": {"include_usage": True}, "messages": [{"role": "user", "content": prompt}]}
    first, usage_seen = None, False
    try:
        async with client.stream("POST", base + "/v1/chat/completions", json=body) as response:
            if response.status_code != 200:
                result.errors += 1
                await response.aread()
                return
            for name in ("x-thrifty-cache", "x-thrifty-cache-skipped"):
                value = response.headers.get(name)
                if value:
                    key = f"{name.removeprefix('x-thrifty-')}={value}"
                    result.headers[key] = result.headers.get(key, 0) + 1
            async for chunk in asse_chunks(response.aiter_lines()):
                if first is None and any((c.get("delta") or {}).get("content") for c in chunk.get("choices") or ()):
                    first = time.perf_counter() - sent
                usage = chunk.get("usage")
                if usage:
                    usage_seen = True
                    result.output_tokens += int(usage.get("completion_tokens") or 0)
                    result.prompt_tokens.append(int(usage.get("prompt_tokens") or 0))
    except httpx.HTTPError:
        result.errors += 1
        return
    if not usage_seen:  # the stream ended without its usage chunk: an error event, or cut short
        result.errors += 1
    if first is not None:
        result.ttft_s.append(first)


async def burst(base: str, texts: list[str], max_tokens: int, label: str) -> BurstResult:
    """Send every prompt at once, streamed; time the burst until the last answer ends."""
    result = BurstResult(label, 0.0, 0, [], [], 0)
    limits = httpx.Limits(max_connections=len(texts) + 4, max_keepalive_connections=len(texts) + 4)
    async with httpx.AsyncClient(timeout=600, limits=limits) as client:
        started = time.perf_counter()
        await asyncio.gather(*(_stream_one(client, base, t, max_tokens, result, started) for t in texts))
        result.seconds = time.perf_counter() - started
    return result


def _serve_once(label: str, cache_on: bool, texts: list[str], max_tokens: int, workdir: Path, run: int,
                log) -> BurstResult:
    port = free_port()
    env = {**os.environ, "THRIFTY_DATA_DIR": str(workdir / "data"), "HF_HUB_OFFLINE": "1",
           "THRIFTY_DATABASE__URL": f"sqlite+aiosqlite:///{workdir / f'run{run}-{label}.db'}",
           "THRIFTY_BUNDLED__STARTUP_TIMEOUT_S": "1800"}  # a busy machine loads the model slowly
    if not cache_on:
        env["THRIFTY_CACHE__ENABLED"] = "false"
    process = subprocess.Popen([sys.executable, "-m", "proxy.cli", "serve", "--port", str(port)], cwd=workdir,
                               env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, process, what="thrifty serve", timeout_s=1800)
        # one answer first, in both modes: model load and first-call costs stay out of the burst
        httpx.post(base + "/v1/chat/completions", timeout=300, json={
            "model": MODEL, "temperature": 0, "max_tokens": 4,
            "messages": [{"role": "user", "content": f"warm-up {run} {label}"}]})
        return asyncio.run(burst(base, texts, max_tokens, label))
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def _log_tail_on_failure(path: Path) -> Iterator[None]:
    """Print the end of the servers' log when a run fails (the temporary folder goes with it)."""
    try:
        yield
    except RuntimeError:
        print("".join(path.read_text(errors="replace").splitlines(keepends=True)[-20:]), file=sys.stderr)
        raise


def _spread(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f}" if values else "-"


def run_serve(args: argparse.Namespace) -> str:
    texts = prompts(args.requests, low=20, high=600, seed=args.seed, numbered=args.prompts == "numbered")
    results: dict[str, list[BurstResult]] = {"on": [], "off": []}
    lines = [f"thrifty bench cache-load serve: {args.requests} streamed chat requests at once, temperature 0, "
             f"max_tokens {args.max_tokens}, prompts of 20-600 tokens ({args.prompts}); {args.runs} runs alternating "
             "caches on/off",
             "", "| run | caches | output tok/s | TTFT p50 s | burst s | prompt tokens | errors | outcomes |",
             "|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory(prefix="thrifty-bench-cache-load-") as tmp:
        workdir = Path(tmp)
        with open(workdir / "serve.log", "w") as log, _log_tail_on_failure(workdir / "serve.log"):
            for run in range(args.runs):
                order = ("on", "off") if run % 2 == 0 else ("off", "on")
                for label in order:
                    result = _serve_once(label, label == "on", texts, args.max_tokens, workdir, run, log)
                    results[label].append(result)
                    row = (f"| {run + 1} | {label} | {result.tokens_per_s:.1f} | {result.ttft_p50:.2f} | "
                           f"{result.seconds:.1f} | {min(result.prompt_tokens, default=0)}-"
                           f"{max(result.prompt_tokens, default=0)} | {result.errors} | "
                           f"{', '.join(f'{k} {v}' for k, v in sorted(result.headers.items()))} |")
                    lines.append(row)
                    print(row, file=sys.stderr, flush=True)
    med = {label: (statistics.median(r.tokens_per_s for r in rs), statistics.median(r.ttft_p50 for r in rs))
           for label, rs in results.items()}
    lines += ["", "| caches | median output tok/s (min-max) | median TTFT p50 s (min-max) |", "|---|---|---|"]
    for label, rs in results.items():
        lines.append(f"| {label} | {med[label][0]:.1f} ({_spread([r.tokens_per_s for r in rs])}) | "
                     f"{med[label][1]:.2f} ({_spread([r.ttft_p50 for r in rs])}) |")
    tput = med["on"][0] / med["off"][0] if med["off"][0] else float("nan")
    ttft = med["on"][1] / med["off"][1] if med["off"][1] else float("nan")
    lines += ["", f"on/off: throughput {tput:.2f}x (target >= 0.9x: {'met' if tput >= 0.9 else 'NOT met'}), "
              f"TTFT p50 {ttft:.2f}x (target <= 1.3x: {'met' if ttft <= 1.3 else 'NOT met'})"]
    return "\n".join(lines)


# --- proxy: the proxy alone in front of a stub, every request a miss -----------------------------


async def _closed_loop(base: str, texts: list[str], concurrency: int) -> tuple[int, int]:
    """Send ``texts`` with ``concurrency`` requests in flight; returns (ok, errors)."""
    queue = list(reversed(texts))
    ok = errors = 0
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        async def worker() -> None:
            nonlocal ok, errors
            while queue:
                text = queue.pop()
                body = {"model": "stub", "temperature": 0, "max_tokens": 16,
                        "messages": [{"role": "user", "content": text}]}
                try:
                    response = await client.post(base + "/v1/chat/completions", json=body)
                    ok += response.status_code == 200
                    errors += response.status_code != 200
                except httpx.HTTPError:
                    errors += 1

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return ok, errors


def _proxy_once(cache_on: bool, stub_port: int, workdir: Path, tag: str, levels: list[tuple[int, list[str]]],
                log, *, semantic: bool = True) -> list[tuple[int, float, float, int, dict[str, float]]]:
    port = free_port()
    config = workdir / "proxy.toml"
    config.write_text(f'[[upstreams]]\nname = "stub"\nbase_url = "http://127.0.0.1:{stub_port}/v1"\n'
                      '[models.stub]\nupstream = "stub"\nmodel = "stub"\n')
    env = {**os.environ, "THRIFTY_BUNDLED__ENABLED": "false", "THRIFTY_ROUTER__ENABLED": "false",
           "THRIFTY_DATA_DIR": str(workdir), "THRIFTY_DATABASE__URL": f"sqlite+aiosqlite:///{workdir / (tag + '.db')}",
           "HF_HUB_OFFLINE": "1"}
    if not cache_on:
        env["THRIFTY_CACHE__ENABLED"] = "false"
    elif not semantic:
        env["THRIFTY_CACHE__SEMANTIC"] = "false"
    process = subprocess.Popen([sys.executable, "-m", "proxy.cli", "proxy", "serve", "--port", str(port), "--config",
                                str(config)], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    out = []
    try:
        wait_healthy(base, process, what="thrifty proxy serve", timeout_s=300)
        asyncio.run(_closed_loop(base, [f"warm-up question {tag} {i}" for i in range(20)], 4))
        for concurrency, texts in levels:
            cpu0, t0 = cpu_seconds(process.pid), time.perf_counter()
            ok, errors = asyncio.run(_closed_loop(base, texts, concurrency))
            wall, cpu = time.perf_counter() - t0, cpu_seconds(process.pid) - cpu0
            skips = _skips(base)
            out.append((concurrency, cpu / max(1, ok) * 1000, ok / wall, errors, skips))
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return out


def _skips(base: str) -> dict[str, float]:
    found: dict[str, float] = {}
    for line in httpx.get(base + "/metrics", timeout=30).text.splitlines():
        if line.startswith("thrifty_cache_lookup_skipped_total{"):
            reason = line.split('reason="', 1)[1].split('"', 1)[0]
            found[reason] = float(line.rsplit(" ", 1)[1])
        elif line.startswith("thrifty_cache_lookup_proved_miss_total "):
            found["proved_miss"] = float(line.rsplit(" ", 1)[1])
        elif line.startswith("thrifty_cache_writeback_shed_total "):
            found["writeback_shed"] = float(line.rsplit(" ", 1)[1])
    return found


def run_proxy(args: argparse.Namespace) -> str:
    levels = [int(c) for c in args.concurrency.split(",")]
    lines = [f"thrifty bench cache-load proxy: thrifty proxy serve before the stub upstream, every request a miss "
             f"(distinct ~50-token prompts, {args.prompts}, temperature 0); {args.requests} requests per concurrency level, "
             f"{args.runs} runs alternating {'semantic and exact' if args.caches == 'semantic' else 'exact'} "
             "cache on / caches off", "",
             "| run | caches | concurrency | proxy CPU ms/request | requests/s | errors | skipped lookups (cumulative) |",
             "|---|---|---|---|---|---|---|"]
    per: dict[tuple[str, int], list[tuple[float, float]]] = {}
    stub_port = free_port()
    with tempfile.TemporaryDirectory(prefix="thrifty-bench-cache-proxy-") as tmp:
        workdir = Path(tmp)
        with open(workdir / "proxy.log", "w") as log:
            stub = subprocess.Popen([sys.executable, "-m", "benchmarks.proxy.stub", "--port", str(stub_port)],
                                    stdout=log, stderr=subprocess.STDOUT)
            try:
                wait_healthy(f"http://127.0.0.1:{stub_port}", stub, what="the stub upstream", path="/v1/models")
                for run in range(args.runs):
                    order = ("on", "off") if run % 2 == 0 else ("off", "on")
                    for label in order:
                        tag = f"run{run}-{label}"
                        texts = prompts(args.requests * len(levels), low=50, high=50, seed=zlib.crc32(tag.encode()),
                                        numbered=args.prompts == "numbered")
                        batches = [(c, texts[i * args.requests:(i + 1) * args.requests]) for i, c in enumerate(levels)]
                        for concurrency, cpu_ms, rps, errors, skips in _proxy_once(
                                label == "on", stub_port, workdir, tag, batches, log, semantic=args.caches == "semantic"):
                            per.setdefault((label, concurrency), []).append((cpu_ms, rps))
                            shown = ", ".join(f"{k} {v:.0f}" for k, v in sorted(skips.items()) if v) or "none"
                            row = f"| {run + 1} | {label} | {concurrency} | {cpu_ms:.2f} | {rps:.0f} | {errors} | {shown} |"
                            lines.append(row)
                            print(row, file=sys.stderr, flush=True)
            finally:
                stub.terminate()
                stub.wait(30)
    lines += ["", "| caches | concurrency | median CPU ms/request (min-max) | median requests/s (min-max) |",
              "|---|---|---|---|"]
    for (label, concurrency), values in sorted(per.items()):
        cpu, rps = [v[0] for v in values], [v[1] for v in values]
        lines.append(f"| {label} | {concurrency} | {statistics.median(cpu):.2f} ({_spread(cpu)}) | "
                     f"{statistics.median(rps):.0f} ({_spread(rps)}) |")
    top = max(levels)
    if ("on", top) in per:
        cpu_on = statistics.median(v[0] for v in per[("on", top)])
        lines += ["", f"{args.caches} cache on at concurrency {top}: {cpu_on:.2f} ms CPU per request "
                      f"(target <= 3 ms: {'met' if cpu_on <= 3.0 else 'NOT met'})"]
    return "\n".join(lines)


def _prompts_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--prompts", choices=("numbered", "words"), default="numbered",
                        help="numbered: each names a distinct number; words: they differ only in their words")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench cache-load",
                                     description="what the response caches cost under load, caches on vs off")
    sub = parser.add_subparsers(dest="mode", required=True)
    serve = sub.add_parser("serve", help="the default thrifty serve under a burst of streamed chat requests")
    serve.add_argument("--runs", type=int, default=3, help="runs per side (each a fresh server)")
    serve.add_argument("--requests", type=int, default=48, help="requests sent at once")
    serve.add_argument("--max-tokens", type=int, default=32, help="max_tokens of each request")
    serve.add_argument("--seed", type=int, default=0, help="seed of the prompt texts")
    _prompts_option(serve)
    proxy = sub.add_parser("proxy", help="thrifty proxy serve before a stub upstream, every request a miss")
    proxy.add_argument("--runs", type=int, default=2, help="runs per side (each a fresh proxy)")
    proxy.add_argument("--requests", type=int, default=300, help="requests per concurrency level")
    proxy.add_argument("--concurrency", default="1,32", help="comma-separated concurrency levels")
    _prompts_option(proxy)
    proxy.add_argument("--caches", choices=("semantic", "exact"), default="semantic",
                       help="what the 'on' side runs: both caches (the default) or the exact cache alone")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.requests < 1 or (args.mode == "serve" and args.max_tokens < 1):
        parser.error("--runs, --requests and --max-tokens must be at least 1")
    if args.mode == "proxy" and not all(c.strip().isdigit() and int(c) >= 1 for c in args.concurrency.split(",")):
        parser.error("--concurrency must be comma-separated integers >= 1")
    try:
        report = run_serve(args) if args.mode == "serve" else run_proxy(args)
    except RuntimeError as exc:
        print(f"thrifty bench cache-load: {exc}", file=sys.stderr)
        return 1
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

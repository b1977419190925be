"""``thrifty eval shaping``: measurements behind prompt shaping and output capping.

``--part lengths``: the bundled model's answer lengths on ordinary chat prompts (greedy and at
temperature 1), which the out-of-the-box ``default_max_tokens`` is chosen from. The backend runs as
a child process (``thrifty backend serve``) on a free local port.

``--part caps``: from the configured database's request log, how often each kind of cap
(default, learned, clamped, the caller's own) ended an answer that would have gone on, in all and
per key and prompt cluster (``--top`` groups, most cut first).

``--part bound``: no model run; the cached share a perfect prefix cache could reach on each trace
shape with shaping off and safe (note after the last turn or in the system prompt), at token and
at KV-block granularity, from the bundled tokenizer and the backend's prompt rendering.

``--part trace`` (the default): replays the seeded agent/RAG trace of ``benchmarks.shaping.trace``
through a real ``thrifty serve`` (bundled backend, SmolLM2) once per configuration: shaping off,
safe (note position ``auto``: after the last turn on the bundled backend), and safe with the note
at the end of the system prompt with one backend, then safe with two backend replicas chosen at
random and by prefix; for each trace shape (``--shape``: short, long or both).
Requests go one at a time, streamed, with a short ``max_tokens`` so prefill dominates; each run
starts a fresh server (empty prefix caches) after one warm-up request. Reported:
``cached_tokens / prompt_tokens`` (from the backend's usage), client-side TTFT p50/p95 and output
tokens. Then the output cap: the first ``--cap-requests`` requests without ``max_tokens``, with the
default cap and without any (the backend runs to the end of its context), comparing output tokens
and checking that every answer that stopped by itself is the same text in both runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from benchmarks.harness import free_port, wait_healthy
from benchmarks.shaping.lengths import CHAT_PROMPTS, ask_lengths, length_table
from benchmarks.shaping.trace import SHAPES, make_trace
from benchmarks.sse import sse_chunks

MODEL = "smollm2-135m-instruct"


def cpu_name() -> str:
    """The CPU model (``lscpu``), for the table's header."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return platform.processor() or "unknown CPU"
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    return f"{fields.get('Model name', '?').strip()}, {fields.get('CPU(s)', '?').strip()} CPUs"


def run_lengths(args: argparse.Namespace) -> int:
    from proxy.config.settings import load_settings
    from proxy.launch.supervisor import BackendProcess

    settings = load_settings(None, {k: v for k, v in os.environ.items() if k == "THRIFTY_DATA_DIR"})
    backend = BackendProcess(settings)
    print(f"starting the bundled backend ({MODEL}) ...", flush=True)
    backend.start()
    try:
        backend.wait_ready()
        started = time.perf_counter()
        prompts = CHAT_PROMPTS[: args.prompts]
        answers = ask_lengths(backend.base_url + "/v1", MODEL, prompts, temperature=0.0, max_tokens=args.max_tokens,
                              concurrency=args.concurrency)
        answers += ask_lengths(backend.base_url + "/v1", MODEL, prompts, temperature=1.0,
                               max_tokens=args.max_tokens, concurrency=args.concurrency, seed=args.seed)
    finally:
        backend.stop()
    print(f"\n{len(prompts)} chat prompts, max_tokens={args.max_tokens}, seed {args.seed} for temperature 1; "
          f"{time.perf_counter() - started:.0f} s on {cpu_name()}\n")
    print("\n".join(length_table(answers, args.max_tokens)))
    for temperature in (0.0, 1.0):
        group = [a for a in answers if a.temperature == temperature]
        total = sum(a.completion_tokens for a in group)
        for cap in args.caps:
            kept = sum(1 for a in group if a.finish_reason == "stop" and a.completion_tokens <= cap)
            natural = sum(1 for a in group if a.finish_reason == "stop")
            capped = sum(min(a.completion_tokens, cap) for a in group)
            print(f"temperature {temperature:g}, cap {cap}: {kept}/{natural} natural answers whole, output tokens "
                  f"{capped} vs {total} under max_tokens={args.max_tokens} ({1 - capped / max(total, 1):.0%} fewer)")
    return 0


@dataclass(frozen=True, slots=True)
class Answer:
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    ttft_ms: float | None
    finish_reason: str | None
    text: str


@dataclass(frozen=True, slots=True)
class RunConfig:
    label: str
    mode: str
    replicas: int = 1
    replica_choice: str = "prefix"
    default_max_tokens: int = 512
    note_position: str = "auto"


class ServeProcess:
    """``thrifty serve`` with a generated configuration in a temporary directory."""

    def __init__(self, run: RunConfig, workdir: Path, threads: int) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = workdir / f"{run.label.replace(' ', '-')}.toml"
        config.write_text(f"""
[proxy]
port = {self.port}
[cache]
enabled = false
[router]
enabled = false
[batch]
worker = false
[backend]
kv_cache_memory = "512MiB"
num_threads = {threads}
[bundled]
replicas = {run.replicas}
replica_choice = "{run.replica_choice}"
[shaping]
mode = "{run.mode}"
default_max_tokens = {run.default_max_tokens}
note_position = "{run.note_position}"
""")
        env = {**os.environ, "THRIFTY_DATA_DIR": str(workdir / "data"), "HF_HUB_OFFLINE": "1",
               "OMP_WAIT_POLICY": "PASSIVE"}
        self.log = (workdir / f"{run.label.replace(' ', '-')}.log").open("w")
        self.process = subprocess.Popen([sys.executable, "-m", "proxy.cli", "serve", "--config", str(config)],
                                        env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout_s: float = 600.0) -> None:
        wait_healthy(self.base, self.process, timeout_s=timeout_s, what=f"thrifty serve (log: {self.log.name})",
                     poll_s=0.5)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def ask(base: str, body: dict[str, Any]) -> Answer:
    """One streamed request; TTFT is measured at the first chunk with content."""
    started = time.perf_counter()
    ttft = None
    text: list[str] = []
    usage: dict[str, Any] = {}
    finish = None
    request = {**body, "model": MODEL, "temperature": 0, "stream": True, "stream_options": {"include_usage": True}}
    with httpx.stream("POST", base + "/v1/chat/completions", json=request, timeout=900) as response:
        if response.status_code != 200:
            raise RuntimeError(f"request failed with {response.status_code}: {response.read()[:300]!r}")
        for chunk in sse_chunks(response.iter_lines()):
            for choice in chunk.get("choices") or []:
                delta = (choice.get("delta") or {}).get("content")
                if delta:
                    ttft = ttft if ttft is not None else (time.perf_counter() - started) * 1000
                    text.append(delta)
                finish = choice.get("finish_reason") or finish
            usage = chunk.get("usage") or usage
    details = usage.get("prompt_tokens_details") or {}
    return Answer(int(usage.get("prompt_tokens", 0)), int(details.get("cached_tokens") or 0),
                  int(usage.get("completion_tokens", 0)), ttft, finish, "".join(text))


def replay(run: RunConfig, workdir: Path, bodies: list[dict[str, Any]], *, threads: int,
           concurrency: int = 1) -> list[Answer]:
    print(f"[{run.label}] starting thrifty serve ({run.replicas} backend(s), shaping {run.mode}) ...", flush=True)
    server = ServeProcess(run, workdir, threads)
    try:
        server.wait_ready()
        ask(server.base, {"messages": [{"role": "user", "content": "Hello!"}], "max_tokens": 4})  # warm-up
        answers: list[Answer] = []
        with ThreadPoolExecutor(concurrency) as pool:
            for i, answer in enumerate(pool.map(lambda b: ask(server.base, b), bodies), 1):
                answers.append(answer)
                print(f"  [{run.label}] {i}/{len(bodies)} prompt {answer.prompt_tokens} cached {answer.cached_tokens} "
                      f"ttft {answer.ttft_ms or 0:.0f} ms out {answer.completion_tokens} ({answer.finish_reason})",
                      flush=True)
        return answers
    finally:
        server.stop()


def _percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def trace_runs(replicas: int) -> list[RunConfig]:
    """The configurations replayed per trace shape: shaping off, safe (note position ``auto``: after
    the last turn on the bundled backend), safe with the note at the end of the system prompt, then
    ``replicas`` backends chosen at random and by prefix."""
    runs = [RunConfig("off", "off"), RunConfig("safe", "safe"),
            RunConfig("safe, note in system prompt", "safe", note_position="system")]
    if replicas > 1:
        runs += [RunConfig(f"safe, {replicas} replicas random", "safe", replicas, "random"),
                 RunConfig(f"safe, {replicas} replicas prefix", "safe", replicas, "prefix")]
    return runs


def replay_shape(args: argparse.Namespace, shape: str, workdir: Path) -> tuple[list[str], list[str]]:
    """Replay one trace shape under every configuration: the table rows and a summary against
    the issue's targets (safe's cached share, TTFT p50 and p95 off / safe)."""
    trace = make_trace(args.seed, sessions=args.sessions, turns=args.turns, shape=shape)
    bodies = [{**r.body, "max_tokens": args.max_tokens} for r in trace]
    rows, summary = [], []
    measured: dict[str, tuple[float, float, float]] = {}
    for run in trace_runs(args.replicas):
        threads = max(1, args.threads // run.replicas)
        answers = replay(RunConfig(f"{shape}: {run.label}", run.mode, run.replicas, run.replica_choice,
                                   run.default_max_tokens, run.note_position), workdir, bodies, threads=threads)
        prompt = sum(a.prompt_tokens for a in answers)
        cached = sum(a.cached_tokens for a in answers)
        ttfts = [a.ttft_ms for a in answers if a.ttft_ms is not None]
        kinds = {kind: [a for a, r in zip(answers, trace, strict=True) if r.kind == kind] for kind in ("agent", "rag")}
        shares = " | ".join(f"{sum(a.cached_tokens for a in group) / max(sum(a.prompt_tokens for a in group), 1):.2f}"
                            for group in kinds.values())
        p50, p95 = _percentile(ttfts, 50), _percentile(ttfts, 95)
        measured[run.label] = (cached / max(prompt, 1), p50, p95)
        rows.append(f"| {shape} | {run.label} | {len(answers)} | {prompt} | {cached} | {cached / max(prompt, 1):.2f} | "
                    f"{shares} | {p50:.0f} | {p95:.0f} | {sum(a.completion_tokens for a in answers)} | {threads} |")
    off, safe = measured["off"], measured["safe"]
    summary.append(f"{shape}: cached share {off[0]:.2f} off -> {safe[0]:.2f} safe (target >= 0.8: "
                   f"{'met' if safe[0] >= 0.8 else 'missed'}); TTFT p50 {off[1] / safe[1]:.2f}x lower "
                   f"(target >= 2x: {'met' if off[1] >= 2 * safe[1] else 'missed'}), p95 {off[2] / safe[2]:.2f}x lower")
    return rows, summary


def run_trace(args: argparse.Namespace) -> int:
    shapes = SHAPES if args.shape == "both" else (args.shape,)
    started = time.perf_counter()
    rows: list[str] = []
    summary: list[str] = []
    with tempfile.TemporaryDirectory(prefix="thrifty-eval-shaping-") as tmp:
        workdir = Path(tmp)
        for shape in shapes:
            shape_rows, shape_summary = replay_shape(args, shape, workdir)
            rows += shape_rows
            summary += shape_summary
        if args.cap_requests:
            trace = make_trace(args.seed, sessions=args.sessions, turns=args.turns)
            cap_bodies = [{k: v for k, v in r.body.items()} for r in trace[: args.cap_requests]]
            capped = replay(RunConfig("cap default", "safe", default_max_tokens=args.cap), workdir, cap_bodies,
                            threads=args.threads, concurrency=args.cap_concurrency)
            uncapped = replay(RunConfig("no cap", "safe", default_max_tokens=0), workdir, cap_bodies,
                              threads=args.threads, concurrency=args.cap_concurrency)
    print(f"\nseed {args.seed}: {args.sessions} sessions x {args.turns} turns per shape ({', '.join(shapes)}), "
          f"max_tokens={args.max_tokens}; {time.perf_counter() - started:.0f} s on {cpu_name()}\n")
    print("| shape | run | requests | prompt tokens | cached tokens | cached share | agent | RAG | TTFT p50 ms | "
          "TTFT p95 ms | output tokens | torch threads per backend |\n|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    print("\n" + "\n".join(summary))
    if not args.cap_requests:
        return 0
    out_capped = sum(a.completion_tokens for a in capped)
    out_uncapped = sum(a.completion_tokens for a in uncapped)
    stopped = [(c, u) for c, u in zip(capped, uncapped, strict=True) if u.finish_reason == "stop"
               and u.completion_tokens <= args.cap]
    same = sum(1 for c, u in stopped if c.text == u.text)
    cut = sum(1 for c in capped if c.finish_reason == "length")
    print(f"\noutput cap on the first {len(cap_bodies)} requests without max_tokens "
          f"({args.cap_concurrency} at a time):\n")
    print("| run | output tokens | answers cut (length) | answers that stopped by themselves, same text |\n"
          "|---|---|---|---|")
    print(f"| no cap (to the end of the context) | {out_uncapped} | "
          f"{sum(1 for u in uncapped if u.finish_reason == 'length')} | - |")
    print(f"| default_max_tokens = {args.cap} | {out_capped} ({1 - out_capped / max(out_uncapped, 1):.0%} fewer) | "
          f"{cut} | {same}/{len(stopped)} |")
    return 0


def prefix_bounds(prompts: list[list[int]], block_size: int) -> tuple[int, int]:
    """``(token-granular, whole-block)`` prompt tokens a prefix cache holding every earlier prompt
    could serve: per prompt, its longest common prefix with any earlier one (never its last token,
    whose logits must be computed), then that rounded down to whole blocks."""
    tokens = blocks = 0
    for i, prompt in enumerate(prompts):
        best = 0
        for earlier in prompts[:i]:
            limit = min(len(prompt) - 1, len(earlier))
            n = 0
            while n < limit and prompt[n] == earlier[n]:
                n += 1
            best = max(best, n)
        tokens += best
        blocks += best // block_size * block_size
    return tokens, blocks


def run_bound(args: argparse.Namespace) -> int:
    """Without a model run: the cached share a perfect prefix cache could reach on each trace
    shape and shaping mode, at token and at block granularity, from the bundled tokenizer and the
    backend's rendering (what is left uncached is new text, not a cache miss)."""
    from proxy.config.settings import load_settings
    from proxy.shaping.prompt import shape_prompt
    from tokenization.chat_sections import with_request_sections
    from tokenization.models import resolve_model
    from tokenization.tokenizer import Tokenizer

    settings = load_settings(None, {k: v for k, v in os.environ.items() if k == "THRIFTY_DATA_DIR"})
    tokenizer = Tokenizer.load(resolve_model(settings.backend.model_path, settings.data_path), settings.data_path)
    modes = (("off", None), ("safe, note after the last turn", "end"), ("safe, note in system prompt", "system"))
    print(f"| shape | shaping | prompt tokens | token-granular bound | {args.block_size}-token-block bound |\n"
          "|---|---|---|---|---|")
    for shape in (SHAPES if args.shape == "both" else (args.shape,)):
        trace = make_trace(args.seed, sessions=args.sessions, turns=args.turns, shape=shape)
        for label, position in modes:
            prompts = []
            for request in trace:
                body = json.loads(json.dumps(request.body))
                if position is not None:
                    shape_prompt(body, aggressive=False, note_position=position)
                messages = with_request_sections(body["messages"], body.get("tools"), body.get("response_format"))
                prompts.append(tokenizer.encode_chat(messages))
            total = sum(len(p) for p in prompts)
            tokens, blocks = prefix_bounds(prompts, args.block_size)
            print(f"| {shape} | {label} | {total} | {tokens / total:.3f} | {blocks / total:.3f} |")
    return 0


def run_caps(args: argparse.Namespace) -> int:
    import asyncio

    from sqlalchemy.ext.asyncio import create_async_engine

    from proxy.config.settings import load_settings
    from proxy.shaping.learned import cap_breakdown, cap_report

    if args.top < 1:
        print("thrifty eval shaping: --top must be at least 1", file=sys.stderr)
        return 2
    settings = load_settings(args.config)

    async def report() -> tuple[list[tuple[str, int, int]], list[tuple[str, str, str, int, int]]]:
        engine = create_async_engine(settings.database_url)
        try:
            return await cap_report(engine), await cap_breakdown(engine, args.top)
        finally:
            await engine.dispose()

    try:
        rows, groups = asyncio.run(report())
    except Exception as exc:  # noqa: BLE001 - a CLI reports, it does not dump a traceback
        print(f"thrifty: cannot read the request log at {settings.database_url}: {exc}", file=sys.stderr)
        return 1
    print("| cap | answers | cut by the limit (finish_reason length) | share cut |\n|---|---|---|---|")
    for kind, n, cut in rows:
        print(f"| {kind} | {n} | {cut} | {cut / max(n, 1):.1%} |")
    print(f"\nPer key and prompt cluster (the {args.top} groups with the most cut answers):\n")
    print("| key | prompt cluster | cap | answers | cut | share cut |\n|---|---|---|---|---|---|")
    for key, cluster, kind, n, cut in groups:
        print(f"| {key} | {cluster} | {kind} | {n} | {cut} | {cut / max(n, 1):.1%} |")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty eval shaping", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("trace", "lengths", "caps", "bound"), default="trace",
                        help="what to measure (default trace; see docs/benchmarks.md)")
    parser.add_argument("--block-size", type=int, default=16, help="bound: the KV block size")
    parser.add_argument("--shape", choices=(*SHAPES, "both"), default="both",
                        help="trace: short or long prompts, or both (default; see docs/benchmarks.md)")
    parser.add_argument("--sessions", type=int, default=6, help="trace: sessions (alternately agent and RAG)")
    parser.add_argument("--turns", type=int, default=3, help="trace: turns per session")
    parser.add_argument("--replicas", type=int, default=2, help="trace: backend replicas for the choice runs "
                        "(1: skip them)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="trace: torch threads, split between replicas")
    parser.add_argument("--cap", type=int, default=512, help="trace: the default cap to measure")
    parser.add_argument("--cap-requests", type=int, default=8, help="trace: requests of the cap comparison "
                        "(0: skip it)")
    parser.add_argument("--cap-concurrency", type=int, default=4)
    parser.add_argument("--config", help="caps: the TOML configuration naming the database")
    parser.add_argument("--top", type=int, default=20, help="caps: key and prompt-cluster groups to list")
    parser.add_argument("--prompts", type=int, default=len(CHAT_PROMPTS), help="how many of the chat prompts")
    parser.add_argument("--max-tokens", type=int, help="lengths: bound of each answer (1024); trace: max_tokens "
                        "of the prefix runs (16)")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--caps", type=int, nargs="*", default=[256, 384, 512, 768])
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.max_tokens is None:
        args.max_tokens = 16 if args.part == "trace" else 1024
    if min(args.prompts, args.max_tokens, args.sessions, args.turns, args.replicas, args.cap,
           args.cap_concurrency, args.threads, args.block_size) < 1 or args.cap_requests < 0:
        parser.error("counts and limits must be at least 1")
    if args.part == "caps":
        return run_caps(args)
    if args.part == "bound":
        return run_bound(args)
    return run_lengths(args) if args.part == "lengths" else run_trace(args)


if __name__ == "__main__":
    sys.exit(main())

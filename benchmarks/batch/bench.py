"""``thrifty bench batch``: a seeded batch against the bundled backend, beside interactive traffic.

Processes as a user runs them: the bundled backend (real SmolLM2) and the proxy, each its own
process, spoken to over HTTP. Phases:

1. interactive TTFT with nothing else running (streamed chat requests, one after another);
2. the same lines sent interactively one at a time (a sample), the baseline a batch should beat;
3. the batch (``--lines``) with the interactive load running beside it: batch lines/s and output
   tokens/s, interactive TTFT p50/p95 against phase 1;
4. a second batch killed with ``kill -9`` halfway: time until the restarted proxy makes progress
   and until it completes, and a check that every ``custom_id`` is in the output exactly once.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import httpx

from benchmarks.batches import result_items, submit_lines
from benchmarks.harness import free_port, wait_healthy
from benchmarks.sse import delta_text, sse_chunks
from proxy.batch.cli import BatchClient, CLIError
from proxy.config.sections import BundledBackendConfig
from proxy.config.settings import Settings
from proxy.launch.supervisor import BackendProcess

MODEL = "smollm2-135m-instruct"
TOPICS = ["rivers", "volcanoes", "bread", "chess", "bicycles", "owls", "glass", "tea", "comets", "maps", "bees",
          "violins", "deserts", "coral", "clocks", "salt", "kites", "mushrooms", "bridges", "ink"]
TEMPLATES = [
    "Write one sentence about {t}.",
    "Give me a short fact about {t}.",
    "Explain in simple words how {t} work, for a child.",
    "List three words related to {t}.",
    "You are a helpful assistant for a museum. A visitor asks about {t} and wants a short, friendly answer "
    "that mentions one surprising detail. Answer in two sentences.",
    "Summarise the following note in one line: '{t} were discussed at the meeting on Tuesday; the team agreed "
    "to collect more examples, compare their costs and report back next week with a recommendation.'",
]


def seeded_lines(n: int, seed: int, max_tokens: int, prefix: str) -> list[dict]:
    """``n`` batch lines of varied prompt shapes (short questions to paragraph-long instructions)."""
    rng = random.Random(seed)
    lines = []
    for i in range(n):
        text = rng.choice(TEMPLATES).format(t=rng.choice(TOPICS)) + f" (item {i})"
        lines.append({"custom_id": f"{prefix}-{i}", "method": "POST", "url": "/v1/chat/completions",
                      "body": {"model": MODEL, "messages": [{"role": "user", "content": text}],
                               "max_tokens": max_tokens, "temperature": 0}})
    return lines


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


@dataclass
class InteractiveLoad:
    """Streamed chat requests one after another (with a pause), recording each TTFT in ms."""

    base: str
    max_tokens: int
    pause_s: float
    seed: int
    ttft_ms: list[float] = field(default_factory=list)
    errors: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)

    def one(self, client: httpx.Client, text: str) -> None:
        body = {"model": MODEL, "messages": [{"role": "user", "content": text}], "max_tokens": self.max_tokens,
                "temperature": 0, "stream": True}
        started = time.perf_counter()
        try:
            with client.stream("POST", f"{self.base}/v1/chat/completions", json=body,
                               headers={"cache-control": "no-store"}) as response:
                if response.status_code != 200:
                    self.errors += 1
                    return
                chunks = sse_chunks(response.iter_lines())
                for chunk in chunks:
                    if delta_text(chunk):
                        self.ttft_ms.append((time.perf_counter() - started) * 1000)
                        break
                for _ in chunks:
                    pass
        except httpx.HTTPError:
            self.errors += 1

    def run(self, count: int | None = None) -> None:
        rng = random.Random(self.seed)
        with httpx.Client(timeout=120) as client:
            i = 0
            while not self._stop.is_set() and (count is None or i < count):
                self.one(client, f"Quick question {rng.randint(0, 10**6)}: name a colour of the sky at dusk.")
                i += 1
                self._stop.wait(self.pause_s)

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.run, daemon=True, name="interactive-load")
        thread.start()
        return thread

    def stop(self) -> None:
        self._stop.set()


class ProxyProcess:
    """``thrifty proxy serve`` as a child process in front of the bundled backend."""

    def __init__(self, workdir: Path, backend_port: int, concurrency: int, lease_s: float,
                 busy_concurrency: int = 1) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.config = workdir / "thrifty.toml"
        self.config.write_text(f"""data_dir = "{workdir / 'data'}"
[bundled]
port = {backend_port}
[cache]
enabled = false
[router]
enabled = false
[batch]
concurrency = {concurrency}
busy_concurrency = {busy_concurrency}
lease_s = {lease_s}
poll_interval_s = 0.1
""")
        self.log = workdir / "proxy.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> float:
        """Start and wait until /health answers; returns the seconds it took."""
        started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", str(self.config), "--port",
             str(self.port)], stdout=self.log.open("ab"), stderr=subprocess.STDOUT, env=os.environ.copy())
        wait_healthy(self.base, self.process, timeout_s=300.0, what=f"the proxy (log: {self.log})", poll_s=0.1)
        return time.perf_counter() - started

    def kill9(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()


def _progress(label: str, done: int, total: int, started: float) -> None:
    rate = done / max(time.perf_counter() - started, 1e-9)
    print(f"\r  {label}: {done}/{total} lines ({rate:.1f} lines/s)", end="", file=sys.stderr, flush=True)


def _wait(api: BatchClient, batch_id: str, label: str, on_half=None) -> tuple[dict, float]:
    started = time.perf_counter()
    fired, shown = False, -1
    while True:
        try:
            batch = api.get(batch_id)
        except CLIError:  # the proxy restarting after kill -9: ask again
            time.sleep(0.2)
            continue
        counts = batch["request_counts"]
        if counts["completed"] + counts["failed"] != shown:
            shown = counts["completed"] + counts["failed"]
            _progress(label, shown, counts["total"], started)
        if on_half is not None and not fired and counts["total"] and counts["completed"] >= counts["total"] // 2:
            fired = True
            on_half(counts["completed"])
        if batch["status"] in ("completed", "failed", "expired", "cancelled"):
            print(file=sys.stderr)
            return batch, time.perf_counter() - started
        time.sleep(0.25)


def run(args: argparse.Namespace) -> str:
    workdir = Path(tempfile.mkdtemp(prefix="thrifty-bench-batch-"))
    settings = replace(Settings(data_dir=str(workdir / "data")), bundled=BundledBackendConfig(port=free_port()))
    backend = BackendProcess(settings)
    print(f"starting the bundled backend ({MODEL})...", file=sys.stderr)
    backend.start()
    proxy = ProxyProcess(workdir, backend.port, args.concurrency, args.lease_s, args.busy_concurrency)
    try:
        backend.wait_ready()
        proxy.start()
        print("phase 1: interactive TTFT, idle", file=sys.stderr)
        idle = InteractiveLoad(proxy.base, args.interactive_max_tokens, args.pause_s, args.seed)
        idle.one(httpx.Client(timeout=120), "warm-up")
        idle.ttft_ms.clear()
        idle.run(args.interactive_requests)

        print(f"phase 2: {args.sequential_sample} lines sent interactively one at a time", file=sys.stderr)
        sample = seeded_lines(args.sequential_sample, args.seed + 1, args.max_tokens, "seq")
        seq_tokens, started = 0, time.perf_counter()
        with httpx.Client(timeout=300) as client:
            for i, line in enumerate(sample):
                reply = client.post(f"{proxy.base}/v1/chat/completions", json=line["body"],
                                    headers={"cache-control": "no-store"}).raise_for_status().json()
                seq_tokens += reply["usage"]["completion_tokens"]
                _progress("sequential", i + 1, len(sample), started)
        seq_s = time.perf_counter() - started
        print(file=sys.stderr)

        print(f"phase 3: a {args.lines}-line batch with interactive load beside it", file=sys.stderr)
        api = BatchClient(proxy.base + "/v1", "sk-bench", timeout=120)
        busy = InteractiveLoad(proxy.base, args.interactive_max_tokens, args.pause_s, args.seed + 2)
        batch_id = submit_lines(api, seeded_lines(args.lines, args.seed, args.max_tokens, "b"))
        thread = busy.start()
        batch, batch_s = _wait(api, batch_id, "batch")
        busy.stop()
        thread.join()
        outputs = result_items(api, batch["output_file_id"]) if batch.get("output_file_id") else []
        batch_tokens = sum(o["response"]["body"]["usage"]["completion_tokens"] for o in outputs)

        print(f"phase 4: a {args.crash_lines}-line batch, kill -9 of the proxy halfway", file=sys.stderr)
        crash_id = submit_lines(api, seeded_lines(args.crash_lines, args.seed + 3, args.max_tokens, "k"))
        crash: dict[str, float] = {}

        def kill_and_restart(completed: int) -> None:
            killed = time.perf_counter()
            proxy.kill9()
            crash["restart_s"] = proxy.start()
            while api.get(crash_id)["request_counts"]["completed"] <= completed:
                time.sleep(0.05)
            crash["first_progress_s"] = time.perf_counter() - killed
            crash["killed"] = killed

        crashed, _ = _wait(api, crash_id, "crash batch", on_half=kill_and_restart)
        crash["complete_after_kill_s"] = time.perf_counter() - crash["killed"]
        ids = Counter(o["custom_id"] for o in result_items(api, crashed["output_file_id"])) if crashed.get("output_file_id") else Counter()
        exactly_once = ids == Counter(f"k-{i}" for i in range(args.crash_lines))
    finally:
        proxy.stop()
        backend.stop()

    seq_rate, batch_rate = len(sample) / seq_s, len(outputs) / batch_s
    p50_idle, p95_idle = _pct(idle.ttft_ms, 0.5), _pct(idle.ttft_ms, 0.95)
    p50_busy, p95_busy = _pct(busy.ttft_ms, 0.5), _pct(busy.ttft_ms, 0.95)
    rows = [
        "| measure | value |", "|---|---|",
        f"| batch: {len(outputs)}/{args.lines} lines answered in | {batch_s:.1f} s |",
        f"| batch throughput | {batch_rate:.2f} lines/s, {batch_tokens / batch_s:.1f} output tokens/s |",
        f"| same lines one at a time ({len(sample)}-line sample) | {seq_rate:.2f} lines/s, "
        f"{seq_tokens / seq_s:.1f} output tokens/s |",
        f"| batch / one at a time | **{batch_rate / seq_rate:.2f}x** lines/s |",
        f"| interactive TTFT idle, p50 / p95 ({len(idle.ttft_ms)} requests) | {p50_idle:.0f} / {p95_idle:.0f} ms |",
        f"| interactive TTFT beside the batch, p50 / p95 ({len(busy.ttft_ms)} requests, {busy.errors} errors) | "
        f"{p50_busy:.0f} / {p95_busy:.0f} ms |",
        f"| p95 beside the batch / idle (target <= 1.5) | **{p95_busy / p95_idle:.2f}x** |",
        f"| kill -9 at 50 %: proxy restart until /health | {crash['restart_s']:.1f} s |",
        f"| kill -9 at 50 %: until the first new line is done | {crash['first_progress_s']:.1f} s |",
        f"| kill -9 at 50 %: until the batch completed ({args.crash_lines} lines, lease {args.lease_s:g} s) | "
        f"{crash['complete_after_kill_s']:.1f} s |",
        f"| every custom_id exactly once after the crash | {'yes' if exactly_once else 'NO'} "
        f"({crashed['status']}, {sum(ids.values())} lines) |",
    ]
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench batch", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=1000, help="lines of the measured batch")
    parser.add_argument("--crash-lines", type=int, default=200, help="lines of the batch killed halfway")
    parser.add_argument("--sequential-sample", type=int, default=40, help="lines sent one at a time (baseline)")
    parser.add_argument("--max-tokens", type=int, default=24, help="max_tokens of each batch line")
    parser.add_argument("--interactive-requests", type=int, default=30, help="idle TTFT samples")
    parser.add_argument("--interactive-max-tokens", type=int, default=8)
    parser.add_argument("--pause-s", type=float, default=0.5, help="pause between interactive requests")
    parser.add_argument("--concurrency", type=int, default=4, help="[batch] concurrency (lines in flight per "
                        "upstream; 4 is the product default)")
    parser.add_argument("--busy-concurrency", type=int, default=1, help="[batch] busy_concurrency: lines per upstream "
                        "while interactive requests run (default 1)")
    parser.add_argument("--lease-s", type=float, default=10.0, help="[batch] lease_s")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    print(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

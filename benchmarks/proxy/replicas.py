"""``thrifty bench replicas``: two ``thrifty proxy serve`` replicas against one, RPS and latency on loopback.

The deployment of docs/deployment.md in miniature: replicas on one PostgreSQL database (and one Redis,
with ``--redis``) in front of the stub upstream (:mod:`benchmarks.proxy.stub`), no load balancer: the
clients spread their requests round-robin over the replicas' ports. Each run starts fresh processes on a
fresh throwaway database and keeps ``--concurrency`` chat requests in flight for ``--duration`` seconds
(the first second is warm-up and not counted); runs alternate 1, 2, 2, 1, ... replicas. Reported per
run: answered requests per second, latency p50 and p99, errors, and whether every answered request has
its row in the shared request log. On a machine with fewer cores than replicas + stub + clients, the
replicas share the same cores, so the table says what the CPU count allows, not what a cluster would.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import httpx

from benchmarks.harness import free_port, wait_healthy
from benchmarks.proxy.request_log import Proxy, _create_pg, _drop_pg, _ids

DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"


@dataclass
class RunResult:
    """What the clients saw in one run."""

    replicas: int
    latencies: list[float] = field(default_factory=list)  # seconds, counted requests only
    answered: list[str] = field(default_factory=list)  # x-request-id of every 200
    errors: int = 0
    counted_s: float = 0.0

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.counted_s if self.counted_s else 0.0

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


async def _drive(urls: list[str], concurrency: int, duration: float, result: RunResult, run: str) -> None:
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    start = time.monotonic()
    counted_from, until = start + 1.0, start + 1.0 + duration
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        async def worker(n: int) -> None:
            i = 0
            while time.monotonic() < until:
                i += 1
                rid = f"{run}-{n}-{i}"
                url = urls[(n + i) % len(urls)]
                body = {"model": "stub", "max_tokens": 16, "messages": [{"role": "user", "content": rid}]}
                sent = time.monotonic()
                try:
                    response = await client.post(url + "/v1/chat/completions", json=body,
                                                 headers={"x-request-id": rid})
                except httpx.HTTPError:
                    result.errors += 1
                    await asyncio.sleep(0.05)
                    continue
                if response.status_code != 200:
                    result.errors += 1
                    continue
                result.answered.append(rid)
                if sent >= counted_from:
                    result.latencies.append(time.monotonic() - sent)

        await asyncio.gather(*(worker(n) for n in range(concurrency)))
    result.counted_s = until - counted_from


def run_once(replicas: int, stub_port: int, postgres: str, redis: str | None, concurrency: int,
             duration: float, run: str) -> tuple[RunResult, int]:
    """One run: ``replicas`` fresh proxies on a fresh database; → (result, answered requests without a row)."""
    url, name = _create_pg(postgres)
    proxies: list[Proxy] = []
    try:
        with tempfile.TemporaryDirectory(prefix="thrifty-bench-replicas-") as workdir:
            for i in range(replicas):
                folder = os.path.join(workdir, f"replica{i}")
                os.makedirs(folder)
                proxy = Proxy(folder, stub_port, url)
                if redis:
                    proxy.env["THRIFTY_AUTH__REDIS_URL"] = redis
                proxies.append(proxy)
            for proxy in proxies:  # one at a time: the first one migrates the database
                proxy.start()
            result = RunResult(replicas)
            asyncio.run(_drive([p.url for p in proxies], concurrency, duration, result, run))
            for proxy in proxies:
                proxy.stop()
            missing = len(set(result.answered) - _ids(url))
    finally:
        for proxy in proxies:
            proxy.stop()
        _drop_pg(postgres, name)
    return result, missing


def run(args: argparse.Namespace) -> str:
    stub_port = free_port()
    stub = subprocess.Popen([sys.executable, "-m", "benchmarks.proxy.stub", "--port", str(stub_port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = ["| run | replicas | requests/s | p50 ms | p99 ms | errors | answered without a log row |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    by_count: dict[int, list[RunResult]] = {1: [], 2: []}
    try:
        wait_healthy(f"http://127.0.0.1:{stub_port}", stub, what="the stub upstream")
        for repeat in range(args.runs):
            for replicas in ((1, 2) if repeat % 2 == 0 else (2, 1)):
                result, missing = run_once(replicas, stub_port, args.postgres, args.redis, args.concurrency,
                                           args.duration, f"r{repeat}-{replicas}")
                by_count[replicas].append(result)
                rows.append(f"| {repeat + 1} | {replicas} | {result.rps:.0f} | {result.percentile(50) * 1000:.1f} | "
                            f"{result.percentile(99) * 1000:.1f} | {result.errors} | {missing} |")
                print(rows[-1], flush=True)
    finally:
        stub.terminate()
    summary = []
    for replicas, results in by_count.items():
        summary.append(f"- {replicas} replica{'s' if replicas > 1 else ''}: median "
                       f"{statistics.median(r.rps for r in results):.0f} requests/s, p99 "
                       f"{statistics.median(r.percentile(99) for r in results) * 1000:.1f} ms")
    ratio = statistics.median(r.rps for r in by_count[2]) / max(statistics.median(r.rps for r in by_count[1]), 1e-9)
    summary.append(f"- two replicas / one: {ratio:.2f}x requests/s ({os.cpu_count()} CPUs on this machine)")
    return "\n".join(rows + [""] + summary)


def main(argv: list[str] | None = None) -> int:
    """``thrifty bench replicas``; prints a markdown table."""
    parser = argparse.ArgumentParser(prog="thrifty bench replicas", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=10.0, help="counted seconds of load per run (default 10)")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--runs", type=int, default=2, help="runs per replica count, alternating (default 2)")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, metavar="URL",
                        help="admin URL of a PostgreSQL server where throwaway databases are created")
    parser.add_argument("--redis", default=None, metavar="URL", help="a Redis the replicas share (optional)")
    args = parser.parse_args(argv)
    if args.duration <= 0 or args.concurrency < 1 or args.runs < 1:
        parser.error("--duration, --concurrency and --runs must be positive")
    print(f"thrifty bench replicas: {args.concurrency} clients, {args.duration:g} s counted per run, "
          f"PostgreSQL{' and Redis' if args.redis else ''}, stub upstream\n", flush=True)
    print(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``thrifty bench load``: sustained load on the proxy in front of the stub upstream.

The proxy (`thrifty proxy serve`, SQLite request log) and `benchmarks.proxy.stub` run as their own
processes; this process keeps ``--concurrency`` requests in flight for ``--duration`` seconds (a mix
of JSON and streamed chat requests), samples the proxy's RSS every few seconds, then checks that
every answered request is in the request log. With ``--kill9`` it kills the proxy with SIGKILL
halfway, restarts it on the same database, checks the database (``PRAGMA integrity_check``) and
counts the log rows lost with it (bounded by what the writer had not flushed yet).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

import httpx

from benchmarks.harness import free_port, wait_healthy


def _rss_mb(pid: int) -> float:
    for line in open(f"/proc/{pid}/status"):  # noqa: SIM115 - tiny read
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class LoadResult:
    sent: int = 0
    ok: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    rss: list[tuple[float, float]] = field(default_factory=list)  # (seconds since start, MB)


class Proxy:
    def __init__(self, workdir: str, stub_port: int) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.db = os.path.join(workdir, "load.db")
        self.config = os.path.join(workdir, "load.toml")
        with open(self.config, "w") as handle:
            handle.write(f'[[upstreams]]\nname = "stub"\nbase_url = "http://127.0.0.1:{stub_port}/v1"\n'
                         '[models.stub]\nupstream = "stub"\nmodel = "stub"\n')
        self.env = {**os.environ, "THRIFTY_BUNDLED__ENABLED": "false", "THRIFTY_PROXY__PORT": str(self.port),
                    "THRIFTY_DATABASE__URL": f"sqlite+aiosqlite:///{self.db}", "THRIFTY_ROUTER__ENABLED": "false",
                    "THRIFTY_CACHE__SEMANTIC": "false", "THRIFTY_DATA_DIR": workdir}
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", self.config],
                                        env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_healthy(self.url, self.process, what="the proxy")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(30)


async def _drive(proxy: Proxy, concurrency: int, until: float, result: LoadResult, started: float) -> None:
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        async def worker(n: int) -> None:
            i = 0
            while time.monotonic() < until:
                i += 1
                body = {"model": "stub", "max_tokens": 16, "stream": (n + i) % 4 == 0,
                        "messages": [{"role": "user", "content": f"question {n}-{i}"}]}  # distinct: no cache hits
                result.sent += 1
                try:
                    response = await client.post(proxy.url + "/v1/chat/completions", json=body)
                    if response.status_code == 200:
                        result.ok += 1
                    else:
                        key = f"http_{response.status_code}"
                        result.errors[key] = result.errors.get(key, 0) + 1
                except httpx.HTTPError as exc:
                    key = type(exc).__name__
                    result.errors[key] = result.errors.get(key, 0) + 1
                    await asyncio.sleep(0.05)

        async def sample() -> None:
            while time.monotonic() < until:
                if proxy.process is not None and proxy.process.poll() is None:
                    result.rss.append((time.monotonic() - started, _rss_mb(proxy.process.pid)))
                await asyncio.sleep(5)

        await asyncio.gather(sample(), *(worker(n) for n in range(concurrency)))


def _logged(db: str) -> tuple[int, str]:
    with sqlite3.connect(db) as conn:
        count = conn.execute("select count(*) from request_log where status_code = 200").fetchone()[0]
        integrity = conn.execute("pragma integrity_check").fetchone()[0]
    return count, integrity


def run(duration: float, concurrency: int, kill9: bool) -> str:
    workdir = tempfile.mkdtemp(prefix="thrifty-bench-load-")
    stub_port = free_port()
    stub = subprocess.Popen([sys.executable, "-m", "benchmarks.proxy.stub", "--port", str(stub_port)])
    proxy = Proxy(workdir, stub_port)
    result = LoadResult()
    killed: dict[str, float] = {}
    try:
        wait_healthy(f"http://127.0.0.1:{stub_port}", stub, what="the stub upstream")
        proxy.start()
        started = time.monotonic()
        load = threading.Thread(target=asyncio.run, args=(_drive(proxy, concurrency, started + duration, result,
                                                                   started),), daemon=True)
        load.start()
        if kill9:  # while requests are in flight
            time.sleep(duration / 2)
            proxy.stop(signal.SIGKILL)
            killed["answered_before"] = result.ok
            killed["logged_before"], killed["integrity"] = _logged(proxy.db)  # type: ignore[assignment]
            restart = time.monotonic()
            proxy.start()
            killed["restart_s"] = time.monotonic() - restart
        load.join()
        time.sleep(2)  # the last flush
        proxy.stop()
        logged, integrity = _logged(proxy.db)
    finally:
        proxy.stop(signal.SIGKILL)
        stub.terminate()
    elapsed = duration
    lines = [f"| load: {concurrency} concurrent for {duration:.0f} s{' (kill -9 halfway)' if kill9 else ''} | value |",
             "|---|---|",
             f"| requests sent / answered 200 | {result.sent} / {result.ok} ({result.ok / elapsed:.0f} req/s) |",
             f"| errors | {result.errors or 0} |",
             f"| answered requests in the request log | {logged} of {result.ok} "
             f"({result.ok - logged} missing{', lost with the kill' if kill9 else ''}) |",
             f"| SQLite integrity_check at the end | {integrity} |"]
    if result.rss:
        first_mb, last_mb = result.rss[0][1], result.rss[-1][1]
        peak = max(mb for _, mb in result.rss)
        lines.append(f"| proxy RSS first / last / peak sample | {first_mb:.0f} / {last_mb:.0f} / {peak:.0f} MB "
                     f"({len(result.rss)} samples) |")
    if kill9:
        lost = killed["answered_before"] - killed["logged_before"]
        lines += [f"| kill -9: answered before the kill / in the log after it | {killed['answered_before']:.0f} / "
                  f"{killed['logged_before']:.0f} ({lost:.0f} lost) |",
                  f"| kill -9: integrity_check right after the kill | {killed['integrity']} |",
                  f"| kill -9: restart until /health | {killed['restart_s']:.1f} s |"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of load (default 10 minutes)")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--kill9", action="store_true", help="kill -9 the proxy halfway and restart it")
    args = parser.parse_args(argv)
    print(run(args.duration, args.concurrency, args.kill9))
    return 0


if __name__ == "__main__":
    sys.exit(main())

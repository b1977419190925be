"""``thrifty bench request-log``: does the request log keep up with the proxy, and what does kill -9 lose?

Three measurements, on SQLite (the default) and on PostgreSQL (``--postgres URL`` of a server where a
throwaway database may be created):

1. **writer alone**: ``--rows`` entries recorded at once into :class:`proxy.storage.request_log.RequestLogWriter`
   (journal on), then flushed: rows per second of the writer, and the cost of one ``record`` call;
2. **proxy under load**: a real ``thrifty proxy serve`` in front of the stub upstream
   (:mod:`benchmarks.proxy.stub`), ``--concurrency`` clients for ``--duration`` seconds, each request
   with its own ``x-request-id``: the proxy's answered requests per second against the rows the writer
   committed per second over the same time, the most rows ever queued, drops and back-pressure waits
   (read from ``/metrics``), and whether every answered request has its row in the end;
3. **kill -9 under load**, ``--kill-runs`` times: the proxy is killed halfway through the load and
   restarted; counted are the answered requests without a row in the database right after the kill
   (what the journal must bring back) and after the restart (rows lost).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from benchmarks.harness import free_port, wait_healthy


@dataclass
class Load:
    """What the clients saw."""

    answered: list[str] = field(default_factory=list)  # x-request-id of every 200
    failed: int = 0
    max_pending: float = 0.0


class Proxy:
    """``thrifty proxy serve`` as a child process on one database."""

    def __init__(self, workdir: str, stub_port: int, database_url: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.database_url = database_url
        config = os.path.join(workdir, "bench.toml")
        with open(config, "w") as handle:
            handle.write(f'[[upstreams]]\nname = "stub"\nbase_url = "http://127.0.0.1:{stub_port}/v1"\n'
                         '[models.stub]\nupstream = "stub"\nmodel = "stub"\n')
        self.cmd = [sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", config, "--port", str(self.port)]
        self.env = {**os.environ, "THRIFTY_BUNDLED__ENABLED": "false", "THRIFTY_DATABASE__URL": database_url,
                    "THRIFTY_ROUTER__ENABLED": "false", "THRIFTY_CACHE__ENABLED": "false",
                    "THRIFTY_PROXY__ACCESS_LOG": "false", "THRIFTY_DATA_DIR": workdir}
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.cmd, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_healthy(self.url, self.process, what="the proxy")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(60)

    def metrics(self) -> dict[str, float]:
        text = httpx.get(self.url + "/metrics", timeout=10).text
        return {m.group(1): float(m.group(2)) for m in re.finditer(r"(?m)^(thrifty_proxy_request_log_\w+) (\S+)$",
                                                                    text)}


async def _drive(proxy: Proxy, concurrency: int, until: float, load: Load, run: str) -> None:
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        async def worker(n: int) -> None:
            i = 0
            while time.monotonic() < until:
                i += 1
                rid = f"{run}-{n}-{i}"
                body = {"model": "stub", "max_tokens": 16, "messages": [{"role": "user", "content": rid}]}
                try:
                    response = await client.post(proxy.url + "/v1/chat/completions", json=body,
                                                 headers={"x-request-id": rid})
                except httpx.HTTPError:
                    load.failed += 1
                    await asyncio.sleep(0.05)
                    continue
                if response.status_code == 200:
                    load.answered.append(rid)
                else:
                    load.failed += 1

        async def sample() -> None:  # the writer's queue, read as a scraper would
            while time.monotonic() < until:
                try:
                    got = await client.get(proxy.url + "/metrics")
                    found = re.search(r"(?m)^thrifty_proxy_request_log_pending (\S+)$", got.text)
                    if found:
                        load.max_pending = max(load.max_pending, float(found.group(1)))
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.5)

        await asyncio.gather(sample(), *(worker(n) for n in range(concurrency)))


def _ids(database_url: str) -> set[str]:
    """``client_request_id`` of every row of the request log."""
    if database_url.startswith("sqlite"):
        with sqlite3.connect(database_url.split(":///", 1)[1]) as conn:
            return {r[0] for r in conn.execute("select client_request_id from request_log")}
    from sqlalchemy import text

    from proxy.storage.db import create_engine

    async def read() -> set[str]:
        engine = create_engine(database_url)
        async with engine.connect() as conn:
            ids = {r[0] for r in await conn.execute(text("select client_request_id from request_log"))}
        await engine.dispose()
        return ids

    return asyncio.run(read())


def bench_writer(database_url: str, rows: int, workdir: str) -> tuple[float, float]:
    """(rows per second written, microseconds per ``record`` call) of the writer alone, journal on."""
    from datetime import UTC, datetime

    from proxy.storage.db import create_engine
    from proxy.storage.migrate import upgrade
    from proxy.storage.request_journal import RequestJournal
    from proxy.storage.request_log import LogEntry, RequestLogWriter

    upgrade(database_url)

    async def run() -> tuple[float, float]:
        engine = create_engine(database_url)
        writer = RequestLogWriter(engine, flush_interval_s=3600, max_pending=rows + 1, backpressure_rows=rows + 1,
                                  journal=RequestJournal(Path(workdir) / f"journal-{uuid.uuid4().hex[:6]}"))
        writer.start()
        now = datetime.now(UTC)
        entries = [LogEntry(id=f"w-{uuid.uuid4().hex}", key_id="key-bench", endpoint="chat", status_code=200,
                            model_requested="stub", model_served="stub", upstream="stub", prompt_tokens=12,
                            completion_tokens=8, latency_ms=3.2, cache_outcome="miss", cost_usd=0.0001,
                            created_at=now) for _ in range(rows)]
        started = time.perf_counter()
        for entry in entries:
            writer.record(entry)
        recorded = time.perf_counter() - started
        started = time.perf_counter()
        await writer.flush()
        flushed = time.perf_counter() - started
        await writer.close()
        await engine.dispose()
        assert writer.written == rows, (writer.written, writer.dropped)
        return rows / flushed, recorded / rows * 1e6

    return asyncio.run(run())


def bench_load(proxy: Proxy, duration: float, concurrency: int, kill: bool, run: str) -> dict[str, float]:
    """Load the proxy (killing it halfway with ``kill``); the counts of the report's rows."""
    load = Load()
    before = proxy.metrics()
    started = time.monotonic()
    until = started + duration
    driver = _in_thread(_drive(proxy, concurrency, until, load, run))
    out: dict[str, float] = {}
    if kill:
        time.sleep(duration / 2)
        proxy.stop(signal.SIGKILL)
        answered = set(load.answered)
        out["answered_at_kill"] = len(answered)
        out["missing_after_kill"] = len(answered - _ids(proxy.database_url))
        proxy.start()
        out["missing_after_restart"] = len(answered - _ids(proxy.database_url))
        out["replayed"] = proxy.metrics().get("thrifty_proxy_request_log_replayed_total", 0.0)
    driver.join()
    elapsed = time.monotonic() - started
    after = proxy.metrics()
    out["rps"] = len(load.answered) / elapsed
    if not kill:
        out["rows_per_s"] = (after.get("thrifty_proxy_request_log_written_total", 0)
                             - before.get("thrifty_proxy_request_log_written_total", 0)) / elapsed
    out["dropped"] = after.get("thrifty_proxy_request_log_dropped_total", 0.0)
    out["backpressure_waits"] = after.get("thrifty_proxy_request_log_backpressure_waits_total", 0.0)
    out["max_pending"] = load.max_pending
    out["failed"] = load.failed
    deadline = time.monotonic() + 60
    while proxy.metrics().get("thrifty_proxy_request_log_pending", 0) and time.monotonic() < deadline:
        time.sleep(0.2)
    out["answered"] = len(load.answered)
    out["missing_at_end"] = len(set(load.answered) - _ids(proxy.database_url))
    return out


def _in_thread(coro):
    """Run ``coro`` on its own event loop in a thread (the load must not share the caller's)."""
    import threading

    thread = threading.Thread(target=asyncio.run, args=(coro,), daemon=True)
    thread.start()
    return thread


def _create_pg(admin_url: str) -> tuple[str, str]:
    import asyncpg

    name = f"thrifty_bench_{uuid.uuid4().hex[:8]}"
    dsn = admin_url.replace("postgresql+asyncpg://", "postgresql://")

    async def run(sql: str) -> None:
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run(f'CREATE DATABASE "{name}"'))
    base = admin_url.rsplit("/", 1)[0]
    if base.startswith("postgresql://"):
        base = "postgresql+asyncpg://" + base.removeprefix("postgresql://")
    return f"{base}/{name}", name


def _drop_pg(admin_url: str, name: str) -> None:
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(admin_url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    asyncio.run(run())


def run(args: argparse.Namespace) -> str:
    stub_port = free_port()
    stub = subprocess.Popen([sys.executable, "-m", "benchmarks.proxy.stub", "--port", str(stub_port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    lines = [f"| database | writer alone (rows/s, record µs) | proxy answered/s | writer rows/s under load | "
             f"max queued | dropped | back-pressure waits | answered without a row | kill -9 (x{args.kill_runs}): "
             f"answered at kill / not in DB at kill / lost after restart |", "|---|---|---|---|---|---|---|---|---|"]
    try:
        wait_healthy(f"http://127.0.0.1:{stub_port}", stub, what="the stub upstream")
        targets = ["sqlite"] + (["postgresql"] if args.postgres else [])
        for target in targets:
            with tempfile.TemporaryDirectory(prefix="thrifty-bench-log-") as workdir:
                dropped_db = None
                if target == "sqlite":
                    url = f"sqlite+aiosqlite:///{os.path.join(workdir, 'log.db')}"
                else:
                    url, dropped_db = _create_pg(args.postgres)
                try:
                    rows_s, record_us = bench_writer(url, args.rows, workdir)
                    proxy = Proxy(workdir, stub_port, url)
                    proxy.start()
                    try:
                        steady = bench_load(proxy, args.duration, args.concurrency, False, f"{target}-steady")
                        kills = [bench_load(proxy, args.duration, args.concurrency, True, f"{target}-kill{n}")
                                 for n in range(args.kill_runs)]
                    finally:
                        proxy.stop()
                finally:
                    if dropped_db:
                        _drop_pg(args.postgres, dropped_db)
            kill_text = "; ".join(f"{k['answered_at_kill']:.0f} / {k['missing_after_kill']:.0f} / "
                                  f"{k['missing_after_restart']:.0f}" for k in kills)
            lines.append(f"| {target} | {rows_s:,.0f} rows/s, {record_us:.1f} µs | {steady['rps']:.0f} | "
                         f"{steady['rows_per_s']:.0f} | {steady['max_pending']:.0f} | {steady['dropped']:.0f} | "
                         f"{steady['backpressure_waits']:.0f} | {steady['missing_at_end']:.0f} of "
                         f"{steady['answered']:.0f} | {kill_text} |")
    finally:
        stub.terminate()
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench request-log", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of load per run (default 20)")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--rows", type=int, default=50_000, help="entries for the writer-alone measurement")
    parser.add_argument("--kill-runs", type=int, default=3, help="kill -9 runs per database (default 3)")
    parser.add_argument("--postgres", default="", metavar="URL",
                        help="also measure PostgreSQL: an admin URL where a throwaway database is created")
    args = parser.parse_args(argv)
    if args.duration <= 0 or args.concurrency < 1 or args.rows < 1 or args.kill_runs < 0:
        parser.error("--duration, --concurrency, --rows must be positive and --kill-runs not negative")
    print(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

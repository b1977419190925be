"""The request log survives kill -9: every answered request has its row after a restart.

A real ``thrifty proxy serve`` runs in front of a scripted upstream (the upstream is not what is
tested). The writer is set never to flush on its own during the test (hour-long interval, huge
batches), so every row must come back from the write-ahead journal; a restart replays it.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import httpx

from proxy.launch.health import ExitedEarly, wait_until_healthy
from proxy.launch.supervisor import free_port
from tests.support.servers import ScriptedUpstream, serve_in_thread

CHAT = {"model": "gpt-test", "messages": [{"role": "user", "content": "hi"}]}


def _start(config: Path, tmp_path: Path, port: int, extra_env: dict[str, str]) -> subprocess.Popen:
    env = {**os.environ, "THRIFTY_BUNDLED__ENABLED": "false", "THRIFTY_DATA_DIR": str(tmp_path),
           "THRIFTY_ROUTER__ENABLED": "false", "THRIFTY_CACHE__SEMANTIC": "false", "THRIFTY_CACHE__ENABLED": "false",
           "THRIFTY_PROXY__ACCESS_LOG": "false", **extra_env}
    proc = subprocess.Popen([sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", str(config), "--port",
                             str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if wait_until_healthy(f"http://127.0.0.1:{port}/health", timeout_s=60, poll_s=0.1, process=proc,
                              probe_timeout_s=1):
            return proc
    except ExitedEarly:
        raise AssertionError("the proxy exited during start-up") from None
    raise AssertionError("the proxy did not become healthy")


def _metric(text: str, name: str) -> float:
    return next(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " "))


def test_kill_9_under_load_loses_no_answered_row(tmp_path):
    with serve_in_thread(ScriptedUpstream()) as up:
        config = tmp_path / "t.toml"
        config.write_text(f'[[upstreams]]\nname = "fake"\nbase_url = "{up}/v1"\n'
                          '[models.gpt-test]\nupstream = "fake"\nmodel = "m"\n')
        port = free_port()
        never_flush = {"THRIFTY_PROXY__LOG_FLUSH_INTERVAL_S": "3600", "THRIFTY_PROXY__LOG_BATCH_SIZE": "10000000",
                       "THRIFTY_PROXY__LOG_BACKPRESSURE_ROWS": "10000000",
                       "THRIFTY_PROXY__LOG_MAX_PENDING": "10000000"}
        proc = _start(config, tmp_path, port, never_flush)
        answered: list[str] = []
        lock = threading.Lock()
        enough = threading.Event()

        def client(worker: int) -> None:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
                for i in range(100_000):
                    rid = f"w{worker}-{i}"
                    try:
                        reply = http.post("/v1/chat/completions", json=CHAT, headers={"x-request-id": rid})
                    except httpx.HTTPError:
                        return  # the proxy is gone
                    if reply.status_code == 200:
                        with lock:
                            answered.append(rid)
                            if len(answered) >= 300:
                                enough.set()

        workers = [threading.Thread(target=client, args=(w,), daemon=True) for w in range(8)]
        for worker in workers:
            worker.start()
        try:
            assert enough.wait(120), "the load did not get going"
            os.kill(proc.pid, signal.SIGKILL)  # under load: requests are in flight
            proc.wait(timeout=30)
            for worker in workers:
                worker.join(timeout=60)
            with sqlite3.connect(tmp_path / "thrifty.db") as db:
                before = db.execute("select count(*) from request_log").fetchone()[0]
            restarted = _start(config, tmp_path, port, {})
            try:
                metrics = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
            finally:
                restarted.terminate()
                restarted.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
    with sqlite3.connect(tmp_path / "thrifty.db") as db:
        stored = {row[0] for row in db.execute("select client_request_id from request_log")}
        total = db.execute("select count(*) from request_log").fetchone()[0]
    assert before == 0  # nothing reached the database before the kill: every row below came from the journal
    assert set(answered) <= stored, f"{len(set(answered) - stored)} answered requests have no row"
    assert total == len(stored)  # one row per request, none replayed twice
    assert _metric(metrics, "thrifty_proxy_request_log_replayed_total") >= len(answered)
    journal = tmp_path / "request-log-journal"
    assert not [p for p in journal.rglob("*.jsonl") if p.stat().st_size]  # replayed, then removed

"""Crash safety: ``kill -9`` of the proxy process mid-batch, a restart, every ``custom_id`` exactly once
in the output, and upstream calls made again only for the lines leased at the kill (at most the
worker's concurrency); on PostgreSQL, two workers never run the same line."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from proxy.batch.queue import BatchQueue, now_utc
from proxy.batch.validation import BatchLineSpec
from proxy.launch.health import ExitedEarly, wait_until_healthy
from proxy.launch.supervisor import free_port
from proxy.storage.db import BatchLine, create_engine
from proxy.storage.migrate import upgrade
from tests.support.servers import ScriptedUpstream, serve_in_thread

LINES = 120
CONCURRENCY = 4  # [batch] concurrency of the proxy under test: the most lines it leases at once (one upstream)


def _config(tmp_path: Path, upstream: str, database_url: str) -> Path:
    config = tmp_path / "thrifty.toml"
    config.write_text(f"""
data_dir = "{tmp_path / 'data'}"
[database]
url = "{database_url}"
[bundled]
enabled = false
[cache]
enabled = false
[router]
enabled = false
[batch]
concurrency = {CONCURRENCY}
lease_s = 2.0
poll_interval_s = 0.05
[[upstreams]]
name = "fake"
base_url = "{upstream}/v1"
[models.gpt-test]
upstream = "fake"
model = "upstream-model"
""")
    return config


def _start(config: Path, port: int, log: Path) -> subprocess.Popen:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", str(config),
                             "--port", str(port)], stdout=log.open("ab"), stderr=subprocess.STDOUT, env=env)
    try:
        if wait_until_healthy(f"http://127.0.0.1:{port}/health", timeout_s=60, poll_s=0.1, process=proc,
                              probe_timeout_s=1):
            return proc
    except ExitedEarly:
        raise AssertionError(log.read_text()) from None
    proc.kill()
    raise AssertionError("proxy did not start:\n" + log.read_text())


def _status(base: str, batch_id: str) -> dict:
    return httpx.get(f"{base}/v1/batches/{batch_id}", headers={"authorization": "Bearer sk-crash"}).json()


def _kill_mid_batch_and_resume(tmp_path: Path, database_url: str) -> None:
    script = ScriptedUpstream(echo=True, delay_s=0.03)
    with serve_in_thread(script) as upstream:
        config, port, log = _config(tmp_path, upstream, database_url), free_port(), tmp_path / "proxy.log"
        base, auth = f"http://127.0.0.1:{port}", {"authorization": "Bearer sk-crash"}
        proc = _start(config, port, log)
        try:
            lines = b"".join(json.dumps({"custom_id": f"id-{i}", "method": "POST", "url": "/v1/chat/completions",
                                         "body": {"model": "gpt-test", "messages": [{"role": "user",
                                                                                     "content": f"q{i}"}]}}
                                        ).encode() + b"\n" for i in range(LINES))
            file_id = httpx.post(f"{base}/v1/files", headers=auth, data={"purpose": "batch"},
                                 files={"file": ("in.jsonl", lines)}).json()["id"]
            batch_id = httpx.post(f"{base}/v1/batches", headers=auth, json={
                "input_file_id": file_id, "endpoint": "/v1/chat/completions", "completion_window": "24h"}).json()["id"]
            deadline = time.monotonic() + 60
            while _status(base, batch_id)["request_counts"]["completed"] < LINES // 3:
                assert time.monotonic() < deadline, "the batch made no progress"
                time.sleep(0.05)
            proc.send_signal(signal.SIGKILL)  # lines are in flight: their leases must run out and be retried
            proc.wait(timeout=10)
            leased = _leased_custom_ids(database_url)  # the database as the killed process left it
            called_before = _calls_per_custom_id(script)
            assert sum(called_before.values()) < LINES
            proc = _start(config, port, log)
            deadline = time.monotonic() + 90
            while (status := _status(base, batch_id))["status"] != "completed":
                assert time.monotonic() < deadline, status
                time.sleep(0.1)
            assert status["request_counts"] == {"total": LINES, "completed": LINES, "failed": 0}
            assert status["error_file_id"] is None
            output = httpx.get(f"{base}/v1/files/{status['output_file_id']}/content", headers=auth).text
        finally:
            proc.kill()
            proc.wait(timeout=10)
    ids = Counter(json.loads(line)["custom_id"] for line in output.splitlines())
    assert ids == Counter(f"id-{i}" for i in range(LINES))  # each exactly once
    for line in output.splitlines():
        item = json.loads(line)
        assert item["response"]["body"]["choices"][0]["message"]["content"] == "echo: q" + item["custom_id"][3:]
    # the upstream calls: before the kill each line was sent at most once; after it, a line was sent
    # again only if the killed process held its lease, and the leases it held were at most its concurrency
    assert max(called_before.values()) == 1, called_before.most_common(3)
    assert len(leased) <= CONCURRENCY, leased
    calls = _calls_per_custom_id(script)
    assert set(calls) == set(ids)  # every line reached the upstream
    again = {custom_id for custom_id, n in calls.items() if n > 1}
    assert again <= leased, f"sent again without a lease at the kill: {sorted(again - leased)}"
    assert max(calls.values()) <= 2 and sum(calls.values()) <= LINES + len(leased), calls.most_common(5)


def _calls_per_custom_id(script: ScriptedUpstream) -> Counter:
    """Upstream chat calls per batch line (the line's ``custom_id`` ``id-N`` asked ``qN``)."""
    return Counter("id-" + r["messages"][-1]["content"][1:] for r in list(script.requests)
                   if r["_path"].endswith("/chat/completions"))


def _leased_custom_ids(database_url: str) -> set[str]:
    """The ``custom_id`` of every batch line in ``running`` state: leased by a worker, not yet answered."""
    async def read(engine) -> set[str]:
        async with engine.connect() as conn:
            rows = await conn.execute(select(BatchLine.custom_id).where(BatchLine.state == "running"))
            return {row[0] for row in rows}

    async def run() -> set[str]:
        engine = create_engine(database_url)
        try:
            return await read(engine)
        finally:
            await engine.dispose()

    return asyncio.run(run())


@pytest.mark.e2e
def test_kill_9_mid_batch_on_sqlite_resumes_with_each_line_once(tmp_path):
    _kill_mid_batch_and_resume(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'thrifty.db'}")


@pytest.mark.e2e
def test_kill_9_mid_batch_on_postgresql_resumes_with_each_line_once(tmp_path, pg_database):
    _kill_mid_batch_and_resume(tmp_path, pg_database)


def _on_migrated_db(url: str, scenario):
    """Migrate the database at ``url`` and run ``scenario(engine)`` on it; returns its result."""
    upgrade(url)

    async def run():
        engine = create_engine(url)
        try:
            return await scenario(engine)
        finally:
            await engine.dispose()

    return asyncio.run(run())


async def _two_workers(engine) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    first, second = BatchQueue(engine, "worker-a", 30), BatchQueue(engine, "worker-b", 30)
    now = now_utc()
    batch = await first.create("key-x", "file-x", "/v1/chat/completions", "24h", None, False, now)
    specs = [BatchLineSpec(i, f"c{i}", {"model": "m"}) for i in range(1, 401)]
    assert await first.start(batch.id, specs, now)

    async def drain(queue: BatchQueue) -> list[tuple[str, int]]:
        taken: list[tuple[str, int]] = []
        while lines := await queue.claim(7, now_utc(), window_open=True):
            for line in lines:
                taken.append((line.batch_id, line.line_no))
                assert await queue.finish(line, "{}", False, now_utc())
        return taken

    a, b = await asyncio.gather(drain(first), drain(second))
    # a dead worker's line comes back only after its lease: a claim now gets nothing
    assert await first.claim(5, now_utc() + timedelta(seconds=1), window_open=True) == []
    return a, b


def test_two_workers_on_postgresql_never_run_the_same_line(pg_database):
    a, b = _on_migrated_db(pg_database, _two_workers)
    assert a and b, "both workers should have claimed lines"
    assert not set(a) & set(b)
    assert len(a) + len(b) == 400


async def _lease_expiry(engine) -> None:
    dead, alive = BatchQueue(engine, "dead", 10), BatchQueue(engine, "alive", 10)
    now = now_utc()
    batch = await dead.create("key-x", "file-x", "/v1/chat/completions", "24h", None, False, now)
    await dead.start(batch.id, [BatchLineSpec(1, "only", {"model": "m"})], now)
    [held] = await dead.claim(1, now, window_open=True)
    assert await alive.claim(1, now + timedelta(seconds=5), window_open=True) == []
    [taken] = await alive.claim(1, now + timedelta(seconds=11), window_open=True)
    assert taken.attempts == 2
    assert not await dead.finish(held, '{"late": true}', False, now_utc())  # the dead worker's answer is dropped
    assert await alive.finish(taken, '{"ok": true}', False, now_utc())
    assert await alive.results(batch.id) == [(False, '{"ok": true}')]


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_an_expired_lease_passes_the_line_to_another_worker(database, tmp_path, request):
    url = f"sqlite+aiosqlite:///{tmp_path / 'q.db'}" if database == "sqlite" else request.getfixturevalue("pg_database")
    _on_migrated_db(url, _lease_expiry)


async def _window(engine) -> None:
    queue = BatchQueue(engine, "w", 10)
    now = now_utc()
    nightly = await queue.create("k", "f", "/v1/chat/completions", "24h", None, False, now)
    urgent = await queue.create("k", "f", "/v1/chat/completions", "24h", {"thrifty_urgent": "true"}, True,
                                now + timedelta(seconds=1))
    for batch in (nightly, urgent):
        await queue.start(batch.id, [BatchLineSpec(1, "a", {}), BatchLineSpec(2, "b", {})], now)
    closed = await queue.claim(10, now, window_open=False)
    assert {line.batch_id for line in closed} == {urgent.id}
    opened = await queue.claim(10, now, window_open=True)
    assert {line.batch_id for line in opened} == {nightly.id}


def test_the_window_holds_lines_back_unless_urgent(tmp_path):
    _on_migrated_db(f"sqlite+aiosqlite:///{tmp_path / 'q.db'}", _window)


async def _expiry(engine) -> None:
    queue = BatchQueue(engine, "w", 10)
    created = now_utc()
    batch = await queue.create("k", "f", "/v1/chat/completions", "24h", None, False, created)
    await queue.start(batch.id, [BatchLineSpec(i, f"c{i}", {}) for i in (1, 2, 3)], created)
    [first] = await queue.claim(1, created, window_open=True)
    assert await queue.finish(first, '{"custom_id": "c1"}', False, created)
    later = created + timedelta(hours=24, seconds=1)
    assert await queue.expire_due(later) == [batch.id]
    assert await queue.expire_due(later) == []
    assert await queue.ready_to_finalize(later) == [batch.id]
    assert await queue.begin_finalizing(batch.id, later)
    results = await queue.results(batch.id)
    assert [e for e, _ in results] == [False, True, True]
    assert all(json.loads(r)["error"]["code"] == "batch_expired" for e, r in results if e)
    status = await queue.complete(batch.id, "file-o", "file-e", await queue.counts(batch.id), later)
    assert status == "expired"
    final = await queue.get(batch.id)
    assert final is not None and final.expired_at is not None and (final.completed, final.failed) == (1, 2)


def test_expiry_writes_waiting_lines_as_batch_expired(tmp_path):
    _on_migrated_db(f"sqlite+aiosqlite:///{tmp_path / 'q.db'}", _expiry)


def test_batch_settings_are_checked():
    from proxy.config.settings import SettingsError, load_settings

    with pytest.raises(SettingsError, match="window"):
        load_settings(environ={"THRIFTY_BATCH__WINDOW": "late at night"})
    with pytest.raises(SettingsError, match="timezone"):
        load_settings(environ={"THRIFTY_BATCH__TIMEZONE": "Mars/Olympus"})
    with pytest.raises(SettingsError, match="discount"):
        load_settings(environ={"THRIFTY_BATCH__DISCOUNT": "1.5"})
    settings = load_settings(environ={"THRIFTY_BATCH__WINDOW": "01:00-06:00", "THRIFTY_BATCH__TIMEZONE": "Europe/Paris"})
    assert replace(settings.batch).window == "01:00-06:00"

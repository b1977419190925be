"""A cancelled batch always ends ``cancelled``, even when lines it had running were handed back or
left behind by a worker that stopped (graceful shutdown) or died (``kill -9``) after the cancel:
the real queue on SQLite, and a fresh worker's ticks."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

from sqlalchemy import text

from proxy.batch.files import FileLimits, FileStore
from proxy.batch.queue import BatchQueue, now_utc, output_line
from proxy.batch.validation import BatchLineSpec
from proxy.batch.worker import BatchWorker
from proxy.config.batch_window import BatchWindow
from proxy.config.sections import BatchSettings
from proxy.storage.db import create_engine
from proxy.storage.migrate import upgrade

LEASE_S = 10


def _on_sqlite(tmp_path: Path, scenario) -> None:
    """Run ``scenario(engine)`` on a migrated SQLite database in ``tmp_path``."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'q.db'}"
    upgrade(url)

    async def run() -> None:
        engine = create_engine(url)
        try:
            await scenario(engine)
        finally:
            await engine.dispose()

    asyncio.run(run())


def _fresh_worker(engine, tmp_path: Path, clock: list[datetime]) -> BatchWorker:
    """The worker of a restarted proxy (its own owner id); its clock reads ``clock[0]``."""
    files = FileStore(engine, tmp_path / "files", FileLimits(10**6, 100))
    return BatchWorker(BatchQueue(engine, "restarted", LEASE_S), files, SimpleNamespace(), BatchSettings(),
                       BatchWindow.parse("always", ""), clock=lambda: clock[0])


def _answer(custom_id: str) -> str:
    return output_line(custom_id, "req", 200, {"choices": [{"message": {"content": "ok"}}]})


async def _stopped_and_killed_after_cancel(engine, tmp_path: Path) -> None:
    old = BatchQueue(engine, "before-restart", LEASE_S)
    start = now_utc()
    batch = await old.create("key", "file-in", "/v1/chat/completions", "24h", None, False, start)
    await old.start(batch.id, [BatchLineSpec(i, f"c{i}", {"model": "m"}) for i in (1, 2, 3, 4)], start)
    answered, handed_back, orphaned = await old.claim(3, start, window_open=True)
    assert await old.finish(answered, _answer("c1"), False, start)
    assert await old.cancel(batch.id, start) == "cancelling"  # c4 (waiting) is skipped; c2 and c3 run on
    await old.retry_later(handed_back, start)  # graceful shutdown hands c2 back; c3 keeps a lease (kill -9)

    clock = [start + timedelta(seconds=1)]
    worker = _fresh_worker(engine, tmp_path, clock)
    await worker.tick()
    still = await old.get(batch.id)
    assert still is not None and still.status == "cancelling"  # c3's lease still runs: its worker may answer
    assert (await old.counts(batch.id)).open == 1

    clock[0] = start + timedelta(seconds=LEASE_S + 1)  # c3's lease ran out: nobody will answer it
    await worker.tick()
    final = await old.get(batch.id)
    assert final is not None and final.status == "cancelled" and final.cancelled_at is not None
    assert (final.total, final.completed, final.failed) == (4, 1, 3)
    assert not await old.finish(orphaned, _answer("c3"), False, now_utc())  # a late answer is dropped
    output = (tmp_path / "files" / f"{final.output_file_id}.jsonl").read_text().splitlines()
    errors = [json.loads(x) for x in (tmp_path / "files" / f"{final.error_file_id}.jsonl").read_text().splitlines()]
    assert [json.loads(x)["custom_id"] for x in output] == ["c1"]
    assert [(x["custom_id"], x["error"]["code"]) for x in errors] == [
        ("c2", "batch_cancelled"), ("c3", "batch_cancelled"), ("c4", "batch_cancelled")]


def test_a_cancelled_batch_with_lines_left_by_a_stopped_or_killed_worker_ends_cancelled(tmp_path):
    _on_sqlite(tmp_path, lambda engine: _stopped_and_killed_after_cancel(engine, tmp_path))


async def _retry_after_cancel(engine, tmp_path: Path) -> None:
    queue = BatchQueue(engine, "only", LEASE_S)
    start = now_utc()
    batch = await queue.create("key", "file-in", "/v1/chat/completions", "24h", None, False, start)
    await queue.start(batch.id, [BatchLineSpec(1, "c1", {"model": "m"})], start)
    [line] = await queue.claim(1, start, window_open=True)
    assert await queue.cancel(batch.id, start) == "cancelling"
    await queue.retry_later(line, start + timedelta(seconds=30))  # a 503 after the cancel: back off, retry later
    assert await queue.ready_to_finalize(start) == []
    assert await queue.skip_abandoned(start) == [batch.id]
    assert await queue.ready_to_finalize(start) == [batch.id]
    assert [json.loads(r)["error"]["code"] for _, r in await queue.results(batch.id)] == ["batch_cancelled"]
    assert await queue.skip_abandoned(start) == [batch.id]  # nothing left to skip: harmless
    assert len(await queue.results(batch.id)) == 1


def test_a_line_handed_back_for_a_retry_after_the_cancel_is_skipped(tmp_path):
    _on_sqlite(tmp_path, lambda engine: _retry_after_cancel(engine, tmp_path))


def test_a_batch_started_while_it_is_cancelled_ends_cancelling_not_in_progress(tmp_path):
    """A worker moves the batch from validating to in_progress (and commits) just before the cancel's write:
    the cancel must still win. Before, it read the status, then updated only where the status was still the one
    it read: the update missed, the lines were skipped anyway, and the batch ended "completed" with every line
    failed (seen once in a CI run of tests/proxy/batch/test_cli.py)."""
    import sqlite3

    from sqlalchemy import event

    async def scenario(engine) -> None:
        queue = BatchQueue(engine, "owner", LEASE_S)
        start = now_utc()
        batch = await queue.create("key", "file-in", "/v1/chat/completions", "24h", None, False, start)
        flipped = []

        def start_first(conn, cursor, statement, parameters, context, executemany) -> None:
            if statement.lstrip().upper().startswith("UPDATE BATCH ") and "cancelling" in str(parameters) \
                    and not flipped:
                with sqlite3.connect(tmp_path / "q.db") as other:  # the other worker's committed start
                    other.execute("UPDATE batch SET status = 'in_progress' WHERE id = ?", (batch.id,))
                flipped.append(True)

        event.listen(engine.sync_engine, "before_cursor_execute", start_first)
        assert await queue.cancel(batch.id, start) == "cancelling"
        event.remove(engine.sync_engine, "before_cursor_execute", start_first)
        assert flipped
        async with engine.connect() as conn:
            status = await conn.scalar(text("SELECT status FROM batch WHERE id = :id"), {"id": batch.id})
        assert status == "cancelling"

    _on_sqlite(tmp_path, scenario)

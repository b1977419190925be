"""The batched request-log writer."""

from __future__ import annotations

from sqlalchemy import func, select

from proxy.storage.db import RequestLog, create_engine
from proxy.storage.migrate import upgrade
from proxy.storage.request_log import LogEntry, RequestLogWriter


async def test_entries_are_written_in_batches_and_close_flushes_everything(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"
    import asyncio

    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    writer = RequestLogWriter(engine, flush_interval_s=0.05, batch_size=7)
    writer.start()
    for i in range(50):
        writer.record(LogEntry(id=f"r{i}", key_id="k", endpoint="chat", status_code=200, prompt_tokens=i))
    await writer.close()
    async with engine.connect() as conn:
        count = (await conn.execute(select(func.count()).select_from(RequestLog))).scalar_one()
        total = (await conn.execute(select(func.sum(RequestLog.prompt_tokens)))).scalar_one()
    await engine.dispose()
    assert count == 50 and total == sum(range(50)) and writer.written == 50


async def test_a_database_failure_does_not_raise(tmp_path):
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'no-tables.db'}")  # never migrated
    writer = RequestLogWriter(engine, flush_interval_s=0.01)
    writer.record(LogEntry(id="x", key_id="k", endpoint="chat", status_code=200))
    await writer.flush()  # logs the error, raises nothing
    assert writer.written == 0
    await engine.dispose()


async def test_one_bad_entry_loses_only_itself_not_its_batch(tmp_path):
    import asyncio

    url = f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    writer = RequestLogWriter(engine, flush_interval_s=0.01, batch_size=50)
    for i in (0, 1, 2, 3):
        writer.record(LogEntry(id=f"r{i}", key_id="k", endpoint="chat", status_code=200))
    writer.record(LogEntry(id="bad", key_id="k", endpoint="chat", status_code=None))  # type: ignore[arg-type]
    await writer.flush()
    async with engine.connect() as conn:
        ids = sorted((await conn.execute(select(RequestLog.id))).scalars())
    await engine.dispose()
    assert ids == ["r0", "r1", "r2", "r3"] and (writer.written, writer.dropped) == (4, 1)


async def test_a_repeated_client_request_id_never_fails_a_batch(tmp_path):
    """Rows carry the proxy's own id; a caller's repeated x-request-id is stored beside it, so one
    client repeating its id neither fails the batch nor costs anybody's row."""
    import asyncio

    url = f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    writer = RequestLogWriter(engine, flush_interval_s=0.01, batch_size=50)
    for i, status in enumerate((200, 404)):
        writer.record(LogEntry(id=f"req-{i}", client_request_id="my-trace", key_id="k", endpoint="chat",
                               status_code=status))
    for i in range(20):  # other callers' rows in the same batch
        writer.record(LogEntry(id=f"other-{i}", key_id="k2", endpoint="chat", status_code=200))
    await writer.flush()
    writer.record(LogEntry(id="req-2", client_request_id="my-trace", key_id="k", endpoint="chat", status_code=500))
    await writer.flush()
    async with engine.connect() as conn:
        rows = sorted((await conn.execute(select(RequestLog.id, RequestLog.status_code)
                                          .where(RequestLog.client_request_id == "my-trace"))).all())
        total = (await conn.execute(select(func.count()).select_from(RequestLog))).scalar_one()
    await engine.dispose()
    assert rows == [("req-0", 200), ("req-1", 404), ("req-2", 500)] and total == 23
    assert (writer.written, writer.dropped) == (23, 0)


async def test_close_does_not_wait_out_a_long_flush_interval(tmp_path):
    """A writer batching for a minute still stops promptly on close, writing what it held."""
    import asyncio

    url = f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    writer = RequestLogWriter(engine, flush_interval_s=3600)
    writer.start()
    writer.record(LogEntry(id="held", key_id="k", endpoint="chat", status_code=200))
    await asyncio.sleep(0.05)  # the writer has taken the entry and is waiting for more
    await asyncio.wait_for(writer.close(), timeout=30)  # would hang for an hour before the fix
    await engine.dispose()
    assert writer.written == 1


async def test_every_column_value_the_pipeline_writes_fits_postgresql(pg_database):
    """PostgreSQL enforces string lengths that SQLite ignores: the longest values the pipeline
    writes (cascade outcome, cache outcome, tier name) must be stored, not make the batch fail."""
    import asyncio

    await asyncio.to_thread(upgrade, pg_database)
    engine = create_engine(pg_database)
    writer = RequestLogWriter(engine, flush_interval_s=0.05)
    writer.start()
    for outcome in ("accepted", "escalated", "escalation_failed"):
        writer.record(LogEntry(id=f"r-{outcome}", key_id="k", endpoint="chat", status_code=200, route="small",
                               cache_outcome="semantic", cascade_outcome=outcome, extra_cost_usd=1.0))
    await writer.close()
    async with engine.connect() as conn:
        stored = set((await conn.execute(select(RequestLog.cascade_outcome))).scalars())
    await engine.dispose()
    assert stored == {"accepted", "escalated", "escalation_failed"} and writer.written == 3


async def test_a_full_queue_drops_entries_and_counts_them(tmp_path, caplog):
    """Past max_pending queued entries (a database that cannot keep up), new ones are dropped,
    counted and logged once; the request that made them is never blocked."""
    import asyncio
    import logging

    url = f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    writer = RequestLogWriter(engine, flush_interval_s=0.01, max_pending=3)  # not started: nothing drains it
    with caplog.at_level(logging.WARNING, logger="proxy.storage.request_log"):
        for i in range(5):
            writer.record(LogEntry(id=f"q{i}", key_id="k", endpoint="chat", status_code=200))
    assert writer.dropped == 2 and caplog.text.count("request log queue full") == 1
    await writer.flush()
    async with engine.connect() as conn:
        ids = sorted((await conn.execute(select(RequestLog.id))).scalars())
    await engine.dispose()
    assert ids == ["q0", "q1", "q2"] and writer.written == 3


async def test_backpressure_holds_requests_before_anything_is_dropped(tmp_path):
    """Past backpressure_rows queued entries, room() makes callers wait until the writer has caught
    up; nothing is dropped, and the wait is counted for /metrics."""
    import asyncio

    url = f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    writer = RequestLogWriter(engine, flush_interval_s=3600, batch_size=1000, max_pending=100,
                              backpressure_rows=10, backpressure_max_wait_s=3600)
    writer.start()
    await writer.room()  # an idle writer holds nobody
    for i in range(10):
        writer.record(LogEntry(id=f"b{i}", key_id="k", endpoint="chat", status_code=200))
    assert writer.backpressure
    waiting = asyncio.create_task(writer.room())
    await asyncio.sleep(0)
    assert not waiting.done()  # held: the writer waits out its hour-long flush interval
    await writer.flush()  # the writer catches up
    await asyncio.wait_for(waiting, timeout=30)
    assert not writer.backpressure and writer.backpressure_waits == 1 and writer.dropped == 0
    await writer.close()
    await engine.dispose()
    assert writer.written == 10


async def test_a_dead_writers_journal_is_replayed_once_and_skips_rows_already_written(tmp_path):
    """Entries journaled but not written by a writer that died are written by the next one at start-up;
    rows that did reach the database are not written twice, and a line cut short by the crash is skipped."""
    import asyncio
    import os

    from proxy.storage.request_journal import RequestJournal

    url = f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    folder = tmp_path / "journal"
    dead = RequestLogWriter(engine, flush_interval_s=3600, journal=RequestJournal(folder))
    dead.start()
    dead.record(LogEntry(id="written", key_id="k", endpoint="chat", status_code=200))
    await dead.flush()  # in the database, its segment deleted
    for i in range(3):
        dead.record(LogEntry(id=f"lost-{i}", key_id="k", endpoint="chat", status_code=200, prompt_tokens=i,
                             routing_request={"messages": [{"role": "user", "content": "hi"}]}))
    segment = dead._journal._segment  # noqa: SLF001 - the test plays the crash
    with segment.open("ab") as handle:
        handle.write(b'{"id":"written","key_id":"k","endpoint":"chat","status_code":200}\n{"id":"cut-sh')
    dead._task.cancel()  # noqa: SLF001 - the process "dies": its task stops, its files close, nothing is flushed
    os.close(dead._journal._fd)  # noqa: SLF001
    os.close(dead._journal._lock_fd)  # noqa: SLF001

    heir = RequestLogWriter(engine, flush_interval_s=3600, journal=RequestJournal(folder))
    heir.start()
    assert await heir.replay() == 4 and await heir.replay() == 0  # the second start finds nothing left
    await heir.close()
    async with engine.connect() as conn:
        rows = dict((await conn.execute(select(RequestLog.id, RequestLog.prompt_tokens))).all())
    await engine.dispose()
    assert rows == {"written": None, "lost-0": 0, "lost-1": 1, "lost-2": 2}
    assert not list(folder.iterdir())  # the dead writer's files and the heir's are gone

"""The batched request-log writer."""

from __future__ import annotations

from sqlalchemy import func, select

from proxy.db import RequestLog, create_engine
from proxy.migrate import upgrade
from proxy.request_log import LogEntry, RequestLogWriter


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


async def test_a_repeated_request_id_keeps_both_rows(tmp_path):
    """A caller's x-request-id is the row id; a caller who repeats it must not lose the second row."""
    import asyncio

    url = f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    writer = RequestLogWriter(engine, flush_interval_s=0.01, batch_size=50)
    for status in (200, 404):
        writer.record(LogEntry(id="my-trace", key_id="k", endpoint="chat", status_code=status))
    await writer.flush()
    writer.record(LogEntry(id="my-trace", key_id="k", endpoint="chat", status_code=500))  # in a later batch too
    await writer.flush()
    async with engine.connect() as conn:
        rows = sorted((await conn.execute(select(RequestLog.id, RequestLog.status_code))).all(), key=lambda r: r[1])
    await engine.dispose()
    assert [r[1] for r in rows] == [200, 404, 500] and rows[0][0] == "my-trace"
    assert all(r[0].startswith("my-trace~") for r in rows[1:]) and (writer.written, writer.dropped) == (3, 0)


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
    counted and logged; the request that made them is never blocked."""
    import asyncio
    import logging

    url = f"sqlite+aiosqlite:///{tmp_path / 'log.db'}"
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    writer = RequestLogWriter(engine, flush_interval_s=0.01, max_pending=3)  # not started: nothing drains it
    with caplog.at_level(logging.WARNING, logger="proxy.request_log"):
        for i in range(5):
            writer.record(LogEntry(id=f"q{i}", key_id="k", endpoint="chat", status_code=200))
    assert writer.dropped == 2 and "request log queue full; dropped entry q3" in caplog.text
    await writer.flush()
    async with engine.connect() as conn:
        ids = sorted((await conn.execute(select(RequestLog.id))).scalars())
    await engine.dispose()
    assert ids == ["q0", "q1", "q2"] and writer.written == 3

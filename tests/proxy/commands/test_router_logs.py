"""Stored routed requests and ``thrifty router export-logs`` on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from proxy.commands.router_logs import (
    ExportError,
    combine_feedback,
    export_logs,
    load_cascaded_requests,
    load_small_answers,
    parse_since,
    read_cascaded_requests,
    read_small_answers,
    run_export,
)
from proxy.pipeline.feedback import FeedbackRecord, store_feedback
from proxy.storage.db import RequestLog, RouterRequest, create_engine
from proxy.storage.migrate import upgrade
from proxy.storage.request_log import LogEntry, RequestLogWriter, routing_request_of

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def test_routing_request_keeps_only_what_the_router_reads():
    body = {"model": "thrifty-auto", "temperature": 0.2, "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "function"}], "response_format": {"type": "json_object"}, "user": "u-1",
            "functions": None}
    assert routing_request_of(body) == {"messages": body["messages"], "tools": body["tools"],
                                        "response_format": body["response_format"]}


def test_parse_since():
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert parse_since(None) is None and parse_since("  ") is None
    assert parse_since("7d", now) == now - timedelta(days=7)
    assert parse_since("30m", now) == now - timedelta(minutes=30)
    assert parse_since("2026-11-30") == datetime(2026, 11, 30, tzinfo=UTC)
    assert parse_since("2026-11-30T12:00:00+02:00") == datetime(2026, 11, 30, 10, tzinfo=UTC)
    with pytest.raises(ExportError, match="ISO date"):
        parse_since("last tuesday")


def test_user_feedback_outranks_checks_and_the_worst_check_counts():
    t = [T0 + timedelta(seconds=i) for i in range(4)]
    assert combine_feedback([(0.0, "json_check", t[0]), (1.0, "user", t[1])]) == (1.0, "user")
    assert combine_feedback([(1.0, "user", t[0]), (0.2, "user", t[2]), (0.9, "user", t[1])]) == (0.2, "user")
    assert combine_feedback([(1.0, "json_check", t[0]), (0.0, "json_check", t[1])]) == (0.0, "json_check")


async def _seed(url: str) -> None:
    """Four routed requests (three with stored bodies), one explicit-model request, and feedback."""
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    writer = RequestLogWriter(engine, flush_interval_s=0.01, batch_size=2)

    def entry(i: int, route: str | None, body: str | None, status: int = 200, key: str = "k1") -> LogEntry:
        routing = {"messages": [{"role": "user", "content": body}]} if body else None
        return LogEntry(id=f"r{i}", key_id=key, endpoint="chat", status_code=status, route=route,
                        created_at=T0 + timedelta(hours=i), routing_request=routing)

    for e in (entry(0, "small", "easy one"), entry(1, "small", "hard one"), entry(2, "large", "big one"),
              entry(3, "small", None), entry(4, None, None), entry(5, "small", "failed", status=502),
              entry(6, "small", "other tenant", key="k2")):
        writer.record(e)
    await writer.flush()
    assert writer.written == 7
    await store_feedback(engine, [
        FeedbackRecord("r0", "k1", 1.0, "user"), FeedbackRecord("r1", "k1", 0.0, "json_check"),
        FeedbackRecord("r2", "k1", 0.5, "user"), FeedbackRecord("r3", "k1", 0.0, "user"),
        FeedbackRecord("r4", "k1", 0.0, "user"), FeedbackRecord("r5", "k1", 0.0, "user"),
        FeedbackRecord("r6", "k1", 0.0, "user")])  # r6 belongs to k2: k1's opinion is ignored
    async with engine.connect() as conn:
        stored = (await conn.execute(select(RouterRequest.request_id).order_by(RouterRequest.request_id))).all()
        logged = (await conn.execute(select(RequestLog.id))).all()
    await engine.dispose()
    assert [r[0] for r in stored] == ["r0", "r1", "r2", "r5", "r6"] and len(logged) == 7


async def _export(url: str, since: datetime | None = None) -> list[dict]:
    engine = create_engine(url)
    out = io.StringIO()
    try:
        summary = await export_logs(engine, out, since)
    finally:
        await engine.dispose()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert summary.lines == len(lines)
    return lines


def _check_export(url: str) -> None:
    asyncio.run(_seed(url))
    lines = asyncio.run(_export(url))
    assert [(x["request_id"], x["served_tier"], x["score"], x["feedback"]) for x in lines] == [
        ("r0", "small", 1.0, "user"), ("r1", "small", 0.0, "json_check"), ("r2", "large", 0.5, "user")]
    assert lines[1]["request"] == {"messages": [{"role": "user", "content": "hard one"}]}
    later = asyncio.run(_export(url, since=T0 + timedelta(minutes=30)))
    assert [x["request_id"] for x in later] == ["r1", "r2"]


def test_export_on_sqlite(tmp_path):
    _check_export(f"sqlite+aiosqlite:///{tmp_path / 'p.db'}")



def test_export_on_postgresql(pg_database):
    _check_export(pg_database)


def test_run_export_writes_the_file_and_explains_an_empty_result(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    upgrade(url)
    said: list[str] = []
    summary = run_export(url, str(tmp_path / "out" / "logs.jsonl"), "7d", report=said.append)
    assert summary.lines == 0 and (tmp_path / "out" / "logs.jsonl").read_text() == ""
    assert any("store_requests" in line for line in said)


def test_an_unmigrated_database_is_a_clear_error(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'bare.db'}"
    (tmp_path / "bare.db").touch()
    with pytest.raises(ExportError, match="thrifty db upgrade"):
        run_export(url, str(tmp_path / "x.jsonl"), report=lambda _: None)
    assert not (tmp_path / "x.jsonl").exists()


def test_storing_request_bodies_is_opt_in():
    from proxy.config.settings import load_settings

    assert load_settings(environ={}).router.store_requests is False
    assert load_settings(environ={"THRIFTY_ROUTER__STORE_REQUESTS": "true"}).router.store_requests is True


async def _seed_cascade(url: str) -> None:
    """Cascaded requests with stored small answers: accepted, escalated (checked or not), a failed
    escalation, one without a stored answer, another tenant's; and their feedback."""
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    writer = RequestLogWriter(engine, flush_interval_s=0.01, batch_size=3)

    def entry(i: int, outcome: str, answer: str | None, key: str = "k1") -> LogEntry:
        return LogEntry(id=f"c{i}", key_id=key, endpoint="chat", status_code=200,
                        route="small" if outcome != "escalated" else "large", cascade_outcome=outcome,
                        created_at=T0 + timedelta(hours=i),
                        routing_request={"messages": [{"role": "user", "content": f"question {i}"}]},
                        small_answer=answer)

    for e in (entry(0, "accepted", "#### 4"), entry(1, "escalated", "not json"), entry(2, "escalated", "maybe 3"),
              entry(3, "escalation_failed", "kept 5"), entry(4, "accepted", None), entry(5, "accepted", "x", "k2")):
        writer.record(e)
    await writer.flush()
    await store_feedback(engine, [
        FeedbackRecord("c0", "k1", 0.0, "json_check"), FeedbackRecord("c0", "k1", 1.0, "user"),
        FeedbackRecord("c1", "k1", 0.0, "small_json_check"), FeedbackRecord("c1", "k1", 1.0, "user"),
        FeedbackRecord("c2", "k1", 1.0, "user"),  # judges the large answer: c2's small answer stays unjudged
        FeedbackRecord("c3", "k1", 0.2, "user"), FeedbackRecord("c4", "k1", 1.0, "user"),
        FeedbackRecord("c5", "k1", 0.0, "user")])  # c5 belongs to k2
    await engine.dispose()


def _read_with(url: str, reader):
    """``reader(engine)`` on a fresh engine for ``url``."""

    async def read():
        engine = create_engine(url)
        try:
            return await reader(engine)
        finally:
            await engine.dispose()

    return asyncio.run(read())


def _check_small_answers(url: str) -> None:
    asyncio.run(_seed_cascade(url))
    examples, summary = _read_with(url, read_small_answers)
    assert [(x.answer, x.quality, x.source, x.outcome) for x in examples] == [
        ("#### 4", 1.0, "user", "accepted"), ("not json", 0.0, "small_json_check", "escalated"),
        ("kept 5", 0.2, "user", "escalation_failed")]
    assert examples[0].request == {"messages": [{"role": "user", "content": "question 0"}]}
    assert (summary.cascaded, summary.examples, summary.unjudged_escalated) == (4, 3, 1)


def test_small_answers_on_sqlite(tmp_path):
    _check_small_answers(f"sqlite+aiosqlite:///{tmp_path / 's.db'}")


def test_small_answers_on_postgresql(pg_database):
    _check_small_answers(pg_database)


def _check_cascaded_requests(url: str) -> None:
    asyncio.run(_seed_cascade(url))
    got = [(r.request["messages"][0]["content"], r.outcome, r.quality, r.small_call_of_no_use)
           for r in _read_with(url, read_cascaded_requests)]
    assert got == [
        ("question 0", "accepted", 1.0, False),  # the user's score outranks the check
        ("question 1", "escalated", 0.0, True),
        ("question 2", "escalated", None, True),  # the user judged the large answer: escalation alone says it
        ("question 3", "escalation_failed", 0.2, True),  # served and judged bad
        # question 4 has no stored small answer (a failed small call looks so): left out
        ("question 5", "accepted", None, False),  # another tenant's feedback does not judge it
    ]


def test_cascaded_requests_on_sqlite(tmp_path):
    _check_cascaded_requests(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")


def test_cascaded_requests_on_postgresql(pg_database):
    _check_cascaded_requests(pg_database)


def test_readers_refuse_a_bad_url_and_a_missing_file_without_creating_it(tmp_path):
    missing = tmp_path / "nope" / "x.db"
    with pytest.raises(ExportError, match="no database file at"):
        load_cascaded_requests(f"sqlite+aiosqlite:///{missing}")
    assert not missing.parent.exists()
    with pytest.raises(ExportError, match="cannot use database URL 'notaurl'"):
        load_small_answers("notaurl")
    sync = tmp_path / "sync.db"
    sync.touch()
    with pytest.raises(ExportError, match="is synchronous"):
        load_cascaded_requests(f"sqlite+pysqlite:///{sync}")
    # a plain sqlite:/// URL is given its async driver: the (empty) file is read, and the missing schema named
    with pytest.raises(ExportError, match="thrifty db upgrade"):
        load_cascaded_requests(f"sqlite:///{sync}")


def test_run_export_refuses_a_missing_sqlite_file_without_creating_it(tmp_path):
    missing = tmp_path / "none.db"
    with pytest.raises(ExportError, match="no database file at"):
        run_export(f"sqlite+aiosqlite:///{missing}", str(tmp_path / "x.jsonl"), report=lambda _: None)
    assert not missing.exists() and not (tmp_path / "x.jsonl").exists()


def test_run_export_accepts_a_plain_sqlite_url_and_masks_passwords(tmp_path):
    url = f"sqlite:///{tmp_path / 'plain.db'}"
    upgrade(url)
    said: list[str] = []
    assert run_export(url, str(tmp_path / "logs.jsonl"), report=said.append).lines == 0
    said.clear()
    with pytest.raises(ExportError) as caught:
        run_export("postgresql+asyncpg://root:s3cretpw@127.0.0.1:1/x", str(tmp_path / "y.jsonl"), report=said.append)
    assert "s3cretpw" not in str(caught.value) + " ".join(said)
    assert any("root:" in line for line in said)

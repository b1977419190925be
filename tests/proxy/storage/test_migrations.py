"""Alembic migrations on SQLite and on the PostgreSQL server at 127.0.0.1:5432."""

from __future__ import annotations

import asyncio

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import create_async_engine

from caches.models import CacheBase
from proxy.storage.db import ProxyBase
from proxy.storage.migrate import alembic_config, upgrade


async def _tables(url: str) -> set[str]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
    finally:
        await engine.dispose()


def test_sqlite_upgrade_downgrade_upgrade(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'nested' / 'm.db'}"
    upgrade(url)
    assert "request_log" in asyncio.run(_tables(url))
    command.downgrade(alembic_config(url), "base")
    assert "request_log" not in asyncio.run(_tables(url))
    upgrade(url)
    upgrade(url)  # idempotent
    assert "request_log" in asyncio.run(_tables(url))



def test_postgresql_upgrade_and_downgrade(pg_database):
    upgrade(pg_database)
    assert "request_log" in asyncio.run(_tables(pg_database))
    command.downgrade(alembic_config(pg_database), "base")
    assert asyncio.run(_tables(pg_database)) <= {"alembic_version"}


async def _schema_diff(url: str) -> list:
    """What autogenerate would change to make the migrated schema match the models (the metadata
    that migrations/env.py compares against: the proxy's and the caches' tables)."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(lambda c: compare_metadata(
                MigrationContext.configure(c, opts={"compare_type": True}), [ProxyBase.metadata, CacheBase.metadata]))
    finally:
        await engine.dispose()


def test_the_migrations_create_exactly_the_models_schema(pg_database):
    upgrade(pg_database)
    assert asyncio.run(_schema_diff(pg_database)) == []


def _check_0004(url: str) -> None:
    """0004 adds router_request (with its columns) on top of 0003 and removes it again."""
    upgrade(url, "0003")
    assert "router_request" not in asyncio.run(_tables(url))
    upgrade(url, "0004")
    assert "router_request" in asyncio.run(_tables(url))
    assert asyncio.run(_columns(url, "router_request")) == {"request_id", "created_at", "request"}
    command.downgrade(alembic_config(url), "0003")
    assert "router_request" not in asyncio.run(_tables(url)) and "feedback" in asyncio.run(_tables(url))


async def _columns(url: str, table: str) -> set[str]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return {c["name"] for c in await conn.run_sync(lambda c: inspect(c).get_columns(table))}
    finally:
        await engine.dispose()


def test_0004_router_request_on_sqlite(tmp_path):
    _check_0004(f"sqlite+aiosqlite:///{tmp_path / 'm4.db'}")


def test_0004_router_request_on_postgresql(pg_database):
    _check_0004(pg_database)


async def _sql(url: str, statement: str) -> list[tuple]:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            result = await conn.execute(text(statement))
            return [tuple(row) for row in result.all()] if result.returns_rows else []
    finally:
        await engine.dispose()


def _check_0005(url: str) -> None:
    """0005 adds request_log.cascade_outcome on top of 0004 and removes it again, keeping the rows."""
    upgrade(url, "0004")
    assert "cascade_outcome" not in asyncio.run(_columns(url, "request_log"))
    asyncio.run(_sql(url, "insert into request_log (id, created_at, key_id, endpoint, stream, status_code, route) "
                          "values ('kept-1', '2026-01-01 00:00:00', 'k', 'chat', false, 200, 'small')"))
    upgrade(url, "0005")
    assert "cascade_outcome" in asyncio.run(_columns(url, "request_log"))
    command.downgrade(alembic_config(url), "0004")
    columns = asyncio.run(_columns(url, "request_log"))
    assert "cascade_outcome" not in columns and "route_score" in columns
    assert asyncio.run(_sql(url, "select id, route from request_log")) == [("kept-1", "small")]  # the rows survive


def test_0005_cascade_outcome_on_sqlite(tmp_path):
    _check_0005(f"sqlite+aiosqlite:///{tmp_path / 'm5.db'}")


def test_0005_cascade_outcome_on_postgresql(pg_database):
    _check_0005(pg_database)


def _check_0010(url: str) -> None:
    """0010 adds router_request.small_answer on top of 0009 and removes it again, keeping the rows."""
    upgrade(url, "0009")
    asyncio.run(_sql(url, "insert into router_request (request_id, created_at, request) "
                          "values ('kept-1', '2026-01-01 00:00:00', '{}')"))
    upgrade(url, "0010")
    assert "small_answer" in asyncio.run(_columns(url, "router_request"))
    assert asyncio.run(_sql(url, "select request_id, small_answer from router_request")) == [("kept-1", None)]
    command.downgrade(alembic_config(url), "0009")
    assert asyncio.run(_columns(url, "router_request")) == {"request_id", "created_at", "request"}
    assert asyncio.run(_sql(url, "select request_id from router_request")) == [("kept-1",)]


def test_0010_small_answer_on_sqlite(tmp_path):
    _check_0010(f"sqlite+aiosqlite:///{tmp_path / 'm10.db'}")


def test_0010_small_answer_on_postgresql(pg_database):
    _check_0010(pg_database)

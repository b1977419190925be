"""Alembic migrations on SQLite and on the PostgreSQL server at 127.0.0.1:5432."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from alembic import command
from sqlalchemy import inspect, text
from sqlalchemy.ext.asyncio import create_async_engine

from proxy.migrate import alembic_config, upgrade

PG_ADMIN = "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"


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


async def _admin(sql: str) -> None:
    engine = create_async_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


@pytest.fixture
def pg_database():
    """A throwaway database on the local PostgreSQL server."""
    name = f"thrifty_test_{uuid.uuid4().hex[:10]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def test_postgresql_upgrade_and_downgrade(pg_database):
    upgrade(pg_database)
    assert "request_log" in asyncio.run(_tables(pg_database))
    command.downgrade(alembic_config(pg_database), "base")
    assert asyncio.run(_tables(pg_database)) <= {"alembic_version"}

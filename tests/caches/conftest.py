"""Fixtures for the cache tests: real SQLite files, real PostgreSQL, the real embedding model."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from caches.db import create_tables
from tests.caches.helpers import FakeClock

PG_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def sqlite_engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'cache.db'}")
    await create_tables(engine)
    yield engine
    await engine.dispose()


@pytest.fixture
async def pg_engine() -> AsyncIterator[AsyncEngine]:
    """The cache tables in a fresh PostgreSQL schema of the ``test`` database, dropped afterwards."""
    schema = f"thrifty_caches_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(PG_URL)
    try:
        async with admin.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # make an unreachable database an explicit failure, not a skip
        await admin.dispose()
        pytest.fail(f"PostgreSQL at {PG_URL} is required for this test: {exc!r}")
    engine = admin.execution_options(schema_translate_map={None: schema})
    try:
        await create_tables(engine)
        yield engine
    finally:
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        await admin.dispose()

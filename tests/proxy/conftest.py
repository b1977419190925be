from __future__ import annotations

import asyncio
import functools
import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.support.servers import proxy_settings

PG_ADMIN = "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres"


async def _pg_admin(sql: str) -> None:
    engine = create_async_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


@pytest.fixture
def pg_database():
    """URL of a throwaway database on the local PostgreSQL server, dropped afterwards."""
    name = f"thrifty_test_{uuid.uuid4().hex[:10]}"
    asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    finally:
        asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def make_settings(tmp_path):
    """Settings for a proxy in front of one upstream at ``base_url`` with a test alias (caching and
    routing off unless a test asks for them): ``make_settings(base_url, cache=..., router=..., **proxy)``."""
    return functools.partial(proxy_settings, data_dir=tmp_path)

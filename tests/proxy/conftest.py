from __future__ import annotations

import asyncio
import uuid

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from proxy.settings import (
    BundledBackendConfig,
    CacheSettings,
    DatabaseConfig,
    ModelAlias,
    ProxyConfig,
    RouterSettings,
    Settings,
    UpstreamConfig,
)

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
    """Settings for a proxy in front of one upstream at ``base_url`` with a test alias."""

    def build(base_url: str, cache: CacheSettings | None = None, router: RouterSettings | None = None,
              **proxy_overrides) -> Settings:
        """Caching and routing are off unless a test asks for them."""
        return Settings(
            cache=cache or CacheSettings(enabled=False),
            router=router or RouterSettings(enabled=False),
            data_dir=str(tmp_path),
            proxy=ProxyConfig(log_flush_interval_s=0.05, **proxy_overrides),
            database=DatabaseConfig(url=f"sqlite+aiosqlite:///{tmp_path / 'proxy.db'}"),
            bundled=BundledBackendConfig(enabled=False),
            upstreams=(UpstreamConfig("fake", base_url + "/v1", api_key="sk-upstream"),),
            models=(ModelAlias("gpt-test", "fake", "upstream-model"),),
        )

    return build

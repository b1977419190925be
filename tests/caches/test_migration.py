"""Migration 0002 creates exactly the schema of the SQLAlchemy models (SQLite and PostgreSQL)."""

from __future__ import annotations

import importlib.util
import uuid
from pathlib import Path
from types import ModuleType

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy import Connection, inspect, text
from sqlalchemy.ext.asyncio import create_async_engine

from caches.models import CacheBase
from tests.caches.conftest import PG_URL

MIGRATION = Path(__file__).resolve().parents[2] / "migrations" / "versions" / "0002_caches.py"
TABLES = {"thrifty_exact_cache", "thrifty_semantic_cache"}


def load_migration() -> ModuleType:
    spec = importlib.util.spec_from_file_location("migration_0002_caches", MIGRATION)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def upgrade_compare_downgrade(conn: Connection) -> None:
    module = load_migration()
    with Operations.context(MigrationContext.configure(conn)):
        module.upgrade()
    assert TABLES <= set(inspect(conn).get_table_names())
    diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), CacheBase.metadata)
    assert diff == []
    with Operations.context(MigrationContext.configure(conn)):
        module.downgrade()
    assert not TABLES & set(inspect(conn).get_table_names())


def test_revision_chain() -> None:
    module = load_migration()
    assert (module.revision, module.down_revision) == ("0002", "0001")


async def test_sqlite(tmp_path: Path) -> None:
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")
    async with engine.begin() as conn:
        await conn.run_sync(upgrade_compare_downgrade)
    await engine.dispose()


async def test_postgresql() -> None:
    schema = f"thrifty_mig_{uuid.uuid4().hex[:12]}"
    engine = create_async_engine(PG_URL)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
            await conn.execute(text(f'SET LOCAL search_path TO "{schema}"'))
            await conn.run_sync(upgrade_compare_downgrade)
    finally:
        async with engine.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await engine.dispose()

"""Applying Alembic migrations programmatically (start-up and ``thrifty db upgrade``)."""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config

import migrations
from proxy.storage.database_url import async_database_url


def alembic_config(database_url: str) -> Config:
    """An Alembic config pointing at the packaged ``migrations`` folder and the given database (a plain
    ``sqlite:///`` or ``postgresql://`` URL is given its async driver)."""
    database_url = async_database_url(database_url)
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    config.attributes["configure_logger"] = False
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Bring the database schema to ``revision`` (blocking; call from a thread inside an event loop).
    A SQLite file's folder is created (the default data directory on first start); commands that take
    a URL from the user refuse a missing folder first (:func:`proxy.storage.database_url.require_sqlite_folder`).

    Raises:
        DatabaseUrlError: a URL that cannot be used.
    """
    database_url = async_database_url(database_url)
    if database_url.startswith("sqlite") and ":///" in database_url:
        path = database_url.split(":///", 1)[1]
        if path and path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    command.upgrade(alembic_config(database_url), revision)


def current(database_url: str) -> None:
    command.current(alembic_config(database_url))

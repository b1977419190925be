"""Database URLs as the user writes them, made usable by the proxy's async engine.

Every command and the proxy itself pass a configured URL through :func:`async_database_url`:
``sqlite:///path`` becomes ``sqlite+aiosqlite:///path`` and ``postgresql://`` / ``postgres://``
become ``postgresql+asyncpg://``; a URL that cannot be parsed, or names a synchronous or missing
driver, is a :class:`DatabaseUrlError` whose message masks the password.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from proxy.masking import mask_text, mask_url

ASYNC_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg"}
EXAMPLES = "sqlite+aiosqlite:////path/to/thrifty.db or postgresql+asyncpg://user@host:5432/db"


class DatabaseUrlError(ValueError):
    """A database URL that cannot be used, or a database that cannot be reached (the message says why,
    with the URL's password masked)."""


def _problem(url: str, reason: str) -> DatabaseUrlError:
    return DatabaseUrlError(f"cannot use database URL {mask_url(url)!r}: {reason}")


def async_database_url(url: str) -> str:
    """``url`` with a plain ``sqlite`` / ``postgresql`` / ``postgres`` scheme given its async driver;
    any other URL is returned unchanged once it parses and names an installed async driver.

    Raises:
        DatabaseUrlError: not a URL, an unknown database, or a driver that is synchronous or not installed.
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError

    text = url.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        raise _problem(url, f"not a URL (expected for example {EXAMPLES})")
    text = ASYNC_DRIVERS.get(scheme.lower(), scheme) + sep + rest
    try:
        parsed = make_url(text)
    except (ArgumentError, ValueError) as exc:
        raise _problem(url, f"{str(exc).splitlines()[0]} (expected for example {EXAMPLES})") from None
    try:
        dialect = parsed.get_dialect()
    except NoSuchModuleError:
        raise _problem(url, f"unknown database or driver {parsed.drivername!r} (expected for example {EXAMPLES})") from None
    if not getattr(dialect, "is_async", False):
        backend = parsed.get_backend_name()
        wanted = ASYNC_DRIVERS.get(backend, f"{backend}+<async driver>")
        raise _problem(url, f"driver {parsed.drivername!r} is synchronous; the proxy needs {wanted}://...")
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        raise _problem(url, f"the driver of {parsed.drivername!r} is not installed ({exc})") from None
    return text


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None: another database, in memory, or a ``uri=true`` URL)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(async_database_url(url))
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:") or parsed.query.get("uri"):
        return None
    return Path(parsed.database).expanduser()


def require_existing_sqlite(url: str) -> None:
    """Refuse a SQLite URL whose file does not exist (reading must not create an empty database).

    Raises:
        DatabaseUrlError: a bad URL, or no such file.
    """
    path = sqlite_file(url)
    if path is not None and not path.is_file():
        raise _problem(url, f"no database file at {path}")


def require_sqlite_folder(url: str) -> None:
    """Refuse a SQLite URL whose folder does not exist (a mistyped path must not create folders).

    Raises:
        DatabaseUrlError: a bad URL, or no such folder.
    """
    path = sqlite_file(url)
    if path is not None and not path.parent.is_dir():
        raise _problem(url, f"no folder {path.parent} for the SQLite file (create it first)")


def check_reachable(url: str, timeout_s: float = 10.0) -> None:
    """Connect once and run ``SELECT 1``: a start-up check whose failure is one line, not a traceback.

    Raises:
        DatabaseUrlError: a bad URL, or a database that cannot be reached in ``timeout_s``.
    """
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    target = async_database_url(url)

    async def probe() -> None:
        engine = create_async_engine(target)
        try:
            async with asyncio.timeout(timeout_s), engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        finally:
            await engine.dispose()

    try:
        asyncio.run(probe())
    except TimeoutError:
        raise DatabaseUrlError(f"cannot reach the database at {mask_url(url)}: no answer in {timeout_s:g} s") from None
    except Exception as exc:  # noqa: BLE001 - drivers raise their own types; all mean "unreachable"
        reason = describe_error(exc)
        raise DatabaseUrlError(f"cannot reach the database at {mask_url(url)}: {mask_text(reason)}") from None


def describe_error(exc: BaseException) -> str:
    """The innermost useful message of ``exc`` (exception groups unwrapped), on one line."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__

"""``thrifty keys create | list | revoke``: manage issued API keys in the configured database."""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import replace

from proxy.auth.keys import KeyProblem, KeyRecord, KeyStore
from proxy.config.settings import SettingsError, load_settings
from proxy.masking import mask_text, mask_url
from proxy.storage.database_url import DatabaseUrlError, describe_error, require_sqlite_folder


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="thrifty keys", description=__doc__)
    parser.add_argument("--config", help="TOML configuration file (the database to use)")
    parser.add_argument("--database-url", help="override [database] url")
    sub = parser.add_subparsers(dest="command", required=True)
    create = sub.add_parser("create", help="issue a key (printed once)")
    create.add_argument("--name", default="unnamed")
    create.add_argument("--models", nargs="+", metavar="MODEL", help="public model names it may use (default: all)")
    create.add_argument("--budget-usd", metavar="AMOUNT/PERIOD", help="spend limit, e.g. 5/day or 100/month")
    create.add_argument("--rpm", type=int, help="requests per minute")
    create.add_argument("--tpm", type=int, help="tokens per minute (prompt + max output, settled to the real count)")
    sub.add_parser("list", help="issued keys (prefix, limits, revoked or not)")
    revoke = sub.add_parser("revoke", help="revoke a key: refused at once by every replica")
    revoke.add_argument("key", help="its id (key-...), the key itself, or its prefix as `list` shows it")
    return parser


def _line(record: KeyRecord) -> str:
    limits = []
    if record.models:
        limits.append("models " + ",".join(record.models))
    if record.budget_usd is not None:
        limits.append(f"budget ${record.budget_usd:g}/{record.budget_period}")
    if record.rpm:
        limits.append(f"{record.rpm} rpm")
    if record.tpm:
        limits.append(f"{record.tpm} tpm")
    state = "REVOKED" if record.revoked_at else "active"
    return f"{record.id}  {record.prefix}...  {state:<7}  {record.name}  {'; '.join(limits) or 'no limits'}"


async def _run(args: argparse.Namespace, database_url: str) -> int:
    from proxy.storage import migrate
    from proxy.storage.db import create_engine

    try:
        await asyncio.to_thread(migrate.upgrade, database_url)
    except DatabaseUrlError:
        raise
    except Exception as exc:  # noqa: BLE001 - drivers raise their own types; the reason is one line
        raise DatabaseUrlError(f"cannot open the database at {mask_url(database_url)}: "
                               f"{mask_text(describe_error(exc))}") from None
    engine = create_engine(database_url)
    try:
        keys = KeyStore(engine)
        if args.command == "create":
            token, record = await keys.create(args.name, models=args.models, budget=args.budget_usd, rpm=args.rpm,
                                              tpm=args.tpm)
            print(token)
            print(f"created {_line(record)}\nstore the key now: only its hash is kept, it cannot be shown again",
                  file=sys.stderr)
        elif args.command == "list":
            for record in await keys.list():
                print(_line(record))
        else:
            print("revoked " + _line(await keys.revoke(args.key)))
        return 0
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings(args.config)
    except SettingsError as exc:
        print(f"thrifty keys: configuration error: {exc}", file=sys.stderr)
        return 2
    if args.database_url:
        settings = replace(settings, database=replace(settings.database, url=args.database_url))
    try:
        database_url = settings.database_url
        if settings.database.url:  # a URL the user gave: a mistyped folder is refused, not created
            require_sqlite_folder(database_url)
        return asyncio.run(_run(args, database_url))
    except DatabaseUrlError as exc:  # the message masks the password
        print(f"thrifty keys: {exc}", file=sys.stderr)
        return 2
    except KeyProblem as exc:
        print(f"thrifty keys: {exc}", file=sys.stderr)
        return 1

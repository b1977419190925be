"""The running configuration as rows for the settings page, with every secret masked."""

from __future__ import annotations

import dataclasses
import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from proxy.settings import Settings

MASK = "••••••"
# a setting whose name ends in one of these words holds a secret (``api_key_env`` names a variable)
_SECRET_NAME = re.compile(r"(^|_)(api_key|key|secret|password|passwd|token|credentials?)(_sha256)?$", re.IGNORECASE)


def mask_url(url: str) -> str:
    """A URL with its password (``user:password@``) masked."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK
    if parts.password is None:
        return url
    netloc = f"{parts.username or ''}:{MASK}@{parts.hostname or ''}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _value(name: str, value: Any) -> str:
    if _SECRET_NAME.search(name):
        return MASK if value else "(not set)"
    if isinstance(value, str) and "://" in value:
        return mask_url(value)
    return str(value)


def _rows(prefix: str, obj: Any) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        name = f"{prefix}{f.name}"
        if dataclasses.is_dataclass(value):
            rows += _rows(f"{name}.", value)
        elif isinstance(value, tuple) and value and dataclasses.is_dataclass(value[0]):
            for i, item in enumerate(value):
                rows += _rows(f"{name}[{i}].", item)
        else:
            rows.append((name, _value(f.name, value)))
    return rows


def masked_settings(settings: Settings) -> list[tuple[str, list[tuple[str, str]]]]:
    """(section, [(key, shown value)]) for every settings section; secrets read ``••••••``."""
    sections: list[tuple[str, list[tuple[str, str]]]] = [
        ("general", [("data_dir", str(settings.data_dir)), ("database_url", mask_url(settings.database_url))])]
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        if dataclasses.is_dataclass(value):
            sections.append((f.name, _rows("", value)))
        elif isinstance(value, tuple):
            rows: list[tuple[str, str]] = []
            for i, item in enumerate(value):
                rows += _rows(f"[{i}].", item) if dataclasses.is_dataclass(item) else [(f"[{i}]", str(item))]
            sections.append((f.name, rows))
    return sections

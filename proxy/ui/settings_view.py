"""The running configuration as rows for the settings page, with every secret masked."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from proxy.config.settings import Settings
from proxy.ui.masking import MASK, mask_url, mask_value

__all__ = ["MASK", "mask_url", "masked_settings"]

# a setting whose name ends in one of these words holds a secret (``api_key_env`` names a variable)
_SECRET_NAME = re.compile(r"(^|_)(api_key|key|secret|password|passwd|token|credentials?)(_sha256)?$", re.IGNORECASE)


def _value(name: str, value: Any) -> str:
    """How a setting shows: a secret as ``••••••``, anything else with the URLs in it masked (in
    strings, and inside lists, tuples and dicts such as ``base_urls``)."""
    if _SECRET_NAME.search(name):
        return MASK if value else "(not set)"
    return str(mask_value(value))


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
                rows += _rows(f"[{i}].", item) if dataclasses.is_dataclass(item) else [(f"[{i}]", _value("", item))]
            sections.append((f.name, rows))
    return sections

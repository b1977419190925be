"""``--help`` shows one line per option: every ``help=`` text of the command lines (the runtime
packages' and the benchmarks') is at most 100 characters (the detail lives in docs/)."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

from proxy import cli

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("proxy", "backend", "caches", "router", "kernels", "benchmarks")
LIMIT = 100


def _help_texts(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each ``help=`` given to ``add_argument`` / ``add_parser`` in one source file;
    an f-string counts with its placeholders as written."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") in ("add_argument", "add_parser"):
            for keyword in node.keywords:
                if keyword.arg == "help":
                    try:
                        text = ast.literal_eval(keyword.value)
                    except ValueError:
                        text = ast.unparse(keyword.value)
                    out.append((node.lineno, str(text)))
    return out


def test_every_help_text_is_one_short_line() -> None:
    long = [f"{path.relative_to(ROOT)}:{line} ({len(text)} chars)"
            for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
            for line, text in _help_texts(path) if len(text) > LIMIT or "\n" in text]
    assert not long, f"help texts over {LIMIT} characters: {long}"


def test_the_scan_sees_the_cli() -> None:
    """The source scan finds the texts argparse shows (a scan that found nothing would pass anything)."""
    shown = set()
    parsers = [cli.build_parser()]
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                shown |= {choice.help for choice in action._choices_actions if choice.help}
                parsers.extend(action.choices.values())
            elif action.help and action.help != argparse.SUPPRESS and action.dest != "help":
                shown.add(action.help)
    scanned = {text for _, text in _help_texts(ROOT / "proxy" / "cli.py")}
    assert len(shown) > 40
    assert shown <= scanned | {"show this help message and exit"}, sorted(shown - scanned)

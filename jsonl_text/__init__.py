"""The one JSONL line splitter: batch input files, batch output read back, the router's public data
and the proxy's exported logs, benchmark traces and prompt files all split here.

JSON Lines separates records with line feeds only. :meth:`str.splitlines` also breaks at U+2028,
U+2029, U+0085 and other separators that may stand raw inside a JSON string, so it must not be used
for JSONL. A runtime package at the bottom of the stack: it imports nothing of the project.
"""

from __future__ import annotations

from collections.abc import Iterator

BOM = "\ufeff"
JSON_WHITESPACE = " \t\r"  # what may stand around a JSON value on one line; a line of only this is blank


def split_lines(text: str | bytes) -> list[str]:
    """JSONL text's lines: split at line feeds only, a carriage return before the line feed dropped,
    a leading byte-order mark ignored. Bytes are decoded as UTF-8 first (``UnicodeDecodeError`` if
    they are not)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return [raw.removesuffix("\r") for raw in text.removeprefix(BOM).split("\n")]


def jsonl_lines(text: str | bytes) -> Iterator[tuple[int, str]]:
    """The non-blank lines of JSONL text (:func:`split_lines`) with their 1-based line numbers (blank
    lines count in the numbering)."""
    for number, line in enumerate(split_lines(text), start=1):
        if line.strip(JSON_WHITESPACE):
            yield number, line

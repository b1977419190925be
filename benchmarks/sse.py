"""The benchmarks' one reader of server-sent events: the JSON payloads of an OpenAI-style stream's
``data:`` lines, without the closing ``[DONE]`` (and without comments, other fields or lines that are
not JSON), from the lines of a streaming response as they arrive or from a whole body."""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any

from jsonl_text import split_lines


def _payload(line: str) -> Any | None:
    """The decoded JSON of one ``data:`` line, or None (another line, ``[DONE]``, not JSON)."""
    if not line.startswith("data:"):
        return None
    data = line[5:].strip()
    if not data or data == "[DONE]":
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


def sse_chunks(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The JSON objects of a stream's ``data:`` lines (e.g. ``httpx.Response.iter_lines()``)."""
    for line in lines:
        chunk = _payload(line)
        if isinstance(chunk, dict):
            yield chunk


async def asse_chunks(lines: AsyncIterable[str]) -> AsyncIterator[dict[str, Any]]:
    """:func:`sse_chunks` over an async line iterator (``httpx.Response.aiter_lines()``)."""
    async for line in lines:
        chunk = _payload(line)
        if isinstance(chunk, dict):
            yield chunk


def body_chunks(body: str) -> Iterator[dict[str, Any]]:
    """:func:`sse_chunks` over a whole streamed body, split at line feeds only (a JSON string may hold
    a raw U+2028, at which :meth:`str.splitlines` would break)."""
    return sse_chunks(split_lines(body))


def delta_text(chunk: dict[str, Any], index: int = 0) -> str | None:
    """The text a chunk adds to choice ``index``: a chat delta's ``content`` or a completion's
    ``text`` (None: the chunk adds none to that choice)."""
    for choice in chunk.get("choices") or []:
        if isinstance(choice, dict) and choice.get("index", 0) == index:
            text = (choice.get("delta") or {}).get("content") if "delta" in choice else choice.get("text")
            return text if isinstance(text, str) else None
    return None

"""The model's tool-call blocks → OpenAI ``tool_calls``, whole or streamed.

SmolLM2's chat format (and Hermes-style templates generally) writes a call as::

    <tool_call>
    {"name": "get_weather", "arguments": {"city": "Paris"}}
    </tool_call>

A block whose body is a JSON object with a ``name`` among the request's tools and object (or JSON-string)
``arguments`` becomes a call with an id ``call_<24 hex>`` and the arguments as a JSON string. Anything else
inside a block (bad JSON, an unknown function, a block cut off by ``max_tokens``) is dropped: it never
reaches ``content`` as half a call. The text outside blocks is the message's ``content`` (``None`` when it is
only whitespace and there are calls). A choice that made calls and stopped on its own finishes with
``"tool_calls"``; one cut by ``max_tokens`` keeps ``"length"``. Whitespace that ends the content is dropped when
the choice made calls.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from backend.structured.spec import TOOL_CALL_CLOSE, TOOL_CALL_OPEN


def new_call_id() -> str:
    """An OpenAI-style tool call id."""
    return "call_" + uuid.uuid4().hex[:24]


def parse_call(body: str, names: Iterable[str]) -> dict[str, Any] | None:
    """One block's body → an OpenAI tool call (None: malformed, or a function not offered)."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("name") not in set(names):
        return None
    arguments = data.get("arguments", {})
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    if not isinstance(arguments, dict):
        return None
    return {"id": new_call_id(), "type": "function",
            "function": {"name": data["name"], "arguments": json.dumps(arguments, ensure_ascii=False)}}


def finish_reason(reason: str | None, calls: list[dict[str, Any]]) -> str | None:
    """OpenAI's finish reason of a choice that made ``calls``."""
    return "tool_calls" if calls and reason == "stop" else reason


def parse_tool_calls(text: str, names: Iterable[str]) -> tuple[str | None, list[dict[str, Any]]]:
    """A whole choice's text → ``(content, tool_calls)``."""
    stream = ToolCallStream(names)
    pieces = stream.feed(text) + stream.finish()
    content = "".join(p for p in pieces if isinstance(p, str))
    calls = [p for p in pieces if isinstance(p, dict)]
    if calls and not content.strip():
        return None, calls
    return content, calls


@dataclass(slots=True)
class ToolCallStream:
    """Splits a choice's text, as it streams, into content pieces (``str``) and complete calls (``dict``).

    Text that might be the start of ``<tool_call>`` is held back until it is known not to be; the inside of
    a block is held until ``</tool_call>``; trailing whitespace is held until more content follows it (so a
    reply that is only calls has no content, and content never ends in the space before a call)."""

    names: Iterable[str]
    calls: list[dict[str, Any]] = field(default_factory=list)
    _buffer: str = ""
    _inside: bool = False
    _space: str = ""  # whitespace held back

    def __post_init__(self) -> None:
        self.names = frozenset(self.names)

    def _content(self, text: str) -> list[str | dict[str, Any]]:
        """Content text, with its trailing whitespace held back until more content follows."""
        text = self._space + text
        body = text.rstrip()
        self._space = text[len(body):]
        return [body] if body else []

    def feed(self, text: str) -> list[str | dict[str, Any]]:
        """More generated text → the content pieces and calls now known."""
        self._buffer += text
        out: list[str | dict[str, Any]] = []
        while self._buffer:
            if self._inside:
                end = self._buffer.find(TOOL_CALL_CLOSE)
                if end < 0:
                    break
                call = parse_call(self._buffer[:end], self.names)
                self._buffer, self._inside = self._buffer[end + len(TOOL_CALL_CLOSE):], False
                if call is not None:
                    self.calls.append(call)
                    out.append(call)
                continue
            start = self._buffer.find(TOOL_CALL_OPEN)
            if start >= 0:
                out += self._content(self._buffer[:start])
                self._buffer, self._inside = self._buffer[start + len(TOOL_CALL_OPEN):], True
                continue
            keep = _partial_suffix(self._buffer, TOOL_CALL_OPEN)
            out += self._content(self._buffer[:len(self._buffer) - keep])
            self._buffer = self._buffer[len(self._buffer) - keep:]
            break
        return out

    def finish(self) -> list[str | dict[str, Any]]:
        """The end of the choice: held-back text that turned out not to open a block is content; an unclosed
        block is dropped; trailing whitespace is kept only in a reply without calls."""
        out: list[str | dict[str, Any]] = []
        if not self._inside and self._buffer:
            out += self._content(self._buffer)
        self._buffer, self._inside = "", False
        if self._space and not self.calls:
            out.append(self._space)
        self._space = ""
        return out


def _partial_suffix(text: str, marker: str) -> int:
    """The length of the longest end of ``text`` that is a proper beginning of ``marker``."""
    for n in range(min(len(text), len(marker) - 1), 0, -1):
        if marker.startswith(text[-n:]):
            return n
    return 0


def stream_deltas(index: int, call: dict[str, Any]) -> list[dict[str, Any]]:
    """OpenAI's streamed form of call number ``index``: a delta with its id, type and name (empty arguments),
    then one with the arguments."""
    function = call["function"]
    return [{"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                             "function": {"name": function["name"], "arguments": ""}}]},
            {"tool_calls": [{"index": index, "function": {"arguments": function["arguments"]}}]}]

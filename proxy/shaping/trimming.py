"""Context trimming: fit a chat's messages into a token budget by dropping the oldest turns.

The leading system/developer messages, the latest turn (the last message that is not a
system/developer message) and any system messages after it (the volatile note that prompt shaping
puts after the conversation with ``note_position = "end"``) are always kept; older turns go
first, oldest first. A tool result is never kept without the assistant message that called it
(the kept history never starts with a ``tool`` message). When the kept minimum (system prompt plus
the latest message) is itself over the budget, nothing more can go: the request is sent with that
minimum and the header says ``over-budget`` (documented behaviour, not an error).

Tokens are counted with the model's own tokenizer when the request goes to the bundled backend,
and estimated from UTF-8 bytes otherwise (about 4 bytes per token for English text), plus a few
tokens per message for the chat template's role markers. A request's ``tools`` and
``response_format`` count too (they are in the prompt upstream), and are never dropped.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

log = logging.getLogger(__name__)

MESSAGE_OVERHEAD_TOKENS = 4  # <|im_start|>role\n ... <|im_end|>\n and the like
BYTES_PER_TOKEN = 4.0


class TokenCounter(Protocol):
    """Counts the tokens one message's text costs."""

    name: str

    def count(self, text: str) -> int: ...


class ByteEstimate:
    """``ceil(UTF-8 bytes / 4)``: the estimate for upstreams whose tokenizer we do not hold."""

    name = "bytes"

    def count(self, text: str) -> int:
        return math.ceil(len(text.encode("utf-8")) / BYTES_PER_TOKEN)


class LazyModelTokenizer:
    """The bundled model's tokenizer, loaded on first use by ``load`` (which returns an object with
    ``encode(text) -> list[int]``); a load failure falls back to :class:`ByteEstimate` with a log line."""

    def __init__(self, load: Callable[[], Any]) -> None:
        self._load = load
        self._lock = threading.Lock()
        self._tokenizer: Any = None
        self._failed = False
        self._loader: threading.Thread | None = None
        self.name = "tokenizer"

    def count(self, text: str) -> int:
        tokenizer = self._get()
        if tokenizer is None:
            return ByteEstimate().count(text)
        return len(tokenizer.encode(text))

    def count_prompt(self, data: dict[str, Any], endpoint: str) -> int | None:
        """The prompt tokens the bundled backend will count for ``data``, exactly: the chat rendered
        with its template (tools and response format included, as ``tokenization.chat_sections`` puts
        them) or a completion's string prompt; ``None`` when the tokenizer is unavailable or the
        body is not one the backend would accept (it then answers with its own error)."""
        tokenizer = self._get(wait=False)
        if tokenizer is None:
            return None  # not loaded yet (loading in the background now) or unavailable
        try:
            if endpoint == "chat":
                from tokenization.chat_sections import with_request_sections

                messages = with_request_sections(data["messages"], data.get("tools"), data.get("response_format"))
                return len(tokenizer.encode_chat(messages))
            prompt = data.get("prompt")
            prompt = prompt[0] if isinstance(prompt, list) and len(prompt) == 1 else prompt
            return len(tokenizer.encode(prompt)) if isinstance(prompt, str) else None
        except Exception:  # noqa: BLE001 - a body the backend will refuse with its own message
            return None

    def load_in_background(self) -> None:
        """Start loading the tokenizer on a daemon thread (once), so that no request waits for it."""
        with self._lock:
            if self._tokenizer is not None or self._failed or self._loader is not None:
                return
            self._loader = threading.Thread(target=self._get, name="thrifty-tokenizer-load", daemon=True)
            self._loader.start()

    def _get(self, wait: bool = True) -> Any:
        """The tokenizer; loads it here when ``wait`` (the first caller pays), else starts the
        background load and returns None until it is ready."""
        if not wait:
            if self._tokenizer is None:
                self.load_in_background()
            return self._tokenizer
        with self._lock:
            if self._tokenizer is None and not self._failed:
                try:
                    self._tokenizer = self._load()
                except Exception as exc:  # noqa: BLE001 - counting degrades to the estimate
                    log.warning("cannot load the bundled model's tokenizer (%s); trimming estimates from bytes", exc)
                    self._failed = True
                    self.name = "bytes"
            return self._tokenizer


@dataclass(frozen=True, slots=True)
class TrimOutcome:
    """``dropped``: messages removed; ``tokens``: the kept messages' count; ``over_budget``: the
    kept minimum is still above the budget."""

    dropped: int
    tokens: int
    budget: int
    counter: str
    over_budget: bool

    @property
    def header(self) -> str:
        state = "over-budget" if self.over_budget else "ok"
        return f"{state}; dropped={self.dropped}; tokens={self.tokens}; budget={self.budget}; counted={self.counter}"


def message_text(message: Any) -> str:
    """The text a message costs: its content's text parts, tool-call arguments and names."""
    if not isinstance(message, dict):
        return str(message)
    content = message.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    else:
        text = ""
    calls = message.get("tool_calls")
    for call in calls if isinstance(calls, list) else []:
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict):
            text += str(function.get("name", "")) + str(function.get("arguments", ""))
    return text


def request_overhead(data: dict[str, Any], counter: TokenCounter) -> int:
    """Tokens of a chat request's ``tools`` and ``response_format`` (their JSON, counted like
    message text): upstreams put both in the prompt, the bundled backend as a leading system
    message (``tokenization.chat_sections``)."""
    parts = [data.get(name) for name in ("tools", "response_format") if data.get(name)]
    if not parts:
        return 0
    return counter.count(" ".join(json.dumps(part, ensure_ascii=False, default=str) for part in parts)) \
        + MESSAGE_OVERHEAD_TOKENS


def trim_messages(messages: Sequence[Any], budget: int, counter: TokenCounter,
                  fixed_tokens: int = 0) -> tuple[list[Any], TrimOutcome]:
    """The messages that fit ``budget`` tokens (see the module docstring) and what was done.
    ``fixed_tokens``: what the request spends beside its messages (its tools and response format,
    see :func:`request_overhead`), which no trimming can drop."""
    costs = [counter.count(message_text(m)) + MESSAGE_OVERHEAD_TOKENS for m in messages]
    head = 0
    while head < len(messages) - 1 and _is_system(messages[head]):
        head += 1
    start = head  # the kept history is messages[start:]
    total = sum(costs) + fixed_tokens
    last = latest_turn(messages, head)
    while total > budget and start < last:
        total -= costs[start]
        start += 1
        while start < last and isinstance(messages[start], dict) and messages[start].get("role") == "tool":
            total -= costs[start]  # a tool result without its call goes with it
            start += 1
    kept = [*messages[:head], *messages[start:]]
    outcome = TrimOutcome(dropped=start - head, tokens=total, budget=budget, counter=counter.name,
                          over_budget=total > budget)
    return kept, outcome


def _is_system(message: Any) -> bool:
    return isinstance(message, dict) and message.get("role") in ("system", "developer")


def latest_turn(messages: Sequence[Any], head: int) -> int:
    """The index of the last message at or after ``head`` that is not a system/developer message
    (trailing system messages, such as a shaping note after the conversation, stay with it);
    the last index when there is none."""
    for index in range(len(messages) - 1, head - 1, -1):
        if not _is_system(messages[index]):
            return index
    return len(messages) - 1

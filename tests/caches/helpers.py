"""Small helpers shared by the cache tests."""

from __future__ import annotations

import json
from typing import Any


class FakeClock:
    """A settable clock (epoch seconds) for TTL and LRU tests."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def chat_body(
    question: str, *, system: str | None = "You are a helpful assistant.", **params: Any
) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [] if system is None else [{"role": "system", "content": system}]
    messages.append({"role": "user", "content": question})
    return {"model": "small", "messages": messages, "temperature": 0, **params}


def completion(content: str, **extra: Any) -> str:
    return json.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": "small",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
            ],
            **extra,
        }
    )

"""Converting between whole OpenAI responses and their SSE chunk form.

Cache hits for streaming requests are replayed as chunks at once; streamed upstream answers are
assembled back into a whole response so they can be written to the cache.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec


def sse(data: dict[str, Any]) -> bytes:
    return b"data: " + msgspec.json.encode(data) + b"\n\n"


DONE = b"data: [DONE]\n\n"


def response_to_chunks(response: dict[str, Any], include_usage: bool) -> Iterator[bytes]:
    """A whole chat.completion or text_completion as the SSE chunks a streaming client expects."""
    chat = response.get("object") == "chat.completion"
    base = {"id": response.get("id"), "object": "chat.completion.chunk" if chat else "text_completion",
            "created": response.get("created"), "model": response.get("model")}
    if response.get("system_fingerprint"):
        base["system_fingerprint"] = response["system_fingerprint"]
    for choice in response.get("choices") or []:
        index = choice.get("index", 0)
        if chat:
            message = choice.get("message") or {}
            delta = {"role": message.get("role", "assistant"), "content": message.get("content") or ""}
            if message.get("tool_calls"):
                delta["tool_calls"] = [{**call, "index": i} for i, call in enumerate(message["tool_calls"])]
            yield sse({**base, "choices": [{"index": index, "delta": delta, "logprobs": choice.get("logprobs"),
                                            "finish_reason": None}]})
            yield sse({**base, "choices": [{"index": index, "delta": {}, "logprobs": None,
                                            "finish_reason": choice.get("finish_reason")}]})
        else:
            yield sse({**base, "choices": [{"index": index, "text": choice.get("text", ""), "logprobs": None,
                                            "finish_reason": choice.get("finish_reason")}]})
    if include_usage and response.get("usage"):
        yield sse({**base, "choices": [], "usage": response["usage"]})
    yield DONE


class StreamAssembler:
    """Rebuilds a whole response from streamed chunks (text content only; tool-call streams are not
    assembled, so they are never cached)."""

    def __init__(self) -> None:
        self._meta: dict[str, Any] = {}
        self._texts: dict[int, list[str]] = {}
        self._finish: dict[int, str | None] = {}
        self._usage: dict[str, Any] | None = None
        self.complete = True
        self.chat = True

    def add(self, chunk: dict[str, Any]) -> None:
        if not self._meta:
            self._meta = {k: chunk.get(k) for k in ("id", "created", "model", "system_fingerprint") if k in chunk}
            self.chat = chunk.get("object") == "chat.completion.chunk"
        if chunk.get("usage"):
            self._usage = chunk["usage"]
        for choice in chunk.get("choices") or []:
            index = choice.get("index", 0)
            if self.chat:
                delta = choice.get("delta") or {}
                if delta.get("tool_calls") or delta.get("function_call"):
                    self.complete = False
                piece = delta.get("content")
            else:
                piece = choice.get("text")
            if piece:
                self._texts.setdefault(index, []).append(piece)
            else:
                self._texts.setdefault(index, [])
            if choice.get("finish_reason"):
                self._finish[index] = choice["finish_reason"]

    def result(self) -> dict[str, Any] | None:
        """The assembled response, or None if the stream was incomplete or held tool calls."""
        if not self.complete or not self._texts or set(self._finish) != set(self._texts):
            return None
        choices = []
        for index in sorted(self._texts):
            text = "".join(self._texts[index])
            if self.chat:
                choices.append({"index": index, "message": {"role": "assistant", "content": text},
                                "logprobs": None, "finish_reason": self._finish[index]})
            else:
                choices.append({"index": index, "text": text, "logprobs": None,
                                "finish_reason": self._finish[index]})
        out = {**self._meta, "object": "chat.completion" if self.chat else "text_completion", "choices": choices}
        if self._usage:
            out["usage"] = self._usage
        return out

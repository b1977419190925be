"""benchmarks.sse: the benchmarks' one SSE reader, on the proxy's and the backend's stream shapes."""

from __future__ import annotations

import asyncio
import json

from benchmarks.sse import asse_chunks, body_chunks, delta_text, sse_chunks

CHUNKS = [{"id": "c1", "choices": [{"index": 0, "delta": {"role": "assistant"}}]},
          {"id": "c1", "choices": [{"index": 0, "delta": {"content": "line\u2028break"}}]},
          {"id": "c1", "choices": [], "usage": {"completion_tokens": 2}}]
LINES = [": keep-alive", "", *(f"data: {json.dumps(c, ensure_ascii=False)}" for c in CHUNKS), "data:[DONE]",
         "data: not json", "event: ping"]


def test_data_lines_are_decoded_and_the_rest_skipped() -> None:
    assert list(sse_chunks(LINES)) == CHUNKS
    assert list(body_chunks("\n".join(LINES) + "\n")) == CHUNKS  # the raw U+2028 does not split a chunk


def test_the_async_reader_gives_the_same_chunks() -> None:
    async def lines():
        for line in LINES:
            yield line

    async def collect():
        return [chunk async for chunk in asse_chunks(lines())]

    assert asyncio.run(collect()) == CHUNKS


def test_delta_text_reads_chat_and_completion_chunks() -> None:
    assert [delta_text(c) for c in CHUNKS] == [None, "line\u2028break", None]
    assert delta_text({"choices": [{"index": 0, "text": "hi"}]}) == "hi"
    assert delta_text({"choices": [{"index": 1, "delta": {"content": "other"}}]}) is None

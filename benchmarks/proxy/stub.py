"""A minimal OpenAI-compatible upstream for measuring the proxy alone (``thrifty bench proxy --stub``).

It answers every chat request at once with a fixed small completion (JSON, or SSE chunks when asked
to stream), so the time and CPU a request costs beyond it are the proxy's. Run as its own process:
``python -m benchmarks.proxy.stub --port P``.
"""

from __future__ import annotations

import argparse
import json

from benchmarks.harness import read_body, serve_lifespan

CHUNKS = 8  # streamed content chunks per answer

_ANSWER = json.dumps({
    "id": "chatcmpl-stub", "object": "chat.completion", "created": 1, "model": "stub",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello there, how can I help?"},
                 "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 12, "completion_tokens": 8, "total_tokens": 20},
}).encode()
_MODELS = json.dumps({"object": "list", "data": [{"id": "stub", "object": "model", "created": 1,
                                                  "owned_by": "stub"}]}).encode()


def _chunk(delta: dict, finish: str | None = None, usage: dict | None = None) -> bytes:
    body = {"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": 1, "model": "stub",
            "choices": [] if usage else [{"index": 0, "delta": delta, "finish_reason": finish}]}
    if usage:
        body["usage"] = usage
    return b"data: " + json.dumps(body).encode() + b"\n\n"


_STREAM = b"".join([_chunk({"role": "assistant", "content": ""})]
                   + [_chunk({"content": f"word{i} "}) for i in range(CHUNKS - 1)]
                   + [_chunk({"content": "end"}, "stop"),
                      _chunk({}, usage={"prompt_tokens": 12, "completion_tokens": 8, "total_tokens": 20}),
                      b"data: [DONE]\n\n"])


async def app(scope, receive, send) -> None:
    """The stub as a raw ASGI app (no framework: its own cost stays negligible)."""
    if scope["type"] == "lifespan":
        await serve_lifespan(receive, send)
        return
    body = await read_body(receive)
    if scope["method"] == "GET":
        payload, kind = _MODELS, b"application/json"
    elif b'"stream":true' in body.replace(b" ", b""):
        payload, kind = _STREAM, b"text/event-stream"
    else:
        payload, kind = _ANSWER, b"application/json"
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", kind)]})
    await send({"type": "http.response.body", "body": payload})


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m benchmarks.proxy.stub")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", access_log=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

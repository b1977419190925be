"""Relaying an upstream's SSE stream to the client (:class:`StreamRelay`, a part of
:class:`proxy.pipeline.compose.Pipeline`): the whole-request deadline by the clock, the upstream's error events
as ours, the usage chunk only when asked for, and the log row and cache write-back at the end."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import msgspec

from proxy.pipeline.answers import failure_of, float_or_none
from proxy.pipeline.call import UPSTREAM_PATHS, Call, Reply, StreamReply, priority_of
from proxy.shaping.caps import finish_reason_of
from proxy.upstream.client import UpstreamReplyError
from proxy.wire.errors import ThriftyError, UpstreamError, error_message, openai_error_body
from proxy.wire.sse import StreamAssembler

log = logging.getLogger(__name__)

DONE = b"data: [DONE]\n\n"  # the end of every stream, also after an error event


class StreamRelay:
    """The streaming methods; they use the pipeline's upstream client, deadlines and logging."""

    async def _stream(self, call: Call, body: dict[str, Any]) -> Reply | StreamReply:
        want_usage = bool((call.data.get("stream_options") or {}).get("include_usage"))
        body["stream_options"] = {**(call.data.get("stream_options") or {}), "include_usage": True}
        try:
            async with asyncio.timeout(self._time_left(call)):  # until the upstream's first byte
                response = await self._upstream.stream(call.alias.upstream, UPSTREAM_PATHS[call.ctx.endpoint], body,
                                                        call.ctx.request_id, priority=priority_of(call.ctx))
        except TimeoutError:
            raise self._deadline_error(call) from None
        except UpstreamReplyError as exc:
            status, payload = self._pass_status(call, exc.reply)
            self._finish(call.ctx, call.entry, status, error=error_message(payload))
            return Reply(status, payload, call.headers)
        return StreamReply(self._relay(call, response, want_usage), call.headers)

    async def _relay(self, call: Call, response, want_usage: bool) -> AsyncIterator[bytes]:
        entry, public_model = call.entry, call.data["model"]
        assembler = StreamAssembler()
        status, error, finished = 200, None, False
        events = self._upstream.iter_events(call.alias.upstream, response)
        until = asyncio.get_running_loop().time() + self._time_left(call)
        try:
            while True:
                try:
                    async with asyncio.timeout_at(until):  # the whole stream, by the clock
                        event = await anext(events)
                except StopAsyncIteration:
                    break
                except TimeoutError:  # the events' generator is closed: the upstream connection with it
                    raise self._deadline_error(call) from None
                if call.ctx.batch_id is None:
                    self.interactive_seen = time.monotonic()  # a long stream is interactive traffic too
                data = event.data
                if event.done:
                    finished = True
                if data is None:
                    if not event.done and b"data:" in event.raw:  # a chunk that is not JSON: the stream is broken
                        raise UpstreamError(f"upstream {call.alias.upstream!r} sent a malformed stream chunk",
                                            code="upstream_malformed", status=502)
                    yield event.raw
                    continue
                if "error" in data:  # the upstream's own error event: ours instead, then the end of the stream
                    status, error = 502, error_message(data)
                    failure = openai_error_body(data, 502)
                    failure["error"]["code"] = failure["error"]["code"] or "upstream_error"
                    yield b"data: " + msgspec.json.encode(failure) + b"\n\n" + DONE
                    return
                assembler.add(data)
                if data.get("usage"):
                    self._fill_usage(entry, data["usage"])
                    if entry.ttft_ms is None:
                        entry.ttft_ms = float_or_none((data.get("timings") or {}).get("ttft_ms"))
                    if not want_usage:
                        continue  # the caller did not ask for the usage chunk
                if entry.ttft_ms is None and data.get("choices"):
                    entry.ttft_ms = (time.perf_counter() - call.ctx.started) * 1000
                entry.model_served = entry.model_served or data.get("model")
                if "model" in data:
                    data["model"] = public_model
                if not want_usage:
                    data.pop("usage", None)
                yield b"data: " + msgspec.json.encode(data) + b"\n\n"
            if not finished and status == 200:
                raise UpstreamError(f"upstream {call.alias.upstream!r} ended the stream before [DONE]",
                                    code="upstream_stream_broken", status=502)
        except ThriftyError as exc:
            status, error = exc.status, exc.message
            yield b"data: " + msgspec.json.encode(exc.body()) + b"\n\n" + DONE
        except Exception as exc:  # a bug of ours mid-stream: a 500 in the log and an error event, not a 499
            log.exception("relaying the stream of request %s failed", call.ctx.request_id)
            status, error = failure_of(exc)
            failure = ThriftyError("the proxy failed while relaying the answer", code="internal_error")
            yield b"data: " + msgspec.json.encode(failure.body()) + b"\n\n" + DONE
        except BaseException:
            status, error = 499, "client disconnected"
            raise
        finally:
            whole = assembler.result() if finished and status == 200 else None
            if whole is not None:
                entry.finish_reason = finish_reason_of(whole)
            self._finish(call.ctx, entry, status, error=error)
            if whole is not None:
                self._after_success(call, whole)

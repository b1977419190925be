"""Batch pass-through: batch lines bound for an upstream that has its own Batch API are handed to
it as one upstream batch instead of one call each.

The pipeline stays the same for these lines (caches, router, cost, request log): only its upstream
call changes. :meth:`UpstreamBatches.post` looks like a slow ``UpstreamClient.post``: the request
waits in a collection for its upstream and endpoint; after ``collect_s`` (or ``max_lines``) the
collection is uploaded as a JSONL file, a batch is created at the upstream, polled until it ends,
and each waiting request gets its own line of the upstream's output or error file. Lines that the
caches answered never get here, so the upstream batch holds only the misses.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass, field
from typing import Any

import msgspec

from jsonl_text import jsonl_lines
from proxy.upstream.client import UpstreamClient, UpstreamReply
from proxy.wire.errors import UpstreamError

log = logging.getLogger(__name__)
FINAL = ("completed", "failed", "expired", "cancelled")


@dataclass
class _Collection:
    """Requests waiting to go to one upstream endpoint as one batch."""

    upstream: str
    path: str  # e.g. /chat/completions (relative to the upstream's base_url)
    waiting: dict[str, tuple[dict[str, Any], asyncio.Future]] = field(default_factory=dict)
    full: asyncio.Event = field(default_factory=asyncio.Event)


class UpstreamBatches:
    """Collects batch lines per upstream and endpoint and runs them as upstream batches."""

    def __init__(self, client: UpstreamClient, upstreams: set[str], collect_s: float = 2.0, max_lines: int = 1000,
                 poll_s: float = 5.0) -> None:
        self._client = client
        self._upstreams = upstreams
        self._collect_s = collect_s
        self._max_lines = max_lines
        self._poll_s = poll_s
        self._open: dict[tuple[str, str], _Collection] = {}
        self._tasks: set[asyncio.Task] = set()
        self.submitted: list[str] = []  # upstream batch ids, newest last (tests, logs)

    def handles(self, upstream: str) -> bool:
        return upstream in self._upstreams

    async def post(self, upstream: str, path: str, body: dict[str, Any], request_id: str) -> UpstreamReply:
        """The upstream's answer to ``body`` once the upstream batch it joined has ended."""
        key = (upstream, path)
        collection = self._open.get(key)
        if collection is None:
            collection = self._open[key] = _Collection(upstream, path)
            task = asyncio.create_task(self._run(collection), name=f"upstream-batch-{upstream}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        collection.waiting[request_id] = (body, future)
        if len(collection.waiting) >= self._max_lines:
            collection.full.set()
        return await future

    async def _run(self, collection: _Collection) -> None:
        try:
            await asyncio.wait_for(collection.full.wait(), timeout=self._collect_s)
        except TimeoutError:
            pass
        if self._open.get((collection.upstream, collection.path)) is collection:
            del self._open[(collection.upstream, collection.path)]  # later requests start a new collection
        waiting = {rid: item for rid, item in collection.waiting.items() if not item[1].done()}
        if not waiting:
            return
        try:
            answers = await self._submit_and_wait(collection.upstream, collection.path, waiting)
        except Exception as exc:  # noqa: BLE001 - every waiting line gets the failure (and is retried)
            error = exc if isinstance(exc, UpstreamError) else UpstreamError(
                f"upstream batch at {collection.upstream!r} failed: {exc}", code="upstream_error", status=502)
            for _, future in waiting.values():
                if not future.done():
                    future.set_exception(error)
            return
        for request_id, (_, future) in waiting.items():
            if future.done():
                continue
            reply = answers.get(request_id)
            if reply is None:
                future.set_exception(UpstreamError(
                    f"the upstream batch at {collection.upstream!r} ended without an answer for this line",
                    code="upstream_batch_incomplete", status=502))
            else:
                future.set_result(reply)

    async def _submit_and_wait(self, upstream: str, path: str,
                               waiting: dict[str, tuple[dict[str, Any], asyncio.Future]]) -> dict[str, UpstreamReply]:
        endpoint = "/v1" + path
        payload = b"".join(msgspec.json.encode({"custom_id": rid, "method": "POST", "url": endpoint, "body": body})
                           + b"\n" for rid, (body, _) in waiting.items())
        uploaded = await self._checked(upstream, "POST", "/files", data={"purpose": "batch"},
                                       files={"file": (f"thrifty-{uuid.uuid4().hex[:8]}.jsonl", payload,
                                                       "application/jsonl")})
        batch = await self._checked(upstream, "POST", "/batches", json={
            "input_file_id": uploaded["id"], "endpoint": endpoint, "completion_window": "24h",
            "metadata": {"thrifty": "pass-through"}})
        self.submitted.append(batch["id"])
        log.info("batch pass-through: %d lines sent to %r as upstream batch %s", len(waiting), upstream, batch["id"])
        while batch.get("status") not in FINAL:
            await asyncio.sleep(self._poll_s)
            batch = await self._checked(upstream, "GET", f"/batches/{batch['id']}")
        answers: dict[str, UpstreamReply] = {}
        for file_key in ("output_file_id", "error_file_id"):
            if batch.get(file_key):
                response = await self._client.raw(upstream, "GET", f"/files/{batch[file_key]}/content")
                if response.status_code >= 400:
                    raise UpstreamError(f"upstream {upstream!r} refused the batch's {file_key}: {response.status_code}",
                                        code="upstream_error", status=502)
                for _, line in jsonl_lines(response.content):
                    item = msgspec.json.decode(line)
                    if isinstance(item, dict) and isinstance(item.get("custom_id"), str):
                        answers[item["custom_id"]] = _reply_of(item)
        log.info("batch pass-through: upstream batch %s %s with %d answers", batch["id"], batch["status"], len(answers))
        return answers

    async def _checked(self, upstream: str, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        response = await self._client.raw(upstream, method, path, **kwargs)
        try:
            data = response.json()
        except ValueError:
            data = None
        if response.status_code >= 400 or not isinstance(data, dict):
            raise UpstreamError(f"upstream {upstream!r} refused {method} {path} for batch pass-through: "
                                f"status {response.status_code}", code="upstream_error", status=502)
        return data

    async def aclose(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)


def _reply_of(item: dict[str, Any]) -> UpstreamReply:
    """One output/error line as the reply a direct call would have had."""
    response = item.get("response")
    if isinstance(response, dict) and isinstance(response.get("body"), dict):
        return UpstreamReply(int(response.get("status_code") or 502), response["body"], {})
    error = item.get("error") if isinstance(item.get("error"), dict) else {}
    code = str(error.get("code") or "upstream_batch_error")
    # an upstream line that never ran (expired, cancelled) is a 503: the worker retries it
    return UpstreamReply(503, {"error": {"message": str(error.get("message") or code), "type": "upstream_error",
                                         "param": None, "code": code}}, {})

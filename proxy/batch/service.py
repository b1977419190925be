"""What the Files and Batches controllers call: ownership checks and OpenAI's object shapes over
the file store and the queue, plus the worker's life cycle."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.batch.files import FileLimits, FileStore, _unix, file_object
from proxy.batch.queue import FINAL, WINDOWS, BatchQueue, LineCounts, now_utc
from proxy.batch.validation import ENDPOINTS
from proxy.batch.worker import BatchWorker, LineAdmission
from proxy.config.batch_window import BatchWindow
from proxy.config.sections import BatchSettings
from proxy.config.settings import Settings
from proxy.storage.db import Batch, StoredFile
from proxy.wire.errors import Conflict, InvalidRequest, NotFound

log = logging.getLogger(__name__)
URGENT_KEY = "thrifty_urgent"  # metadata key: "true" runs the batch outside the nightly window
MAX_METADATA_PAIRS = 16


class BatchService:
    """The proxy's batch feature: files, batches and (optionally) this process's worker."""

    def __init__(self, settings: Settings, engine: AsyncEngine, pipeline: Any,
                 clock: Callable[[], datetime] = now_utc, admit: LineAdmission | None = None) -> None:
        config: BatchSettings = settings.batch
        self.config = config
        root = config.files_dir or str(settings.data_path / "files")
        self.files = FileStore(engine, Path(root).expanduser(), FileLimits(config.max_file_bytes, config.max_lines))
        self.queue = BatchQueue(engine, lease_s=config.lease_s)
        self.window = BatchWindow.parse(config.window, config.timezone)
        self.worker = BatchWorker(self.queue, self.files, pipeline, config, self.window, clock, admit,
                                  max_body_bytes=settings.proxy.max_body_bytes)
        self._clock = clock
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self.config.worker and self._task is None:
            self._task = asyncio.create_task(self.worker.run(), name="batch-worker")

    async def aclose(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        await self.worker.stop()

    # --- files ----------------------------------------------------------------------------------

    async def upload(self, key_id: str, filename: str, purpose: str, chunks: AsyncIterator[bytes]) -> dict[str, Any]:
        return file_object(await self.files.upload(key_id, filename, purpose, chunks))

    async def file(self, key_id: str, file_id: str) -> dict[str, Any]:
        return file_object(await self.files.get(key_id, file_id))

    async def file_row(self, key_id: str, file_id: str) -> StoredFile:
        return await self.files.get(key_id, file_id)

    async def list_files(self, key_id: str, purpose: str | None, after: str | None, limit: int,
                         order: str) -> dict[str, Any]:
        rows, has_more = await self.files.list(key_id, purpose=purpose, after=after, limit=limit, order=order)
        return _page([file_object(r) for r in rows], has_more)

    async def delete_file(self, key_id: str, file_id: str) -> dict[str, Any]:
        await self.files.delete(key_id, file_id)
        return {"id": file_id, "object": "file", "deleted": True}

    # --- batches --------------------------------------------------------------------------------

    async def create(self, key_id: str, data: dict[str, Any]) -> dict[str, Any]:
        input_file_id = data.get("input_file_id")
        endpoint = data.get("endpoint")
        window = data.get("completion_window")
        metadata = data.get("metadata")
        if not isinstance(input_file_id, str) or not input_file_id:
            raise InvalidRequest("input_file_id is required: the id of an uploaded file with purpose 'batch'",
                                 param="input_file_id")
        if not isinstance(endpoint, str) or endpoint not in ENDPOINTS:  # an object or list is not hashable
            raise InvalidRequest(f"endpoint must be one of {list(ENDPOINTS)}, got {endpoint!r}", param="endpoint")
        if not isinstance(window, str) or window not in WINDOWS:
            raise InvalidRequest(f"completion_window must be one of {list(WINDOWS)}, got {window!r}",
                                 param="completion_window")
        metadata = _check_metadata(metadata)
        source = await self.files.get(key_id, input_file_id)
        if source.purpose != "batch":
            raise InvalidRequest(f"file {input_file_id!r} has purpose {source.purpose!r}; a batch needs a file "
                                 "uploaded with purpose 'batch'", param="input_file_id")
        urgent = (metadata or {}).get(URGENT_KEY, "").lower() in ("1", "true", "yes")
        batch = await self.queue.create(key_id, input_file_id, endpoint, window, metadata, urgent, self._clock())
        self.worker.wake()
        return batch_object(batch, LineCounts(0, 0, 0, 0))

    async def _owned(self, key_id: str, batch_id: str, param: str = "batch_id") -> Batch:
        """The caller's batch; any other key's batch, or none, is a 404."""
        batch = await self.queue.get(batch_id)
        if batch is None or batch.key_id != key_id:
            raise NotFound(f"no batch with id {batch_id!r}", param=param, code="batch_not_found")
        return batch

    async def get(self, key_id: str, batch_id: str) -> dict[str, Any]:
        batch = await self._owned(key_id, batch_id)
        return batch_object(batch, await self._counts(batch))

    async def list(self, key_id: str, after: str | None, limit: int) -> dict[str, Any]:
        """The caller's batches, newest first; an ``after`` cursor that is not one of them is a 404
        (as for files)."""
        if after:
            await self._owned(key_id, after, param="after")
        batches, has_more = await self.queue.list(key_id, after, limit)
        return _page([batch_object(b, await self._counts(b)) for b in batches], has_more)

    async def cancel(self, key_id: str, batch_id: str) -> dict[str, Any]:
        batch = await self._owned(key_id, batch_id)
        status = await self.queue.cancel(batch.id, self._clock())
        if status in FINAL or status == "finalizing":
            raise Conflict(f"batch {batch_id!r} is {status} and can no longer be cancelled", code="batch_not_cancellable")
        self.worker.wake()
        return await self.get(key_id, batch_id)

    async def _counts(self, batch: Batch) -> LineCounts:
        if batch.status in FINAL:
            return LineCounts(batch.total, batch.completed, batch.failed, 0)
        return await self.queue.counts(batch.id)


def batch_object(batch: Batch, counts: LineCounts) -> dict[str, Any]:
    """OpenAI's ``batch`` object."""
    errors = None
    if batch.errors_json:
        errors = {"object": "list", "data": msgspec.json.decode(batch.errors_json)}
    stamps = ("in_progress_at", "finalizing_at", "completed_at", "failed_at", "expired_at", "cancelling_at",
              "cancelled_at")
    return {
        "id": batch.id, "object": "batch", "endpoint": batch.endpoint, "errors": errors,
        "input_file_id": batch.input_file_id, "completion_window": batch.completion_window, "status": batch.status,
        "output_file_id": batch.output_file_id, "error_file_id": batch.error_file_id,
        "created_at": _unix(batch.created_at), "expires_at": _unix(batch.expires_at),
        **{name: _unix(v) if (v := getattr(batch, name)) is not None else None for name in stamps},
        "request_counts": {"total": counts.total, "completed": counts.completed, "failed": counts.failed},
        "metadata": msgspec.json.decode(batch.metadata_json) if batch.metadata_json else None,
    }


def _page(data: list[dict[str, Any]], has_more: bool) -> dict[str, Any]:
    return {"object": "list", "data": data, "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None, "has_more": has_more}


def _check_metadata(metadata: Any) -> dict[str, str] | None:
    """OpenAI's rules: at most 16 pairs, string keys up to 64 and values up to 512 characters."""
    if metadata is None:
        return None
    if not isinstance(metadata, dict):
        raise InvalidRequest("metadata must be an object of string pairs", param="metadata")
    if len(metadata) > MAX_METADATA_PAIRS:
        raise InvalidRequest(f"metadata holds at most {MAX_METADATA_PAIRS} pairs", param="metadata")
    for key, value in metadata.items():
        if not isinstance(value, str) or len(key) > 64 or len(value) > 512:
            raise InvalidRequest("metadata keys are strings of at most 64 characters and values strings of at most "
                                 "512", param="metadata")
    return metadata

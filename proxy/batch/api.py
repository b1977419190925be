"""Controllers of the OpenAI Files (``/v1/files``) and Batches (``/v1/batches``) API.

Every call is made on behalf of the caller's key (the identity the proxy derives from the bearer
token): a key sees only its own files and batches; another key's ids answer 404.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.datastructures import UploadFile
from litestar.response import File

from proxy.batch.service import BatchService
from proxy.wire.errors import InvalidRequest
from proxy.wire.schemas import parse_json_object

UPLOAD_CHUNK = 1 << 20
MULTIPART_OVERHEAD = 1 << 20  # room for the form's other fields and boundaries


def _json(data: Any, status: int = 200) -> Response:
    return Response(msgspec.json.encode(data), status_code=status, media_type="application/json")


def _limit(request: Request, default: int, most: int) -> int:
    raw = request.query_params.get("limit")
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise InvalidRequest(f"limit must be an integer, got {raw!r}", param="limit") from None
    if not 1 <= value <= most:
        raise InvalidRequest(f"limit must be between 1 and {most}, got {value}", param="limit")
    return value


async def _chunks(upload: UploadFile) -> AsyncIterator[bytes]:
    while chunk := await upload.read(UPLOAD_CHUNK):
        yield chunk


def batch_handlers(service: BatchService, identify: Callable[[str | None], Awaitable[str]]) -> list:
    """Route handlers of the Files and Batches API bound to ``service``; ``identify`` turns the
    Authorization header into the caller's tenant id (401 for a refused key)."""

    async def _key(request: Request) -> str:
        return await identify(request.headers.get("authorization"))

    @post("/v1/files", status_code=200, request_max_body_size=service.config.max_file_bytes + MULTIPART_OVERHEAD)
    async def upload_file(request: Request) -> Response:
        key_id = await _key(request)  # before reading a large body
        if not request.headers.get("content-type", "").lower().startswith("multipart/form-data"):
            raise InvalidRequest("upload a file as multipart/form-data with fields 'file' and 'purpose'",
                                 code="invalid_multipart")
        try:
            form = await request.form()
        except Exception as exc:  # noqa: BLE001 - the parser's errors vary; all mean a bad body
            status = getattr(exc, "status_code", 400)
            if status == 413:
                raise
            raise InvalidRequest(f"malformed multipart body: {exc}", code="invalid_multipart") from None
        upload, purpose = form.get("file"), form.get("purpose")
        if not isinstance(upload, UploadFile):
            raise InvalidRequest("the form has no file field 'file'", param="file", code="invalid_multipart")
        if not isinstance(purpose, str):
            raise InvalidRequest("the form has no field 'purpose' (use 'batch')", param="purpose")
        try:
            return _json(await service.upload(key_id, upload.filename, purpose, _chunks(upload)))
        finally:
            await upload.close()

    @get("/v1/files")
    async def list_files(request: Request) -> Response:
        order = request.query_params.get("order", "desc")
        if order not in ("asc", "desc"):
            raise InvalidRequest(f"order must be 'asc' or 'desc', got {order!r}", param="order")
        return _json(await service.list_files(await _key(request), request.query_params.get("purpose"),
                                              request.query_params.get("after"), _limit(request, 10000, 10000), order))

    @get("/v1/files/{file_id:str}")
    async def retrieve_file(request: Request) -> Response:
        return _json(await service.file(await _key(request), request.path_params["file_id"]))

    @get("/v1/files/{file_id:str}/content")
    async def file_content(request: Request) -> File:
        row = await service.file_row(await _key(request), request.path_params["file_id"])
        return File(path=service.files.content_path(row), filename=row.filename, media_type="application/jsonl",
                    content_disposition_type="attachment")

    @delete("/v1/files/{file_id:str}", status_code=200)
    async def delete_file(request: Request) -> Response:
        return _json(await service.delete_file(await _key(request), request.path_params["file_id"]))

    @post("/v1/batches", status_code=200)
    async def create_batch(request: Request) -> Response:
        return _json(await service.create(await _key(request), parse_json_object(await request.body())))

    @get("/v1/batches")
    async def list_batches(request: Request) -> Response:
        return _json(await service.list(await _key(request), request.query_params.get("after"),
                                        _limit(request, 20, 100)))

    @get("/v1/batches/{batch_id:str}")
    async def retrieve_batch(request: Request) -> Response:
        return _json(await service.get(await _key(request), request.path_params["batch_id"]))

    @post("/v1/batches/{batch_id:str}/cancel", status_code=200)
    async def cancel_batch(request: Request) -> Response:
        return _json(await service.cancel(await _key(request), request.path_params["batch_id"]))

    return [upload_file, list_files, retrieve_file, file_content, delete_file, create_batch, list_batches,
            retrieve_batch, cancel_batch]

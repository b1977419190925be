"""The Files API's storage: bytes in a folder, metadata in the ``stored_file`` table.

A file belongs to the API key that uploaded it (the ``key_id`` the proxy derives from the bearer
token); any other key is told it does not exist. An upload is written to a temporary name, checked,
renamed into place and only then recorded, so a failed or refused upload leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import uuid
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from jsonl_text import JSON_WHITESPACE, jsonl_lines
from proxy.storage.db import StoredFile
from proxy.wire.errors import InvalidRequest, NotFound, PayloadTooLarge

UPLOAD_PURPOSES = ("batch",)  # what clients may upload; batch_output files are made by the worker
CHUNK_BYTES = 1 << 20
UTF8_BOM = b"\xef\xbb\xbf"
_JSON_WHITESPACE_BYTES = JSON_WHITESPACE.encode()
_CONTENT_LINE = re.compile(b"[^%s\n][^\n]*" % re.escape(_JSON_WHITESPACE_BYTES))  # a non-blank line


@dataclass(frozen=True, slots=True)
class FileLimits:
    max_bytes: int
    max_lines: int


def file_object(row: StoredFile) -> dict[str, Any]:
    """OpenAI's ``file`` object for a stored file."""
    return {"id": row.id, "object": "file", "bytes": row.bytes, "created_at": _unix(row.created_at),
            "filename": row.filename, "purpose": row.purpose, "status": "processed", "status_details": None,
            "expires_at": None}


def _unix(moment: datetime) -> int:
    if moment.tzinfo is None:  # SQLite hands back naive datetimes; they were written in UTC
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp())


class FileStore:
    """Stores, lists, reads and deletes files for one proxy (every replica sees the same folder
    when ``root`` is shared storage, and the same table)."""

    def __init__(self, engine: AsyncEngine, root: Path, limits: FileLimits) -> None:
        self._engine = engine
        self.root = root
        self.limits = limits

    def _path(self, row: StoredFile) -> Path:
        return self.root / row.path

    async def upload(self, key_id: str, filename: str, purpose: str, chunks: AsyncIterator[bytes]) -> StoredFile:
        """Store an uploaded batch input file after checking it is JSONL text within the limits."""
        if purpose not in UPLOAD_PURPOSES:
            raise InvalidRequest(f"purpose must be one of {list(UPLOAD_PURPOSES)}, got {purpose!r}", param="purpose",
                                 code="invalid_purpose")
        file_id = "file-" + uuid.uuid4().hex[:24]
        self.root.mkdir(parents=True, exist_ok=True)
        temporary = self.root / f".upload-{file_id}"
        try:
            size, lines = await self._receive(temporary, chunks)
            _check_jsonl(temporary)
            final = self.root / f"{file_id}.jsonl"
            os.replace(temporary, final)
            row = StoredFile(id=file_id, key_id=key_id, purpose=purpose, filename=_clean_name(filename), bytes=size,
                             lines=lines, path=final.name, created_at=datetime.now(UTC), deleted=False)
            try:
                async with self._engine.begin() as conn:
                    await conn.execute(StoredFile.__table__.insert().values(**_columns(row)))
            except BaseException:
                final.unlink(missing_ok=True)
                raise
            return row
        finally:
            temporary.unlink(missing_ok=True)

    async def _receive(self, temporary: Path, chunks: AsyncIterator[bytes]) -> tuple[int, int]:
        """Write the upload to ``temporary``; ``(bytes, request lines)``, refused past the limits.
        Blank lines are not counted: validation ignores them too."""
        size = 0
        counter = LineCounter()
        with temporary.open("wb") as out:
            async for chunk in chunks:
                size += len(chunk)
                if size > self.limits.max_bytes:
                    raise PayloadTooLarge(f"file is larger than the limit of {self.limits.max_bytes} bytes "
                                          "([batch] max_file_bytes)", code="file_too_large")
                counter.feed(chunk)
                self._check_lines(counter.lines)
                out.write(chunk)
        lines = counter.finish()
        self._check_lines(lines)
        return size, lines

    def _check_lines(self, lines: int) -> None:
        if lines > self.limits.max_lines:
            raise PayloadTooLarge(f"file has more than the limit of {self.limits.max_lines} lines ([batch] max_lines)",
                                  code="too_many_lines")

    async def save_generated(self, key_id: str, file_id: str, filename: str, purpose: str,
                             lines: Iterable[bytes]) -> StoredFile | None:
        """Write a file the proxy produced (batch output); idempotent for the same ``file_id``.
        Returns None (and writes nothing) when ``lines`` is empty."""
        payload = b"".join(line + b"\n" for line in lines)
        if not payload:
            return None
        self.root.mkdir(parents=True, exist_ok=True)
        final = self.root / f"{file_id}.jsonl"
        temporary = self.root / f".write-{file_id}-{uuid.uuid4().hex[:8]}"
        temporary.write_bytes(payload)
        os.replace(temporary, final)  # a rerun after a crash writes the same bytes again
        row = StoredFile(id=file_id, key_id=key_id, purpose=purpose, filename=filename, bytes=len(payload),
                         lines=payload.count(b"\n"), path=final.name, created_at=datetime.now(UTC), deleted=False)
        with contextlib.suppress(IntegrityError):  # another replica recorded it first
            async with self._engine.begin() as conn:
                existing = await conn.scalar(select(StoredFile.id).where(StoredFile.id == file_id))
                if existing is None:
                    await conn.execute(StoredFile.__table__.insert().values(**_columns(row)))
        return row

    async def get(self, key_id: str, file_id: str) -> StoredFile:
        """The caller's file; any other key's file, or none, is a 404."""
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(StoredFile).where(StoredFile.id == file_id))).first()
        if row is None or row.key_id != key_id or row.deleted:
            raise NotFound(f"no file with id {file_id!r}", param="file_id", code="file_not_found")
        return StoredFile(**row._mapping)

    def content_path(self, row: StoredFile) -> Path:
        path = self._path(row)
        if not path.exists():
            raise NotFound(f"the content of file {row.id!r} is missing from storage", code="file_not_found")
        return path

    async def list(self, key_id: str, *, purpose: str | None = None, after: str | None = None, limit: int = 10000,
                   order: str = "desc") -> tuple[list[StoredFile], bool]:
        """The caller's files, newest first unless ``order`` is ``asc``; ``(files, has_more)``."""
        query = select(StoredFile).where(StoredFile.key_id == key_id, StoredFile.deleted.is_(False))
        if purpose:
            query = query.where(StoredFile.purpose == purpose)
        ascending = order == "asc"
        if after:
            anchor = await self.get(key_id, after)
            newer_or_older = (StoredFile.created_at > anchor.created_at) if ascending else \
                (StoredFile.created_at < anchor.created_at)
            query = query.where(newer_or_older)
        key = (StoredFile.created_at.asc(), StoredFile.id.asc()) if ascending else \
            (StoredFile.created_at.desc(), StoredFile.id.desc())
        query = query.order_by(*key).limit(limit + 1)
        async with self._engine.connect() as conn:
            rows = [StoredFile(**r._mapping) for r in (await conn.execute(query)).all()]
        return rows[:limit], len(rows) > limit

    async def delete(self, key_id: str, file_id: str) -> None:
        row = await self.get(key_id, file_id)
        async with self._engine.begin() as conn:
            await conn.execute(delete(StoredFile).where(StoredFile.id == row.id))
        self._path(row).unlink(missing_ok=True)

    def read_text(self, row: StoredFile) -> str:
        return self.content_path(row).read_text(encoding="utf-8")


class LineCounter:
    """Counts the non-blank lines of JSONL bytes fed in chunks, as :func:`jsonl_lines` sees them:
    lines end at a line feed, a line of JSON whitespace only is blank, a leading UTF-8 BOM is no
    content (it must arrive whole in the first chunk, as uploads are read in large chunks)."""

    __slots__ = ("_content", "_started", "lines")

    def __init__(self) -> None:
        self.lines = 0  # complete non-blank lines so far
        self._content = False  # whether the line under way has a non-blank byte
        self._started = False

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        if not self._started:
            chunk = chunk.removeprefix(UTF8_BOM)
            self._started = True
        first_end, last_end = chunk.find(b"\n"), chunk.rfind(b"\n")
        if first_end < 0:  # the line under way goes on
            self._content = self._content or _has_content(chunk)
            return
        self.lines += self._content or _has_content(chunk[:first_end])
        self.lines += len(_CONTENT_LINE.findall(chunk, first_end + 1, last_end))  # whole lines in between
        self._content = _has_content(chunk[last_end + 1:])

    def finish(self) -> int:
        """The count, with a last line that has no line feed."""
        self.lines += self._content
        self._content = False
        return self.lines


def _has_content(segment: bytes) -> bool:
    return bool(segment.strip(_JSON_WHITESPACE_BYTES))


def _columns(row: StoredFile) -> dict[str, Any]:
    return {c.name: getattr(row, c.name) for c in StoredFile.__table__.columns}


def _clean_name(filename: str) -> str:
    name = os.path.basename(filename or "").strip() or "upload.jsonl"
    return "".join(ch if ch.isprintable() else "?" for ch in name)[:255]


def _check_jsonl(path: Path) -> None:
    """Refuse what is not JSONL text: not UTF-8, binary (NUL bytes), or not one line that is a JSON
    value (lines as :func:`jsonl_lines` splits them: a leading BOM is ignored). A JSONL file with
    some bad lines is accepted here; the batch's validation reports each bad line by number."""
    raw = path.read_bytes()
    if b"\x00" in raw:
        raise InvalidRequest("file is binary, not JSONL text", param="file", code="invalid_file_format")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidRequest(f"file is not UTF-8 text (byte {exc.start}); upload JSONL: one JSON object per line",
                             param="file", code="invalid_file_format") from None
    first = [line for _, line in itertools.islice(jsonl_lines(text), 1000)]
    if not first:
        return  # an empty file is stored; a batch made from it fails with empty_file
    for line in first:
        try:
            msgspec.json.decode(line)
            return
        except msgspec.DecodeError:
            continue
    raise InvalidRequest("file is not JSONL: none of its first lines is JSON; upload one JSON object per line",
                         param="file", code="invalid_file_format")

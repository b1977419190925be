"""The request log's write-ahead journal: every entry is appended to a local file before it is queued
for the database, so a proxy killed with SIGKILL loses no row that it had recorded.

Layout of the journal folder (one per data folder; several processes may share it):

- ``<writer>.lock``: held with an exclusive ``flock`` by the live writer ``<writer>`` (a random hex id);
- ``<writer>.<seq>.jsonl``: its segments, one JSON-encoded :class:`~proxy.storage.request_log.LogEntry` a line.

A writer appends to its newest segment with one ``write(2)`` per entry (the bytes are in the operating
system's page cache at once, which survives the process), and starts a new segment each time it takes
entries off its queue; once those entries are committed to the database it deletes the older segments.
At start-up, segments of writers whose lock nobody holds (a process that died) are replayed into the
database and deleted. Replays are idempotent: rows already committed are skipped by their id.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

_LOCK = ".lock"
_SEGMENT = ".jsonl"


class RequestJournal:
    """One live writer's segments in ``folder``; :meth:`open` before use, :meth:`close` after the last flush."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.writer = uuid.uuid4().hex
        self._lock_fd: int | None = None
        self._fd: int | None = None
        self._seq = 0
        self._segment: Path | None = None
        self.appended = 0  # entries appended over the journal's life

    def open(self) -> None:
        """Create the folder, take this writer's lock and open its first segment."""
        self.folder.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.folder / f"{self.writer}{_LOCK}", os.O_CREAT | os.O_RDWR, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:  # a start-up scan took the fresh lock file for a dead one's: new id
                os.close(fd)
                self.writer = uuid.uuid4().hex
        self._lock_fd = fd
        self._open_segment()

    def _open_segment(self) -> None:
        self._seq += 1
        self._segment = self.folder / f"{self.writer}.{self._seq:08d}{_SEGMENT}"
        self._fd = os.open(self._segment, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600)

    @property
    def is_open(self) -> bool:
        return self._fd is not None

    def append(self, line: bytes) -> None:
        """Append one encoded entry (``line`` ends with a newline) with a single write."""
        if self._fd is None:
            raise RuntimeError("the request journal is not open")
        os.write(self._fd, line)
        self.appended += 1

    def rotate(self) -> Path | None:
        """Start a new segment; the previous one (returned) holds only entries queued before this call."""
        if self._fd is None:
            return None
        os.close(self._fd)
        previous = self._segment
        self._open_segment()
        return previous

    @staticmethod
    def discard(segments: list[Path]) -> None:
        """Delete segments whose entries are all in the database (or counted as dropped)."""
        for segment in segments:
            with contextlib.suppress(FileNotFoundError):
                segment.unlink()

    def close(self) -> None:
        """Delete the current segment and release the lock (call after every entry is written)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
            if self._segment is not None:
                self.discard([self._segment])
        if self._lock_fd is not None:
            with contextlib.suppress(FileNotFoundError):
                (self.folder / f"{self.writer}{_LOCK}").unlink()
            os.close(self._lock_fd)
            self._lock_fd = None


@dataclass(slots=True)
class Orphan:
    """The segments of a writer that died; hold it (its lock is taken) until :meth:`release`."""

    writer: str
    segments: list[Path]
    lock_path: Path
    lock_fd: int | None

    def lines(self) -> Iterator[bytes]:
        """Every complete line of every segment, in order (a line cut short by a crash is skipped)."""
        for segment in self.segments:
            try:
                data = segment.read_bytes()
            except FileNotFoundError:
                continue
            for line in data.split(b"\n"):
                if line.strip():
                    yield line

    def release(self) -> None:
        """Delete the replayed segments and the dead writer's lock file."""
        RequestJournal.discard(self.segments)
        with contextlib.suppress(FileNotFoundError):
            self.lock_path.unlink()
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None


def orphans(folder: Path) -> Iterator[Orphan]:
    """Dead writers' journals in ``folder``: a lock nobody holds, or segments without a lock file.

    Each is yielded with its lock taken, so two processes starting together never replay one twice."""
    if not folder.is_dir():
        return
    segments: dict[str, list[Path]] = {}
    for path in folder.iterdir():
        if path.name.endswith(_SEGMENT):
            segments.setdefault(path.name.split(".", 1)[0], []).append(path)
    writers = {p.name[: -len(_LOCK)] for p in folder.iterdir() if p.name.endswith(_LOCK)} | set(segments)
    for writer in sorted(writers):
        lock_path = folder / f"{writer}{_LOCK}"
        fd: int | None = None
        if lock_path.exists():
            fd = os.open(lock_path, os.O_RDWR)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # its writer is alive
                os.close(fd)
                continue
        yield Orphan(writer, sorted(segments.get(writer, [])), lock_path, fd)

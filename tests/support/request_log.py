"""Reading the proxy's request log from a test (the writer batches in the background)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path


def wait_for_log_rows(db_path: Path, columns: str, n: int = 1, timeout: float = 5.0) -> list[tuple]:
    """``columns`` of the SQLite ``request_log`` rows, oldest first, once there are ``n`` of them
    (or whatever is there after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    rows: list[tuple] = []
    while True:
        try:
            with sqlite3.connect(db_path) as db:
                rows = db.execute(f"select {columns} from request_log order by created_at").fetchall()  # noqa: S608
        except sqlite3.OperationalError:  # not created yet
            rows = []
        if len(rows) >= n or time.monotonic() >= deadline:
            return rows
        time.sleep(0.05)

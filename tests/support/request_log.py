"""Reading the proxy's request log from a test (the writer batches in the background)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path


def wait_for_log_rows(db_path: Path, columns: str, n: int = 1, timeout: float = 10.0) -> list[tuple]:
    """``columns`` of the SQLite ``request_log`` rows, oldest first, once there are at least ``n`` of them.

    Raises:
        AssertionError: fewer than ``n`` rows after ``timeout`` seconds; the message quotes the rows seen.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            with sqlite3.connect(db_path) as db:
                rows = db.execute(f"select {columns} from request_log order by created_at").fetchall()  # noqa: S608
        except sqlite3.OperationalError:  # not created yet
            rows = []
        if len(rows) >= n:
            return rows
        if time.monotonic() >= deadline:
            raise AssertionError(f"expected at least {n} request_log rows in {db_path} within {timeout} s; "
                                 f"saw {len(rows)}: {rows[:20]}")
        time.sleep(0.05)

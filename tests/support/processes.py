"""``thrifty serve`` as a real child process for end-to-end tests."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from benchmarks.harness import child_server


@contextlib.contextmanager
def thrifty_serve(config: Path, port: int, workdir: Path, timeout_s: float = 300.0) -> Iterator[str]:
    """Run ``thrifty serve --config config`` (listening on ``port``, data under ``workdir / "data"``, output in
    ``workdir / "serve.log"``) until its /health answers; yield its base URL; stop it (SIGTERM, then kill)."""
    env = {**os.environ, "THRIFTY_DATA_DIR": str(workdir / "data"), "HF_HUB_OFFLINE": "1"}
    with (workdir / "serve.log").open("w") as log, child_server(
            [sys.executable, "-m", "proxy.cli", "serve", "--config", str(config)], port,
            f"thrifty serve (log: {log.name})", timeout_s, env, cwd=str(workdir), stdout=log) as base:
        yield base

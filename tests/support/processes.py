"""``thrifty serve`` as a real child process for end-to-end tests."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from proxy.localserver import wait_healthy


@contextlib.contextmanager
def thrifty_serve(config: Path, port: int, workdir: Path, timeout_s: float = 300.0) -> Iterator[str]:
    """Run ``thrifty serve --config config`` (listening on ``port``, data under ``workdir / "data"``, output in
    ``workdir / "serve.log"``) until its /health answers; yield its base URL; stop it (SIGTERM, then kill)."""
    env = {**os.environ, "THRIFTY_DATA_DIR": str(workdir / "data"), "HF_HUB_OFFLINE": "1"}
    with (workdir / "serve.log").open("w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "proxy.cli", "serve", "--config", str(config)], cwd=workdir,
                                env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_healthy(base, proc, what=f"thrifty serve (log: {log.name})", timeout_s=timeout_s)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

"""The benchmarks' one harness for local servers: a free port (:func:`free_port`, the supervisor's own),
an ASGI app served from a background thread (:func:`serve_in_thread`), a child process waited for
until its ``/health`` answers (:func:`wait_healthy`, :func:`child_server`), and the raw-ASGI helpers
of the stub upstreams. Tests use it too."""

from __future__ import annotations

import contextlib
import subprocess
import threading
import time
from collections.abc import Iterator

import uvicorn

from proxy.launch.health import ExitedEarly, wait_until_healthy
from proxy.launch.supervisor import free_port

__all__ = ["child_server", "free_port", "read_body", "serve_in_thread", "serve_lifespan", "wait_healthy"]


@contextlib.contextmanager
def serve_in_thread(app, host: str = "127.0.0.1", startup_timeout: float = 60.0, http=None) -> Iterator[str]:
    """Run ``app`` with uvicorn on a free port in a daemon thread; yields its base URL. ``http``: a
    uvicorn HTTP protocol class (e.g. :func:`proxy.launch.slow_clients.header_deadline_protocol`)."""
    port = free_port(host)
    # requests still running 3 s after the exit are cancelled (a stub still dripping an answer nobody reads
    # held every exit for the 10 s join below); the app's lifespan shutdown still runs after them
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on",
                                           timeout_graceful_shutdown=3, **({"http": http} if http else {})))
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            raise RuntimeError(f"local server on port {port} did not start")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


async def serve_lifespan(receive, send) -> None:
    """Answer a raw ASGI app's lifespan scope: start-up and shutdown complete at once."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


async def read_body(receive) -> bytes:
    """The whole request body of a raw ASGI http scope."""
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            return body


def wait_healthy(base_url: str, process: subprocess.Popen | None = None, *, timeout_s: float = 120.0,
                 what: str = "the server", poll_s: float = 0.2, path: str = "/health") -> None:
    """Block until ``base_url + path`` answers 200 (benchmarks and evaluations starting a child
    process). Raises RuntimeError naming ``what`` when ``process`` exits first or ``timeout_s`` passes."""
    try:
        if wait_until_healthy(base_url + path, timeout_s=timeout_s, poll_s=poll_s, process=process):
            return
    except ExitedEarly as exc:
        raise RuntimeError(f"{what} exited with status {exc.returncode} during start-up") from None
    raise RuntimeError(f"{what} did not become ready within {timeout_s:.0f} s")


@contextlib.contextmanager
def child_server(cmd: list[str], port: int, what: str, timeout_s: float, env: dict[str, str] | None = None,
                 cwd: str | None = None, stdout=None) -> Iterator[str]:
    """Run ``cmd`` (a server listening on ``port``) as a child process until its /health answers; yield
    its base URL; stop it afterwards (SIGTERM, then kill after 30 s). ``stdout``: where its output goes
    (a file; default: inherited). Raises RuntimeError (see :func:`wait_healthy`) when it never gets ready."""
    process = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=stdout,
                               stderr=subprocess.STDOUT if stdout is not None else None)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, process, what=what, timeout_s=timeout_s)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

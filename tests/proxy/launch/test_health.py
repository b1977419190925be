"""The one health-polling loop: an answering server, a process that exits first, and one that never answers."""

from __future__ import annotations

import subprocess
import sys

import pytest

from benchmarks.harness import free_port, serve_in_thread, serve_lifespan
from proxy.launch.health import ExitedEarly, wait_until_healthy


async def _healthy_after_two_probes(scope, receive, send) -> None:
    if scope["type"] == "lifespan":
        await serve_lifespan(receive, send)
        return
    _healthy_after_two_probes.probes += 1
    status = 200 if _healthy_after_two_probes.probes > 2 else 503
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})


def test_it_polls_until_the_server_answers_and_calls_back_between_probes() -> None:
    _healthy_after_two_probes.probes = 0
    waits = []
    with serve_in_thread(_healthy_after_two_probes) as url:
        assert wait_until_healthy(url + "/health", timeout_s=60, poll_s=0.01, on_poll=lambda: waits.append(1))
    assert _healthy_after_two_probes.probes == 3 and len(waits) == 2


def test_a_process_that_exits_first_is_reported_with_its_status() -> None:
    process = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    process.wait(60)
    with pytest.raises(ExitedEarly) as exited:
        wait_until_healthy(f"http://127.0.0.1:{free_port()}/health", timeout_s=60, process=process)
    assert exited.value.returncode == 3


def test_nothing_listening_gives_false_once_the_time_is_up() -> None:
    assert wait_until_healthy(f"http://127.0.0.1:{free_port()}/health", timeout_s=0.3, poll_s=0.05) is False

"""``thrifty batch`` against a real proxy app (scripted upstream)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from proxy.batch.cli import main
from proxy.config.sections import BatchSettings
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, serve_in_thread

NOON = datetime(2026, 6, 1, 12, 0, 0, tzinfo=UTC)  # the batch window below is 00:00-00:01 UTC: closed at noon


def noon_clock() -> Callable[[], datetime]:
    """A clock that starts at :data:`NOON` and runs at the real pace: the batch window stays closed
    whatever the time of day the test runs, and leases still run out."""
    started = time.monotonic()
    return lambda: NOON + timedelta(seconds=time.monotonic() - started)


@pytest.fixture
def proxy(make_settings):
    script = ScriptedUpstream(echo=True)
    with serve_in_thread(script) as up:
        settings = replace(make_settings(up), batch=BatchSettings(poll_interval_s=0.05, window="00:00-00:01",
                                                                  timezone="UTC"))
        with serve_in_thread(create_app(settings, clock=noon_clock())) as url:
            yield url + "/v1"


def test_submit_wait_download_list_status_cancel(proxy, tmp_path, capsys):
    source = tmp_path / "jobs.jsonl"
    source.write_text("".join(json.dumps({"custom_id": f"j{i}", "method": "POST", "url": "/v1/chat/completions",
                                          "body": {"model": "gpt-test", "messages": [{"role": "user",
                                                                                      "content": f"n{i}"}]}}) + "\n"
                              for i in range(5)))
    common = ["--base-url", proxy, "--api-key", "sk-cli"]
    out = tmp_path / "answers.jsonl"
    # the window is closed all day but one minute: --now runs it anyway
    assert main([*common, "submit", str(source), "--wait", "--now", "--out", str(out)]) == 0
    printed = capsys.readouterr()
    batch_id = printed.out.split()[1]
    assert "completed" in printed.out and "5/5 done" in printed.out and "5 answers ->" in printed.out
    assert "line" in printed.err  # the progress bar
    answers = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(a["custom_id"] for a in answers) == [f"j{i}" for i in range(5)]

    assert main([*common, "list"]) == 0
    assert batch_id in capsys.readouterr().out
    assert main([*common, "status", batch_id]) == 0
    assert "completed" in capsys.readouterr().out
    again = tmp_path / "again.jsonl"
    assert main([*common, "download", batch_id, "--out", str(again)]) == 0
    assert again.read_text() == out.read_text()
    assert main([*common, "cancel", batch_id]) == 1
    assert "409" in capsys.readouterr().err

    # without --now the batch waits for the window (closed at noon); cancelling it skips every line
    assert main([*common, "submit", str(source)]) == 0
    waiting_id = capsys.readouterr().out.split()[1]
    assert main([*common, "cancel", waiting_id]) == 0
    assert re.search(r"cancel\w*\s+0/\d+ done", capsys.readouterr().out)  # no line ran outside the window
    assert main(["--base-url", proxy, "--api-key", "sk-someone-else", "status", waiting_id]) == 1
    assert "404" in capsys.readouterr().err


def test_clear_messages_for_a_missing_file_and_an_unreachable_proxy(tmp_path, capsys):
    assert main(["--base-url", "http://127.0.0.1:9/v1", "list"]) == 1
    assert "cannot reach" in capsys.readouterr().err
    assert main(["submit", str(tmp_path / "nope.jsonl")]) == 1
    assert "is not a file" in capsys.readouterr().err


def test_without_an_api_key_no_authorization_header_is_sent(proxy, capsys):
    from proxy.batch.cli import BatchClient

    assert "authorization" not in BatchClient(proxy, "")._http.headers
    assert BatchClient(proxy, "sk-x")._http.headers["authorization"] == "Bearer sk-x"
    # the proxy is in open auth mode: a call without a key is answered (not "Illegal header value")
    assert main(["--base-url", proxy, "--api-key", "", "list"]) == 0
    assert capsys.readouterr().err == ""

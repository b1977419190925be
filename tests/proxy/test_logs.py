"""Logs: one format, the request id on per-request lines, "ready" only once the proxy answers."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time

import httpx

from proxy.launch.supervisor import free_port
from proxy.logs import JsonFormatter, TextFormatter, log_access
from proxy.storage.request_log import LogEntry
from tests.support.servers import ScriptedUpstream, serve_in_thread


def _record(**extra) -> logging.LogRecord:
    record = logging.LogRecord("thrifty.access", logging.INFO, __file__, 1, "chat %s %d", ("m", 200), None)
    record.__dict__.update(extra)
    return record


def test_formatters_carry_the_request_id_and_extra_fields():
    line = json.loads(JsonFormatter().format(_record(request_id="req-1", cache="miss")))
    assert line["msg"] == "chat m 200" and line["request_id"] == "req-1" and line["cache"] == "miss"
    assert line["level"] == "info" and line["logger"] == "thrifty.access"
    text = TextFormatter().format(_record(request_id="req-2", cache="exact"))
    assert "[req-2]: chat m 200" in text and "cache=exact" in text


def test_the_access_line_names_the_request(caplog):
    entry = LogEntry(id="req-xyz", key_id="key-1", endpoint="chat", status_code=502, model_requested="gpt",
                     latency_ms=12.34, error="upstream down")
    with caplog.at_level(logging.INFO, logger="thrifty.access"):
        log_access(entry)
    [record] = caplog.records
    assert record.request_id == "req-xyz" and record.error == "upstream down" and record.latency_ms == 12.3


def test_a_served_proxy_logs_json_ready_after_it_answers_and_one_line_per_request(tmp_path):
    with serve_in_thread(ScriptedUpstream()) as up:
        config = tmp_path / "t.toml"
        config.write_text(f'[[upstreams]]\nname = "fake"\nbase_url = "{up}/v1"\n'
                          '[models.gpt-test]\nupstream = "fake"\nmodel = "m"\n')
        port = free_port()
        env = {**os.environ, "THRIFTY_PROXY__LOG_FORMAT": "json", "THRIFTY_BUNDLED__ENABLED": "false",
               "THRIFTY_DATA_DIR": str(tmp_path), "THRIFTY_ROUTER__ENABLED": "false", "THRIFTY_CACHE__SEMANTIC": "false"}
        proc = subprocess.Popen([sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", str(config), "--port",
                                 str(port)], env=env, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while True:
                assert time.monotonic() < deadline and proc.poll() is None
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            reply = httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", headers={"x-request-id": "trace-77"},
                               json={"model": "gpt-test", "messages": [{"role": "user", "content": "hi"}]})
            assert reply.status_code == 200
            time.sleep(0.5)
        finally:
            proc.terminate()
            _, stderr = proc.communicate(timeout=30)
    lines = [json.loads(line) for line in stderr.splitlines() if line.strip()]  # every line is JSON
    ready = [n for n, line in enumerate(lines) if line["msg"].endswith("ready")]
    assert len(ready) == 1
    access = [line for line in lines if line["logger"] == "thrifty.access"]
    assert [a["request_id"] for a in access] == ["trace-77"] and access[0]["msg"] == "chat gpt-test 200"

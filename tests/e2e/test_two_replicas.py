"""Two ``thrifty proxy serve`` replicas on one PostgreSQL and one Redis, reached on their own ports
(no load balancer): caches, invalidation, a budget, keys, UI sessions and the batch queue are shared,
and a batch survives kill -9 of one replica. Each replica forwards to its own scripted upstream, so
the upstream that answered tells which replica did the work (the upstreams are not what is tested)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from openai import OpenAI

from proxy.launch.health import ExitedEarly, wait_until_healthy
from proxy.launch.supervisor import free_port
from tests.proxy.conftest import pg_database  # noqa: F401 - the throwaway PostgreSQL database fixture
from tests.support.servers import ScriptedUpstream, serve_in_thread

pytestmark = pytest.mark.e2e

ADMIN = {"authorization": "Bearer admin-e2e"}
Q = "What is the capital city of France?"
LINES = 40


def _config(path: Path, upstream: str, namespace: str, database: str, files: Path) -> None:
    path.write_text(f"""
[[upstreams]]
name = "fake"
base_url = "{upstream}/v1"
[models.gpt-test]
upstream = "fake"
model = "m"
[prices.gpt-test]
input_per_mtok = 1000.0
output_per_mtok = 2000.0
[auth]
mode = "keys"
redis_url = "redis://127.0.0.1:6379/0"
redis_namespace = "{namespace}"
[admin]
api_key = "admin-e2e"
[database]
url = "{database}"
[cache]
enabled = true
semantic = true
lookup_deadline_ms = 0
maintenance_interval_s = 0.3
[batch]
files_dir = "{files}"
poll_interval_s = 0.1
lease_s = 2.0
concurrency = 2
""")


class Replica:
    def __init__(self, config: Path, data: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.cmd = [sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", str(config), "--port",
                    str(self.port)]
        self.env = {**os.environ, "THRIFTY_DATA_DIR": str(data), "THRIFTY_BUNDLED__ENABLED": "false",
                    "THRIFTY_ROUTER__ENABLED": "false", "HF_HUB_OFFLINE": "1"}
        self.log = data / "proxy.log"
        data.mkdir(parents=True, exist_ok=True)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with self.log.open("a") as log:
            self.process = subprocess.Popen(self.cmd, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        try:
            if wait_until_healthy(self.url + "/health", timeout_s=300, process=self.process):
                return
        except ExitedEarly:
            raise AssertionError(self.log.read_text()[-3000:]) from None
        raise AssertionError(f"replica on {self.port} did not start: {self.log.read_text()[-3000:]}")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(60)


def _until(check, what: str, timeout_s: float = 120.0):
    """``check()``'s first truthy value, asked again until it comes (an event, not a duration)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if value := check():
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _batch_calls(upstream: ScriptedUpstream) -> int:
    """Batch lines this upstream (so: its replica) was asked (their request ids start with the batch id)."""
    return sum(1 for r in list(upstream.requests) if r["_headers"].get("x-request-id", "").startswith("batch_"))


def _cache_entries(replica: Replica) -> dict:
    return httpx.get(replica.url + "/admin/cache/stats", headers=ADMIN, timeout=30).json()


def _ui_login(client: httpx.Client) -> None:
    form = client.get("/ui/login").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', form).group(1)
    assert client.post("/ui/login", data={"api_key": "admin-e2e", "csrf": csrf}).status_code == 303


@pytest.mark.timeout(900)
def test_two_replicas_share_caches_budget_keys_sessions_and_the_batch_queue(tmp_path, pg_database):  # noqa: F811
    namespace = f"thrifty-e2e-{uuid.uuid4().hex[:8]}"
    up_a, up_b = ScriptedUpstream(content="Paris.", delay_s=0.3), ScriptedUpstream(content="Paris.", delay_s=0.3)
    with serve_in_thread(up_a) as url_a, serve_in_thread(up_b) as url_b:
        replicas = []
        for name, url in (("a", url_a), ("b", url_b)):
            config = tmp_path / f"{name}.toml"
            _config(config, url, namespace, pg_database, tmp_path / "files")
            replicas.append(Replica(config, tmp_path / name))
        a, b = replicas
        try:
            a.start()  # the first start migrates the database
            b.start()
            key = httpx.post(a.url + "/admin/keys", headers=ADMIN, json={"name": "t", "budget": "0.1/day"}).json()
            user = {"authorization": f"Bearer {key['key']}"}

            # an exact and a semantic hit across replicas
            chat = {"model": "gpt-test", "temperature": 0, "max_tokens": 10, "messages": [{"role": "user", "content": Q}]}
            first = httpx.post(a.url + "/v1/chat/completions", json=chat, headers=user, timeout=60)
            assert first.status_code == 200 and first.headers["x-thrifty-cache"] == "miss"
            _until(lambda: all(_cache_entries(a)[kind]["entries"] for kind in ("exact", "semantic")), "write-back")
            # b reads the keys a stored within [cache] memo_ttl_s (its filter of stored keys); the probe looks
            # up without storing, so only a's entry can answer it
            probe = {**chat, "thrifty": {"cache": {"lookup": True, "store": False}}}
            exact = _until(lambda: (got := httpx.post(b.url + "/v1/chat/completions", json=probe, headers=user,
                                                      timeout=60)).headers["x-thrifty-cache"] == "exact" and got,
                           "an exact hit on the other replica", timeout_s=30)
            assert exact.json()["choices"][0]["message"]["content"] == "Paris."
            # b's semantic index takes a's entry at its next sync ([cache] maintenance_interval_s); the
            # probe looks up without storing, so only a's entry can answer it
            paraphrase = {**chat, "messages": [{"role": "user", "content": "What's the capital city of France?"}],
                          "thrifty": {"cache": {"lookup": True, "store": False}}}
            semantic = _until(lambda: (got := httpx.post(b.url + "/v1/chat/completions", json=paraphrase,
                                                         headers=user, timeout=60)).headers["x-thrifty-cache"]
                              == "semantic" and got, "a semantic hit on the other replica")
            assert semantic.json()["choices"][0]["message"]["content"] == "Paris."
            # an invalidation sent to one replica is seen by the other (which answered and stored it first)
            cleared = httpx.post(b.url + "/admin/cache/invalidate", headers=ADMIN, json={"all": True})
            assert cleared.status_code == 200
            again = httpx.post(a.url + "/v1/chat/completions", json=chat, headers=user, timeout=60)
            assert again.headers["x-thrifty-cache"] == "miss"

            # one budget shared: alternate until refused; then both refuse
            statuses = []
            for i in range(60):
                target = (a, b)[i % 2]
                ask = {**chat, "messages": [{"role": "user", "content": f"question {i}"}]}
                statuses.append(httpx.post(target.url + "/v1/chat/completions", json=ask, headers=user,
                                           timeout=60).status_code)
                if statuses[-1] == 429:
                    break
            assert statuses[-1] == 429 and 200 in statuses
            for replica in (a, b):
                refused = httpx.post(replica.url + "/v1/chat/completions", json={**chat, "messages": [
                    {"role": "user", "content": "one more"}]}, headers=user, timeout=60)
                assert refused.status_code == 429 and refused.json()["error"]["code"] == "insufficient_quota"

            # a batch split between both replicas, each line exactly once, with one replica killed mid-batch
            worker = httpx.post(a.url + "/admin/keys", headers=ADMIN, json={"name": "batch"}).json()
            client = OpenAI(base_url=a.url + "/v1", api_key=worker["key"], max_retries=0)
            lines = "".join(json.dumps({"custom_id": f"line-{i}", "method": "POST", "url": "/v1/chat/completions",
                                        "body": {"model": "gpt-test", "messages": [
                                            {"role": "user", "content": f"batch {i}"}]}}) + "\n"
                            for i in range(LINES))
            uploaded = client.files.create(file=("in.jsonl", io.BytesIO(lines.encode())), purpose="batch")
            batch = client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                          completion_window="24h", metadata={"thrifty_urgent": "true"})
            _until(lambda: _batch_calls(up_a) and _batch_calls(up_b), "both replicas working on the batch", 120)
            a.stop(signal.SIGKILL)  # mid-batch: its claimed lines come back when their leases expire
            reader = OpenAI(base_url=b.url + "/v1", api_key=worker["key"], max_retries=0)
            done = _until(lambda: (got := reader.batches.retrieve(batch.id)).status == "completed" and got,
                          "the batch to finish on the surviving replica", 300)
            output = reader.files.content(done.output_file_id).text
            ids = [json.loads(line)["custom_id"] for line in output.splitlines() if line.strip()]
            assert sorted(ids) == sorted(f"line-{i}" for i in range(LINES))  # each line exactly once
            assert done.request_counts.completed == LINES

            # a revoked key and a logged-out session are refused by both replicas (a restarted here)
            a.start()
            httpx.post(b.url + f"/admin/keys/{worker['id']}/revoke", headers=ADMIN)
            with httpx.Client(base_url=a.url) as ui:
                _ui_login(ui)
                token = ui.cookies["thrifty_ui_session"]
                page = ui.get("/ui/overview").text
            with httpx.Client(base_url=b.url, cookies={"thrifty_ui_session": token}) as other:
                assert other.get("/ui/overview").status_code == 200
                csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
                assert other.post("/ui/logout", data={"csrf": csrf}).status_code == 303
            for replica in (a, b):
                revoked = httpx.post(replica.url + "/v1/chat/completions", json=chat,
                                     headers={"authorization": f"Bearer {worker['key']}"}, timeout=60)
                assert revoked.status_code == 401 and revoked.json()["error"]["code"] == "invalid_api_key"
                with httpx.Client(base_url=replica.url, cookies={"thrifty_ui_session": token}) as kept:
                    assert kept.get("/ui/overview").status_code == 303
        finally:
            for replica in replicas:
                replica.stop(signal.SIGKILL)
            import redis

            client_redis = redis.Redis.from_url("redis://127.0.0.1:6379/0")
            stale = list(client_redis.scan_iter(f"{namespace}:*"))
            if stale:
                client_redis.delete(*stale)
    assert _batch_calls(up_a) and _batch_calls(up_b)  # the queue was split between the replicas

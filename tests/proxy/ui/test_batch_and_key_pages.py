"""The Batches and Keys pages: a finished batch with its discount, an issued key with its spend."""

from __future__ import annotations

import io
import json
import time

import httpx
from openai import OpenAI

from tests.proxy.ui.conftest import ADMIN_KEY
from tests.proxy.ui.test_routes import login
from tests.support.request_log import wait_for_log_rows


def test_a_finished_batch_and_an_issued_key_are_listed(ui_proxy):
    client = OpenAI(base_url=ui_proxy.url + "/v1", api_key="sk-batcher", max_retries=0)
    lines = b"".join(json.dumps({"custom_id": f"c{i}", "method": "POST", "url": "/v1/chat/completions",
                                 "body": {"model": "large-m", "messages": [{"role": "user", "content": f"q{i}"}]}}
                                ).encode() + b"\n" for i in range(3))
    uploaded = client.files.create(file=("b.jsonl", io.BytesIO(lines)), purpose="batch")
    batch = client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions", completion_window="24h")
    deadline = time.monotonic() + 30
    while client.batches.retrieve(batch.id).status != "completed":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    created = httpx.post(f"{ui_proxy.url}/admin/keys", headers={"authorization": f"Bearer {ADMIN_KEY}"},
                         json={"name": "<b>team</b>", "budget": "5/day", "rpm": 60}).json()
    wait_for_log_rows(ui_proxy.db_path, "id", 3)
    with httpx.Client(base_url=ui_proxy.url) as browser:
        login(browser)
        batches = browser.get("/ui/batches")
        keys = browser.get("/ui/keys")
    assert batches.status_code == 200 and batch.id in batches.text
    row = batches.text.split(batch.id, 1)[1].split("</tr>", 1)[0]
    assert "completed" in row and "3 / 0 / 3" in row
    assert keys.status_code == 200 and created["id"] in keys.text and created["prefix"] in keys.text
    assert created["key"] not in keys.text  # the token is never shown again
    assert "&lt;b&gt;team&lt;/b&gt;" in keys.text and "<b>team</b>" not in keys.text

"""The Files and Batches API through the official openai SDK, against the real app (SQLite) in
front of a scripted upstream that echoes each request."""

from __future__ import annotations

import io
import json
import sqlite3
import time
from dataclasses import replace
from pathlib import Path

import httpx
import openai
import pytest
from openai import OpenAI

from proxy.config.sections import AdminConfig, BatchSettings
from proxy.config.settings import Settings
from proxy.http.app import create_app
from proxy.pricing import ModelPrice
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, proxy_settings, serve_in_thread


def _line(custom_id: str, text: str, model: str = "gpt-test", url: str = "/v1/chat/completions") -> dict:
    return {"custom_id": custom_id, "method": "POST", "url": url,
            "body": {"model": model, "messages": [{"role": "user", "content": text}], "max_tokens": 8}}


def _jsonl(items) -> bytes:
    return b"".join(json.dumps(item).encode() + b"\n" for item in items)


def _wait(client: OpenAI, batch_id: str, until=("completed", "failed", "expired", "cancelled"), timeout=30.0):
    deadline = time.monotonic() + timeout
    while True:
        batch = client.batches.retrieve(batch_id)
        if batch.status in until or time.monotonic() > deadline:
            return batch
        time.sleep(0.05)


@pytest.fixture
def upstream():
    script = ScriptedUpstream(echo=True)
    with serve_in_thread(script) as url:
        script.url = url
        yield script


def _batch_settings(upstream_url: str, data_dir: Path) -> Settings:
    settings = proxy_settings(upstream_url, data_dir=data_dir)
    return replace(settings, batch=BatchSettings(poll_interval_s=0.05, max_lines=20_000),
                   admin=AdminConfig(api_key="admin-key"),
                   prices=(ModelPrice("gpt-test", input_per_mtok=1000.0, output_per_mtok=2000.0),))


@pytest.fixture
def proxy(upstream, tmp_path):
    with serve_in_thread(create_app(_batch_settings(upstream.url, tmp_path))) as url:
        yield url


@pytest.fixture(scope="module")
def shared_proxy(tmp_path_factory):
    """One proxy and upstream for the module's refusal cases (a 400 each; an app's start and stop cost more)."""
    script = ScriptedUpstream(echo=True)
    with serve_in_thread(script) as up, serve_in_thread(create_app(_batch_settings(up, tmp_path_factory.mktemp("b")))) as url:
        yield url


def _client(proxy: str, key: str = "sk-alice") -> OpenAI:
    return OpenAI(base_url=proxy + "/v1", api_key=key, max_retries=0)


def test_upload_create_poll_download_through_the_sdk(proxy, upstream, tmp_path):
    client = _client(proxy)
    items = [_line(f"req-{i}", f"question {i}") for i in range(25)]
    uploaded = client.files.create(file=("in.jsonl", io.BytesIO(_jsonl(items))), purpose="batch")
    assert uploaded.purpose == "batch" and uploaded.bytes == len(_jsonl(items)) and uploaded.filename == "in.jsonl"
    assert client.files.retrieve(uploaded.id).id == uploaded.id
    assert uploaded.id in [f.id for f in client.files.list()]

    batch = client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                  completion_window="24h", metadata={"job": "nightly"})
    assert batch.status == "validating" and batch.metadata == {"job": "nightly"}
    done = _wait(client, batch.id)
    assert done.status == "completed", done
    assert (done.request_counts.total, done.request_counts.completed, done.request_counts.failed) == (25, 25, 0)
    assert done.in_progress_at and done.finalizing_at and done.completed_at and done.error_file_id is None

    lines = [json.loads(x) for x in client.files.content(done.output_file_id).text.splitlines()]
    assert sorted(x["custom_id"] for x in lines) == sorted(f"req-{i}" for i in range(25))
    for line in lines:
        i = line["custom_id"].split("-")[1]
        assert line["response"]["status_code"] == 200 and line["error"] is None
        assert line["response"]["body"]["choices"][0]["message"]["content"] == f"echo: question {i}"
        assert line["response"]["body"]["model"] == "gpt-test"
        assert line["response"]["request_id"].startswith(batch.id)
    # lines went upstream at batch priority
    assert all(r["_headers"].get("x-thrifty-priority") == "batch" for r in upstream.requests)

    rows = wait_for_log_rows(tmp_path / "proxy.db", "batch_id, cost_usd, batch_saved_usd, saved_usd", 25)
    assert len(rows) == 25 and {r[0] for r in rows} == {batch.id}
    full = (5 * 1000.0 + 1 * 2000.0) / 1e6  # the scripted usage at list price
    for _, cost, batch_saved, saved in rows:
        assert cost == pytest.approx(full / 2) and batch_saved == pytest.approx(full / 2)
        assert saved == pytest.approx(full / 2)
    assert client.batches.list().data[0].id == batch.id
    stats = httpx.get(f"{proxy}/admin/stats", headers={"authorization": "Bearer admin-key"}).json()
    [group] = [g for g in stats["groups"] if g["batch"]]
    assert group["requests"] == 25 and group["batch_saved_usd"] == pytest.approx(25 * full / 2)
    assert stats["batch_saved_usd"] == pytest.approx(25 * full / 2)


def test_interactive_requests_are_not_discounted_or_marked(proxy, tmp_path):
    client = _client(proxy)
    reply = client.chat.completions.create(model="gpt-test", messages=[{"role": "user", "content": "hi"}])
    assert reply.choices[0].message.content == "echo: hi"
    rows = wait_for_log_rows(tmp_path / "proxy.db", "batch_id, cost_usd, batch_saved_usd", 1)
    assert rows == [(None, pytest.approx(0.007), None)]


def test_invalid_lines_fail_the_batch_with_line_numbers_and_nothing_runs(proxy, upstream):
    client = _client(proxy)
    content = b"\n".join([
        json.dumps(_line("a", "one")).encode(),
        b"{not json",
        json.dumps(_line("a", "dup")).encode(),
        json.dumps(_line("b", "wrong url", url="/v1/completions")).encode(),
        json.dumps(_line("c", "no such model", model="nope")).encode(),
        json.dumps({"custom_id": "d", "method": "POST", "url": "/v1/chat/completions", "body": {"model": "gpt-test"}}
                   ).encode(),
        json.dumps({"method": "POST", "url": "/v1/chat/completions", "body": {}}).encode(),
        json.dumps(_line("e", "fine")).encode(),
    ]) + b"\n"
    uploaded = client.files.create(file=("mixed.jsonl", io.BytesIO(content)), purpose="batch")
    batch = _wait(client, client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                                completion_window="24h").id)
    assert batch.status == "failed" and batch.failed_at
    errors = {(e.line, e.code) for e in batch.errors.data}
    assert errors == {(2, "invalid_json_line"), (3, "duplicate_custom_id"), (4, "mismatched_endpoint"),
                      (5, "model_not_found"), (6, "invalid_body"), (7, "missing_custom_id")}
    assert upstream.requests == []
    assert batch.output_file_id is None


def test_an_empty_file_fails_its_batch(proxy):
    client = _client(proxy)
    uploaded = client.files.create(file=("empty.jsonl", io.BytesIO(b"")), purpose="batch")
    assert uploaded.bytes == 0
    batch = _wait(client, client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                                completion_window="24h").id)
    assert batch.status == "failed" and [e.code for e in batch.errors.data] == ["empty_file"]


def test_ten_thousand_lines_validate(proxy, upstream):
    """Validation only: the batch is cancelled as soon as it is queued."""
    client = _client(proxy)
    items = [_line(f"r{i}", f"q{i}") for i in range(10_000)]
    items.append(_line("r17", "duplicate at the very end"))
    uploaded = client.files.create(file=("big.jsonl", io.BytesIO(_jsonl(items))), purpose="batch")
    batch = _wait(client, client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                                completion_window="24h").id, timeout=120)
    assert batch.status == "failed"
    assert [(e.line, e.code) for e in batch.errors.data] == [(10_001, "duplicate_custom_id")]
    assert upstream.requests == []


def test_cancel_skips_waiting_lines_and_a_finished_batch_cannot_be_cancelled(make_settings, tmp_path):
    script = ScriptedUpstream(echo=True, delay_s=0.2)
    with serve_in_thread(script) as up:
        settings = replace(make_settings(up), batch=BatchSettings(poll_interval_s=0.05, concurrency=1))
        with serve_in_thread(create_app(settings)) as proxy:
            client = _client(proxy)
            uploaded = client.files.create(file=("in.jsonl", io.BytesIO(_jsonl(
                [_line(f"c{i}", f"q{i}") for i in range(30)]))), purpose="batch")
            batch = client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                          completion_window="24h")
            _wait(client, batch.id, until=("in_progress",))
            while client.batches.retrieve(batch.id).request_counts.completed < 2:
                time.sleep(0.05)
            cancelling = client.batches.cancel(batch.id)
            assert cancelling.status in ("cancelling", "cancelled")
            done = _wait(client, batch.id)
            assert done.status == "cancelled" and done.cancelled_at
            ok = [json.loads(x) for x in client.files.content(done.output_file_id).text.splitlines()]
            skipped = [json.loads(x) for x in client.files.content(done.error_file_id).text.splitlines()]
            assert 2 <= len(ok) < 30
            assert {x["error"]["code"] for x in skipped} == {"batch_cancelled"}
            assert sorted(x["custom_id"] for x in ok + skipped) == sorted(f"c{i}" for i in range(30))
            assert len(script.requests) == len(ok)
            with pytest.raises(openai.ConflictError):
                client.batches.cancel(batch.id)


def test_transient_upstream_failures_are_retried(make_settings):
    script = ScriptedUpstream(echo=True, fail_times={"echo: flaky": 2})
    with serve_in_thread(script) as up:
        settings = replace(make_settings(up), batch=BatchSettings(poll_interval_s=0.05, max_attempts=3))
        with serve_in_thread(create_app(settings)) as proxy:
            client = _client(proxy)
            uploaded = client.files.create(file=("in.jsonl", io.BytesIO(_jsonl(
                [_line("ok", "fine"), _line("flaky", "flaky")]))), purpose="batch")
            done = _wait(client, client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                                       completion_window="24h").id, timeout=60)
            assert done.status == "completed" and done.request_counts.completed == 2
    assert sum(r["messages"][-1]["content"] == "flaky" for r in script.requests) == 3


def test_files_are_private_to_the_key_that_uploaded_them(proxy):
    alice, bob = _client(proxy, "sk-alice"), _client(proxy, "sk-bob")
    uploaded = alice.files.create(file=("in.jsonl", io.BytesIO(_jsonl([_line("x", "y")]))), purpose="batch")
    with pytest.raises(openai.NotFoundError):
        bob.files.retrieve(uploaded.id)
    with pytest.raises(openai.NotFoundError):
        bob.files.content(uploaded.id)
    with pytest.raises(openai.NotFoundError):
        bob.files.delete(uploaded.id)
    with pytest.raises(openai.NotFoundError):
        bob.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions", completion_window="24h")
    assert uploaded.id not in [f.id for f in bob.files.list()]
    batch = alice.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions", completion_window="24h")
    with pytest.raises(openai.NotFoundError):
        bob.batches.retrieve(batch.id)
    with pytest.raises(openai.NotFoundError):
        bob.batches.cancel(batch.id)
    assert bob.batches.list().data == []
    assert alice.files.delete(uploaded.id).deleted
    with pytest.raises(openai.NotFoundError):
        alice.files.retrieve(uploaded.id)


def test_bad_uploads_are_refused_and_leave_nothing_behind(upstream, make_settings, tmp_path):
    settings = replace(make_settings(upstream.url), batch=BatchSettings(max_file_bytes=2000, max_lines=5,
                                                                        poll_interval_s=0.05))
    files_dir = tmp_path / "files"
    with serve_in_thread(create_app(settings)) as proxy:
        client = _client(proxy)
        with pytest.raises(openai.APIStatusError) as too_big:
            client.files.create(file=("big.jsonl", io.BytesIO(b"{}\n" * 1000)), purpose="batch")
        assert too_big.value.status_code == 413
        with pytest.raises(openai.APIStatusError) as too_many:
            client.files.create(file=("many.jsonl", io.BytesIO(b"{}\n" * 6)), purpose="batch")
        assert too_many.value.status_code == 413 and "lines" in str(too_many.value)
        with pytest.raises(openai.BadRequestError, match="not JSONL"):
            client.files.create(file=("a.csv", io.BytesIO(b"a,b,c\n1,2,3\n")), purpose="batch")
        with pytest.raises(openai.BadRequestError, match="UTF-8"):
            client.files.create(file=("a.bin", io.BytesIO(b"\xff\xfe{}\n")), purpose="batch")
        with pytest.raises(openai.BadRequestError, match="purpose"):
            client.files.create(file=("a.jsonl", io.BytesIO(b"{}\n")), purpose="fine-tune")
        raw = httpx.post(f"{proxy}/v1/files", content=b"--xx\r\nnot a form", headers={
            "content-type": "multipart/form-data; boundary=xx"})
        assert raw.status_code == 400 and raw.json()["error"]["type"] == "invalid_request_error"
        no_form = httpx.post(f"{proxy}/v1/files", json={"purpose": "batch"})
        assert no_form.status_code == 400 and "multipart" in no_form.json()["error"]["message"]
        with pytest.raises(openai.NotFoundError):
            client.files.retrieve("file-doesnotexist")
        with pytest.raises(openai.NotFoundError):
            client.batches.retrieve("batch_doesnotexist")
        with pytest.raises(openai.NotFoundError):
            client.batches.create(input_file_id="file-nope", endpoint="/v1/chat/completions", completion_window="24h")
        uploaded = client.files.create(file=("ok.jsonl", io.BytesIO(b"{}\n")), purpose="batch")
        with pytest.raises(openai.BadRequestError, match="endpoint"):
            client.batches.create(input_file_id=uploaded.id, endpoint="/v1/moderations",  # type: ignore[arg-type]
                                  completion_window="24h")
        with pytest.raises(openai.BadRequestError, match="completion_window"):
            client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                  completion_window="1h")  # type: ignore[arg-type]
        bad_limit = httpx.get(f"{proxy}/v1/batches?limit=abc")
        assert bad_limit.status_code == 400
    assert sorted(p.name for p in files_dir.iterdir()) == [f"{uploaded.id}.jsonl"]  # no temporary left
    with sqlite3.connect(tmp_path / "proxy.db") as db:
        assert db.execute("select count(*) from stored_file").fetchone()[0] == 1


def test_bom_blank_lines_and_raw_line_separators_through_the_api(upstream, make_settings):
    settings = replace(make_settings(upstream.url), batch=BatchSettings(poll_interval_s=0.05, max_lines=2))
    with serve_in_thread(create_app(settings)) as proxy:
        client = _client(proxy)
        first = json.dumps(_line("a", "one\u2028two\x85three"), ensure_ascii=False)
        content = "\ufeff" + first + "\n\n  \n" + json.dumps(_line("b", "plain")) + "\r\n\n"
        # a BOM, blank lines (not counted against max_lines = 2) and raw separators inside a string
        uploaded = client.files.create(file=("bom.jsonl", io.BytesIO(content.encode())), purpose="batch")
        done = _wait(client, client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                                   completion_window="24h").id)
        assert done.status == "completed", done
        assert (done.request_counts.total, done.request_counts.completed) == (2, 2)
        answers = {x["custom_id"]: x["response"]["body"]["choices"][0]["message"]["content"]
                   for x in map(json.loads, client.files.content(done.output_file_id).text.split("\n")[:-1])}
        assert answers == {"a": "echo: one\u2028two\x85three", "b": "echo: plain"}
        with pytest.raises(openai.APIStatusError) as too_many:  # three request lines are still too many
            client.files.create(file=("three.jsonl", io.BytesIO(_jsonl([_line(c, c) for c in "xyz"]))),
                                purpose="batch")
        assert too_many.value.status_code == 413


def test_a_line_larger_than_the_proxy_body_limit_fails_validation_like_an_interactive_413(upstream, make_settings):
    settings = replace(make_settings(upstream.url, max_body_bytes=4000),
                       batch=BatchSettings(poll_interval_s=0.05))
    with serve_in_thread(create_app(settings)) as proxy:
        client = _client(proxy)
        big = _line("big", "x" * 5000)
        interactive = httpx.post(f"{proxy}/v1/chat/completions", json=big["body"],
                                 headers={"authorization": "Bearer sk-alice"})
        assert interactive.status_code == 413
        uploaded = client.files.create(file=("in.jsonl", io.BytesIO(_jsonl([_line("small", "hi"), big]))),
                                       purpose="batch")
        batch = _wait(client, client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                                    completion_window="24h").id)
        assert batch.status == "failed"
        assert [(e.line, e.code, e.param) for e in batch.errors.data] == [(2, "request_too_large", "body")]
        assert upstream.requests == []


def test_an_unknown_after_cursor_is_a_404_for_batches_as_for_files(proxy):
    alice, bob = _client(proxy, "sk-alice"), _client(proxy, "sk-bob")
    uploaded = alice.files.create(file=("in.jsonl", io.BytesIO(_jsonl([_line("x", "y")]))), purpose="batch")
    first = alice.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions", completion_window="24h")
    second = alice.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions", completion_window="24h")
    assert [b.id for b in alice.batches.list(after=second.id).data] == [first.id]
    for path in ("/v1/batches?after=batch_nope", "/v1/files?after=file-nope", f"/v1/batches?after={second.id}"):
        key = "sk-bob" if second.id in path else "sk-alice"  # another key's batch is no cursor either
        answer = httpx.get(proxy + path, headers={"authorization": f"Bearer {key}"})
        assert answer.status_code == 404, path
        assert answer.json()["error"]["type"] == "invalid_request_error"
    with pytest.raises(openai.NotFoundError):
        bob.batches.list(after=first.id)


@pytest.mark.parametrize("field", ["endpoint", "completion_window", "input_file_id"])
@pytest.mark.parametrize("value", [{"a": 1}, ["/v1/chat/completions"], 7, None])
def test_a_non_string_batch_field_is_a_400_naming_it(shared_proxy, field, value):
    proxy = shared_proxy
    uploaded = _client(proxy).files.create(file=("in.jsonl", io.BytesIO(_jsonl([_line("x", "y")]))), purpose="batch")
    body = {"input_file_id": uploaded.id, "endpoint": "/v1/chat/completions", "completion_window": "24h",
            field: value}
    answer = httpx.post(proxy + "/v1/batches", json=body, headers={"authorization": "Bearer sk-alice"})
    assert answer.status_code == 400 and answer.json()["error"]["param"] == field

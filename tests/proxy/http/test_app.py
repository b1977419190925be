"""The proxy app over real sockets, in front of a scripted upstream."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import httpx
import pytest

from proxy.http.app import create_app
from proxy.launch.supervisor import free_port
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread

CHAT = {"model": "gpt-test", "messages": [{"role": "user", "content": "hi"}]}


def _rows(tmp_path, wait_for: int = 1) -> list[tuple]:
    return wait_for_log_rows(tmp_path / "proxy.db", "id, key_id, model_requested, model_served, upstream, status_code, "
                             "prompt_tokens, completion_tokens, cached_tokens, latency_ms, stream, error", wait_for)


@pytest.fixture
def upstream():
    script = ScriptedUpstream()
    with serve_in_thread(script) as url:
        script.url = url
        yield script


def test_chat_is_forwarded_with_alias_and_logged(upstream, make_settings, tmp_path):
    with serve_in_thread(create_app(make_settings(upstream.url))) as proxy:
        response = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "max_completion_tokens": 5},
                              headers={"authorization": "Bearer sk-caller"})
    assert response.status_code == 200
    body = response.json()
    assert body["choices"][0]["message"]["content"] == "hello"
    assert body["model"] == "gpt-test"
    assert response.headers["x-request-id"].startswith("req-")
    sent = upstream.requests[0]
    assert sent["model"] == "upstream-model" and sent["max_completion_tokens"] == 5
    assert sent["_path"] == "/v1/chat/completions"
    assert sent["_headers"]["authorization"] == "Bearer sk-upstream"
    rows = _rows(tmp_path)
    assert len(rows) == 1
    rid, key_id, requested, served, up, status, prompt, completion, cached, latency, stream, error = rows[0]
    assert rid == response.headers["x-request-id"]
    assert key_id.startswith("key-") and "sk-caller" not in key_id
    assert (requested, served, up, status, prompt, completion, cached) == (
        "gpt-test", "upstream-model", "fake", 200, 5, 1, 2)
    assert latency > 0 and not stream and error is None


def test_caller_request_id_is_echoed(upstream, make_settings):
    with serve_in_thread(create_app(make_settings(upstream.url))) as proxy:
        response = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, headers={"x-request-id": "my-trace-1"})
        bad = httpx.post(f"{proxy}/v1/chat/completions", content=b"{", headers={"x-request-id": "my-trace-2"})
    assert response.headers["x-request-id"] == "my-trace-1"
    assert bad.headers["x-request-id"] == "my-trace-2"


def test_stream_chunks_are_forwarded_as_they_arrive(make_settings, tmp_path):
    script = ScriptedUpstream(mode="stream", chunks=3)
    with serve_in_thread(script) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        with httpx.stream("POST", f"{proxy}/v1/chat/completions", json={**CHAT, "stream": True},
                          timeout=10) as response:
            assert response.status_code == 200
            lines = response.iter_lines()
            first = next(line for line in lines if line.startswith("data:"))
            assert "tok0" in first  # arrived while the upstream still holds chunk 2 back
            assert not script.gate.is_set()
            script.gate.set()
            rest = [line for line in lines if line.startswith("data:")]
    assert any("tok2" in line for line in rest)
    assert rest[-1] == "data: [DONE]"
    assert not any('"usage"' in line for line in [first, *rest])  # caller did not ask for usage
    assert script.requests[0]["stream_options"] == {"include_usage": True}  # but the proxy did, for its log
    rows = _rows(tmp_path)
    assert rows[0][6:8] == (4, 3) and rows[0][10] == 1


def test_stream_usage_chunk_is_kept_when_asked_for(make_settings):
    script = ScriptedUpstream(mode="stream", chunks=2)
    script.gate.set()
    with serve_in_thread(script) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        with httpx.stream("POST", f"{proxy}/v1/chat/completions", timeout=10,
                          json={**CHAT, "stream": True, "stream_options": {"include_usage": True}}) as response:
            lines = [line for line in response.iter_lines() if line.startswith("data:")]
    assert any('"usage":{"prompt_tokens":4' in line.replace(" ", "") for line in lines)


def test_client_disconnect_mid_stream_stops_the_upstream_request(make_settings):
    script = ScriptedUpstream(mode="stream", chunks=5)
    with serve_in_thread(script) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        with httpx.stream("POST", f"{proxy}/v1/chat/completions", json={**CHAT, "stream": True},
                          timeout=10) as response:
            next(line for line in response.iter_lines() if line.startswith("data:"))
        # the client is gone; the proxy must hang up on the upstream
        assert script.disconnected.wait(timeout=10)


@pytest.mark.parametrize(("mode", "status", "code"), [("error500", 502, "upstream_error"),
                                                       ("notjson", 502, "bad_upstream_response")])
def test_bad_upstream_answers_become_502(make_settings, mode, status, code):
    script = ScriptedUpstream(mode=mode)
    with serve_in_thread(script) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        response = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT)
    assert response.status_code == status
    assert response.json()["error"]["code"] == code


def test_down_upstream_is_503_and_hung_upstream_is_504_within_the_timeout(make_settings):
    dead = f"http://127.0.0.1:{free_port()}"
    with serve_in_thread(create_app(make_settings(dead))) as proxy:
        response = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT)
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "upstream_unavailable"

    script = ScriptedUpstream(mode="hang")
    with serve_in_thread(script) as up, serve_in_thread(create_app(make_settings(up, request_timeout_s=1.0))) as proxy:
        started = time.monotonic()
        response = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
        elapsed = time.monotonic() - started
    assert response.status_code == 504
    assert response.json()["error"]["code"] == "upstream_timeout"
    assert elapsed < 10  # bounded by the configured timeout, not hung


def test_server_keeps_serving_while_an_upstream_hangs(make_settings):
    script = ScriptedUpstream(mode="hang")
    with serve_in_thread(script) as up, serve_in_thread(create_app(make_settings(up, request_timeout_s=5))) as proxy:
        slow = threading.Thread(target=lambda: httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30))
        slow.start()
        time.sleep(0.2)
        assert httpx.get(f"{proxy}/health").status_code == 200
        assert httpx.get(f"{proxy}/v1/models").json()["data"][0]["id"] == "gpt-test"
        slow.join()


def test_shutdown_right_after_start_leaves_no_task_behind(make_settings, tmp_path):
    """The admin UI's rollup task queries the database as soon as the app starts; a shutdown that cancels it
    mid-query must let its connection close before the engine goes, or the close is still pending when the
    event loop ends (the loop's exit then waited on it for 10 s and more). Shut down at several moments of
    that first query (before the fix, about one in four such shutdowns left tasks behind)."""
    import asyncio

    from proxy.config.sections import AdminConfig

    async def start_and_stop(app, delay_s: float) -> set[str]:
        inbox: asyncio.Queue = asyncio.Queue()
        outbox: asyncio.Queue = asyncio.Queue()
        lifespan = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}},
                                           inbox.get, outbox.put))
        await inbox.put({"type": "lifespan.startup"})
        assert (await outbox.get())["type"] == "lifespan.startup.complete"
        await asyncio.sleep(delay_s)
        await inbox.put({"type": "lifespan.shutdown"})
        assert (await outbox.get())["type"] == "lifespan.shutdown.complete"
        await lifespan
        return {repr(task.get_coro()) for task in asyncio.all_tasks() if task is not asyncio.current_task()}

    for i, delay_s in enumerate([0.001, 0.002, 0.005, 0.01] * 5):
        settings = make_settings("http://127.0.0.1:9", data_dir=tmp_path / str(i))
        app = create_app(replace(settings, admin=AdminConfig(api_key="admin-key")))
        assert asyncio.run(start_and_stop(app, delay_s)) == set(), delay_s

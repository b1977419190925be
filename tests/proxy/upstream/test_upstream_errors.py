"""Upstream errors, honestly: classified by status (not body), retried when worth it, reported with
the upstream's status class and retry-after, and naming the upstream by its configured name only.

The upstream is a raw socket server that answers each request with scripted bytes (HTML pages of a
load balancer, plain text, bodies cut short): the proxy is what is tested.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Iterator

import httpx

from proxy.http.app import create_app
from proxy.launch.supervisor import free_port
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import serve_in_thread

CHAT = {"model": "gpt-test", "messages": [{"role": "user", "content": "hi"}]}
OK = json.dumps({"id": "c1", "object": "chat.completion", "created": 1, "model": "m",
                 "choices": [{"index": 0, "message": {"role": "assistant", "content": "fine"}, "finish_reason": "stop"}],
                 "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}}).encode()


def response(status: str, body: bytes, content_type: str = "application/json", *, length: int | None = None,
             headers: str = "") -> bytes:
    """Raw HTTP/1.1 response bytes (``length`` may promise more than ``body`` holds)."""
    return (f"HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: "
            f"{len(body) if length is None else length}\r\n{headers}connection: close\r\n\r\n").encode() + body


@contextlib.contextmanager
def scripted(*answers: bytes) -> Iterator[tuple[str, list[int]]]:
    """A socket server answering its n-th request with ``answers[n]`` (the last one repeats), then
    closing the connection; yields its base URL and a one-item list counting the requests."""
    server = socket.create_server(("127.0.0.1", 0))
    count = [0]

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += conn.recv(65536)
                head, _, body = data.partition(b"\r\n\r\n")
                length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                while len(body) < length:
                    body += conn.recv(65536)
                answer = answers[min(count[0], len(answers) - 1)]
                count[0] += 1
                conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.getsockname()[1]}", count
    finally:
        server.close()


HTML_503 = response("503 Service Unavailable", b"<html><body><h1>503 Service Unavailable</h1></body></html>",
                    "text/html")


def test_an_html_503_is_retried_and_the_retry_answers(make_settings):
    with scripted(HTML_503, response("200 OK", OK)) as (up, count), \
            serve_in_thread(create_app(make_settings(up, retry_backoff_s=0.01))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
    assert reply.status_code == 200 and reply.json()["choices"][0]["message"]["content"] == "fine"
    assert count[0] == 2


def test_html_503s_to_the_end_stay_a_503_with_retry_after(make_settings, tmp_path):
    answer = response("503 Service Unavailable", b"<html>busy</html>", "text/html", headers="retry-after: 0\r\n")
    with scripted(answer) as (up, count), \
            serve_in_thread(create_app(make_settings(up, max_retries=2))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
    assert count[0] == 3  # the first call and two retries
    assert reply.status_code == 503 and reply.headers["retry-after"] == "0"
    error = reply.json()["error"]
    assert error["code"] == "upstream_error" and "'fake'" in error["message"] and "<html>" not in error["message"]
    assert wait_for_log_rows(tmp_path / "proxy.db", "status_code", 1) == [(503,)]


def test_a_plain_text_429_is_retried_honouring_retry_after_and_keeps_it_at_the_end(make_settings):
    answer = response("429 Too Many Requests", b"slow down", "text/plain", headers="retry-after: 0\r\n")
    with scripted(answer) as (up, count), \
            serve_in_thread(create_app(make_settings(up, max_retries=1))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
    assert count[0] == 2
    assert reply.status_code == 429 and reply.headers["retry-after"] == "0"
    error = reply.json()["error"]
    assert error["code"] == "rate_limit_exceeded" and error["type"] and "'fake'" in error["message"]


def test_a_retry_after_too_long_to_wait_is_handed_to_the_client_at_once(make_settings):
    answer = response("429 Too Many Requests", b"slow down", "text/plain", headers="retry-after: 3600\r\n")
    with scripted(answer) as (up, count), \
            serve_in_thread(create_app(make_settings(up, max_retries=2, max_retry_wait_s=5))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
    assert count[0] == 1 and reply.status_code == 429 and reply.headers["retry-after"] == "3600"


def test_a_truncated_body_is_a_502_bad_upstream_response(make_settings, tmp_path):
    cut = response("200 OK", OK[:20], length=len(OK))  # promises the whole answer, sends 20 bytes
    with scripted(cut) as (up, _), serve_in_thread(create_app(make_settings(up))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
    assert reply.status_code == 502
    error = reply.json()["error"]
    assert error["code"] == "bad_upstream_response" and "'fake'" in error["message"]
    assert "Payload" not in error["message"] and "127.0.0.1" not in error["message"]
    assert wait_for_log_rows(tmp_path / "proxy.db", "status_code", 1) == [(502,)]


def test_an_unreachable_upstream_is_named_not_addressed(make_settings):
    port = free_port()  # nothing listens there
    with serve_in_thread(create_app(make_settings(f"http://127.0.0.1:{port}", retry_backoff_s=0.01))) as proxy:
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, timeout=30)
        streamed = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "stream": True}, timeout=30)
    for answer in (reply, streamed):
        message = answer.json()["error"]["message"]
        assert answer.status_code == 503 and "'fake'" in message
        assert str(port) not in message and "127.0.0.1" not in message


def _chunk(text: str) -> bytes:
    return b"data: " + json.dumps({"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
                                   "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}
                                  ).encode() + b"\n\n"


def test_an_upstream_error_event_mid_stream_becomes_ours_followed_by_done(make_settings, tmp_path):
    body = _chunk("one") + b'data: {"error": {"message": "engine overloaded"}}\n\n' + _chunk("never")
    with scripted(response("200 OK", body, "text/event-stream")) as (up, _), \
            serve_in_thread(create_app(make_settings(up))) as proxy:
        streamed = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "stream": True}, timeout=30).text
    events = [line[6:] for line in streamed.splitlines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]" and "never" not in streamed
    error = json.loads(events[-2])["error"]
    assert error == {"message": "engine overloaded", "type": "server_error", "param": None, "code": "upstream_error"}
    assert wait_for_log_rows(tmp_path / "proxy.db", "status_code, error", 1) == [(502, "engine overloaded")]

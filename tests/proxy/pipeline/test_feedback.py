"""``POST /v1/feedback``: only on a logged request, and only by the key (tenant) that made it."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import httpx

from proxy.config.sections import AdminConfig, AuthSettings
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, serve_in_thread

CHAT = {"model": "gpt-test", "messages": [{"role": "user", "content": "hello"}]}
KEY_A = {"authorization": "Bearer sk-tenant-a"}
KEY_B = {"authorization": "Bearer sk-tenant-b"}


def _ask(proxy: str, headers: dict[str, str]) -> str:
    response = httpx.post(f"{proxy}/v1/chat/completions", headers=headers, json=CHAT, timeout=30)
    assert response.status_code == 200, response.text
    return response.headers["x-request-id"]


def _feedback(proxy: str, headers: dict[str, str], request_id: str, score: float = 1.0) -> httpx.Response:
    return httpx.post(f"{proxy}/v1/feedback", headers=headers, timeout=30,
                      json={"request_id": request_id, "score": score})


def _assert_not_found(response: httpx.Response, request_id: str) -> None:
    assert response.status_code == 404, response.text
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert (error["type"], error["param"], error["code"]) == ("invalid_request_error", "request_id",
                                                              "request_not_found")
    assert request_id in error["message"]


def _stored(tmp_path) -> list[tuple]:
    with sqlite3.connect(tmp_path / "proxy.db") as db:
        return db.execute("select request_id, score, source from feedback order by id").fetchall()


def test_open_mode_feedback_needs_a_logged_request_of_the_same_caller(make_settings, tmp_path):
    """Open mode: the bearer token's hash is the tenant. The caller scores its own request at once
    (before the log writer may have flushed it); another token and an unknown id get the same 404."""
    script = ScriptedUpstream()
    with serve_in_thread(script) as up, serve_in_thread(create_app(make_settings(up))) as proxy:
        mine = _ask(proxy, KEY_A)
        anonymous = _ask(proxy, {})
        own = _feedback(proxy, KEY_A, mine, 0.0)
        other = _feedback(proxy, KEY_B, mine)
        unknown = _feedback(proxy, KEY_A, "req-never-made")
        without_key = _feedback(proxy, {}, anonymous, 0.5)  # no token at all: the anonymous caller
        anonymous_on_mine = _feedback(proxy, {}, mine)
    assert own.status_code == 200 and own.json() == {"object": "feedback", "request_id": mine, "score": 0.0}
    _assert_not_found(other, mine)
    _assert_not_found(unknown, "req-never-made")
    assert other.json()["error"]["message"].replace(mine, "ID") == \
        unknown.json()["error"]["message"].replace("req-never-made", "ID")  # existence is not revealed
    assert without_key.status_code == 200
    _assert_not_found(anonymous_on_mine, mine)
    assert _stored(tmp_path) == [(mine, 0.0, "user"), (anonymous, 0.5, "user")]


def test_keys_mode_feedback_only_from_the_issuing_key(make_settings, tmp_path):
    script = ScriptedUpstream()
    with serve_in_thread(script) as up:
        settings = replace(make_settings(up), auth=AuthSettings(mode="keys"), admin=AdminConfig(api_key="adm"))
        with serve_in_thread(create_app(settings)) as proxy:
            keys = [httpx.post(f"{proxy}/admin/keys", headers={"authorization": "Bearer adm"},
                               json={"name": name}).json()["key"] for name in ("a", "b")]
            first, second = ({"authorization": f"Bearer {key}"} for key in keys)
            request_id = _ask(proxy, first)
            refused = _feedback(proxy, second, request_id)
            accepted = _feedback(proxy, first, request_id)
            no_key = _feedback(proxy, {}, request_id)
    _assert_not_found(refused, request_id)
    assert accepted.status_code == 200
    assert no_key.status_code == 401  # keys mode: a key is needed before anything is looked up
    assert _stored(tmp_path) == [(request_id, 1.0, "user")]

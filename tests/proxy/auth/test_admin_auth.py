"""Every ``/admin/*`` route refuses a caller without the admin key (no key, a wrong key, an issued API
key) with an OpenAI-style 401, and changes nothing; with the admin API switched off every route is a 403."""

from __future__ import annotations

from dataclasses import replace

import httpx
import pytest

from proxy.config.sections import AdminConfig, AuthSettings, CacheSettings
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, serve_in_thread
from tests.support.writebacks import CacheWrites

ADMIN = {"authorization": "Bearer admin-secret"}
CHAT = {"model": "gpt-test", "temperature": 0, "messages": [{"role": "user", "content": "hello there"}]}
# (method, path, JSON body); {key_id} is an issued key's id
ROUTES = [
    ("GET", "/admin/keys", None),
    ("POST", "/admin/keys", {"name": "intruder"}),
    ("POST", "/admin/keys/{key_id}/revoke", None),
    ("GET", "/admin/stats", None),
    ("GET", "/admin/cache/stats", None),
    ("POST", "/admin/cache/invalidate", {"all": True}),
]
ROUTE_IDS = [f"{method} {path}" for method, path, _ in ROUTES]


def _settings(make_settings, upstream: str, admin_key: str):
    settings = make_settings(upstream, cache=CacheSettings(enabled=True, semantic=False))
    return replace(settings, auth=AuthSettings(mode="keys"), admin=AdminConfig(api_key=admin_key))


def _call(proxy: str, method: str, path: str, body, headers: dict[str, str]) -> httpx.Response:
    return httpx.request(method, proxy + path, json=body, headers=headers, timeout=30)


def _assert_openai_error(response: httpx.Response, status: int, error_type: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["type"] == error_type and error["message"] and "param" in error and "code" in error
    assert response.headers["x-request-id"]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
def test_an_admin_route_refuses_a_caller_without_the_admin_key_and_changes_nothing(make_settings, method, path,
                                                                                   body) -> None:
    with serve_in_thread(ScriptedUpstream(content="hi")) as up:
        app = create_app(_settings(make_settings, up, "admin-secret"))
        writes = CacheWrites(app)
        with serve_in_thread(app) as proxy:
            issued = httpx.post(f"{proxy}/admin/keys", headers=ADMIN, json={"name": "tenant"}).json()
            user = {"authorization": f"Bearer {issued['key']}"}
            assert httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, headers=user, timeout=30).status_code == 200
            writes.wait(1)  # one cache entry that a refused invalidation must leave in place
            target = path.format(key_id=issued["id"])
            for headers in ({}, {"authorization": "Bearer wrong-key"}, user):  # no key, a wrong key, a tenant key
                refused = _call(proxy, method, target, body, headers)
                _assert_openai_error(refused, 401, "authentication_error")
                assert refused.json()["error"]["code"] == "invalid_admin_key"
                assert issued["key"] not in refused.text
            keys = httpx.get(f"{proxy}/admin/keys", headers=ADMIN).json()["data"]
            cache = httpx.get(f"{proxy}/admin/cache/stats", headers=ADMIN).json()
            again = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, headers=user, timeout=30)
    assert [(k["id"], k["revoked_at"]) for k in keys] == [(issued["id"], None)]  # none made, none revoked
    assert cache["exact"]["entries"] == 1 and again.headers["x-thrifty-cache"] == "exact"  # nothing deleted


@pytest.mark.parametrize(("method", "path", "body"), ROUTES, ids=ROUTE_IDS)
def test_with_the_admin_api_switched_off_every_admin_route_is_a_403(make_settings, method, path, body) -> None:
    with serve_in_thread(ScriptedUpstream()) as up, \
            serve_in_thread(create_app(_settings(make_settings, up, admin_key=""))) as proxy:
        for headers in ({}, {"authorization": "Basic YWRtaW46YWRtaW4="}, {"authorization": "Bearer anything"}):
            refused = _call(proxy, method, path.format(key_id="key-0"), body, headers)
            _assert_openai_error(refused, 403, "permission_error")
            assert "admin API is disabled" in refused.json()["error"]["message"]

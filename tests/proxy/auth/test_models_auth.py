"""In keys mode the model list needs a live key, as completions do; in open mode it stays open."""

from __future__ import annotations

from dataclasses import replace

import httpx

from proxy.config.sections import AdminConfig, AuthSettings
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, serve_in_thread


def test_keys_mode_refuses_the_model_list_without_a_live_key(make_settings):
    with serve_in_thread(ScriptedUpstream()) as up:
        settings = replace(make_settings(up), auth=AuthSettings(mode="keys"), admin=AdminConfig(api_key="admin-k"))
        with serve_in_thread(create_app(settings)) as proxy:
            issued = httpx.post(f"{proxy}/admin/keys", headers={"authorization": "Bearer admin-k"}, json={}).json()
            anonymous = [httpx.get(f"{proxy}{path}") for path in ("/v1/models", "/v1/models/gpt-test")]
            made_up = httpx.get(f"{proxy}/v1/models", headers={"authorization": "Bearer sk-made-up"})
            allowed = httpx.get(f"{proxy}/v1/models", headers={"authorization": f"Bearer {issued['key']}"})
            one = httpx.get(f"{proxy}/v1/models/gpt-test", headers={"authorization": f"Bearer {issued['key']}"})
        with serve_in_thread(create_app(make_settings(up))) as open_proxy:
            open_list = httpx.get(f"{open_proxy}/v1/models")
    assert [r.status_code for r in anonymous] == [401, 401]
    assert anonymous[0].json()["error"]["code"] == "missing_api_key"
    assert made_up.status_code == 401 and made_up.json()["error"]["code"] == "invalid_api_key"
    assert allowed.status_code == 200 and "gpt-test" in [m["id"] for m in allowed.json()["data"]]
    assert one.status_code == 200 and open_list.status_code == 200

"""Malformed requests get a 4xx OpenAI error body that says what to fix; nothing reaches the upstream."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, serve_in_thread

GOOD = {"model": "gpt-test", "messages": [{"role": "user", "content": "hi"}]}

CASES = [
    (b"{not json", 400, "not valid JSON"),
    (b"", 400, "empty"),
    (b"[1, 2]", 400, "JSON object"),
    (b'{"messages": [{"role": "user", "content": "hi"}]}', 400, "model"),
    (b'{"model": "gpt-test"}', 400, "messages"),
    (b'{"model": "gpt-test", "messages": []}', 400, "at least one message"),
    (b'{"model": "gpt-test", "messages": [{"role": "user", "content": "x"}], "seed": 1180591620717411303424}', 400,
     "64-bit integer"),
    (b'{"model": "gpt-test", "messages": [{"role": "user", "content": "x"}], "seed": -9223372036854775809}', 400,
     "'seed' must be between"),
    (b'{"model": "gpt-test", "messages": [{"role": "wizard", "content": "x"}]}', 400, "role"),
    (b'{"model": "gpt-test", "messages": [{"role": "user", "content": 5}]}', 400, "content"),
    (b'{"model": "gpt-test", "messages": [{"role": "user", "content": "x"}], "max_tokens": "ten"}', 400, "max_tokens"),
    (b'{"model": "gpt-test", "messages": [{"role": "user", "content": "x"}], "max_tokens": -3}', 400, "max_tokens"),
    (b'{"model": "gpt-test", "messages": [{"role": "user", "content": "x"}], "max_tokens": 99999999999}', 400,
     "max_tokens"),
    (b'{"model": "gpt-test", "messages": [{"role": "user", "content": "x"}], "temperature": 7}', 400, "temperature"),
    (b'{"model": "gpt-test", "messages": [{"role": "user", "content": "x"}], "n": 0}', 400, "'n'"),
    (b'{"model": "no-such-model", "messages": [{"role": "user", "content": "x"}]}', 404, "does not exist"),
    (b'{"model": "gpt-test", "messages": [{"role": "user", "content": "x"}], "stop": ["a", ""]}', 400, "non-empty"),
]

_FN = '{"type": "function", "function": %s}'
_ASK = '{"model": "gpt-test", "messages": [{"role": "user", "content": "x"}], "tools": [%s]%s}'
TOOL_CASES = [  # (tools, extra fields, fragment of the message)
    ('{"type": "function"}', "", "tools[0].function' must be an object"),
    ('{"type": 5}', "", "tools[0].type"),
    (_FN % '{"name": 7}', "", "tools[0].function.name"),
    (_FN % '{"name": "a", "parameters": "{}"}', "", "tools[0].function.parameters"),
    (_FN % '{"name": "a", "parameters": {"type": "object", "properties": ["x"]}}', "", "properties"),
    (_FN % '{"name": "a"}' + ", " + _FN % '{"name": "a"}', "", "tools[1].function.name' 'a' is used"),
    (_FN % '{"name": "a"}', ', "tool_choice": {"type": "function", "function": {"name": "b"}}', "not among"),
    (_FN % '{"name": "a"}', ', "tool_choice": 7', "tool_choice"),
]


@pytest.mark.parametrize(("tools", "extra", "fragment"), TOOL_CASES)
def test_malformed_tools_are_refused_before_any_upstream(client_and_upstream, tools, extra, fragment):
    client, upstream = client_and_upstream
    before = len(upstream.requests)
    response = client.post("/v1/chat/completions", content=(_ASK % (tools, extra)).encode(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert fragment in error["message"] and error["type"] == "invalid_request_error"
    assert len(upstream.requests) == before


def test_well_formed_tools_and_tool_choices_pass(client_and_upstream):
    client, upstream = client_and_upstream
    tools = [{"type": "function", "function": {"name": "a", "parameters": {"type": "object", "properties": {}}}},
             {"type": "function", "function": {"name": "b", "parameters": {"type": "object", "properties": None}}},
             {"type": "browser_search"}]  # a provider's own tool type passes to the upstream
    for choice in ("auto", "none", "required", "any", {"type": "function", "function": {"name": "b"}},
                   {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}}):
        response = client.post("/v1/chat/completions", json={**GOOD, "tools": tools, "tool_choice": choice})
        assert response.status_code == 200, response.text


@pytest.fixture(scope="module")
def client_and_upstream(tmp_path_factory):
    from proxy.config.sections import (
        BundledBackendConfig,
        CacheSettings,
        DatabaseConfig,
        ModelAlias,
        RouterSettings,
        UpstreamConfig,
    )
    from proxy.config.settings import Settings

    tmp = tmp_path_factory.mktemp("validation")
    script = ScriptedUpstream()
    with serve_in_thread(script) as url:
        settings = Settings(data_dir=str(tmp), cache=CacheSettings(enabled=False), router=RouterSettings(enabled=False), database=DatabaseConfig(url=f"sqlite+aiosqlite:///{tmp / 'p.db'}"),
                            bundled=BundledBackendConfig(enabled=False),
                            upstreams=(UpstreamConfig("fake", url + "/v1"),),
                            models=(ModelAlias("gpt-test", "fake", "upstream-model"),))
        with TestClient(create_app(settings)) as client:
            yield client, script


@pytest.mark.parametrize(("body", "status", "fragment"), CASES)
def test_malformed_chat_requests(client_and_upstream, body, status, fragment):
    client, script = client_and_upstream
    before = len(script.requests)
    response = client.post("/v1/chat/completions", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert fragment in error["message"]
    assert response.headers["x-request-id"]
    assert len(script.requests) == before


@pytest.mark.parametrize("prompt", ["", [], [1, "a"], {"a": 1}, None])
def test_malformed_completion_prompts(client_and_upstream, prompt):
    client, _ = client_and_upstream
    response = client.post("/v1/completions", json={"model": "gpt-test", "prompt": prompt})
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "prompt"


def test_unknown_route_and_method_are_openai_errors(client_and_upstream):
    client, _ = client_and_upstream
    missing = client.get("/v1/nothing-here")
    assert missing.status_code == 404 and "error" in missing.json()
    wrong = client.get("/v1/chat/completions")
    assert wrong.status_code == 405 and "error" in wrong.json()


def test_oversized_body_is_413(client_and_upstream):
    client, _ = client_and_upstream
    big = b'{"model": "gpt-test", "messages": [{"role": "user", "content": "' + b"x" * 11_000_000 + b'"}]}'
    response = client.post("/v1/chat/completions", content=big)
    assert response.status_code == 413
    assert "error" in response.json()


def test_good_request_still_works_after_bad_ones(client_and_upstream):
    client, _ = client_and_upstream
    assert client.post("/v1/chat/completions", json=GOOD).status_code == 200

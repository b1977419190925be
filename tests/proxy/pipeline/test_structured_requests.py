"""The proxy's side of structured output (a scripted upstream stands in for the model): invalid schemas in
``response_format`` and tool ``parameters`` are 400s naming the field before any upstream is called;
``response_format``, ``tools`` and ``tool_choice`` reach the upstream unchanged; no default output cap is
added to a structured request; the cache keys and semantic scopes hold the schema and the tool set."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from caches.keys import request_keys
from proxy.config.shaping import ShapingPolicy
from proxy.http.app import create_app
from proxy.shaping.caps import apply_cap, is_structured
from tests.support.servers import ScriptedUpstream, serve_in_thread

ASK = {"model": "gpt-test", "temperature": 0, "messages": [{"role": "user", "content": "Who wrote Hamlet?"}]}
PERSON = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
TOOLS = [{"type": "function", "function": {"name": "lookup", "parameters": PERSON}}]


def schema_format(schema) -> dict:
    return {"type": "json_schema", "json_schema": {"name": "answer", "strict": True, "schema": schema}}


@pytest.fixture(scope="module")
def proxy(tmp_path_factory) -> Iterator[tuple[TestClient, ScriptedUpstream]]:
    from proxy.config.sections import (
        BundledBackendConfig,
        CacheSettings,
        DatabaseConfig,
        ModelAlias,
        RouterSettings,
        UpstreamConfig,
    )
    from proxy.config.settings import Settings
    from proxy.config.shaping import ShapingSettings

    tmp = tmp_path_factory.mktemp("structured")
    script = ScriptedUpstream(content='{"name": "Shakespeare"}')
    with serve_in_thread(script) as url:
        settings = Settings(data_dir=str(tmp), cache=CacheSettings(enabled=False), router=RouterSettings(enabled=False),
                            database=DatabaseConfig(url=f"sqlite+aiosqlite:///{tmp / 'p.db'}"),
                            bundled=BundledBackendConfig(enabled=False), upstreams=(UpstreamConfig("fake", url + "/v1"),),
                            models=(ModelAlias("gpt-test", "fake", "upstream-model"),),
                            shaping=ShapingSettings(default_max_tokens=16))
        with TestClient(create_app(settings)) as client:
            yield client, script


HUGE = {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "x" * 1000} for i in range(1024)}}


@pytest.mark.parametrize(("fields", "param", "fragment"), [
    ({"response_format": schema_format({"type": "strnig"})}, "response_format.json_schema.schema",
     "is not a valid JSON Schema"),
    ({"response_format": schema_format({"type": "object", "required": "name"})}, "response_format.json_schema.schema",
     "(at 'required')"),
    ({"response_format": schema_format(HUGE)}, "response_format.json_schema.schema", "schemas are limited to"),
    ({"response_format": schema_format({"$ref": "#/$defs/gone"})}, "response_format.json_schema.schema",
     "does not resolve"),
    ({"response_format": schema_format([])}, "response_format.json_schema.schema", "must be a JSON Schema object"),
    ({"response_format": {"type": "json_schema"}}, "response_format.json_schema", "must be an object"),
    ({"response_format": {"type": "yaml"}}, "response_format", "'type'"),
    ({"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object",
                                                                             "properties": {"a": {"type": 3}}}}}]},
     "tools[0].function.parameters", "is not a valid JSON Schema"),
])
def test_invalid_schemas_are_400s_naming_the_field_before_any_upstream(proxy, fields: dict, param: str,
                                                                       fragment: str) -> None:
    client, script = proxy
    before = len(script.requests)
    response = client.post("/v1/chat/completions", json={**ASK, **fields})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["param"] == param and fragment in error["message"], error
    assert len(script.requests) == before


def test_structured_fields_reach_the_upstream_unchanged_without_a_default_cap(proxy) -> None:
    client, script = proxy
    fields = {"response_format": schema_format(PERSON), "tools": TOOLS, "tool_choice": "required"}
    sent = copy.deepcopy(fields)
    response = client.post("/v1/chat/completions", json={**ASK, **fields})
    assert response.status_code == 200, response.text
    forwarded = [r for r in script.requests if r["_path"].endswith("/completions")][-1]
    for name, value in sent.items():
        assert forwarded[name] == value
    assert "max_tokens" not in forwarded  # the default cap (16 here) would cut the JSON short
    plain = client.post("/v1/chat/completions", json=ASK)
    assert plain.status_code == 200
    assert [r for r in script.requests if r["_path"].endswith("/completions")][-1]["max_tokens"] == 16


def policy(default: int, limit: int) -> ShapingPolicy:
    return ShapingPolicy(mode="safe", default_max_tokens=default, max_tokens_limit=limit, over_limit="clamp")


def test_only_the_hard_maximum_caps_a_structured_request() -> None:
    for fields in ({"response_format": {"type": "json_object"}}, {"tools": TOOLS},
                   {"extra": 1, "guided_choice": ["a", "b"]}):
        body = {**ASK, **fields}
        assert is_structured(body)
        assert apply_cap(body, policy(16, 0)).max_tokens is None and "max_tokens" not in body
        assert apply_cap(body, policy(16, 500)).max_tokens == 500
    assert not is_structured({**ASK, "tools": TOOLS, "tool_choice": "none"})
    assert not is_structured({**ASK, "response_format": {"type": "text"}})


def test_cache_keys_and_semantic_scopes_hold_the_schema_and_the_tools() -> None:
    variants = [ASK, {**ASK, "response_format": {"type": "json_object"}},
                {**ASK, "response_format": schema_format(PERSON)},
                {**ASK, "response_format": schema_format({**PERSON, "required": []})},
                {**ASK, "tools": TOOLS}, {**ASK, "tools": TOOLS, "tool_choice": "required"},
                {**ASK, "tools": [{"type": "function", "function": {"name": "other", "parameters": PERSON}}]}]
    keys = [request_keys(body, model="gpt-test", tenant="tenant") for body in variants]
    assert len({k.exact for k in keys}) == len(variants)
    assert len({k.scope for k in keys}) == len(variants)  # a semantic hit never crosses schemas or tool sets


def completion(content=None, calls=None, finish="stop") -> dict:
    message = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [{"id": "call_1", "type": "function", "function": f} for f in calls]
    return {"choices": [{"index": 0, "message": message, "finish_reason": finish}]}


def test_answers_that_fail_their_structure_are_named() -> None:
    from proxy.wire.json_schemas import answer_problem

    strict = {**ASK, "response_format": schema_format(PERSON)}
    assert answer_problem(strict, completion('{"name": "Ada"}')) is None
    assert "does not match the schema" in answer_problem(strict, completion('{"age": 3}'))
    assert "is not JSON" in answer_problem(strict, completion('```json\n{"name": "Ada"}\n```'))
    assert "not a JSON object" in answer_problem({**ASK, "response_format": {"type": "json_object"}},
                                                 completion("[1]"))
    forced = {**ASK, "tools": TOOLS, "tool_choice": "required"}
    assert answer_problem(forced, completion(calls=[{"name": "lookup", "arguments": '{"name": "x"}'}])) is None
    assert "did not call a tool" in answer_problem(forced, completion("I cannot."))
    assert "invalid arguments" in answer_problem(forced, completion(calls=[{"name": "lookup", "arguments": "{}"}]))
    assert "not among" in answer_problem(forced, completion(calls=[{"name": "rm", "arguments": "{}"}]))
    assert answer_problem(ASK, completion("plain text")) is None

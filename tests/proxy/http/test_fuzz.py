"""Hypothesis on request bodies: whatever JSON arrives, the proxy answers with a 2xx or an OpenAI
error object (never a 500), and keeps serving."""

from __future__ import annotations

import json

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from proxy.config.sections import CacheSettings
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, proxy_settings, serve_in_thread

JSON_LEAF = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20)
JSON = st.recursive(JSON_LEAF, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                                          max_size=4), max_leaves=20)
FIELD_VALUES = JSON | st.sampled_from(["gpt-test", "user", "assistant", "system", "tool", ""])
MESSAGE = st.fixed_dictionaries({}, optional={"role": FIELD_VALUES, "content": FIELD_VALUES, "name": FIELD_VALUES,
                                              "tool_calls": JSON, "tool_call_id": FIELD_VALUES})
CHAT_LIKE = st.fixed_dictionaries({}, optional={
    "model": FIELD_VALUES, "messages": st.lists(MESSAGE, max_size=3) | JSON, "max_tokens": JSON,
    "max_completion_tokens": JSON, "temperature": JSON, "top_p": JSON, "n": JSON, "stream": JSON,
    "stream_options": JSON, "stop": JSON, "seed": JSON, "tools": JSON, "tool_choice": JSON,
    "response_format": JSON, "logprobs": JSON, "thrifty": JSON, "prompt": JSON,
})


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    script = ScriptedUpstream(echo=True, stream_when_asked=True)
    with serve_in_thread(script) as up:
        app = create_app(proxy_settings(up, tmp_path_factory.mktemp("fuzz"), cache=CacheSettings(enabled=True, semantic=False),
                                        max_retries=0))
        with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=30) as client:
            yield client


def _check(response: httpx.Response) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        error = response.json()["error"]
        assert set(error) == {"message", "type", "param", "code"} and isinstance(error["message"], str)
    assert response.headers.get("x-request-id")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=CHAT_LIKE, endpoint=st.sampled_from(["/v1/chat/completions", "/v1/completions"]))
def test_any_json_body_gets_an_answer_or_an_openai_error(proxy, body, endpoint):
    _check(proxy.post(endpoint, content=json.dumps(body)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=200) | JSON.map(lambda v: json.dumps(v).encode()))
def test_any_bytes_get_an_openai_error_and_the_proxy_keeps_serving(proxy, raw):
    for path in ("/v1/chat/completions", "/v1/completions", "/v1/feedback", "/v1/batches"):
        _check(proxy.post(path, content=raw, headers={"content-type": "application/json"}))
    assert proxy.get("/health").status_code == 200

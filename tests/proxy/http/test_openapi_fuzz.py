"""Schema-driven fuzzing: schemathesis generates requests from the proxy's own /openapi.json (now
with real request bodies) against the running app; bounded in examples for CI."""

from __future__ import annotations

from dataclasses import replace

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable

from proxy.config.sections import AdminConfig, CacheSettings
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, proxy_settings, serve_in_thread


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    script = ScriptedUpstream(echo=True, stream_when_asked=True)
    with serve_in_thread(script) as up:
        settings = replace(proxy_settings(up, tmp_path_factory.mktemp("openapi"),
                                          cache=CacheSettings(enabled=True, semantic=False), max_retries=0),
                           admin=AdminConfig(api_key="admin-key"))
        with serve_in_thread(create_app(settings)) as url:
            yield url


def test_the_document_describes_the_request_bodies(served):
    import httpx

    doc = httpx.get(served + "/openapi.json").json()
    chat = doc["paths"]["/v1/chat/completions"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert chat == {"$ref": "#/components/schemas/ChatRequest"}
    assert "messages" in doc["components"]["schemas"]["ChatRequest"]["properties"]
    assert "multipart/form-data" in doc["paths"]["/v1/files"]["post"]["requestBody"]["content"]


def test_generated_requests_never_get_a_server_error(served):
    schema = schemathesis.openapi.from_url(served + "/openapi.json").include(path_regex=r"^/(v1|admin)/")
    failures: list[str] = []
    fuzzed: list[str] = []
    unbuildable: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15

    for operation in operations:
        @settings(max_examples=8, deadline=None, database=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def run(case) -> None:
            response = case.call(base_url=served, headers={"authorization": "Bearer admin-key"}, timeout=30)
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path}: {response.status_code} {response.text[:200]}")
            elif response.status_code >= 400 and "json" in response.headers.get("content-type", ""):
                error = response.json().get("error")
                if not (isinstance(error, dict) and {"message", "type", "param", "code"} <= set(error)):
                    failures.append(f"{case.method} {case.formatted_path}: not an OpenAI error: {response.text[:200]}")

        try:
            run()
            fuzzed.append(f"{operation.method.upper()} {operation.path}")
        except Unsatisfiable:  # schemathesis could not build a valid case for it (e.g. a path id)
            unbuildable.append(f"{operation.method.upper()} {operation.path}")
    assert failures == []
    assert len(fuzzed) >= 12, (fuzzed, unbuildable)
    assert "POST /v1/chat/completions" in fuzzed and "POST /v1/files" in fuzzed


def test_ui_pages_and_metrics_are_documented_with_their_real_media_types(served):
    import httpx

    paths = httpx.get(served + "/openapi.json").json()["paths"]
    overview = paths["/ui/overview"]["get"]["responses"]
    assert set(overview["200"]["content"]) == {"text/html"} and set(overview["default"]["content"]) == {"text/html"}
    login = paths["/ui/login"]["post"]
    assert set(login["requestBody"]["content"]) == {"application/x-www-form-urlencoded"}
    assert all(set(r.get("content", {"text/html": 0})) == {"text/html"} for r in login["responses"].values())
    metrics = paths["/metrics"]["get"]["responses"]
    assert set(metrics["200"]["content"]) == {"text/plain; version=0.0.4"}
    assert set(metrics["default"]["content"]) == {"application/json"}  # a wrong metrics token: an OpenAI error
    assert set(paths["/v1/models"]["get"]["responses"]["200"]["content"]) == {"application/json"}

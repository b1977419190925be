"""Prompt shaping through the proxy app (a scripted upstream records what it receives): the body
sent upstream, the x-thrifty-shaping header, the request log, the cache key of shaped requests,
and bad input (malformed tools, huge system prompts, bad document marks) that never gives a 500."""

from __future__ import annotations

import json
from dataclasses import replace

import httpx
import pytest

from proxy.config.sections import CacheSettings
from proxy.config.shaping import ShapingOverride, ShapingSettings
from proxy.http.app import create_app
from proxy.shaping.prompt import NOTE_HEADER
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread
from tests.support.writebacks import CacheWrites

SYSTEM = "You are the ACME support assistant.\nCurrent date: {date}\nAnswer briefly."
TOOLS = [{"type": "function", "function": {"name": "zeta", "parameters": {"type": "object", "properties": {}}}},
         {"function": {"name": "alpha", "parameters": {"properties": {}, "type": "object"}}, "type": "function"}]


def body(date: str = "2024-05-01", tools=None, **extra) -> dict:
    data = {"model": "gpt-test", "temperature": 0, "max_tokens": 20,
            "messages": [{"role": "system", "content": SYSTEM.format(date=date)},
                         {"role": "user", "content": "Where is my order? It was placed on 2024-04-30."}], **extra}
    if tools is not None:
        data["tools"] = tools
    return data


def sent(script: ScriptedUpstream) -> list[dict]:
    return [r for r in script.requests if r["_path"].endswith("/completions")]


@pytest.fixture
def proxy_for(make_settings):
    stack = []

    def start(shaping: ShapingSettings, cache: bool = False):
        script = ScriptedUpstream()
        up = serve_in_thread(script)
        settings = make_settings(up.__enter__(), cache=CacheSettings(enabled=cache, semantic=False))
        app = create_app(replace(settings, shaping=shaping))
        proxy = serve_in_thread(app)
        stack.append((up, proxy))
        return script, proxy.__enter__(), app

    yield start
    for up, proxy in reversed(stack):
        proxy.__exit__(None, None, None)
        up.__exit__(None, None, None)


def test_safe_shaping_sends_a_stable_prefix_and_says_what_it_did(proxy_for, tmp_path) -> None:
    script, proxy, _ = proxy_for(ShapingSettings())
    reply = httpx.post(f"{proxy}/v1/chat/completions", json=body(tools=TOOLS), timeout=30)
    assert reply.status_code == 200
    assert reply.headers["x-thrifty-shaping"] == "safe; tools-canonical; volatile-moved:1"
    upstream = sent(script)[-1]
    system = upstream["messages"][0]["content"]
    assert system == f"You are the ACME support assistant.\nAnswer briefly.\n\n{NOTE_HEADER}\nCurrent date: 2024-05-01"
    assert upstream["messages"][1] == body()["messages"][1]  # the user's words, dates included, untouched
    assert [t["function"]["name"] for t in upstream["tools"]] == ["alpha", "zeta"]
    assert "thrifty" not in upstream
    rows = wait_for_log_rows(tmp_path / "proxy.db", "shaping, cached_tokens", 1)
    assert rows[0] == ("safe,tools-canonical,volatile-moved:1", 2)


def test_off_forwards_the_body_unchanged(proxy_for) -> None:
    script, proxy, _ = proxy_for(ShapingSettings(mode="off"))
    httpx.post(f"{proxy}/v1/chat/completions", json=body(tools=TOOLS), timeout=30)
    upstream = {k: v for k, v in sent(script)[-1].items() if not k.startswith("_")}
    assert json.dumps(upstream) == json.dumps({**body(tools=TOOLS), "model": "upstream-model"})


def test_a_key_can_turn_shaping_off_or_up(proxy_for) -> None:
    keys = (ShapingOverride("plain", tenant="anonymous", mode="off"),)
    script, proxy, _ = proxy_for(ShapingSettings(mode="aggressive", keys=keys))
    anonymous = httpx.post(f"{proxy}/v1/chat/completions", json=body(), timeout=30)
    assert "x-thrifty-shaping" not in anonymous.headers
    keyed = httpx.post(f"{proxy}/v1/chat/completions", json=body(), timeout=30,
                       headers={"authorization": "Bearer sk-1"})
    assert keyed.headers["x-thrifty-shaping"] == "aggressive; volatile-moved:1"
    assert "[v1]" in sent(script)[-1]["messages"][0]["content"]


def test_requests_differing_only_in_tool_order_share_one_cache_entry(proxy_for) -> None:
    script, proxy, app = proxy_for(ShapingSettings(), cache=True)
    writes = CacheWrites(app)
    first = httpx.post(f"{proxy}/v1/chat/completions", json=body(tools=TOOLS), timeout=30)
    assert first.headers["x-thrifty-cache"] == "miss"
    writes.wait(1)  # the first answer's write-back
    second = httpx.post(f"{proxy}/v1/chat/completions", json=body(tools=list(reversed(TOOLS))), timeout=30)
    assert second.headers["x-thrifty-cache"] == "exact"
    assert len(sent(script)) == 1


@pytest.mark.parametrize("tools", [
    [{"type": "function"}],
    [{"type": "function", "function": "not an object"}],
    [{"type": "function", "function": {"name": 7, "parameters": [1, 2]}}, {"weird": {"b": 1, "a": 2}}],
])
def test_malformed_tool_schemas_are_a_400_before_shaping(proxy_for, tools) -> None:
    """Checked by the proxy (proxy.wire.schemas), so every upstream gets the same error and shaping's
    canonical tool order never has to guess at a nameless tool."""
    script, proxy, _ = proxy_for(ShapingSettings(mode="aggressive"))
    before = len(sent(script))
    reply = httpx.post(f"{proxy}/v1/chat/completions", json=body(tools=tools), timeout=30)
    assert reply.status_code == 400 and reply.json()["error"]["param"].startswith("tools[0]")
    assert len(sent(script)) == before


def nested(levels: int) -> dict:
    """A JSON schema whose objects nest ``levels`` (rounded up to an odd number) deep."""
    value: dict = {"type": "string"}
    for _ in range(levels // 2):
        value = {"type": "object", "properties": {"x": value}}
    return value


def deep_body(field: str, depth: int) -> dict:
    """A chat body whose ``field`` nests about ``depth`` levels of JSON."""
    if field == "tools":
        return body(tools=[{"type": "function", "function": {"name": "f", "parameters": nested(depth)}}])
    if field == "response_format":
        return body(response_format={"type": "json_schema", "json_schema": {"name": "r", "schema": nested(depth)}})
    data = body()
    data["messages"][1]["content"] = [{"type": "text", "text": "hi", "extra": nested(depth)}]
    return data


@pytest.mark.parametrize("field", ["tools", "response_format", "messages"])
def test_json_nested_too_deeply_is_a_400_naming_the_field_not_a_500(proxy_for, field) -> None:
    script, proxy, _ = proxy_for(ShapingSettings(mode="aggressive", context_budget_tokens=100_000), cache=True)
    reply = httpx.post(f"{proxy}/v1/chat/completions", json=deep_body(field, 600), timeout=30)
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["param"] == field and error["code"] == "nesting_too_deep" and "64 levels" in error["message"]
    assert sent(script) == []
    ok = httpx.post(f"{proxy}/v1/chat/completions", json=deep_body(field, 25), timeout=30)  # 30 levels or fewer
    assert ok.status_code == 200 and len(sent(script)) == 1


@pytest.mark.parametrize("calls", [5, True, "call", {"id": "c1"}, [5]])
def test_malformed_tool_calls_are_a_400_even_when_trimming(proxy_for, calls) -> None:
    script, proxy, _ = proxy_for(ShapingSettings(context_budget_tokens=50))
    data = body()
    data["messages"][1:1] = [{"role": "user", "content": "old " * 100},
                             {"role": "assistant", "content": None, "tool_calls": calls}]
    reply = httpx.post(f"{proxy}/v1/chat/completions", json=data, timeout=30)
    assert reply.status_code == 400 and reply.json()["error"]["param"] == "messages[2].tool_calls"
    assert sent(script) == []


def test_a_huge_system_prompt_is_shaped_without_trouble(proxy_for) -> None:
    script, proxy, _ = proxy_for(ShapingSettings(mode="aggressive"))
    huge = ("Policy line with 10:42 and 2024-05-01 in it.   \n" + " " * 5000 + "\n") * 1500  # ~8 MB
    data = body()
    data["messages"][0]["content"] = "Current date: 2024-05-01\n" + huge
    reply = httpx.post(f"{proxy}/v1/chat/completions", json=data, timeout=60)
    assert reply.status_code == 200
    assert reply.headers["x-thrifty-shaping"] == "aggressive; volatile-moved:3001"


def test_a_bad_document_mark_is_an_openai_400(proxy_for, tmp_path) -> None:
    script, proxy, _ = proxy_for(ShapingSettings())
    reply = httpx.post(f"{proxy}/v1/chat/completions",
                       json=body(thrifty={"documents": [{"message": 5, "parts": [0, 1]}]}), timeout=30)
    assert reply.status_code == 400
    assert reply.json()["error"]["param"] == "thrifty.documents[0]"
    assert sent(script) == []
    assert wait_for_log_rows(tmp_path / "proxy.db", "status_code", 1) == [(400,)]


def test_marked_documents_reach_the_upstream_in_a_stable_order(proxy_for) -> None:
    script, proxy, _ = proxy_for(ShapingSettings())
    docs = ["Doc 2: returns take 30 days.", "Doc 1: shipping is free.", "Doc 3: we ship to the EU."]
    for order in (docs, list(reversed(docs))):
        data = body(thrifty={"documents": [{"message": 1, "parts": [0, 3]}]})
        data["messages"][1]["content"] = [{"type": "text", "text": d} for d in order] + \
            [{"type": "text", "text": "Question: is shipping free?"}]
        reply = httpx.post(f"{proxy}/v1/chat/completions", json=data, timeout=30)
        assert "documents-ordered:3" in reply.headers["x-thrifty-shaping"]
    first, second = (r["messages"][1]["content"] for r in sent(script))
    assert first == second and [p["text"] for p in first][:3] == sorted(docs)

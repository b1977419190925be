"""/v1/responses through the real openai SDK, translated to chat completions in front of a scripted
upstream: create and stream (events in OpenAI's order), retrieve, delete, input_items, instructions,
function tools and tool outputs, text.format, previous_response_id chains (also across a restart, on
SQLite and PostgreSQL), store=false, other keys' ids as 404s, and 400s for bad input."""

from __future__ import annotations

import json
from dataclasses import replace

import httpx
import openai
import pytest
from openai import OpenAI

from proxy.config.sections import DatabaseConfig
from proxy.http.app import create_app
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, read_body, serve_in_thread, serve_lifespan

WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
TOOL = {"type": "function", "name": "get_weather", "description": "Weather in a city", "parameters": WEATHER}


@pytest.fixture
def upstream():
    script = ScriptedUpstream(echo=True, stream_when_asked=True)
    script.gate.set()
    with serve_in_thread(script) as url:
        script.url = url
        yield script


def _client(proxy: str, key: str = "sk-alice") -> OpenAI:
    return OpenAI(base_url=proxy + "/v1", api_key=key, max_retries=0)


def test_create_retrieve_chain_input_items_and_delete(make_settings, upstream, tmp_path):
    with serve_in_thread(create_app(make_settings(upstream.url))) as proxy:
        client = _client(proxy)
        first = client.responses.create(model="gpt-test", input="hello", instructions="Answer briefly.",
                                        max_output_tokens=20, metadata={"run": "1"})
        second = client.responses.create(model="gpt-test", input=[{"role": "user", "content": [
            {"type": "input_text", "text": "and "}, {"type": "input_text", "text": "again"}]}],
            previous_response_id=first.id)
        retrieved = client.responses.retrieve(first.id)
        items = client.responses.input_items.list(second.id)
        client.responses.delete(first.id)
        with pytest.raises(openai.NotFoundError):
            client.responses.retrieve(first.id)
        third = client.responses.create(model="gpt-test", input="still", previous_response_id=second.id)
    assert first.id.startswith("resp_") and first.object == "response" and first.status == "completed"
    assert first.output_text == "echo: hello" and first.model == "gpt-test"
    assert (first.usage.input_tokens, first.usage.output_tokens, first.usage.total_tokens) == (5, 1, 6)
    assert first.instructions == "Answer briefly." and first.metadata == {"run": "1"}
    sent = [r["messages"] for r in upstream.requests]
    assert sent[0] == [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": "hello"}]
    assert upstream.requests[0]["max_tokens"] == 20
    # instructions are not carried into a follow-up (as OpenAI's); the earlier turn's items are
    assert sent[1] == [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "echo: hello"},
                       {"role": "user", "content": "and again"}]
    assert second.previous_response_id == first.id and second.output_text == "echo: and again"
    assert retrieved.id == first.id and retrieved.output_text == first.output_text
    assert [i.type for i in items.data] == ["message"] and [p.text for p in items.data[0].content] == ["and ", "again"]
    # deleting the first response does not break the chain stored with the second
    assert sent[2][-3:] == [{"role": "user", "content": "and again"},
                            {"role": "assistant", "content": "echo: and again"}, {"role": "user", "content": "still"}]
    assert third.output_text == "echo: still"
    rows = wait_for_log_rows(tmp_path / "proxy.db", "endpoint, status_code, prompt_tokens", 3)
    assert [r[0] for r in rows] == ["responses"] * 3 and rows[0][1:] == (200, 5)


def test_stream_events_follow_openais_order_and_the_streamed_response_is_stored(make_settings, upstream):
    with serve_in_thread(create_app(make_settings(upstream.url))) as proxy:
        client = _client(proxy)
        with client.responses.stream(model="gpt-test", input="tell me") as stream:
            kinds = [event.type for event in stream]
            final = stream.get_final_response()
        raw = [json.loads(line[6:]) for line in httpx.post(
            f"{proxy}/v1/responses", json={"model": "gpt-test", "input": "x", "stream": True},
            headers={"authorization": "Bearer sk-alice"}).text.splitlines() if line.startswith("data: ")]
        stored = client.responses.retrieve(final.id)
    deltas = upstream.chunks
    assert kinds == ["response.created", "response.in_progress", "response.output_item.added",
                     "response.content_part.added", *["response.output_text.delta"] * deltas,
                     "response.output_text.done", "response.content_part.done", "response.output_item.done",
                     "response.completed"]
    assert final.output_text == "tok0 tok1 tok2 " and final.status == "completed" and final.usage.output_tokens == 3
    assert [e["sequence_number"] for e in raw] == list(range(len(raw)))
    assert stored.output_text == final.output_text


class ToolUpstream:
    """An upstream that answers with one get_weather tool call (whole or streamed in pieces) until it is
    sent the tool's output, then with text quoting it."""

    def __init__(self) -> None:
        self.requests: list[dict] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        body = json.loads(await read_body(receive))
        self.requests.append(body)
        last = body["messages"][-1]
        answered = last["role"] == "tool"
        message = {"role": "assistant", "content": f"It is {last['content']}."} if answered else {
            "role": "assistant", "content": None,
            "tool_calls": [{"id": "call_1", "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]}
        finish = "stop" if answered else "tool_calls"
        usage = {"prompt_tokens": 9, "completion_tokens": 4, "total_tokens": 13}
        if not body.get("stream"):
            payload = {"id": "c", "object": "chat.completion", "created": 1, "model": "m", "usage": usage,
                       "choices": [{"index": 0, "message": message, "finish_reason": finish}]}
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": json.dumps(payload).encode()})
            return
        base = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m"}
        if answered:
            deltas = [{"role": "assistant", "content": message["content"]}]
        else:
            deltas = [{"role": "assistant", "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                                            "function": {"name": "get_weather", "arguments": ""}}]},
                      {"tool_calls": [{"index": 0, "function": {"arguments": '{"city": '}}]},
                      {"tool_calls": [{"index": 0, "function": {"arguments": '"Paris"}'}}]}]
        chunks = [{**base, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
        chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
        chunks.append({**base, "choices": [], "usage": usage})
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
        for chunk in chunks:
            await send({"type": "http.response.body", "body": f"data: {json.dumps(chunk)}\n\n".encode(),
                        "more_body": True})
        await send({"type": "http.response.body", "body": b"data: [DONE]\n\n"})


def test_function_tools_calls_and_outputs_round_trip(make_settings):
    script = ToolUpstream()
    with serve_in_thread(script) as url, serve_in_thread(create_app(make_settings(url))) as proxy:
        client = _client(proxy)
        asked = client.responses.create(model="gpt-test", input="Weather in Paris?", tools=[TOOL],
                                        tool_choice="required")
        call = asked.output[0]
        answered = client.responses.create(model="gpt-test", previous_response_id=asked.id, tools=[TOOL], input=[
            {"type": "function_call_output", "call_id": call.call_id, "output": "sunny, 21 C"}])
        with client.responses.stream(model="gpt-test", input="Weather in Paris?", tools=[TOOL]) as stream:
            kinds = [event.type for event in stream]
            streamed = stream.get_final_response()
        schema = client.responses.create(model="gpt-test", input="x", text={"format": {
            "type": "json_schema", "name": "weather", "schema": WEATHER, "strict": True}})
    assert (call.type, call.name, call.call_id, json.loads(call.arguments)) == (
        "function_call", "get_weather", "call_1", {"city": "Paris"})
    sent = script.requests[0]
    assert sent["tools"] == [{"type": "function", "function": {"name": "get_weather", "description": "Weather in a city",
                                                               "parameters": WEATHER}}]
    assert sent["tool_choice"] == "required"
    assert script.requests[1]["messages"][1:] == [
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21 C"}]
    assert answered.output_text == "It is sunny, 21 C."
    assert kinds == ["response.created", "response.in_progress", "response.output_item.added",
                     "response.function_call_arguments.delta", "response.function_call_arguments.delta",
                     "response.function_call_arguments.done", "response.output_item.done", "response.completed"]
    assert streamed.output[0].arguments == '{"city": "Paris"}' and streamed.output[0].call_id == "call_1"
    assert script.requests[-1]["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "weather", "schema": WEATHER, "strict": True}}
    assert schema.text.format.type == "json_schema"


def test_another_keys_response_is_a_404_and_store_false_is_not_kept(make_settings, upstream):
    with serve_in_thread(create_app(make_settings(upstream.url))) as proxy:
        alice, bob = _client(proxy), _client(proxy, "sk-bob")
        mine = alice.responses.create(model="gpt-test", input="secret")
        unstored = alice.responses.create(model="gpt-test", input="passing", store=False)
        refusals = []
        for attempt in (lambda: bob.responses.retrieve(mine.id),
                        lambda: bob.responses.input_items.list(mine.id),
                        lambda: bob.responses.delete(mine.id),
                        lambda: bob.responses.create(model="gpt-test", input="x", previous_response_id=mine.id),
                        lambda: alice.responses.retrieve(unstored.id),
                        lambda: alice.responses.create(model="gpt-test", input="x", previous_response_id="resp_nope")):
            with pytest.raises(openai.NotFoundError) as refused:
                attempt()
            refusals.append(refused.value.body)
        still = alice.responses.retrieve(mine.id)  # bob's delete removed nothing
    assert unstored.store is False and unstored.output_text == "echo: passing"
    assert still.output_text == "echo: secret"
    assert {r["code"] for r in refusals} == {"response_not_found", "previous_response_not_found"}
    assert all("secret" not in r["message"] for r in refusals)


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_chain_survives_a_proxy_restart(make_settings, upstream, database, request):
    settings = make_settings(upstream.url)
    if database == "postgresql":
        settings = replace(settings, database=DatabaseConfig(url=request.getfixturevalue("pg_database")))
    with serve_in_thread(create_app(settings)) as proxy:
        first = _client(proxy).responses.create(model="gpt-test", input="remember me")
    with serve_in_thread(create_app(settings)) as proxy:
        second = _client(proxy).responses.create(model="gpt-test", input="who?", previous_response_id=first.id)
        with pytest.raises(openai.NotFoundError):
            _client(proxy, "sk-mallory").responses.retrieve(first.id)
    assert upstream.requests[-1]["messages"] == [{"role": "user", "content": "remember me"},
                                                 {"role": "assistant", "content": "echo: remember me"},
                                                 {"role": "user", "content": "who?"}]
    assert second.output_text == "echo: who?"


BAD = [
    ({"model": "gpt-test", "input": [{"type": "web_search_call", "id": "x"}]}, "input[0].type", "unsupported_item_type"),
    ({"model": "gpt-test", "input": [{"role": "robot", "content": "x"}]}, "input[0].role", None),
    ({"model": "gpt-test", "input": [{"role": "user", "content": [{"type": "input_audio"}]}]},
     "input[0].content[0]", "unsupported_content_type"),
    ({"model": "gpt-test", "input": []}, "input", None),
    ({"model": "gpt-test"}, "input", None),
    ({"model": "gpt-test", "input": "x", "tools": [{"type": "web_search"}]}, "tools[0].type", "unsupported_tool_type"),
    ({"model": "gpt-test", "input": "x", "text": {"format": {"type": "yaml"}}}, "text.format.type", None),
    ({"model": "gpt-test", "input": "x", "max_output_tokens": 0}, "max_output_tokens", None),
    ({"model": "gpt-test", "input": "x", "instructions": ["not", "text"]}, "instructions", None),
    ({"model": "gpt-test", "input": "x", "previous_response_id": 7}, "previous_response_id", None),
    ({"model": "gpt-test", "input": [{"type": "function_call", "call_id": "c"}]}, "input[0].name", None),
]


def test_bad_input_is_an_openai_error_and_loses_no_stored_response(make_settings, upstream, tmp_path):
    with serve_in_thread(create_app(make_settings(upstream.url))) as proxy:
        kept = _client(proxy).responses.create(model="gpt-test", input="keep me")
        answers = [httpx.post(f"{proxy}/v1/responses", json=body, headers={"authorization": "Bearer sk-alice"})
                   for body, _, _ in BAD]
        huge = httpx.post(f"{proxy}/v1/responses", json={"model": "gpt-test", "input": "x",
                                                         "instructions": "y" * 20_000_000},
                          headers={"authorization": "Bearer sk-alice"})
        after = _client(proxy).responses.retrieve(kept.id)
    for (body, param, code), response in zip(BAD, answers, strict=True):
        assert response.status_code == 400, (body, response.text)
        error = response.json()["error"]
        assert (error["type"], error["param"], error["code"]) == ("invalid_request_error", param, code), body
    assert huge.status_code == 413 and huge.json()["error"]["type"] == "invalid_request_error"
    assert after.output_text == "echo: keep me"


def test_responses_batch_lines_run_and_are_stored_for_the_batch_key(make_settings, upstream, tmp_path):
    import io
    import time

    from proxy.config.sections import BatchSettings

    settings = replace(make_settings(upstream.url), batch=BatchSettings(poll_interval_s=0.05))
    lines = b"".join(json.dumps({"custom_id": f"q-{i}", "method": "POST", "url": "/v1/responses",
                                 "body": {"model": "gpt-test", "input": f"question {i}"}}).encode() + b"\n"
                     for i in range(3))
    with serve_in_thread(create_app(settings)) as proxy:
        client = _client(proxy)
        uploaded = client.files.create(file=("in.jsonl", io.BytesIO(lines)), purpose="batch")
        batch = client.batches.create(input_file_id=uploaded.id, endpoint="/v1/responses", completion_window="24h")
        deadline = time.monotonic() + 60
        while (batch := client.batches.retrieve(batch.id)).status not in ("completed", "failed", "expired"):
            assert time.monotonic() < deadline, batch
            time.sleep(0.1)
        out = {o["custom_id"]: o["response"] for o in map(json.loads, client.files.content(
            batch.output_file_id).text.splitlines())}
        stored = client.responses.retrieve(out["q-1"]["body"]["id"])
    assert batch.status == "completed" and batch.request_counts.completed == 3, batch
    assert {k: v["body"]["output"][0]["content"][0]["text"] for k, v in out.items()} == {
        f"q-{i}": f"echo: question {i}" for i in range(3)}
    assert stored.output_text == "echo: question 1"
    rows = wait_for_log_rows(tmp_path / "proxy.db", "endpoint, batch_id", 3)
    assert {r for r in rows} == {("responses", batch.id)}


class NativeUpstream:
    """An upstream serving the Responses API itself: each answer quotes the request's input."""

    def __init__(self) -> None:
        self.requests: list[dict] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        body = json.loads(await read_body(receive) or b"{}")
        self.requests.append({**body, "_path": scope["path"]})
        response = {"id": f"resp_up{len(self.requests)}", "object": "response", "created_at": 1, "status": "completed",
                    "model": body.get("model"), "output": [{"type": "message", "id": "msg_1", "status": "completed",
                                                            "role": "assistant", "content": [
                                                                {"type": "output_text", "text": f"native: {body.get('input')}",
                                                                 "annotations": []}]}],
                    "usage": {"input_tokens": 11, "output_tokens": 3, "total_tokens": 14},
                    "previous_response_id": body.get("previous_response_id")}
        if not body.get("stream"):
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
            await send({"type": "http.response.body", "body": json.dumps(response).encode()})
            return
        events = [{"type": "response.created", "sequence_number": 0, "response": {**response, "status": "in_progress",
                                                                                  "output": []}},
                  {"type": "response.completed", "sequence_number": 1, "response": response}]
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/event-stream")]})
        for event in events:
            await send({"type": "http.response.body", "more_body": True,
                        "body": f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode()})
        await send({"type": "http.response.body", "body": b""})


def test_upstreams_with_the_responses_api_get_requests_as_they_are(make_settings, tmp_path):
    script = NativeUpstream()
    with serve_in_thread(script) as url:
        settings = make_settings(url)
        settings = replace(settings, upstreams=(replace(settings.upstreams[0], responses_api=True),))
        with serve_in_thread(create_app(settings)) as proxy:
            alice = _client(proxy)
            first = alice.responses.create(model="gpt-test", input="hi", tools=[TOOL, {"type": "web_search"}])
            second = alice.responses.create(model="gpt-test", input="more", previous_response_id=first.id)
            with alice.responses.stream(model="gpt-test", input="streamed") as stream:
                kinds = [event.type for event in stream]
                streamed = stream.get_final_response()
            retrieved = alice.responses.retrieve(first.id)
            with pytest.raises(openai.NotFoundError):
                _client(proxy, "sk-bob").responses.create(model="gpt-test", input="x", previous_response_id=first.id)
    assert [r["_path"] for r in script.requests] == ["/v1/responses"] * 3  # bob's request never left the proxy
    assert script.requests[0]["model"] == "upstream-model" and script.requests[0]["tools"] == [TOOL, {"type": "web_search"}]
    assert script.requests[1]["previous_response_id"] == first.id == "resp_up1"
    assert first.model == "gpt-test" and first.output_text == "native: hi" and second.output_text == "native: more"
    assert kinds == ["response.created", "response.completed"] and streamed.output_text == "native: streamed"
    assert retrieved.output_text == "native: hi"
    rows = wait_for_log_rows(tmp_path / "proxy.db", "endpoint, upstream, prompt_tokens, completion_tokens, status_code", 4)
    assert [r for r in rows if r[-1] == 200] == [("responses", "fake", 11, 3, 200)] * 3
    assert [r[-1] for r in rows if r[-1] != 200] == [404]

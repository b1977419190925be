"""Structured output and tool calls through the real ``openai`` SDK against the bundled backend (real
SmolLM2-135M, fp32 weights, the paged engine, served over HTTP by uvicorn): ``chat.completions.parse`` with
a Pydantic model, ``tool_choice="required"`` and a named function, a streamed call as ``delta.tool_calls``
chunks, a two-step tool loop, ``json_object``, ``guided_choice``, and 400s naming bad schemas and tools."""

from __future__ import annotations

import json
from collections.abc import Iterator

import jsonschema
import openai
import pytest
from pydantic import BaseModel

from backend.config import BackendConfig
from backend.engine import Engine, EngineConfig, EngineService
from backend.server import create_backend_app
from benchmarks.harness import serve_in_thread

MODEL = "smollm2"
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"enum": ["celsius", "fahrenheit"]}},
           "required": ["city", "unit"], "additionalProperties": False}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Current weather in a city",
                                           "parameters": WEATHER}},
         {"type": "function", "function": {"name": "get_time", "description": "Local time in a city",
                                           "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                          "required": ["city"]}}}]
ASK = [{"role": "user", "content": "What is the weather in Paris right now?"}]


@pytest.fixture(scope="module")
def client(smollm2) -> Iterator[openai.OpenAI]:
    engine = Engine(smollm2, EngineConfig(kv_cache_memory=64 * 2**20, max_model_len=2048, max_num_seqs=8))
    config = BackendConfig(served_model_name=MODEL, max_model_len=2048)
    with serve_in_thread(create_backend_app(config, smollm2, EngineService(engine))) as base:
        yield openai.OpenAI(base_url=base + "/v1", api_key="unused", max_retries=0, timeout=300)


class Person(BaseModel):
    name: str
    age: int


def test_parse_with_a_pydantic_model_returns_the_parsed_object(client: openai.OpenAI) -> None:
    completion = client.chat.completions.parse(
        model=MODEL, messages=[{"role": "user", "content": "Invent a person: a name and an age."}],
        response_format=Person, temperature=0, max_tokens=60)
    choice = completion.choices[0]
    assert choice.finish_reason == "stop"
    assert isinstance(choice.message.parsed, Person)
    assert Person.model_validate_json(choice.message.content) == choice.message.parsed


def test_json_object_is_a_bare_json_object(client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "Describe a cat as JSON."}],
        response_format={"type": "json_object"}, temperature=0, max_tokens=80)
    content = completion.choices[0].message.content
    assert completion.choices[0].finish_reason == "stop"
    assert isinstance(json.loads(content), dict)  # no code fence, no prose


def valid_call(call, tools=TOOLS) -> dict:
    assert call.id.startswith("call_") and call.type == "function"
    tool = next(t for t in tools if t["function"]["name"] == call.function.name)
    arguments = json.loads(call.function.arguments)
    jsonschema.validate(arguments, tool["function"]["parameters"])
    return arguments


def test_tool_choice_required_returns_valid_tool_calls(client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(model=MODEL, messages=ASK, tools=TOOLS, tool_choice="required",
                                                temperature=0, max_tokens=80)
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    assert len(choice.message.tool_calls) == 1
    valid_call(choice.message.tool_calls[0])


def test_a_named_function_is_the_one_called(client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(
        model=MODEL, messages=ASK, tools=TOOLS, tool_choice={"type": "function", "function": {"name": "get_time"}},
        temperature=1.0, seed=5, n=2, max_tokens=80)
    for choice in completion.choices:
        assert choice.finish_reason == "tool_calls"
        assert choice.message.tool_calls[0].function.name == "get_time"
        valid_call(choice.message.tool_calls[0])


def test_a_streamed_tool_call_arrives_as_delta_tool_calls_chunks(client: openai.OpenAI) -> None:
    stream = client.chat.completions.create(model=MODEL, messages=ASK, tools=TOOLS, tool_choice="required",
                                            temperature=0, max_tokens=80, stream=True)
    chunks = list(stream)
    pieces = [c.choices[0].delta.tool_calls for c in chunks if c.choices and c.choices[0].delta.tool_calls]
    assert pieces, "no delta.tool_calls chunk"
    first = pieces[0][0]
    assert first.index == 0 and first.id.startswith("call_") and first.function.name
    arguments = "".join(p[0].function.arguments or "" for p in pieces)
    tool = next(t for t in TOOLS if t["function"]["name"] == first.function.name)
    jsonschema.validate(json.loads(arguments), tool["function"]["parameters"])
    assert chunks[-1].choices[0].finish_reason == "tool_calls"
    assert not any(c.choices[0].delta.content for c in chunks if c.choices)  # no half call leaks as content


def test_a_two_step_tool_loop_completes(client: openai.OpenAI) -> None:
    messages = list(ASK)
    first = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS, tool_choice="required",
                                           temperature=0, max_tokens=80)
    call = first.choices[0].message.tool_calls[0]
    valid_call(call)
    messages.append(first.choices[0].message.model_dump(exclude_none=True))
    messages.append({"role": "tool", "tool_call_id": call.id, "content": "Sunny, 22 degrees."})
    second = client.chat.completions.create(model=MODEL, messages=messages, tools=TOOLS, tool_choice="none",
                                            temperature=0, max_tokens=40)
    answer = second.choices[0]
    assert answer.finish_reason in ("stop", "length")
    assert answer.message.content and not answer.message.tool_calls
    # the call and its result are rendered into the second prompt
    assert second.usage.prompt_tokens > first.usage.prompt_tokens + 10


def test_guided_choice_picks_one_of_the_choices(client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "Is the sky blue? Answer yes or no."}],
        temperature=0, max_tokens=10, extra_body={"guided_choice": ["yes", "no", "maybe"]})
    assert completion.choices[0].message.content in ("yes", "no", "maybe")


def schema_format(schema) -> dict:
    return {"type": "json_schema", "json_schema": {"name": "s", "schema": schema}}


RECURSIVE = {"$ref": "#/$defs/n", "$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}}}}
HUGE = {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "x" * 1000} for i in range(1024)}}


@pytest.mark.parametrize(("fields", "param", "needle"), [
    ({"response_format": schema_format(RECURSIVE)}, "response_format.json_schema.schema", "recursive"),
    ({"response_format": schema_format(HUGE)}, "response_format.json_schema.schema", "bytes"),
    ({"response_format": schema_format({"type": "integer", "minimum": 5, "maximum": 1})},
     "response_format.json_schema.schema", "Unsatisfiable schema: minimum (5) is greater than maximum (1)"),
    ({"response_format": schema_format({"type": "object", "properties": {"a": {"not": {"type": "string"}}}})},
     "response_format.json_schema.schema", 'Unimplemented keys: ["not"]'),
    ({"response_format": schema_format({"type": "lots"})}, "response_format.json_schema.schema",
     "not a valid JSON Schema"),
    ({"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "required": "a"}}}],
      "tool_choice": "required"}, "tools[0].function.parameters", "not a valid JSON Schema"),
    ({"tools": TOOLS, "tool_choice": {"type": "function", "function": {"name": "launch"}}}, "tool_choice",
     "not among the request's tools"),
])
def test_bad_schemas_and_tools_are_400s_naming_the_problem(client: openai.OpenAI, fields: dict, param: str,
                                                           needle: str) -> None:
    with pytest.raises(openai.BadRequestError) as info:
        client.chat.completions.create(model=MODEL, messages=ASK, max_tokens=5, **fields)
    error = info.value.body
    assert error["param"] == param
    assert needle in error["message"]

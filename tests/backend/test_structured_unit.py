"""Structured output without a model: the checks that turn bad schemas / tool choices into 400s naming the
problem, the ``<tool_call>`` parser (whole and streamed), and the rendering of tool turns into the prompt."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.protocol import RequestError
from backend.structured.spec import MAX_SCHEMA_BYTES, grammar_request
from backend.structured.tool_calls import ToolCallStream, parse_tool_calls
from tokenization.tokenizer import message_text

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]


def refused(param: str, needle: str, **fields) -> None:
    with pytest.raises(RequestError) as info:
        grammar_request(**fields)
    assert info.value.status == 400
    assert info.value.param == param, info.value.message
    assert needle in info.value.message, info.value.message


def schema_format(schema) -> dict:
    return {"type": "json_schema", "json_schema": {"name": "x", "schema": schema}}


def test_recursive_schema_is_refused_naming_the_cycle() -> None:
    recursive = {"$ref": "#/$defs/node", "$defs": {"node": {"type": "object", "properties": {
        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}}
    refused("response_format.json_schema.schema", "recursive ($ref cycle #/$defs/node -> #/$defs/node)",
            response_format=schema_format(recursive))


def test_shared_non_recursive_definitions_are_accepted() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/p"}, "b": {"$ref": "#/$defs/p"}},
              "$defs": {"p": {"type": "object", "properties": {"x": {"$ref": "#/$defs/leaf"}}}, "leaf": {"type": "string"}}}
    assert grammar_request(response_format=schema_format(schema)).kind == "json_schema"


@pytest.mark.parametrize(("schema", "needle"), [
    ({"type": "strnig"}, "not a valid JSON Schema"),
    ({"type": "object", "properties": {"a": {"minimum": "five"}}}, "at 'properties/a/minimum'"),
    ({"$ref": "https://example.com/s.json"}, "points outside the schema"),
    ({"$ref": "#/$defs/missing"}, "does not resolve"),
    (True, "boolean schemas are not supported"),
    ([1], "must be a JSON Schema object"),
    ({"type": "integer", "minimum": -(2**63) - 1}, "not JSON serializable"),  # beyond what llguidance reads
])
def test_invalid_schemas_are_refused(schema, needle: str) -> None:
    refused("response_format.json_schema.schema", needle, response_format=schema_format(schema))


def test_a_huge_schema_is_refused_by_size() -> None:
    huge = {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "x" * 1000}
                                             for i in range(1024)}}  # about 1 MB
    refused("response_format.json_schema.schema", f"limited to {MAX_SCHEMA_BYTES} bytes",
            response_format=schema_format(huge))


def test_tool_choice_checks() -> None:
    refused("tool_choice", "not among the request's tools ['get_weather']", tools=TOOLS,
            tool_choice={"type": "function", "function": {"name": "other"}})
    refused("tool_choice", "has no 'tools'", tool_choice="required")
    bad_tool = [{"type": "function", "function": {"name": "f", "parameters": {"type": "objekt"}}}]
    refused("tools[0].function.parameters", "not a valid JSON Schema", tools=bad_tool, tool_choice="required")
    assert grammar_request(tools=TOOLS, tool_choice="auto") is None
    assert grammar_request(tools=TOOLS, tool_choice="none") is None
    forced = grammar_request(tools=TOOLS, tool_choice="required", response_format={"type": "json_object"})
    assert forced.kind == "tool_call"  # a forced call never answers in text: the format has nothing to shape


def test_guided_fields() -> None:
    assert grammar_request(extra={"guided_choice": ["yes", "no"]}).kind == "choice"
    assert grammar_request(extra={"guided_regex": r"\d+"}).kind == "regex"
    refused("guided_choice", "non-empty list", extra={"guided_choice": []})
    refused("guided_regex", "give at most one", extra={"guided_choice": ["a"], "guided_regex": "a"})
    refused("guided_json", "both constrain", response_format={"type": "json_object"},
            extra={"guided_json": {"type": "object"}})


def test_the_byte_table_unpacks_masks_as_the_bit_shifts_do() -> None:
    import torch

    from backend.structured.masks import forbidden, forbidden_table, unpack_bitmask

    packed = torch.tensor([[0, -1, 0x12345678], [-0x80000000, 1, 0x7FFFFFFF]], dtype=torch.int32)  # [2, 3]
    assert torch.equal(forbidden(packed, 90, forbidden_table()), ~unpack_bitmask(packed, 90))
    assert unpack_bitmask(packed, 96)[1, 32].item() and not unpack_bitmask(packed, 96)[1, 33].item()


def test_formats_the_grammar_does_not_enforce_are_annotations() -> None:
    schema = {"type": "object", "properties": {"format": {"type": "string", "format": "semver"},
                                               "when": {"type": "string", "format": "date"},
                                               "kind": {"enum": [{"format": "kept"}]}}}
    from backend.structured.spec import DATE_PATTERN, annotation_formats

    assert annotation_formats(schema) == {"type": "object", "properties": {
        "format": {"type": "string"}, "when": {"type": "string", "pattern": DATE_PATTERN},
        "kind": {"enum": [{"format": "kept"}]}}}
    assert grammar_request(response_format=schema_format(schema)).kind == "json_schema"
    # a date with a pattern of its own keeps its format (the grammar cannot intersect the two)
    own = {"type": "string", "format": "date", "pattern": "^2"}
    assert annotation_formats(own) == own


def test_the_date_pattern_accepts_exactly_the_dates_python_accepts() -> None:
    """Year 0000 (RFC 3339 allows it, Python's ``date`` does not) and February 29 outside leap years
    are refused; every real date is accepted. Every month and day of a spread of years, centuries included."""
    import datetime
    import re

    from backend.structured.spec import DATE_PATTERN

    pattern = re.compile(DATE_PATTERN)
    years = sorted({*range(0, 10000, 97), *range(0, 30), 100, 400, 1600, 1700, 1900, 2000, 2023, 2024, 2100, 9999})
    for year in years:
        for month in range(0, 14):
            for day in range(0, 33):
                text = f"{year:04d}-{month:02d}-{day:02d}"
                try:
                    valid = datetime.date.fromisoformat(text) is not None
                except ValueError:
                    valid = False
                assert bool(pattern.fullmatch(text)) == valid, text


# ---------------------------------------------------------------- tool-call parsing

CALL = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'


def test_a_call_becomes_tool_calls_with_null_content() -> None:
    content, calls = parse_tool_calls(CALL, ["get_weather"])
    assert content is None
    assert len(calls) == 1 and calls[0]["id"].startswith("call_") and calls[0]["type"] == "function"
    assert calls[0]["function"] == {"name": "get_weather", "arguments": '{"city": "Paris"}'}


@pytest.mark.parametrize("text", [
    "Let me check. <tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par",  # cut off
    "Let me check. <tool_call>\n{not json}\n</tool_call>",
    "Let me check. <tool_call>\n{\"name\": \"launch_rockets\", \"arguments\": {}}\n</tool_call>",
])
def test_malformed_blocks_never_leak_into_content(text: str) -> None:
    content, calls = parse_tool_calls(text, ["get_weather"])
    assert calls == []
    assert content == "Let me check. "
    assert "<tool_call" not in content and "{" not in content


def test_text_without_blocks_is_untouched() -> None:
    text = "Paris is sunny. a < b and <tool is not a call\n"
    assert parse_tool_calls(text, ["get_weather"]) == (text, [])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=40),
       st.sampled_from(["Sure. ", "", "  \n"]))
def test_streaming_in_any_pieces_gives_the_whole_parse(cuts: list[int], prefix: str) -> None:
    text = prefix + CALL + "\n" + CALL.replace("Paris", "Rome")
    stream, pieces, at = ToolCallStream(["get_weather"]), [], 0
    for size in cuts:
        pieces += stream.feed(text[at:at + size])
        at += size
    pieces += stream.feed(text[at:]) + stream.finish()
    content = "".join(p for p in pieces if isinstance(p, str))
    calls = [p["function"] for p in pieces if isinstance(p, dict)]
    whole_content, whole_calls = parse_tool_calls(text, ["get_weather"])
    assert calls == [c["function"] for c in whole_calls]
    assert [json.loads(c["arguments"])["city"] for c in calls] == ["Paris", "Rome"]
    assert content == (whole_content or "")


def test_tool_turns_render_into_the_prompt_text() -> None:
    call = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}
    assistant = message_text({"role": "assistant", "content": None, "tool_calls": [call]})
    assert assistant == CALL
    assert message_text({"role": "tool", "tool_call_id": "call_1", "content": "22 C"}) == "22 C"

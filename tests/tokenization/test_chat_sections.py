"""The bundled backend's rendering of ``tools`` and ``response_format`` into the prompt: a leading
system message in the caller's order and key order, nothing without them, clear errors otherwise."""

from __future__ import annotations

import json

import pytest

from backend.protocol import RequestError
from tokenization.chat_sections import TOOLS_FOOTER, TOOLS_HEADER, request_sections, with_request_sections

TOOL_A = {"type": "function", "function": {"name": "track", "description": "Where a parcel is.",
                                           "parameters": {"type": "object", "properties": {"id": {"type": "string"}}}}}
TOOL_B = {"type": "function", "function": {"name": "book", "parameters": {"type": "object", "properties": {}}}}
MESSAGES = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]


def reversed_keys(value):
    if isinstance(value, dict):
        return {k: reversed_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_keys(v) for v in value]
    return value


def test_without_tools_or_format_the_messages_are_unchanged() -> None:
    assert with_request_sections(MESSAGES) == MESSAGES
    assert with_request_sections(MESSAGES, [], {"type": "text"}) == MESSAGES


def test_tools_become_a_leading_system_message_one_json_line_each_in_the_callers_order() -> None:
    rendered = with_request_sections(MESSAGES, [TOOL_A, TOOL_B])
    assert rendered[1:] == MESSAGES and rendered[0]["role"] == "system"
    text = rendered[0]["content"]
    assert text.startswith(TOOLS_HEADER) and text.endswith(TOOLS_FOOTER)
    lines = text.removeprefix(TOOLS_HEADER).removesuffix(TOOLS_FOOTER).strip().split("\n")
    assert [json.loads(line) for line in lines] == [TOOL_A, TOOL_B]
    assert lines == [json.dumps(TOOL_A), json.dumps(TOOL_B)]


def test_key_order_and_tool_order_change_the_rendered_prefix_as_they_do_upstream() -> None:
    base = request_sections([TOOL_A, TOOL_B])
    assert request_sections([TOOL_A, TOOL_B]) == base
    assert request_sections([reversed_keys(TOOL_A), TOOL_B]) != base
    assert request_sections([TOOL_B, TOOL_A]) != base


def test_response_format_sections() -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}}
    text = request_sections(None, {"type": "json_schema", "json_schema": {"name": "a", "schema": schema}})
    assert text is not None and text.endswith(json.dumps(schema)) and "# Response format" in text
    assert "JSON object" in (request_sections(None, {"type": "json_object"}) or "")
    both = request_sections([TOOL_B], {"type": "json_object"})
    assert both is not None and both.index(TOOLS_FOOTER) < both.index("# Response format")


@pytest.mark.parametrize(("tools", "response_format", "param"), [
    ({"type": "function"}, None, "tools"),
    (["search"], None, "tools[0]"),
    ([{"type": "function", "function": {"description": "no name"}}], None, "tools[0].function.name"),
    ([{"type": "retrieval", "function": {"name": "x"}}], None, "tools[0]"),
    ([{"type": "function", "function": {"name": "x", "parameters": "[]"}}], None, "tools[0].function.parameters"),
    (None, {"type": "yaml"}, "response_format"),
    (None, "json", "response_format"),
    (None, {"type": "json_schema", "json_schema": {"name": "a"}}, "response_format.json_schema.schema"),
])
def test_malformed_values_are_request_errors_naming_the_field(tools, response_format, param) -> None:
    with pytest.raises(RequestError) as caught:
        request_sections(tools, response_format)
    assert caught.value.param == param and caught.value.status == 400

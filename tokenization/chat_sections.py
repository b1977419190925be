"""How the bundled backend puts a chat request's ``tools`` and ``response_format`` into the prompt.

SmolLM2's chat template has no tool section, but real servers render both into the tokens the
model sees (vLLM and Hugging Face templates dump each tool's JSON into the prompt; OpenAI and
Anthropic count tool definitions and structured-output schemas as part of the cached prefix).
So that the bundled backend's prefix cache behaves like theirs, both are rendered here, in a
documented form:

- one **leading system message** (before the caller's messages, the order Anthropic documents for
  its cache prefix: tools, then system, then messages) holding
- a ``# Tools`` section: every tool's JSON on its own line between ``<tools>`` and ``</tools>``, in
  the caller's order and with the caller's key order (``json.dumps`` with its default separators,
  like the templates' ``tojson``), so a client that reorders keys or tools gets a different prefix
  here as it would upstream (prompt shaping's canonical forms are what make them equal), then
- a ``# Response format`` section for ``json_object`` (one instruction line) and ``json_schema``
  (the instruction and the schema's JSON); ``text`` adds nothing.

Nothing is rendered (and the prompt is exactly the template's) when neither field is set. A tool
that is not an object with ``type: "function"`` and a named ``function`` object, or a
``response_format`` of another shape, is a 400 that names the field, as OpenAI's API answers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tokenization.errors import RequestError

TOOLS_HEADER = ("# Tools\n\nYou may call one or more of the functions below. Their definitions, one JSON "
                "object per line:\n<tools>")
TOOLS_FOOTER = "</tools>"
JSON_OBJECT_INSTRUCTION = "# Response format\n\nAnswer with one JSON object and nothing else."
JSON_SCHEMA_INSTRUCTION = "# Response format\n\nAnswer with one JSON value that matches this schema and nothing else:"


def _check_tools(tools: Any) -> list[dict[str, Any]]:
    if not isinstance(tools, list):
        raise RequestError("'tools' must be a list of tool objects", param="tools")
    for i, tool in enumerate(tools):
        function = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(function, dict):
            raise RequestError(f"tools[{i}] must be an object with type 'function' and a 'function' object",
                               param=f"tools[{i}]")
        if not isinstance(function.get("name"), str) or not function["name"]:
            raise RequestError(f"tools[{i}].function.name must be a non-empty string",
                               param=f"tools[{i}].function.name")
        if "parameters" in function and not isinstance(function["parameters"], dict):
            raise RequestError(f"tools[{i}].function.parameters must be a JSON schema object",
                               param=f"tools[{i}].function.parameters")
    return tools


def _format_section(response_format: Any) -> str | None:
    kind = response_format.get("type") if isinstance(response_format, dict) else None
    if kind == "text":
        return None
    if kind == "json_object":
        return JSON_OBJECT_INSTRUCTION
    if kind == "json_schema":
        spec = response_format.get("json_schema")
        schema = spec.get("schema") if isinstance(spec, dict) else None
        if not isinstance(schema, dict):
            raise RequestError("response_format.json_schema.schema must be a JSON schema object",
                               param="response_format.json_schema.schema")
        return f"{JSON_SCHEMA_INSTRUCTION}\n{json.dumps(schema, ensure_ascii=False)}"
    raise RequestError("response_format must be an object with type 'text', 'json_object' or 'json_schema'",
                       param="response_format")


def request_sections(tools: Any = None, response_format: Any = None) -> str | None:
    """The text of the leading system message for ``tools`` and ``response_format`` (None: nothing
    to render). Raises :class:`RequestError` for malformed values."""
    sections = []
    if tools is not None and tools != []:
        lines = "\n".join(json.dumps(tool, ensure_ascii=False) for tool in _check_tools(tools))
        sections.append(f"{TOOLS_HEADER}\n{lines}\n{TOOLS_FOOTER}")
    if response_format is not None:
        section = _format_section(response_format)
        if section:
            sections.append(section)
    return "\n\n".join(sections) or None


def with_request_sections(messages: Sequence[dict[str, Any]], tools: Any = None,
                          response_format: Any = None) -> list[dict[str, Any]]:
    """``messages`` with the rendered sections as a leading system message (unchanged without them)."""
    text = request_sections(tools, response_format)
    return list(messages) if text is None else [{"role": "system", "content": text}, *messages]

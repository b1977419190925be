"""What a chat request constrains its output to, as one llguidance grammar.

A request constrains its output with at most one of:

- ``response_format``: ``{"type": "json_object"}`` (any JSON object) or ``{"type": "json_schema",
  "json_schema": {"schema": ...}}`` (the schema, whether ``strict`` is true or not);
- ``tool_choice`` ``"required"`` or ``{"type": "function", "function": {"name": ...}}``: one
  ``<tool_call>`` block (the chat template's format, see :mod:`backend.structured.tool_calls`) whose
  ``arguments`` match the chosen function's ``parameters``;
- vLLM's extensions ``guided_json`` (a schema), ``guided_choice`` (one of a list of strings) and
  ``guided_regex`` (a regular expression).

``tool_choice`` ``"auto"`` (or absent) with tools does not constrain: the model chooses between text and a
call, and its ``<tool_call>`` blocks are parsed afterwards. JSON is generated compactly with ``", "`` and
``": "`` separators (what the model writes unconstrained), so an answer has exactly one layout.

Schemas are checked before compiling: a JSON object no larger than :data:`MAX_SCHEMA_BYTES`, valid
against its metaschema (``jsonschema``), without ``$ref`` cycles (recursive schemas are refused) and
without references outside the document. Contradictions and keywords the grammar compiler does not
implement are reported by the compiler (:mod:`backend.structured.compiler`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from backend.protocol import RequestError
from backend.structured.one_of import rewrite_exclusive_one_of
from json_pointer import resolve_local

MAX_SCHEMA_BYTES = 128 * 1024  # a schema's JSON text; OpenAI's own limits are far lower
JSON_OPTIONS = {"whitespace_flexible": False, "item_separator": ", ", "key_separator": ": "}
TOOL_CALL_OPEN, TOOL_CALL_CLOSE = "<tool_call>", "</tool_call>"
#: string formats the grammar enforces; any other ``format`` is kept as what JSON Schema 2020-12 makes it by
#: default, an annotation, and not enforced (llguidance would refuse the schema instead)
ENFORCED_FORMATS = frozenset({"date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri",
                              "uuid"})
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "examples"})  # instance data, not subschemas
# ``format: date`` as a pattern of exactly the calendar dates validators accept: RFC 3339's full-date allows
# year 0000 and llguidance's format does too, but Python's ``date`` (jsonschema, pydantic) starts at year 1;
# February 29 only in leap years (divisible by 4, and by 400 at a century)
_YEAR = r"(?:[0-9]{3}[1-9]|[0-9]{2}[1-9]0|[0-9][1-9]00|[1-9]000)"
_LEAP_YEAR = r"(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)"
DATE_PATTERN = (rf"^(?:{_YEAR}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
                rf"|02-(?:0[1-9]|1[0-9]|2[0-8]))|{_LEAP_YEAR}-02-29)$")


@dataclass(frozen=True, slots=True)
class GrammarRequest:
    """One request's output grammar: llguidance grammar text (also the compile cache's key), what kind of
    constraint it is, and the request field a compile error is blamed on."""

    grammar: str
    kind: str  # "json_object" | "json_schema" | "tool_call" | "choice" | "regex"
    param: str


def _refs_in(node: Any) -> list[str]:
    """Every ``$ref`` string directly inside ``node`` (not through other references)."""
    found: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str):
                found.append(ref)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _resolve(root: dict[str, Any], ref: str, param: str) -> Any:
    """A local JSON pointer (``#/$defs/x``) within ``root``."""
    if not ref.startswith("#"):
        raise RequestError(f"{param}: $ref {ref!r} points outside the schema; only local references "
                           "('#/...') are supported", param=param)
    try:
        return resolve_local(root, ref)
    except LookupError:
        raise RequestError(f"{param}: $ref {ref!r} does not resolve within the schema", param=param) from None


def _check_acyclic(root: dict[str, Any], param: str) -> None:
    """Refuse a schema whose ``$ref`` chain reaches itself (depth-first over references, each checked once)."""
    done: set[str] = set()

    def visit(ref: str, path: list[str]) -> None:
        if ref in path:
            cycle = " -> ".join([*path[path.index(ref):], ref])
            raise RequestError(f"{param} is recursive ($ref cycle {cycle}); recursive schemas are not supported "
                               "by the bundled backend", param=param)
        if ref in done:
            return
        target = _resolve(root, ref, param)
        for inner in _refs_in(target):
            visit(inner, [*path, ref])
        done.add(ref)

    for ref in _refs_in(root):
        visit(ref, [])


def check_schema(schema: Any, param: str) -> dict[str, Any]:
    """A JSON Schema a request may constrain to, or a :class:`RequestError` naming what is wrong with it."""
    import jsonschema

    if isinstance(schema, bool):
        raise RequestError(f"{param} must be a JSON Schema object (boolean schemas are not supported)", param=param)
    if not isinstance(schema, dict):
        raise RequestError(f"{param} must be a JSON Schema object", param=param)
    size = len(json.dumps(schema, ensure_ascii=False))
    if size > MAX_SCHEMA_BYTES:
        raise RequestError(f"{param} is {size} bytes of JSON; schemas are limited to {MAX_SCHEMA_BYTES} bytes",
                           param=param)
    validator = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        raise RequestError(f"{param} is not a valid JSON Schema: {exc.message}"
                           + (f" (at '{where}')" if where else ""), param=param) from None
    _check_acyclic(schema, param)
    return schema


def annotation_formats(node: Any) -> Any:
    """``node`` without the ``format`` keywords the grammar does not enforce, and ``format: date`` as
    :data:`DATE_PATTERN` (a copy; data keywords such as ``enum`` and ``const`` are left as they are)."""
    if isinstance(node, list):
        return [annotation_formats(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "format" and isinstance(value, str) and value not in ENFORCED_FORMATS:
            continue
        if key == "format" and value == "date" and "pattern" not in node:
            out["pattern"] = DATE_PATTERN  # the dates validators accept (see DATE_PATTERN)
            continue
        out[key] = value if key in _DATA_KEYWORDS else annotation_formats(value)
    return out


def json_schema_grammar(schema: dict[str, Any], param: str = "response_format.json_schema.schema") -> str:
    """The llguidance grammar of JSON values matching ``schema`` (compact, one layout); a schema llguidance
    cannot even read (an integer beyond 64 bits, say) is a :class:`RequestError` naming ``param``."""
    import llguidance

    try:
        return llguidance.LLMatcher.grammar_from_json_schema(rewrite_exclusive_one_of(annotation_formats(schema)),
                                                             defaults=JSON_OPTIONS)
    except (ValueError, TypeError) as exc:
        raise RequestError(f"{param}: {exc}", param=param) from None


def _lark_string(text: str) -> str:
    """A Lark string literal for ``text`` (JSON escapes are Lark's)."""
    return json.dumps(text, ensure_ascii=False)


def tool_call_schema(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON of one call of any of ``tools``: ``{"name": <name>, "arguments": <its parameters>}``."""
    options = []
    for i, tool in enumerate(tools):
        function = tool["function"]
        parameters = function.get("parameters")
        if parameters is None:
            parameters = {"type": "object", "properties": {}, "additionalProperties": False}
        parameters = rewrite_exclusive_one_of(check_schema(parameters, f"tools[{i}].function.parameters"))
        options.append({"type": "object", "properties": {"name": {"const": function["name"]}, "arguments": parameters},
                        "required": ["name", "arguments"], "additionalProperties": False})
    return options[0] if len(options) == 1 else {"anyOf": options}


def tool_call_grammar(tools: list[dict[str, Any]]) -> str:
    """One ``<tool_call>`` block, as SmolLM2's template and :func:`tokenization.tokenizer.message_text` write it,
    calling one of ``tools`` with arguments valid against its ``parameters``."""
    body = {**annotation_formats(tool_call_schema(tools)), "x-guidance": JSON_OPTIONS}
    return (f"start: {_lark_string(TOOL_CALL_OPEN + chr(10))} call {_lark_string(chr(10) + TOOL_CALL_CLOSE)}\n"
            f"call: %json {json.dumps(body, ensure_ascii=False)}")


def auto_call_grammars(tools: list[dict[str, Any]]) -> tuple[GrammarRequest, GrammarRequest]:
    """The rest of a call block once the model has written ``<tool_call>`` on its own (``tool_choice`` auto):
    one grammar for after ``<tool_call>`` (a newline, the call, the closing tag) and one for after
    ``<tool_call>`` and its newline. The engine switches to it when the text ends so, and back to free text
    when the block is closed (:class:`backend.structured.compiler.CallGrammars`)."""
    body = {**annotation_formats(tool_call_schema(tools)), "x-guidance": JSON_OPTIONS}
    rest = f"call {_lark_string(chr(10) + TOOL_CALL_CLOSE)}\ncall: %json {json.dumps(body, ensure_ascii=False)}"
    return (GrammarRequest(f"start: {_lark_string(chr(10))} {rest}", "tool_call", "tools"),
            GrammarRequest(f"start: {rest}", "tool_call", "tools"))


def _tool_choice_tools(tools: Any, tool_choice: Any) -> list[dict[str, Any]] | None:
    """The tools a forced ``tool_choice`` may call (None: it forces nothing)."""
    if tool_choice is None or tool_choice in ("auto", "none"):
        return None
    if not isinstance(tools, list) or not tools:
        raise RequestError("tool_choice forces a tool call but the request has no 'tools'", param="tool_choice")
    if tool_choice == "required":
        return tools
    if isinstance(tool_choice, dict) and tool_choice.get("type") == "function":
        name = (tool_choice.get("function") or {}).get("name") if isinstance(tool_choice.get("function"), dict) else None
        chosen = [t for t in tools if t["function"]["name"] == name]
        if not isinstance(name, str) or not chosen:
            names = [t["function"]["name"] for t in tools]
            raise RequestError(f"tool_choice names function {name!r}, which is not among the request's tools "
                               f"{names}", param="tool_choice")
        return chosen[:1]
    raise RequestError(f"tool_choice must be \"auto\", \"none\", \"required\" or {{\"type\": \"function\", "
                       f"\"function\": {{\"name\": ...}}}}, got {json.dumps(tool_choice)}", param="tool_choice")


def _format_grammar(response_format: Any) -> GrammarRequest | None:
    kind = response_format.get("type") if isinstance(response_format, dict) else None
    if response_format is None or kind == "text":
        return None
    if kind == "json_object":
        return GrammarRequest(json_schema_grammar({"type": "object"}), "json_object", "response_format")
    if kind == "json_schema":
        spec = response_format.get("json_schema")
        param = "response_format.json_schema.schema"
        schema = check_schema(spec.get("schema") if isinstance(spec, dict) else None, param)
        return GrammarRequest(json_schema_grammar(schema, param), "json_schema", param)
    raise RequestError("response_format must be an object with type 'text', 'json_object' or 'json_schema'",
                       param="response_format")


def _guided(extra: dict[str, Any]) -> GrammarRequest | None:
    """vLLM's ``guided_json`` / ``guided_choice`` / ``guided_regex`` (at most one)."""
    import llguidance

    given = [k for k in ("guided_json", "guided_choice", "guided_regex") if extra.get(k) is not None]
    if not given:
        return None
    if len(given) > 1:
        raise RequestError(f"give at most one of {given}", param=given[1])
    name = given[0]
    value = extra[name]
    if name == "guided_json":
        return GrammarRequest(json_schema_grammar(check_schema(value, name), name), "json_schema", name)
    if name == "guided_choice":
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            raise RequestError("guided_choice must be a non-empty list of non-empty strings", param=name)
        return GrammarRequest("start: " + " | ".join(_lark_string(v) for v in value), "choice", name)
    if not isinstance(value, str) or not value:
        raise RequestError("guided_regex must be a non-empty string", param=name)
    return GrammarRequest(llguidance.LLMatcher.grammar_from_regex(value), "regex", name)


def grammar_request(tools: Any = None, tool_choice: Any = None, response_format: Any = None,
                    extra: dict[str, Any] | None = None) -> GrammarRequest | None:
    """The grammar a chat request's fields ask for (None: unconstrained). ``tools`` must have been shape-checked
    (:func:`tokenization.chat_sections.request_sections`). Raises :class:`RequestError` naming the field."""
    forced = _tool_choice_tools(tools, tool_choice)
    fmt = _format_grammar(response_format)
    guided = _guided(extra or {})
    if guided is not None and (forced is not None or fmt is not None):
        other = "tool_choice" if forced is not None else "response_format"
        raise RequestError(f"{guided.param} and {other} both constrain the output; give only one", param=guided.param)
    if forced is not None:  # a forced call never answers in text, so response_format has nothing to shape
        return GrammarRequest(tool_call_grammar(forced), "tool_call", "tools")
    return fmt or guided

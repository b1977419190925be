"""OpenAI wire schemas for incoming requests (msgspec), checked before anything is forwarded.

The proxy forwards the caller's JSON object (unknown provider fields included) after checking the
fields it understands; these structs exist to give precise 4xx messages.
"""

from __future__ import annotations

from typing import Any

import msgspec

from proxy.wire.errors import InvalidRequest
from proxy.wire.json_schemas import check_json_schema, check_response_format

ROLES = ("system", "developer", "user", "assistant", "tool", "function")
MAX_TOKENS_LIMIT = 1_048_576
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
#: How many levels of JSON objects and arrays a top-level field may nest (``{"a": [1]}`` is 2):
#: far above what OpenAI bodies use (a message's image part is 4 deep inside ``messages``, tool
#: schemas a dozen or so), far below where canonicalising a body for shaping or the cache key
#: would run out of Python's recursion limit.
MAX_JSON_DEPTH = 64


class _Sampling(msgspec.Struct, forbid_unknown_fields=False):
    model: str
    max_tokens: int | None = None
    max_completion_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    n: int | None = None
    seed: int | None = None
    stop: str | list[str] | None = None
    stream: bool | None = None
    stream_options: dict[str, Any] | None = None
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    user: str | None = None


class ChatRequest(_Sampling, forbid_unknown_fields=False):
    messages: list[dict[str, Any]] = msgspec.field(default_factory=list)
    tools: list[dict[str, Any]] | None = None
    response_format: dict[str, Any] | None = None
    logprobs: bool | None = None
    top_logprobs: int | None = None


class CompletionRequest(_Sampling, forbid_unknown_fields=False):
    prompt: Any = None  # str | list[str] | list[int]; checked in validate_completion


def parse_json_object(raw: bytes) -> dict[str, Any]:
    """Decode a request body, insisting on a JSON object."""
    if not raw.strip():
        raise InvalidRequest("request body is empty; send a JSON object", code="invalid_json")
    try:
        data = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise InvalidRequest(f"request body is not valid JSON: {exc}", code="invalid_json") from None
    except RecursionError:
        raise InvalidRequest("request body is nested too deeply", code="invalid_json") from None
    if not isinstance(data, dict):
        raise InvalidRequest("request body must be a JSON object", code="invalid_json")
    return data


def _convert(data: dict[str, Any], kind: type[msgspec.Struct]):
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as exc:
        text = str(exc)
        param = text.split("`$.", 1)[1].split("`", 1)[0] if "`$." in text else None
        if "Object missing required field" in text:
            field = text.split("`", 2)[1] if "`" in text else None
            raise InvalidRequest(f"missing required field '{field}'", param=field) from None
        raise InvalidRequest(f"invalid request: {text}", param=param) from None


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """True when ``value`` nests objects and arrays more than ``limit`` levels deep (iterative:
    safe on any depth, and stops at the first too-deep container)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _check_depth(data: dict[str, Any]) -> None:
    """A 400 naming the first top-level field nested deeper than :data:`MAX_JSON_DEPTH`."""
    for name, value in data.items():
        if json_depth_exceeds(value, MAX_JSON_DEPTH):
            raise InvalidRequest(f"'{name}' is nested more than {MAX_JSON_DEPTH} levels deep; flatten it",
                                 param=name, code="nesting_too_deep")


def _check_message(i: int, message: dict[str, Any]) -> None:
    role = message.get("role")
    if role not in ROLES:
        raise InvalidRequest(f"messages[{i}].role must be one of {list(ROLES)}, got {role!r}",
                             param=f"messages[{i}].role")
    content = message.get("content")
    if content is None and role != "assistant":
        raise InvalidRequest(f"messages[{i}].content is required for role {role!r}",
                             param=f"messages[{i}].content")
    if content is not None and not isinstance(content, str | list):
        raise InvalidRequest(f"messages[{i}].content must be a string or a list of content parts",
                             param=f"messages[{i}].content")
    calls = message.get("tool_calls")
    if calls is not None and not (isinstance(calls, list) and all(isinstance(c, dict) for c in calls)):
        raise InvalidRequest(f"messages[{i}].tool_calls must be a list of tool call objects",
                             param=f"messages[{i}].tool_calls")


def _check_sampling(req: _Sampling) -> None:
    if not req.model.strip():
        raise InvalidRequest("'model' must be a non-empty string", param="model")
    for name in ("max_tokens", "max_completion_tokens"):
        value = getattr(req, name)
        if value is not None and not 1 <= value <= MAX_TOKENS_LIMIT:
            raise InvalidRequest(f"'{name}' must be between 1 and {MAX_TOKENS_LIMIT}, got {value}", param=name)
    if req.temperature is not None and not 0 <= req.temperature <= 2:
        raise InvalidRequest(f"'temperature' must be between 0 and 2, got {req.temperature}", param="temperature")
    if req.top_p is not None and not 0 <= req.top_p <= 1:
        raise InvalidRequest(f"'top_p' must be between 0 and 1, got {req.top_p}", param="top_p")
    if req.n is not None and not 1 <= req.n <= 128:
        raise InvalidRequest(f"'n' must be between 1 and 128, got {req.n}", param="n")
    if req.seed is not None and not SEED_MIN <= req.seed <= SEED_MAX:  # OpenAI's and vLLM's seeds are int64
        raise InvalidRequest(f"'seed' must be between {SEED_MIN} and {SEED_MAX} (a 64-bit integer), got {req.seed}",
                             param="seed")
    if isinstance(req.stop, list) and len(req.stop) > 16:
        raise InvalidRequest("'stop' accepts at most 16 sequences", param="stop")
    if req.stop == "" or (isinstance(req.stop, list) and "" in req.stop):
        raise InvalidRequest("'stop' sequences must be non-empty strings", param="stop")
    if req.stream_options is not None and not req.stream:
        raise InvalidRequest("'stream_options' is only allowed when 'stream' is true", param="stream_options")


def validate_chat(data: dict[str, Any]) -> ChatRequest:
    """Check a chat completion body; raises :class:`InvalidRequest` saying what to fix (no field
    may nest deeper than :data:`MAX_JSON_DEPTH`)."""
    _check_depth(data)
    req = _convert(data, ChatRequest)
    _check_sampling(req)
    if "messages" not in data:
        raise InvalidRequest("missing required field 'messages'", param="messages")
    if not req.messages:
        raise InvalidRequest("'messages' must contain at least one message", param="messages")
    for i, message in enumerate(req.messages):
        _check_message(i, message)
    if req.top_logprobs is not None and not 0 <= req.top_logprobs <= 20:
        raise InvalidRequest("'top_logprobs' must be between 0 and 20", param="top_logprobs")
    _check_tools(req.tools, data.get("tool_choice"))
    check_response_format(req.response_format)
    return req


TOOL_TYPES = ("function", "custom")


def _check_tools(tools: list[dict[str, Any]] | None, tool_choice: Any) -> None:
    """A 400 naming the field for a malformed tool definition, two tools with one name, or a
    ``tool_choice`` that names no tool: checked here so that every upstream gets the same clear
    error (and shaping's canonical tool order never has to guess)."""
    names: set[str] = set()
    for i, tool in enumerate(tools or []):
        where = f"tools[{i}]"
        kind = tool.get("type")
        if not isinstance(kind, str) or not kind:
            raise InvalidRequest(f"'{where}.type' must be a string such as \"function\"", param=f"{where}.type")
        if kind not in TOOL_TYPES:
            continue  # a provider's own tool (e.g. a built-in search): the upstream judges it
        spec = tool.get(kind)
        if not isinstance(spec, dict):
            raise InvalidRequest(f"'{where}.{kind}' must be an object with a 'name'", param=f"{where}.{kind}")
        name = spec.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InvalidRequest(f"'{where}.{kind}.name' must be a non-empty string", param=f"{where}.{kind}.name")
        if name in names:
            raise InvalidRequest(f"'{where}.{kind}.name' {name!r} is used by an earlier tool; tool names must be "
                                 "unique", param=f"{where}.{kind}.name")
        names.add(name)
        if "description" in spec and not isinstance(spec["description"], str | None):
            raise InvalidRequest(f"'{where}.{kind}.description' must be a string", param=f"{where}.{kind}.description")
        parameters = spec.get("parameters")
        if kind == "function" and parameters is not None:
            if not isinstance(parameters, dict):
                raise InvalidRequest(f"'{where}.function.parameters' must be a JSON schema object",
                                     param=f"{where}.function.parameters")
            if not isinstance(parameters.get("properties") or {}, dict):
                raise InvalidRequest(f"'{where}.function.parameters.properties' must be an object of named "
                                     "schemas", param=f"{where}.function.parameters.properties")
            lenient = {k: v for k, v in parameters.items() if not (k == "properties" and v is None)}  # null: none
            check_json_schema(lenient, f"{where}.function.parameters")
    if tool_choice is None or isinstance(tool_choice, str):
        return  # "none", "auto", "required", or a provider's own word (Mistral's "any"): the upstream judges it
    if not isinstance(tool_choice, dict) or not isinstance(tool_choice.get("type"), str):
        raise InvalidRequest("'tool_choice' must be a string such as \"auto\" or an object such as "
                             "{\"type\": \"function\", \"function\": {\"name\": ...}}", param="tool_choice")
    if tool_choice["type"] not in TOOL_TYPES:
        return  # another kind of choice (e.g. allowed_tools): the upstream judges it
    spec = tool_choice.get(tool_choice["type"])
    chosen = spec.get("name") if isinstance(spec, dict) else None
    if chosen not in names:
        raise InvalidRequest(f"'tool_choice' names {chosen!r}, which is not among the request's tools",
                             param="tool_choice")


def validate_completion(data: dict[str, Any]) -> CompletionRequest:
    """Check a legacy completion body (no field may nest deeper than :data:`MAX_JSON_DEPTH`)."""
    _check_depth(data)
    req = _convert(data, CompletionRequest)
    _check_sampling(req)
    prompt = req.prompt
    well_typed = isinstance(prompt, str) or (
        isinstance(prompt, list) and (all(isinstance(p, str) for p in prompt)
                                      or all(isinstance(p, int) and not isinstance(p, bool) for p in prompt)))
    if not well_typed or not prompt:
        raise InvalidRequest("'prompt' must be a non-empty string, list of strings or list of token ids",
                             param="prompt")
    return req

"""The proxy's check of the JSON Schemas a request carries: ``response_format.json_schema.schema`` and each
function tool's ``parameters``.

Every upstream gets the same clear 400 for a schema that is not a JSON Schema at all: not an object,
larger than :data:`MAX_SCHEMA_BYTES`, invalid against its metaschema (``jsonschema``, draft 2020-12 unless
``$schema`` names another), or with a local ``$ref`` that resolves to nothing. Whether an upstream can
*honour* a valid schema (recursion, contradictions, keywords its grammar engine lacks) is the upstream's
to say: the bundled backend answers those with a 400 naming the problem, which the proxy passes on.
"""

from __future__ import annotations

import json
from typing import Any

from json_pointer import resolves_local
from proxy.wire.errors import InvalidRequest

MAX_SCHEMA_BYTES = 128 * 1024  # the bundled backend's limit too (backend.structured.spec)
FORMAT_TYPES = ("text", "json_object", "json_schema")


def check_json_schema(schema: Any, param: str) -> None:
    """Raise :class:`InvalidRequest` (param ``param``) unless ``schema`` is a usable JSON Schema object."""
    import jsonschema

    if not isinstance(schema, dict):
        raise InvalidRequest(f"'{param}' must be a JSON Schema object", param=param)
    size = len(json.dumps(schema, ensure_ascii=False))
    if size > MAX_SCHEMA_BYTES:
        raise InvalidRequest(f"'{param}' is {size} bytes of JSON; schemas are limited to {MAX_SCHEMA_BYTES} bytes",
                             param=param)
    validator = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        raise InvalidRequest(f"'{param}' is not a valid JSON Schema: {exc.message}"
                             + (f" (at '{where}')" if where else ""), param=param) from None
    _check_local_refs(schema, param)


def _check_local_refs(schema: dict[str, Any], param: str) -> None:
    """Every ``#...`` reference resolves inside the schema (remote references are the upstream's to judge)."""
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#") and not resolves_local(schema, ref):
            raise InvalidRequest(f"'{param}': $ref {ref!r} does not resolve within the schema", param=param)
        stack.extend(node.values())


def check_response_format(response_format: Any) -> None:
    """``response_format``: ``{"type": "text" | "json_object" | "json_schema", ...}``, a ``json_schema`` one
    with a ``json_schema`` object whose ``name`` is a string and whose ``schema`` is a valid JSON Schema."""
    if response_format is None:
        return
    kind = response_format.get("type") if isinstance(response_format, dict) else None
    if kind not in FORMAT_TYPES:
        raise InvalidRequest("'response_format' must be an object with 'type' \"text\", \"json_object\" or "
                             "\"json_schema\"", param="response_format")
    if kind != "json_schema":
        return
    spec = response_format.get("json_schema")
    if not isinstance(spec, dict):
        raise InvalidRequest("'response_format.json_schema' must be an object with a 'name' and a 'schema'",
                             param="response_format.json_schema")
    if "name" in spec and not isinstance(spec["name"], str):
        raise InvalidRequest("'response_format.json_schema.name' must be a string",
                             param="response_format.json_schema.name")
    check_json_schema(spec.get("schema"), "response_format.json_schema.schema")


def answer_problem(body: dict[str, Any], payload: dict[str, Any]) -> str | None:
    """Why a chat completion ``payload`` fails the structure its request ``body`` asked for, or None when it
    does not (or the request asked for none): a ``json_object`` / ``json_schema`` answer that is not JSON, not
    an object, or invalid against the schema; a tool call of a function not offered or with arguments invalid
    against its ``parameters``; a forced ``tool_choice`` answered without a call. A choice cut by its limit
    (``finish_reason`` ``length``) is judged too: it is not a usable structured answer either. For the
    cascade (a weak answer: escalate) and the caches (never store it)."""
    import jsonschema

    response_format = body.get("response_format") if isinstance(body.get("response_format"), dict) else {}
    kind = response_format.get("type")
    tools = {t["function"]["name"]: t["function"].get("parameters") for t in body.get("tools") or []
             if isinstance(t, dict) and isinstance(t.get("function"), dict) and "name" in t["function"]}
    forced = body.get("tool_choice") == "required" or isinstance(body.get("tool_choice"), dict)
    for i, choice in enumerate(payload.get("choices") or []):
        message = choice.get("message") or {}
        calls = message.get("tool_calls") or []
        if forced and not calls:
            return f"choices[{i}] did not call a tool although tool_choice forces one"
        for call in calls:
            function = call.get("function") or {}
            if function.get("name") not in tools:
                return f"choices[{i}] called {function.get('name')!r}, which is not among the request's tools"
            try:
                arguments = json.loads(function.get("arguments") or "")
                if tools[function["name"]] is not None:
                    jsonschema.validate(arguments, tools[function["name"]])
            except (ValueError, jsonschema.ValidationError, jsonschema.SchemaError) as exc:
                return f"choices[{i}] called {function['name']!r} with invalid arguments: {str(exc).splitlines()[0]}"
        if calls or kind not in ("json_object", "json_schema"):
            continue
        try:
            value = json.loads(message.get("content") or "")
        except ValueError:
            return f"choices[{i}] is not JSON"
        if kind == "json_object" and not isinstance(value, dict):
            return f"choices[{i}] is not a JSON object"
        schema = (response_format.get("json_schema") or {}).get("schema")
        if kind == "json_schema" and isinstance(schema, dict):
            try:
                jsonschema.validate(value, schema)
            except (jsonschema.ValidationError, jsonschema.SchemaError) as exc:
                return f"choices[{i}] does not match the schema: {exc.message}"
    return None

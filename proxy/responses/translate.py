"""Responses API bodies to chat completion bodies, and chat completions back to response objects."""

from __future__ import annotations

import time
import uuid
from typing import Any

from proxy.wire.errors import InvalidRequest
from proxy.wire.schemas import MAX_JSON_DEPTH, MAX_TOKENS_LIMIT, json_depth_exceeds

ITEM_TYPES = ("message", "function_call", "function_call_output")
ROLES = ("user", "system", "developer", "assistant")
TEXT_PARTS = ("input_text", "output_text", "text", "refusal")
#: Responses fields with no chat counterpart that the translation accepts and echoes (or ignores).
PASSED = ("temperature", "top_p", "user", "parallel_tool_calls", "seed", "stop")


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex}"


def validate_responses(data: dict[str, Any]) -> None:
    """A 400 naming the field for a body the translation cannot take (the chat check runs afterwards)."""
    for name, value in data.items():
        if json_depth_exceeds(value, MAX_JSON_DEPTH):
            raise InvalidRequest(f"'{name}' is nested more than {MAX_JSON_DEPTH} levels deep", param=name,
                                 code="nesting_too_deep")
    model = data.get("model")
    if not isinstance(model, str) or not model.strip():
        raise InvalidRequest("'model' must be a non-empty string", param="model")
    if "input" not in data and not data.get("previous_response_id"):
        raise InvalidRequest("missing required field 'input'", param="input")
    items = input_items(data.get("input", []))
    if not items and not data.get("previous_response_id"):
        raise InvalidRequest("'input' must be a non-empty string or a non-empty list of items", param="input")
    instructions = data.get("instructions")
    if instructions is not None and not isinstance(instructions, str):
        raise InvalidRequest("'instructions' must be a string", param="instructions")
    previous = data.get("previous_response_id")
    if previous is not None and (not isinstance(previous, str) or not previous or len(previous) > 64):
        raise InvalidRequest("'previous_response_id' must be a response id such as 'resp_...'",
                             param="previous_response_id")
    limit = data.get("max_output_tokens")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool)
                              or not 1 <= limit <= MAX_TOKENS_LIMIT):
        raise InvalidRequest(f"'max_output_tokens' must be between 1 and {MAX_TOKENS_LIMIT}", param="max_output_tokens")
    for name in ("store", "stream"):
        if data.get(name) is not None and not isinstance(data[name], bool):
            raise InvalidRequest(f"'{name}' must be a boolean", param=name)
    chat_tools(data.get("tools"))
    text_format(data.get("text"))


def input_items(value: Any) -> list[dict[str, Any]]:
    """The request's input as a list of items (a string is one user message); 400 for an unknown item type."""
    if isinstance(value, str):
        if not value:
            raise InvalidRequest("'input' is an empty string", param="input")
        return [{"type": "message", "role": "user", "content": value}]
    if not isinstance(value, list):
        raise InvalidRequest("'input' must be a string or a list of items", param="input")
    items = []
    for i, item in enumerate(value):
        where = f"input[{i}]"
        if not isinstance(item, dict):
            raise InvalidRequest(f"'{where}' must be an object (an input item)", param=where)
        kind = item.get("type", "message" if "role" in item else None)
        if kind not in ITEM_TYPES:
            raise InvalidRequest(f"'{where}.type' is {kind!r}; this proxy accepts the item types {list(ITEM_TYPES)}",
                                 param=f"{where}.type", code="unsupported_item_type")
        if kind == "message":
            if item.get("role") not in ROLES:
                raise InvalidRequest(f"'{where}.role' must be one of {list(ROLES)}", param=f"{where}.role")
            _message_text(item.get("content"), where)
        elif kind == "function_call":
            for name in ("call_id", "name", "arguments"):
                if not isinstance(item.get(name), str):
                    raise InvalidRequest(f"'{where}.{name}' must be a string", param=f"{where}.{name}")
        elif not isinstance(item.get("call_id"), str) or not isinstance(item.get("output"), str | list):
            raise InvalidRequest(f"'{where}' needs a 'call_id' string and an 'output' string", param=where)
        items.append({**item, "type": kind})
    return items


def raw_items(value: Any) -> list[dict[str, Any]]:
    """The input as items without judging them (for an upstream serving the Responses API itself)."""
    if isinstance(value, str):
        return [{"type": "message", "role": "user", "content": value}]
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _message_text(content: Any, where: str) -> str | list[dict[str, Any]]:
    """A message item's content as chat content: a string, or chat parts when it holds images."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise InvalidRequest(f"'{where}.content' must be a string or a list of content parts",
                             param=f"{where}.content")
    parts: list[dict[str, Any]] = []
    for j, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in TEXT_PARTS and isinstance(part.get("text", part.get("refusal")), str):
            parts.append({"type": "text", "text": part.get("text", part.get("refusal"))})
        elif kind == "input_image" and isinstance(part.get("image_url"), str):
            parts.append({"type": "image_url", "image_url": {"url": part["image_url"]}})
        else:
            raise InvalidRequest(f"'{where}.content[{j}]' has type {kind!r}; accepted: input_text, output_text, "
                                 "input_image (with an image_url)", param=f"{where}.content[{j}]",
                                 code="unsupported_content_type")
    if all(p["type"] == "text" for p in parts):
        return "".join(p["text"] for p in parts)
    return parts


def chat_tools(tools: Any) -> list[dict[str, Any]] | None:
    """Responses function tools (``{"type": "function", "name", "parameters", ...}``) as chat tools."""
    if tools is None:
        return None
    if not isinstance(tools, list):
        raise InvalidRequest("'tools' must be a list", param="tools")
    out = []
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict) or tool.get("type") != "function":
            kind = tool.get("type") if isinstance(tool, dict) else None
            raise InvalidRequest(f"'tools[{i}]' has type {kind!r}; only function tools are supported through this "
                                 "proxy", param=f"tools[{i}].type", code="unsupported_tool_type")
        if not isinstance(tool.get("name"), str) or not tool["name"]:
            raise InvalidRequest(f"'tools[{i}].name' must be a non-empty string", param=f"tools[{i}].name")
        spec = {k: tool[k] for k in ("name", "description", "parameters", "strict") if tool.get(k) is not None}
        out.append({"type": "function", "function": spec})
    return out


def chat_tool_choice(choice: Any) -> Any:
    if choice is None or isinstance(choice, str):
        return choice
    if isinstance(choice, dict) and choice.get("type") == "function" and isinstance(choice.get("name"), str):
        return {"type": "function", "function": {"name": choice["name"]}}
    raise InvalidRequest("'tool_choice' must be \"auto\", \"none\", \"required\" or {\"type\": \"function\", "
                         "\"name\": ...}", param="tool_choice")


def text_format(text: Any) -> dict[str, Any] | None:
    """``text.format`` as a chat ``response_format`` (None for plain text)."""
    if text is None:
        return None
    if not isinstance(text, dict):
        raise InvalidRequest("'text' must be an object such as {\"format\": {\"type\": \"text\"}}", param="text")
    fmt = text.get("format")
    if fmt is None or (isinstance(fmt, dict) and fmt.get("type") == "text"):
        return None
    if isinstance(fmt, dict) and fmt.get("type") == "json_object":
        return {"type": "json_object"}
    if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        if not isinstance(fmt.get("schema"), dict) or not isinstance(fmt.get("name"), str):
            raise InvalidRequest("'text.format' of type json_schema needs a 'name' and a 'schema' object",
                                 param="text.format")
        spec = {k: fmt[k] for k in ("name", "schema", "strict", "description") if fmt.get(k) is not None}
        return {"type": "json_schema", "json_schema": spec}
    raise InvalidRequest("'text.format.type' must be text, json_object or json_schema", param="text.format.type")


def chat_messages(items: list[dict[str, Any]], instructions: str | None) -> list[dict[str, Any]]:
    """Items (the chain's and this request's) as chat messages; consecutive function calls become one
    assistant message with ``tool_calls``."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": instructions}] if instructions else []
    for item in items:
        kind = item["type"]
        if kind == "message":
            messages.append({"role": item["role"], "content": _message_text(item.get("content"), "input")})
        elif kind == "function_call":
            call = {"id": item["call_id"], "type": "function",
                    "function": {"name": item["name"], "arguments": item["arguments"]}}
            last = messages[-1] if messages else None
            if last is not None and last["role"] == "assistant" and last.get("tool_calls") is not None:
                last["tool_calls"].append(call)
            else:
                messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        else:
            output = item["output"]
            text = output if isinstance(output, str) else "".join(
                p.get("text", "") for p in output if isinstance(p, dict))
            messages.append({"role": "tool", "tool_call_id": item["call_id"], "content": text})
    return messages


def chat_body(data: dict[str, Any], items: list[dict[str, Any]], stream: bool) -> dict[str, Any]:
    """The chat completion request that answers the Responses request ``data`` over ``items``."""
    body: dict[str, Any] = {"model": data["model"], "messages": chat_messages(items, data.get("instructions"))}
    for name in PASSED:
        if data.get(name) is not None:
            body[name] = data[name]
    if data.get("max_output_tokens") is not None:
        body["max_tokens"] = data["max_output_tokens"]
    tools = chat_tools(data.get("tools"))
    if tools:
        body["tools"] = tools
        if data.get("tool_choice") is not None:
            body["tool_choice"] = chat_tool_choice(data["tool_choice"])
    elif "parallel_tool_calls" in body:
        del body["parallel_tool_calls"]
    response_format = text_format(data.get("text"))
    if response_format is not None:
        body["response_format"] = response_format
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    return body


def usage_of(chat_usage: Any) -> dict[str, Any] | None:
    if not isinstance(chat_usage, dict):
        return None
    prompt = chat_usage.get("prompt_tokens") or 0
    completion = chat_usage.get("completion_tokens") or 0
    cached = (chat_usage.get("prompt_tokens_details") or {}).get("cached_tokens") or 0
    return {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": cached},
            "output_tokens": completion, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": chat_usage.get("total_tokens") or prompt + completion}


def skeleton(data: dict[str, Any], response_id: str, status: str) -> dict[str, Any]:
    """A response object without output (what ``response.created`` carries, and the base of the final one)."""
    fmt = (data.get("text") or {}).get("format") if isinstance(data.get("text"), dict) else None
    return {"id": response_id, "object": "response", "created_at": int(time.time()), "status": status,
            "error": None, "incomplete_details": None, "instructions": data.get("instructions"),
            "max_output_tokens": data.get("max_output_tokens"), "model": data["model"], "output": [],
            "parallel_tool_calls": data.get("parallel_tool_calls", True),
            "previous_response_id": data.get("previous_response_id"), "reasoning": None,
            "store": data.get("store", True), "temperature": data.get("temperature", 1.0),
            "text": {"format": fmt or {"type": "text"}}, "tool_choice": data.get("tool_choice", "auto"),
            "tools": data.get("tools") or [], "top_p": data.get("top_p", 1.0), "truncation": "disabled",
            "usage": None, "user": data.get("user"), "metadata": data.get("metadata") or {}}


def message_item(text: str, item_id: str | None = None, status: str = "completed") -> dict[str, Any]:
    return {"type": "message", "id": item_id or new_id("msg"), "status": status, "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def call_item(call_id: str, name: str, arguments: str, item_id: str | None = None,
              status: str = "completed") -> dict[str, Any]:
    return {"type": "function_call", "id": item_id or new_id("fc"), "call_id": call_id, "name": name,
            "arguments": arguments, "status": status}


def finish(response: dict[str, Any], output: list[dict[str, Any]], finish_reason: str | None,
           usage: Any) -> dict[str, Any]:
    """Complete ``response`` with its output, status and usage."""
    cut = finish_reason == "length"
    response.update(output=output, status="incomplete" if cut else "completed", usage=usage_of(usage),
                    incomplete_details={"reason": "max_output_tokens"} if cut else None)
    return response


def from_chat(data: dict[str, Any], response_id: str, chat: dict[str, Any]) -> dict[str, Any]:
    """The response object of a whole chat completion."""
    choice = (chat.get("choices") or [{}])[0]
    message = choice.get("message") or {}
    output: list[dict[str, Any]] = []
    if message.get("content"):
        output.append(message_item(message["content"]))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        output.append(call_item(call.get("id") or new_id("call"), function.get("name", ""),
                                function.get("arguments", "")))
    return finish(skeleton(data, response_id, "completed"), output, choice.get("finish_reason"), chat.get("usage"))


def with_ids(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Items as stored and listed by ``input_items``: each with an id, messages with content parts."""
    out = []
    for item in items:
        item = dict(item)
        if item.get("type") == "message":
            item.setdefault("id", new_id("msg"))
            content = item.get("content")
            if isinstance(content, str):
                kind = "output_text" if item["role"] == "assistant" else "input_text"
                item["content"] = [{"type": kind, "text": content}]
            item.setdefault("status", "completed")
        elif item.get("type") == "function_call":
            item.setdefault("id", new_id("fc"))
        elif item.get("type") == "function_call_output":
            item.setdefault("id", new_id("fco"))
        else:  # another item type, forwarded to an upstream serving the Responses API
            item.setdefault("id", new_id("item"))
        out.append(item)
    return out

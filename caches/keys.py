"""Canonical request keys for the exact cache and scopes for the semantic cache.

The exact key of a request is the SHA-256 of a canonical JSON document that holds everything that
can change the answer: the tenant, the resolved model and every field of the request body except
the transport-only ones (``stream``, ``stream_options``, ``user``) and Thrifty's own extension
field (``thrifty``). Unknown fields are included by default, so a provider-specific sampling
parameter can never make two different requests collide.

Normalisation (all of it answer-preserving):

- JSON key order and formatting do not matter (the body is a parsed mapping; the canonical form
  sorts keys and has no whitespace);
- ``max_completion_tokens`` and ``max_tokens`` are the same field;
- a top-level field set to ``null`` is the same as an absent field;
- integral floats equal integers (``temperature: 0`` == ``temperature: 0.0``);
- a message ``content`` given as a single text part equals the plain string.

The body's own ``model`` field is replaced by the ``model`` argument (the model that serves the
request, after aliasing/routing), so pass the same value at lookup and at store.

The *scope* of a request is the same document without the text of the last user message: two
requests in the same scope differ at most in that text, so a semantic hit can only come from the
same tenant, model, parameters, system prompt, tools and earlier conversation.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "EXCLUDED_FIELDS",
    "KEY_VERSION",
    "RequestKeys",
    "canonical_json",
    "canonical_request",
    "exact_key",
    "last_user_text",
    "request_keys",
    "scope_key",
]

KEY_VERSION = 1
EXCLUDED_FIELDS: frozenset[str] = frozenset({"stream", "stream_options", "user", "thrifty", "model"})
"""Body fields that never reach the key (``model`` is replaced by the resolved model)."""


@dataclass(frozen=True, slots=True)
class RequestKeys:
    """Everything the caches need to know about one request.

    ``exact``: the exact-cache key; ``scope``: the semantic-cache scope hash; ``query``: the text of
    the last user message, or ``None`` when the request has no plain-text last user message (then
    it is not semantic-cacheable).
    """

    exact: str
    scope: str
    query: str | None
    tenant: str
    model: str


def _normalise(value: Any) -> Any:
    """Recursively turn a JSON value into its canonical Python form."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value) and abs(value) < 2**53:
            return int(value)
        return value
    if isinstance(value, Mapping):
        return {str(k): _normalise(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        return [_normalise(v) for v in value]
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def canonical_json(value: Any) -> str:
    """Compact, key-sorted JSON text of ``value`` (after :func:`_normalise`)."""
    return json.dumps(
        _normalise(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=True
    )


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _normalise_content(content: Any) -> Any:
    if isinstance(content, Sequence) and not isinstance(content, str) and len(content) == 1:
        part = content[0]
        if isinstance(part, Mapping) and part.get("type") == "text" and set(part) <= {"type", "text"}:
            text = part.get("text")
            if isinstance(text, str):
                return text
    return content


def _normalise_message(message: Any) -> Any:
    if not isinstance(message, Mapping):
        return message
    out = {k: v for k, v in message.items() if v is not None}
    if "content" in message:
        out["content"] = _normalise_content(message["content"])
    return out


def canonical_request(body: Mapping[str, Any]) -> dict[str, Any]:
    """The answer-relevant part of a request body, normalised (see the module docstring)."""
    params: dict[str, Any] = {}
    for name, value in body.items():
        if name in EXCLUDED_FIELDS or value is None:
            continue
        params[name] = value
    if "max_completion_tokens" in params:
        params["max_tokens"] = params.pop("max_completion_tokens")
    if isinstance(params.get("messages"), Sequence) and not isinstance(params["messages"], str):
        params["messages"] = [_normalise_message(m) for m in params["messages"]]
    return _normalise(params)


def exact_key(body: Mapping[str, Any], *, model: str, tenant: str) -> str:
    """SHA-256 hex key of a chat/completions (or completions) request for the exact cache."""
    doc = {
        "v": KEY_VERSION,
        "kind": "exact",
        "tenant": tenant,
        "model": model,
        "request": canonical_request(body),
    }
    return _sha256(canonical_json(doc))


def _last_user_index(messages: Sequence[Any]) -> int | None:
    for i in range(len(messages) - 1, -1, -1):
        m = messages[i]
        if isinstance(m, Mapping) and m.get("role") == "user":
            return i
    return None


def _text_of(content: Any) -> str | None:
    content = _normalise_content(content)
    return content if isinstance(content, str) else None


def last_user_text(body: Mapping[str, Any]) -> str | None:
    """Text of the last user message (or of a string ``prompt``); ``None`` if there is none or it
    is not plain text (images, audio, several parts)."""
    messages = body.get("messages")
    if isinstance(messages, Sequence) and not isinstance(messages, str):
        idx = _last_user_index(messages)
        return None if idx is None else _text_of(messages[idx].get("content"))
    prompt = body.get("prompt")
    return prompt if isinstance(prompt, str) else None


def scope_key(body: Mapping[str, Any], *, model: str, tenant: str) -> str:
    """SHA-256 hex scope of a request: everything of the exact key except the last user text."""
    request = canonical_request(body)
    messages = request.get("messages")
    if isinstance(messages, list):
        idx = _last_user_index(messages)
        if idx is not None and isinstance(messages[idx], dict):
            last = dict(messages[idx])
            last["content"] = None if isinstance(last.get("content"), str) else last.get("content")
            request["messages"] = [*messages[:idx], last, *messages[idx + 1 :]]
    elif isinstance(request.get("prompt"), str):
        request["prompt"] = None
    doc = {"v": KEY_VERSION, "kind": "scope", "tenant": tenant, "model": model, "request": request}
    return _sha256(canonical_json(doc))


def request_keys(body: Mapping[str, Any], *, model: str, tenant: str) -> RequestKeys:
    """Compute the exact key, the scope and the semantic query text of one request."""
    return RequestKeys(
        exact=exact_key(body, model=model, tenant=tenant),
        scope=scope_key(body, model=model, tenant=tenant),
        query=last_user_text(body),
        tenant=tenant,
        model=model,
    )

"""Which requests may be answered from, and written to, the caches.

Defaults:

- exact hits are allowed for every deterministic request whose full key matches (the key covers
  all sampling parameters);
- *sampled* requests (``temperature`` > 0 or absent, OpenAI's default being 1, and no ``seed``)
  neither look up nor store: a caller who samples expects a fresh sample. A policy with
  ``replay_sampled`` (per key: ``[cache.keys.<name>] replay_sampled``), or one that lets them use
  the semantic cache (``semantic_requires_determinism = False``), caches them like the rest;
- only deterministic requests are semantic-eligible: ``temperature`` 0 or a ``seed``, ``n`` 1 (or
  absent), no ``tools`` / ``functions``, no ``logprobs``, and a plain-text last user message.

Opt-outs (the most restrictive one wins):

- ``Cache-Control`` request header (pass its value as a string): ``no-cache`` or ``max-age=0`` skip
  the lookup but still store the fresh response; ``no-store`` skips both lookup and store;
- the body extension field ``"thrifty": {"cache": ...}`` where the value is

  - ``false`` (or ``"off"``): no lookup, no store;  ``true``: the defaults;
  - ``"no-cache"`` / ``"no-store"``: as the header;
  - ``"exact"``: exact cache only (no semantic lookup or store);
  - an object ``{"lookup": bool, "store": bool, "semantic": bool}`` (each optional, default true).

  A malformed value disables caching for the request (and is logged).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from caches.config import PolicyConfig
from caches.keys import last_user_text

__all__ = ["CacheDecision", "decide", "is_cacheable_response", "is_sampled", "parse_cache_control"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CacheDecision:
    """What the caches may do for one request.

    ``lookup``: a cached response may be served; ``store``: the upstream response may be written
    back; ``semantic``: the request may use the semantic cache (for lookup and store, each still
    subject to ``lookup`` / ``store``); ``reason``: a short explanation for logs and headers.
    """

    lookup: bool
    store: bool
    semantic: bool
    reason: str


@dataclass(frozen=True, slots=True)
class _Flags:
    lookup: bool = True
    store: bool = True
    semantic: bool = True
    reason: str = ""


def parse_cache_control(value: str | None) -> frozenset[str]:
    """Lower-cased directives of a ``Cache-Control`` header value (``max-age=0`` -> ``no-cache``)."""
    if not value:
        return frozenset()
    out: set[str] = set()
    for part in value.split(","):
        directive = part.strip().lower()
        if not directive:
            continue
        name, _, arg = directive.partition("=")
        name = name.strip()
        if name == "max-age" and arg.strip().strip('"') == "0":
            out.add("no-cache")
        else:
            out.add(name)
    return frozenset(out)


def _flags_from_header(cache_control: str | None) -> _Flags:
    directives = parse_cache_control(cache_control)
    if "no-store" in directives:
        return _Flags(lookup=False, store=False, reason="cache-control: no-store")
    if "no-cache" in directives:
        return _Flags(lookup=False, reason="cache-control: no-cache")
    return _Flags()


def _flags_from_extension(body: Mapping[str, Any]) -> _Flags:
    ext = body.get("thrifty")
    if ext is None:
        return _Flags()
    if not isinstance(ext, Mapping):
        logger.warning("ignoring malformed 'thrifty' extension field; caching disabled for this request")
        return _Flags(False, False, False, "malformed thrifty extension")
    value = ext.get("cache", True)
    if value is True or value == "on":
        return _Flags()
    if value is False or value == "off":
        return _Flags(False, False, False, "thrifty.cache=false")
    if value == "no-cache":
        return _Flags(lookup=False, reason="thrifty.cache=no-cache")
    if value == "no-store":
        return _Flags(lookup=False, store=False, reason="thrifty.cache=no-store")
    if value == "exact":
        return _Flags(semantic=False, reason="thrifty.cache=exact")
    if (
        isinstance(value, Mapping)
        and set(value) <= {"lookup", "store", "semantic"}
        and all(isinstance(v, bool) for v in value.values())
    ):
        return _Flags(
            lookup=value.get("lookup", True),
            store=value.get("store", True),
            semantic=value.get("semantic", True),
            reason="thrifty.cache object",
        )
    logger.warning("malformed thrifty.cache value %r; caching disabled for this request", value)
    return _Flags(False, False, False, "malformed thrifty.cache")


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_sampled(body: Mapping[str, Any]) -> bool:
    """True for a request that asks for a random sample: ``temperature`` above 0 or absent
    (OpenAI's default is 1) and no ``seed``."""
    temperature = body.get("temperature")
    return not ((_is_number(temperature) and temperature == 0) or body.get("seed") is not None)


def _semantic_blocker(body: Mapping[str, Any]) -> str | None:
    """Why the request is not semantic-eligible, or ``None`` when it is."""
    if is_sampled(body):
        return "not deterministic (temperature != 0 and no seed)"
    n = body.get("n")
    if n is not None and n != 1:
        return "n != 1"
    tools = body.get("tools")
    if tools or body.get("functions"):
        return "tools present"
    if body.get("logprobs") or body.get("top_logprobs"):
        return "logprobs requested"
    if last_user_text(body) is None:
        return "no plain-text last user message"
    return None


def decide(
    body: Mapping[str, Any],
    *,
    cache_control: str | None = None,
    config: PolicyConfig | None = None,
) -> CacheDecision:
    """Decide what the caches may do for a request body and its ``Cache-Control`` header value."""
    config = config or PolicyConfig()
    header = _flags_from_header(cache_control)
    ext = _flags_from_extension(body)
    lookup = header.lookup and ext.lookup and (config.exact or config.semantic)
    store = header.store and ext.store and (config.exact or config.semantic)
    reasons = [r for r in (header.reason, ext.reason) if r]
    replay = config.replay_sampled or not config.semantic_requires_determinism
    if (lookup or store) and not replay and is_sampled(body):
        lookup = store = False
        reasons.append("sampled (temperature > 0 without a seed): a fresh sample each time")
    semantic = config.semantic and ext.semantic and (lookup or store)
    if semantic and config.semantic_requires_determinism:
        blocker = _semantic_blocker(body)
        if blocker is not None:
            semantic = False
            reasons.append(f"semantic: {blocker}")
    elif semantic and last_user_text(body) is None:
        semantic = False
        reasons.append("semantic: no plain-text last user message")
    return CacheDecision(
        lookup=lookup, store=store, semantic=semantic, reason="; ".join(reasons) or "default"
    )


def is_cacheable_response(response: Any, *, semantic: bool = False) -> bool:
    """True for a successful OpenAI completion object worth caching.

    Requires a JSON object with a non-empty ``choices`` list and no ``error``; refuses choices cut
    by a content filter. For the semantic cache, also refuses tool calls.
    """
    if not isinstance(response, Mapping) or "error" in response:
        return False
    choices = response.get("choices")
    if not isinstance(choices, Sequence) or isinstance(choices, str) or not choices:
        return False
    for choice in choices:
        if not isinstance(choice, Mapping):
            return False
        if choice.get("finish_reason") == "content_filter":
            return False
        if semantic:
            message = choice.get("message")
            if isinstance(message, Mapping) and (message.get("tool_calls") or message.get("function_call")):
                return False
    return True

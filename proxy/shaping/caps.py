"""Output capping: a default ``max_tokens`` for requests without one and a hard maximum.

The effective limit is written into the body before the cache lookup, so the exact-cache key (and
the semantic scope) holds the limit the answer was produced under: an answer cut at 512 tokens is
never replayed to a request that asked for 2,000.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from proxy.config.shaping import ShapingPolicy
from proxy.wire.errors import InvalidRequest

LIMIT_FIELDS = ("max_completion_tokens", "max_tokens")
# OpenAI's reasoning families (o1, o3-mini, o4-mini, gpt-5, ...): they refuse ``max_tokens`` and count
# their hidden reasoning against ``max_completion_tokens``
_REASONING_MODEL = re.compile(r"^(?:[\w.-]+/)?(?:o\d+(?:-|$)|gpt-5)", re.IGNORECASE)
ADDED_KINDS = ("default", "learned")  # caps that added a limit the caller did not send


@dataclass(frozen=True, slots=True)
class CapOutcome:
    """What capping did: ``kind`` is ``"default"`` or ``"learned"`` (a limit was added), ``"clamped"`` (lowered to
    the hard maximum) or ``None`` (the request's own limit stands); ``max_tokens`` is the limit the
    request now carries (``None``: none)."""

    kind: str | None
    max_tokens: int | None
    requested: int | None = None
    fitted: bool = False  # the added limit was lowered to what the context has left

    @property
    def header(self) -> str | None:
        """The ``x-thrifty-cap`` header value, or ``None`` when nothing changed."""
        if self.kind in ADDED_KINDS:
            fitted = "; fitted-to-context" if self.fitted else ""
            return f"{self.kind}; max_tokens={self.max_tokens}{fitted}"
        if self.kind == "clamped":
            return f"clamped; max_tokens={self.max_tokens}; requested={self.requested}"
        return None


def requested_limit(data: dict[str, Any]) -> tuple[str | None, int | None]:
    """The field that carries the caller's output limit and its value (``max_completion_tokens``
    wins over ``max_tokens``, as OpenAI reads them)."""
    for name in LIMIT_FIELDS:
        value = data.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return name, value
    return None, None


def is_reasoning_model(name: object) -> bool:
    """Whether ``name`` (optionally ``provider/``-prefixed) is one of OpenAI's reasoning models, which
    take ``max_completion_tokens`` only and spend part of it on reasoning the answer never shows."""
    return isinstance(name, str) and _REASONING_MODEL.match(name.strip()) is not None


def is_structured(data: dict[str, Any]) -> bool:
    """Whether the answer must be whole to be of any use: a ``response_format`` of ``json_object`` /
    ``json_schema``, tools the model may call (``tool_choice`` other than ``"none"``), or vLLM's
    ``guided_*`` fields. A default cap would cut such an answer into invalid JSON."""
    response_format = data.get("response_format")
    if isinstance(response_format, dict) and response_format.get("type") in ("json_object", "json_schema"):
        return True
    if data.get("tools") and data.get("tool_choice") != "none":
        return True
    return any(data.get(name) is not None for name in ("guided_json", "guided_choice", "guided_regex",
                                                        "guided_grammar"))


def apply_cap(data: dict[str, Any], policy: ShapingPolicy, learned: int | None = None) -> CapOutcome:
    """Add the default limit (``learned`` instead when given) or enforce the hard maximum on
    ``data`` (changed in place).

    A structured request (:func:`is_structured`) gets no default or learned limit either: only the hard
    maximum, which :func:`fit_added_limit` then fits to the context, so the answer is never cut short
    by a cap the caller did not ask for. A reasoning model (:func:`is_reasoning_model` of ``data["model"]``)
    gets no default or learned limit: its reasoning tokens count against the limit, so a cap sized for chat answers could leave
    no visible answer at all; the hard maximum still applies, written as ``max_completion_tokens``,
    the only field those models accept.

    Over the maximum: ``over_limit = "clamp"`` lowers every limit field above it (both
    ``max_completion_tokens`` and ``max_tokens``, as upstreams differ in which one they read),
    ``"reject"`` raises a 400 that names the field and the maximum. A request with ``n`` > 1 is
    capped per choice, as ``max_tokens`` is.
    """
    _, requested = requested_limit(data)
    limit = policy.max_tokens_limit or None
    if requested is None:
        reasoning = is_reasoning_model(data.get("model"))
        default = None if reasoning or is_structured(data) else learned or policy.default_max_tokens or None
        if default is None and limit is None:
            return CapOutcome(None, None)
        value = min(v for v in (default, limit) if v is not None)
        field, other = ("max_completion_tokens", "max_tokens") if reasoning else ("max_tokens", "max_completion_tokens")
        data[field] = value
        data.pop(other, None)  # an explicit null
        kind = "learned" if learned and default == learned else "default"
        return CapOutcome(kind, value)
    over = {name: value for name, value in _limits(data).items() if value > limit} if limit is not None else {}
    if over:
        name, value = next(iter(over.items()))
        if policy.over_limit == "reject":
            raise InvalidRequest(f"'{name}' is {value} but this key and model allow at most {limit} "
                                 f"output tokens; ask for {limit} or fewer", param=name, code="max_tokens_too_large")
        for name in over:  # every field: upstreams differ in which one they read
            data[name] = limit
        return CapOutcome("clamped", min(requested, limit), max(over.values()))
    return CapOutcome(None, requested)


def fit_added_limit(data: dict[str, Any], outcome: CapOutcome, prompt_tokens: int | None,
                    context_window: int | None) -> CapOutcome:
    """Lower a limit that capping *added* (default or learned) to the tokens the model's context has
    left after the prompt, so that a default never turns a request the client sent without a limit
    into a "context length exceeded" error. A caller's own limit is never changed (too large a
    request is the caller's to fix), nor is a prompt that alone fills the context (the upstream
    says so)."""
    if outcome.kind not in ADDED_KINDS or prompt_tokens is None or not context_window:
        return outcome
    room = context_window - prompt_tokens
    if room < 1 or outcome.max_tokens is None or room >= outcome.max_tokens:
        return outcome
    data["max_tokens"] = room
    return CapOutcome(outcome.kind, room, fitted=True)


def _limits(data: dict[str, Any]) -> dict[str, int]:
    """The output-limit fields ``data`` carries as integers, by name."""
    return {name: value for name in LIMIT_FIELDS
            if isinstance(value := data.get(name), int) and not isinstance(value, bool)}


def finish_reason_of(payload: dict[str, Any]) -> str | None:
    """The finish reason to log for a completion: ``length`` when any choice was cut by the limit,
    else the first choice's (``None`` when the payload has none)."""
    choices = payload.get("choices")
    if not isinstance(choices, list):
        return None
    reasons = [c.get("finish_reason") for c in choices if isinstance(c, dict)]
    reasons = [r for r in reasons if isinstance(r, str)]
    if "length" in reasons:
        return "length"
    return reasons[0][:32] if reasons else None

"""Parsing and validating OpenAI request bodies into sampling parameters for the backend."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from backend.sampling import SamplingParams

ROLES = {"system", "user", "assistant", "tool", "developer", "function"}


class RequestError(ValueError):
    """A request the backend refuses; carries the OpenAI error fields."""

    def __init__(self, message: str, param: str | None = None, code: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.param, self.code, self.status = message, param, code, status


class _Common(msgspec.Struct, forbid_unknown_fields=False):
    model: str
    max_tokens: int | None = None
    max_completion_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    n: int = 1
    seed: int | None = None
    stop: str | list[str] | None = None
    stop_token_ids: list[int] | None = None
    ignore_eos: bool = False
    stream: bool = False
    stream_options: dict[str, Any] | None = None
    priority: str | None = None  # "interactive" (default) | "batch"; also the x-thrifty-priority header


class ChatBody(_Common, forbid_unknown_fields=False):
    messages: list[dict[str, Any]] = []
    tools: Any = None  # rendered into the prompt by backend.chat_sections
    response_format: Any = None
    logprobs: bool = False
    top_logprobs: int | None = None


class CompletionBody(_Common, forbid_unknown_fields=False):
    prompt: Any = ""  # str | list[str] | list[int]; checked by the server
    logprobs: int | None = None
    echo: bool = False


PRIORITIES = ("interactive", "batch")


@dataclass(frozen=True, slots=True)
class Limits:
    """What the server can serve: context length, choices per request, KV pool size (None: unbounded)."""

    max_model_len: int
    max_n: int
    kv_capacity_tokens: int | None = None

    @property
    def max_sequence_len(self) -> int:
        """The longest prompt + completion one choice may have."""
        if self.kv_capacity_tokens is None:
            return self.max_model_len
        return min(self.max_model_len, self.kv_capacity_tokens)


def parse_priority(body_value: str | None, header_value: str | None) -> str:
    """The request's scheduling class from the body field or the ``x-thrifty-priority`` header."""
    value = body_value if body_value is not None else header_value
    if value is None or value == "":
        return "interactive"
    value = value.strip().lower()
    if value not in PRIORITIES:
        raise RequestError(f"priority must be one of {list(PRIORITIES)}, got {value!r}", param="priority")
    return value


def decode_body(raw: bytes, kind: type[msgspec.Struct]):
    """JSON bytes → a typed body, with messages that say what to fix."""
    try:
        data = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise RequestError(f"request body is not valid JSON: {exc}", code="invalid_json") from None
    if not isinstance(data, dict):
        raise RequestError("request body must be a JSON object")
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as exc:
        text = str(exc)
        param = text.split("`$.", 1)[1].split("`", 1)[0] if "`$." in text else None
        raise RequestError(f"invalid request: {text}", param=param) from None


def validate_messages(messages: list[dict[str, Any]]) -> None:
    if not messages:
        raise RequestError("'messages' must be a non-empty list", param="messages")
    for i, message in enumerate(messages):
        role = message.get("role")
        if role not in ROLES:
            raise RequestError(f"messages[{i}].role must be one of {sorted(ROLES)}, got {role!r}",
                               param=f"messages[{i}].role")
        content = message.get("content")
        if content is not None and not isinstance(content, str | list):
            raise RequestError(f"messages[{i}].content must be a string or a list of parts",
                               param=f"messages[{i}].content")


def sampling_params(body: _Common, prompt_len: int, limits: Limits, logprobs: bool = False,
                    top_logprobs: int = 0) -> SamplingParams:
    """Check the body against the server's limits and build :class:`SamplingParams`."""
    if prompt_len >= limits.max_model_len:
        raise RequestError(
            f"the prompt has {prompt_len} tokens but this model's maximum context length is "
            f"{limits.max_model_len} tokens; shorten the prompt", param="messages", code="context_length_exceeded")
    kv = limits.kv_capacity_tokens
    if kv is not None and prompt_len >= kv:
        raise RequestError(
            f"the prompt has {prompt_len} tokens but the KV cache pool holds only {kv} tokens "
            f"(--kv-cache-memory); shorten the prompt", param="messages", code="context_length_exceeded")
    room = limits.max_sequence_len - prompt_len
    requested = body.max_completion_tokens if body.max_completion_tokens is not None else body.max_tokens
    if requested is not None:
        name = "max_completion_tokens" if body.max_completion_tokens is not None else "max_tokens"
        if requested < 1:
            raise RequestError(f"{name} must be at least 1", param=name)
        if prompt_len + requested > limits.max_model_len:
            raise RequestError(
                f"{name}={requested} plus the prompt's {prompt_len} tokens exceeds the maximum context length of "
                f"{limits.max_model_len} tokens; ask for at most {limits.max_model_len - prompt_len}", param=name,
                code="context_length_exceeded")
        if requested > room:
            raise RequestError(
                f"{name}={requested} plus the prompt's {prompt_len} tokens can never fit in the KV cache pool of "
                f"{kv} tokens (--kv-cache-memory); ask for at most {room}", param=name,
                code="context_length_exceeded")
    if not 1 <= body.n <= limits.max_n:
        raise RequestError(f"n must be between 1 and {limits.max_n} (the server's --max-n), got {body.n}", param="n")
    temperature = 1.0 if body.temperature is None else body.temperature
    if not 0.0 <= temperature <= 2.0:
        raise RequestError("temperature must be between 0 and 2", param="temperature")
    top_p = 1.0 if body.top_p is None else body.top_p
    if not 0.0 < top_p <= 1.0:
        raise RequestError("top_p must be in (0, 1]", param="top_p")
    top_k = body.top_k or 0
    if top_k < -1:
        raise RequestError("top_k must be -1 (disabled), 0 (disabled) or positive", param="top_k")
    stop = [body.stop] if isinstance(body.stop, str) else list(body.stop or [])
    if len(stop) > 16:
        raise RequestError("at most 16 stop strings are allowed", param="stop")
    if not 0 <= top_logprobs <= 20:
        raise RequestError("top_logprobs must be between 0 and 20", param="top_logprobs")
    return SamplingParams(
        max_tokens=requested if requested is not None else room,
        temperature=temperature, top_p=top_p, top_k=max(top_k, 0), seed=body.seed, stop=tuple(stop),
        stop_token_ids=tuple(body.stop_token_ids or ()), ignore_eos=body.ignore_eos, n=body.n,
        logprobs=logprobs, top_logprobs=top_logprobs,
    )

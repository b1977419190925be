"""Parsing and validating OpenAI request bodies into sampling parameters for the backend."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from backend.sampling import SamplingParams
from tokenization.errors import RequestError

ROLES = {"system", "user", "assistant", "tool", "developer", "function"}
SEED_MIN, SEED_MAX = -(1 << 63), (1 << 63) - 1  # OpenAI's seed is a signed 64-bit integer
MAX_TOP_LOGPROBS = 20
UNSUPPORTED = "is not supported by the bundled backend"


class _Common(msgspec.Struct, forbid_unknown_fields=False):
    model: str
    max_tokens: int | None = None
    max_completion_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    n: int | None = 1  # null: 1
    seed: int | None = None
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    logit_bias: dict[str, float] | None = None
    stop: str | list[str] | None = None
    stop_token_ids: list[int] | None = None
    ignore_eos: bool = False
    stream: bool = False
    stream_options: dict[str, Any] | None = None
    priority: str | None = None  # "interactive" (default) | "batch"; also the x-thrifty-priority header


class ChatBody(_Common, forbid_unknown_fields=False):
    messages: list[dict[str, Any]] = []
    tools: Any = None  # rendered into the prompt by tokenization.chat_sections
    response_format: Any = None  # json_object / json_schema: grammar-constrained (backend.structured)
    tool_choice: Any = None  # "auto" | "none" | "required" | {"type": "function", ...} (check_tool_choice)
    guided_json: Any = None  # vLLM's extensions: a schema, a list of strings, a regular expression
    guided_choice: Any = None
    guided_regex: Any = None
    logprobs: bool | None = None
    top_logprobs: int | None = None


class CompletionBody(_Common, forbid_unknown_fields=False):
    prompt: Any = ""  # str | list[str] | list[int]; checked by parse_prompt
    logprobs: int | bool | None = None  # the legacy count of top alternatives (false: none)
    echo: bool | None = False
    suffix: Any = None
    best_of: int | None = None


PRIORITIES = ("interactive", "batch")


@dataclass(frozen=True, slots=True)
class Limits:
    """What the server can serve: context length, choices per request, KV pool size (None: unbounded)."""

    max_model_len: int
    max_n: int
    kv_capacity_tokens: int | None = None
    vocab_size: int | None = None  # token ids (prompt, stop_token_ids, logit_bias) must be below it

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
    """Refuse messages the bundled backend cannot render faithfully, naming the message (and part)."""
    if not messages:
        raise RequestError("'messages' must be a non-empty list", param="messages")
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise RequestError(f"messages[{i}] must be an object", param=f"messages[{i}]")
        role = message.get("role")
        if role not in ROLES:
            raise RequestError(f"messages[{i}].role must be one of {sorted(ROLES)}, got {role!r}",
                               param=f"messages[{i}].role")
        content = message.get("content")
        if content is not None and not isinstance(content, str | list):
            raise RequestError(f"messages[{i}].content must be a string or a list of parts",
                               param=f"messages[{i}].content")
        if isinstance(content, list):
            for j, part in enumerate(content):
                _check_part(f"messages[{i}].content[{j}]", part)
        if message.get("tool_calls") is not None:
            _check_tool_calls(f"messages[{i}].tool_calls", message["tool_calls"])


def _check_part(where: str, part: Any) -> None:
    """One content part: only ``{"type": "text", "text": "..."}`` (images, audio, files are refused)."""
    if not isinstance(part, dict):
        raise RequestError(f"{where} must be a content part object such as {{\"type\": \"text\", \"text\": ...}}, "
                           f"got {type(part).__name__}", param=where)
    kind = part.get("type")
    if kind != "text":
        raise RequestError(f"{where} has type {kind!r}: only text parts are supported by the bundled backend",
                           param=where)
    if not isinstance(part.get("text"), str):
        raise RequestError(f"{where}.text must be a string", param=f"{where}.text")


def _check_tool_calls(where: str, calls: Any) -> None:
    """An assistant message's ``tool_calls``: function calls with a name and JSON-string arguments."""
    if not isinstance(calls, list):
        raise RequestError(f"{where} must be a list of tool calls", param=where)
    for j, call in enumerate(calls):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise RequestError(f"{where}[{j}] must be an object with a 'function' object that has a 'name'",
                               param=f"{where}[{j}]")
        if not isinstance(function.get("arguments", ""), str):
            raise RequestError(f"{where}[{j}].function.arguments must be a JSON string",
                               param=f"{where}[{j}].function.arguments")


def check_tool_choice(tool_choice: Any) -> None:
    """``tool_choice``'s shape: "auto", "none", "required" (and null), or a named function
    ``{"type": "function", "function": {"name": ...}}`` (whether the name is a tool's is checked with the
    grammar, backend.structured.spec)."""
    if tool_choice is None or tool_choice in ("auto", "none", "required"):
        return
    function = tool_choice.get("function") if isinstance(tool_choice, dict) else None
    if (isinstance(tool_choice, dict) and tool_choice.get("type") == "function" and isinstance(function, dict)
            and isinstance(function.get("name"), str)):
        return
    raise RequestError(f"tool_choice must be \"auto\", \"none\", \"required\" or a named function, got "
                       f"{json.dumps(tool_choice)}", param="tool_choice")


def chat_top_logprobs(body: ChatBody) -> int:
    """The chat request's ``top_logprobs`` (0 without); it needs ``logprobs: true`` as on OpenAI."""
    if body.top_logprobs is not None and not body.logprobs:
        raise RequestError("top_logprobs requires logprobs to be true", param="top_logprobs")
    return body.top_logprobs or 0


def completion_logprobs(body: CompletionBody) -> int | None:
    """The legacy ``logprobs`` count of a /v1/completions request (None: no logprobs). Refuses ``echo``,
    ``suffix`` and ``best_of`` other than ``n``, which the bundled backend does not implement."""
    if body.echo:
        raise RequestError(f"echo {UNSUPPORTED}", param="echo")
    if body.suffix is not None:
        raise RequestError(f"suffix {UNSUPPORTED}", param="suffix")
    n = 1 if body.n is None else body.n
    if body.best_of is not None and body.best_of != n:
        if body.best_of < n:
            raise RequestError(f"best_of must be at least n ({n}), got {body.best_of}", param="best_of")
        raise RequestError(f"best_of greater than n {UNSUPPORTED}", param="best_of")
    if body.logprobs is None or body.logprobs is False:
        return None
    if body.logprobs is True or not 0 <= body.logprobs <= MAX_TOP_LOGPROBS:
        raise RequestError(f"logprobs must be an integer between 0 and {MAX_TOP_LOGPROBS} on /v1/completions",
                           param="logprobs")
    return body.logprobs


def parse_prompt(prompt: Any, encode: Callable[[str], list[int]], vocab_size: int | None) -> list[int]:
    """A /v1/completions ``prompt`` (a string, a list with one string, token ids or a list with one list
    of token ids) → token ids."""
    if isinstance(prompt, list) and len(prompt) > 1 and all(isinstance(p, str | list) for p in prompt):
        raise RequestError("batched prompts are not supported; send one prompt per request", param="prompt")
    if isinstance(prompt, list) and len(prompt) == 1 and isinstance(prompt[0], str | list):
        prompt = prompt[0]  # a batch of one prompt
    if isinstance(prompt, str):
        ids = encode(prompt)
    elif isinstance(prompt, list):
        ids = _token_ids(prompt, vocab_size)
    else:
        raise RequestError("'prompt' must be a string, a list with one string, or a list of token ids",
                           param="prompt")
    if not ids:
        raise RequestError("'prompt' must not be empty", param="prompt")
    return ids


def _token_ids(values: list[Any], vocab_size: int | None) -> list[int]:
    if any(type(v) is not int for v in values):  # bool is an int subclass: refused too
        raise RequestError("'prompt' must be a string, a list with one string, or a list of token ids "
                           "(integers)", param="prompt")
    if any(not _in_vocab(v, vocab_size) for v in values):
        raise RequestError(f"prompt token ids must be within the vocabulary ({_vocab_range(vocab_size)})",
                           param="prompt")
    return list(values)


def _in_vocab(token: int, vocab_size: int | None) -> bool:
    return token >= 0 and (vocab_size is None or token < vocab_size)


def _vocab_range(vocab_size: int | None) -> str:
    return "non-negative" if vocab_size is None else f"0 to {vocab_size - 1}"


def sampling_params(body: _Common, prompt_len: int, limits: Limits, logprobs: bool = False,
                    top_logprobs: int = 0, prompt_param: str = "messages") -> SamplingParams:
    """Check the body against the server's limits and build :class:`SamplingParams` (``prompt_param``:
    the field a too-long prompt is blamed on)."""
    requested = _max_tokens(body, prompt_len, limits, prompt_param)
    n = 1 if body.n is None else body.n
    if not 1 <= n <= limits.max_n:
        raise RequestError(f"n must be between 1 and {limits.max_n} (the server's --max-n), got {n}", param="n")
    temperature = 1.0 if body.temperature is None else body.temperature
    if not 0.0 <= temperature <= 2.0:
        raise RequestError("temperature must be between 0 and 2", param="temperature")
    top_p = 1.0 if body.top_p is None else body.top_p
    if not 0.0 < top_p <= 1.0:
        raise RequestError("top_p must be in (0, 1]", param="top_p")
    top_k = body.top_k or 0
    if top_k < -1:
        raise RequestError("top_k must be -1 (disabled), 0 (disabled) or positive", param="top_k")
    if not 0 <= top_logprobs <= MAX_TOP_LOGPROBS:
        raise RequestError(f"top_logprobs must be between 0 and {MAX_TOP_LOGPROBS}", param="top_logprobs")
    presence_penalty, frequency_penalty = _penalties(body)
    return SamplingParams(
        max_tokens=requested, temperature=temperature, top_p=top_p, top_k=max(top_k, 0), seed=_seed(body.seed),
        stop=_stops(body.stop), stop_token_ids=_stop_token_ids(body.stop_token_ids, limits.vocab_size),
        ignore_eos=body.ignore_eos, n=n, logprobs=logprobs, top_logprobs=top_logprobs,
        logit_bias=_logit_bias(body.logit_bias, limits.vocab_size),
        presence_penalty=presence_penalty, frequency_penalty=frequency_penalty,
    )


def _max_tokens(body: _Common, prompt_len: int, limits: Limits, prompt_param: str) -> int:
    """The completion budget: what the body asks for (checked against the context and the KV pool) or
    what is left of the sequence after the prompt."""
    if prompt_len >= limits.max_model_len:
        raise RequestError(
            f"the prompt has {prompt_len} tokens but this model's maximum context length is "
            f"{limits.max_model_len} tokens; shorten the prompt", param=prompt_param, code="context_length_exceeded")
    kv = limits.kv_capacity_tokens
    if kv is not None and prompt_len >= kv:
        raise RequestError(
            f"the prompt has {prompt_len} tokens but the KV cache pool holds only {kv} tokens "
            f"(--kv-cache-memory); shorten the prompt", param=prompt_param, code="context_length_exceeded")
    room = limits.max_sequence_len - prompt_len
    requested = body.max_completion_tokens if body.max_completion_tokens is not None else body.max_tokens
    if requested is None:
        return room
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
    return requested


def _seed(seed: int | None) -> int | None:
    if seed is not None and not SEED_MIN <= seed <= SEED_MAX:
        raise RequestError(f"seed must be a signed 64-bit integer (between {SEED_MIN} and {SEED_MAX})", param="seed")
    return seed


def _stops(stop: str | list[str] | None) -> tuple[str, ...]:
    stops = [stop] if isinstance(stop, str) else list(stop or [])
    if len(stops) > 16:
        raise RequestError("at most 16 stop strings are allowed", param="stop")
    if any(s == "" for s in stops):
        raise RequestError("stop strings must not be empty", param="stop")
    return tuple(stops)


def _stop_token_ids(ids: list[int] | None, vocab_size: int | None) -> tuple[int, ...]:
    for token in ids or ():
        if not _in_vocab(token, vocab_size):
            raise RequestError(f"stop_token_ids must be within the vocabulary ({_vocab_range(vocab_size)}), "
                               f"got {token}", param="stop_token_ids")
    return tuple(ids or ())


def _penalties(body: _Common) -> tuple[float, float]:
    """``(presence_penalty, frequency_penalty)``, each in OpenAI's range [-2, 2] (null: 0)."""
    values = []
    for name in ("presence_penalty", "frequency_penalty"):
        value = getattr(body, name)
        if value is None:
            value = 0.0
        if not -2.0 <= value <= 2.0:  # NaN fails too
            raise RequestError(f"{name} must be between -2 and 2, got {value}", param=name)
        values.append(float(value))
    return values[0], values[1]


def _logit_bias(bias: dict[str, float] | None, vocab_size: int | None) -> tuple[tuple[int, float], ...]:
    """OpenAI's ``logit_bias``: token ids (as strings) within the vocabulary → values in [-100, 100]."""
    by_id: dict[int, float] = {}
    for key, value in (bias or {}).items():
        token = int(key) if key.isascii() and key.isdigit() else -1
        if not _in_vocab(token, vocab_size):
            raise RequestError(f"logit_bias keys must be token ids within the vocabulary "
                               f"({_vocab_range(vocab_size)}), got {key!r}", param="logit_bias")
        if not -100.0 <= value <= 100.0:
            raise RequestError(f"logit_bias values must be between -100 and 100, got {value} for {key!r}",
                               param="logit_bias")
        by_id[token] = float(value)
    return tuple(sorted(by_id.items()))

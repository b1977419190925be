"""Checking an embeddings request body (OpenAI's ``/v1/embeddings`` schema) into a typed value."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from proxy.wire.errors import InvalidRequest

ENCODING_FORMATS = ("float", "base64")
#: OpenAI's own limit on inputs per request; ``[embeddings] max_inputs`` may lower or raise it.
DEFAULT_MAX_INPUTS = 2048


@dataclass(frozen=True, slots=True)
class EmbeddingRequest:
    """A checked embeddings request: exactly one of ``texts`` and ``tokens`` is set."""

    model: str
    texts: list[str] | None  # string inputs, in order
    tokens: list[list[int]] | None  # token-id arrays, in order
    encoding_format: str = "float"
    dimensions: int | None = None

    @property
    def count(self) -> int:
        return len(self.texts if self.texts is not None else self.tokens or [])


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_embedding_request(data: dict[str, Any], max_inputs: int = DEFAULT_MAX_INPUTS) -> EmbeddingRequest:
    """The checked request, or an :class:`InvalidRequest` (400) naming the field and what to send.

    ``input`` may be a string, a list of strings, one array of token ids, or a list of such arrays;
    no string may be empty, no array empty, and at most ``max_inputs`` inputs are accepted.
    """
    model = data.get("model")
    if not isinstance(model, str) or not model.strip():
        raise InvalidRequest("'model' must be a non-empty string", param="model")
    if "input" not in data:
        raise InvalidRequest("missing required field 'input'", param="input")
    texts, tokens = _inputs(data["input"])
    count = len(texts if texts is not None else tokens or [])
    if count > max_inputs:
        raise InvalidRequest(f"'input' has {count} items; at most {max_inputs} are accepted per request "
                             "([embeddings] max_inputs): split it into several requests or use the Batch API",
                             param="input", code="too_many_inputs")
    encoding = data.get("encoding_format", "float")
    if encoding is None:
        encoding = "float"
    if encoding not in ENCODING_FORMATS:
        raise InvalidRequest(f"'encoding_format' must be one of {list(ENCODING_FORMATS)}, got {encoding!r}",
                             param="encoding_format")
    dimensions = data.get("dimensions")
    if dimensions is not None and (not _is_int(dimensions) or dimensions < 1):
        raise InvalidRequest(f"'dimensions' must be a positive integer, got {dimensions!r}", param="dimensions")
    user = data.get("user")
    if user is not None and not isinstance(user, str):
        raise InvalidRequest("'user' must be a string", param="user")
    return EmbeddingRequest(model, texts, tokens, encoding, dimensions)


def _inputs(value: Any) -> tuple[list[str] | None, list[list[int]] | None]:
    """``(texts, None)`` or ``(None, token arrays)`` of an ``input`` value."""
    shape = "'input' must be a non-empty string, a list of non-empty strings, an array of token ids or a list " \
            "of token-id arrays"
    if isinstance(value, str):
        if not value:
            raise InvalidRequest("'input' is an empty string; " + shape[len("'input' must be "):], param="input",
                                 code="empty_input")
        return [value], None
    if not isinstance(value, list):
        raise InvalidRequest(f"{shape}; got {type(value).__name__}", param="input")
    if not value:
        raise InvalidRequest("'input' is an empty list; send at least one text", param="input", code="empty_input")
    if all(_is_int(item) for item in value):
        return None, [_token_array(value, "input")]
    if all(isinstance(item, list) for item in value):
        return None, [_token_array(item, f"input[{i}]") for i, item in enumerate(value)]
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise InvalidRequest(f"'input[{i}]' is {_kind(item)}; {shape} (not a mixture)", param=f"input[{i}]")
        if not item:
            raise InvalidRequest(f"'input[{i}]' is an empty string; every input must hold text", param=f"input[{i}]",
                                 code="empty_input")
    return list(value), None


def _token_array(items: list[Any], where: str) -> list[int]:
    if not items:
        raise InvalidRequest(f"'{where}' is an empty token array", param=where, code="empty_input")
    for j, token in enumerate(items):
        if not _is_int(token) or token < 0:
            raise InvalidRequest(f"'{where}[{j}]' must be a non-negative token id, got {token!r}", param=where)
    return items


def _kind(item: Any) -> str:
    if item is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", dict: "an object", list: "a list"}.get(
        type(item), type(item).__name__)


def validate_embeddings(data: dict[str, Any]) -> EmbeddingRequest:
    """A body check with the default input limit (batch lines; the endpoint uses the configured one)."""
    return parse_embedding_request(data)

"""proxy.wire.errors.error_message: the one reader of an error body's message (OpenAI, vLLM, FastAPI,
plain text), used by the pipeline, the batch CLI and the benchmarks."""

from __future__ import annotations

import pytest

from proxy.wire.errors import error_message, openai_error_body


@pytest.mark.parametrize(("payload", "expected"), [
    ({"error": {"message": "max_tokens is too large", "type": "invalid_request_error"}}, "max_tokens is too large"),
    ({"error": "quota exceeded"}, "quota exceeded"),
    ({"object": "error", "message": "The model `x` does not exist.", "type": "NotFoundError", "code": 404},
     "The model `x` does not exist."),  # vLLM
    ({"detail": "Not authenticated"}, "Not authenticated"),  # FastAPI
    ({"detail": [{"loc": ["body", "messages"], "msg": "field required", "type": "missing"}]},
     "body.messages: field required"),  # FastAPI validation errors
    ("upstream timed out\n", "upstream timed out"),  # not JSON
])
def test_every_shape_gives_its_message(payload: object, expected: str) -> None:
    assert error_message(payload) == expected
    assert error_message(payload, 503) == expected


def test_a_body_without_a_message_names_the_status_when_known() -> None:
    assert error_message({"unrelated": 1}, 502) == "the upstream answered with status 502"
    assert error_message({}, None) == "unknown error"
    assert error_message({"error": {"message": ""}}, 500) == "the upstream answered with status 500"


def test_the_openai_error_body_carries_the_same_message() -> None:
    vllm = {"object": "error", "message": "out of memory", "type": "InternalServerError", "code": 500}
    assert openai_error_body(vllm, 500)["error"]["message"] == error_message(vllm, 500) == "out of memory"
    assert openai_error_body("not json", 502)["error"]["message"] == "the upstream answered with status 502"

"""The errors of the shared model-input code, raised alike in the backend and the proxy."""

from __future__ import annotations


class WeightsError(ValueError):
    """The model path is missing, unreadable or not a Llama-architecture model."""


class RequestError(ValueError):
    """A request the backend refuses (also: tools or a response format that cannot be rendered into
    the prompt); carries the OpenAI error fields."""

    def __init__(self, message: str, param: str | None = None, code: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.param, self.code, self.status = message, param, code, status

"""Caller identity and request ids (key management comes later: any bearer token is accepted)."""

from __future__ import annotations

import asyncio
import hashlib
import re
import uuid

from proxy.logs import REQUEST_ID
from proxy.wire.errors import RequestTimeout

ANONYMOUS = "anonymous"
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


def key_id_from_authorization(header: str | None) -> str:
    """Hash of the bearer token, used as the caller's identity; ``anonymous`` without one."""
    if not header:
        return ANONYMOUS
    token = header[7:].strip() if header.lower().startswith("bearer ") else header.strip()
    if not token:
        return ANONYMOUS
    return key_id_from_sha256(hashlib.sha256(token.encode()).hexdigest())


def key_id_from_sha256(hexdigest: str) -> str:
    """The caller identity of the key whose SHA-256 (hex) is ``hexdigest`` (per-key settings)."""
    return "key-" + hexdigest.lower()[:24]


def request_id_from_header(header: str | None) -> str:
    """Reuse a caller's well-formed ``x-request-id``; otherwise make a new one."""
    return client_request_id(header) or new_request_id()


def client_request_id(header: str | None) -> str | None:
    """A caller's ``x-request-id`` when it is well-formed (at most 64 of ``A-Za-z0-9._:-``), else ``None``."""
    return header if header and _REQUEST_ID.match(header) else None


def new_request_id() -> str:
    """The proxy's own id of one request: unique, the request log's row id."""
    return "req-" + uuid.uuid4().hex


def request_id_middleware(app):
    """ASGI middleware: every request gets the proxy's own unique id (scope state ``request_id``) and
    keeps the caller's well-formed ``x-request-id`` beside it (``client_request_id``: callers may repeat
    theirs). The response's ``x-request-id`` echoes the caller's id, or carries ours when it sent none."""

    async def middleware(scope, receive, send):
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        incoming = None
        for name, value in scope.get("headers", []):
            if name == b"x-request-id":
                incoming = value.decode("latin-1")
        own = new_request_id()
        theirs = client_request_id(incoming)
        state = scope.setdefault("state", {})
        state["request_id"] = own
        state["client_request_id"] = theirs
        shown = theirs or own
        REQUEST_ID.set(shown)  # every log line written while handling it carries the id the caller sees

        async def send_with_id(message):
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"x-request-id"]
                headers.append((b"x-request-id", shown.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await app(scope, receive, send_with_id)

    return middleware


def body_timeout_middleware(timeout_s: float, deadline_s: float | None = None):
    """ASGI middleware factory: a request body whose next chunk takes longer than ``timeout_s`` to
    arrive, or that is not complete ``deadline_s`` after the request arrived, is refused with a 408 (a
    client trickling its body cannot hold a connection). Once the body is complete, waiting on
    ``receive`` (disconnect detection while streaming) is not bounded."""

    def middleware(app):
        async def bounded(scope, receive, send):
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            body_done = False
            loop = asyncio.get_running_loop()
            until = None if deadline_s is None else loop.time() + deadline_s

            async def receive_in_time():
                nonlocal body_done
                if body_done:
                    return await receive()
                wait = timeout_s if until is None else max(0.0, min(timeout_s, until - loop.time()))
                try:
                    message = await asyncio.wait_for(receive(), wait)
                except TimeoutError:
                    body_done = True
                    if until is not None and loop.time() >= until - 1e-3 and wait < timeout_s:
                        raise RequestTimeout(f"the request body was not complete within {deadline_s:g} s "
                                             "([proxy] request_deadline_s)", code="request_timeout") from None
                    raise RequestTimeout(f"the request body did not arrive within {timeout_s:g} s of its last "
                                         "chunk ([proxy] body_timeout_s)", code="request_timeout") from None
                if message["type"] != "http.request" or not message.get("more_body"):
                    body_done = True
                return message

            await app(scope, receive_in_time, send)

        return bounded

    return middleware

"""A deadline for request headers: a client that trickles its request line and headers (slowloris) is
answered 408 and disconnected instead of holding a connection for as long as it likes.

uvicorn bounds idle keep-alive connections (``timeout_keep_alive``) but not a request whose headers
arrive slowly; the request body is bounded by the app (``[proxy] body_timeout_s``). This module
subclasses uvicorn's httptools protocol so that the headers of every request must be complete within
``header_timeout_s`` of the connection opening or of the request's first byte.
"""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger(__name__)
_TIMEOUT_BODY = (b'{"error": {"message": "the request headers took too long to arrive", '
                 b'"type": "invalid_request_error", "param": null, "code": "request_timeout"}}')
TIMEOUT_RESPONSE = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
                    b"content-length: %d\r\n\r\n%s" % (len(_TIMEOUT_BODY), _TIMEOUT_BODY))


def header_deadline_protocol(header_timeout_s: float) -> type[asyncio.Protocol] | None:
    """A uvicorn HTTP protocol class (pass as ``uvicorn.run(..., http=…)``) that enforces the header
    deadline; None where httptools is not installed (uvicorn's h11 protocol is then used as it is)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # httptools missing: no deadline (said once at start-up)
        log.warning("httptools is not installed: slow request headers are not timed out")
        return None

    class HeaderDeadlineProtocol(HttpToolsProtocol):
        """uvicorn's httptools protocol with a deadline for each request's headers."""

        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout_s, self._headers_too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_too_slow(self) -> None:
            self._header_timer = None
            if self.transport is not None and not self.transport.is_closing():
                self.transport.write(TIMEOUT_RESPONSE)
                self.transport.close()

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()  # a connection that sends nothing at all is closed too

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()  # the next request's headers on a kept-alive connection

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeaderDeadlineProtocol

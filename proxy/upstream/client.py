"""Forwarding to OpenAI-compatible upstreams through one pooled ``aiohttp.ClientSession``.

Connection failures become 503, timeouts 504 and malformed answers 502, so a down or hung
upstream never hangs the caller. The forwarding path (chat and completions, streamed or not, the
model list) runs on aiohttp: its C HTTP parser costs about a sixth of httpx's CPU per request on
loopback, which is most of the proxy's own overhead. The rare Files and Batches calls of batch
pass-through (:meth:`UpstreamClient.raw`) keep an ``httpx.AsyncClient`` for its multipart support.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import time
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import httpx
import msgspec

from proxy.config.sections import ProxyConfig, UpstreamConfig
from proxy.upstream.resilience import RETRY_STATUSES, Breakers, RetryPolicy
from proxy.wire.errors import UpstreamError

log = logging.getLogger(__name__)


@dataclass(slots=True)
class UpstreamReply:
    """A complete (non-streaming) upstream answer."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass(slots=True)
class SSEEvent:
    """One server-sent event as raw bytes plus its decoded JSON payload (None for [DONE] or non-JSON)."""

    raw: bytes
    data: dict[str, Any] | None = None
    done: bool = False


@dataclass(slots=True)
class SSEDecoder:
    """Splits a byte stream into complete SSE events without waiting for more than one event."""

    _buffer: bytes = b""
    events: list[SSEEvent] = field(default_factory=list)

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        self._buffer = (self._buffer + chunk).replace(b"\r\n", b"\n")
        out: list[SSEEvent] = []
        while b"\n\n" in self._buffer:
            raw, self._buffer = self._buffer.split(b"\n\n", 1)
            out.append(_parse_event(raw + b"\n\n"))
        return out

    def flush(self) -> list[SSEEvent]:
        rest, self._buffer = self._buffer, b""
        return [_parse_event(rest + b"\n\n")] if rest.strip() else []


def _parse_event(raw: bytes) -> SSEEvent:
    payload = b"".join(line[5:].lstrip() for line in raw.split(b"\n") if line.startswith(b"data:"))
    if payload.strip() == b"[DONE]":
        return SSEEvent(raw, None, done=True)
    try:
        data = msgspec.json.decode(payload) if payload else None
    except msgspec.DecodeError:
        data = None
    return SSEEvent(raw, data if isinstance(data, dict) else None)


# Idle pooled connections are dropped after this long, shorter than the 5 s keep-alive of
# uvicorn-served upstreams, so a request is not sent on a connection the server is closing.
KEEPALIVE_S = 4.0

# Transport failures an upstream may recover from: refused or reset connections, a connection
# closed before the answer. They are 503s, and retried. (An answer cut mid-body, aiohttp's
# ClientPayloadError, is a 502 bad_upstream_response: the upstream may have done the work.)
_UNAVAILABLE = (aiohttp.ClientConnectionError,)
# Everything an aiohttp exchange raises for a transport failure (mapped by UpstreamClient._failure).
_TRANSPORT_ERRORS = (aiohttp.ClientError, TimeoutError)


@dataclass(slots=True, eq=False, weakref_slot=True)
class UpstreamStream:
    """An upstream stream whose status and headers have arrived; its body is read through
    :meth:`UpstreamClient.iter_events`, which also releases it."""

    status_code: int
    headers: dict[str, str]
    response: aiohttp.ClientResponse


def _lower_headers(response: aiohttp.ClientResponse) -> dict[str, str]:
    return {name.lower(): value for name, value in response.headers.items()}


@dataclass(frozen=True, slots=True)
class UpstreamTarget:
    """Where an upstream's requests go: ``prefix + path + suffix`` (``suffix``: the base URL's
    query, ``?api-version=...``), and the ``authorization`` header value, if any."""

    prefix: str
    suffix: str = ""
    authorization: str | None = None

    def url(self, path: str) -> str:
        return self.prefix + path + self.suffix


def upstream_target(config: UpstreamConfig) -> UpstreamTarget:
    """The target of ``config``: ``user:password@`` in ``base_url`` never stays in the URL (aiohttp
    refuses a URL with credentials next to an ``Authorization`` header, and a URL leaks into logs);
    it becomes HTTP basic auth when no ``api_key`` is set, and is ignored, with a warning, when one
    is (the key is sent as ``Bearer``)."""
    parts = urllib.parse.urlsplit(config.base_url)
    prefix = urllib.parse.urlunsplit((parts.scheme, parts.netloc.rpartition("@")[2], parts.path.rstrip("/"), "", ""))
    suffix = "?" + parts.query if parts.query else ""
    if config.api_key:
        if parts.username is not None:
            log.warning("upstream %r: base_url carries user:password and an api key is set; the api key is sent "
                        "and the URL's credentials are ignored", config.name)
        return UpstreamTarget(prefix, suffix, f"Bearer {config.api_key}")
    if parts.username is None:
        return UpstreamTarget(prefix, suffix)
    user = urllib.parse.unquote(parts.username)
    password = urllib.parse.unquote(parts.password or "")
    token = base64.b64encode(f"{user}:{password}".encode()).decode("ascii")
    return UpstreamTarget(prefix, suffix, f"Basic {token}")


#: Upstream headers an error answer passes on to the client (when to retry, what the limits are).
PASSED_ERROR_HEADERS = ("retry-after", "retry-after-ms")
PASSED_ERROR_HEADER_PREFIXES = ("x-ratelimit-",)


def passed_error_headers(headers: dict[str, str]) -> dict[str, str]:
    """The headers of an upstream's error answer (lower-cased names) that the client gets too:
    ``retry-after``, ``retry-after-ms`` and ``x-ratelimit-*``."""
    return {name: value for name, value in headers.items()
            if name in PASSED_ERROR_HEADERS or name.startswith(PASSED_ERROR_HEADER_PREFIXES)}


class UpstreamClient:
    """Sends OpenAI requests to named upstreams over a shared connection pool."""

    def __init__(self, config: ProxyConfig, upstreams: tuple[UpstreamConfig, ...], metrics: Any = None) -> None:
        self._upstreams = {u.name: u for u in upstreams}
        self._targets = {u.name: upstream_target(u) for u in upstreams}
        self._config = config
        self._retry = RetryPolicy(config.max_retries, config.retry_backoff_s, config.max_retry_wait_s)
        self.deadline_s = config.request_timeout_s  # a whole non-streamed exchange, retries included
        self.breakers = Breakers(config.circuit_failures, config.circuit_open_s)
        self._metrics = metrics  # proxy.http.metrics.ProxyMetrics: each call's latency and failures
        self._session: aiohttp.ClientSession | None = None  # made in the running loop, on first use
        self._session_loop: asyncio.AbstractEventLoop | None = None
        self._files_client: httpx.AsyncClient | None = None  # batch pass-through's Files/Batches calls

    def _pool(self) -> aiohttp.ClientSession:
        """The connection pool of the running event loop (a new one if the loop changed)."""
        loop = asyncio.get_running_loop()
        if self._session is None or self._session_loop is not loop or self._session.closed:
            config = self._config
            connector = aiohttp.TCPConnector(limit=config.max_connections, keepalive_timeout=KEEPALIVE_S)
            # sock_read bounds each wait for upstream bytes: the first byte, and every gap in a stream
            timeout = aiohttp.ClientTimeout(total=None, sock_connect=config.connect_timeout_s,
                                            connect=config.connect_timeout_s, sock_read=config.request_timeout_s)
            # HTTP(S)_PROXY from the environment is honoured as httpx did, but only looked up per request
            # (a thread hop and a .netrc read in aiohttp) when a proxy is configured at all
            self._session = aiohttp.ClientSession(connector=connector, timeout=timeout,
                                                  trust_env=bool(urllib.request.getproxies()))
            self._session_loop = loop
        return self._session

    def _url(self, upstream: str, path: str, request_id: str | None = None,
             priority: str | None = None) -> tuple[str, dict[str, str]]:
        """The upstream's URL for ``path`` and the request headers: JSON, its API key, the request id
        and the priority (``x-thrifty-priority``) when given."""
        target = self._targets[upstream]
        headers = {"content-type": "application/json"}
        if request_id:
            headers["x-request-id"] = request_id
        if priority:
            headers["x-thrifty-priority"] = priority
        if target.authorization:
            headers["authorization"] = target.authorization
        return target.url(path), headers

    def _failure(self, upstream: str, exc: Exception) -> UpstreamError:
        """The client-facing error of a transport failure: it names the upstream by its configured
        name only (the exception's text, with host and port, goes to the proxy log)."""
        log.info("upstream %r: %r", upstream, exc)
        if isinstance(exc, httpx.TimeoutException | TimeoutError):
            error = UpstreamError(f"upstream {upstream!r} timed out", code="upstream_timeout", status=504)
        elif isinstance(exc, aiohttp.ClientPayloadError):  # the answer arrived cut short or undecodable
            error = UpstreamError(f"upstream {upstream!r} sent a truncated or unreadable answer",
                                  code="bad_upstream_response", status=502)
        elif isinstance(exc, (httpx.ConnectError, httpx.RemoteProtocolError, *_UNAVAILABLE)):
            error = UpstreamError(f"upstream {upstream!r} is unavailable ({_transport_reason(exc)})",
                                  code="upstream_unavailable", status=503)
        else:
            error = UpstreamError(f"upstream {upstream!r} failed ({type(exc).__name__})", code="upstream_error",
                                  status=502)
        if self._metrics is not None:
            self._metrics.upstream_failed(upstream, (error.code or "error").removeprefix("upstream_"))
        return error

    def _stream_broken(self, upstream: str, exc: Exception) -> UpstreamError:
        """A stream the upstream stopped sending part-way: a 502 with a plain message (the transport
        exception's text, aiohttp internals, goes to the proxy log only)."""
        log.info("upstream %r stream broke mid-answer: %r", upstream, exc)
        if self._metrics is not None:
            self._metrics.upstream_failed(upstream, "stream_broken")
        return UpstreamError(f"upstream {upstream!r} stream ended early (the connection was cut mid-answer)",
                             code="upstream_stream_broken", status=502)

    def _answered(self, upstream: str, started: float, status: int) -> None:
        if self._metrics is not None:
            self._metrics.upstream_answered(upstream, time.perf_counter() - started, status)

    def _admit(self, upstream: str) -> None:
        breaker = self.breakers[upstream]
        if not breaker.allow():
            raise UpstreamError(f"upstream {upstream!r} is failing; its circuit is open for another "
                                f"{breaker.retry_in_s():.0f} s", code="upstream_circuit_open", status=503)

    async def _retrying(self, upstream: str, once):
        """Run ``once()`` (one HTTP exchange returning an :class:`UpstreamReply`, or a stream
        response) with retries on connect errors, 429 and 5xx, and the upstream's breaker."""
        self._admit(upstream)
        breaker = self.breakers[upstream]
        attempt = 0
        while True:
            try:
                result = await once()
            except asyncio.CancelledError:
                breaker.release()  # the caller went away: the call proved nothing either way
                raise
            except UpstreamReplyError as exc:  # a stream refused before its first byte
                status, retry_after, result = exc.reply.status, exc.reply.headers.get("retry-after"), exc
            except UpstreamError as exc:
                if exc.code != "upstream_unavailable" or (wait := self._retry.wait_s(attempt)) is None:
                    breaker.failure()
                    raise
                await asyncio.sleep(wait)
                attempt += 1
                continue
            else:
                status = result.status if isinstance(result, UpstreamReply) else result.status_code
                retry_after = result.headers.get("retry-after")
            if status in RETRY_STATUSES and (wait := self._retry.wait_s(attempt, retry_after)) is not None:
                await asyncio.sleep(wait)
                attempt += 1
                continue
            if status >= 500:
                breaker.failure()
            else:
                breaker.success()
            if isinstance(result, UpstreamReplyError):
                raise result
            return result

    async def post(self, upstream: str, path: str, body: dict[str, Any], request_id: str,
                   priority: str | None = None) -> UpstreamReply:
        """POST a JSON body and read the whole JSON answer (``priority``: ``x-thrifty-priority``),
        with retries and the circuit breaker, within ``request_timeout_s`` in all: a deadline, so an
        upstream that drips its answer a byte at a time cannot hold the caller longer."""
        try:
            async with asyncio.timeout(self.deadline_s):
                return await self._retrying(upstream,
                                            lambda: self._post_once(upstream, path, body, request_id, priority))
        except TimeoutError:
            self.breakers[upstream].failure()
            raise UpstreamError(f"upstream {upstream!r} did not answer within {self.deadline_s:g} s "
                                "([proxy] request_timeout_s)", code="upstream_timeout", status=504) from None

    async def _post_once(self, upstream: str, path: str, body: dict[str, Any], request_id: str,
                         priority: str | None) -> UpstreamReply:
        url, headers = self._url(upstream, path, request_id, priority)
        started = time.perf_counter()
        try:
            async with self._pool().post(url, data=msgspec.json.encode(body), headers=headers,
                                         allow_redirects=False) as response:
                content = await response.read()
        except _TRANSPORT_ERRORS as exc:
            raise self._failure(upstream, exc) from None
        self._answered(upstream, started, response.status)
        return UpstreamReply(response.status, _json_or_error(upstream, content, response.status),
                             _lower_headers(response))

    async def stream(self, upstream: str, path: str, body: dict[str, Any], request_id: str,
                     priority: str | None = None) -> UpstreamStream:
        """Open a streaming POST; the caller reads it through :meth:`iter_events`, which releases it.

        A non-2xx answer is read whole and raised as :class:`UpstreamReplyError`. Retries and the
        breaker apply until the response starts (nothing has reached the client yet).
        """
        return await self._retrying(upstream, lambda: self._stream_once(upstream, path, body, request_id, priority))

    async def _stream_once(self, upstream: str, path: str, body: dict[str, Any], request_id: str,
                           priority: str | None) -> UpstreamStream:
        url, headers = self._url(upstream, path, request_id, priority)
        started = time.perf_counter()
        try:
            response = await self._pool().post(url, data=msgspec.json.encode(body), headers=headers,
                                                allow_redirects=False)
        except _TRANSPORT_ERRORS as exc:
            raise self._failure(upstream, exc) from None
        self._answered(upstream, started, response.status)
        if response.status >= 400:
            try:
                content = await response.read()
            except _TRANSPORT_ERRORS as exc:
                raise self._failure(upstream, exc) from None
            finally:
                response.release()
            raise UpstreamReplyError(UpstreamReply(response.status, _json_or_error(upstream, content, response.status),
                                                   _lower_headers(response)))
        return UpstreamStream(response.status, _lower_headers(response), response)

    async def iter_events(self, upstream: str, stream: UpstreamStream) -> AsyncIterator[SSEEvent]:
        """Yield each complete SSE event as soon as its bytes arrive; maps transport errors.
        The connection goes back to the pool when the stream was read to its end, and is closed
        when the reader stops early."""
        decoder = SSEDecoder()
        response = stream.response
        read_whole = False
        try:
            async for chunk in response.content.iter_any():
                for event in decoder.feed(chunk):
                    yield event
            read_whole = True
            for event in decoder.flush():
                yield event
        # a gap longer than request_timeout_s is a 504; aiohttp's read timeout is also a ClientError,
        # hence this order; any other transport failure cut the answer short: 502
        except TimeoutError as exc:
            raise self._failure(upstream, exc) from None
        except aiohttp.ClientError as exc:
            raise self._stream_broken(upstream, exc) from None
        finally:
            if read_whole:
                response.release()  # back to the pool
            else:
                response.close()  # a half-read answer: the connection cannot be reused

    async def get(self, upstream: str, path: str) -> UpstreamReply:
        url, headers = self._url(upstream, path)
        try:
            async with self._pool().get(url, headers=headers, allow_redirects=False) as response:
                content = await response.read()
        except _TRANSPORT_ERRORS as exc:
            raise self._failure(upstream, exc) from None
        return UpstreamReply(response.status, _json_or_error(upstream, content, response.status),
                             _lower_headers(response))

    async def raw(self, upstream: str, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """Any other call to an upstream's API (the Files and Batches API for batch pass-through):
        the whole response, transport failures mapped like :meth:`post`'s. ``kwargs`` are httpx's
        (``json``, ``data``, ``files``)."""
        url, headers = self._url(upstream, path)
        headers.pop("content-type")  # httpx sets it from the content (multipart, JSON)
        if self._files_client is None:
            config = self._config
            self._files_client = httpx.AsyncClient(
                timeout=httpx.Timeout(config.request_timeout_s, connect=config.connect_timeout_s))
        try:
            return await self._files_client.request(method, url, headers=headers, **kwargs)
        except httpx.HTTPError as exc:
            raise self._failure(upstream, exc) from None

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._files_client is not None:
            await self._files_client.aclose()
            self._files_client = None


class UpstreamReplyError(Exception):
    """An upstream answered a stream request with an error status before streaming."""

    def __init__(self, reply: UpstreamReply) -> None:
        super().__init__(f"upstream status {reply.status}")
        self.reply = reply


def _transport_reason(exc: Exception) -> str:
    """A few words on a connection failure, without addresses."""
    if isinstance(exc, aiohttp.ClientConnectorError | httpx.ConnectError):
        return "could not connect"
    if isinstance(exc, aiohttp.ServerDisconnectedError | httpx.RemoteProtocolError):
        return "it closed the connection"
    return "the connection failed"


def _json_or_error(upstream: str, content: bytes, status: int) -> dict[str, Any]:
    """The JSON object of an upstream answer. An error status (>= 400) with any other body (an HTML
    page of a load balancer, plain text) gets an error object of ours, so the status decides what
    happens (retries, the status the client gets); a 2xx answer that is not a JSON object is a 502."""
    try:
        data = msgspec.json.decode(content)
    except msgspec.DecodeError:
        data = None
    if isinstance(data, dict):
        return data
    if status >= 400:
        return {"error": {"message": f"upstream {upstream!r} answered status {status}", "type": None,
                          "param": None, "code": None}}
    if data is None:
        raise UpstreamError(f"upstream {upstream!r} answered status {status} with a body that is not JSON",
                            code="bad_upstream_response")
    raise UpstreamError(f"upstream {upstream!r} answered with a JSON {type(data).__name__}, not an object",
                        code="bad_upstream_response")

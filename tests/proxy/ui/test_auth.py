"""Session and CSRF tokens with arbitrary (non-ASCII) input: refused like any forged token, never
a 500 (``hmac.compare_digest`` raises TypeError on non-ASCII ``str``)."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import httpx
import pytest

from proxy.ui.auth import SessionSigner
from tests.proxy.ui.test_routes import _csrf, login

ODD = ["é", "déf", "日本", "\udce9", "²", "\x00"]


@pytest.fixture
def signer() -> SessionSigner:
    return SessionSigner("admin-key", 3600)


@pytest.mark.parametrize("mac", ODD)
def test_verify_refuses_a_non_ascii_mac(signer, mac):
    assert signer.verify(f"9999999999.abc.{mac}") is None


@pytest.mark.parametrize("expires", ["²²²²²²²²²²", "٩٩٩٩٩٩٩٩٩٩", "9999999999é"])
def test_verify_refuses_an_expiry_that_is_not_ascii_digits(signer, expires):
    # a MAC that matches the odd expiry: only the digit check stands between it and int()
    nonce = "abc"
    token = f"{expires}.{nonce}.{signer._mac('session', expires, nonce)}"
    assert signer.verify(token) is None


@pytest.mark.parametrize("token", ODD)
def test_csrf_checks_refuse_non_ascii_tokens(signer, token):
    session = signer.issue()
    assert SessionSigner.check_csrf(session, token) is False
    assert signer.check_login_csrf("nonce", token) is False
    assert signer.check_login_csrf(token, signer.login_csrf("nonce")) is False
    assert signer.check_key(token) is False


def test_genuine_tokens_still_pass(signer):
    session = signer.issue()
    assert signer.verify(session.token) == session
    assert SessionSigner.check_csrf(session, session.csrf)
    assert signer.check_login_csrf("nonce-é", signer.login_csrf("nonce-é"))
    assert signer.check_key("admin-key") and not signer.check_key("admin-kez")


def _raw_get(url: str, path: str, cookie: bytes) -> bytes:
    """A GET whose Cookie header carries raw (latin-1) bytes, as no HTTP client library sends them."""
    parts = urlsplit(url)
    request = (f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n".encode()
               + b"Cookie: " + cookie + b"\r\n\r\n")
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return data


@pytest.mark.parametrize("path", ["/ui/overview", "/ui", "/ui/login"])
def test_a_non_ascii_session_cookie_is_no_session(ui_proxy, path):
    reply = _raw_get(ui_proxy.url, path, "thrifty_ui_session=9999999999.abc.déf".encode("latin-1"))
    status_line = reply.split(b"\r\n", 1)[0]
    if path == "/ui/login":
        assert status_line.endswith(b" 200 OK"), reply[:300]
    else:
        assert b" 303 " in status_line and b"\r\nlocation: /ui/login\r\n" in reply.lower(), reply[:300]


def test_non_ascii_csrf_fields_get_403_not_500(ui_proxy):
    with httpx.Client(base_url=ui_proxy.url) as client:
        client.get("/ui/login")
        refused_login = client.post("/ui/login", data={"api_key": "x", "csrf": "é"})
        assert refused_login.status_code == 403 and "thrifty_ui_session" not in client.cookies
        login(client)
        for path, data in [("/ui/cache/invalidate", {"target": "all", "csrf": "é"}),
                           ("/ui/logout", {"csrf": "日本"})]:
            response = client.post(path, data=data)
            assert response.status_code == 403 and "CSRF" in response.text, path
        assert client.get("/ui/overview").status_code == 200  # still logged in
        assert client.post("/ui/logout", data={"csrf": _csrf(client.get("/ui/overview").text)}).status_code == 303

"""Sessions and CSRF tokens of the web UI: stateless signed tokens, no server-side store.

A session token is ``<expiry>.<nonce>.<mac>`` where ``mac`` is HMAC-SHA256 over ``expiry.nonce``
under a secret derived from the admin key (so every replica of the proxy accepts it, and changing
the admin key ends every session). The CSRF token of a session is another HMAC over the session
token; forms carry it in a hidden field and every state-changing POST checks it. Before login,
the login form's CSRF token is bound the same way to a short-lived pre-session cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field

SESSION_COOKIE = "thrifty_ui_session"
LOGIN_COOKIE = "thrifty_ui_login"
LOGIN_COOKIE_LIFETIME_S = 1800


def _same(given: str, expected: str) -> bool:
    """Constant-time comparison of a client's token with the expected one; any text is allowed
    (``hmac.compare_digest`` refuses non-ASCII ``str``, so both are compared as UTF-8 bytes)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8"))


@dataclass(frozen=True, slots=True)
class Session:
    """A valid session: its token, expiry (epoch seconds) and the CSRF token its forms carry."""

    token: str
    expires_at: float
    csrf: str


@dataclass(slots=True)
class SessionSigner:
    """Issues and checks session, login and CSRF tokens for one admin key.

    ``revoked``: nonces of sessions ended by logout in this process, kept until they expire.
    """

    admin_key: str
    lifetime_s: float
    revoked: dict[str, float] = field(default_factory=dict)
    _secret: bytes = b""

    def __post_init__(self) -> None:
        self._secret = hmac.new(self.admin_key.encode(), b"thrifty-ui-session-v1", hashlib.sha256).digest()

    def _mac(self, *parts: str) -> str:
        return hmac.new(self._secret, "|".join(parts).encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def check_key(self, candidate: str) -> bool:
        """Whether ``candidate`` is the admin key (constant time)."""
        return bool(self.admin_key) and _same(candidate, self.admin_key)

    def issue(self, now: float | None = None) -> Session:
        """A new session valid for ``lifetime_s``."""
        expires = int((time.time() if now is None else now) + self.lifetime_s)
        nonce = secrets.token_urlsafe(16)
        token = f"{expires}.{nonce}.{self._mac('session', str(expires), nonce)}"
        return Session(token, float(expires), self._mac("csrf", token))

    def verify(self, token: str | None, now: float | None = None) -> Session | None:
        """The session of a cookie value, or ``None`` when it is missing, forged, expired or revoked."""
        if not token or token.count(".") != 2:
            return None
        expires, nonce, mac = token.split(".")
        if not (expires.isascii() and expires.isdigit()) or not _same(mac, self._mac("session", expires, nonce)):
            return None
        now = time.time() if now is None else now
        if int(expires) <= now or nonce in self.revoked:
            return None
        return Session(token, float(expires), self._mac("csrf", token))

    def revoke(self, session: Session, now: float | None = None) -> None:
        """End a session (logout); forgets revocations that have expired anyway."""
        now = time.time() if now is None else now
        for nonce, expires in list(self.revoked.items()):
            if expires <= now:
                del self.revoked[nonce]
        self.revoked[session.token.split(".")[1]] = session.expires_at

    def login_nonce(self) -> str:
        """A random value for the pre-session cookie of the login form."""
        return secrets.token_urlsafe(16)

    def login_csrf(self, nonce: str) -> str:
        """The login form's CSRF token bound to its pre-session cookie."""
        return self._mac("login", nonce)

    def check_login_csrf(self, nonce: str | None, token: str | None) -> bool:
        return bool(nonce) and bool(token) and _same(str(token), self.login_csrf(str(nonce)))

    @staticmethod
    def check_csrf(session: Session, token: str | None) -> bool:
        return bool(token) and _same(str(token), session.csrf)

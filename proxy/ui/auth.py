"""Sessions and CSRF tokens of the web UI: signed tokens, each also a row in the database.

A session token is ``<expiry>.<nonce>.<mac>`` where ``mac`` is HMAC-SHA256 over ``expiry.nonce``
under a secret derived from the admin key (so every replica of the proxy can check it, and changing
the admin key ends every session). Its nonce is a row of ``ui_session`` (:class:`SessionStore`):
logout marks it revoked, so a logged-out cookie is refused after a restart and by every replica. The CSRF token of a session is another HMAC over the session
token; forms carry it in a hidden field and every state-changing POST checks it. Before login,
the login form's CSRF token is bound the same way to a short-lived pre-session cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.storage.db import UiSession

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

    @property
    def nonce(self) -> str:
        """The random part of the token: the session's row in ``ui_session``."""
        return self.token.split(".")[1]


class SessionStore:
    """The database's record of UI sessions: issued ones, and which of them logout ended."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def add(self, session: Session) -> None:
        """Record a session just issued (and forget sessions that have expired)."""
        now = datetime.now(UTC)
        async with self._engine.begin() as conn:
            await conn.execute(delete(UiSession).where(UiSession.expires_at < now))
            await conn.execute(insert(UiSession).values(
                nonce=session.nonce, created_at=now, expires_at=datetime.fromtimestamp(session.expires_at, UTC)))

    async def live(self, session: Session) -> bool:
        """Whether the session was issued here (any replica) and not ended by logout."""
        query = select(UiSession.nonce).where(UiSession.nonce == session.nonce, UiSession.revoked_at.is_(None))
        async with self._engine.connect() as conn:
            return (await conn.execute(query)).first() is not None

    async def revoke(self, session: Session) -> None:
        """End a session (logout), for every replica and after restarts."""
        async with self._engine.begin() as conn:
            await conn.execute(update(UiSession).where(UiSession.nonce == session.nonce)
                               .values(revoked_at=datetime.now(UTC)))


@dataclass(slots=True)
class SessionSigner:
    """Issues and checks session, login and CSRF tokens for one admin key (whether a session was
    ended by logout is :class:`SessionStore`'s to say)."""

    admin_key: str
    lifetime_s: float
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
        """The session of a cookie value, or ``None`` when it is missing, forged or expired."""
        if not token or token.count(".") != 2:
            return None
        expires, nonce, mac = token.split(".")
        if not (expires.isascii() and expires.isdigit()) or not _same(mac, self._mac("session", expires, nonce)):
            return None
        now = time.time() if now is None else now
        if int(expires) <= now:
            return None
        return Session(token, float(expires), self._mac("csrf", token))

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

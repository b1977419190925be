"""Masking of credentials in what the proxy shows (admin UI, CLI messages): URLs (``user:password@``,
secret query parameters) wherever they appear, in plain values, inside longer text and inside lists,
tuples and dicts."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote_plus, urlsplit, urlunsplit

MASK = "••••••"
# a query (or fragment) parameter whose name contains one of these holds a secret: api-key, apiKey,
# access_token, client_secret, password, sig (Azure SAS), signature, code (OAuth), auth, Authorization...
_SECRET_PARAM = re.compile(r"key|token|secret|passw|pwd|sig|code|auth|credential|session|jwt", re.IGNORECASE)
# a URL inside free text: a scheme, then everything up to whitespace, a quote, an angle bracket or
# a parenthesis (square brackets stay: an IPv6 host is written in them)
_URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s'\"<>(){}]+")


def secret_param(name: str) -> bool:
    """Whether a query parameter of this (possibly percent-encoded) name holds a secret."""
    return bool(_SECRET_PARAM.search(unquote_plus(name)))


def _mask_params(params: str) -> str:
    """``a=1&api-key=x`` with the values of secret-looking names masked; the rest kept as written."""
    pieces = []
    for piece in re.split(r"([&;])", params):
        name, eq, value = piece.partition("=")
        pieces.append(f"{name}={MASK}" if eq and value and secret_param(name) else piece)
    return "".join(pieces)


def _mask_netloc(netloc: str) -> str:
    """``user:password@host:port`` with the password masked; the host is kept exactly as written."""
    userinfo, at, hostport = netloc.rpartition("@")
    if not at:
        return netloc
    user, colon, password = userinfo.partition(":")
    return f"{user}:{MASK}@{hostport}" if colon and password else netloc


def mask_url(url: str) -> str:
    """A URL with the password of its userinfo and the values of its secret-looking query and
    fragment parameters masked (an unparseable URL is masked whole)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK
    masked = parts._replace(netloc=_mask_netloc(parts.netloc), query=_mask_params(parts.query),
                            fragment=_mask_params(parts.fragment))
    return url if masked == parts else urlunsplit(masked)


def mask_text(text: str) -> str:
    """``text`` with every URL in it masked by :func:`mask_url`."""
    if "://" not in text:
        return text
    return _URL_IN_TEXT.sub(lambda m: mask_url(m.group(0)), text)


def mask_value(value: Any) -> Any:
    """``value`` with URLs masked in every string, also inside lists, tuples, sets and dicts; a
    dict entry whose key looks secret is masked whole."""
    if isinstance(value, str):
        return mask_text(value)
    if isinstance(value, dict):
        return {k: MASK if isinstance(k, str) and secret_param(k) and v else mask_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [mask_value(v) for v in value]
        return type(value)(items) if type(value) in (list, tuple, set, frozenset) else tuple(items)
    return value

"""Errors for requests to an endpoint the proxy does not have: they name the path (and method) and
list the OpenAI endpoints it serves, read from the app's own routes."""

from __future__ import annotations

from typing import Any

HIDDEN_METHODS = frozenset({"HEAD", "OPTIONS"})


def supported_endpoints(app: Any) -> list[str]:
    """``"METHOD /v1/path"`` for every OpenAI-style route of ``app`` (a Litestar app), sorted by path."""
    out: set[str] = set()
    for route in getattr(app, "routes", ()):
        path = getattr(route, "path", "")
        if not path.startswith("/v1/"):
            continue
        for method in sorted(set(getattr(route, "methods", ())) - HIDDEN_METHODS):
            out.add(f"{method} {_shown(path)}")
    return sorted(out, key=lambda item: (item.split(" ", 1)[1], item))


def _shown(path: str) -> str:
    """A route path as the docs write it: ``{model_id:path}`` becomes ``{model_id}``."""
    parts = []
    for part in path.split("/"):
        if part.startswith("{") and ":" in part:
            part = part.split(":", 1)[0] + "}"
        parts.append(part)
    return "/".join(parts)


def unknown_endpoint_message(app: Any, method: str, path: str, status: int) -> str | None:
    """The message of a 404 (no such path) or 405 (the path does not take ``method``) under ``/v1/``;
    None for other paths (they keep the framework's message)."""
    if not path.startswith("/v1/") and path != "/v1":
        return None
    listed = "; ".join(supported_endpoints(app))
    shown = path if len(path) <= 200 else path[:200] + "..."
    if status == 405:
        return f"{method} is not supported on {shown}; this proxy serves: {listed}"
    return f"{method} {shown} is not an endpoint of this proxy; it serves: {listed}"

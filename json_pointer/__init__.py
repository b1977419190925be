"""Local JSON pointers (``#/$defs/item``, RFC 6901) inside one JSON document: the one walk that the proxy's
request checks (a ``$ref`` must resolve within its schema) and the backend's grammar compiler (schema
checks, the ``oneOf`` rewrite) share. A runtime package at the bottom of the stack: it imports nothing of
the project.
"""

from __future__ import annotations

from typing import Any


def resolve_local(root: Any, ref: str) -> Any:
    """The node ``ref`` (a ``#/...`` pointer, with RFC 6901's ``~0``/``~1`` escapes) points to within ``root``;
    ``LookupError`` when ``ref`` is not local or does not resolve."""
    if not ref.startswith("#"):
        raise LookupError(f"$ref {ref!r} is not a local reference")
    node: Any = root
    for raw in [p for p in ref[1:].split("/") if p]:
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            raise LookupError(f"$ref {ref!r} does not resolve")
    return node


def resolves_local(root: Any, ref: str) -> bool:
    """Whether the local pointer ``ref`` resolves within ``root`` (:func:`resolve_local` without the error)."""
    try:
        resolve_local(root, ref)
    except LookupError:
        return False
    return True

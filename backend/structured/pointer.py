"""Local JSON pointers (``#/$defs/item``) inside one schema document, shared by the schema checks and the
``oneOf`` rewrite."""

from __future__ import annotations

from typing import Any


def resolve_local(root: Any, ref: str) -> Any:
    """The node ``ref`` (a ``#/...`` pointer, RFC 6901 escapes) points to within ``root``; ``LookupError``
    when ``ref`` is not local or does not resolve."""
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

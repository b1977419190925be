"""``oneOf`` that the grammar can honour exactly: branches that provably exclude one another become ``anyOf``.

llguidance has no ``oneOf`` ("exactly one branch"); its ``anyOf`` lets an answer match two branches, which
``oneOf`` forbids. Where no value can match two branches, the two keywords accept the same values, so the
schema is rewritten and compiled; anywhere else ``oneOf`` is left in place and refused with a 400, as before.

Two branches exclude each other when any of these holds (``$ref`` to the same document resolved):

- their types cannot overlap (``integer`` lies inside ``number``), from ``type``, ``const`` or ``enum``;
- both are fixed values (``const`` / ``enum``) with no value in common;
- both require a property whose values in the two branches exclude each other by the two rules above
  (a discriminator such as ``"kind": {"const": "circle"}``);
- both are objects and one requires a property the other forbids (``"p": false`` or
  ``additionalProperties: false`` without ``p``).

Under ``type: object``, branches that only list ``required`` properties (``oneOf: [{required: [a]},
{required: [b]}]``, common in function-call schemas) are made exclusive first: each branch forbids the properties that only the others
require. An answer then has exactly one branch's properties, which is what ``oneOf`` means for them
whenever no branch's required set contains another's (then it is left as it is).
"""

from __future__ import annotations

import json
from typing import Any

from json_pointer import resolve_local

_NOTE_KEYS = frozenset({"title", "description", "$comment", "examples"})


def _canonical(value: Any) -> tuple[str, str]:
    """A JSON value's identity as JSON Schema compares values (``true`` is not ``1``, ``1`` is ``1.0``)."""
    if isinstance(value, bool) or value is None:
        return ("literal", json.dumps(value))
    if isinstance(value, int | float):
        return ("number", repr(float(value)))
    return (type(value).__name__, json.dumps(value, sort_keys=True, ensure_ascii=False))


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}[type(value)]


class _Prover:
    """Pairwise exclusion of schemas inside one document (``root`` resolves its local ``$ref``s)."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root

    def resolve(self, node: Any, depth: int = 0) -> Any:
        """``node`` with a leading local ``$ref`` followed (a few hops at most); unresolvable refs stay."""
        while isinstance(node, dict) and isinstance(node.get("$ref"), str) and depth < 8:
            try:
                node, depth = resolve_local(self.root, node["$ref"]), depth + 1
            except LookupError:
                return node
        return node

    def values(self, node: Any) -> list[Any] | None:
        """The only values ``node`` admits (``const`` / ``enum``), or None when not a fixed set."""
        node = self.resolve(node)
        if not isinstance(node, dict):
            return None
        if "const" in node:
            return [node["const"]]
        if isinstance(node.get("enum"), list):
            return node["enum"]
        return None

    def types(self, node: Any) -> set[str] | None:
        """The JSON types ``node`` admits, or None when it does not say."""
        node = self.resolve(node)
        if node is False:
            return set()
        if not isinstance(node, dict):
            return None
        fixed = self.values(node)
        if fixed is not None:
            return {_json_type(v) for v in fixed}
        declared = node.get("type")
        if isinstance(declared, str):
            return {declared}
        if isinstance(declared, list) and all(isinstance(t, str) for t in declared):
            return set(declared)
        return None

    def exclusive(self, a: Any, b: Any, objects: bool = False) -> bool:
        """True only when no JSON value can match both ``a`` and ``b`` (``objects``: only objects are in
        question, as under a parent of ``type: object``; object keywords say nothing about other values)."""
        a, b = self.resolve(a), self.resolve(b)
        if a is False or b is False:
            return True
        ta, tb = self.types(a), self.types(b)
        if ta is not None and tb is not None and not any(
                x == y or {x, y} == {"integer", "number"} for x in ta for y in tb):
            return True
        va, vb = self.values(a), self.values(b)
        if va is not None and vb is not None and not {_canonical(v) for v in va} & {_canonical(v) for v in vb}:
            return True
        if isinstance(a, dict) and isinstance(b, dict) and (objects or ta == tb == {"object"}):
            return self._objects_exclusive(a, b) or self._objects_exclusive(b, a)
        return False

    def _objects_exclusive(self, a: dict[str, Any], b: dict[str, Any]) -> bool:
        """``a`` requires a property that ``b`` forbids, or both require one whose values exclude each other."""
        props_a, props_b = a.get("properties") or {}, b.get("properties") or {}
        for name in a.get("required") or []:
            if name in props_b and self.resolve(props_b[name]) is False:
                return True
            if b.get("additionalProperties") is False and name not in props_b and not b.get("patternProperties"):
                return True
            if name in (b.get("required") or []) and name in props_a and name in props_b:
                if self.exclusive(props_a[name], props_b[name]):
                    return True
        return False


def _required_only(branch: Any) -> bool:
    return (isinstance(branch, dict) and isinstance(branch.get("required"), list)
            and set(branch) - _NOTE_KEYS == {"required"})


def _exclusive_required(branches: list[Any]) -> list[Any] | None:
    """Required-only branches, each forbidding the properties only the others require; None when a branch's
    required set contains another's (then two branches always match together)."""
    sets = [set(b["required"]) for b in branches]
    if any(i != j and sets[j] <= sets[i] for i in range(len(sets)) for j in range(len(sets))):
        return None
    out = []
    for i, branch in enumerate(branches):
        others = set().union(*(s for j, s in enumerate(sets) if j != i)) - sets[i]
        out.append({**branch, "properties": {name: False for name in sorted(others)}})
    return out


def rewrite_exclusive_one_of(schema: Any) -> Any:
    """A copy of ``schema`` in which every ``oneOf`` whose branches pairwise exclude each other (or can be made
    to, for required-only branches) is an ``anyOf``; other ``oneOf``s are left for the compiler to refuse."""
    prover = _Prover(schema if isinstance(schema, dict) else {})

    def walk(node: Any, data: bool = False) -> Any:
        if data:
            return node
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: walk(value, key in {"enum", "const", "default", "examples"}) for key, value in node.items()}
        branches = out.get("oneOf")
        if isinstance(branches, list) and branches and "anyOf" not in out:
            objects = out.get("type") == "object"
            if objects and all(_required_only(b) for b in branches):
                exclusive = _exclusive_required(branches)
            elif all(prover.exclusive(a, b, objects) for i, a in enumerate(branches) for b in branches[i + 1:]):
                exclusive = branches
            else:
                exclusive = None
            if exclusive is not None:
                del out["oneOf"]
                out["anyOf"] = exclusive
        return out

    return walk(schema)

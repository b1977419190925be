"""The one local JSON pointer walk, shared by the proxy's request checks and the backend's schema compiler."""

from __future__ import annotations

import pytest

from json_pointer import resolve_local, resolves_local

DOC = {"$defs": {"item": {"type": "string"}, "a/b": 1, "m~n": 2, "list": [{"x": 3}, {"y": 4}]}, "": 5}


@pytest.mark.parametrize(("ref", "expected"), [
    ("#", DOC), ("#/", DOC), ("#/$defs/item", {"type": "string"}),
    ("#/$defs/a~1b", 1), ("#/$defs/m~0n", 2),  # RFC 6901 escapes: ~1 is "/", ~0 is "~"
    ("#/$defs/list/1/y", 4),  # array members by index
])
def test_a_local_pointer_reaches_its_node(ref: str, expected: object) -> None:
    assert resolve_local(DOC, ref) == expected
    assert resolves_local(DOC, ref)


@pytest.mark.parametrize("ref", ["#/$defs/missing", "#/$defs/list/2", "#/$defs/list/-1", "#/$defs/item/type/x",
                                 "#/$defs/list/y", "other.json#/a", "https://example.com/s#/a"])
def test_a_pointer_that_does_not_resolve_or_is_not_local_is_a_lookup_error(ref: str) -> None:
    with pytest.raises(LookupError, match="not a local reference|does not resolve"):
        resolve_local(DOC, ref)
    assert not resolves_local(DOC, ref)

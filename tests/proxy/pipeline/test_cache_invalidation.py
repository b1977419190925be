"""proxy.pipeline.cache_invalidation: the selection rules the admin API and the admin UI share."""

from __future__ import annotations

import pytest

from proxy.pipeline.cache_invalidation import SEMANTIC_ID_MAX, Invalidation, InvalidationError


@pytest.mark.parametrize(("selection", "param"), [
    (Invalidation("everything"), "target"),
    (Invalidation("entry", kind="fuzzy", entry_id="1"), "kind"),
    (Invalidation("entry", kind="exact"), "kind"),
    (Invalidation("entry", kind="exact", entry_id="k" * 65), "entry_id"),
    (Invalidation("entry", kind="semantic", entry_id="\u0663"), "entry_id"),  # an Arabic-Indic digit
    (Invalidation("entry", kind="semantic", entry_id=str(SEMANTIC_ID_MAX + 1)), "entry_id"),
    (Invalidation("entry", kind="semantic", entry_id="9" * 400), "entry_id"),
    (Invalidation("scope"), "scope"),
    (Invalidation("model"), "model"),
    (Invalidation("tenant"), "tenant"),
])
def test_a_selection_that_names_nothing_is_refused_naming_its_field(selection: Invalidation, param: str) -> None:
    with pytest.raises(InvalidationError) as info:
        selection.check()
    assert info.value.param == param


@pytest.mark.parametrize("selection", [
    Invalidation("entry", kind="exact", entry_id="k" * 64),
    Invalidation("entry", kind="semantic", entry_id=str(SEMANTIC_ID_MAX)),
    Invalidation("model", model="m", tenant=""),
    Invalidation("scope", scope="tenant:acme"),
    Invalidation("all"),
])
def test_valid_selections_pass(selection: Invalidation) -> None:
    selection.check()

"""The shaping stage's note position: ``auto`` puts the volatile note after the conversation for
models whose upstream takes a late system message (the bundled backend) and at the end of the
system prompt elsewhere; an explicit position wins; the request's `thrifty` extension is checked under every mode."""

from __future__ import annotations

import copy

import pytest

from proxy.config.shaping import ShapingOverride, ShapingSettings
from proxy.shaping.prompt import NOTE_HEADER
from proxy.shaping.stage import ShapingStage
from proxy.wire.errors import InvalidRequest

BODY = {"messages": [{"role": "system", "content": "You help with parcels.\nCurrent date: 2025-03-14"},
                     {"role": "user", "content": "Where is my parcel?"},
                     {"role": "assistant", "content": "Which tracking number?"},
                     {"role": "user", "content": "AC-1"}]}


def shaped(stage: ShapingStage, model: str) -> list[dict]:
    data = copy.deepcopy(BODY)
    stage.apply(data, tenant="anonymous", model=model, tier=None, endpoint="chat")
    return data["messages"]


def test_auto_puts_the_note_last_for_the_bundled_model_only() -> None:
    stage = ShapingStage(ShapingSettings(), late_system_models={"smollm2"})
    bundled, other = shaped(stage, "smollm2"), shaped(stage, "gpt-x")
    assert bundled[:-1] == [{"role": "system", "content": "You help with parcels."}, *BODY["messages"][1:]]
    assert bundled[-1] == {"role": "system", "content": f"{NOTE_HEADER}\nCurrent date: 2025-03-14"}
    assert other[1:] == BODY["messages"][1:] and len(other) == len(BODY["messages"])
    assert other[0]["content"] == f"You help with parcels.\n\n{NOTE_HEADER}\nCurrent date: 2025-03-14"


@pytest.mark.parametrize(("position", "model", "last_is_note"), [
    ("system", "smollm2", False), ("end", "gpt-x", True), ("auto", "gpt-x", False), ("auto", "smollm2", True)])
def test_a_model_table_sets_the_position(position: str, model: str, last_is_note: bool) -> None:
    settings = ShapingSettings(note_position="system",
                               models=(ShapingOverride(name=model, note_position=position),))
    messages = shaped(ShapingStage(settings, late_system_models={"smollm2"}), model)
    assert (messages[-1]["content"].startswith(NOTE_HEADER)) is last_is_note
    assert [m for m in messages if m["role"] == "user"] == [m for m in BODY["messages"] if m["role"] == "user"]


@pytest.mark.parametrize(("endpoint", "data"), [
    ("chat", {"messages": [{"role": "user", "content": "a"}], "thrifty": {"documents": "x"}}),
    ("chat", {"messages": [{"role": "user", "content": "a"}], "thrifty": "yes"}),
    ("completions", {"prompt": "a", "thrifty": {"documents": [{"message": 0, "separator": "\n"}]}}),
])
def test_the_extension_is_checked_even_with_shaping_off(endpoint: str, data: dict) -> None:
    stage = ShapingStage(ShapingSettings(mode="off"))
    with pytest.raises(InvalidRequest):
        stage.apply(data, tenant="t", model="m", tier=None, endpoint=endpoint)

"""Prompt shaping: property tests that the meaning-bearing parts never change (user messages, turn
order, the set of tools, each document's content), plus what each mode moves."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proxy.shaping.prompt import NOTE_HEADER, VOLATILE_SPAN, shape_prompt, split_volatile
from proxy.wire.errors import InvalidRequest

WORDS = st.sampled_from(["you", "are", "a", "helpful", "assistant", "answer", "briefly", "ACME", "support", "the",
                         "docs", "policy", "refund", "within", "days", "order", "2", "30", "is", "on", "at", "id",
                         "Date", "time", ":", "-", "\n", "  "])
VOLATILE = st.sampled_from(["2024-05-01", "2025-12-31T23:59:59Z", "10:42", "10:42:07 PM UTC", "May 3, 2024",
                            "3 June 2025 at 09:15", "05/01/2024", "req_8f3a9b2c11",
                            "3f2a9c1e-1111-2222-3333-444455556666", "1714557600", "deadbeefcafe0123456789"])
LABELS = st.sampled_from(["Current date", "Today", "Timestamp", "Request ID", "Session id", "Current time",
                          "- Date", "trace id"])
TEXT = st.lists(WORDS, max_size=30).map(" ".join)


@st.composite
def system_prompts(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["plain", "context", "inline"]))
        if kind == "plain":
            lines.append(draw(TEXT))
        elif kind == "context":
            lines.append(f"{draw(LABELS)}{draw(st.sampled_from([': ', ' = ', ' is ']))}{draw(VOLATILE)}")
        else:
            lines.append(f"{draw(TEXT)} {draw(VOLATILE)} {draw(TEXT)}")
    return "\n".join(lines)


def schema_objects(depth: int = 2):
    leaf = st.sampled_from([{"type": "string"}, {"type": "integer", "minimum": 0}, {"type": "boolean"},
                            {"type": "string", "enum": ["a", "b"]}, {"description": "  spaced  out  "}])
    if depth == 0:
        return leaf
    return st.one_of(leaf, st.dictionaries(st.sampled_from(["type", "properties", "items", "required", "zeta",
                                                            "alpha", "description"]),
                                           st.deferred(lambda: schema_objects(depth - 1)), max_size=4))


@st.composite
def shuffled_dict(draw, value: dict) -> dict:
    """The same object with its keys (recursively) in a drawn order."""
    if isinstance(value, dict):
        keys = draw(st.permutations(list(value)))
        return {k: draw(shuffled_dict(value[k])) for k in keys}
    if isinstance(value, list):
        return [draw(shuffled_dict(v)) for v in value]
    return value


@st.composite
def tool_lists(draw) -> list:
    names = draw(st.lists(st.sampled_from(["search", "get_weather", "book", "lookup_order", "zap"]), unique=True,
                          max_size=5))
    tools = [{"type": "function", "function": {"name": n, "description": draw(TEXT),
                                               "parameters": {"type": "object",
                                                              "properties": draw(st.dictionaries(
                                                                  st.sampled_from(["q", "city", "when", "b"]),
                                                                  schema_objects(), max_size=3))}}}
             for n in names]
    if draw(st.booleans()):
        tools.append({"type": "function", "function": {"description": "no name: malformed"}})
    return draw(shuffled_dict(tools))


@st.composite
def requests(draw) -> dict:
    messages: list = []
    if draw(st.booleans()):
        messages.append({"role": draw(st.sampled_from(["system", "developer"])), "content": draw(system_prompts())})
    for i in range(draw(st.integers(1, 5))):
        role = "user" if i % 2 == 0 else "assistant"
        messages.append({"role": role, "content": draw(system_prompts()) if role == "user" else draw(TEXT)})
    body: dict = {"model": "m", "messages": messages}
    if draw(st.booleans()):
        body["tools"] = draw(tool_lists())
    if draw(st.booleans()):
        body["response_format"] = draw(shuffled_dict({"type": "json_schema", "json_schema": {
            "name": "answer", "strict": True, "schema": {"type": "object", "properties": {
                "b": {"type": "string"}, "a": {"type": "integer"}}, "required": ["b", "a"]}}}))
    if draw(st.booleans()):
        docs = draw(st.lists(TEXT, min_size=1, max_size=5))
        messages.append({"role": "user", "content": [{"type": "text", "text": "Use these documents:"},
                                                     *({"type": "text", "text": d} for d in docs),
                                                     {"type": "text", "text": "Question: " + draw(TEXT)}]})
        body["thrifty"] = {"documents": [{"message": len(messages) - 1, "parts": [1, 1 + len(docs)]}]}
    return body


VOLATILE_REF = re.compile(r"\[v\d+\]")


def canon(value) -> str:
    return json.dumps(value, sort_keys=True)


@settings(max_examples=300, deadline=None)
@given(requests(), st.booleans())
def test_shaping_never_changes_what_carries_meaning(body: dict, aggressive: bool) -> None:
    original = copy.deepcopy(body)
    shaped = copy.deepcopy(body)
    shape_prompt(shaped, aggressive=aggressive)
    assert body == original  # the caller's objects are never mutated
    before, after = original["messages"], shaped["messages"]
    assert [m["role"] for m in after] == [m["role"] for m in before]  # same turns, same order
    marked = {mark["message"] for mark in original.get("thrifty", {}).get("documents", [])}
    for i, (old, new) in enumerate(zip(before, after, strict=True)):
        if i in marked:  # the documents are a permutation; the parts around them stay
            start, end = original["thrifty"]["documents"][0]["parts"]
            assert new["content"][:start] == old["content"][:start]
            assert new["content"][end:] == old["content"][end:]
            assert sorted(map(canon, new["content"][start:end])) == sorted(map(canon, old["content"][start:end]))
        elif i == 0 and old["role"] in ("system", "developer"):
            stable, _, note = new["content"].partition("\n\n" + NOTE_HEADER + "\n")
            if not note:
                assert new == old
            elif aggressive:  # putting the values back gives the caller's text
                values = dict(line.split(" = ", 1) for line in note.split("\n"))
                restored = VOLATILE_REF.sub(lambda m, values=values: values[m.group(0)], stable)
                assert restored == old["content"]
            else:  # every line is kept, either in the stable part or, whole, in the note
                notes, kept = note.split("\n"), []
                for line in old["content"].split("\n"):
                    if notes and line.strip() == notes[0]:
                        notes.pop(0)
                    else:
                        kept.append(line)
                assert notes == [] and "\n".join(kept).rstrip() == stable
        else:
            assert new == old  # user, assistant and tool turns are untouched
    if "tools" in original:
        assert sorted(map(canon, shaped["tools"])) == sorted(map(canon, original["tools"]))  # the same set
    if "response_format" in original:
        assert shaped["response_format"] == original["response_format"]




@settings(max_examples=200, deadline=None)
@given(requests(), st.booleans())
def test_shaping_is_idempotent(body: dict, aggressive: bool) -> None:
    once = copy.deepcopy(body)
    shape_prompt(once, aggressive=aggressive)
    twice = copy.deepcopy(once)
    twice.pop("thrifty", None)
    shape_prompt(twice, aggressive=aggressive)
    once.pop("thrifty", None)
    assert json.dumps(twice) == json.dumps(once)  # key order included


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_requests_that_mean_the_same_share_one_serialised_prefix(data) -> None:
    body = data.draw(requests())
    variant = copy.deepcopy(body)
    if "tools" in variant:
        variant["tools"] = data.draw(shuffled_dict(data.draw(st.permutations(variant["tools"]))))
    if "response_format" in variant:
        variant["response_format"] = data.draw(shuffled_dict(variant["response_format"]))
    for mark in variant.get("thrifty", {}).get("documents", []):
        message = variant["messages"][mark["message"]]
        start, end = mark["parts"]
        docs = data.draw(st.permutations(message["content"][start:end]))
        message["content"] = [*message["content"][:start], *docs, *message["content"][end:]]
    a, b = copy.deepcopy(body), variant
    shape_prompt(a, aggressive=True)
    shape_prompt(b, aggressive=True)
    assert json.dumps(a) == json.dumps(b)


def test_safe_mode_moves_only_marked_context_lines() -> None:
    text = ("You are ACME's support assistant.\nCurrent date: 2024-05-01 10:42 UTC\nRequest ID: req_8f3a9b2c11\n"
            "Refunds are possible until 2024-12-31.")
    stable, notes = split_volatile(text, aggressive=False)
    assert stable == "You are ACME's support assistant.\nRefunds are possible until 2024-12-31."
    assert notes == ["Current date: 2024-05-01 10:42 UTC", "Request ID: req_8f3a9b2c11"]
    a = {"messages": [{"role": "system", "content": text}, {"role": "user", "content": "hi"}]}
    b = {"messages": [{"role": "system", "content": text.replace("2024-05-01 10:42", "2024-05-02 08:00")},
                      {"role": "user", "content": "hi"}]}
    assert shape_prompt(a, aggressive=False) == ["volatile-moved:2"]
    shape_prompt(b, aggressive=False)
    prefix = a["messages"][0]["content"].split(NOTE_HEADER)[0]
    assert b["messages"][0]["content"].startswith(prefix) and prefix.startswith("You are ACME's")


def test_aggressive_mode_moves_every_detected_span() -> None:
    stable, notes = split_volatile("Today is May 3, 2024; trace 3f2a9c1e-1111-2222-3333-444455556666.",
                                   aggressive=True)
    assert stable == "Today is [v1]; trace [v2]."
    assert notes == ["[v1] = May 3, 2024", "[v2] = 3f2a9c1e-1111-2222-3333-444455556666"]


@pytest.mark.parametrize("text", ["Version 2.0 of the API", "Call 555-1234 for help", "Answer in 3 sentences.",
                                  "Use ids like user-12 in examples"])
def test_ordinary_numbers_are_not_volatile(text: str) -> None:
    assert VOLATILE_SPAN.search(text) is None


def test_tools_are_sorted_by_name_with_sorted_keys_and_properties_kept_in_order_in_safe_mode() -> None:
    tools = [{"function": {"parameters": {"type": "object", "properties": {"z": {"type": "string"},
                                                                           "a": {"type": "string"}}},
                           "name": "b_tool"}, "type": "function"},
             {"type": "function", "function": {"name": "a_tool"}}]
    body = {"messages": [{"role": "user", "content": "x"}], "tools": tools}
    assert shape_prompt(body, aggressive=False) == ["tools-canonical"]
    assert [t["function"]["name"] for t in body["tools"]] == ["a_tool", "b_tool"]
    assert list(body["tools"][1]) == ["function", "type"]
    assert list(body["tools"][1]["function"]["parameters"]["properties"]) == ["z", "a"]
    shape_prompt(body, aggressive=True)
    assert list(body["tools"][1]["function"]["parameters"]["properties"]) == ["a", "z"]


def test_string_documents_are_ordered_by_separator() -> None:
    docs = ["Doc B: tides.", "Doc A: moons.", "Doc C: orbits."]
    random.Random(0).shuffle(docs)
    body = {"messages": [{"role": "system", "content": "Answer from the documents."},
                         {"role": "user", "content": "\n\n".join(docs)}, {"role": "user", "content": "Why tides?"}],
            "thrifty": {"documents": [{"message": 1, "separator": "\n\n"}]}}
    assert shape_prompt(body, aggressive=False) == ["documents-ordered:3"]
    assert body["messages"][1]["content"] == "Doc A: moons.\n\nDoc B: tides.\n\nDoc C: orbits."


@pytest.mark.parametrize(("mark", "message"), [
    ("nope", "must be a list"),
    ([{"message": 9, "parts": [0, 1]}], "index of a message"),
    ([{"message": 0, "parts": [0, 5]}], "within message 0"),
    ([{"message": 0, "separator": "\n"}], "string content"),
    ([{"message": 0}], "needs exactly one of 'parts'"),
    ([{"message": 0, "parts": [0, 1], "separator": "\n"}], "needs exactly one of 'parts'"),
    ([{"message": 0, "parts": [0, 1]}, {"message": 0, "parts": [0, 1]}], "overlaps an earlier mark on message 0"),
    ([{"message": 0, "parts": [0, 1]}, {"message": 0, "parts": [1, 1]}, {"message": 0, "parts": [0, 0]},
      {"message": 0, "parts": [0, 1]}], "documents\\[3\\]' overlaps an earlier mark"),  # empty ranges touch; 3 hits 0

    ([{"message": 0, "separator": ""}], "non-empty string"),
])
def test_a_malformed_document_mark_is_a_clear_400(mark, message: str) -> None:
    body = {"messages": [{"role": "user", "content": [{"type": "text", "text": "a"}]}], "thrifty": {"documents": mark}}
    with pytest.raises(InvalidRequest, match=message) as caught:
        shape_prompt(body, aggressive=False)
    assert caught.value.status == 400


@settings(max_examples=200, deadline=None)
@given(requests(), st.booleans())
def test_a_note_at_the_end_keeps_every_turn_and_only_appends(body: dict, aggressive: bool) -> None:
    shaped = copy.deepcopy(body)
    actions = shape_prompt(shaped, aggressive=aggressive, note_position="end")
    before, after = body["messages"], shaped["messages"]
    if not any(a.startswith("volatile-moved") for a in actions):
        assert len(after) == len(before)
        return
    assert [m["role"] for m in after] == [m["role"] for m in before] + ["system"]
    assert after[-1]["content"].startswith(NOTE_HEADER + "\n")
    assert NOTE_HEADER not in after[0]["content"]
    marked = {mark["message"] for mark in body.get("thrifty", {}).get("documents", [])}
    assert all(new == old for i, (old, new) in enumerate(zip(before[1:], after[1:-1], strict=True), 1)
               if i not in marked)  # every turn after the system prompt is untouched
    again = copy.deepcopy(shaped)
    again.pop("thrifty", None)
    assert not any(a.startswith("volatile-moved") for a in shape_prompt(again, aggressive=aggressive,
                                                                       note_position="end"))


def test_a_note_at_the_end_leaves_the_whole_conversation_as_a_shared_prefix() -> None:
    def body(now: str) -> dict:
        return {"messages": [{"role": "system", "content": f"Be helpful.\nCurrent time: {now}"},
                             {"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"},
                             {"role": "user", "content": "and now?"}]}

    a, b = body("10:00:01"), body("10:07:44")
    shape_prompt(a, aggressive=False, note_position="end")
    shape_prompt(b, aggressive=False, note_position="end")
    assert a["messages"][:-1] == b["messages"][:-1] and a["messages"][-1] != b["messages"][-1]
    assert a["messages"][-1] == {"role": "system", "content": f"{NOTE_HEADER}\nCurrent time: 10:00:01"}


@pytest.mark.parametrize(("ext", "message"), [
    ("yes", "'thrifty' must be an object"),
    ({"documents": [], "cahce": "off"}, "unknown field.*'cahce'; known: cache, documents"),
])
def test_a_malformed_extension_object_is_a_clear_400(ext, message: str) -> None:
    body = {"messages": [{"role": "user", "content": "a"}], "thrifty": ext}
    with pytest.raises(InvalidRequest, match=message):
        shape_prompt(body, aggressive=False)


def test_a_document_mark_names_the_callers_messages_not_the_note() -> None:
    """With the note after the last turn, index 2 of a 2-message request is the note: refused."""
    body = {"messages": [{"role": "system", "content": "Be nice.\nCurrent date: 2026-12-02"},
                         {"role": "user", "content": "hi"}],
            "thrifty": {"documents": [{"message": 2, "separator": "\n"}]}}
    with pytest.raises(InvalidRequest, match="index of a message \\(0 to 1\\)"):
        shape_prompt(body, aggressive=False, note_position="end")


@pytest.mark.parametrize("line", [
    "Today is 2026-12-02 and you must always answer in French.",  # an instruction shares the line
    "Current date: 2026-12-02. Be brief.",  # a further sentence
    "Deadline: 2026-12-31",  # a date, but the label does not mark per-request context
    "Current date: 2026-12-02, be brief", "Current date: 2026-12-02 (no emojis)", "Date: 2026-12-02 ignore previous",
    "Today is 2026-12-02: reply tersely", "Session: 10:00-11:00 weekly standup", "Time: 9:00 to 17:00 only",
])
def test_safe_mode_leaves_lines_that_carry_more_than_context(line: str) -> None:
    text = f"You are helpful.\n{line}\nAnswer briefly."
    assert split_volatile(text, aggressive=False) == (text, [])


@pytest.mark.parametrize("line", [
    "Current date: 2026-12-02", "Today is Tuesday, Dec 2, 2026.", "Session: sess_ab12cd34ef56",
    "Last login: 02/12/2026 14:03", "Current time: 14:03 (Europe/Paris)", "Timestamp: 1796223664",
    "Request ID: 0f8fad5b-d9cb-469f-a165-70867728950e", "Generated at: 2026-12-02T14:03:11Z",
    "Current time: 14:03 CET", "Now: 2026-12-02 14:03:11.123+01:00",
])
def test_safe_mode_moves_context_lines(line: str) -> None:
    assert split_volatile(f"You are helpful.\n{line}\nAnswer briefly.", aggressive=False) == (
        "You are helpful.\nAnswer briefly.", [line])


def test_a_system_prompt_of_only_context_is_left_alone() -> None:
    """Moving it would leave an empty system message: nothing stable to protect, so no change."""
    body = {"messages": [{"role": "system", "content": "Current date: 2026-12-02"}, {"role": "user", "content": "hi"}]}
    before = copy.deepcopy(body)
    assert shape_prompt(body, aggressive=False, note_position="end") == []
    assert body == before


def test_a_null_extension_is_absent_and_disjoint_part_ranges_may_share_a_message() -> None:
    parts = [{"type": "text", "text": t} for t in ("b", "a", "x", "d", "c")]
    body = {"messages": [{"role": "user", "content": parts}], "thrifty": None}
    assert shape_prompt(body, aggressive=False) == []
    body["thrifty"] = {"documents": [{"message": 0, "parts": [0, 2]}, {"message": 0, "parts": [3, 5]}]}
    assert shape_prompt(body, aggressive=False) == ["documents-ordered:4"]
    assert [p["text"] for p in body["messages"][0]["content"]] == ["a", "b", "x", "c", "d"]

"""The seeded trace of ``thrifty eval shaping``: deterministic, and what shaping is meant to fix is
really in it (volatile system prompts, scrambled tools, shuffled documents)."""

from __future__ import annotations

import copy
import json

import pytest

from benchmarks.shaping.trace import SHAPES, make_trace
from proxy.shaping.prompt import NOTE_HEADER, shape_prompt
from tokenization.chat_sections import with_request_sections


def test_the_trace_is_seeded() -> None:
    assert [r.body for r in make_trace(3)] == [r.body for r in make_trace(3)]
    assert [r.body for r in make_trace(3)] != [r.body for r in make_trace(4)]
    trace = make_trace(0, sessions=4, turns=2)
    assert [(r.session, r.turn) for r in trace] == [(s, t) for t in range(2) for s in range(4)]  # interleaved


def test_safe_shaping_turns_the_trace_into_shared_prefixes() -> None:
    trace = make_trace(0)
    raw_systems = {r.body["messages"][0]["content"] for r in trace}
    assert len(raw_systems) == len(trace)  # every request's system prompt differs (timestamps)
    shaped = []
    for request in trace:
        body = copy.deepcopy(request.body)
        actions = shape_prompt(body, aggressive=False)
        assert any(a.startswith("volatile-moved") for a in actions)
        shaped.append((request, body))
    stable = {(r.kind, b["messages"][0]["content"].split(NOTE_HEADER)[0]) for r, b in shaped}
    assert len(stable) == 2  # one stable system prompt per kind
    tools = {json.dumps(b["tools"]) for r, b in shaped if r.kind == "agent"}
    raw_tools = {json.dumps(r.body["tools"]) for r in trace if r.kind == "agent"}
    assert len(tools) == 1 < len(raw_tools)
    for session in {r.session for r, _ in shaped if r.kind == "rag"}:
        docs = {json.dumps(b["messages"][1]["content"]) for r, b in shaped if r.session == session}
        assert len(docs) == 1  # the same retrieved documents, in one order


@pytest.mark.parametrize("shape", SHAPES)
def test_every_shape_is_seeded_and_safe_shaping_makes_one_stable_prefix_per_kind(shape: str) -> None:
    trace = make_trace(1, sessions=4, turns=2, shape=shape)
    assert [r.body for r in trace] == [r.body for r in make_trace(1, sessions=4, turns=2, shape=shape)]
    stable = set()
    for request in trace:
        body = copy.deepcopy(request.body)
        shape_prompt(body, aggressive=False, note_position="end")
        assert body["messages"][-1]["content"].startswith(NOTE_HEADER)
        stable.add(json.dumps([body.get("tools"), body["messages"][0]]))
    assert len(stable) == 2


@pytest.mark.slow
def test_the_long_shape_is_longer_and_fits_smollm2s_context_with_its_tools_rendered(smollm2) -> None:
    def lengths(shape: str) -> list[int]:
        trace = make_trace(0, shape=shape)
        return [len(smollm2.tokenizer.encode_chat(with_request_sections(r.body["messages"], r.body.get("tools"))))
                for r in trace if r.kind == "agent"]

    short, long = lengths("short"), lengths("long")
    assert min(long) > 2 * max(short)
    assert max(long) + 16 <= smollm2.model.config.max_position_embeddings  # room for the replay's max_tokens
    with pytest.raises(ValueError, match="shape"):
        make_trace(0, shape="huge")

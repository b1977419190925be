"""Context trimming, concise mode and default stops: the budget rules (property-tested), the
bundled tokenizer's count, and the stage through the proxy app."""

from __future__ import annotations

import json
from dataclasses import replace

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proxy.config.shaping import ShapingOverride, ShapingSettings
from proxy.http.app import create_app
from proxy.shaping.prompt import NOTE_HEADER
from proxy.shaping.stage import ShapingStage, with_instruction
from proxy.shaping.trimming import (
    MESSAGE_OVERHEAD_TOKENS,
    ByteEstimate,
    LazyModelTokenizer,
    message_text,
    request_overhead,
    trim_messages,
)
from tests.support.servers import ScriptedUpstream, serve_in_thread


def msg(role: str, text: str) -> dict:
    return {"role": role, "content": text}


def cost(message: dict) -> int:
    return ByteEstimate().count(message["content"] or "") + MESSAGE_OVERHEAD_TOKENS


roles = st.sampled_from(["user", "assistant", "tool"])
conversations = st.tuples(
    st.lists(st.text(max_size=60).map(lambda t: msg("system", t)), max_size=2),
    st.lists(st.tuples(roles, st.text(max_size=120)).map(lambda p: msg(*p)), min_size=1, max_size=12))


@settings(max_examples=300, deadline=None)
@given(conversations, st.integers(0, 400))
def test_trimming_keeps_the_system_prompt_and_the_latest_turns(conversation, budget: int) -> None:
    system, turns = conversation
    messages = system + turns
    kept, outcome = trim_messages(messages, budget, ByteEstimate())
    assert kept[: len(system)] == system  # the system prompt always stays
    rest = kept[len(system):]
    assert rest == turns[len(turns) - len(rest):]  # a suffix: the oldest went, nothing reordered
    assert rest[-1] is turns[-1]  # the latest message always stays
    assert outcome.dropped == len(turns) - len(rest)
    assert outcome.tokens == sum(cost(m) for m in kept)
    if len(rest) > 1 and outcome.dropped:
        assert rest[0]["role"] != "tool"  # trimming never leaves a tool result without its call
    if outcome.over_budget:
        assert outcome.tokens > budget
    else:
        assert outcome.tokens <= budget


system_prompts = st.sampled_from(["", "You help with parcels.", "You help.\nCurrent date: 2025-03-14",
                                  "Agent.\nRequest ID: req-12345678\nToday is 2025-03-14 10:42"])


@settings(max_examples=300, deadline=None)
@given(system_prompts, st.lists(st.tuples(roles, st.text(max_size=120)), max_size=8), st.text(min_size=1, max_size=80),
       st.integers(1, 300), st.sampled_from(["system", "end", "auto"]), st.sampled_from(["smollm2", "gpt-x"]),
       st.sampled_from(["safe", "aggressive"]), st.booleans())
def test_the_stage_never_trims_away_the_latest_user_turn(system: str, history, question: str, budget: int,
                                                         position: str, model: str, mode: str,
                                                         concise: bool) -> None:
    stage = ShapingStage(ShapingSettings(mode=mode, note_position=position, context_budget_tokens=budget,
                                         concise=concise), late_system_models={"smollm2"})
    latest = msg("user", question)
    messages = ([msg("system", system)] if system else []) + [msg(*turn) for turn in history] + [latest]
    data: dict = {"messages": messages}
    result = stage.apply(data, tenant="t", model=model, tier=None, endpoint="chat")
    kept = data["messages"]
    last_turn = max(i for i, m in enumerate(kept) if m["role"] not in ("system", "developer"))
    assert kept[last_turn] is latest  # the question is always sent, as the last turn
    assert last_turn >= len(kept) - 2  # followed by the note at most
    header = result.headers["x-thrifty-trim"]
    tokens = int(header.split("tokens=")[1].split(";")[0])
    assert tokens == sum(cost(m) for m in kept)  # the header counts what is sent
    assert header.startswith("ok;") == (tokens <= budget)  # and says whether it fits
    dropped = int(header.split("dropped=")[1].split(";")[0])
    assert len(kept) == len(messages) + (1 if NOTE_HEADER in str(kept[-1]["content"]) else 0) \
        + (1 if concise and not system else 0) - dropped


@pytest.mark.parametrize(("budget", "header"), [(40, "ok; dropped=2; tokens=32;"),
                                               (30, "over-budget; dropped=2; tokens=32; budget=30;")])
def test_a_note_after_the_conversation_does_not_push_out_the_question(budget: int, header: str) -> None:
    stage = ShapingStage(ShapingSettings(context_budget_tokens=budget), late_system_models={"smollm2"})
    data: dict = {"messages": [msg("system", "You help.\nCurrent date: 2025-03-14"), msg("user", "a" * 200),
                               msg("assistant", "b" * 200), msg("user", "Where is AC-1?")]}
    result = stage.apply(data, tenant="t", model="smollm2", tier=None, endpoint="chat")
    assert [m["content"] for m in data["messages"]] == ["You help.", "Where is AC-1?",
                                                        f"{NOTE_HEADER}\nCurrent date: 2025-03-14"]
    assert result.headers["x-thrifty-trim"].startswith(header)  # not "ok; dropped=3" without the question


def test_odd_tool_calls_cost_nothing_instead_of_failing() -> None:
    for calls in (5, True, "call", {"id": "c1"}, [5, None, {"function": "f"}]):
        assert message_text({"role": "assistant", "content": "x", "tool_calls": calls}) == "x"


def test_tools_and_response_format_count_toward_the_budget_and_drop_more_turns() -> None:
    messages = [msg("system", "Be brief."), *(msg(r, "x" * 80) for r in ("user", "assistant") * 3), msg("user", "new")]
    tools = [{"type": "function", "function": {"name": "lookup", "description": "y" * 300}}]
    counter = ByteEstimate()
    overhead = request_overhead({"tools": tools, "response_format": {"type": "json_object"}}, counter)
    assert request_overhead({"messages": messages}, counter) == 0
    assert overhead > counter.count(json.dumps(tools))
    plain, _ = trim_messages(messages, 150, counter)
    with_tools, outcome = trim_messages(messages, 150 + overhead // 2, counter, fixed_tokens=overhead)
    assert len(with_tools) < len(plain) and with_tools[-1] is messages[-1]
    assert outcome.tokens == overhead + sum(cost(m) for m in with_tools)


def test_a_budget_smaller_than_the_system_prompt_keeps_the_minimum_and_says_so() -> None:
    messages = [msg("system", "x" * 400), msg("user", "old"), msg("assistant", "older answer"), msg("user", "new")]
    kept, outcome = trim_messages(messages, 50, ByteEstimate())
    assert kept == [messages[0], messages[-1]]
    assert outcome.over_budget and outcome.header.startswith("over-budget; dropped=2;")


def test_the_bundled_tokenizer_counts_real_tokens(smollm2) -> None:
    counter = LazyModelTokenizer(lambda: smollm2.tokenizer)
    text = "Thrifty trims the oldest turns first."
    assert counter.count(text) == len(smollm2.tokenizer.encode(text)) and counter.name == "tokenizer"


def test_a_tokenizer_that_cannot_load_falls_back_to_the_byte_estimate() -> None:
    def broken():
        raise OSError("no weights here")

    counter = LazyModelTokenizer(broken)
    assert counter.count("abcdefgh") == 2 and counter.name == "bytes"


def test_the_concise_instruction_goes_before_a_shaping_note_and_only_once() -> None:
    shaped = [msg("system", "Be nice.\n\nContext for this request:\nCurrent date: 2024-05-01"), msg("user", "q")]
    out = with_instruction(shaped, "Be brief.")
    assert out[0]["content"] == "Be nice.\nBe brief.\n\nContext for this request:\nCurrent date: 2024-05-01"
    assert with_instruction(out, "Be brief.") == out
    assert with_instruction([msg("user", "q")], "Be brief.") == [msg("system", "Be brief."), msg("user", "q")]


def test_default_stops_apply_only_when_the_request_has_none() -> None:
    stage = ShapingStage(ShapingSettings(stop=["\n\n\n"], mode="off"))
    data: dict = {"messages": [msg("user", "q")]}
    result = stage.apply(data, tenant="t", model="m", tier=None, endpoint="chat")
    assert data["stop"] == ["\n\n\n"] and result.headers["x-thrifty-shaping"] == "off; stops-default"
    own: dict = {"messages": [msg("user", "q")], "stop": "END"}
    stage.apply(own, tenant="t", model="m", tier=None, endpoint="chat")
    assert own["stop"] == "END"


def test_trimming_concise_and_stops_through_the_proxy(make_settings) -> None:
    script = ScriptedUpstream()
    keys = (ShapingOverride("brief", tenant="anonymous", concise=True, context_budget_tokens=40, stop=["###"]),)
    with serve_in_thread(script) as up:
        app = create_app(replace(make_settings(up), shaping=ShapingSettings(keys=keys)))
        with serve_in_thread(app) as proxy:
            history = [msg("system", "You help."), msg("user", "a" * 200), msg("assistant", "b" * 200),
                       msg("user", "What now?")]
            reply = httpx.post(f"{proxy}/v1/chat/completions", timeout=30,
                               json={"model": "gpt-test", "temperature": 0, "messages": history})
            assert reply.status_code == 200
            assert reply.headers["x-thrifty-trim"].startswith("ok; dropped=2;")
            assert reply.headers["x-thrifty-shaping"] == "safe; stops-default; concise; trimmed:2"
            sent = script.requests[-1]
            assert [m["content"] for m in sent["messages"]][1:] == ["What now?"]
            assert sent["messages"][0]["content"].startswith("You help.\nAnswer concisely")
            assert sent["stop"] == ["###"]
            tiny = httpx.post(f"{proxy}/v1/chat/completions", timeout=30, json={
                "model": "gpt-test", "temperature": 0, "messages": [msg("system", "s" * 1000), msg("user", "q")]})
            assert tiny.status_code == 200 and tiny.headers["x-thrifty-trim"].startswith("over-budget; dropped=0;")


@pytest.mark.parametrize(("text", "message"), [
    ('[shaping]\nstop = ["a", "b", "c", "d", "e"]\n', "at most 4 non-empty strings"),
    ('[shaping.keys.k]\ntenant = "anonymous"\nstop = [""]\n', "non-empty strings"),
    ("[shaping]\ncontext_budget_tokens = -5\n", "whole number >= 0"),
    ('[shaping.models.m]\nconcise = "yes please"\n', "concise"),
])
def test_bad_trimming_settings_stop_start_up(tmp_path, text: str, message: str) -> None:
    from proxy.config.settings import SettingsError, load_settings

    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(SettingsError, match=message):
        load_settings(path, {})

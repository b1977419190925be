"""Request validation of the bundled backend (backend.protocol): every field it cannot honour is a 400
that names it, instead of being ignored or crashing later (seeds, penalties, logit_bias, stops, legacy
completions options, prompts, message parts, tool_choice)."""

from __future__ import annotations

import msgspec
import pytest

from backend.protocol import (
    ChatBody,
    CompletionBody,
    Limits,
    RequestError,
    chat_top_logprobs,
    check_tool_choice,
    completion_logprobs,
    parse_prompt,
    sampling_params,
    validate_messages,
)

LIMITS = Limits(max_model_len=512, max_n=4, vocab_size=100)


def chat(**fields) -> ChatBody:
    return msgspec.convert({"model": "m", "messages": [{"role": "user", "content": "hi"}], **fields}, ChatBody)


def completion(**fields) -> CompletionBody:
    return msgspec.convert({"model": "m", "prompt": "hi", **fields}, CompletionBody)


def refused(call, param: str, needle: str = "") -> RequestError:
    with pytest.raises(RequestError) as info:
        call()
    assert info.value.status == 400 and info.value.param == param, (info.value.param, info.value.message)
    assert needle in info.value.message
    return info.value


@pytest.mark.parametrize("seed", [2**64 - 1, 2**70, -(2**63) - 1, 10**30, 2**63])
def test_a_seed_outside_signed_64_bits_is_refused(seed: int) -> None:
    refused(lambda: sampling_params(chat(seed=seed, n=2), 5, LIMITS), "seed", "64-bit")
    refused(lambda: sampling_params(chat(seed=seed, temperature=0), 5, LIMITS), "seed")


@pytest.mark.parametrize("seed", [-(2**63), -1, 0, 2**63 - 1])
def test_a_seed_inside_signed_64_bits_is_kept(seed: int) -> None:
    assert sampling_params(chat(seed=seed, n=4), 5, LIMITS).seed == seed


def test_null_n_means_one() -> None:
    assert sampling_params(chat(n=None), 5, LIMITS).n == 1
    assert sampling_params(completion(n=None), 5, LIMITS).n == 1
    refused(lambda: sampling_params(chat(n=0), 5, LIMITS), "n")


@pytest.mark.parametrize("name", ["presence_penalty", "frequency_penalty"])
def test_penalties_in_minus_2_to_2_are_kept_and_others_refused(name: str) -> None:
    for value in (50, -2.5, 2.0001, -2.0001, float("nan"), float("inf")):
        refused(lambda value=value: sampling_params(chat(**{name: value}), 5, LIMITS), name, "between -2 and 2")
        refused(lambda value=value: sampling_params(completion(**{name: value}), 5, LIMITS), name)
    for value in (-2, -2.0, -0.5, 0.5, 1, 2.0):
        params = sampling_params(chat(**{name: value}), 5, LIMITS)
        assert getattr(params, name) == float(value) and params.penalized
        assert getattr(sampling_params(completion(**{name: value}), 5, LIMITS), name) == float(value)
    for value in (0, 0.0, None):
        params = sampling_params(chat(**{name: value}), 5, LIMITS)
        assert getattr(params, name) == 0.0 and not params.penalized
    other = "frequency_penalty" if name == "presence_penalty" else "presence_penalty"
    both = sampling_params(chat(**{name: 1.5, other: -1.0}), 5, LIMITS)
    assert (getattr(both, name), getattr(both, other)) == (1.5, -1.0)
    assert not sampling_params(chat(**{name: 1.5}, temperature=0), 5, LIMITS).greedy


def test_logit_bias_is_checked_and_becomes_sorted_id_value_pairs() -> None:
    params = sampling_params(chat(logit_bias={"7": 5, "3": -100, "99": 100}), 5, LIMITS)
    assert params.logit_bias == ((3, -100.0), (7, 5.0), (99, 100.0))
    assert sampling_params(chat(logit_bias={}), 5, LIMITS).logit_bias == ()
    refused(lambda: sampling_params(chat(logit_bias={"5": 101}), 5, LIMITS), "logit_bias", "between -100 and 100")
    refused(lambda: sampling_params(chat(logit_bias={"5": -100.5}), 5, LIMITS), "logit_bias")
    for key in ("100", "-1", "abc", "²", "1.5", ""):
        refused(lambda key=key: sampling_params(chat(logit_bias={key: 1}), 5, LIMITS), "logit_bias", "vocabulary")
    with pytest.raises(msgspec.ValidationError):  # a value that is not a number never reaches the check
        chat(logit_bias={"5": "high"})


def test_stop_strings_and_stop_token_ids_are_checked() -> None:
    refused(lambda: sampling_params(chat(stop=""), 5, LIMITS), "stop", "empty")
    refused(lambda: sampling_params(chat(stop=["x", ""]), 5, LIMITS), "stop", "empty")
    for token in (-1, 100, 10**9):
        refused(lambda token=token: sampling_params(chat(stop_token_ids=[3, token]), 5, LIMITS),
                "stop_token_ids", "vocabulary")
    params = sampling_params(chat(stop="x", stop_token_ids=[0, 99]), 5, LIMITS)
    assert (params.stop, params.stop_token_ids) == (("x",), (0, 99))


def test_a_too_long_prompt_is_blamed_on_the_field_that_holds_it() -> None:
    refused(lambda: sampling_params(completion(), 600, LIMITS, prompt_param="prompt"), "prompt", "maximum context")
    refused(lambda: sampling_params(chat(), 600, LIMITS), "messages", "maximum context")


def test_top_logprobs_needs_logprobs_true() -> None:
    refused(lambda: chat_top_logprobs(chat(top_logprobs=2)), "top_logprobs", "logprobs")
    refused(lambda: chat_top_logprobs(chat(top_logprobs=2, logprobs=False)), "top_logprobs")
    assert chat_top_logprobs(chat(top_logprobs=2, logprobs=True)) == 2
    assert chat_top_logprobs(chat(logprobs=True)) == 0
    assert chat_top_logprobs(chat(logprobs=None)) == 0


def test_completions_refuse_echo_suffix_and_best_of_but_accept_their_neutral_values() -> None:
    refused(lambda: completion_logprobs(completion(echo=True)), "echo", "not supported by the bundled backend")
    refused(lambda: completion_logprobs(completion(suffix="end")), "suffix", "not supported by the bundled backend")
    refused(lambda: completion_logprobs(completion(best_of=3)), "best_of", "not supported by the bundled backend")
    refused(lambda: completion_logprobs(completion(best_of=1, n=2)), "best_of", "at least n")
    for neutral in ({"echo": False}, {"echo": None}, {"suffix": None}, {"best_of": None}, {"best_of": 1},
                    {"best_of": 2, "n": 2}, {"logprobs": None}, {"logprobs": False}):
        assert completion_logprobs(completion(**neutral)) is None, neutral


def test_completions_logprobs_is_a_count_up_to_20() -> None:
    assert completion_logprobs(completion(logprobs=0)) == 0
    assert completion_logprobs(completion(logprobs=5)) == 5
    for bad in (True, -1, 21):
        refused(lambda bad=bad: completion_logprobs(completion(logprobs=bad)), "logprobs")


def encode(text: str) -> list[int]:
    return [ord(c) % 100 for c in text]


@pytest.mark.parametrize(("prompt", "ids"), [
    ("ab", [97, 98]), (["ab"], [97, 98]), ([5, 6, 0, 99], [5, 6, 0, 99]), ([[5, 6]], [5, 6]),
])
def test_prompts_that_are_one_prompt(prompt, ids) -> None:
    assert parse_prompt(prompt, encode, 100) == ids


@pytest.mark.parametrize(("prompt", "needle"), [
    ([], "must not be empty"), ("", "must not be empty"), ([""], "must not be empty"), ([[]], "must not be empty"),
    (["a", "b"], "batched prompts"), ([[1], [2]], "batched prompts"),
    ([True, 5], "token ids"), ([5, False], "token ids"), ([1.0, 2], "token ids"), ([5, "a"], "token ids"),
    ([-1], "within the vocabulary"), ([100], "within the vocabulary"), ([10**7], "within the vocabulary"),
    ({"a": 1}, "must be a string"), (None, "must be a string"), (5, "must be a string"),
])
def test_prompts_that_are_refused(prompt, needle: str) -> None:
    refused(lambda: parse_prompt(prompt, encode, 100), "prompt", needle)


@pytest.mark.parametrize(("part", "param", "needle"), [
    ({"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}, "messages[1].content[1]",
     "'image_url': only text parts"),
    ({"type": "input_audio", "input_audio": {"data": "", "format": "wav"}}, "messages[1].content[1]", "input_audio"),
    ("bare string", "messages[1].content[1]", "content part object"),
    ({"type": "text", "text": 5}, "messages[1].content[1].text", "must be a string"),
    ({"type": "text"}, "messages[1].content[1].text", "must be a string"),
])
def test_non_text_content_parts_are_refused_naming_message_and_part(part, param: str, needle: str) -> None:
    messages = [{"role": "system", "content": "Be brief."},
                {"role": "user", "content": [{"type": "text", "text": "What is this?"}, part]}]
    refused(lambda: validate_messages(messages), param, needle)


def test_text_parts_and_tool_call_history_are_accepted() -> None:
    validate_messages([
        {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "22C"},
    ])


@pytest.mark.parametrize(("calls", "param"), [
    ("get_weather()", "messages[0].tool_calls"),
    ([{"type": "function"}], "messages[0].tool_calls[0]"),
    ([{"function": {"name": "f", "arguments": {"city": "Paris"}}}], "messages[0].tool_calls[0].function.arguments"),
])
def test_malformed_tool_calls_are_refused(calls, param: str) -> None:
    refused(lambda: validate_messages([{"role": "assistant", "content": None, "tool_calls": calls}]), param)


def test_tool_choice_shapes() -> None:
    for accepted in (None, "auto", "none", "required", {"type": "function", "function": {"name": "get_weather"}}):
        check_tool_choice(accepted)
    refused(lambda: check_tool_choice({"type": "function", "function": {}}), "tool_choice", "must be")
    refused(lambda: check_tool_choice("sometimes"), "tool_choice", "must be")

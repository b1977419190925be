"""The backend's OpenAI surface on the tiny random-weight model (Litestar's test client, the paged engine):
seeds over the whole signed 64-bit range, logprobs in OpenAI's chat and legacy completions formats,
logit_bias, presence / frequency penalties, 400s for what the bundled backend does not implement,
/v1/models/default and HEAD /health."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from backend.config import BackendConfig
from backend.engine import Engine, EngineConfig, EngineService
from backend.generation import TokenEvent
from backend.sampling import SamplingParams
from backend.server import TokenLogprobs, create_backend_app
from tests.backend.test_engine_core import REPEATING_PROMPT, penalized_oracle_tokens
from tests.backend.test_engine_support import ByteTokenizer, tiny_loaded
from tests.tokenization.test_tokenizer import byte_level_tokenizer

MODEL = "tiny"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    loaded = tiny_loaded()
    engine = Engine(loaded, EngineConfig(block_size=4, num_blocks=200, max_model_len=512, max_num_seqs=16,
                                         max_num_batched_tokens=64, max_n=4))
    service = EngineService(engine)
    app = create_backend_app(BackendConfig(served_model_name=MODEL, max_model_len=512, max_n=4), loaded, service)
    with TestClient(app) as test_client:
        yield test_client


def chat(client: TestClient, **fields):
    body = {"model": MODEL, "messages": [{"role": "user", "content": "hi"}], "max_tokens": 6, "temperature": 1.0,
            **fields}
    return client.post("/v1/chat/completions", json=body)


def completion(client: TestClient, **fields):
    body = {"model": MODEL, "prompt": [5, 6, 7, 8], "max_tokens": 6, "temperature": 0, **fields}
    return client.post("/v1/completions", json=body)


def sse(response) -> list[dict]:
    assert response.status_code == 200, response.text
    return [json.loads(line[6:]) for line in response.text.splitlines()
            if line.startswith("data: ") and line != "data: [DONE]"]


def texts(response) -> list[str]:
    assert response.status_code == 200, response.text
    return [c["message"]["content"] if "message" in c else c["text"] for c in response.json()["choices"]]


# ---------------------------------------------------------------- seeds


@pytest.mark.parametrize("fields", [
    {"seed": 2**64 - 1, "n": 2}, {"seed": 2**70}, {"seed": -(2**63) - 1}, {"seed": 10**30, "temperature": 0},
    {"seed": 2**70, "stream": True}, {"seed": 2**64 - 1, "n": 2, "stream": True},
])
def test_a_seed_outside_signed_64_bits_is_a_400_naming_seed(client: TestClient, fields: dict) -> None:
    for response in (chat(client, **fields), completion(client, **fields)):
        assert response.status_code == 400, response.text  # before any stream starts: no 200 then an error
        assert response.json()["error"]["param"] == "seed"


def test_extreme_signed_seeds_work_reproduce_and_differ(client: TestClient) -> None:
    low = chat(client, seed=-1, n=2)
    high = chat(client, seed=2**63 - 1, n=2)
    assert texts(low) == texts(chat(client, seed=-1, n=2))
    assert texts(low) != texts(high)
    assert texts(chat(client, seed=-(2**63), n=4))  # seed + index wraps instead of overflowing
    streamed = sse(chat(client, seed=2**63 - 1, n=2, stream=True))
    assert not any("error" in chunk for chunk in streamed)


# ---------------------------------------------------------------- logprobs


def test_chat_logprobs_bytes_reproduce_the_content(client: TestClient) -> None:
    choice = chat(client, logprobs=True, top_logprobs=3, temperature=0, ignore_eos=True).json()["choices"][0]
    entries = choice["logprobs"]["content"]
    assert len(entries) == 6
    assert "".join(e["token"] for e in entries) == choice["message"]["content"]
    assert bytes(b for e in entries for b in e["bytes"]) == choice["message"]["content"].encode()
    for entry in entries:
        assert len(entry["top_logprobs"]) == 3
        assert all(alt["bytes"] == list(alt["token"].encode()) for alt in entry["top_logprobs"])
        assert entry["top_logprobs"][0]["token"] == entry["token"]  # greedy picks the most likely


def test_streamed_chat_logprobs_equal_the_non_streamed_ones(client: TestClient) -> None:
    fields = {"logprobs": True, "top_logprobs": 2, "temperature": 0, "ignore_eos": True}
    whole = chat(client, **fields).json()["choices"][0]["logprobs"]["content"]
    chunks = sse(chat(client, stream=True, **fields))
    streamed = [e for c in chunks for choice in c["choices"] for e in (choice["logprobs"] or {}).get("content", [])]
    assert streamed == whole


def test_a_stop_token_adds_no_text_and_no_logprob(client: TestClient) -> None:
    fields = {"logit_bias": {"9": 100}, "stop_token_ids": [9], "temperature": 0}
    choice = chat(client, logprobs=True, **fields).json()["choices"][0]
    assert (choice["message"]["content"], choice["finish_reason"], choice["logprobs"]) == ("", "stop", {"content": []})
    legacy = completion(client, logprobs=1, **fields).json()["choices"][0]
    assert legacy["logprobs"] == {"tokens": [], "token_logprobs": [], "top_logprobs": [], "text_offset": []}


def test_completions_logprobs_use_the_legacy_format(client: TestClient) -> None:
    body = completion(client, logprobs=2, ignore_eos=True).json()
    choice = body["choices"][0]
    lp = choice["logprobs"]
    assert set(lp) == {"tokens", "token_logprobs", "top_logprobs", "text_offset"}
    assert len(lp["tokens"]) == len(lp["token_logprobs"]) == len(lp["top_logprobs"]) == body["usage"][
        "completion_tokens"] == 6
    text = choice["text"]
    assert "".join(lp["tokens"]) == text
    for token, logprob, top, offset in zip(lp["tokens"], lp["token_logprobs"], lp["top_logprobs"], lp["text_offset"],
                                           strict=True):
        assert text[offset:offset + len(token)] == token
        assert top[token] == logprob and 2 <= len(top) <= 3  # the alternatives and always the sampled token
        assert logprob == max(top.values())
    chunks = sse(completion(client, logprobs=2, ignore_eos=True, stream=True))
    merged = {key: [v for c in chunks for v in c["choices"][0]["logprobs"][key]] for key in lp}
    assert merged == lp
    zero = completion(client, logprobs=0).json()["choices"][0]["logprobs"]
    assert zero["top_logprobs"][0] == {zero["tokens"][0]: zero["token_logprobs"][0]}  # logprobs=0: the sampled one
    assert completion(client).json()["choices"][0]["logprobs"] is None


def test_logprob_tokens_of_a_byte_level_vocabulary_are_text_and_bytes() -> None:
    tok = byte_level_tokenizer()
    text = "Hi there 🍣\n"
    ids = tok.encode(text)
    lp = TokenLogprobs(tok, frozenset({1}))
    events = [TokenEvent(0, "", token_id=i, logprob=-0.5, token_text=tok.token_text(i),
                         top_logprobs=[(tok.token_text(i), -0.5), ("Ġthere", -1.0)]) for i in ids]
    entries = [e for event in events for e in lp.chat(event)]
    assert bytes(b for e in entries for b in e["bytes"]) == text.encode()
    tokens = [e["token"] for e in entries]
    assert " there" in tokens and "\n" in tokens and "Ġthere" not in tokens and "Ċ" not in tokens
    assert "\ufffd" in tokens  # a piece of the emoji: a partial character, shown as U+FFFD
    assert entries[0]["top_logprobs"][1] == {"token": " there", "logprob": -1.0, "bytes": list(b" there")}
    assert lp.legacy(events[1], 2)["tokens"] == [entries[1]["token"]]
    eos = TokenEvent(0, "", token_id=1, finish_reason="stop", logprob=-0.1, token_text="<|im_end|>")
    assert lp.chat(eos) == [] and lp.legacy(eos, 5)["tokens"] == []


def test_a_tokenizer_without_symbol_bytes_reports_its_pieces_utf8() -> None:
    lp = TokenLogprobs(ByteTokenizer(96), frozenset())
    (entry,) = lp.chat(TokenEvent(0, "é", token_id=4, logprob=-1.0, token_text="é"))
    assert (entry["token"], entry["bytes"]) == ("é", [0xC3, 0xA9])


# ---------------------------------------------------------------- logit_bias


def test_logit_bias_steers_greedy_sampled_and_n_choices(client: TestClient) -> None:
    piece = ByteTokenizer(96).token_text(5)
    assert texts(chat(client, temperature=0, logit_bias={"5": 100}, ignore_eos=True)) == [piece * 6]
    assert texts(completion(client, logit_bias={"5": 100}, ignore_eos=True)) == [piece * 6]
    assert texts(chat(client, temperature=1.0, n=3, logit_bias={"5": 100}, ignore_eos=True)) == [piece * 6] * 3
    plain = texts(chat(client, temperature=0, ignore_eos=True))[0]
    assert texts(chat(client, temperature=0, logit_bias={"5": 0}, ignore_eos=True)) == [plain]


# ---------------------------------------------------------------- presence / frequency penalties


def test_penalties_follow_openai_per_choice_and_streamed(client: TestClient) -> None:
    """The completion of a token-id prompt, at temperature 0, equals the single-request path with the
    penalties applied by hand; each of n = 2 choices counts only its own tokens."""
    loaded = tiny_loaded()  # the same seed: the client's weights
    tokenizer = ByteTokenizer(96)
    fields = {"prompt": REPEATING_PROMPT, "max_tokens": 10, "ignore_eos": True}
    plain = texts(completion(client, **fields))[0]
    for penalties in ({"frequency_penalty": 2.0}, {"presence_penalty": 2.0, "frequency_penalty": 1.0},
                      {"frequency_penalty": -2.0}):
        params = SamplingParams(max_tokens=10, temperature=0.0, ignore_eos=True, **penalties)
        expected = tokenizer.decode(penalized_oracle_tokens(loaded, REPEATING_PROMPT, params))
        assert texts(completion(client, **fields, **penalties)) == [expected], penalties
        assert texts(completion(client, n=2, **fields, **penalties)) == [expected] * 2, penalties
        streamed = sse(completion(client, stream=True, **fields, **penalties))
        assert "".join(c["choices"][0]["text"] for c in streamed if c["choices"]) == expected
    assert texts(completion(client, frequency_penalty=2.0, **fields)) != [plain]
    assert texts(completion(client, frequency_penalty=0, presence_penalty=None, **fields)) == [plain]


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(("path", "fields", "param", "needle"), [
    ("completions", {"echo": True}, "echo", "not supported by the bundled backend"),
    ("completions", {"suffix": "}"}, "suffix", "not supported by the bundled backend"),
    ("completions", {"best_of": 3}, "best_of", "not supported by the bundled backend"),
    ("completions", {"logprobs": 21}, "logprobs", "between 0 and 20"),
    ("chat", {"tool_choice": "required"}, "tool_choice", "has no 'tools'"),
    ("chat", {"tool_choice": {"type": "function", "function": {"name": "get_weather"}}}, "tool_choice",
     "has no 'tools'"),
    ("chat", {"presence_penalty": 50}, "presence_penalty", "between -2 and 2"),
    ("chat", {"frequency_penalty": 2.5}, "frequency_penalty", "between -2 and 2"),
    ("completions", {"presence_penalty": -2.01}, "presence_penalty", "between -2 and 2"),
    ("completions", {"frequency_penalty": -3, "stream": True}, "frequency_penalty", "between -2 and 2"),
    ("chat", {"logit_bias": {"5": 150}}, "logit_bias", "between -100 and 100"),
    ("chat", {"logit_bias": {"96": 1}}, "logit_bias", "within the vocabulary (0 to 95)"),
    ("chat", {"top_logprobs": 2}, "top_logprobs", "requires logprobs"),
    ("chat", {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]},
     "messages[0].content[0]", "only text parts"),
    ("chat", {"messages": [{"role": "user", "content": ["bare"]}]}, "messages[0].content[0]", "content part"),
    ("chat", {"messages": [{"role": "user", "content": [{"type": "text", "text": 5}]}]},
     "messages[0].content[0].text", "must be a string"),
    ("completions", {"prompt": list(range(2, 90)) * 6}, "prompt", "maximum context length"),
    ("completions", {"prompt": []}, "prompt", "must not be empty"),
    ("completions", {"prompt": [True, 5]}, "prompt", "token ids"),
    ("completions", {"prompt": [-1]}, "prompt", "within the vocabulary"),
    ("completions", {"prompt": [96]}, "prompt", "within the vocabulary"),
    ("chat", {"stop": ""}, "stop", "must not be empty"),
    ("completions", {"stop_token_ids": [96]}, "stop_token_ids", "within the vocabulary"),
    ("completions", {"stop_token_ids": [-1]}, "stop_token_ids", "within the vocabulary"),
])
def test_unsupported_or_invalid_fields_are_a_400_naming_them(client: TestClient, path: str, fields: dict,
                                                           param: str, needle: str) -> None:
    response = (chat if path == "chat" else completion)(client, **fields)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["param"] == param and needle in error["message"], error


@pytest.mark.parametrize(("path", "fields"), [
    ("chat", {"n": None}), ("completions", {"n": None}), ("completions", {"echo": False, "suffix": None,
                                                                         "best_of": 1, "logprobs": None}),
    ("chat", {"tool_choice": "auto"}), ("chat", {"tool_choice": "none"}), ("chat", {"logprobs": None}),
    ("chat", {"presence_penalty": 0, "frequency_penalty": 0.0, "logit_bias": {}}),
    ("completions", {"prompt": [[5, 6, 7]]}), ("completions", {"prompt": ["hello"]}),
])
def test_neutral_values_are_accepted(client: TestClient, path: str, fields: dict) -> None:
    response = (chat if path == "chat" else completion)(client, **fields)
    assert response.status_code == 200, response.text
    assert len(response.json()["choices"]) == 1


# ---------------------------------------------------------------- small endpoints


def test_the_default_alias_is_a_model_and_health_answers_head(client: TestClient) -> None:
    assert chat(client, model="default").status_code == 200
    card = client.get("/v1/models/default")
    assert card.status_code == 200 and card.json()["id"] == MODEL
    assert client.get("/v1/models/other").status_code == 404
    head = client.head("/health")
    assert head.status_code == 200 and head.content == b""
    assert client.get("/health").json()["status"] == "ok"

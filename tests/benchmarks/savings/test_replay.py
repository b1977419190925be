"""The replay upstream: deterministic answers that follow the stored labels, over real HTTP."""

from __future__ import annotations

import json
import math

import openai

from benchmarks.harness import serve_in_thread
from benchmarks.savings.replay import ReplayBook, complete, generic_answer, handle, key_letter, make_app
from benchmarks.savings.trace import grade
from tests.benchmarks.savings.conftest import GSM_ROWS, MMLU_ROWS, STRONG, WEAK


def _body(model: str, question: str, **extra) -> dict:
    return {"model": model, "messages": [{"role": "system", "content": "Be brief."},
                                         {"role": "user", "content": question}], **extra}


def test_same_request_same_bytes(book: ReplayBook) -> None:
    body = json.dumps(_body(WEAK, MMLU_ROWS[1][0])).encode()
    first = handle(book, "POST", "/v1/chat/completions", body)
    assert first[0] == 200
    assert all(handle(book, "POST", "/v1/chat/completions", body) == first for _ in range(3))


def test_mmlu_answers_follow_the_labels(book: ReplayBook) -> None:
    for prompt, weak_ok, strong_ok in MMLU_ROWS:
        key = key_letter(prompt)
        for model, ok in ((WEAK, weak_ok == "True"), (STRONG, strong_ok == "True")):
            text = complete(book, _body(model, prompt)).text
            assert (text[0] == key) is ok
            # the option's own text follows the letter, read from the prompt
            assert text[3:] and f"\n{text[0]}. {text[3:]}\n" in prompt
            ref = {"source": "mmlu", "id": f"tiny:{MMLU_ROWS.index((prompt, weak_ok, strong_ok))}"}
            assert grade(book, ref, text) is ok


def test_gsm8k_gives_each_model_its_stored_answer_with_token_counts(book: ReplayBook) -> None:
    question, _, _, weak_text, strong_text = GSM_ROWS[2]
    weak, strong = complete(book, _body(WEAK, question)), complete(book, _body(STRONG, question))
    assert (weak.text, strong.text) == (weak_text, strong_text)
    assert strong.completion_tokens == math.ceil(len(strong_text) / 4)
    assert strong.prompt_tokens == (4 + math.ceil(len("Be brief.") / 4)) + (4 + math.ceil(len(question) / 4))
    assert grade(book, {"source": "gsm8k", "id": "2"}, strong.text)
    assert not grade(book, {"source": "gsm8k", "id": "2"}, weak.text)  # 41, the right answer is 40


def test_max_tokens_cuts_the_answer(book: ReplayBook) -> None:
    done = complete(book, _body(STRONG, GSM_ROWS[0][0], max_tokens=2))
    assert (done.text, done.completion_tokens, done.finish_reason) == ("The answ", 2, "length")


def test_unknown_prompt_gets_a_generic_answer_and_unknown_model_a_404(book: ReplayBook) -> None:
    assert complete(book, _body(WEAK, "Tell me a joke")).text == generic_answer(WEAK, "Tell me a joke")
    assert generic_answer(WEAK, "Tell me a joke") != generic_answer(STRONG, "Tell me a joke")
    status, payload, _ = handle(book, "POST", "/v1/chat/completions", json.dumps(_body("gpt-5", "hi")).encode())
    assert status == 404 and "unknown model" in json.loads(payload)["error"]["message"]
    status, payload, _ = handle(book, "POST", "/v1/chat/completions", b"{not json")
    assert status == 400 and json.loads(payload)["error"]["message"]


def test_openai_sdk_against_the_server_both_models_streamed_and_not(book: ReplayBook) -> None:
    question, _, _, weak_text, strong_text = GSM_ROWS[0]
    with serve_in_thread(make_app(book)) as base:
        client = openai.OpenAI(base_url=base + "/v1", api_key="x")
        assert sorted(m.id for m in client.models.list()) == sorted([WEAK, STRONG])
        answers = [client.chat.completions.create(model=model, messages=[{"role": "user", "content": question}])
                   for model in (WEAK, STRONG, WEAK)]
        assert [a.choices[0].message.content for a in answers] == [weak_text, strong_text, weak_text]
        assert answers[0].usage.completion_tokens == math.ceil(len(weak_text) / 4)
        stream = client.chat.completions.create(model=STRONG, messages=[{"role": "user", "content": question}],
                                                stream=True, stream_options={"include_usage": True})
        chunks = list(stream)
        assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == strong_text
        assert chunks[-1].usage.completion_tokens == math.ceil(len(strong_text) / 4)


def test_n_choices_are_returned_and_each_is_billed(book: ReplayBook) -> None:
    question, _, _, _, strong_text = GSM_ROWS[0]
    one, three = complete(book, _body(STRONG, question)), complete(book, _body(STRONG, question, n=3))
    assert three.text == one.text and three.choices == 3
    assert (three.prompt_tokens, three.completion_tokens) == (one.prompt_tokens, 3 * one.completion_tokens)
    status, payload, _ = handle(book, "POST", "/v1/chat/completions", json.dumps(_body(STRONG, question, n=3)).encode())
    answer = json.loads(payload)
    assert status == 200 and [c["index"] for c in answer["choices"]] == [0, 1, 2]
    assert {c["message"]["content"] for c in answer["choices"]} == {strong_text}
    assert answer["usage"]["completion_tokens"] == 3 * math.ceil(len(strong_text) / 4)
    status, payload, _ = handle(book, "POST", "/v1/chat/completions",
                                json.dumps(_body(STRONG, question, n=2, stream=True)).encode())
    chunks = [json.loads(raw[6:]) for raw in payload.decode().split("\n\n") if raw.startswith("data: {")]
    texts = {}
    for chunk in chunks:
        for choice in chunk["choices"]:
            texts[choice["index"]] = texts.get(choice["index"], "") + (choice["delta"].get("content") or "")
    assert texts == {0: strong_text, 1: strong_text} and chunks[-1]["usage"]["completion_tokens"] == 2 * math.ceil(
        len(strong_text) / 4)

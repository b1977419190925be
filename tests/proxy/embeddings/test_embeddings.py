"""/v1/embeddings through the real openai SDK: the bundled MiniLM (the real model), the exact cache per
text, cost and saving in the request log, forwarding to an upstream's embedding model, keys, batch
jobs, and 400s for every kind of bad input."""

from __future__ import annotations

import base64
import io
import json
import time
from dataclasses import replace

import httpx
import numpy as np
import openai
import pytest
from openai import OpenAI

from proxy.config.sections import AdminConfig, AuthSettings, BatchSettings, EmbeddingsSettings, ModelAlias
from proxy.http.app import create_app
from proxy.pricing import ModelPrice
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import read_body, serve_in_thread, serve_lifespan

MODEL = "all-minilm-l6-v2"
TEXTS = ["The cat sat on the mat.", "Quarterly revenue rose by 12 percent.", "How do I reset my password?"]


class EmbeddingUpstream:
    """An upstream with an embedding model: vector i of a text is ``[len(text), i, 1]``; or a 404 for every
    ``/embeddings`` call (``serves=False``)."""

    def __init__(self, serves: bool = True) -> None:
        self.serves = serves
        self.requests: list[dict] = []

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        body = json.loads(await read_body(receive) or b"{}")
        self.requests.append({**body, "_path": scope["path"]})
        if not self.serves or not scope["path"].endswith("/embeddings"):
            status, payload = 404, {"error": {"message": "Not Found", "type": "invalid_request_error"}}
        else:
            inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
            status, payload = 200, {"object": "list", "model": body["model"], "data": [
                {"object": "embedding", "index": i, "embedding": [float(len(t)), float(i), 1.0]}
                for i, t in enumerate(inputs)], "usage": {"prompt_tokens": 7 * len(inputs), "total_tokens": 7 * len(inputs)}}
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": json.dumps(payload).encode()})


@pytest.fixture
def upstream():
    script = EmbeddingUpstream()
    with serve_in_thread(script) as url:
        script.url = url
        yield script


def _settings(make_settings, url: str, **changes):
    settings = make_settings(url)
    return replace(settings, prices=(ModelPrice(MODEL, input_per_mtok=100.0), ModelPrice("up-embed", input_per_mtok=50.0)),
                   models=(*settings.models, ModelAlias("up-embed", "fake", "upstream-embedder")), **changes)


def _client(proxy: str, key: str = "sk-caller") -> OpenAI:
    return OpenAI(base_url=proxy + "/v1", api_key=key, max_retries=0)


def test_bundled_model_float_and_base64_match_the_model_and_a_reembed_costs_nothing(make_settings, upstream,
                                                                                      embedder, tmp_path):
    with serve_in_thread(create_app(_settings(make_settings, upstream.url), embedder=embedder)) as proxy:
        client = _client(proxy)
        first = client.embeddings.with_raw_response.create(model=MODEL, input=TEXTS, encoding_format="float")
        floats = first.parse()
        again = client.embeddings.with_raw_response.create(model=MODEL, input=TEXTS)  # the SDK asks for base64
        b64 = httpx.post(f"{proxy}/v1/embeddings", json={"model": MODEL, "input": TEXTS[0],
                                                          "encoding_format": "base64"}).json()
    direct = embedder.embed(TEXTS)
    got = np.array([d.embedding for d in floats.data], dtype=np.float32)
    assert got.shape == (3, 384) and [d.index for d in floats.data] == [0, 1, 2]
    np.testing.assert_allclose(got, direct, atol=1e-6)
    assert floats.model == MODEL and floats.usage.prompt_tokens == floats.usage.total_tokens > 3 * 2
    assert first.headers["x-thrifty-cache"] == "miss" and first.headers["x-thrifty-cache-hits"] == "0/3"
    assert again.headers["x-thrifty-cache"] == "exact" and again.headers["x-thrifty-cache-hits"] == "3/3"
    np.testing.assert_allclose(np.array([d.embedding for d in again.parse().data]), got, atol=1e-7)
    decoded = np.frombuffer(base64.b64decode(b64["data"][0]["embedding"]), dtype="<f4")
    # embedded alone, not in a batch of three: equal up to the batch's float reduction order
    np.testing.assert_allclose(decoded, got[0], atol=1e-6)
    rows = wait_for_log_rows(tmp_path / "proxy.db", "endpoint, model_requested, prompt_tokens, cached_tokens, "
                             "completion_tokens, cost_usd, saved_usd, cache_outcome, status_code", 3)
    assert [r[0] for r in rows] == ["embeddings"] * 3
    tokens = floats.usage.prompt_tokens
    assert rows[0][2:] == (tokens, 0, 0, pytest.approx(tokens * 100 / 1e6), pytest.approx(0.0), "miss", 200)
    assert rows[1][2:] == (tokens, tokens, 0, pytest.approx(0.0), pytest.approx(tokens * 100 / 1e6), "exact", 200)


def test_dimensions_token_arrays_and_partial_hits(make_settings, upstream, embedder):
    with serve_in_thread(create_app(_settings(make_settings, upstream.url), embedder=embedder)) as proxy:
        client = _client(proxy)
        short = client.embeddings.create(model=MODEL, input=TEXTS[0], dimensions=64, encoding_format="float")
        from tokenizers import Tokenizer

        from caches.embedder import default_minilm_path

        ids = Tokenizer.from_file(str(default_minilm_path() / "tokenizer.json")).encode(
            "hello world", add_special_tokens=False).ids
        by_ids = client.embeddings.create(model=MODEL, input=[ids], encoding_format="float")
        mixed = client.embeddings.with_raw_response.create(model=MODEL, input=[TEXTS[1], "a new text", TEXTS[1]],
                                                           encoding_format="float")
    full = embedder.embed([TEXTS[0]])[0]
    vector = np.array(short.data[0].embedding)
    assert vector.shape == (64,) and np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)
    np.testing.assert_allclose(vector, full[:64] / np.linalg.norm(full[:64]), atol=1e-6)
    np.testing.assert_allclose(by_ids.data[0].embedding, embedder.embed(["hello world"])[0], atol=1e-6)
    assert mixed.headers["x-thrifty-cache-hits"] == "0/3"  # nothing of these was embedded before...
    data = mixed.parse().data
    np.testing.assert_array_equal(data[0].embedding, data[2].embedding)  # ...and the repeated text once


BAD = [
    ({"model": MODEL, "input": []}, "input", "empty_input"),
    ({"model": MODEL, "input": ""}, "input", "empty_input"),
    ({"model": MODEL, "input": ["fine", ""]}, "input[1]", "empty_input"),
    ({"model": MODEL, "input": ["x"] * 10_000}, "input", "too_many_inputs"),
    ({"model": MODEL, "input": ["fine", None]}, "input[1]", None),
    ({"model": MODEL, "input": ["fine", 3]}, "input[1]", None),
    ({"model": MODEL, "input": [{"text": "x"}]}, "input[0]", None),
    ({"model": MODEL, "input": [[1, 2], []]}, "input[1]", "empty_input"),
    ({"model": MODEL, "input": [5, -1]}, "input", None),
    ({"model": MODEL, "input": [[101, 10**9]]}, "input", "invalid_token_id"),
    ({"model": MODEL, "input": 12.5}, "input", None),
    ({"model": MODEL}, "input", None),
    ({"model": MODEL, "input": "x", "encoding_format": "int8"}, "encoding_format", None),
    ({"model": MODEL, "input": "x", "dimensions": 0}, "dimensions", None),
    ({"model": MODEL, "input": "x", "dimensions": 385}, "dimensions", "invalid_dimensions"),
    ({"model": "gpt-test", "input": "x"}, "model", "endpoint_not_supported"),
]


def test_bad_input_is_an_openai_400_naming_the_field(make_settings, upstream, embedder):
    settings = _settings(make_settings, upstream.url)
    settings = replace(settings, upstreams=(replace(settings.upstreams[0], name="local"),),
                       models=tuple(replace(m, upstream="local") for m in settings.models))  # gpt-test: bundled
    with serve_in_thread(create_app(settings, embedder=embedder)) as proxy:
        answers = [httpx.post(f"{proxy}/v1/embeddings", json=body) for body, _, _ in BAD]
    for (body, param, code), response in zip(BAD, answers, strict=True):
        assert response.status_code == 400, (body, response.text)
        error = response.json()["error"]
        assert (error["type"], error["param"], error["code"]) == ("invalid_request_error", param, code), body
        if code == "too_many_inputs":
            assert "10000" in error["message"] and "2048" in error["message"]
        if body.get("model") == "gpt-test":
            assert "bundled backend" in error["message"] and MODEL in error["message"]


def test_an_input_beyond_the_window_is_cut_and_said_so(make_settings, upstream, embedder):
    long_text = " ".join(["word"] * 600)
    with serve_in_thread(create_app(_settings(make_settings, upstream.url), embedder=embedder)) as proxy:
        response = httpx.post(f"{proxy}/v1/embeddings", json={"model": MODEL, "input": [long_text, "short"]},
                              timeout=60.0)
    assert response.status_code == 200
    assert response.headers["x-thrifty-embeddings-truncated"] == "1"
    assert response.json()["usage"]["prompt_tokens"] == 256 + 3  # the window, [CLS] and [SEP] included


def test_upstream_embedding_models_are_forwarded_and_cached_per_text(make_settings, upstream, embedder, tmp_path):
    with serve_in_thread(create_app(_settings(make_settings, upstream.url), embedder=embedder)) as proxy:
        client = _client(proxy)
        first = client.embeddings.create(model="up-embed", input=["ab", "abcd"], encoding_format="float")
        second = client.embeddings.create(model="up-embed", input=["abcd", "xyz"], encoding_format="float")
        tokens = client.embeddings.create(model="up-embed", input=[[1, 2, 3]], encoding_format="float")
    assert [d.embedding for d in first.data] == [[2.0, 0.0, 1.0], [4.0, 1.0, 1.0]]
    assert [d.embedding for d in second.data] == [[4.0, 1.0, 1.0], [3.0, 0.0, 1.0]]  # "abcd" from the cache
    sent = [(r["_path"], r["model"], r["input"]) for r in upstream.requests]
    assert sent == [("/v1/embeddings", "upstream-embedder", ["ab", "abcd"]),
                    ("/v1/embeddings", "upstream-embedder", ["xyz"]),
                    ("/v1/embeddings", "upstream-embedder", [[1, 2, 3]])]
    assert first.model == second.model == tokens.model == "up-embed"
    rows = wait_for_log_rows(tmp_path / "proxy.db", "upstream, cache_outcome, cached_tokens", 3)
    assert [r[:2] for r in rows] == [("fake", "miss"), ("fake", "miss"), ("fake", "bypass")]
    assert rows[1][2] > 0


def test_an_upstream_without_embeddings_is_a_400_saying_so(make_settings, embedder):
    script = EmbeddingUpstream(serves=False)
    with serve_in_thread(script) as url, serve_in_thread(create_app(_settings(make_settings, url),
                                                                     embedder=embedder)) as proxy:
        with pytest.raises(openai.BadRequestError) as refused:
            _client(proxy).embeddings.create(model="up-embed", input="hi")
    error = refused.value.body
    assert error["code"] == "endpoint_not_supported" and "'fake'" in error["message"]
    assert "/v1/embeddings" in error["message"]


def test_keys_rate_limits_count_embeddings(make_settings, upstream, embedder):
    settings = replace(_settings(make_settings, upstream.url), auth=AuthSettings(mode="keys"),
                       admin=AdminConfig(api_key="admin-secret"))
    with serve_in_thread(create_app(settings, embedder=embedder)) as proxy:
        made = httpx.post(f"{proxy}/admin/keys", headers={"authorization": "Bearer admin-secret"},
                          json={"rpm": 1, "tpm": 200}).json()["key"]
        client = _client(proxy, made)
        assert len(client.embeddings.create(model=MODEL, input="one").data) == 1
        with pytest.raises(openai.RateLimitError):
            client.embeddings.create(model=MODEL, input="two")
        with pytest.raises(openai.AuthenticationError):
            _client(proxy, "sk-made-up").embeddings.create(model=MODEL, input="three")


def test_an_embeddings_batch_job_runs_end_to_end(make_settings, upstream, embedder, tmp_path):
    settings = replace(_settings(make_settings, upstream.url), batch=BatchSettings(poll_interval_s=0.05))
    lines = b"".join(json.dumps({"custom_id": f"doc-{i}", "method": "POST", "url": "/v1/embeddings",
                                 "body": {"model": MODEL, "input": text, "encoding_format": "float"}}).encode() + b"\n"
                     for i, text in enumerate(TEXTS))
    with serve_in_thread(create_app(settings, embedder=embedder)) as proxy:
        client = _client(proxy)
        uploaded = client.files.create(file=("in.jsonl", io.BytesIO(lines)), purpose="batch")
        batch = client.batches.create(input_file_id=uploaded.id, endpoint="/v1/embeddings", completion_window="24h")
        deadline = time.monotonic() + 60
        while (batch := client.batches.retrieve(batch.id)).status not in ("completed", "failed", "expired"):
            assert time.monotonic() < deadline, batch
            time.sleep(0.1)
        assert batch.status == "completed" and batch.request_counts.completed == 3, batch
        out = [json.loads(x) for x in client.files.content(batch.output_file_id).text.splitlines()]
    by_id = {o["custom_id"]: o["response"] for o in out}
    direct = embedder.embed(TEXTS)
    for i in range(3):
        assert by_id[f"doc-{i}"]["status_code"] == 200
        np.testing.assert_allclose(by_id[f"doc-{i}"]["body"]["data"][0]["embedding"], direct[i], atol=1e-6)
    rows = wait_for_log_rows(tmp_path / "proxy.db", "endpoint, batch_id", 3)
    assert {r for r in rows} == {("embeddings", batch.id)}


def test_embeddings_can_be_switched_off(make_settings, upstream, embedder):
    settings = _settings(make_settings, upstream.url, embeddings=EmbeddingsSettings(enabled=False))
    with serve_in_thread(create_app(settings, embedder=embedder)) as proxy:
        listed = [m["id"] for m in httpx.get(f"{proxy}/v1/models").json()["data"]]
        response = httpx.post(f"{proxy}/v1/embeddings", json={"model": MODEL, "input": "x"})
    assert MODEL not in listed
    assert response.status_code == 404 and response.json()["error"]["code"] == "model_not_found"


@pytest.mark.parametrize("toml, words", [
    ("[embeddings]\nmax_inputs = 0\n", "max_inputs"),
    ('[embeddings]\nmodel_name = "smollm2-135m-instruct"\n', "clashes"),
])
def test_bad_embeddings_settings_are_refused(tmp_path, toml, words):
    from proxy.config.settings import SettingsError, load_settings

    path = tmp_path / "thrifty.toml"
    path.write_text(toml)
    with pytest.raises(SettingsError, match=words):
        load_settings(path, environ={})

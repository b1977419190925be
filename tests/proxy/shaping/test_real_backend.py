"""The ``openai`` SDK through the proxy app in front of the real SmolLM2 backend: shaping on gives
the same greedy answers as shaping off when a request holds no volatile span, the default cap ends
a long answer with finish_reason ``length``, and the backend reports the prompt tokens it reused."""

from __future__ import annotations

import time
from dataclasses import replace

import openai
import pytest

from backend.config import BackendConfig
from backend.engine import Engine, EngineConfig, EngineService
from backend.server import create_backend_app
from proxy.config.sections import BUNDLED_UPSTREAM, ModelAlias, UpstreamConfig
from proxy.config.shaping import ShapingSettings
from proxy.http.app import create_app
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import serve_in_thread

pytestmark = pytest.mark.slow

MODEL = "smollm2-135m-instruct"
SYSTEM = "You are a concise assistant for a bicycle shop. Answer in one or two sentences."
TOOLS = [  # rendered into the prompt by the bundled backend (tokenization.chat_sections); shaping reorders them
    {"function": {"parameters": {"properties": {"size": {"type": "string"}}, "type": "object"},
                  "name": "stock_lookup"}, "type": "function"},
    {"type": "function", "function": {"name": "book_repair", "parameters": {"type": "object", "properties": {}}}},
]
REQUESTS = [
    {"messages": [{"role": "user", "content": "What is the capital of France?"}]},
    {"messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "How often should I oil "
                                                                                      "my chain?"}]},
    {"messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Do you sell helmets?"},
                  {"role": "assistant", "content": "Yes, we sell helmets in all sizes."},
                  {"role": "user", "content": "Which size fits a child?"}], "tools": TOOLS},
]


@pytest.fixture(scope="module")
def backend_url(smollm2, thrifty_data_dir):
    config = BackendConfig(data_dir=str(thrifty_data_dir), kv_cache_memory="128MiB", max_num_seqs=8)
    service = EngineService(Engine(smollm2, EngineConfig.from_backend_config(config, smollm2.model.config)))
    with serve_in_thread(create_backend_app(config, smollm2, service)) as url:
        yield url + "/v1"


def proxy_settings(make_settings, backend_url: str, mode: str, **shaping):
    settings = make_settings(backend_url.removesuffix("/v1"))
    return replace(settings, models=(ModelAlias(MODEL, "fake", MODEL),),
                   shaping=ShapingSettings(mode=mode, **shaping))


def test_shaping_on_gives_the_same_greedy_answers_as_off(make_settings, backend_url) -> None:
    answers: dict[str, list[str]] = {}
    for mode in ("off", "safe", "aggressive"):
        app = create_app(proxy_settings(make_settings, backend_url, mode))
        with serve_in_thread(app) as proxy:
            client = openai.OpenAI(base_url=f"{proxy}/v1", api_key="sk-test", max_retries=0, timeout=300)
            answers[mode] = []
            for body in REQUESTS:
                raw = client.chat.completions.with_raw_response.create(model=MODEL, temperature=0, max_tokens=24,
                                                                       **body)
                reply = raw.parse()
                answers[mode].append(reply.choices[0].message.content)
                if mode != "off":
                    assert raw.headers["x-thrifty-shaping"].startswith(mode)
    assert answers["safe"] == answers["off"] and answers["aggressive"] == answers["off"]
    assert all(answers["off"])


def test_the_default_cap_stops_a_long_answer_and_the_log_counts_it(make_settings, backend_url, tmp_path) -> None:
    app = create_app(proxy_settings(make_settings, backend_url, "safe", default_max_tokens=12))
    with serve_in_thread(app) as proxy:
        client = openai.OpenAI(base_url=f"{proxy}/v1", api_key="sk-test", max_retries=0, timeout=300)
        raw = client.chat.completions.with_raw_response.create(
            model=MODEL, temperature=0,
            messages=[{"role": "system", "content": SYSTEM},
                      {"role": "user", "content": "Explain in detail how gears on a bicycle work."}])
        reply = raw.parse()
        assert raw.headers["x-thrifty-cap"] == "default; max_tokens=12"
        assert reply.choices[0].finish_reason == "length" and reply.usage.completion_tokens == 12
        again = client.chat.completions.create(  # same system prompt: its tokens come from the prefix cache
            model=MODEL, temperature=0, max_tokens=4,
            messages=[{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Hi!"}])
        assert again.usage.prompt_tokens_details.cached_tokens > 0
    rows = wait_for_log_rows(tmp_path / "proxy.db", "finish_reason, cap, max_tokens, cached_tokens", 2)
    assert rows[0][:3] == ("length", "default", 12)
    assert rows[1][1] is None and rows[1][3] == again.usage.prompt_tokens_details.cached_tokens


def test_canonical_tools_make_the_rendered_tools_a_cached_prefix(make_settings, backend_url) -> None:
    """The backend renders tools in the caller's key order, so only shaping's canonical form lets a
    client whose serialiser reorders keys reuse the cached tools message."""
    scrambled = [{"type": t["type"], "function": dict(reversed(list(t["function"].items())))}
                 for t in reversed(TOOLS)]
    cached = {}
    for mode in ("off", "safe"):
        app = create_app(proxy_settings(make_settings, backend_url, mode))
        with serve_in_thread(app) as proxy:
            client = openai.OpenAI(base_url=f"{proxy}/v1", api_key="sk-test", max_retries=0, timeout=300)
            cached[mode] = []
            for tools, question in ((TOOLS, f"Which bells do you sell? ({mode})"),
                                    (scrambled, f"Which locks do you sell? ({mode})")):
                reply = client.chat.completions.create(model=MODEL, temperature=0, max_tokens=1, tools=tools,
                                                       messages=[{"role": "user", "content": question}])
                cached[mode].append(reply.usage.prompt_tokens_details.cached_tokens)
    assert cached["safe"][1] >= 64 > cached["off"][1]  # the tools message (~90 tokens) vs its first lines only


def test_a_default_cap_is_fitted_to_the_context_the_prompt_leaves(make_settings, backend_url) -> None:
    """A long prompt sent without a limit: the default (512) would overflow the 2,048-token context,
    so the proxy lowers it to what is left (counted with the bundled tokenizer) instead of turning
    the request into a context-length error; a caller's own too-large limit is still refused."""
    settings = proxy_settings(make_settings, backend_url, "safe", default_max_tokens=512)
    settings = replace(settings, upstreams=(UpstreamConfig(BUNDLED_UPSTREAM, backend_url),),
                       models=(ModelAlias(MODEL, BUNDLED_UPSTREAM, MODEL),))
    messages = [{"role": "system", "content": "You are helpful. " * 470}, {"role": "user", "content": "hi"}]
    with serve_in_thread(create_app(settings)) as proxy:
        client = openai.OpenAI(base_url=f"{proxy}/v1", api_key="sk-test", max_retries=0, timeout=300)
        # the proxy learns the context from the backend's model card and loads the tokenizer in the
        # background after start-up; until both are there a default is not fitted (the old 400)
        deadline = time.monotonic() + 120
        while True:
            try:
                raw = client.chat.completions.with_raw_response.create(model=MODEL, temperature=0, messages=messages)
                break
            except openai.BadRequestError:
                assert time.monotonic() < deadline, "the default cap was never fitted to the context"
                time.sleep(0.5)
        reply = raw.parse()
        room = 2048 - reply.usage.prompt_tokens
        assert 0 < room < 512
        assert raw.headers["x-thrifty-cap"] == f"default; max_tokens={room}; fitted-to-context"
        assert reply.usage.completion_tokens <= room
        short = client.chat.completions.with_raw_response.create(
            model=MODEL, temperature=0, max_tokens=2, messages=[{"role": "user", "content": "hi"}])
        assert short.headers.get("x-thrifty-cap") is None  # the caller's own limit stands
        with pytest.raises(openai.BadRequestError, match="context"):
            client.chat.completions.create(model=MODEL, temperature=0, max_tokens=512, messages=messages)

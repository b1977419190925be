"""Batch invariance on the real SmolLM2 weights as the server loads them by default (``auto``: int4 on CPU),
through HTTP: 16 greedy chat requests (and 4 seeded ones) give the same tokens and the same log-probabilities,
bit for bit, sent one by one and all at once, on a fresh engine and after prefix-cache hits, with chunked
prefills mixed into decode steps, and under n-gram speculative decoding.

A request alone runs its prefill in one step and decodes one row per step; sent together, prompts share
steps with other prompts' decode rows, long ones are split over steps (the 512-token budget), shared system
prompts hit the prefix cache, and speculative steps verify several rows per sequence. Before batch
invariance 7 of 16 answers changed (issue 35)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import httpx
import pytest

from backend.config import BackendConfig
from backend.engine import Engine, EngineConfig, EngineService
from backend.runtime import LoadedModel
from backend.server import create_backend_app
from benchmarks.harness import serve_in_thread

pytestmark = pytest.mark.slow

MODEL = "smollm2-135m-instruct"
SYSTEM = ("You are the support assistant of a bicycle shop. Answer in plain words, be brief, and never invent "
          "prices. The shop repairs brakes, gears, wheels and frames, sells city and mountain bikes, and is open "
          "from nine to six on weekdays. ") * 3
QUESTIONS = [
    "What is the capital of Italy?", "Name two colours of the rainbow.", "How many days are in a leap year?",
    "Write one sentence about the sea.", "What is 9 times 8?", "Who painted the Mona Lisa?",
    "Give me a word that rhymes with light.", "What do cows drink?", "Explain what a verb is.",
    "What is the freezing point of water in Fahrenheit?",
]
SHOP = ["Can you fix a flat tyre?", "When do you open on Monday?", "Do you sell mountain bikes?",
        "My gears slip, what should I do?"]
LONG = " ".join(f"Paragraph {i}: the committee met again to discuss the budget for the new library wing, "
                f"and after a long debate about windows, shelves and heating it postponed the decision."
                for i in range(24)) + " Summarise the story in one sentence."


def _bodies() -> list[dict]:
    """16 greedy requests (short, shop questions over one long system prompt, two long prompts that must be
    chunked) and 4 seeded sampled ones; every answer is 24 tokens at most."""
    chats = [[{"role": "user", "content": q}] for q in QUESTIONS]
    chats += [[{"role": "system", "content": SYSTEM}, {"role": "user", "content": q}] for q in SHOP]
    chats += [[{"role": "user", "content": LONG}], [{"role": "user", "content": LONG + " Use five words."}]]
    assert len(chats) == 16
    greedy = [{"messages": m, "temperature": 0} for m in chats]
    seeded = [{"messages": chats[i], "temperature": 0.9, "seed": 1000 + i} for i in (0, 3, 11, 14)]
    return [{"model": MODEL, "max_tokens": 24, "logprobs": True, **b} for b in greedy + seeded]


@pytest.fixture(scope="module")
def loaded(smollm2_default) -> LoadedModel:
    """The bundled model with the server's default options (int4 weights, batch invariance on), shared with the
    session's other tests of the default model (tests/conftest.py)."""
    assert smollm2_default.weights_dtype == "int4" and smollm2_default.batch_invariant_weights
    return smollm2_default


def _serve(loaded: LoadedModel, engine_config: EngineConfig):
    """The backend app over a fresh engine, served on a free port (a context manager yielding its URL)."""
    return serve_in_thread(create_backend_app(BackendConfig(), loaded, EngineService(Engine(loaded, engine_config))))


def _answer(client: httpx.Client, body: dict) -> tuple:
    """(tokens, their log-probabilities, finish reason) of one chat request."""
    response = client.post("/v1/chat/completions", json=body)
    assert response.status_code == 200, response.text
    choice = response.json()["choices"][0]
    content = choice["logprobs"]["content"]
    return tuple(t["token"] for t in content), tuple(t["logprob"] for t in content), choice["finish_reason"]


def _client(url: str) -> httpx.Client:
    """One client per server (each new client builds a TLS context, ~16 ms of CPU), with a connection per
    concurrent request."""
    return httpx.Client(base_url=url, timeout=300, limits=httpx.Limits(max_connections=32))


def _one_by_one(url: str) -> list[tuple]:
    with _client(url) as client:
        return [_answer(client, body) for body in _bodies()]


def _all_at_once(url: str) -> list[tuple]:
    bodies = _bodies()
    with _client(url) as client, ThreadPoolExecutor(len(bodies)) as pool:
        return list(pool.map(lambda body: _answer(client, body), bodies))


def _differences(got: list[tuple], expected: list[tuple]) -> list[int]:
    return [i for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b]


@pytest.fixture(scope="module")
def reference(loaded) -> list[tuple]:
    """Every request alone on a plain engine: no speculation, no prefix cache, no chunking (each prompt
    prefilled in one step with nothing cached, one row per decode step)."""
    from backend.speculative.config import SpeculativeConfig

    plain = replace(EngineConfig.from_backend_config(BackendConfig(), loaded.model.config),
                    enable_prefix_caching=False, enable_chunked_prefill=False,
                    speculative=SpeculativeConfig(method="off"))
    with _serve(loaded, plain) as url:
        answers = _one_by_one(url)
    assert all(len(tokens) > 0 for tokens, _, _ in answers)
    return answers


def test_answers_do_not_depend_on_the_batch_a_prefix_hit_or_chunking(loaded, reference) -> None:
    engine = EngineConfig.from_backend_config(BackendConfig(), loaded.model.config)
    assert engine.batch_invariant and engine.enable_prefix_caching and engine.enable_chunked_prefill
    assert engine.speculative.method == "ngram"  # the default: single streams draft
    with _serve(loaded, engine) as url:
        together = _all_at_once(url)  # a fresh engine: prompts prefilled side by side, long ones chunked
        alone = _one_by_one(url)  # the same engine: every prompt now hits the prefix cache, and drafts
        again = _all_at_once(url)
    assert _differences(together, reference) == []
    assert _differences(alone, reference) == []
    assert _differences(again, reference) == []


def test_speculative_decoding_in_a_full_batch_gives_the_plain_answers(loaded, reference) -> None:
    """Drafting in every step, whatever the batch (the default pauses it beside a busy batch), so
    verification rows of several sequences share steps with prefills and plain decode rows."""
    from backend.speculative.config import SpeculativeConfig

    engine = replace(EngineConfig.from_backend_config(BackendConfig(), loaded.model.config),
                     speculative=SpeculativeConfig(method="ngram", num_tokens=4, max_step_rows=0, auto_off=False))
    with _serve(loaded, engine) as url:
        drafted_together = _all_at_once(url)
    assert _differences(drafted_together, reference) == []


def test_the_op_by_op_layers_give_the_fused_layers_answers(loaded, reference) -> None:
    """Every forward above ran as one native call (:mod:`backend.fused_layers_cpu`); the op-by-op layers, which a
    configuration without fused layers runs, must give the same bits on the same batched traffic."""
    model = loaded.model
    assert model.fused_layers() is not None  # the default here
    engine = EngineConfig.from_backend_config(BackendConfig(), model.config)
    model.fuse_layers = False
    try:
        with _serve(loaded, engine) as url:
            op_by_op = _all_at_once(url)
    finally:
        model.fuse_layers = True
    assert _differences(op_by_op, reference) == []

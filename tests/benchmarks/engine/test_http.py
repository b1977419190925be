"""`thrifty bench engine --matrix --http`'s client side: the workload replayed over real HTTP against the
backend server (tiny random-weight model), with the same timings as the in-process runner."""

from __future__ import annotations

from itertools import pairwise

import pytest

from backend.config import BackendConfig
from backend.engine import Engine, EngineConfig, EngineService
from backend.server import create_backend_app
from benchmarks.engine.http import run_http
from benchmarks.engine.workload import BenchRequest
from benchmarks.harness import serve_in_thread
from tests.backend.test_engine_support import tiny_loaded


def test_replay_over_http_counts_tokens_and_first_token_times() -> None:
    loaded = tiny_loaded()
    engine = Engine(loaded, EngineConfig(block_size=4, num_blocks=200, max_model_len=256, max_num_seqs=8,
                                         max_num_batched_tokens=64))
    app = create_backend_app(BackendConfig(served_model_name="tiny", max_model_len=256), loaded, EngineService(engine))
    workload = [BenchRequest(tuple(range(2, 2 + n)), out, 0.0) for n, out in ((5, 6), (17, 3), (40, 9))]
    with serve_in_thread(app) as base:
        together = run_http(base, workload, model="tiny", progress=False)
        single = run_http(base, workload, model="tiny", progress=False, one_at_a_time=True)
    for result in (together, single):
        assert [t.tokens for t in result.timings] == [6, 3, 9]  # ignore_eos: exactly max_tokens each
        assert result.output_tokens == 18 and result.throughput > 0
        assert all(t.arrival <= t.first_token <= t.finish for t in result.timings)
    # one stream: each request starts only after the previous one finished
    assert all(a.finish <= b.arrival for a, b in pairwise(single.timings))


def test_replay_through_the_proxy_reaches_the_backend() -> None:
    """--through-proxy: a real `thrifty proxy serve` child forwards the token-id prompts (and ignore_eos)
    to the backend: exactly max_tokens come back through it, and it serves the backend's model."""
    import httpx

    from benchmarks.engine.http import serve_proxy

    loaded = tiny_loaded()
    engine = Engine(loaded, EngineConfig(block_size=4, num_blocks=200, max_model_len=256, max_num_seqs=8,
                                         max_num_batched_tokens=64))
    app = create_backend_app(BackendConfig(served_model_name="tiny", max_model_len=256), loaded, EngineService(engine))
    workload = [BenchRequest(tuple(range(3, 3 + n)), out, 0.0) for n, out in ((6, 5), (11, 7))]
    chat = [BenchRequest((1, 2), 4, 0.0, messages=({"role": "user", "content": f"Question {i}?"},)) for i in range(2)]
    with serve_in_thread(app) as backend, serve_proxy(backend, model="tiny") as proxy:
        assert proxy != backend
        result = run_http(proxy, workload, model="tiny", progress=False)
        assert [t.tokens for t in result.timings] == [5, 7]
        assert "token-id" in result.note and "cache" in result.note
        # chat requests go as messages to /v1/chat/completions, through the proxy's cache lookup
        chats = run_http(proxy, chat, model="tiny", progress=False, one_at_a_time=True)
        assert [t.tokens for t in chats.timings] == [4, 4]
        assert all(t.arrival <= t.first_token <= t.finish for t in chats.timings)
        assert "/v1/chat/completions" in chats.note and "miss 2" in chats.note
        models = httpx.get(f"{proxy}/v1/models").json()["data"]
        # the chat model is the backend's; the proxy adds its own embedding model (/v1/embeddings)
        assert [m["id"] for m in models if m["id"] != "all-minilm-l6-v2"] == ["tiny"]


@pytest.mark.slow
def test_replay_through_thrifty_serve_reaches_its_bundled_backend() -> None:
    """--through-serve: `thrifty serve` itself (proxy + bundled backend child, the real SmolLM2) started with
    the benchmark's backend settings answers the token-id prompts with exactly max_tokens each."""
    from benchmarks.engine.http import serve_thrifty

    workload = [BenchRequest(tuple(range(100, 100 + n)), out, 0.0) for n, out in ((8, 4), (20, 6))]
    with serve_thrifty("fp32", 128, 1, {"max_num_seqs": "2", "kv_cache_memory": "32MiB"}) as base:
        result = run_http(base, workload, progress=False)
    assert [t.tokens for t in result.timings] == [4, 6]

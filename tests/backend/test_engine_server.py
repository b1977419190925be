"""The engine behind the real HTTP server (uvicorn on a free 127.0.0.1 port, httpx clients): client
disconnects free blocks, /health answers under load, usage/timings/metrics, clear 400s, error isolation."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx
import msgspec
import openai
import pytest
import uvicorn
from prometheus_client.parser import text_string_to_metric_families

from backend.config import BackendConfig
from backend.engine import Engine, EngineConfig, EngineService
from backend.server import create_backend_app
from tests.backend.test_engine_support import tiny_loaded
from tokenization.chat_sections import with_request_sections

MODEL = "tiny"


@dataclass
class Server:
    url: str
    engine: Engine
    service: EngineService
    step_delay: list[float]  # seconds slept per engine step (mutable knob)
    gate: StepGate  # holds the engine thread between steps when a test asks


class StepGate:
    """Lets a test hold the engine thread before its next step, and let it through ``n`` steps at a time:
    while it is held, every unfinished request is provably still in flight."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._permits: int | None = None  # None: open; n: this many more steps, then hold
        self._waiting = False

    def passing(self) -> None:
        """Called by the engine thread before each step; blocks while the gate holds."""
        with self._changed:
            while self._permits == 0:
                self._waiting = True
                self._changed.notify_all()
                self._changed.wait()
            self._waiting = False
            if self._permits is not None:
                self._permits -= 1

    def hold(self, steps: int = 0) -> None:
        """Let ``steps`` more steps through, then hold the engine."""
        with self._changed:
            self._permits = steps
            self._changed.notify_all()

    def open(self) -> None:
        with self._changed:
            self._permits = None
            self._changed.notify_all()

    def wait_held(self, timeout: float) -> bool:
        """Wait until the engine thread is blocked at the gate; False if it is not within ``timeout``."""
        with self._changed:
            return self._changed.wait_for(lambda: self._waiting and self._permits == 0, timeout)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    loaded = tiny_loaded()
    config = BackendConfig(served_model_name=MODEL, max_model_len=512, max_n=4)
    engine = Engine(loaded, EngineConfig(block_size=4, num_blocks=200, max_model_len=512, max_num_seqs=16,
                                         max_num_batched_tokens=64, max_n=4))
    delay = [0.0]
    gate = StepGate()
    execute = engine.runner.execute

    def slowed(scheduled):
        gate.passing()
        if delay[0]:
            time.sleep(delay[0])
        return execute(scheduled)

    engine.runner.execute = slowed  # type: ignore[method-assign]
    service = EngineService(engine)
    app = create_backend_app(config, loaded, service)
    port = _free_port()
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not uv.started:
        assert time.time() < deadline, "server did not start"
        time.sleep(0.02)
    try:
        yield Server(f"http://127.0.0.1:{port}", engine, service, delay, gate)
    finally:
        uv.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def srv(server: Server) -> Iterator[Server]:
    server.step_delay[0] = 0.0
    try:
        yield server
    finally:
        server.gate.open()
    server.step_delay[0] = 0.0
    _wait(lambda: not server.engine.has_unfinished() and server.engine.block_manager.num_used_blocks == 0, 10)


def _wait(predicate, timeout: float) -> float:
    start = time.perf_counter()
    while not predicate():
        assert time.perf_counter() - start < timeout, "condition not reached in time"
        time.sleep(0.01)
    return time.perf_counter() - start


def completion(srv: Server, **body) -> httpx.Response:
    payload = {"model": MODEL, "prompt": [5, 6, 7, 8, 9], "max_tokens": 8, "temperature": 0, **body}
    return httpx.post(f"{srv.url}/v1/completions", json=payload, timeout=30)


def test_disconnect_frees_blocks(srv: Server) -> None:
    bm = srv.engine.block_manager
    assert bm.num_used_blocks == 0
    srv.step_delay[0] = 0.01  # 400 tokens would take > 4 s
    payload = {"model": MODEL, "prompt": list(range(2, 60)), "max_tokens": 400, "temperature": 0,
               "ignore_eos": True, "stream": True}
    chunks = 0
    generated = srv.engine.generated_tokens
    with httpx.Client(timeout=30) as client, client.stream("POST", f"{srv.url}/v1/completions", json=payload) as resp:
        assert resp.status_code == 200
        for line in resp.iter_lines():
            if line.startswith("data: "):
                chunks += 1
                if chunks == 3:
                    assert bm.num_used_blocks > 0
                    break
    # the client is gone: the request is aborted and its blocks return, long before its 400 tokens
    _wait(lambda: bm.num_used_blocks == 0 and not srv.engine.has_unfinished(), 30.0)
    assert srv.engine.generated_tokens - generated < 400  # it was cut off, not run to the end
    bm.check_invariants()


def test_health_answers_under_load(srv: Server) -> None:
    """/health answers while 16 generations are provably in flight: the engine thread is held between
    steps (at the start, during prefill and during decode) while /health is asked, and no generation has
    finished then; between the holds the engine runs freely, streaming tokens to its clients."""
    body = {"model": MODEL, "prompt": list(range(2, 40)), "max_tokens": 150, "temperature": 0, "ignore_eos": True}

    def one(_: int) -> int:
        return httpx.post(f"{srv.url}/v1/completions", json=body, timeout=60).status_code

    srv.gate.hold()  # the engine stops before its first step
    running_seen = []
    with ThreadPoolExecutor(16) as pool:
        futures = [pool.submit(one, i) for i in range(16)]
        try:
            _wait(lambda: len(srv.service._handles) == 16, 30)  # all 16 requests have reached the engine service
            for steps in (0, 5, 20, 40):  # after 0, 5, 25 and 65 steps: before prefill, in it, in decode
                srv.gate.hold(steps)
                assert srv.gate.wait_held(30), "the engine did not come back to the gate"
                r = httpx.get(f"{srv.url}/health", timeout=10)  # the engine is held: this cannot wait for it
                assert r.status_code == 200
                assert not any(f.done() for f in futures), "a generation finished while the engine was held"
                running_seen.append(srv.engine.scheduler.num_running)
        finally:
            srv.gate.open()  # also on failure, so that the 16 requests end
        assert all(f.result() == 200 for f in futures)
    assert running_seen[-1] >= 8, running_seen  # the last /health came beside many decoding sequences


def test_usage_cached_tokens_timings_and_headers(srv: Server) -> None:
    prompt = list(range(50, 90))  # shares no block with the other tests' prompts
    first = completion(srv, prompt=prompt)
    second = completion(srv, prompt=prompt)
    assert first.status_code == second.status_code == 200
    u1, u2 = first.json()["usage"], second.json()["usage"]
    assert u1["prompt_tokens_details"]["cached_tokens"] == 0
    # 9 full blocks of 4 + 3 tokens of the 10th (a partial match); the last token is recomputed
    assert u2["prompt_tokens_details"]["cached_tokens"] == 39
    assert u2["prompt_tokens"] == 40 and u2["completion_tokens"] == 8
    timings = second.json()["timings"]
    assert timings["ttft_ms"] is not None and timings["e2e_ms"] >= timings["ttft_ms"]
    assert "x-thrifty-ttft-ms" in second.headers and "x-thrifty-e2e-ms" in second.headers


def test_streaming_usage_and_n(srv: Server) -> None:
    payload = {"model": MODEL, "messages": [{"role": "user", "content": "hello there"}], "max_tokens": 5,
               "temperature": 0, "ignore_eos": True, "n": 2, "stream": True, "stream_options": {"include_usage": True}}
    with httpx.Client(timeout=30) as client, client.stream("POST", f"{srv.url}/v1/chat/completions",
                                                           json=payload) as resp:
        lines = [line[6:] for line in resp.iter_lines() if line.startswith("data: ")]
    assert lines[-1] == "[DONE]"
    chunks = [msgspec.json.decode(x) for x in lines[:-1]]
    finishes = {c["choices"][0]["index"]: c["choices"][0]["finish_reason"] for c in chunks
                if c["choices"] and c["choices"][0]["finish_reason"]}
    assert finishes == {0: "length", 1: "length"}
    usage = chunks[-1]["usage"]
    assert usage["completion_tokens"] == 10 and "cached_tokens" in usage["prompt_tokens_details"]


def test_priority_body_and_header(srv: Server) -> None:
    assert completion(srv, priority="batch").status_code == 200
    r = httpx.post(f"{srv.url}/v1/completions", json={"model": MODEL, "prompt": [5, 6], "max_tokens": 2},
                   headers={"x-thrifty-priority": "batch"}, timeout=30)
    assert r.status_code == 200
    bad = completion(srv, priority="urgent")
    assert bad.status_code == 400 and "priority" in bad.json()["error"]["message"]


@pytest.mark.parametrize(("body", "needle"), [
    ({"prompt": list(range(2, 90)) * 6}, "maximum context length is 512"),
    ({"max_tokens": 600}, "maximum context length of 512"),
    ({"n": 9}, "n must be between 1 and 4"),
    ({"prompt": list(range(2, 90)) * 5, "max_tokens": 400}, "ask for at most"),
])
def test_bad_input_gets_a_clear_400(srv: Server, body: dict, needle: str) -> None:
    r = completion(srv, **body)
    assert r.status_code == 400, r.text
    assert needle in r.json()["error"]["message"]


def test_request_that_never_fits_the_pool_is_400(srv: Server) -> None:
    # max_model_len is 512 but the pool holds 200 blocks x 4 = 800 tokens; shrink the view of the pool
    loaded = srv.engine.loaded
    small = Engine(loaded, EngineConfig(block_size=4, num_blocks=16, max_model_len=512))
    service = EngineService(small)
    try:
        from litestar.testing import TestClient

        app = create_backend_app(BackendConfig(served_model_name=MODEL, max_model_len=512), loaded, service)
        with TestClient(app) as client:
            r = client.post("/v1/completions", json={"model": MODEL, "prompt": list(range(2, 40)), "max_tokens": 40})
            assert r.status_code == 400
            assert "KV cache pool of 64 tokens" in r.json()["error"]["message"]
            r = client.post("/v1/completions", json={"model": MODEL, "prompt": list(range(2, 40)) * 2})
            assert r.status_code == 400 and "KV cache pool holds only 64 tokens" in r.json()["error"]["message"]
            ok = client.post("/v1/completions", json={"model": MODEL, "prompt": list(range(2, 40))})
            assert ok.status_code == 200  # max_tokens defaults to what the pool leaves
            assert ok.json()["usage"]["completion_tokens"] <= 64 - 38
    finally:
        service.close()


def test_metrics_expose_engine_gauges(srv: Server) -> None:
    completion(srv)
    time.sleep(0.2)
    text = httpx.get(f"{srv.url}/metrics", timeout=5).text
    for name in ("thrifty_engine_running_seqs", "thrifty_engine_waiting_seqs", "thrifty_engine_kv_blocks_used",
                 "thrifty_engine_kv_blocks_cached", "thrifty_engine_kv_blocks_free",
                 "thrifty_engine_prefix_cache_hit_rate", "thrifty_engine_generation_tokens_per_second"):
        assert f"\n{name} " in text or text.startswith(f"{name} "), name
    assert "thrifty_backend_requests_total" in text


def test_engine_error_fails_only_its_request(srv: Server) -> None:
    runner = srv.engine.runner
    slowed = runner.execute
    calls = [0]

    def fail_once(scheduled):
        calls[0] += 1
        if calls[0] == 1:
            raise RuntimeError("simulated device error")
        return slowed(scheduled)

    runner.execute = fail_once  # type: ignore[method-assign]
    try:
        failed = completion(srv)
        assert failed.status_code == 500 and "simulated device error" in failed.json()["error"]["message"]
    finally:
        runner.execute = slowed  # type: ignore[method-assign]
    assert completion(srv).status_code == 200
    assert httpx.get(f"{srv.url}/health", timeout=5).status_code == 200


def _scrape(srv: Server) -> dict[tuple[str, frozenset], float]:
    response = httpx.get(f"{srv.url}/metrics", timeout=5)
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8"
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(response.text) for s in family.samples}


def _metric(samples: dict, name: str, **labels: str) -> float:
    return samples[(name, frozenset({"model_name": MODEL, **labels}.items()))]


def test_metrics_use_vllm_names_and_follow_requests(srv: Server) -> None:
    before = _scrape(srv)
    prompt = list(range(90, 50, -1))  # shares no block with the other tests' prompts
    first, second = completion(srv, prompt=prompt), completion(srv, prompt=prompt)
    assert first.status_code == second.status_code == 200
    after = _scrape(srv)

    def delta(name: str, **labels: str) -> float:
        return _metric(after, name, **labels) - _metric(before, name, **labels)

    assert delta("vllm:generation_tokens_total") == 16  # 8 + 8
    assert delta("vllm:prompt_tokens_total") == 80
    assert delta("vllm:e2e_request_latency_seconds_count") == 2
    assert delta("vllm:time_to_first_token_seconds_count") == 2
    assert delta("vllm:request_queue_time_seconds_count") == 2
    assert delta("vllm:time_per_output_token_seconds_count") == 2
    assert delta("vllm:e2e_request_latency_seconds_sum") > 0
    # the second request found 39 of its 40 prompt tokens in the prefix cache (9 full blocks + 3 tokens)
    assert delta("vllm:prefix_cache_queries_total") == 80
    assert delta("vllm:prefix_cache_hits_total") == 39
    assert _metric(after, "vllm:num_preemptions_total") >= 0
    # the server's own names are still there, and agree
    assert after[("thrifty_backend_generation_tokens_total", frozenset())] - \
        before[("thrifty_backend_generation_tokens_total", frozenset())] == 16
    assert after[("thrifty_backend_requests_total", frozenset())] - \
        before[("thrifty_backend_requests_total", frozenset())] == 2


def test_metrics_gauges_show_a_running_request(srv: Server) -> None:
    srv.step_delay[0] = 0.01  # 300 tokens would take > 3 s
    payload = {"model": MODEL, "prompt": list(range(2, 40)), "max_tokens": 300, "temperature": 0,
               "ignore_eos": True, "stream": True}
    with httpx.Client(timeout=30) as client, client.stream("POST", f"{srv.url}/v1/completions", json=payload) as resp:
        lines = resp.iter_lines()
        next(line for line in lines if line.startswith("data: "))  # generation has started
        # the engine's snapshot is refreshed every 0.1 s while it works: wait for it, then read it
        _wait(lambda: _metric(_scrape(srv), "vllm:num_requests_running") == 1, 10)
        busy = _scrape(srv)
        assert _metric(busy, "vllm:num_requests_waiting") == 0
        assert 0 < _metric(busy, "vllm:kv_cache_usage_perc") <= 1
        assert _metric(busy, "vllm:kv_cache_usage_perc") == pytest.approx(
            busy[("thrifty_engine_kv_blocks_used", frozenset())] / busy[("thrifty_engine_kv_blocks_total", frozenset())])
        assert busy[("thrifty_backend_requests_in_flight", frozenset())] == 1
    _wait(lambda: _metric(_scrape(srv), "vllm:num_requests_running") == 0, 10)
    assert _metric(_scrape(srv), "vllm:kv_cache_usage_perc") == 0


def _generate_then_hang_up(srv: Server, payload: dict) -> None:
    """Send a non-streaming request over a raw socket and close it once the engine works on it."""
    host, port = srv.url.removeprefix("http://").split(":")
    body = msgspec.json.encode(payload)
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(b"POST /v1/completions HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n"
                     b"content-length: %d\r\n\r\n%s" % (len(body), body))
        _wait(lambda: srv.engine.has_unfinished() and srv.engine.block_manager.num_used_blocks > 0, 10)


def test_non_streaming_disconnect_aborts_and_frees_blocks(srv: Server) -> None:
    bm, engine = srv.engine.block_manager, srv.engine
    payload = {"model": MODEL, "prompt": list(range(2, 60)), "max_tokens": 400, "temperature": 0, "ignore_eos": True}
    # positive control: a client that stays gets all 400 tokens
    generated = engine.generated_tokens
    assert httpx.post(f"{srv.url}/v1/completions", json=payload, timeout=60).json()["usage"]["completion_tokens"] == 400
    assert engine.generated_tokens - generated == 400
    aborted = _scrape(srv)[("thrifty_backend_aborted_requests_total", frozenset())]

    srv.step_delay[0] = 0.01  # 400 tokens would take > 4 s
    generated = engine.generated_tokens
    _generate_then_hang_up(srv, payload)
    # the client is gone: the request is aborted and its blocks return, long before its 400 tokens
    _wait(lambda: bm.num_used_blocks == 0 and not engine.has_unfinished(), 10)
    assert engine.generated_tokens - generated < 400
    assert engine.num_requests == 0
    bm.check_invariants()
    _wait(lambda: _scrape(srv)[("thrifty_backend_aborted_requests_total", frozenset())] == aborted + 1, 10)
    assert _scrape(srv)[("thrifty_backend_requests_in_flight", frozenset())] == 0


def test_streaming_disconnect_is_counted_as_aborted(srv: Server) -> None:
    def aborted() -> float:
        return _scrape(srv)[("thrifty_backend_aborted_requests_total", frozenset())]

    before = aborted()
    payload = {"model": MODEL, "prompt": list(range(3, 50)), "max_tokens": 12, "temperature": 0, "stream": True}
    complete = httpx.post(f"{srv.url}/v1/completions", json=payload, timeout=30)
    assert complete.text.rstrip().endswith("data: [DONE]")
    assert aborted() == before  # a stream read to its end is not an abort
    srv.step_delay[0] = 0.01  # 400 tokens would take > 4 s
    with httpx.Client(timeout=30) as client, client.stream("POST", f"{srv.url}/v1/chat/completions", json={
            "model": MODEL, "messages": [{"role": "user", "content": "a long story"}], "max_tokens": 400,
            "temperature": 0, "ignore_eos": True, "stream": True}) as resp:
        assert resp.status_code == 200
        next(line for line in resp.iter_lines() if line.startswith("data: "))
    _wait(lambda: srv.engine.block_manager.num_used_blocks == 0 and not srv.engine.has_unfinished(), 30)
    _wait(lambda: aborted() == before + 1, 10)
    assert _scrape(srv)[("thrifty_backend_requests_in_flight", frozenset())] == 0


def test_models_retrieve_through_the_sdk(srv: Server) -> None:
    client = openai.OpenAI(base_url=f"{srv.url}/v1", api_key="unused", max_retries=0)
    card = client.models.retrieve(MODEL)
    assert (card.id, card.object) == (MODEL, "model")
    assert [m.id for m in client.models.list()] == [MODEL]
    with pytest.raises(openai.NotFoundError) as missing:
        client.models.retrieve("other-model")
    assert missing.value.body["code"] == "model_not_found"


def test_rendered_tools_decide_the_cached_prefix_and_malformed_tools_are_400(srv: Server) -> None:
    tool = {"type": "function", "function": {"name": "lookup_order", "description": "An order's status.",
                                             "parameters": {"type": "object", "properties": {"id": {"type": "string"}}}}}
    scrambled = {"function": {"parameters": {"properties": {"id": {"type": "string"}}, "type": "object"},
                              "description": "An order's status.", "name": "lookup_order"}, "type": "function"}

    def chat(tools, question: str) -> httpx.Response:
        return httpx.post(f"{srv.url}/v1/chat/completions", timeout=30, json={
            "model": MODEL, "max_tokens": 2, "temperature": 0, "tools": tools,
            "messages": [{"role": "user", "content": question}]})

    first, same, other = chat([tool], "where is 1?"), chat([tool], "where is 2?"), chat([scrambled], "where is 3?")
    cached = [r.json()["usage"]["prompt_tokens_details"]["cached_tokens"] for r in (first, same, other)]
    rendered = len(srv.engine.loaded.tokenizer.encode_chat(with_request_sections([], [tool])))
    assert cached[1] >= rendered - 4  # the whole tools message, up to the block it ends in
    assert cached[2] < cached[1] - 40  # the same tool with other key orders is another prefix
    bad = httpx.post(f"{srv.url}/v1/chat/completions", timeout=30, json={
        "model": MODEL, "tools": [{"type": "function", "function": {}}], "messages": [{"role": "user", "content": "x"}]})
    assert bad.status_code == 400 and bad.json()["error"]["param"] == "tools[0].function.name"

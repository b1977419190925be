"""`thrifty serve` as a real process (proxy with the caches as shipped + the bundled SmolLM2 backend), driven by the
official openai SDK against the real SmolLM2 model."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from openai import AsyncOpenAI, OpenAI

from caches.types import SKIP_REASONS
from proxy.launch.health import ExitedEarly, wait_until_healthy
from proxy.launch.supervisor import free_port

pytestmark = pytest.mark.e2e
MODEL = "smollm2-135m-instruct"
QUESTIONS = [f"In one word, what colour is {thing}?" for thing in
             ("snow", "grass", "the sky", "coal", "a lemon", "a tomato", "milk", "the sea")]


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("serve-cwd")  # no config file anywhere near
    port = free_port()
    env = {**os.environ, "THRIFTY_DATA_DIR": str(workdir / "data"), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "proxy.cli", "serve", "--port", str(port)], cwd=workdir, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        ready = wait_until_healthy(base + "/health", timeout_s=300, poll_s=0.5, process=proc, probe_timeout_s=1)
    except ExitedEarly:
        pytest.fail(f"thrifty serve exited early:\n{proc.stdout.read()}")
    if not ready:
        proc.kill()
        pytest.fail("thrifty serve did not become ready")
    yield proc, base, workdir
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_openai_sdk_round_trips(served):
    _, base, _ = served
    client = OpenAI(base_url=base + "/v1", api_key="sk-anything", max_retries=0, timeout=120)

    assert MODEL in [m.id for m in client.models.list().data]

    chat = client.chat.completions.create(model=MODEL, temperature=0, max_tokens=30,
                                          messages=[{"role": "user", "content": "Who wrote Romeo and Juliet?"}])
    # every weight path and instruction set answers this one; the capital of France flips with the last bits
    # of a tiny model's int4 arithmetic (on AVX-512 ours and llama.cpp's both miss it)
    assert "Shakespeare" in chat.choices[0].message.content
    assert chat.usage.prompt_tokens > 5 and chat.usage.completion_tokens > 0
    assert chat.model == MODEL

    deadline = time.monotonic() + 30
    while True:  # the write-back lands just after the answer (off the request path)
        again = client.chat.completions.with_raw_response.create(
            model=MODEL, temperature=0, max_tokens=30,
            messages=[{"role": "user", "content": "Who wrote Romeo and Juliet?"}])
        if again.headers["x-thrifty-cache"] == "exact" or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert again.headers["x-thrifty-cache"] == "exact"  # the same request again comes from the cache
    assert again.parse().choices[0].message.content == chat.choices[0].message.content

    stream = client.chat.completions.create(model=MODEL, temperature=0, max_tokens=30, stream=True,
                                            stream_options={"include_usage": True},
                                            extra_headers={"cache-control": "no-cache"},  # really generate
                                            messages=[{"role": "user", "content": "Who wrote Romeo and Juliet?"}])
    pieces, usage = [], None
    for chunk in stream:
        if chunk.choices:
            pieces.append(chunk.choices[0].delta.content or "")
        if chunk.usage:
            usage = chunk.usage
    assert len(pieces) > 3
    assert "".join(pieces) == chat.choices[0].message.content  # greedy: same text either way
    assert usage is not None and usage.completion_tokens == chat.usage.completion_tokens

    completion = client.completions.create(model=MODEL, prompt="The capital of France is", max_tokens=8,
                                           temperature=0)
    assert completion.choices[0].text.strip()
    assert completion.choices[0].finish_reason in ("stop", "length")

    raw = client.chat.completions.with_raw_response.create(
        model=MODEL, max_completion_tokens=4, messages=[{"role": "user", "content": "Hi"}])
    assert raw.headers["x-request-id"]
    assert raw.parse().usage.completion_tokens <= 4


def test_errors_come_back_as_openai_errors(served):
    import openai

    _, base, _ = served
    client = OpenAI(base_url=base + "/v1", api_key="x", max_retries=0)
    with pytest.raises(openai.NotFoundError):
        client.chat.completions.create(model="gpt-nope", messages=[{"role": "user", "content": "x"}])
    with pytest.raises(openai.BadRequestError, match="maximum context length"):
        client.chat.completions.create(model=MODEL, max_tokens=100_000, messages=[{"role": "user", "content": "x"}])


def test_structured_output_and_tool_calls_through_the_proxy(served):
    """The proxy passes response_format / tools / tool_choice to the bundled backend, which constrains the
    answer; a schema the backend cannot honour comes back as the backend's 400, naming the problem."""
    import json

    import openai
    from pydantic import BaseModel

    class City(BaseModel):
        name: str
        country: str

    _, base, _ = served
    client = OpenAI(base_url=base + "/v1", api_key="x", max_retries=0, timeout=120)
    parsed = client.chat.completions.parse(model=MODEL, temperature=0, max_tokens=40, response_format=City,
                                           messages=[{"role": "user", "content": "Name a city in France."}])
    assert isinstance(parsed.choices[0].message.parsed, City)
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
    called = client.chat.completions.create(model=MODEL, temperature=0, max_tokens=40, tools=tools,
                                            tool_choice="required",
                                            messages=[{"role": "user", "content": "Weather in Paris?"}])
    assert called.choices[0].finish_reason == "tool_calls"
    assert "city" in json.loads(called.choices[0].message.tool_calls[0].function.arguments)
    with pytest.raises(openai.BadRequestError, match="Unsatisfiable schema"):
        client.chat.completions.create(
            model=MODEL, max_tokens=5, messages=[{"role": "user", "content": "x"}],
            response_format={"type": "json_schema", "json_schema": {"name": "n", "schema": {
                "type": "integer", "minimum": 5, "maximum": 1}}})


def test_a_batch_runs_through_the_pipeline_on_the_real_model(served):
    """Files + Batches API through the SDK against the real model: a line identical to an earlier
    interactive request is answered by the exact cache, a new one by SmolLM2; both are logged as batch."""
    import io
    import json

    _, base, workdir = served
    client = OpenAI(base_url=base + "/v1", api_key="sk-batch", max_retries=0, timeout=120)
    france = {"model": MODEL, "temperature": 0, "max_tokens": 30,
              "messages": [{"role": "user", "content": "What is the capital of France?"}]}
    interactive = client.chat.completions.create(**france)
    lines = [{"custom_id": "france", "method": "POST", "url": "/v1/chat/completions", "body": france},
             {"custom_id": "colour", "method": "POST", "url": "/v1/chat/completions",
              "body": {"model": MODEL, "temperature": 0, "max_tokens": 12,
                       "messages": [{"role": "user", "content": "Name one primary colour."}]}}]
    uploaded = client.files.create(file=("real.jsonl", io.BytesIO(b"".join(
        json.dumps(line).encode() + b"\n" for line in lines))), purpose="batch")
    batch = client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions", completion_window="24h")
    deadline = time.monotonic() + 180
    while (batch := client.batches.retrieve(batch.id)).status not in ("completed", "failed"):
        assert time.monotonic() < deadline, batch
        time.sleep(0.5)
    assert batch.status == "completed" and batch.request_counts.completed == 2
    answers = {x["custom_id"]: x["response"]["body"] for x in map(json.loads, client.files.content(
        batch.output_file_id).text.splitlines())}
    assert answers["france"]["choices"][0]["message"]["content"] == interactive.choices[0].message.content
    assert answers["colour"]["choices"][0]["message"]["content"].strip()
    assert 0 < answers["colour"]["usage"]["completion_tokens"] <= 12
    deadline = time.monotonic() + 10
    rows: list = []
    while time.monotonic() < deadline and len(rows) < 2:
        with sqlite3.connect(workdir / "data" / "thrifty.db") as conn:
            rows = conn.execute("select cache_outcome from request_log where batch_id = ? order by cache_outcome",
                                (batch.id,)).fetchall()
        time.sleep(0.2)
    assert rows == [("exact",), ("miss",)]


async def _burst(base: str) -> list[tuple[str, str | None, str]]:
    client = AsyncOpenAI(base_url=base + "/v1", api_key="sk-anything", max_retries=0, timeout=300)

    async def one(question: str) -> tuple[str, str | None, str]:
        async with client.chat.completions.with_streaming_response.create(
                model=MODEL, temperature=0, max_tokens=8, stream=True,
                messages=[{"role": "user", "content": question}]) as response:
            text = []
            async for line in response.iter_lines():
                if line.startswith("data: ") and line != "data: [DONE]":
                    chunk = json.loads(line[6:])
                    text += [c["delta"].get("content") or "" for c in chunk["choices"]]
            return response.headers["x-thrifty-cache"], response.headers.get("x-thrifty-cache-skipped"), "".join(text)

    try:
        return await asyncio.gather(*(one(q) for q in QUESTIONS))
    finally:
        await client.close()


def _skips(base: str) -> dict[str, float]:
    found = {}
    for line in httpx.get(base + "/metrics", timeout=30).text.splitlines():
        if line.startswith("thrifty_cache_lookup_skipped_total{"):
            found[line.split('reason="', 1)[1].split('"', 1)[0]] = float(line.rsplit(" ", 1)[1])
    return found


def _until_exact(client: OpenAI, question: str):
    """Ask until the answer comes from the exact cache (its write-back lands after the response)."""
    deadline = time.monotonic() + 60
    while True:
        reply = client.chat.completions.with_raw_response.create(
            model=MODEL, temperature=0, max_tokens=8, messages=[{"role": "user", "content": question}])
        if reply.headers["x-thrifty-cache"] == "exact" or time.monotonic() > deadline:
            return reply
        time.sleep(0.2)


def test_a_concurrent_burst_is_answered_and_skipped_lookups_are_counted(served):
    """The semantic cache's request path under a burst of concurrent streamed chat requests: each lookup either
    finished or was given up and counted, the lookup-skip counters are exported, and answers are written back
    behind the responses."""
    _, base, _ = served
    client = OpenAI(base_url=base + "/v1", api_key="sk-anything", max_retries=0, timeout=300)
    # one entry in the scope first, so that the burst's lookups embed their questions
    assert _until_exact(client, "What is the capital of France?").headers["x-thrifty-cache"] == "exact"
    before = _skips(base)
    results = asyncio.run(_burst(base))
    assert all(text.strip() for _, _, text in results)  # every request answered by the model
    assert all(outcome == "miss" for outcome, _, _ in results)  # asked for the first time: looked up, not found
    skipped = [reason for _, reason, _ in results if reason is not None]
    assert set(skipped) <= set(SKIP_REASONS)
    counted = _skips(base)
    assert set(counted) == set(SKIP_REASONS)  # every reason is exported, zero or not
    # each skip the responses named was counted once
    assert sum(counted.values()) - sum(before.get(reason, 0.0) for reason in counted) == len(skipped)

    # the answers were written back behind the responses: the same question again is an exact hit
    again = _until_exact(client, QUESTIONS[0])
    assert again.headers["x-thrifty-cache"] == "exact"
    assert again.parse().choices[0].message.content == results[0][2]


def test_embeddings_and_responses_under_thrifty_serve(served):
    """The default thrifty serve answers /v1/embeddings with the embedder its semantic cache loaded
    (float and base64 agree; the re-embed is a cache hit) and /v1/responses through the bundled model."""
    import numpy as np

    _, base, _ = served
    client = OpenAI(base_url=base + "/v1", api_key="sk-anything", max_retries=0, timeout=120)
    texts = ["How do I reset my password?", "Quarterly revenue rose."]
    first = client.embeddings.with_raw_response.create(model="all-minilm-l6-v2", input=texts, encoding_format="float")
    again = client.embeddings.with_raw_response.create(model="all-minilm-l6-v2", input=texts)  # base64
    floats = np.array([d.embedding for d in first.parse().data])
    assert floats.shape == (2, 384) and np.allclose(np.linalg.norm(floats, axis=1), 1.0, atol=1e-5)
    assert first.headers["x-thrifty-cache"] == "miss" and again.headers["x-thrifty-cache"] == "exact"
    np.testing.assert_allclose(np.array([d.embedding for d in again.parse().data]), floats, atol=1e-7)
    answer = client.responses.create(model=MODEL, input="Who wrote Romeo and Juliet?", temperature=0,
                                     max_output_tokens=20)
    assert "Shakespeare" in answer.output_text and client.responses.retrieve(answer.id).output_text == answer.output_text


def test_requests_are_logged_and_sigterm_leaves_no_orphans(served):
    proc, base, workdir = served
    reply = httpx.post(base + "/v1/chat/completions", timeout=60, headers={"cache-control": "no-store"},
                       json={"model": MODEL, "max_tokens": 3, "messages": [{"role": "user", "content": "Hi"}]})
    request_id = reply.headers["x-request-id"]
    db = workdir / "data" / "thrifty.db"
    deadline = time.monotonic() + 10
    rows = []
    while time.monotonic() < deadline and not rows:
        with sqlite3.connect(db) as conn:  # this request's own row, not an earlier test's
            rows = conn.execute("select model_served, upstream, status_code, completion_tokens from request_log "
                                "where id = ?", (request_id,)).fetchall()
        time.sleep(0.2)
    assert rows and rows[0][:3] == (MODEL, "local", 200) and 0 < rows[0][3] <= 3

    children = _children(proc.pid)
    assert children, "the bundled backend should run as a child process"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(_alive(c) for c in children):
        time.sleep(0.2)
    assert not any(_alive(c) for c in children)

"""The semantic cache's request path through a real default `thrifty serve` (bundled SmolLM2 backend +
proxy, caches as shipped), driven by the official openai SDK: a burst of concurrent streamed chat
requests is answered (each lookup either finished or was given up and counted), the lookup-skip
counters are exported, and answers are written back behind the responses."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

import httpx
import pytest
from openai import AsyncOpenAI, OpenAI

from benchmarks.harness import child_server
from caches.types import SKIP_REASONS
from proxy.launch.supervisor import free_port

pytestmark = pytest.mark.e2e
MODEL = "smollm2-135m-instruct"
QUESTIONS = [f"In one word, what colour is {thing}?" for thing in
             ("snow", "grass", "the sky", "coal", "a lemon", "a tomato", "milk", "the sea")]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("serve-cache")
    port = free_port()
    env = {**os.environ, "THRIFTY_DATA_DIR": str(workdir / "data"), "HF_HUB_OFFLINE": "1",
           "THRIFTY_BUNDLED__STARTUP_TIMEOUT_S": "900"}
    env.pop("OMP_WAIT_POLICY", None)  # thrifty serve chooses the proxy's wait policy itself
    # a shared CI machine may take minutes to load two models
    with (workdir / "serve.log").open("w") as log, child_server(
            [sys.executable, "-m", "proxy.cli", "serve", "--port", str(port)], port,
            f"thrifty serve (log: {log.name})", 900, env, cwd=str(workdir), stdout=log) as base:
        yield base


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
    client = OpenAI(base_url=served + "/v1", api_key="sk-anything", max_retries=0, timeout=300)
    # one entry in the scope first, so that the burst's lookups embed their questions
    assert _until_exact(client, "What is the capital of France?").headers["x-thrifty-cache"] == "exact"
    results = asyncio.run(_burst(served))
    assert all(text.strip() for _, _, text in results)  # every request answered by the model
    assert all(outcome == "miss" for outcome, _, _ in results)  # a fresh cache: looked up, nothing found
    skipped = [reason for _, reason, _ in results if reason is not None]
    assert set(skipped) <= set(SKIP_REASONS)
    counted = _skips(served)
    assert set(counted) == set(SKIP_REASONS)  # every reason is exported, zero or not
    assert sum(counted.values()) == len(skipped)  # each skip the responses named was counted once

    # the answers were written back behind the responses: the same question again is an exact hit
    again = _until_exact(client, QUESTIONS[0])
    assert again.headers["x-thrifty-cache"] == "exact"
    assert again.parse().choices[0].message.content == results[0][2]

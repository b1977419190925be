"""The engine as users meet it: a benchmark workload replayed over HTTP against ``thrifty backend serve``.

:func:`serve_backend` starts the backend as a child process (the same options as the in-process run);
:func:`serve_proxy` puts ``thrifty proxy serve`` (default settings, SQLite request log) in front of it, the
layout ``thrifty serve`` runs; :func:`serve_thrifty` runs ``thrifty serve`` itself (the proxy with its bundled
backend child, configured through ``THRIFTY_BACKEND__*`` variables);
:func:`run_http` sends each request as a streamed ``/v1/completions`` call with the prompt's token ids,
all requests at their arrival times (or one after another for a single stream), and records the same
:class:`~benchmarks.engine.workload.BenchResult` timings as the in-process runner: arrival, first streamed token,
finish and the completion tokens the usage reports.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import Iterator, Sequence

import httpx

from benchmarks.engine.workload import BenchRequest, BenchResult, RequestTiming, _progress
from benchmarks.harness import child_server, free_port
from benchmarks.sse import asse_chunks


@contextlib.contextmanager
def serve_backend(weights_dtype: str, max_model_len: int, num_threads: int | None = None,
                  extra_args: Sequence[str] = ()) -> Iterator[str]:
    """``thrifty backend serve`` on a free local port for the duration of the block; yields its base URL."""
    port = free_port()
    cmd = [sys.executable, "-m", "proxy.cli", "backend", "serve", "--port", str(port), "--weights-dtype",
           weights_dtype, "--max-model-len", str(max_model_len), *extra_args]
    if num_threads:
        cmd += ["--num-threads", str(num_threads)]
    with child_server(cmd, port, "thrifty backend serve", 600) as base:
        yield base


def _bench_proxy_env(tmp: str, **settings: str) -> dict[str, str]:
    """The environment of a benchmark's proxy process (``thrifty proxy serve`` or ``thrifty serve``): its
    defaults, except a request log in a SQLite file under ``tmp``, ``tmp`` as its data folder and the router
    off (every request goes to the model it names); ``settings`` adds more ``THRIFTY_*`` variables."""
    import os

    return {**os.environ, "THRIFTY_DATABASE__URL": f"sqlite+aiosqlite:///{tmp}/proxy.db",
            "THRIFTY_ROUTER__ENABLED": "false", "THRIFTY_DATA_DIR": tmp, **settings}


@contextlib.contextmanager
def serve_proxy(backend_base: str, model: str = "smollm2-135m-instruct") -> Iterator[str]:
    """``thrifty proxy serve`` with its defaults (caches on, request log in a temporary SQLite file; the
    router off, so every request goes to ``model``) forwarding to the backend at ``backend_base``, for the
    duration of the block; yields its base URL."""
    import os
    import tempfile

    port = free_port()
    with tempfile.TemporaryDirectory(prefix="thrifty-bench-proxy-") as tmp:
        config = os.path.join(tmp, "proxy.toml")
        with open(config, "w") as handle:
            handle.write(f'[[upstreams]]\nname = "engine"\nbase_url = "{backend_base}/v1"\n'
                         f'[models."{model}"]\nupstream = "engine"\nmodel = "{model}"\n')
        env = _bench_proxy_env(tmp, THRIFTY_BUNDLED__ENABLED="false", THRIFTY_PROXY__PORT=str(port))
        with child_server([sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", config], port,
                    "thrifty proxy serve", 300, env) as base:
            yield base


@contextlib.contextmanager
def serve_thrifty(weights_dtype: str, max_model_len: int, num_threads: int | None = None,
                  backend: dict[str, str] | None = None) -> Iterator[str]:
    """``thrifty serve`` (the one command a user runs: the proxy with its defaults, caches on, the router off,
    a temporary SQLite request log, and its bundled backend child) for the duration of the block; ``backend``
    holds further ``[backend]`` settings by key (``max_num_seqs``, ``model_path``...). Yields its base URL."""
    import tempfile

    port = free_port()
    settings = {"weights_dtype": weights_dtype, "max_model_len": str(max_model_len), **(backend or {})}
    if num_threads:
        settings["num_threads"] = str(num_threads)
    with tempfile.TemporaryDirectory(prefix="thrifty-bench-serve-") as tmp:
        env = _bench_proxy_env(tmp, **{f"THRIFTY_BACKEND__{key.upper()}": value for key, value in settings.items()})
        with child_server([sys.executable, "-m", "proxy.cli", "serve", "--port", str(port)], port, "thrifty serve", 900,
                     env) as base:
            yield base


async def _one(client: httpx.AsyncClient, base: str, model: str, req: BenchRequest, timing: RequestTiming,
               outcomes: dict[str, int] | None = None) -> None:
    """Stream one request: a chat completion when ``req`` carries its messages, else a token-id completion;
    ``outcomes`` counts the proxy's ``x-thrifty-cache`` answers (absent: the backend alone)."""
    body = {"model": model, "max_tokens": req.output_len, "temperature": 0.0, "ignore_eos": req.ignore_eos,
            "stream": True, "stream_options": {"include_usage": True}}
    if req.messages is not None:
        path, body["messages"] = "/v1/chat/completions", list(req.messages)
    else:
        path, body["prompt"] = "/v1/completions", list(req.prompt_ids)
    async with client.stream("POST", f"{base}{path}", json=body) as response:
        response.raise_for_status()
        if outcomes is not None:
            outcome = response.headers.get("x-thrifty-cache", "none")
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        async for chunk in asse_chunks(response.aiter_lines()):
            if timing.first_token is None and any(c.get("text") or (c.get("delta") or {}).get("content")
                                                  for c in chunk.get("choices", [])):
                timing.first_token = time.perf_counter()
            if chunk.get("usage"):
                timing.tokens = chunk["usage"]["completion_tokens"]
    timing.finish = time.perf_counter()


async def _replay(base: str, model: str, workload: Sequence[BenchRequest], name: str, one_at_a_time: bool,
                  progress: bool) -> BenchResult:
    bar = _progress(len(workload), name) if progress else None
    limits = httpx.Limits(max_connections=max(1, len(workload)))
    async with httpx.AsyncClient(timeout=httpx.Timeout(3600.0), limits=limits) as client:
        await _one(client, base, model, BenchRequest((1, 2, 3, 4), 4, 0.0), RequestTiming(0.0, 4))  # warm-up
        start = time.perf_counter()
        timings = [RequestTiming(start + r.arrival, r.output_len) for r in workload]
        outcomes: dict[str, int] = {}

        async def send(i: int) -> None:
            delay = timings[i].arrival - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            await _one(client, base, model, workload[i], timings[i], outcomes)
            if bar is not None:
                bar.update(1)

        if one_at_a_time:
            for i in range(len(workload)):
                timings[i].arrival = time.perf_counter()
                await send(i)
        else:
            await asyncio.gather(*(send(i) for i in range(len(workload))))
        wall = time.perf_counter() - start
    if bar is not None:
        bar.close()
    chats = sum(r.messages is not None for r in workload)
    sent = ("streamed /v1/chat/completions with chat messages" if chats == len(workload) else
            "streamed /v1/completions with token-id prompts" if not chats else
            f"streamed: {chats} chat completions, {len(workload) - chats} token-id completions")
    cache = "" if set(outcomes) <= {"none"} else "; cache " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
    return BenchResult(name, timings, wall, note=f"over HTTP: {sent}{cache}")


def run_http(base: str, workload: Sequence[BenchRequest], name: str = "thrifty (HTTP)", one_at_a_time: bool = False,
             progress: bool = True, model: str = "smollm2-135m-instruct") -> BenchResult:
    """Replay ``workload`` against a running backend at ``base`` (arrivals honoured, all at once by default)."""
    return asyncio.run(_replay(base, model, workload, name, one_at_a_time, progress))

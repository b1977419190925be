"""``thrifty bench proxy``: the proxy's added latency and the backend's single-stream speed.

Starts the bundled backend as a child process and the proxy in this process, then sends the same
non-streaming request many times directly to the backend and through the proxy, interleaved so that
machine noise hits both alike, and prints medians and their difference.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from dataclasses import replace

import httpx

from proxy.localserver import wait_healthy
from proxy.settings import DatabaseConfig, Settings, load_settings


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _percentile_ms(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(pct / 100 * (len(ordered) - 1))))] * 1000


def run(settings: Settings, requests: int, max_tokens: int, decode_tokens: int) -> str:
    from tqdm import tqdm

    from proxy.supervisor import BackendProcess, free_port

    backend = BackendProcess(settings)
    backend.start()
    proxy_process = None
    try:
        backend.wait_ready()
        # the proxy runs in its own process, as in production, so the client does not share its GIL
        port = free_port()
        env = {**os.environ, "THRIFTY_BUNDLED__PORT": str(backend.port), "THRIFTY_PROXY__PORT": str(port),
               "THRIFTY_DATABASE__URL": settings.database_url, "THRIFTY_ROUTER__ENABLED": "false"}
        proxy_process = subprocess.Popen([sys.executable, "-m", "proxy.cli", "proxy", "serve"], env=env)
        proxy = f"http://127.0.0.1:{port}"
        wait_healthy(proxy, proxy_process, what="the proxy")
        model = settings.backend.served_model_name
        body = {"model": model, "max_tokens": max_tokens, "temperature": 0,
                "messages": [{"role": "user", "content": "Say hello."}]}
        with httpx.Client(timeout=300) as client:
            direct_url, proxy_url = backend.base_url + "/v1/chat/completions", proxy + "/v1/chat/completions"
            for url in (direct_url, proxy_url):  # warm-up: connections, caches, first-call costs
                client.post(url, json=body).raise_for_status()
            direct, proxied, hits = [], [], []
            no_store = {"cache-control": "no-store"}  # measure forwarding, not the cache
            for _ in tqdm(range(requests), desc="proxy vs direct", file=sys.stderr):
                for url, samples, headers in ((direct_url, direct, {}), (proxy_url, proxied, no_store)):
                    started = time.perf_counter()
                    client.post(url, json=body, headers=headers).raise_for_status()
                    samples.append(time.perf_counter() - started)
            client.post(proxy_url, json=body).raise_for_status()  # stores the answer
            time.sleep(0.5)  # write-back happens off the request path
            for _ in tqdm(range(requests), desc="exact cache hits", file=sys.stderr):
                started = time.perf_counter()
                response = client.post(proxy_url, json=body)
                hits.append(time.perf_counter() - started)
                if response.headers.get("x-thrifty-cache") != "exact":
                    raise RuntimeError(f"expected an exact cache hit, got {response.headers.get('x-thrifty-cache')}")
            long_body = {**body, "max_tokens": decode_tokens, "ignore_eos": True,
                         "messages": [{"role": "user", "content": "Tell me a long story about a lighthouse."}]}
            reply = client.post(direct_url, json=long_body).json()
    finally:
        if proxy_process is not None:
            proxy_process.terminate()
            proxy_process.wait(30)
        backend.stop()
    timings, usage = reply["timings"], reply["usage"]
    decode_s = (timings["e2e_ms"] - timings["ttft_ms"]) / 1000
    tokens_per_s = (usage["completion_tokens"] - 1) / decode_s if decode_s > 0 else float("nan")
    overhead = _median_ms(proxied) - _median_ms(direct)
    return "\n".join([
        f"| path | median latency (ms), {requests} non-streaming requests, max_tokens={max_tokens} |",
        "|---|---|",
        f"| direct to backend | {_median_ms(direct):.2f} |",
        f"| through the proxy | {_median_ms(proxied):.2f} |",
        f"| **proxy added** | **{overhead:.2f}** ({overhead / _median_ms(direct) * 100:.1f} %) |",
        "",
        f"| exact cache hits through the proxy, end to end ({requests} requests) | ms |",
        "|---|---|",
        f"| p50 | {_median_ms(hits):.2f} |",
        f"| p95 | {_percentile_ms(hits, 95):.2f} |",
        "",
        "| backend single stream | value |",
        "|---|---|",
        f"| decode tokens/s ({usage['completion_tokens']} tokens) | {tokens_per_s:.1f} |",
        f"| TTFT (ms, {usage['prompt_tokens']}-token prompt) | {timings['ttft_ms']:.1f} |",
    ])


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds a process has used (from /proc)."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()  # noqa: SIM115 - tiny read
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_passthrough(requests: int) -> str:
    """The proxy's own cost per forwarded request against the stub upstream (``bench_stub``):
    latency added over calling the stub directly, and the proxy process's CPU per request."""
    import tempfile

    from tqdm import tqdm

    from proxy.supervisor import free_port

    stub_port, port = free_port(), free_port()
    tmp = tempfile.mkdtemp(prefix="thrifty-bench-stub-")
    stub = subprocess.Popen([sys.executable, "-m", "proxy.bench_stub", "--port", str(stub_port)])
    env = {**os.environ, "THRIFTY_BUNDLED__ENABLED": "false", "THRIFTY_PROXY__PORT": str(port),
           "THRIFTY_DATABASE__URL": f"sqlite+aiosqlite:///{tmp}/bench.db", "THRIFTY_ROUTER__ENABLED": "false",
           "THRIFTY_DATA_DIR": tmp}
    config = os.path.join(tmp, "stub.toml")
    with open(config, "w") as handle:
        handle.write(f'[[upstreams]]\nname = "stub"\nbase_url = "http://127.0.0.1:{stub_port}/v1"\n'
                     '[models.stub]\nupstream = "stub"\nmodel = "stub"\n')
    proxy_process = subprocess.Popen([sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", config],
                                     env=env)
    rows = []
    try:
        proxy = f"http://127.0.0.1:{port}"
        wait_healthy(proxy, proxy_process, what="the proxy")
        wait_healthy(f"http://127.0.0.1:{stub_port}", stub, what="the stub upstream")
        body = {"model": "stub", "max_tokens": 16, "messages": [{"role": "user", "content": "Say hello."}]}
        no_store = {"cache-control": "no-store"}  # forwarding, not the cache
        with httpx.Client(timeout=60) as client:
            for stream in (False, True):
                payload = {**body, "stream": stream}
                direct_url = f"http://127.0.0.1:{stub_port}/v1/chat/completions"
                proxy_url = proxy + "/v1/chat/completions"
                for _ in range(20):  # warm-up
                    client.post(proxy_url, json=payload, headers=no_store).raise_for_status()
                    client.post(direct_url, json=payload).raise_for_status()
                time.sleep(1.0)  # let the request log flush the warm-up
                direct, proxied = [], []
                cpu_before = _cpu_s(proxy_process.pid)
                for _ in tqdm(range(requests), desc=f"pass-through ({'streamed' if stream else 'JSON'})",
                              file=sys.stderr):
                    for url, samples, headers in ((direct_url, direct, {}), (proxy_url, proxied, no_store)):
                        started = time.perf_counter()
                        client.post(url, json=payload, headers=headers).raise_for_status()
                        samples.append(time.perf_counter() - started)
                time.sleep(1.0)  # the request log's write of these requests is part of their cost
                cpu_ms = (_cpu_s(proxy_process.pid) - cpu_before) / requests * 1000
                rows.append((("streamed" if stream else "non-streamed"), _median_ms(direct), _median_ms(proxied),
                             _percentile_ms(proxied, 95) - _percentile_ms(direct, 95), cpu_ms))
    finally:
        proxy_process.terminate()
        proxy_process.wait(30)
        stub.terminate()
        stub.wait(30)
    lines = [f"| pass-through to a stub upstream ({requests} requests each) | direct p50 ms | proxied p50 ms | "
             "added p50 ms | added p95 ms | proxy CPU ms / request |", "|---|---|---|---|---|---|"]
    for kind, direct_ms, proxied_ms, added_p95, cpu_ms in rows:
        lines.append(f"| {kind} | {direct_ms:.2f} | {proxied_ms:.2f} | {proxied_ms - direct_ms:.2f} | "
                     f"{added_p95:.2f} | **{cpu_ms:.2f}** |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench proxy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", help="TOML configuration file")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--max-tokens", type=int, default=1)
    parser.add_argument("--decode-tokens", type=int, default=128)
    parser.add_argument("--stub", action="store_true", help="pass-through mode: the proxy's latency and CPU per "
                        "request in front of a minimal stub upstream (no model)")
    args = parser.parse_args(argv)
    if args.stub:
        print(run_passthrough(args.requests))
        return 0
    settings = load_settings(args.config)
    # a throwaway database so the benchmark leaves the user's request log alone
    import tempfile

    tmp = tempfile.mkdtemp(prefix="thrifty-bench-")
    settings = replace(settings, database=DatabaseConfig(url=f"sqlite+aiosqlite:///{tmp}/bench.db"))
    print(run(settings, args.requests, args.max_tokens, args.decode_tokens))
    return 0

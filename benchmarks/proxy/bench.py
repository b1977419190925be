"""``thrifty bench proxy``: the proxy's added latency and the backend's single-stream speed.

Starts the bundled backend as a child process and the proxy in this process, then sends the same
non-streaming request many times directly to the backend and through the proxy, interleaved so that
machine noise hits both alike, and prints medians and their difference.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import replace

import httpx

from benchmarks.harness import free_port, wait_healthy
from proxy.config.sections import DatabaseConfig
from proxy.config.settings import Settings, load_settings
from proxy.launch.supervisor import BackendProcess


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _percentile_ms(samples: list[float], pct: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(pct / 100 * (len(ordered) - 1))))] * 1000


def run(settings: Settings, requests: int, max_tokens: int, decode_tokens: int) -> str:
    from tqdm import tqdm

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


def _measure_forwarding(client: httpx.Client, process: subprocess.Popen, proxy_url: str, direct_url: str,
                        body: dict, requests: int, label: str, headers: dict[str, str]) -> list[tuple]:
    """Time ``requests`` calls through a proxy process and, interleaved, straight to the upstream;
    → rows of (kind, direct p50, proxied p50, added p95, proxy CPU ms per request)."""
    from tqdm import tqdm

    rows = []
    for stream in (False, True):
        payload = {**body, "stream": stream}
        for _ in range(20):  # warm-up
            client.post(proxy_url, json=payload, headers=headers).raise_for_status()
            client.post(direct_url, json=payload).raise_for_status()
        time.sleep(1.0)  # let the request log flush the warm-up
        direct, proxied = [], []
        cpu_before = _cpu_s(process.pid)
        for _ in tqdm(range(requests), desc=f"{label} ({'streamed' if stream else 'JSON'})", file=sys.stderr):
            for url, samples, extra in ((direct_url, direct, {}), (proxy_url, proxied, headers)):
                started = time.perf_counter()
                client.post(url, json=payload, headers=extra).raise_for_status()
                samples.append(time.perf_counter() - started)
        time.sleep(1.0)  # the request log's write of these requests is part of their cost
        cpu_ms = (_cpu_s(process.pid) - cpu_before) / requests * 1000
        rows.append((("streamed" if stream else "non-streamed"), _median_ms(direct), _median_ms(proxied),
                     _percentile_ms(proxied, 95) - _percentile_ms(direct, 95), cpu_ms))
    return rows


def _start_litellm(litellm_bin: str, stub_port: int, port: int, tmp: str, master_key: str) -> subprocess.Popen:
    """LiteLLM's proxy (``litellm --config``) in front of the same stub: one worker, no database,
    a master key (it refuses to start without one), the bundled model-cost map (no network),
    telemetry off."""
    config = os.path.join(tmp, "litellm.yaml")
    with open(config, "w") as handle:
        handle.write("model_list:\n  - model_name: stub\n    litellm_params:\n      model: openai/stub\n"
                     f"      api_base: http://127.0.0.1:{stub_port}/v1\n      api_key: stub-key\n")
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "LITELLM_TELEMETRY": "False",
           "LITELLM_LOG": "ERROR", "LITELLM_MASTER_KEY": master_key}
    return subprocess.Popen([litellm_bin, "--config", config, "--host", "127.0.0.1", "--port", str(port),
                             "--num_workers", "1", "--telemetry", "False"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def run_passthrough(requests: int, litellm_bin: str | None = None) -> str:
    """The proxy's own cost per forwarded request against the stub upstream (``bench_stub``):
    latency added over calling the stub directly, and the proxy process's CPU per request. With
    ``litellm_bin`` (the ``litellm`` command of an environment with ``litellm[proxy]``), LiteLLM's
    proxy is measured the same way in the same run, one after the other, and the ratios printed."""
    import tempfile

    stub_port, port = free_port(), free_port()
    tmp = tempfile.mkdtemp(prefix="thrifty-bench-stub-")
    stub = subprocess.Popen([sys.executable, "-m", "benchmarks.proxy.stub", "--port", str(stub_port)])
    env = {**os.environ, "THRIFTY_BUNDLED__ENABLED": "false", "THRIFTY_PROXY__PORT": str(port),
           "THRIFTY_DATABASE__URL": f"sqlite+aiosqlite:///{tmp}/bench.db", "THRIFTY_ROUTER__ENABLED": "false",
           "THRIFTY_DATA_DIR": tmp}
    config = os.path.join(tmp, "stub.toml")
    with open(config, "w") as handle:
        handle.write(f'[[upstreams]]\nname = "stub"\nbase_url = "http://127.0.0.1:{stub_port}/v1"\n'
                     '[models.stub]\nupstream = "stub"\nmodel = "stub"\n')
    body = {"model": "stub", "max_tokens": 16, "messages": [{"role": "user", "content": "Say hello."}]}
    direct_url = f"http://127.0.0.1:{stub_port}/v1/chat/completions"
    results: dict[str, list[tuple]] = {}
    try:
        wait_healthy(f"http://127.0.0.1:{stub_port}", stub, what="the stub upstream")
        proxy_process = subprocess.Popen([sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", config],
                                         env=env)
        try:
            proxy = f"http://127.0.0.1:{port}"
            wait_healthy(proxy, proxy_process, what="the proxy")
            with httpx.Client(timeout=60) as client:  # the cache bypassed: forwarding is measured
                results["thrifty"] = _measure_forwarding(client, proxy_process, proxy + "/v1/chat/completions",
                                                         direct_url, body, requests, "thrifty",
                                                         {"cache-control": "no-store"})
        finally:
            _stop(proxy_process)
        if litellm_bin:
            peer_port = free_port()
            master_key = "sk-bench-" + secrets.token_hex(24)
            peer = _start_litellm(litellm_bin, stub_port, peer_port, tmp, master_key)
            try:
                peer_url = f"http://127.0.0.1:{peer_port}"
                wait_healthy(peer_url, peer, what="LiteLLM", timeout_s=300, path="/health/liveliness")
                with httpx.Client(timeout=60) as client:
                    results["litellm"] = _measure_forwarding(client, peer, peer_url + "/v1/chat/completions",
                                                             direct_url, body, requests, "litellm",
                                                             {"authorization": f"Bearer {master_key}"})
            finally:
                _stop(peer)
    finally:
        _stop(stub)
    lines = [f"| pass-through to a stub upstream ({requests} requests each) | direct p50 ms | proxied p50 ms | "
             "added p50 ms | added p95 ms | proxy CPU ms / request |", "|---|---|---|---|---|---|"]
    for name, rows in results.items():
        for kind, direct_ms, proxied_ms, added_p95, cpu_ms in rows:
            lines.append(f"| {name}, {kind} | {direct_ms:.2f} | {proxied_ms:.2f} | {proxied_ms - direct_ms:.2f} | "
                         f"{added_p95:.2f} | **{cpu_ms:.2f}** |")
    if "litellm" in results:
        lines += ["", "| ratio litellm / thrifty | added p50 | proxy CPU per request |", "|---|---|---|"]
        for ours, theirs in zip(results["thrifty"], results["litellm"], strict=True):
            added = (theirs[2] - theirs[1]) / max(ours[2] - ours[1], 1e-9)
            lines.append(f"| {ours[0]} | {added:.1f}x | {theirs[4] / ours[4]:.1f}x |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench proxy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", help="TOML configuration file")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--max-tokens", type=int, default=1)
    parser.add_argument("--decode-tokens", type=int, default=128)
    parser.add_argument("--stub", action="store_true",
                        help="the proxy's added latency and CPU per request in front of a stub upstream (no model)")
    parser.add_argument("--litellm", metavar="LITELLM_BIN",
                        help="with --stub: also measure LiteLLM's proxy, run by this `litellm` command")
    args = parser.parse_args(argv)
    if args.litellm and not args.stub:
        parser.error("--litellm needs --stub")
    if args.litellm and shutil.which(args.litellm) is None:
        parser.error(f"--litellm: no such command: {args.litellm}")
    if args.stub:
        print(run_passthrough(args.requests, args.litellm))
        return 0
    settings = load_settings(args.config)
    # a throwaway database so the benchmark leaves the user's request log alone
    import tempfile

    tmp = tempfile.mkdtemp(prefix="thrifty-bench-")
    settings = replace(settings, database=DatabaseConfig(url=f"sqlite+aiosqlite:///{tmp}/bench.db"))
    print(run(settings, args.requests, args.max_tokens, args.decode_tokens))
    return 0

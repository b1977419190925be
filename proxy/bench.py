"""``thrifty bench proxy``: the proxy's added latency and the backend's single-stream speed.

Starts the bundled backend as a child process and the proxy in this process, then sends the same
non-streaming request many times directly to the backend and through the proxy, interleaved so that
machine noise hits both alike, and prints medians and their difference.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace

import httpx

from proxy.settings import DatabaseConfig, Settings, load_settings


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def run(settings: Settings, requests: int, max_tokens: int, decode_tokens: int) -> str:
    from tqdm import tqdm

    from proxy.app import create_app
    from proxy.localserver import serve_in_thread
    from proxy.supervisor import BackendProcess

    backend = BackendProcess(settings)
    backend.start()
    try:
        backend.wait_ready()
        settings = settings.with_bundled_backend(backend.base_url + "/v1")
        model = settings.backend.served_model_name
        body = {"model": model, "max_tokens": max_tokens, "temperature": 0,
                "messages": [{"role": "user", "content": "Say hello."}]}
        with serve_in_thread(create_app(settings)) as proxy, httpx.Client(timeout=300) as client:
            direct_url, proxy_url = backend.base_url + "/v1/chat/completions", proxy + "/v1/chat/completions"
            for url in (direct_url, proxy_url):  # warm-up: connections, caches, first-call costs
                client.post(url, json=body).raise_for_status()
            direct, proxied = [], []
            for _ in tqdm(range(requests), desc="proxy vs direct", file=sys.stderr):
                for url, samples in ((direct_url, direct), (proxy_url, proxied)):
                    started = time.perf_counter()
                    client.post(url, json=body).raise_for_status()
                    samples.append(time.perf_counter() - started)
            long_body = {**body, "max_tokens": decode_tokens, "ignore_eos": True,
                         "messages": [{"role": "user", "content": "Tell me a long story about a lighthouse."}]}
            reply = client.post(direct_url, json=long_body).json()
    finally:
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
        "| backend single stream | value |",
        "|---|---|",
        f"| decode tokens/s ({usage['completion_tokens']} tokens) | {tokens_per_s:.1f} |",
        f"| TTFT (ms, {usage['prompt_tokens']}-token prompt) | {timings['ttft_ms']:.1f} |",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench proxy", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", help="TOML configuration file")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--max-tokens", type=int, default=1)
    parser.add_argument("--decode-tokens", type=int, default=128)
    args = parser.parse_args(argv)
    settings = load_settings(args.config)
    # a throwaway database so the benchmark leaves the user's request log alone
    import tempfile

    tmp = tempfile.mkdtemp(prefix="thrifty-bench-")
    settings = replace(settings, database=DatabaseConfig(url=f"sqlite+aiosqlite:///{tmp}/bench.db"))
    print(run(settings, args.requests, args.max_tokens, args.decode_tokens))
    return 0

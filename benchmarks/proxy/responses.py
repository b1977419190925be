"""``thrifty bench responses``: the proxy's latency in front of the stub upstream
(``benchmarks.proxy.stub``) for chat completions and the Responses API (stored, and ``store=false``;
whole and streamed), one request at a time, caches off, interleaved in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

from benchmarks.harness import free_port, wait_healthy
from benchmarks.proxy.embeddings import ProxyProcess


def _timed(client: httpx.Client, url: str, body: dict, stream: bool) -> float:
    started = time.perf_counter()
    if stream:
        with client.stream("POST", url, json=body) as response:
            response.raise_for_status()
            for _ in response.iter_bytes():
                pass
    else:
        client.post(url, json=body).raise_for_status()
    return (time.perf_counter() - started) * 1000


def bench_responses(args) -> int:
    with tempfile.TemporaryDirectory() as workdir:
        stub_port = free_port()
        stub = subprocess.Popen([sys.executable, "-m", "benchmarks.proxy.stub", "--port", str(stub_port)])
        stub_url = f"http://127.0.0.1:{stub_port}"
        proxy = None
        try:
            wait_healthy(stub_url, stub, what="the stub upstream", path="/v1/models")
            proxy = ProxyProcess(workdir, upstream=stub_url)
            client = httpx.Client(timeout=60)
            kinds = {
                "chat": ("/v1/chat/completions", lambda i: {"model": "stub", "messages": [
                    {"role": "user", "content": f"question {i}"}]}),
                "responses": ("/v1/responses", lambda i: {"model": "stub", "input": f"question {i}"}),
                "responses store=false": ("/v1/responses", lambda i: {"model": "stub", "input": f"question {i}",
                                                                       "store": False}),
            }
            print(f"{'endpoint':<24} {'stream':>6} {'p50 ms':>8} {'p90 ms':>8} {'req/s':>8}")
            for stream in (False, True):
                timings: dict[str, list[float]] = {name: [] for name in kinds}
                for i in range(args.warmup + args.requests):  # interleaved, so drift hits every kind alike
                    for name, (path, make) in kinds.items():
                        body = {**make(i), **({"stream": True} if stream else {})}
                        ms = _timed(client, proxy.url + path, body, stream)
                        if i >= args.warmup:
                            timings[name].append(ms)
                for name, values in timings.items():
                    values.sort()
                    p50, p90 = values[len(values) // 2], values[int(len(values) * 0.9)]
                    print(f"{name:<24} {str(stream):>6} {p50:>8.2f} {p90:>8.2f} {1000 / statistics.mean(values):>8.1f}")
        finally:
            if proxy is not None:
                proxy.stop()
            stub.terminate()
            stub.wait(30)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench responses", description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="timed requests per endpoint and mode")
    parser.add_argument("--warmup", type=int, default=30, help="untimed requests first")
    return bench_responses(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())

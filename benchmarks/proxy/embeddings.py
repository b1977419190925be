"""``thrifty bench embeddings``: texts per second through ``POST /v1/embeddings``.

A real ``thrifty proxy serve`` (the bundled all-MiniLM-L6-v2 in float32, SQLite embedding cache) at
batch sizes 1, 32 and 256, beside sentence-transformers' ``encode`` called directly in this process
(float32, same kind and number of texts) in the same run, passes alternating (the other side idles
meanwhile). Every pass uses fresh texts, so the proxy's numbers include its cache lookup and write;
then one corpus is embedded through the proxy and again (all cache hits).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

from benchmarks.harness import free_port, wait_healthy

MODEL = "all-minilm-l6-v2"
WORDS = ("system cache latency request model token vector search answer question budget invoice customer "
         "shipping refund password account network server database query index memory thread process "
         "kernel schedule batch stream upstream proxy router price weather travel recipe garden music").split()


def corpus(count: int, seed: int) -> list[str]:
    """``count`` distinct texts of 20-60 words (deterministic in ``seed``)."""
    rng = random.Random(seed)
    return [f"{seed}-{i}: " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 60))) for i in range(count)]


class ProxyProcess:
    """``thrifty proxy serve`` on a free port with its own SQLite file; ``upstream``: a stub's base URL."""

    def __init__(self, workdir: str, upstream: str | None = None, cache: bool = False) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = os.path.join(workdir, "bench.toml")
        with open(config, "w") as handle:
            if upstream:
                handle.write(f'[[upstreams]]\nname = "stub"\nbase_url = "{upstream}/v1"\n'
                             '[models.stub]\nupstream = "stub"\nmodel = "stub"\n')
        env = {**os.environ, "THRIFTY_BUNDLED__ENABLED": "false", "THRIFTY_PROXY__PORT": str(self.port),
               "THRIFTY_DATABASE__URL": f"sqlite+aiosqlite:///{workdir}/bench.db", "THRIFTY_ROUTER__ENABLED": "false",
               "THRIFTY_CACHE__ENABLED": str(cache).lower(), "THRIFTY_CACHE__SEMANTIC": "false",
               "THRIFTY_CACHE__EMBED_DTYPE": "float32", "THRIFTY_PROXY__ACCESS_LOG": "false",
               "THRIFTY_DATA_DIR": workdir, "HF_HUB_OFFLINE": "1"}
        self._log = open(os.path.join(workdir, "proxy.log"), "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen([sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", config],
                                        env=env, stdout=self._log, stderr=subprocess.STDOUT)
        wait_healthy(self.url, self.process, what="thrifty proxy serve", timeout_s=120)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._log.close()


def _through_proxy(client: httpx.Client, url: str, texts: list[str], batch: int) -> float:
    started = time.perf_counter()
    for i in range(0, len(texts), batch):
        response = client.post(url + "/v1/embeddings", json={"model": MODEL, "input": texts[i:i + batch]})
        response.raise_for_status()
    return len(texts) / (time.perf_counter() - started)


def _direct(model, texts: list[str], batch: int) -> float:
    started = time.perf_counter()
    for i in range(0, len(texts), batch):
        model.encode(texts[i:i + batch], batch_size=batch, normalize_embeddings=True)
    return len(texts) / (time.perf_counter() - started)


def bench_embeddings(args) -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from sentence_transformers import SentenceTransformer

    from caches.embedder import default_minilm_path

    direct = SentenceTransformer(str(default_minilm_path()), device="cpu").eval()
    with tempfile.TemporaryDirectory() as workdir:
        proxy = ProxyProcess(workdir)
        try:
            client = httpx.Client(timeout=600)
            _through_proxy(client, proxy.url, corpus(64, seed=999), 32)  # load the model, create the tables
            _direct(direct, corpus(64, seed=998), 32)
            print(f"{'batch':>6} {'texts':>6} {'direct texts/s':>15} {'proxy texts/s':>14} {'proxy/direct':>13}")
            seed = 0
            for batch in args.batches:
                count = max(batch, args.texts_batch1 if batch == 1 else args.texts)
                ours, theirs = [], []
                for _ in range(args.repeat):  # alternating, fresh texts each time
                    seed += 1
                    theirs.append(_direct(direct, corpus(count, seed=seed), batch))
                    seed += 1
                    ours.append(_through_proxy(client, proxy.url, corpus(count, seed=seed), batch))
                d, p = statistics.median(theirs), statistics.median(ours)
                print(f"{batch:>6} {count:>6} {d:>15.1f} {p:>14.1f} {p / d:>13.3f}")
            texts = corpus(args.texts, seed=10_000)
            first = _through_proxy(client, proxy.url, texts, args.cached_batch)
            again = [_through_proxy(client, proxy.url, texts, args.cached_batch) for _ in range(args.repeat)]
            best = statistics.median(again)
            print(f"cached re-embed ({args.texts} texts, batch {args.cached_batch}): first pass {first:.1f} texts/s, "
                  f"again {best:.1f} texts/s: {best / first:.1f}x faster")
        finally:
            proxy.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty bench embeddings", description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 32, 256], help="batch sizes to time")
    parser.add_argument("--texts", type=int, default=1024, help="texts per pass at batch sizes above 1")
    parser.add_argument("--texts-batch1", type=int, default=128, help="texts per pass at batch size 1")
    parser.add_argument("--cached-batch", type=int, default=256, help="batch size of the cached re-embed")
    parser.add_argument("--repeat", type=int, default=3, help="passes per peer (the median is shown)")
    return bench_embeddings(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())

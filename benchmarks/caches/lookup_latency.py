"""Lookup latency of the semantic cache at several sizes: the real GPTCache origins in the queried
scope plus random unit vectors, ``get()`` timed with and without embedding, IVF recall, bulk insert
and rebuild at start-up."""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from benchmarks.caches.eval_common import answer, answer_index, keys, pct, percentile, sqlite_engine
from caches.config import SemanticCacheConfig
from caches.embedder import Embedder
from caches.semantic import SemanticCache
from caches.semantic_stores import SemanticItem


@dataclass(frozen=True, slots=True)
class LatencyRow:
    entries: int
    scopes: int
    index_kind: str
    insert_s: float
    rebuild_s: float
    no_embed_p50: float
    no_embed_p95: float
    embed_p50: float
    embed_p95: float
    hit_rate: float
    precision: float
    ivf_top1_recall: float


async def latency(
    embedder: Embedder,
    origins: Sequence[str],
    similars: Sequence[str],
    origin_vecs: np.ndarray,
    similar_vecs: np.ndarray,
    size: int,
    n_queries: int,
    config: SemanticCacheConfig,
    tmp: Path,
    seed: int = 0,
    scopes: int = 1,
) -> LatencyRow:
    """Fill the cache with the real origins (in the queried scope) plus random unit vectors up to
    ``size`` entries, spread over ``scopes`` scopes; time get()."""
    engine = await sqlite_engine(tmp, f"latency-{size}-{scopes}")
    cache = SemanticCache(engine, embedder, config)
    rng = np.random.default_rng(seed)
    dim = origin_vecs.shape[1]
    n_real = min(len(origins), size)
    try:
        t0 = time.perf_counter()
        await cache.put_many(
            [SemanticItem(keys(o), answer(i), "v1", origin_vecs[i]) for i, o in enumerate(origins[:n_real])]
        )
        chunk = 5000
        extra = size - n_real
        with tqdm(total=extra, desc=f"{size}: synthetic entries", file=sys.stderr) as bar:
            for start in range(0, extra, chunk):
                n = min(chunk, extra - start)
                vecs = rng.standard_normal((n, dim)).astype(np.float32)
                vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
                items = [
                    SemanticItem(
                        keys(
                            f"synthetic entry {start + j}",
                            "eval-scope" if scopes == 1 else f"s{(start + j) % scopes}",
                        ),
                        answer(-1),
                        "v1",
                        vecs[j],
                    )
                    for j in range(n)
                ]
                await cache.put_many(items)
                bar.update(n)
        insert_s = time.perf_counter() - t0
        assert cache.index is not None
        kind = cache.index.partition_kind("eval-scope") or "-"

        query_ids = rng.choice(len(similars), size=min(n_queries, len(similars)), replace=False)
        for i in query_ids[:10]:  # warm-up (threads, caches, SQLite pages)
            await cache.get(keys(similars[i]), model_version="v1", vector=similar_vecs[i])
        no_embed: list[float] = []
        hits = correct = 0
        for i in tqdm(query_ids, desc=f"{size}: lookups without embedding", file=sys.stderr):
            t = time.perf_counter()
            hit = await cache.get(keys(similars[i]), model_version="v1", vector=similar_vecs[i])
            no_embed.append((time.perf_counter() - t) * 1000)
            if hit is not None:
                hits += 1
                correct += answer_index(hit.body) == i
        with_embed: list[float] = []
        for i in tqdm(query_ids, desc=f"{size}: lookups with embedding", file=sys.stderr):
            t = time.perf_counter()
            await cache.get(keys(similars[i]), model_version="v1")
            with_embed.append((time.perf_counter() - t) * 1000)

        # IVF recall: does the index return the exact top-1 (brute force over all its vectors)?
        recall = math.nan
        if kind == "ivf":
            ids, vectors = cache.index.contents("eval-scope")
            agree = 0
            for i in query_ids:
                exact_top = int(ids[int(np.argmax(vectors @ similar_vecs[i]))])
                found = cache.index.search("eval-scope", similar_vecs[i], 1)
                agree += bool(found) and found[0][0] == exact_top
            recall = agree / len(query_ids)

        rebuilt = SemanticCache(engine, embedder, config)
        t0 = time.perf_counter()
        await rebuilt.start()
        rebuild_s = time.perf_counter() - t0
        await rebuilt.aclose()
    finally:
        await cache.aclose()
        await engine.dispose()
    return LatencyRow(
        entries=size,
        scopes=scopes,
        index_kind=kind,
        insert_s=insert_s,
        rebuild_s=rebuild_s,
        no_embed_p50=percentile(no_embed, 50),
        no_embed_p95=percentile(no_embed, 95),
        embed_p50=percentile(with_embed, 50),
        embed_p95=percentile(with_embed, 95),
        hit_rate=hits / len(query_ids),
        precision=correct / hits if hits else 1.0,
        ivf_top1_recall=recall,
    )


def render_latency(rows: Sequence[LatencyRow], n_queries: int) -> str:
    lines = [
        "| entries | scopes | index (queried scope) | lookup p50 / p95 without embedding | lookup p50 / p95 with embedding | hit rate / precision | IVF top-1 recall | bulk insert | rebuild at start-up |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        recall = "-" if math.isnan(r.ivf_top1_recall) else pct(r.ivf_top1_recall)
        lines.append(
            f"| {r.entries:,} | {r.scopes:,} | {r.index_kind} | {r.no_embed_p50:.2f} / {r.no_embed_p95:.2f} ms | "
            f"{r.embed_p50:.2f} / {r.embed_p95:.2f} ms | {pct(r.hit_rate)} / {pct(r.precision)} | {recall} | "
            f"{r.insert_s:.1f} s | {r.rebuild_s:.1f} s |"
        )
    load = os.getloadavg()
    return "\n".join(lines) + (
        f"\n\n{n_queries} queries per size (GPTCache `similar` texts), SQLite file database; machine: "
        f"{os.cpu_count()} CPUs, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1/5/15 min) at the end "
        "of the run (other jobs share these CPUs)."
    )


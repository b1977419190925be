"""Evaluation of the semantic cache: ``thrifty eval cache [--data-dir ../shared/data]``.

1. GPTCache's protocol on ``<data-dir>/semantic-cache/gptcache_mock_data.json``: store every
   ``origin`` (answer: its index), query every ``similar``; a hit is correct only when it returns
   the pair's own index. Run on a *calibration* split (the first half: pairs 0-499 of the 999; the
   default threshold is chosen there), a *report* split (the second half; never used for choosing)
   and the full file, for a grid of thresholds, with and without verification and the ambiguity
   margin.
2. The development set ``data/dev_hard_negatives.json`` (hand-written; rules were written while
   reading it): pairs that must never hit and controls that should, through the real cache; plus
   scope checks (conversation, system prompt, tenant, parameters, model) through ``ResponseCache``
   and a long-prompt truncation check.
   The held-out set (``shipped_sets.HELDOUT_SET``, generated from templates over public lists and
   frozen before any rule changed; never read while writing rules): its false-hit rate and its
   paraphrases' hit rate, each with a Wilson 95% interval. The sets ship with the package, so this
   section runs without ``--data-dir`` (``--sets-only``).
3. Lookup latency p50/p95 with and without embedding at several cache sizes (1k and 100k by
   default), one scope, SQLite; entries beyond the real ones are random unit vectors.

Prints markdown (for BENCHMARKS.md) on stdout and progress on stderr. This module is the command line;
the sections live in ``gptcache_protocol``, ``shipped_sets`` and ``lookup_latency``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import tempfile
from pathlib import Path

from benchmarks.caches.eval_common import embed_all, pct
from benchmarks.caches.gptcache_protocol import (
    DEFAULT_THRESHOLDS,
    MODES,
    SELECTION_PRECISION,
    TARGET_PRECISION,
    SplitResult,
    gptcache_split,
    render_split,
    select_threshold,
)
from benchmarks.caches.lookup_latency import latency, render_latency
from benchmarks.caches.shipped_sets import HELDOUT_SET, HELDOUT_SETS, sets_section
from caches.config import CacheConfig
from caches.embedder import (
    EMBEDDING_DTYPES,
    Embedder,
    EmbedderConfig,
    SentenceTransformerEmbedder,
    resolve_embedding_dtype,
)

__all__ = ["main"]


def _resolve_data_dir(arg: str | None) -> Path | None:
    if arg is not None:
        path = Path(arg)
        return path if path.is_dir() else None
    default = Path.cwd() / ".." / "shared" / "data"
    return default.resolve() if default.is_dir() else None


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="thrifty eval cache", description=__doc__.split("\n")[0])
    p.add_argument(
        "--data-dir", default=None, help="benchmark data folder (default: ../shared/data if it exists)"
    )
    p.add_argument("--thresholds", default=",".join(f"{t:.2f}" for t in DEFAULT_THRESHOLDS),
                   help="similarity grid, comma-separated numbers in (0, 1] (the configured default is always added)")
    p.add_argument(
        "--sizes",
        default="1000,100000,100000x10000",
        help="cache sizes for the latency runs, comma-separated; NxS spreads the synthetic entries over S scopes",
    )
    p.add_argument("--latency-queries", type=int, default=300)
    p.add_argument("--skip-latency", action="store_true")
    p.add_argument(
        "--embed-threads",
        type=int,
        default=None,
        help="torch intra-op threads of the embedder's thread (default: torch's default, all cores)",
    )
    p.add_argument(
        "--calibration-only",
        action="store_true",
        help="run only the calibration split of the GPTCache protocol (for developing rules and thresholds)",
    )
    p.add_argument("--skip-hard-negatives", action="store_true", help="skip the development and held-out sets")
    p.add_argument("--sets-only", action="store_true",
                   help="only the shipped development and held-out sets (no GPTCache data, no latency)")
    p.add_argument("--heldout-set", default=HELDOUT_SET, choices=HELDOUT_SETS,
                   help=f"the generated set reported as held out (default: {HELDOUT_SET})")
    p.add_argument("--show-heldout-cases", action="store_true",
                   help="print the held-out set's false hits and missed paraphrases (never while tuning rules)")
    p.add_argument(
        "--embedder-path",
        default=None,
        help="sentence-transformers model folder (default: all-MiniLM-L6-v2 wheel)",
    )
    p.add_argument(
        "--embed-dtype",
        default="auto",
        choices=EMBEDDING_DTYPES,
        help="embedder dtype, as [cache] embed_dtype (default: auto, the proxy's default)",
    )
    return p.parse_args(argv)


class UsageError(ValueError):
    """A command-line value that cannot be used (the message names the option)."""


def parse_thresholds(text: str) -> tuple[float, ...]:
    """``--thresholds``: comma-separated similarities in (0, 1].

    Raises:
        UsageError: empty, not a number, or out of range.
    """
    try:
        values = tuple(float(t) for t in text.split(",") if t.strip())
    except ValueError:
        raise UsageError(f"--thresholds {text!r}: expected comma-separated numbers such as 0.85,0.90") from None
    if not values or not all(0 < v <= 1 for v in values):
        raise UsageError(f"--thresholds {text!r}: expected comma-separated numbers in (0, 1] such as 0.85,0.90")
    return values


def parse_sizes(text: str) -> tuple[tuple[int, int], ...]:
    """``--sizes``: comma-separated cache sizes, each ``N`` or ``NxS`` (N entries over S scopes).

    Raises:
        UsageError: empty, not integers, or not positive.
    """
    sizes = []
    for spec in (s.strip() for s in text.split(",")):
        if not spec:
            continue
        entries, x, scopes = spec.partition("x")
        try:
            size = (int(entries), int(scopes) if x else 1)
        except ValueError:
            size = (0, 0)
        if size[0] < 1 or size[1] < 1:
            raise UsageError(f"--sizes {text!r}: {spec!r} is not N or NxS with positive integers (e.g. 1000,100000x10000)")
        sizes.append(size)
    if not sizes:
        raise UsageError(f"--sizes {text!r}: expected at least one size such as 1000")
    return tuple(sizes)


async def _run_sets_only(args: argparse.Namespace, embedder: Embedder | None) -> int:
    """The shipped sets alone (no GPTCache data, no latency)."""
    config = CacheConfig()
    if embedder is None:
        embedder = SentenceTransformerEmbedder(EmbedderConfig(model_path=args.embedder_path, dtype=args.embed_dtype,
                                                              threads=args.embed_threads, memo_size=0))
    print("# Semantic cache evaluation (shipped sets only)\n")
    print(f"Command: `{args.command_line}`\n")
    with tempfile.TemporaryDirectory(prefix="thrifty-eval-") as tmp_name:
        ok, summary = await sets_section(embedder, config, Path(tmp_name), heldout_set=args.heldout_set,
                                              show_heldout_cases=args.show_heldout_cases)
    print("## Summary\n")
    print("\n".join(summary))
    print(f"\nQuality targets met (exit status {0 if ok else 1}; development and held-out sets): {ok}")
    return 0 if ok else 1


async def _run(args: argparse.Namespace, data_dir: Path, embedder: Embedder | None) -> int:
    thresholds, sizes = args.threshold_values, args.size_values
    config = CacheConfig()
    sem = config.semantic
    if embedder is None:
        embedder = SentenceTransformerEmbedder(
            # memo off: every timed lookup "with embedding" really embeds its text
            EmbedderConfig(model_path=args.embedder_path, dtype=args.embed_dtype, threads=args.embed_threads,
                           memo_size=0)
        )

    raw = json.loads((data_dir / "semantic-cache" / "gptcache_mock_data.json").read_text("utf-8"))
    origins = [p["origin"] for p in raw]
    similars = [p["similar"] for p in raw]
    print("# Semantic cache evaluation\n")
    print(f"Command: `{args.command_line}`")
    print(
        f"\nEmbedder: {sem.embedder_id} (dim {embedder.dim}); index: per-scope FAISS, flat below "
        f"{sem.index.ivf_min_size:,} vectors, IVF (nprobe {sem.index.nprobe}) above; top_k {sem.top_k}; "
        f"default threshold {sem.threshold:.2f}, ambiguity margin {sem.ambiguity_margin:.2f}; embedding threads "
        f"(on the embedder's own thread): {args.embed_threads or 'torch default'}, embedding memo off; embedder dtype {args.embed_dtype} "
        f"({str(resolve_embedding_dtype(args.embed_dtype, 'cpu')).removeprefix('torch.')} on this CPU).\n"
    )
    origin_vecs = embed_all(embedder, origins, "embedding origins")
    similar_vecs = embed_all(embedder, similars, "embedding similars")

    with tempfile.TemporaryDirectory(prefix="thrifty-eval-") as tmp_name:
        tmp = Path(tmp_name)
        half = (len(raw) + 1) // 2  # first half chooses the threshold, second half reports
        splits = [
            (f"calibration (pairs 0-{half - 1})", range(0, half)),
            (f"report (pairs {half}-{len(raw) - 1})", range(half, len(raw))),
            (f"full file ({len(raw)} pairs)", range(len(raw))),
        ]
        if args.calibration_only:  # development: look at the calibration split, never at the report split
            splits = splits[:1]
        results: list[SplitResult] = []
        for name, idx in splits:
            ids = list(idx)
            results.append(
                await gptcache_split(
                    name.split(" ")[0],
                    [origins[i] for i in ids],
                    [similars[i] for i in ids],
                    origin_vecs[ids],
                    similar_vecs[ids],
                    sem,
                    embedder,
                    thresholds,
                    tmp,
                )
            )
        chosen = select_threshold(results[0], thresholds)
        print("## 1. GPTCache protocol\n")
        print(
            "Store every `origin` (answer = its index), query every `similar`; a hit is correct only if it returns "
            "that pair's own index (strict precision, the headline figure). The file repeats some origins "
            "verbatim under different indices: one scope holds one row per question, and a question stored "
            "again with a different answer (same model version) becomes *contested* and is never served to a "
            "paraphrase, so those pairs miss. The last column also gives the Wilson 95% lower bound of the strict "
            "precision and, for comparison with earlier runs, the precision when a hit returning an identical "
            "origin text counts as correct.\n"
        )
        print(
            f"Threshold selection (calibration split only): the lowest grid threshold whose strict precision "
            f"(verify + margin) is >= {SELECTION_PRECISION:.1%} there and at every higher grid threshold: "
            f"**{'none' if chosen is None else f'{chosen:.2f}'}**; configured default: **{sem.threshold:.2f}**"
            f"{'' if chosen is not None and abs(chosen - sem.threshold) < 1e-9 else ' (DIFFERS: update the default)'}."
            "\n"
        )
        for res in results:
            print(
                f"### {res.name} split: {res.pairs} pairs, {res.duplicate_origins} duplicate origin texts\n"
            )
            print(render_split(res, thresholds, sem.threshold))
            print(
                f"\nEnd-to-end `SemanticCache.get()` at the default agrees with the sweep: {res.end_to_end_agrees}.\n"
            )
        summary: list[str] = []
        quality_ok = True
        if args.calibration_only:
            print("Calibration split only (--calibration-only): no report figures.\n")
        else:
            report = results[1].table[(sem.threshold, MODES[-1][0])]
            print(
                f"Report split at the default threshold: hit rate {pct(report.hit_rate)}, precision "
                f"{pct(report.precision)} strict (Wilson 95% lower bound {pct(report.precision_lower_bound)}) / "
                f"{pct(report.precision_same_text)} with identical origin texts counted correct (target: >= 99% "
                f"at >= 45% hit rate; GPTCache's figure: 94.4% at 45%).\n"
            )
            quality_ok = report.precision >= TARGET_PRECISION and report.hit_rate >= 0.45
            summary.append(
                f"- precision >= 99% at hit rate >= 45% (report split, default threshold): hit rate "
                f"{pct(report.hit_rate)}; strict precision {pct(report.precision)} "
                f"({'met' if quality_ok else 'NOT met'}); precision with identical origin "
                f"texts counted correct {pct(report.precision_same_text)}"
            )
        if not args.skip_hard_negatives:
            sets_ok, sets_summary = await sets_section(embedder, config, tmp, heldout_set=args.heldout_set,
                                                        show_heldout_cases=args.show_heldout_cases)
            quality_ok = quality_ok and sets_ok
            summary += sets_summary

        if not args.skip_latency:
            print("## 3. Lookup latency\n")
            print(
                "The 999 real origins in the queried scope plus random unit vectors (synthetic entries, not "
                "embedded text) up to the size, in that scope or spread over the other scopes; `get()` end to end "
                "(FAISS search in the thread pool, candidate rows and the answer read from SQLite, verification), "
                "with a precomputed query vector and with embedding. Random vectors never come near a real "
                "question, so they cost search time but do not change which entry hits.\n"
            )
            rows = [
                await latency(
                    embedder,
                    origins,
                    similars,
                    origin_vecs,
                    similar_vecs,
                    size,
                    args.latency_queries,
                    sem,
                    tmp,
                    scopes=scopes,
                )
                for size, scopes in sizes
            ]
            print(render_latency(rows, args.latency_queries))
            print()
            for r in rows:
                if r.entries >= 100_000 and r.scopes == 1:
                    summary.append(
                        f"- lookup p95 at {r.entries:,} entries: {r.no_embed_p95:.2f} ms without embedding "
                        f"(target <= 10 ms: {'met' if r.no_embed_p95 <= 10 else 'NOT met'}), {r.embed_p95:.2f} ms "
                        f"with embedding (target <= 30 ms: {'met' if r.embed_p95 <= 30 else 'NOT met'}; "
                        "timing depends on machine load)"
                    )
    print("## Summary\n")
    print("\n".join(summary))
    covered = ["report-split precision and hit rate" if not args.calibration_only else None,
               None if args.skip_hard_negatives else "development and held-out hard negatives and scope checks"]
    covered_text = " and ".join(c for c in covered if c) or "nothing (all quality checks skipped)"
    print(f"\nQuality targets met (exit status {0 if quality_ok else 1}; it covers {covered_text}, not latency): "
          f"{quality_ok}")
    return 0 if quality_ok else 1


def main(argv: list[str] | None = None, *, embedder: Embedder | None = None) -> int:
    """Run the evaluation; returns 0 when the precision/hit-rate/hard-negative targets are met,
    1 when not, 2 on usage errors (e.g. no data folder). ``embedder``: reuse a loaded model."""
    args = _parse_args(argv)
    try:
        # the configured default is always swept: the report and the summary are read at it
        args.threshold_values = tuple(sorted({*parse_thresholds(args.thresholds), CacheConfig().semantic.threshold}))
        args.size_values = parse_sizes(args.sizes)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    shown = sys.argv[1:] if argv is None else argv
    args.command_line = " ".join(["thrifty eval cache", *shown])
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    data_dir = _resolve_data_dir(args.data_dir)
    if args.sets_only or (args.data_dir is None and data_dir is None):
        if not args.sets_only:
            print("note: no benchmark data folder (../shared/data); running the shipped sets only", file=sys.stderr)
        return asyncio.run(_run_sets_only(args, embedder))
    if data_dir is None or not (data_dir / "semantic-cache" / "gptcache_mock_data.json").is_file():
        where = args.data_dir or str(Path.cwd() / ".." / "shared" / "data")
        print(
            f"error: benchmark data not found at {where!r}: pass --data-dir pointing at a folder with "
            "semantic-cache/gptcache_mock_data.json",
            file=sys.stderr,
        )
        return 2
    return asyncio.run(_run(args, data_dir, embedder))


if __name__ == "__main__":
    raise SystemExit(main())

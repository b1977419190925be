"""Evaluation of the random, heuristic and learned routers on held-out public data.

Protocol (fixed and documented, nothing is tuned on a test split):

* **MMLU, held out by domain.** The sorted list of MMLU domains in the data folder is permuted
  with ``numpy.random.default_rng(split_seed)``; the first ``round(test_fraction * n)`` domains
  are the test domains (defaults: seed 0, 30 % -> 14 of 46), the rest are training domains.
  No domain is in both.
* **GSM8K, held out by row.** Rows are permuted with ``default_rng(split_seed)``; the first
  ``round(test_fraction * n)`` rows are test rows (396 of 1,319), the rest training rows.
* **Data-quality rule, fixed a priori and independent of router scores**: an MMLU domain whose
  strong-model accuracy is below chance (25 %) is mis-graded and is excluded from training *and*
  evaluation (the primary report). A second report keeps every domain in training and test.
* **Training set of the evaluated learned router**: the MMLU training domains, the GSM8K training
  rows and all of MT-Bench. Hyper-parameters were chosen by cross-validation inside the training
  domains only.
* **Robustness**: the same protocol over split seeds ``0..N-1`` (``--seeds``, default 10; the
  learned router refitted per seed), reported as mean ± sd with mean cost-quality curves
  (:mod:`benchmarks.router.multiseed`).
* **Cascade** (:mod:`router.cascade`): on GSM8K, an escalation model on the weak model's answer,
  next to the prompt-only routers on the same held-out rows.
* Metrics per router (:mod:`router.metrics`): APGR (exact area and RouteLLM's 11-point grid),
  CPT(50 %), CPT(80 %), and the cost-quality table at 0, 10, ..., 100 % large-model calls.
* Decision latency: ``router.decide(body, embedding)`` with the embedding precomputed, i.e.
  features + classifier + share-mode policy, over many calls on CPU; the shared embedding's own
  latency is reported separately.

Command line::

    python -m benchmarks.router.evaluation --data-dir ../shared/data
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.router.multiseed import Pool, SeedScore, evaluate_seeds, format_seeds
from caches.embedder import Embedder
from router.cascade import evaluate_gsm8k_cascade, format_cascade, load_gsm8k_answers
from router.config import RouterConfig
from router.data import (
    LabelledExample,
    load_gsm8k,
    load_mmlu,
    load_mt_bench,
    mmlu_domains,
    model_pair,
    sane_mmlu_domains,
    split_rows,
)
from router.errors import RouterDataError
from router.features import extract_features
from router.metrics import (
    CurvePoint,
    RoutingCurve,
    apgr,
    apgr_grid,
    cpt,
    curve_table,
    optimal_curve,
    routing_curve,
)
from router.registry import Router, build_router
from router.training.config import TrainingConfig
from router.training.fitting import fit_classifier
from router.training.inputs import embed_texts, embedder_name, featurize
from router.training.public_data import resolve_data_dir
from router.training.reproducibility import single_threaded

ROUTERS_EVALUATED: tuple[str, ...] = ("random", "heuristic", "learned")


@dataclass(frozen=True, slots=True)
class DataSplit:
    """The fixed evaluation split."""

    train_domains: tuple[str, ...]
    test_domains: tuple[str, ...]
    gsm8k_test_rows: tuple[int, ...]
    gsm8k_train_rows: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RouterReport:
    """Metrics of one router on one test set."""

    router: str
    apgr: float
    apgr_grid: float
    cpt50: float
    cpt80: float
    table: tuple[CurvePoint, ...]


@dataclass(frozen=True, slots=True)
class BenchmarkReport:
    """All routers on one test set."""

    name: str
    n: int
    weak_quality: float
    strong_quality: float
    routers: tuple[RouterReport, ...]


@dataclass(frozen=True, slots=True)
class LatencyReport:
    """Decision latency of one router, in milliseconds."""

    router: str
    calls: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    mean_ms: float


def split_domains(
    domains: Sequence[str], test_fraction: float = 0.3, seed: int = 0
) -> tuple[list[str], list[str]]:
    """(train, test) domains: a seeded permutation of the sorted names, the first part is test."""
    names = sorted(domains)
    order = np.random.default_rng(seed).permutation(len(names))
    n_test = int(round(test_fraction * len(names)))
    test = sorted(names[i] for i in order[:n_test])
    return [d for d in names if d not in set(test)], test


def report_for(name: str, scores: np.ndarray, weak: np.ndarray, strong: np.ndarray) -> RouterReport:
    """Metrics of ``scores`` against per-prompt weak/strong quality."""
    return curve_report(name, routing_curve(scores, weak, strong))


def curve_report(name: str, curve: RoutingCurve) -> RouterReport:
    """The metrics of one routing curve under the router name ``name``."""
    return RouterReport(
        router=name,
        apgr=apgr(curve),
        apgr_grid=apgr_grid(curve),
        cpt50=cpt(curve, 0.5),
        cpt80=cpt(curve, 0.8),
        table=tuple(curve_table(curve)),
    )


def score_all(router: Router, examples: Sequence[LabelledExample], embeddings: np.ndarray) -> np.ndarray:
    """``router.score`` of every example (embeddings precomputed)."""
    return np.array(
        [router.score(extract_features(ex.body), embeddings[i]) for i, ex in enumerate(examples)],
        dtype=np.float64,
    )


def measure_latency(
    router: Router, bodies: Sequence[Any], embeddings: np.ndarray, calls: int, warmup: int = 200
) -> LatencyReport:
    """Latency of ``router.decide(body, embedding)`` (the embedding is not part of it)."""
    n = len(bodies)
    for i in range(min(warmup, calls)):
        router.decide(bodies[i % n], embeddings[i % n])
    times = np.empty(calls, dtype=np.float64)
    for i in range(calls):
        start = time.perf_counter_ns()
        router.decide(bodies[i % n], embeddings[i % n])
        times[i] = (time.perf_counter_ns() - start) / 1e6
    return LatencyReport(
        router=router.kind,
        calls=calls,
        p50_ms=float(np.percentile(times, 50)),
        p95_ms=float(np.percentile(times, 95)),
        p99_ms=float(np.percentile(times, 99)),
        mean_ms=float(times.mean()),
    )


def measure_embedding_latency(embedder: Embedder, texts: Sequence[str], calls: int) -> LatencyReport:
    """Latency of embedding one routing text (the shared part, for reference)."""
    embedder.embed([texts[0]])
    times = np.empty(calls, dtype=np.float64)
    for i in range(calls):
        start = time.perf_counter_ns()
        embedder.embed([texts[i % len(texts)]])
        times[i] = (time.perf_counter_ns() - start) / 1e6
    return LatencyReport(
        router="embedding (shared, one text)",
        calls=calls,
        p50_ms=float(np.percentile(times, 50)),
        p95_ms=float(np.percentile(times, 95)),
        p99_ms=float(np.percentile(times, 99)),
        mean_ms=float(times.mean()),
    )


def _pct(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value * 100:.1f}%"


def format_benchmark(report: BenchmarkReport) -> str:
    """Markdown tables (metrics, then the cost-quality curve) for one test set."""
    lines = [
        f"### {report.name}",
        "",
        f"n = {report.n}; quality all-weak = {report.weak_quality:.4f}, all-strong = {report.strong_quality:.4f}, "
        f"gap = {report.strong_quality - report.weak_quality:.4f}",
        "",
        "| router | APGR | APGR (RouteLLM 11-point) | CPT(50%) | CPT(80%) |",
        "|---|---|---|---|---|",
    ]
    for r in report.routers:
        lines.append(f"| {r.router} | {r.apgr:.3f} | {r.apgr_grid:.3f} | {_pct(r.cpt50)} | {_pct(r.cpt80)} |")
    lines += ["", "Cost-quality curve (quality / PGR at each share of large-model calls):", ""]
    header = (
        "| large-model calls | "
        + " | ".join(f"{r.router} quality | {r.router} PGR" for r in report.routers)
        + " |"
    )
    lines += [header, "|---" * (1 + 2 * len(report.routers)) + "|"]
    for i, point in enumerate(report.routers[0].table):
        cells = " | ".join(f"{r.table[i].quality:.4f} | {r.table[i].pgr:.3f}" for r in report.routers)
        lines.append(f"| {point.share * 100:.0f}% | {cells} |")
    return "\n".join(lines)


def format_latency(reports: Sequence[LatencyReport]) -> str:
    """Markdown latency table."""
    lines = [
        "| router | calls | p50 (ms) | p95 (ms) | p99 (ms) | mean (ms) |",
        "|---|---|---|---|---|---|",
    ]
    for r in reports:
        lines.append(
            f"| {r.router} | {r.calls} | {r.p50_ms:.3f} | {r.p95_ms:.3f} | {r.p99_ms:.3f} | {r.mean_ms:.3f} |"
        )
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="thrifty eval router",
        description="Evaluate random, heuristic and learned routers (APGR, CPT, latency).",
    )
    parser.add_argument("--data-dir", default=None, help="public data folder (default ../shared/data)")
    parser.add_argument(
        "--test-fraction", type=float, default=0.3, help="share of MMLU domains / GSM8K rows held out"
    )
    parser.add_argument("--split-seed", type=int, default=0, help="seed of the domain and row splits")
    parser.add_argument("--seed", type=int, default=0, help="seed of training and of the random router")
    parser.add_argument("--latency-calls", type=int, default=3000, help="decisions timed per router")
    parser.add_argument(
        "--embedding-calls", type=int, default=100, help="single-text embeddings timed (for reference)"
    )
    parser.add_argument(
        "--seeds", type=int, default=10, help="also report mean ± sd over split seeds 0..N-1 (0: skip)"
    )
    parser.add_argument("--embedding-cache", default=None, help="optional .npz cache of embeddings")
    parser.add_argument("--json-out", default=None, help="also write the results as JSON here")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    return parser


def _benchmark(
    name: str,
    routers: dict[str, Router],
    examples: Sequence[LabelledExample],
    embeddings: np.ndarray,
) -> BenchmarkReport:
    weak = np.array([ex.weak for ex in examples], dtype=np.float64)
    strong = np.array([ex.strong for ex in examples], dtype=np.float64)
    reports = [
        report_for(kind, score_all(router, examples, embeddings), weak, strong)
        for kind, router in routers.items()
    ]
    reports.append(curve_report("oracle (upper bound)", optimal_curve(weak, strong)))
    return BenchmarkReport(
        name=name,
        n=len(examples),
        weak_quality=float(weak.mean()),
        strong_quality=float(strong.mean()),
        routers=tuple(reports),
    )


def _cascade_section(
    data_dir: Path, args: argparse.Namespace, examples: Sequence[LabelledExample], gsm8k: BenchmarkReport,
    seed_results: Sequence[SeedScore],
) -> str:
    """The GSM8K cascade next to the prompt-only routers on the same held-out rows (``examples``:
    the GSM8K rows the benchmark split)."""
    try:
        answers = load_gsm8k_answers(data_dir, examples)
    except RouterDataError as exc:
        return f"### GSM8K cascade\n\nskipped: {exc}"

    def split(seed: int) -> tuple[list[int], list[int]]:
        return split_rows(len(examples), args.test_fraction, seed)

    # one pass: the primary split first, then every seed (features are built once per call)
    primary, *over_seeds = evaluate_gsm8k_cascade(examples, answers, split, [args.split_seed, *range(args.seeds)])
    prompt_only = {
        f"{r.router} (prompt only)": (
            r.apgr,
            [s.apgr for s in seed_results if s.test_set == "GSM8K held-out rows" and s.router == r.router],
        )
        for r in gsm8k.routers
        if r.router in ROUTERS_EVALUATED
    }
    return format_cascade(primary, over_seeds, prompt_only)


@dataclass(frozen=True, slots=True)
class _Candidate:
    name: str
    model: Any
    examples: list[LabelledExample]


def _split_fn(
    domains: Sequence[str], n_gsm8k: int, test_fraction: float
) -> Callable[[int], tuple[list[str], list[int], list[int]]]:
    def split(seed: int) -> tuple[list[str], list[int], list[int]]:
        _, test_domains = split_domains(domains, test_fraction, seed)
        gsm_train, gsm_test = split_rows(n_gsm8k, test_fraction, seed)
        return test_domains, gsm_train, gsm_test

    return split


def main(
    argv: Sequence[str] | None = None,
    *,
    embedder: Embedder | None = None,
    out: Callable[[str], None] = print,
) -> int:
    """Run the evaluation and print markdown tables; returns the exit code."""
    args = _parser().parse_args(argv)
    progress = not args.quiet
    try:
        data_dir = resolve_data_dir(args.data_dir)
        domains = mmlu_domains(data_dir)
        train_domains, test_domains = split_domains(domains, args.test_fraction, args.split_seed)
        if not train_domains or not test_domains:
            raise RouterDataError("the domain split left no training or no test domains")
        mmlu_all = load_mmlu(data_dir, domains)
        sane = sane_mmlu_domains(mmlu_all)  # the data-quality rule: a property of the files alone
        misgraded = sorted({ex.group for ex in mmlu_all} - sane)
        gsm8k = load_gsm8k(data_dir)
        gsm_train_rows, gsm_test_rows = split_rows(len(gsm8k), args.test_fraction, args.split_seed)
        weak_model, strong_model = model_pair(data_dir)
        mt_bench = load_mt_bench(data_dir, weak_model, strong_model)
    except RouterDataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if embedder is None:
        from caches.embedder import EmbedderConfig, SentenceTransformerEmbedder

        embedder = SentenceTransformerEmbedder(EmbedderConfig(dtype="float32"))  # as in training

    everything = mmlu_all + gsm8k + mt_bench
    texts, _ = featurize(everything)
    all_emb = embed_texts(embedder, texts, progress=progress, cache_path=args.embedding_cache)
    index = {id(ex): i for i, ex in enumerate(everything)}

    def rows_of(examples: Sequence[LabelledExample]) -> np.ndarray:
        return np.array([index[id(ex)] for ex in examples], dtype=int)

    test_set = set(test_domains)
    mmlu_train_all = [ex for ex in mmlu_all if ex.group.removeprefix("mmlu/") not in test_set]
    mmlu_train = [ex for ex in mmlu_train_all if ex.group in sane]
    mmlu_test_all = [ex for ex in mmlu_all if ex.group.removeprefix("mmlu/") in test_set]
    mmlu_test = [ex for ex in mmlu_test_all if ex.group in sane]
    gsm_train = [gsm8k[i] for i in gsm_train_rows]
    gsm_test = [gsm8k[i] for i in gsm_test_rows]

    def fit(train: list[LabelledExample], folds: int) -> tuple[Any, float]:
        started = time.perf_counter()
        x = rows_of(train)
        _, stats = featurize(train)
        classifier = fit_classifier(
            all_emb[x], stats, np.array([ex.label for ex in train]), [ex.source for ex in train],
            [ex.group for ex in train], config=TrainingConfig(seed=args.seed, calibration_folds=folds),
            embedder=embedder_name(embedder), progress=progress,
        )
        return classifier, time.perf_counter() - started

    train = mmlu_train + gsm_train + mt_bench
    with single_threaded():  # reproducible, and far faster than oversubscribed BLAS threads
        classifier, train_seconds = fit(train, TrainingConfig().calibration_folds)
        no_rule_classifier, _ = fit(mmlu_train_all + gsm_train + mt_bench, 0)

    def routers(model: Any = classifier) -> dict[str, Router]:
        return {
            kind: build_router(RouterConfig(kind=kind, seed=args.seed), embedder, classifier=model)
            for kind in ROUTERS_EVALUATED
        }

    candidates = [
        _Candidate(
            f"MMLU, {len(test_domains)} held-out domains, data-quality rule applied "
            f"({', '.join(g.removeprefix('mmlu/') for g in misgraded) or 'none'} excluded from training and test; "
            "primary)",
            classifier, mmlu_test,
        ),
        _Candidate(
            f"MMLU, {len(test_domains)} held-out domains, no data-quality rule (trained and tested on every domain)",
            no_rule_classifier, mmlu_test_all,
        ),
        _Candidate("GSM8K, held-out rows", classifier, gsm_test),
    ]
    benchmarks = [
        _benchmark(c.name, routers(c.model), c.examples, all_emb[rows_of(c.examples)])
        for c in candidates
        if c.examples  # a split can leave a test set empty (e.g. only mis-graded test domains)
    ]
    test = mmlu_test + gsm_test
    test_emb = all_emb[rows_of(test)]
    latencies = [
        measure_latency(router, [ex.body for ex in test], test_emb, args.latency_calls)
        for router in routers().values()
    ]
    latencies.append(measure_embedding_latency(embedder, texts[:200], max(1, args.embedding_calls)))

    seed_results: list[SeedScore] = []
    if args.seeds > 0:
        pool = Pool.build(everything, all_emb)
        with single_threaded():
            seed_results = evaluate_seeds(
                pool, {g.removeprefix("mmlu/") for g in misgraded},
                _split_fn(domains, len(gsm8k), args.test_fraction), range(args.seeds),
                config=TrainingConfig(seed=args.seed), progress=progress,
            )

    cascade_text = _cascade_section(data_dir, args, gsm8k, benchmarks[-1], seed_results)

    lines = [
        "## Router evaluation",
        "",
        f"Command: `thrifty eval router {' '.join(argv if argv is not None else sys.argv[1:])}`".rstrip(),
        "",
        f"Models: weak = {weak_model}, strong = {strong_model}.",
        "Data-quality rule (fixed before looking at any router score): an MMLU domain whose strong-model accuracy "
        f"is below chance (25%) is mis-graded and left out of training and evaluation: "
        f"{', '.join(misgraded) or 'none'}. Reports marked 'no rule' keep every domain in training and test.",
        f"Primary split (seed {args.split_seed}, {args.test_fraction:.0%} held out): MMLU test domains "
        f"({len(test_domains)}): {', '.join(test_domains)}. MMLU training domains: {len(train_domains)}. "
        f"GSM8K: {len(gsm_test)} test rows, {len(gsm_train)} training rows.",
        f"Learned router's training set: {len(mmlu_train)} MMLU rows from the training domains + {len(gsm_train)} "
        f"GSM8K training rows + {len(mt_bench)} MT-Bench turns = {len(train)} rows (no test domain, no GSM8K test "
        f"row); fitted in {train_seconds:.0f} s. Random router seed {args.seed}.",
        "APGR = area under PGR(share) over large-model shares 0..100% (exact curve); the 11-point column uses "
        "RouteLLM's grid and trapezoid rule. CPT(x) = smallest large-model share with PGR >= x.",
        "",
    ]
    for bench in benchmarks:
        lines += [format_benchmark(bench), ""]
    if seed_results:
        lines += [format_seeds(seed_results), ""]
    lines += [cascade_text, ""]
    lines += [
        "### Decision latency (CPU, features + classifier + policy; embedding precomputed and excluded)",
        "",
        format_latency(latencies),
        "",
    ]
    out("\n".join(lines))
    if args.json_out:
        payload = {
            "split": asdict(
                DataSplit(
                    tuple(train_domains), tuple(test_domains), tuple(gsm_test_rows), tuple(gsm_train_rows)
                )
            ),
            "misgraded": misgraded,
            "benchmarks": [asdict(b) for b in benchmarks],
            "seeds": [asdict(r) for r in seed_results],
            "latency": [asdict(lat) for lat in latencies],
        }
        Path(args.json_out).write_text(json.dumps(payload, indent=2, default=float), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

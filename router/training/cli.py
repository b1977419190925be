"""The training command line (``python -m router.training``, ``thrifty router train``): loads public data
and/or logged requests, trains, writes the artifact and prints its summary; ``--expect`` checks that the
artifact reproduces byte for byte."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from caches.embedder import Embedder
from router.classifier import DifficultyClassifier, save_artifact
from router.data import LabelledExample, load_logs
from router.errors import RouterDataError
from router.training.config import TrainingConfig
from router.training.fitting import train_router
from router.training.public_data import PUBLIC_SOURCES, load_public_examples, resolve_data_dir
from router.training.reproducibility import single_threaded


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="router.training", description="Train the learned router and write its artifact."
    )
    parser.add_argument("--data-dir", default=None, help="public data folder (default ../shared/data)")
    parser.add_argument(
        "--sources",
        default=",".join(PUBLIC_SOURCES),
        help="comma-separated public sources to train on (mmlu,gsm8k,mt_bench; '' for none)",
    )
    parser.add_argument("--logs", default=None, help="JSONL of logged requests with quality signals")
    parser.add_argument("--out", default="router_artifact.joblib",
                        help="artifact to write (default ./router_artifact.joblib; see docs/routing.md)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the calibration folds")
    parser.add_argument("--embedding-cache", default=None, help="optional .npz cache of embeddings")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument(
        "--expect",
        default=None,
        help="exit 1 unless the written artifact is byte-identical to this file (another than --out)",
    )
    return parser


def _iter_summary(classifier: DifficultyClassifier) -> Iterator[str]:
    info = classifier.training
    for source, stats in info.get("per_source", {}).items():
        yield (
            f"  {source}: {stats['rows']} rows, mean label {stats['mean_label']:.3f}, "
            f"out-of-fold AUC {stats['oof_auc'] if stats['oof_auc'] is not None else 'n/a'}"
        )
    yield f"  experts: {', '.join(classifier.gate_classes)}; calibrator a,b = {info.get('calibrator')}"


def main(
    argv: Sequence[str] | None = None,
    *,
    embedder: Embedder | None = None,
    out: Callable[[str], None] = print,
) -> int:
    """Train from public data and/or logs, write the artifact; returns the exit code.

    Args:
        argv: command-line arguments (``sys.argv[1:]`` when ``None``).
        embedder: embedder to use (default: the installed all-MiniLM-L6-v2).
        out: where the summary lines go (default ``print``).
    """
    args = _parser().parse_args(argv)
    if args.expect and Path(args.expect).resolve() == Path(args.out).resolve():
        print(f"error: --out and --expect name the same file ({args.out}): the check would compare the artifact "
              "with itself; write it elsewhere (e.g. the default --out router_artifact.joblib)", file=sys.stderr)
        return 2
    sources = [s for s in args.sources.split(",") if s.strip()]
    try:
        examples: list[LabelledExample] = []
        info: dict[str, Any] = {"sources": list(sources)}
        if sources:
            data_dir = resolve_data_dir(args.data_dir)
            examples.extend(load_public_examples(data_dir, sources))
            info["mmlu_domains"] = sorted(
                {ex.group.removeprefix("mmlu/") for ex in examples if ex.source == "mmlu"}
            )
        if args.logs:
            logged, summary = load_logs(Path(args.logs))
            examples.extend(logged)
            info["logs"] = {
                "used": summary.used,
                "skipped_large_tier": summary.skipped_large,
                "skipped_invalid": summary.skipped_invalid,
            }
            out(
                f"logs: {summary.used} small-tier rows used, {summary.skipped_large} large-tier rows "
                f"skipped, {summary.skipped_invalid} invalid rows skipped"
            )
        if not examples:
            raise RouterDataError("nothing to train on: no public sources and no --logs rows")
        if embedder is None:
            from caches.embedder import EmbedderConfig, SentenceTransformerEmbedder

            # float32 whatever the CPU: the shipped artifact must reproduce byte for byte everywhere
            embedder = SentenceTransformerEmbedder(EmbedderConfig(dtype="float32"))
        with single_threaded():  # byte-reproducible artifacts
            classifier = train_router(
                examples,
                embedder,
                config=TrainingConfig(seed=args.seed),
                progress=not args.quiet,
                embedding_cache=args.embedding_cache,
                training_info=info,
            )
    except RouterDataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    path = save_artifact(classifier, args.out)
    out(f"trained on {len(examples)} examples:")
    for line in _iter_summary(classifier):
        out(line)
    out(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB)")
    if args.expect:
        expected = Path(args.expect)
        same = expected.is_file() and expected.read_bytes() == path.read_bytes()
        out(f"{'identical to' if same else 'DIFFERS from'} {expected} (byte for byte)")
        return 0 if same else 1
    return 0


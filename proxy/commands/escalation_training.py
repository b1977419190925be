"""``thrifty router train-escalation``: train the cascade's escalation artifact from the public GSM8K
answers and, with ``--logs``, from the proxy's own request log.

The command lives in the proxy because it reads the proxy's database; the fitting, saving and
comparing it calls are the router's (:mod:`router.escalation`), which knows nothing of the proxy.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from proxy.commands.router_logs import ExportError, load_cascaded_requests, load_small_answers
from proxy.masking import mask_url
from router.classifier import save_artifact
from router.errors import RouterDataError
from router.escalation import (
    DEFAULT_C,
    REPRODUCE_RTOL,
    artifact_difference,
    default_escalation_path,
    question_text,
    save_escalation,
    train_escalation,
)
from router.metrics import auroc
from router.training.direct_route import fit_direct_route
from router.training.public_data import resolve_data_dir


def main(argv: Sequence[str] | None = None) -> int:
    """``thrifty router train-escalation``: write the cascade's escalation artifact."""
    parser = argparse.ArgumentParser(prog="thrifty router train-escalation", description=main.__doc__)
    parser.add_argument("--data-dir", default=None, help="benchmark data (default: ../shared/data)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to write the artifact (the shipped one only when named; see docs/routing.md)")
    parser.add_argument("--c", type=float, default=DEFAULT_C,
                        help="inverse L2 strength of the logistic regression, > 0")
    parser.add_argument("--expect", type=Path, default=None,
                        help="exit 1 unless the trained artifact is byte-identical to this file")
    parser.add_argument("--logs", metavar="DATABASE_URL", default=None,
                        help="also learn from the request log's judged small answers (needs store_requests)")
    parser.add_argument("--since", default=None, help="with --logs: only requests since (2026-11-30, 7d, 12h)")
    parser.add_argument("--logs-only", action="store_true", help="with --logs: leave the public GSM8K rows out")
    parser.add_argument("--direct-out", type=Path, default=None,
                        help="with --logs: also write combined mode's direct route here (for artifact_path)")
    args = parser.parse_args(argv)
    if not (math.isfinite(args.c) and args.c > 0):
        print(f"error: --c must be a positive number, got {args.c:g}", file=sys.stderr)
        return 2
    if (args.logs_only or args.direct_out) and not args.logs:
        print("error: --logs-only and --direct-out need --logs DATABASE_URL", file=sys.stderr)
        return 2
    if args.out is not None and args.direct_out is not None and args.out.resolve() == args.direct_out.resolve():
        print("error: --out and --direct-out name the same file", file=sys.stderr)
        return 2
    for option, path in (("--out", args.out), ("--direct-out", args.direct_out)):
        if path is not None and (path.is_dir() or not path.parent.is_dir()):
            print(f"error: {option} {str(path)!r}: not a file in an existing folder", file=sys.stderr)
            return 2
    if args.out is None and args.direct_out is not None:  # the direct route alone
        print("no --out: the escalation model is not retrained, only the direct route is learned", file=sys.stderr)
        return _train_direct_route(args.logs, args.since, args.direct_out)
    if args.out is None and args.logs:
        print("error: --logs needs --out FILE (the default is the shipped escalation model)", file=sys.stderr)
        return 2
    if args.out is not None and args.expect is not None and args.out.resolve() == args.expect.resolve():
        print(f"error: --out and --expect name the same file ({args.out}): the check would compare the artifact "
              "with itself; leave --out out to train into a temporary file", file=sys.stderr)
        return 2
    if args.out is None and args.expect is None:
        print(f"error: pass --out FILE: the shipped escalation model ({default_escalation_path()}) is only "
              "overwritten when --out names it; to check that it reproduces, pass --expect FILE instead",
              file=sys.stderr)
        return 2
    if args.out is None:  # --expect alone: train into a temporary file, never over the shipped artifact
        with tempfile.TemporaryDirectory(prefix="thrifty-escalation-") as tmp:
            args.out = Path(tmp) / "escalation.json"
            return _train(args)
    return _train(args)


def _train(args: argparse.Namespace) -> int:
    """The training part of :func:`main` once ``args.out`` is known."""

    logged: list[tuple[Mapping[str, Any], str, float]] = []
    if args.logs:
        print(f"reading judged small answers from {mask_url(args.logs)} ...", file=sys.stderr)
        try:
            examples, summary = load_small_answers(args.logs, args.since)
        except ExportError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"  {summary.cascaded} cascaded requests with a stored small answer and feedback: {summary.examples} "
              f"judged, {summary.unjudged_escalated} escalated with feedback on the large answer only (skipped)",
              file=sys.stderr)
        logged = [(ex.request, ex.answer, ex.quality) for ex in examples]
        if not logged and args.direct_out is not None:
            # the direct route needs no judgement: the cascade's decisions label it
            print("no judged small answers in the log: the escalation model is not retrained, --out is not "
                  "written", file=sys.stderr)
            return _train_direct_route(args.logs, args.since, args.direct_out)
        if not logged:
            print("error: no judged small answers in the log (cascade or combined mode, [router] store_requests "
                  "= true, and feedback or automatic checks on the answers)", file=sys.stderr)
            return 2
    try:
        data_dir = None if args.logs_only else resolve_data_dir(args.data_dir)
        if data_dir is not None:
            print(f"fitting the escalation model on {data_dir}/router/gsm8k ...", file=sys.stderr)
        artifact, provenance = train_escalation(data_dir, args.c, logged)
    except RouterDataError as exc:
        hint = "" if args.logs_only or not args.logs else " (--logs-only trains on the log alone)"
        print(f"error: {exc}{hint}", file=sys.stderr)
        return 2
    save_escalation(artifact, args.out, trained_on=provenance, c=args.c)
    print(f"wrote {args.out} ({provenance})", file=sys.stderr)
    if args.expect is not None:
        difference = artifact_difference(args.expect, args.out)
        if difference is None or difference > REPRODUCE_RTOL:
            detail = "" if difference is None else f" (largest relative difference {difference:.3g})"
            print(f"error: the trained artifact differs from {args.expect}{detail}", file=sys.stderr)
            return 1
        how = "byte for byte" if difference == 0.0 else f"up to float rounding: largest relative difference {difference:.3g}"
        print(f"identical to {args.expect} ({how})", file=sys.stderr)
    if args.direct_out is not None and _train_direct_route(args.logs, args.since, args.direct_out) != 0:
        print(f"(the escalation model in {args.out} was written; the direct route was not)", file=sys.stderr)
        return 2
    return 0


def _train_direct_route(database_url: str, since: str | None, out: Path) -> int:
    """``--direct-out``: fit the direct route on every cascaded request of the log and write it to ``out``."""
    try:
        requests = load_cascaded_requests(database_url, since)
    except ExportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not requests:
        print("error: direct route: the log holds no cascaded request with its small answer (run cascade mode with "
              "[router] store_requests = true; requests sent direct in combined mode are not cascaded)",
              file=sys.stderr)
        return 2
    useless = np.array([r.small_call_of_no_use for r in requests], dtype=np.float64)
    print(f"fitting the direct route on {len(requests)} cascaded requests, {int(useless.sum())} of whose small "
          f"calls were of no use ...", file=sys.stderr)
    try:
        router, scores = fit_direct_route([r.request for r in requests], useless,
                                          [question_text(r.request) for r in requests])
        save_artifact(router, out)
    except RouterDataError as exc:
        print(f"error: direct route: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot write {out}: {exc}", file=sys.stderr)
        return 2
    quality = auroc(useless, scores)
    auc = "n/a" if quality is None else f"{quality:.3f}"
    print(f"wrote {out} (out-of-fold AUROC {auc}, folds by prompt text: near-duplicate prompts make it optimistic); "
          f"use it as [router] artifact_path in mode = \"combined\" and set direct_threshold on its scale (the "
          f"default 0.217 is the shipped router's): a request whose probability of a useless small call is at or "
          f"above it goes straight to the large tier (1 - small/large price is where the small call stops paying "
          f"for itself)", file=sys.stderr)
    if len(requests) < 100:
        print(f"warning: {len(requests)} cascaded requests are few for a router; its scores will be extreme",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

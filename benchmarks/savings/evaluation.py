"""``thrifty eval savings``: cost, quality and latency of a trace replayed through a real proxy,
against sending every request straight to the strong model, with the saving attributed to each stage.

The replay upstream (``benchmarks.savings.replay``) impersonates the weak and the strong model of the
public router data behind one local server; ``thrifty proxy serve`` runs as a child process with a
generated configuration (both models as public names, ``thrifty-auto`` routing between them, their
list prices, a fresh SQLite database). Interactive lines go to ``/v1/chat/completions`` at their
arrival times (streamed when the body asks); batch lines go through the Files and Batches API, one job
per key, submitted when the first of them arrives. The child's request log (SQLite) then gives each request's cost, cache outcome and
route (see ``benchmarks.savings.accounting``). Two runs: every stage on, then caches off (routing alone).

An interactive request identical (key and body) to one in flight is held back until that one is
answered and cached, so that which copy misses the exact cache never depends on timing: replays are
deterministic. Options and output paths are checked before anything starts (exit 2); Ctrl-C stops
the replay at once and prints the summary of the runs that completed (exit 130).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from benchmarks.savings.accounting import Report, account
from benchmarks.savings.learning import learn_escalation, training_trace
from benchmarks.savings.replay import ReplayBook, load_book
from benchmarks.savings.report_text import format_curve, format_report, verdict
from benchmarks.savings.runs import (
    COMBINED_DIRECT_THRESHOLD,
    COMBINED_ESCALATION_THRESHOLD,
    DEFAULT_PRICES,
    STRONG_MODEL,
    WEAK_MODEL,
    Interrupted,
    RunSpec,
    default_data_dir,
    exact_cache_settle,
    read_log,
    replay_trace,
    running_proxy,
)
from benchmarks.savings.trace import ParsedTrace, TraceLine, default_trace, parse_trace, write_trace
from proxy.pricing import ModelPrice


def run_once(spec: RunSpec, book: ReplayBook, upstream: str, lines: Sequence[TraceLine], args: argparse.Namespace,
             prices: dict[str, ModelPrice]) -> tuple[Report, float]:
    """Replay the trace through a fresh child proxy configured by ``spec``; the run's report and wall time.
    ``spec.all_strong``: every line goes interactively to the strong model by name (caches should be off),
    which measures the all-strong baseline's latency instead of computing only its cost."""
    if spec.all_strong:
        lines = [replace(line, body={**line.body, "model": STRONG_MODEL}, batch=False) for line in lines]
    with tempfile.TemporaryDirectory(prefix="thrifty-eval-savings-") as tmp:
        print(f"[{spec.label}] starting thrifty proxy serve ...", flush=True)
        started = time.perf_counter()
        with running_proxy(spec, Path(tmp), upstream, prices, args.batch_discount) as proxy:
            outcomes = replay_trace(proxy.base, lines, f"sv-{int(time.time())}", concurrency=args.concurrency,
                                    time_scale=args.time_scale, batch_timeout_s=args.batch_timeout,
                                    settle=exact_cache_settle(proxy.database))
            wall = time.perf_counter() - started
            time.sleep(1.5)  # the request log is flushed every 0.5 s
        rows = read_log(proxy.database)
    details: list[dict] = []
    report = account(book, outcomes, rows, prices, details)
    if args.details:
        _write_details(details_path(args.details, spec.label), details, spec.label)
    return report, wall


def details_path(details: str, label: str) -> Path:
    """Where ``--details FILE`` puts one run's rows: the run's name added to the file name."""
    path = Path(details)
    return path.with_name(f"{path.stem}-{_slug(label)}{path.suffix}")


def _write_details(path: Path, details: list[dict], label: str) -> None:
    """Write one run's per-request rows; a failure is reported, and the run's report kept."""
    try:
        path.write_text("".join(json.dumps(d) + "\n" for d in details), encoding="utf-8")
    except OSError as exc:
        print(f"[{label}] cannot write the per-request details to {path}: {exc}", file=sys.stderr)
        return
    print(f"[{label}] per-request details in {path}", flush=True)


def _slug(label: str) -> str:
    return "".join(c if c.isalnum() or c == "." else "-" for c in label).strip("-")


def _curve_point(text: str, args: argparse.Namespace) -> float | tuple[float, float]:
    """One ``--curve`` value: a target share, or in combined mode (direct, escalation) thresholds.

    Raises:
        ValueError: not a number (pair) in [0, 1].
    """
    parts = [float(v) for v in text.split(":")]
    if not parts or len(parts) > 2 or not all(0.0 <= v <= 1.0 for v in parts):
        raise ValueError(text)
    if args.router_mode == "combined":
        return (parts[0], parts[1]) if len(parts) == 2 else (args.direct_threshold, parts[0])
    if len(parts) != 1:
        raise ValueError(text)
    return parts[0]


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _curve_spec(share: float | tuple[float, float], args: argparse.Namespace) -> RunSpec:
    """The run of one ``--curve`` point: every stage on."""
    if isinstance(share, tuple):
        direct, escalation = share
        return RunSpec(f"every stage, thresholds {direct}:{escalation}", True, "combined", args.target_large_share,
                       direct, escalation)
    return RunSpec(f"every stage, target large share {share}", True, args.router_mode, share)


def _try_run(spec: RunSpec, book: ReplayBook, upstream: str, lines: Sequence[TraceLine], args: argparse.Namespace,
             prices: dict[str, ModelPrice]) -> tuple[Report, float] | None:
    """:func:`run_once`, or None (reported) when it fails in any way.

    Raises:
        Interrupted: Ctrl-C, saying in which run and how far it got.
    """
    try:
        return run_once(spec, book, upstream, lines, args, prices)
    except Exception as exc:  # one failed run must not lose the others' summary
        print(f"[{spec.label}] failed: {_describe(exc)}", file=sys.stderr)
        return None
    except KeyboardInterrupt as exc:
        raise Interrupted(f"during the run [{spec.label}]{_how_far(exc)}") from None


def _how_far(exc: KeyboardInterrupt) -> str:
    """``": <how far the replay got>"`` for an :class:`Interrupted`, else nothing."""
    return f": {exc.where}" if isinstance(exc, Interrupted) else ""


def _run_all(book: ReplayBook, lines: Sequence[TraceLine], specs: list[RunSpec],
             curve_specs: list[tuple[float | tuple[float, float], RunSpec]], args: argparse.Namespace,
             prices: dict[str, ModelPrice], results: list[tuple[RunSpec, Report, float]],
             curve: list[tuple[float | tuple[float, float], Report]], notes: list[str]) -> None:
    """Run ``specs``, then the curve's runs, against one replay upstream; each completed run is
    appended to ``results`` or ``curve`` at once, so it survives a later failure. With
    ``args.learn_escalation`` the escalation model is first retrained from a training trace's traffic
    (:mod:`benchmarks.savings.learning`) and every run uses it; a line saying what was learned is appended to
    ``notes`` as soon as it is known."""
    from benchmarks.harness import serve_in_thread
    from benchmarks.savings.replay import make_app

    with serve_in_thread(make_app(book)) as upstream, tempfile.TemporaryDirectory(prefix="thrifty-eval-") as tmp:
        if args.learn_escalation:
            training = training_trace(book, lines, args.train_seed, args.train_scale)
            print(f"[learn escalation] the training trace: seed {args.train_seed}, {args.train_scale}x the default "
                  f"mix, no row of the evaluated trace",
                  flush=True)
            try:
                learned = learn_escalation(book, upstream, training, lines, args, prices, args.resolved_data_dir,
                                           Path(tmp))
            except KeyboardInterrupt as exc:
                raise Interrupted(f"while learning the escalation model{_how_far(exc)}") from None
            router_path = str(learned.router_artifact) if learned.router_artifact else None
            specs = [replace(spec, escalation_path=str(learned.artifact), escalation_threshold=learned.threshold,
                             direct_threshold=learned.direct_threshold, router_path=router_path) for spec in specs]
            # the curve's direct thresholds are on the shipped router's scale ("large model needed"), so its
            # runs keep that router; only the escalation model is the retrained one
            curve_specs = [(share, replace(spec, escalation_path=str(learned.artifact))) for share, spec in curve_specs]
            direct = ("the direct route's prompt router retrained from the same traffic" if router_path
                      else "the shipped prompt router for the direct route")
            notes.append(f"escalation model retrained from the training trace's traffic ({learned.provenance}); "
                         f"{direct}; direct threshold {learned.direct_threshold:.2f} and escalation threshold "
                         f"{learned.threshold:.3f} chosen on that traffic")
        for spec in specs:
            done = _try_run(spec, book, upstream, lines, args, prices)
            if done is not None:
                results.append((spec, *done))
        for share, spec in curve_specs:
            done = _try_run(spec, book, upstream, lines, args, prices)
            if done is not None:
                curve.append((share, done[0]))


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``thrifty eval savings``."""
    parser = argparse.ArgumentParser(prog="thrifty eval savings", description=__doc__.split("\n\n")[0])
    parser.add_argument("--trace", help="a JSONL trace (docs/benchmarks.md); default: a seeded one from public data")
    parser.add_argument("--data-dir", help="the public data (default: ../shared/data when it exists)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the default trace")
    parser.add_argument("--write-trace", help="write the trace used to this file (JSONL) and go on")
    parser.add_argument("--target-large-share", type=float, default=0.3,
                        help="the router's share of strong calls, in [0, 1]")
    parser.add_argument("--router-mode", choices=("prompt", "cascade", "combined"), default="prompt")
    parser.add_argument("--direct-threshold", type=float, default=COMBINED_DIRECT_THRESHOLD,
                        help="combined mode: prompt-router score sent straight to the strong model")
    parser.add_argument("--escalation-threshold", type=float, default=COMBINED_ESCALATION_THRESHOLD,
                        help="combined mode: escalation score from which the weak answer is escalated")
    parser.add_argument("--batch-discount", type=float, default=0.5, help="in [0, 1) (default 0.5)")
    parser.add_argument("--weak-price", type=float, nargs=2, metavar=("IN", "OUT"),
                        default=DEFAULT_PRICES[WEAK_MODEL], help="USD per million tokens (default Together AI's)")
    parser.add_argument("--strong-price", type=float, nargs=2, metavar=("IN", "OUT"),
                        default=DEFAULT_PRICES[STRONG_MODEL], help="USD per million tokens (default OpenAI's)")
    parser.add_argument("--concurrency", type=int, default=8, help="interactive requests in flight at most (>= 1)")
    parser.add_argument("--time-scale", type=float, default=1.0,
                        help="multiply arrival times (>= 0; 0: as fast as possible)")
    parser.add_argument("--batch-timeout", type=float, default=600.0, help="seconds to wait for a batch job (> 0)")
    parser.add_argument("--runs", choices=("both", "all-stages", "caches-off", "none"), default="both",
                        help="none: only read (and with --write-trace write) the trace and print its composition")
    parser.add_argument("--baseline-latency", action="store_true",
                        help="also replay the all-strong baseline, so its latency is measured (see docs)")
    parser.add_argument("--details", help="write one JSONL line per request and run to FILE (run name added)")
    parser.add_argument("--learn-escalation", action="store_true",
                        help="combined mode: first learn escalation and direct route from a training trace (docs)")
    parser.add_argument("--train-seed", type=int, default=None,
                        help="with --learn-escalation: seed of the training trace (default: --seed + 1)")
    parser.add_argument("--train-scale", type=int, default=1,
                        help="with --learn-escalation: training trace size in default mixes, 1-10 (default 1)")
    parser.add_argument("--quality-budget", type=float, default=1.0,
                        help="with --learn-escalation: points of quality the thresholds may lose in training (1)")
    parser.add_argument("--escalation-out", help="with --learn-escalation: keep the retrained artifacts (see docs)")
    parser.add_argument("--logs-only", action="store_true",
                        help="with --learn-escalation: train on the logged answers only (no public GSM8K rows)")
    parser.add_argument("--curve", help="comma-separated values, one more run each, as a quality-cost curve (docs)")
    return parser


def _in(value: float, low: float, high: float) -> bool:
    """``low <= value <= high`` for a finite ``value`` (NaN and infinities never are)."""
    return math.isfinite(value) and low <= value <= high


def option_problem(args: argparse.Namespace) -> str | None:
    """Why the options cannot run (None: they can), checked before anything starts."""
    if not (_in(args.direct_threshold, 0.0, 1.0) and _in(args.escalation_threshold, 0.0, 1.0)):
        return "--direct-threshold and --escalation-threshold must lie in [0, 1]"
    if not _in(args.target_large_share, 0.0, 1.0):
        return f"--target-large-share must lie in [0, 1] (got {args.target_large_share})"
    for name, price in (("--weak-price", args.weak_price), ("--strong-price", args.strong_price)):
        if not all(_in(value, 0.0, math.inf) for value in price):
            return f"{name} takes two finite numbers >= 0, USD per million input and output tokens (got {price})"
    if not (math.isfinite(args.batch_discount) and 0.0 <= args.batch_discount < 1.0):
        return f"--batch-discount must lie in [0, 1) (got {args.batch_discount})"
    if args.concurrency < 1:
        return f"--concurrency must be at least 1 (got {args.concurrency})"
    if not _in(args.time_scale, 0.0, math.inf):
        return f"--time-scale must be a finite number >= 0 (got {args.time_scale})"
    if not (_in(args.batch_timeout, 0.0, math.inf) and args.batch_timeout > 0):
        return f"--batch-timeout must be a finite number of seconds > 0 (got {args.batch_timeout})"
    if args.learn_escalation and args.router_mode != "combined":
        return "--learn-escalation needs --router-mode combined"
    if not 1 <= args.train_scale <= 10:
        return "--train-scale must lie in [1, 10]"
    if not _in(args.quality_budget, 0.0, 100.0):
        return "--quality-budget must lie in [0, 100] (points)"
    return None


def output_problem(option: str, path: Path) -> str | None:
    """Why ``path`` (a file an option names) cannot be written (None: it likely can), checked before
    a run spends minutes: its folder must exist and be writable, and the path must not be a folder."""
    folder = path.parent
    if not folder.is_dir():
        return f"{option}: the folder {folder} does not exist"
    if path.is_dir():
        return f"{option}: {path} is a folder"
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"{option}: {path} is not writable"
    return None


def _outputs_problem(args: argparse.Namespace, labels: Sequence[str]) -> str | None:
    """The first unwritable output file among ``--write-trace``, ``--escalation-out`` and the
    ``--details`` file of every planned run (``labels``)."""
    paths = [("--write-trace", Path(args.write_trace))] if args.write_trace else []
    if args.escalation_out and args.learn_escalation:
        paths.append(("--escalation-out", Path(args.escalation_out)))
    if args.details:
        paths += [("--details", details_path(args.details, label)) for label in labels]
    return next((problem for option, path in paths if (problem := output_problem(option, path))), None)


def read_trace_file(path: str, book: ReplayBook) -> ParsedTrace:
    """Parse the trace file at ``path``.

    Raises:
        ValueError: it cannot be read, or it is not UTF-8 text (the message says which).
    """
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read the trace: {exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"the trace {path} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
                         "save it as UTF-8") from None
    return parse_trace(text, book)


def _load_trace(args: argparse.Namespace, book: ReplayBook, data_dir: Path) -> ParsedTrace:
    """The trace to replay: ``--trace`` parsed, or the seeded default.

    Raises:
        ValueError: the message to print (exit 2).
    """
    if args.trace:
        return read_trace_file(args.trace, book)
    try:
        return ParsedTrace(lines=default_trace(book, args.seed))
    except ValueError as exc:
        raise ValueError(f"cannot build the default trace from {data_dir}: {exc}") from None


def _plan(args: argparse.Namespace, shares: list[float | tuple[float, float]]
          ) -> tuple[list[RunSpec], list[tuple[float | tuple[float, float], RunSpec]]]:
    """The runs the options ask for, then the curve's runs."""
    thresholds = {"direct_threshold": args.direct_threshold, "escalation_threshold": args.escalation_threshold}
    specs = []
    if args.baseline_latency:
        specs.append(RunSpec("all strong, replayed", False, all_strong=True))
    if args.runs in ("both", "all-stages"):
        specs.append(RunSpec("thrifty, every stage", True, args.router_mode, args.target_large_share, **thresholds))
    if args.runs in ("both", "caches-off"):
        specs.append(RunSpec("thrifty, caches off (routing alone)", False, args.router_mode, args.target_large_share,
                             **thresholds))
    return specs, [(share, _curve_spec(share, args)) for share in shares]


def _print_summary(parsed: ParsedTrace, args: argparse.Namespace, results: list[tuple[RunSpec, Report, float]],
                   curve: list[tuple[float | tuple[float, float], Report]], learned: list[str]) -> None:
    """The trace's composition, the runs' table, the curve, the settings and each run's verdict."""
    print()
    print(format_report(parsed, results))
    if curve:
        print("\n" + format_curve(curve, "direct : escalation threshold" if args.router_mode == "combined" else
                                   "target large share"))
    print(f"\nprices USD/Mtok: {WEAK_MODEL} {args.weak_price[0]}/{args.weak_price[1]}, {STRONG_MODEL} "
          f"{args.strong_price[0]}/{args.strong_price[1]}; batch discount {args.batch_discount}; router "
          f"{args.router_mode}, " + ("thresholds chosen on the training traffic (next line)" if learned else
                                     f"direct threshold {args.direct_threshold}, escalation threshold "
                                     f"{args.escalation_threshold}" if args.router_mode == "combined"
                                     else f"target large share {args.target_large_share}"))
    for note in learned:
        print(note)
    for spec, report, _ in results:
        if not spec.all_strong:
            print(f"{spec.label}: {verdict(report)}")


def _fail(message: str) -> int:
    print(f"thrifty eval savings: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """``thrifty eval savings``: 0 when the trace was read and every asked run (if any) or at least one
    completed, 1 when none of the asked runs completed, 2 on bad options or input, 130 on Ctrl-C
    (after the summary of the runs that completed)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("\nthrifty eval savings: interrupted (Ctrl-C)", file=sys.stderr)
        return 130


def _main(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    problem = option_problem(args)
    if problem is not None:
        return _fail(problem)
    if args.train_seed is None:
        args.train_seed = args.seed + 1
    try:
        shares = [_curve_point(x, args) for x in args.curve.split(",")] if args.curve else []
    except ValueError:
        return _fail(f"--curve takes numbers such as 0.3,0.5 (combined mode also DIRECT:ESCALATION pairs such as "
                     f"0.217:0.5) in [0, 1] (got {args.curve!r})")
    specs, curve_specs = _plan(args, shares)
    problem = _outputs_problem(args, [spec.label for spec in specs] + [spec.label for _, spec in curve_specs])
    if problem is not None:
        return _fail(problem)

    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    if data_dir is None or not (data_dir / "router").is_dir():
        return _fail(f"no public data at {args.data_dir or '../shared/data'} (it needs router/ and semantic-cache/); "
                     "pass --data-dir DIR")
    book = load_book(data_dir, WEAK_MODEL, STRONG_MODEL)
    args.resolved_data_dir = data_dir
    try:
        parsed = _load_trace(args, book, data_dir)
        if args.write_trace:
            write_trace(parsed.lines, Path(args.write_trace))
    except ValueError as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"cannot write the trace: {exc}")
    for problem in parsed.problems:
        print(f"skipped {problem}", file=sys.stderr)
    if not parsed.lines:
        print(format_report(parsed, []))  # the composition: 0 requests and every skipped line
        return _fail(f"nothing to replay: the trace has no usable line ({len(parsed.problems)} skipped, listed above)")
    if not specs and not curve_specs:
        print(format_report(parsed, []))
        print("\nno run asked (--runs none)" + (f"; the trace is in {args.write_trace}" if args.write_trace else ""))
        return 0
    prices = {WEAK_MODEL: ModelPrice(WEAK_MODEL, *args.weak_price),
              STRONG_MODEL: ModelPrice(STRONG_MODEL, *args.strong_price)}
    results: list[tuple[RunSpec, Report, float]] = []
    curve: list[tuple[float | tuple[float, float], Report]] = []
    learned: list[str] = []
    interrupted = None
    try:
        _run_all(book, parsed.lines, specs, curve_specs, args, prices, results, curve, learned)
    except KeyboardInterrupt as exc:  # Ctrl-C: the summary of the runs that completed, then exit 130
        interrupted = exc.where if isinstance(exc, Interrupted) else "before or between the runs"
    except Exception as exc:  # the summary of the runs that completed is still printed
        print(f"thrifty eval savings: the replay stopped early: {_describe(exc)}", file=sys.stderr)
    _print_summary(parsed, args, results, curve, learned)
    if interrupted is not None:
        completed = len(results) + len(curve)
        print(f"\nthrifty eval savings: interrupted (Ctrl-C) {interrupted}; {completed} of "
              f"{len(specs) + len(curve_specs)} runs had completed" + (" (shown above)" if completed else ""),
              file=sys.stderr)
        return 130
    return 0 if results or curve else 1


if __name__ == "__main__":
    raise SystemExit(main())

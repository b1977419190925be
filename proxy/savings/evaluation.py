"""``thrifty eval savings``: cost, quality and latency of a trace replayed through a real proxy,
against sending every request straight to the strong model, with the saving attributed to each stage.

The replay upstream (``proxy.savings.replay``) impersonates the weak and the strong model of the
public router data behind one local server; ``thrifty proxy serve`` runs as a child process with a
generated configuration (both models as public names, ``thrifty-auto`` routing between them, their
list prices, a fresh SQLite database). Interactive lines go to ``/v1/chat/completions`` at their
arrival times (streamed when the body asks); batch lines go through the Files and Batches API, one job
per key, submitted when the first of them arrives. The child's request log (SQLite) then gives each request's cost, cache outcome and
route (see ``proxy.savings.accounting``). Two runs: every stage on, then caches off (routing alone).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import httpx

from proxy.localserver import child_server
from proxy.pricing import ModelPrice
from proxy.savings.accounting import CAUSE_LABELS, CAUSES, LogRow, Outcome, Report, account, composition
from proxy.savings.replay import ReplayBook, load_book
from proxy.savings.trace import ParsedTrace, TraceLine, default_trace, parse_trace
from proxy.supervisor import free_port

WEAK_MODEL = "mixtral-8x7b-instruct"
STRONG_MODEL = "gpt-4-1106-preview"
# Published list prices, USD per million tokens (input, output):
# - gpt-4-1106-preview: $10 / $30, OpenAI's pricing page for GPT-4 Turbo
#   (https://openai.com/api/pricing, "gpt-4-1106-preview", the same price as gpt-4-turbo);
# - Mixtral-8x7B-Instruct-v0.1: $0.60 / $0.60, Together AI's serverless price for Mixtral-8x7B
#   (https://www.together.ai/pricing, the "up to 56B" MoE tier); RouteLLM's paper uses a similar
#   ~$0.24-0.6 per million for the weak model.
DEFAULT_PRICES = {WEAK_MODEL: (0.60, 0.60), STRONG_MODEL: (10.0, 30.0)}
# combined mode's thresholds, chosen on GSM8K training rows by `thrifty router choose-combined`
# (router/combined.py; BENCHMARKS.md, issue 18), never on a trace
COMBINED_DIRECT_THRESHOLD = 0.217
COMBINED_ESCALATION_THRESHOLD = 0.170
_LOG_COLUMNS = ("id", "status_code", "model_served", "route", "cache_outcome", "cascade_outcome", "cost_usd",
                "batch_saved_usd", "prompt_tokens", "completion_tokens", "cached_tokens", "finish_reason", "cap")


@dataclass(frozen=True, slots=True)
class RunSpec:
    """One proxy configuration to replay the trace through."""

    label: str
    caches: bool
    router_mode: str = "prompt"
    target_large_share: float = 0.3
    direct_threshold: float = COMBINED_DIRECT_THRESHOLD  # combined mode: prompt score sent straight to strong
    escalation_threshold: float = COMBINED_ESCALATION_THRESHOLD  # combined mode: fixed escalation threshold
    escalation_path: str | None = None  # the escalation artifact (None: the shipped one)
    router_path: str | None = None  # the prompt router's artifact (None: the shipped one)
    store_requests: bool = False  # [router] store_requests: keep routed bodies and cascaded weak answers
    all_strong: bool = False  # every line sent interactively, naming the strong model (the baseline, replayed)


def default_data_dir() -> Path | None:
    """``../shared/data`` relative to the current directory, when it exists."""
    path = Path("..") / "shared" / "data"
    return path if path.is_dir() else None


def proxy_config(spec: RunSpec, *, port: int, upstream: str, prices: dict[str, tuple[float, float]],
                 discount: float) -> str:
    """The TOML configuration of the child proxy for one run."""
    price_tables = "".join(f"[prices.{name}]\ninput_per_mtok = {inp}\noutput_per_mtok = {out}\n"
                           for name, (inp, out) in prices.items())
    combined = (f"direct_threshold = {spec.direct_threshold}\nthreshold_mode = \"fixed\"\n"
                f"fixed_threshold = {spec.escalation_threshold}\n") if spec.router_mode == "combined" else ""
    if spec.escalation_path:
        combined += f"escalation_path = {json.dumps(spec.escalation_path)}\n"
    if spec.router_path:
        combined += f"artifact_path = {json.dumps(spec.router_path)}\n"
    if spec.store_requests:
        combined += "store_requests = true\n"
    return f"""
[proxy]
port = {port}
access_log = false
max_retries = 0
[bundled]
enabled = false
[[upstreams]]
name = "replay"
base_url = "{upstream}/v1"
[models.{WEAK_MODEL}]
upstream = "replay"
model = "{WEAK_MODEL}"
[models.{STRONG_MODEL}]
upstream = "replay"
model = "{STRONG_MODEL}"
{price_tables}
[cache]
enabled = {str(spec.caches).lower()}
semantic = {str(spec.caches).lower()}
[router]
enabled = true
small_model = "{WEAK_MODEL}"
large_model = "{STRONG_MODEL}"
mode = "{spec.router_mode}"
target_large_share = {spec.target_large_share}
{combined}[batch]
window = "always"
discount = {discount}
poll_interval_s = 0.2
"""


@dataclass(frozen=True, slots=True)
class RunningProxy:
    """A child ``thrifty proxy serve``: its base URL and its SQLite request log."""

    base: str
    database: Path


@contextlib.contextmanager
def running_proxy(spec: RunSpec, workdir: Path, upstream: str, prices: Mapping[str, ModelPrice],
                  discount: float) -> Iterator[RunningProxy]:
    """A child ``thrifty proxy serve`` configured by ``spec`` (config, data and ``proxy.log`` under
    ``workdir``) in front of the replay upstream, ready for requests; stopped (SIGTERM: its request log
    is flushed on shutdown) when the block ends."""
    raw_prices = {name: (p.input_per_mtok, p.output_per_mtok) for name, p in prices.items()}
    port = free_port()
    config = workdir / "thrifty.toml"
    config.write_text(proxy_config(spec, port=port, upstream=upstream, prices=raw_prices, discount=discount))
    env = {**os.environ, "THRIFTY_DATA_DIR": str(workdir / "data"), "HF_HUB_OFFLINE": "1",
           "OMP_WAIT_POLICY": "PASSIVE"}
    command = [sys.executable, "-m", "proxy.cli", "proxy", "serve", "--config", str(config)]
    with (workdir / "proxy.log").open("w") as log, child_server(
            command, port, f"thrifty proxy serve (log: {log.name})", 300.0, env, stdout=log) as base:
        yield RunningProxy(base, workdir / "data" / "thrifty.db")


def read_log(database: Path) -> dict[str, LogRow]:
    """The child proxy's request log rows by request id."""
    if not database.exists():
        return {}
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as conn:
        rows = conn.execute(f"SELECT {', '.join(_LOG_COLUMNS)} FROM request_log").fetchall()
    return {row[0]: LogRow(*row) for row in rows}


def _ask(client: httpx.Client, line: TraceLine, request_id: str) -> Outcome:
    started = time.perf_counter()
    try:
        response = client.post("/v1/chat/completions", json=line.body,
                               headers={"authorization": f"Bearer {line.key}", "x-request-id": request_id})
    except httpx.HTTPError as exc:
        return Outcome(line, request_id, 599, None, time.perf_counter() - started, f"transport: {exc}")
    latency = time.perf_counter() - started
    score = _header_score(response.headers.get("x-thrifty-route-score"))
    if response.status_code < 400 and "text/event-stream" in response.headers.get("content-type", ""):
        return Outcome(line, request_id, response.status_code, _streamed_text(response.text), latency,
                       route_score=score)
    try:
        payload = response.json()
    except ValueError:
        return Outcome(line, request_id, response.status_code, None, latency, "the answer is not JSON")
    if response.status_code >= 400:
        return Outcome(line, request_id, response.status_code, None, latency, str(payload.get("error", payload)))
    answer = ((payload.get("choices") or [{}])[0].get("message") or {}).get("content")
    return Outcome(line, request_id, response.status_code, answer, latency, route_score=score)


def _header_score(value: str | None) -> float | None:
    """A score header as a number (None: absent, not a number, or not finite)."""
    try:
        score = float(value) if value is not None else None
    except ValueError:
        return None
    return score if score is not None and math.isfinite(score) else None


def _streamed_text(body: str) -> str | None:
    """The first choice's content, joined from an SSE answer's deltas (None: no content chunk)."""
    parts = []
    for raw in body.splitlines():
        if not raw.startswith("data: ") or raw == "data: [DONE]":
            continue
        try:
            chunk = json.loads(raw[6:])
        except ValueError:
            continue
        for choice in chunk.get("choices") or []:
            if choice.get("index", 0) == 0 and isinstance((choice.get("delta") or {}).get("content"), str):
                parts.append(choice["delta"]["content"])
    return "".join(parts) if parts else None


@dataclass(frozen=True, slots=True)
class _BatchJob:
    """One submitted batch job: its key's auth header, id, lines by custom id, submission time."""

    auth: dict[str, str]
    batch_id: str
    lines: dict[str, TraceLine]
    started: float


def _submit_job(client: httpx.Client, key: str, group: list[TraceLine]) -> _BatchJob:
    """Upload ``group`` as a JSONL file and create its batch job."""
    auth = {"authorization": f"Bearer {key}"}
    jsonl = "".join(json.dumps({"custom_id": str(line.line_no), "method": "POST",
                                "url": "/v1/chat/completions", "body": line.body}) + "\n" for line in group)
    file = client.post("/v1/files", headers=auth, data={"purpose": "batch"},
                       files={"file": ("trace.jsonl", io.BytesIO(jsonl.encode()), "application/jsonl")})
    file.raise_for_status()
    batch = client.post("/v1/batches", headers=auth, json={
        "input_file_id": file.json()["id"], "endpoint": "/v1/chat/completions", "completion_window": "24h"})
    batch.raise_for_status()
    return _BatchJob(auth, batch.json()["id"], {str(line.line_no): line for line in group}, time.perf_counter())


def _collect_job(client: httpx.Client, job: _BatchJob, prefix: str, timeout_s: float) -> list[Outcome]:
    """Wait for ``job`` to end; one outcome per line (a line absent from its output: missing)."""
    deadline = time.monotonic() + timeout_s
    status: dict = {}
    while time.monotonic() < deadline:
        status = client.get(f"/v1/batches/{job.batch_id}", headers=job.auth).json()
        if status.get("status") in ("completed", "failed", "expired", "cancelled"):
            break
        time.sleep(0.5)
    elapsed = time.perf_counter() - job.started
    outcomes: list[Outcome] = []
    answered = set()
    if status.get("output_file_id"):
        content = client.get(f"/v1/files/{status['output_file_id']}/content", headers=job.auth).text
        for raw in content.splitlines():
            item = json.loads(raw)
            line = job.lines.get(item.get("custom_id"))
            response = item.get("response") or {}
            if line is None:
                continue
            answered.add(item["custom_id"])
            body = response.get("body") or {}
            answer = ((body.get("choices") or [{}])[0].get("message") or {}).get("content")
            outcomes.append(Outcome(line, response.get("request_id") or "", response.get("status_code", 599),
                                    answer, elapsed))
    missing = [line for custom_id, line in job.lines.items() if custom_id not in answered]
    return outcomes + _missing(missing, prefix, f"batch {job.batch_id} ended {status.get('status', 'unknown')} "
                                                f"without it", elapsed)


def _missing(lines: Sequence[TraceLine], prefix: str, why: str, elapsed: float | None = None) -> list[Outcome]:
    """Failed outcomes (status 599, no answer) for ``lines`` that never got an answer."""
    return [Outcome(line, f"{prefix}-missing-{line.line_no}", 599, None, elapsed, why) for line in lines]


def run_batch(client: httpx.Client, lines: Sequence[TraceLine], prefix: str, timeout_s: float) -> list[Outcome]:
    """Send ``lines`` as batch jobs (one per key) through the Files and Batches API and wait for them.

    Every line gets one outcome. A job that cannot be submitted or collected (any exception) marks
    only its own lines as missing; the other jobs are unaffected."""
    by_key: dict[str, list[TraceLine]] = {}
    for line in lines:
        by_key.setdefault(line.key, []).append(line)
    outcomes: list[Outcome] = []
    jobs: list[_BatchJob] = []
    for key, group in by_key.items():
        try:
            jobs.append(_submit_job(client, key, group))
        except Exception as exc:  # one job's failure must not lose the others
            print(f"  batch job for {len(group)} lines could not be submitted: {exc!r}", flush=True)
            outcomes += _missing(group, prefix, f"batch job not submitted: {exc!r}")
    for job in jobs:
        try:
            outcomes += _collect_job(client, job, prefix, timeout_s)
        except Exception as exc:  # likewise
            print(f"  batch {job.batch_id} could not be collected: {exc!r}", flush=True)
            outcomes += _missing(list(job.lines.values()), prefix, f"batch {job.batch_id} failed: {exc!r}")
    return outcomes


def _sleep_until_due(start: float, t: float, time_scale: float) -> None:
    """Sleep until ``start + t x time_scale`` (``time.perf_counter`` seconds), if that is ahead."""
    delay = start + t * time_scale - time.perf_counter()
    if delay > 0:
        time.sleep(delay)


def send_line(client: httpx.Client, line: TraceLine, request_id: str, start: float, time_scale: float) -> Outcome:
    """Wait until ``line`` is due (``start + t x time_scale``), then send it; any exception on the
    way (a delay too large to sleep, a header httpx cannot encode, an unexpected answer) becomes a
    failed outcome (status 599, no answer) instead of ending the replay."""
    try:
        _sleep_until_due(start, line.t, time_scale)
        return _ask(client, line, request_id)
    except Exception as exc:  # one bad request must not stop the run
        return Outcome(line, request_id, 599, None, None, f"client: {exc!r}")


def replay_trace(base: str, lines: Sequence[TraceLine], prefix: str, *, concurrency: int, time_scale: float,
                 batch_timeout_s: float) -> list[Outcome]:
    """Send every line at ``t x time_scale`` seconds after the start; batch lines as one job per key,
    submitted when the first batch line arrives. Every line gets exactly one outcome."""
    interactive = [line for line in lines if not line.batch]
    batched = [line for line in lines if line.batch]
    outcomes: list[Outcome] = []
    lock = threading.Lock()
    start = time.perf_counter()
    done = 0

    def send(line: TraceLine) -> None:
        nonlocal done
        outcome = send_line(client, line, f"{prefix}-{line.line_no}", start, time_scale)
        with lock:
            outcomes.append(outcome)
            done += 1
            if done % 50 == 0:
                print(f"  {done}/{len(interactive)} interactive requests answered", flush=True)

    with httpx.Client(base_url=base, timeout=120) as client, ThreadPoolExecutor(concurrency) as pool:
        futures = [pool.submit(send, line) for line in interactive]
        if batched:
            try:
                _sleep_until_due(start, batched[0].t, time_scale)
                with httpx.Client(base_url=base, timeout=60) as batch_client:
                    batch_outcomes = run_batch(batch_client, batched, prefix, batch_timeout_s)
            except Exception as exc:  # a safety net: run_batch already answers every line
                print(f"  batch jobs failed: {exc!r}", flush=True)
                batch_outcomes = _missing(batched, prefix, repr(exc))
            with lock:
                outcomes += batch_outcomes
        for future in futures:
            future.result()
    return sorted(outcomes, key=lambda o: o.line.line_no)


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
                                    time_scale=args.time_scale, batch_timeout_s=args.batch_timeout)
            wall = time.perf_counter() - started
            time.sleep(1.5)  # the request log is flushed every 0.5 s
        rows = read_log(proxy.database)
    details: list[dict] = []
    report = account(book, outcomes, rows, prices, details)
    if args.details:
        path = Path(args.details)
        path = path.with_name(f"{path.stem}-{_slug(spec.label)}{path.suffix}")
        path.write_text("".join(json.dumps(d) + "\n" for d in details), encoding="utf-8")
        print(f"[{spec.label}] per-request details in {path}", flush=True)
    return report, wall


def _slug(label: str) -> str:
    return "".join(c if c.isalnum() or c == "." else "-" for c in label).strip("-")


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def format_report(parsed: ParsedTrace, runs: list[tuple[RunSpec, Report, float]]) -> str:
    """The composition of the trace, skipped lines, and one column per run beside the all-strong baseline."""
    comp = composition(parsed.lines)
    out = [f"trace: {comp['requests']} requests over {comp['span_s']:.0f} s, {comp['keys']} keys, "
           f"{comp['system_prompts']} distinct system prompts, {comp['batch']} batch lines; skipped lines: "
           f"{len(parsed.problems)}",
           "  " + ", ".join(f"{kind} {n}" for kind, n in comp["kinds"].items())]
    for problem in parsed.problems[:20]:
        out.append(f"  skipped {problem}")
    if not runs:
        return "\n".join(out)
    first = runs[0][1]
    header = "| | all strong | " + " | ".join(spec.label for spec, _, _ in runs) + " |"
    out += ["", header, "|---|" + "---|" * (len(runs) + 1)]

    def row(name: str, base: str, cells: list[str]) -> None:
        out.append(f"| {name} | {base} | " + " | ".join(cells) + " |")

    reports = [r for _, r, _ in runs]
    row("cost USD", f"{first.baseline_usd:.6f}", [f"{r.cost_usd:.6f}" for r in reports])
    row("cost reduction", "0 %", [f"{100 * r.saving_share:.1f} %" for r in reports])
    row("quality (right answers)", f"{first.baseline_right}/{first.requests} ({100 * first.baseline_accuracy:.1f} %)",
        [f"{r.right}/{r.requests} ({100 * r.accuracy:.1f} %)" for r in reports])
    row("quality loss (points)", "0", [f"{r.quality_loss_points:+.1f}" for r in reports])
    row("latency p50 / p95 ms (interactive, client)", "-",
        [f"{1000 * _pct(r.latencies_s, 50):.0f} / {1000 * _pct(r.latencies_s, 95):.0f}" for r in reports])
    row("strong model's share of routed calls", "100 %",
        [f"{r.routed_strong}/{r.routed} ({100 * r.routed_strong / r.routed if r.routed else 0:.0f} %)"
         for r in reports])
    row("errors / rows missing from the log", "-", [f"{r.errors} / {r.missing_rows}" for r in reports])
    row("wall time s", "-", [f"{wall:.0f}" for _, _, wall in runs])
    for cause in CAUSES:
        row(f"saved by {CAUSE_LABELS[cause]} (USD, % of all-strong; requests, answers lost)", "-",
            [f"{r.saved_by[cause]:.6f} ({100 * r.saved_by[cause] / r.baseline_usd if r.baseline_usd else 0:.1f} %); "
             + (f"{r.batch_discounted} discounted (counted under their stage above), +0" if cause == "batch" else
                f"{r.requests_by[cause]}, {r.quality_lost_by[cause]:+d}") for r in reports])
    row("sum of the stages = total saving", "-",
        [f"{sum(r.saved_by.values()):.6f} = {r.saved_usd:.6f}" for r in reports])
    return "\n".join(out)


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


def format_curve(curve: list[tuple[float | tuple[float, float], Report]], knob: str = "target large share") -> str:
    """The quality-cost curve over the router's target share of strong calls, or another ``knob``
    (combined mode: the direct and escalation thresholds), every stage on."""
    out = [f"| {knob} | strong share of routed calls | cost reduction | quality loss (points) |",
           "|---|---|---|---|"]
    for share, r in curve:
        knob_value = f"{share[0]} : {share[1]}" if isinstance(share, tuple) else str(share)
        out.append(f"| {knob_value} | {r.routed_strong}/{r.routed} | {100 * r.saving_share:.1f} % | "
                   f"{r.quality_loss_points:+.1f} |")
    return "\n".join(out)


def verdict(report: Report) -> str:
    """Whether the issue's target (>= 60 % cheaper, <= 1 point of quality lost) is met."""
    met = report.saving_share >= 0.60 and report.quality_loss_points <= 1.0
    return (f"target >= 60 % cost reduction at <= 1 point quality loss: {'MET' if met else 'NOT met'} "
            f"({100 * report.saving_share:.1f} %, {report.quality_loss_points:+.1f} points)")


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
    """:func:`run_once`, or None (reported) when it fails in any way."""
    try:
        return run_once(spec, book, upstream, lines, args, prices)
    except Exception as exc:  # one failed run must not lose the others' summary
        print(f"[{spec.label}] failed: {_describe(exc)}", file=sys.stderr)
        return None


def _run_all(book: ReplayBook, lines: Sequence[TraceLine], specs: list[RunSpec],
             curve_specs: list[tuple[float | tuple[float, float], RunSpec]], args: argparse.Namespace,
             prices: dict[str, ModelPrice], results: list[tuple[RunSpec, Report, float]],
             curve: list[tuple[float | tuple[float, float], Report]], notes: list[str]) -> None:
    """Run ``specs``, then the curve's runs, against one replay upstream; each completed run is
    appended to ``results`` or ``curve`` at once, so it survives a later failure. With
    ``args.learn_escalation`` the escalation model is first retrained from a training trace's traffic
    (:mod:`proxy.savings.learning`) and every run uses it; a line saying what was learned is appended to
    ``notes`` as soon as it is known."""
    from proxy.localserver import serve_in_thread
    from proxy.savings.replay import make_app

    with serve_in_thread(make_app(book)) as upstream, tempfile.TemporaryDirectory(prefix="thrifty-eval-") as tmp:
        if args.learn_escalation:
            from proxy.savings.learning import learn_escalation, training_trace

            training = training_trace(book, lines, args.train_seed, args.train_scale)
            print(f"[learn escalation] the training trace: seed {args.train_seed}, {args.train_scale}x the default "
                  f"mix, no row of the evaluated trace",
                  flush=True)
            learned = learn_escalation(book, upstream, training, lines, args, prices, args.resolved_data_dir,
                                       Path(tmp))
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty eval savings", description=__doc__.split("\n\n")[0])
    parser.add_argument("--trace", help="a JSONL trace (see README, 'Savings trace'); default: the seeded trace "
                                        "generated from the public data")
    parser.add_argument("--data-dir", help="the public data (default: ../shared/data when it exists)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the default trace")
    parser.add_argument("--write-trace", help="write the trace used to this file (JSONL) and go on")
    parser.add_argument("--target-large-share", type=float, default=0.3, help="the router's share of strong calls")
    parser.add_argument("--router-mode", choices=("prompt", "cascade", "combined"), default="prompt")
    parser.add_argument("--direct-threshold", type=float, default=COMBINED_DIRECT_THRESHOLD,
                        help="combined mode: prompt-router score sent straight to the strong model")
    parser.add_argument("--escalation-threshold", type=float, default=COMBINED_ESCALATION_THRESHOLD,
                        help="combined mode: escalation score from which the weak answer is escalated")
    parser.add_argument("--batch-discount", type=float, default=0.5)
    parser.add_argument("--weak-price", type=float, nargs=2, metavar=("IN", "OUT"),
                        default=DEFAULT_PRICES[WEAK_MODEL], help="USD per million tokens (default Together AI's)")
    parser.add_argument("--strong-price", type=float, nargs=2, metavar=("IN", "OUT"),
                        default=DEFAULT_PRICES[STRONG_MODEL], help="USD per million tokens (default OpenAI's)")
    parser.add_argument("--concurrency", type=int, default=8, help="interactive requests in flight at most")
    parser.add_argument("--time-scale", type=float, default=1.0, help="multiply arrival times (0: as fast as possible)")
    parser.add_argument("--batch-timeout", type=float, default=600.0)
    parser.add_argument("--runs", choices=("both", "all-stages", "caches-off", "none"), default="both")
    parser.add_argument("--baseline-latency", action="store_true",
                        help="also replay the all-strong baseline (every line interactively to the strong model, "
                             "caches off) so its latency is measured, not only its cost computed; its column also "
                             "cross-checks the computed baseline's cost and quality")
    parser.add_argument("--details", help="write one JSONL line per request and run (cause, cost, grades) to "
                                          "FILE, with the run's name added to the file name")
    parser.add_argument("--learn-escalation", action="store_true",
                        help="combined mode: first retrain the escalation model and learn the direct route (which "
                             "requests skip the weak call) from the proxy's own traffic (a training trace disjoint "
                             "from the evaluated one, every weak answer served and judged by feedback; see "
                             "proxy/savings/learning.py), choose both thresholds on that traffic, and evaluate "
                             "with them")
    parser.add_argument("--train-seed", type=int, default=None,
                        help="with --learn-escalation: seed of the training trace (default: --seed + 1)")
    parser.add_argument("--train-scale", type=int, default=1,
                        help="with --learn-escalation: the training trace holds this many times the default mix "
                             "(a whole number from 1 to 10; default 1)")
    parser.add_argument("--quality-budget", type=float, default=1.0,
                        help="with --learn-escalation: points of the training traffic's requests the chosen thresholds "
                             "may leave with a bad weak answer served (default 1: the target's quality loss)")
    parser.add_argument("--escalation-out", help="with --learn-escalation: keep the retrained artifact in this file "
                                                 "(and the learned direct route beside it, as "
                                                 "<stem>.direct-router.joblib)")
    parser.add_argument("--logs-only", action="store_true",
                        help="with --learn-escalation: train on the logged answers only (no public GSM8K rows)")
    parser.add_argument("--curve", help="comma-separated target large shares (e.g. 0.3,0.5,0.7,0.9); combined mode: "
                                        "escalation thresholds, or DIRECT:ESCALATION pairs (e.g. 0.3,0.217:0.5): "
                                        "one more run with every stage on per value, printed as a quality-cost curve")
    args = parser.parse_args(argv)
    if not (0.0 <= args.direct_threshold <= 1.0 and 0.0 <= args.escalation_threshold <= 1.0):
        print("thrifty eval savings: --direct-threshold and --escalation-threshold must lie in [0, 1]",
              file=sys.stderr)
        return 2
    if args.learn_escalation and args.router_mode != "combined":
        print("thrifty eval savings: --learn-escalation needs --router-mode combined", file=sys.stderr)
        return 2
    if not 1 <= args.train_scale <= 10:
        print("thrifty eval savings: --train-scale must lie in [1, 10]", file=sys.stderr)
        return 2
    if not 0.0 <= args.quality_budget <= 100.0:
        print("thrifty eval savings: --quality-budget must lie in [0, 100] (points)", file=sys.stderr)
        return 2
    if args.train_seed is None:
        args.train_seed = args.seed + 1
    try:
        shares = [_curve_point(x, args) for x in args.curve.split(",")] if args.curve else []
    except ValueError:
        print(f"thrifty eval savings: --curve takes numbers such as 0.3,0.5 (combined mode also DIRECT:ESCALATION "
              f"pairs such as 0.217:0.5) in [0, 1] (got {args.curve!r})", file=sys.stderr)
        return 2

    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    if data_dir is None or not (data_dir / "router").is_dir():
        where = args.data_dir or "../shared/data"
        print(f"thrifty eval savings: no public data at {where} (it needs router/ and semantic-cache/); "
              f"pass --data-dir DIR", file=sys.stderr)
        return 2
    book = load_book(data_dir, WEAK_MODEL, STRONG_MODEL)
    args.resolved_data_dir = data_dir
    if args.trace:
        try:
            text = Path(args.trace).read_text(encoding="utf-8")
        except OSError as exc:
            print(f"thrifty eval savings: cannot read the trace: {exc}", file=sys.stderr)
            return 2
        parsed = parse_trace(text, book)
    else:
        try:
            parsed = ParsedTrace(lines=default_trace(book, args.seed))
        except ValueError as exc:
            print(f"thrifty eval savings: cannot build the default trace from {data_dir}: {exc}", file=sys.stderr)
            return 2
    if args.write_trace:
        Path(args.write_trace).write_text("".join(line.to_json() + "\n" for line in parsed.lines), encoding="utf-8")
    for problem in parsed.problems:
        print(f"skipped {problem}", file=sys.stderr)
    if not parsed.lines:
        print(format_report(parsed, []))  # the composition: 0 requests and every skipped line
        print(f"thrifty eval savings: nothing to replay: the trace has no usable line ({len(parsed.problems)} "
              "skipped, listed above)", file=sys.stderr)
        return 2
    prices = {WEAK_MODEL: ModelPrice(WEAK_MODEL, *args.weak_price),
              STRONG_MODEL: ModelPrice(STRONG_MODEL, *args.strong_price)}
    thresholds = {"direct_threshold": args.direct_threshold, "escalation_threshold": args.escalation_threshold}
    specs = []
    if args.baseline_latency:
        specs.append(RunSpec("all strong, replayed", False, all_strong=True))
    if args.runs in ("both", "all-stages"):
        specs.append(RunSpec("thrifty, every stage", True, args.router_mode, args.target_large_share, **thresholds))
    if args.runs in ("both", "caches-off"):
        specs.append(RunSpec("thrifty, caches off (routing alone)", False, args.router_mode, args.target_large_share,
                             **thresholds))
    curve_specs = [(share, _curve_spec(share, args)) for share in shares]
    results: list[tuple[RunSpec, Report, float]] = []
    curve: list[tuple[float | tuple[float, float], Report]] = []
    learned: list[str] = []
    try:
        _run_all(book, parsed.lines, specs, curve_specs, args, prices, results, curve, learned)
    except Exception as exc:  # the summary of the runs that completed is still printed
        print(f"thrifty eval savings: the replay stopped early: {_describe(exc)}", file=sys.stderr)
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
    return 0 if results or curve else 1


if __name__ == "__main__":
    raise SystemExit(main())

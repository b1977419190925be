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
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import httpx

from benchmarks.harness import child_server
from benchmarks.savings.accounting import CAUSE_LABELS, CAUSES, LogRow, Outcome, Report, account, composition
from benchmarks.savings.replay import ReplayBook, load_book
from benchmarks.savings.trace import ParsedTrace, TraceLine, default_trace, parse_trace, write_trace
from proxy.batch.validation import split_lines
from proxy.pricing import ModelPrice
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
SETTLE_TIMEOUT_S = 2.0  # the longest wait for a cache write-back before an identical request is sent
SETTLE_POLL_S = 0.01
LOG_TAIL_LINES = 20  # lines of the child proxy's log quoted when it does not start
MAX_SHOWN_ERRORS = 3  # errors quoted per batch job that failed as a whole
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
    log_path = workdir / "proxy.log"
    with log_path.open("w") as log, contextlib.ExitStack() as stack:
        try:
            base = stack.enter_context(child_server(command, port, "thrifty proxy serve", 300.0, env, stdout=log))
        except RuntimeError as exc:  # the log goes with ``workdir``: quote its end now
            raise RuntimeError(f"{exc}; the end of its log:\n{log_tail(log_path)}") from None
        yield RunningProxy(base, workdir / "data" / "thrifty.db")


def log_tail(path: Path, lines: int = LOG_TAIL_LINES) -> str:
    """The last ``lines`` lines of a log file, indented (a note when it is empty or unreadable)."""
    try:
        tail = path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
    except OSError as exc:
        return f"  (cannot read {path}: {exc})"
    return "\n".join(f"  {line}" for line in tail) if tail else "  (the log is empty)"


def read_log(database: Path) -> dict[str, LogRow]:
    """The child proxy's request log rows by request id."""
    if not database.exists():
        return {}
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
        rows = conn.execute(f"SELECT {', '.join(_LOG_COLUMNS)} FROM request_log").fetchall()
    return {row[0]: LogRow(*row) for row in rows}


def exact_cache_settle(database: Path, timeout_s: float = SETTLE_TIMEOUT_S) -> Callable[[Outcome], None]:
    """A ``settle`` for :func:`replay_trace`: after an answer that missed the cache, wait until the
    child proxy has written it back to its exact cache (its SQLite table ``thrifty_exact_cache``
    holds a response with the answer's ``id``), at most ``timeout_s`` (an answer the proxy does not
    store). The write-back runs after the response is sent, so an identical request sent at once
    could still miss."""

    def settle(outcome: Outcome) -> None:
        if outcome.cache != "miss" or not outcome.response_id:
            return
        deadline = time.monotonic() + timeout_s
        while not _in_exact_cache(database, outcome.response_id) and time.monotonic() < deadline:
            time.sleep(SETTLE_POLL_S)

    return settle


def _in_exact_cache(database: Path, response_id: str) -> bool:
    """Whether the child proxy's exact cache holds a response with this ``id`` (no database yet: no)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1.0)) as conn:
            row = conn.execute("SELECT 1 FROM thrifty_exact_cache WHERE instr(response, ?) > 0 LIMIT 1",
                               (response_id.encode(),)).fetchone()
    except sqlite3.Error:
        return False
    return row is not None


def _ask(client: httpx.Client, line: TraceLine, request_id: str) -> Outcome:
    started = time.perf_counter()
    try:
        response = client.post("/v1/chat/completions", json=line.body,
                               headers={"authorization": f"Bearer {line.key}", "x-request-id": request_id})
    except httpx.HTTPError as exc:
        return Outcome(line, request_id, 599, None, time.perf_counter() - started, f"transport: {exc}")
    latency = time.perf_counter() - started
    seen = {"route_score": _header_score(response.headers.get("x-thrifty-route-score")),
            "cache": response.headers.get("x-thrifty-cache")}
    if response.status_code < 400 and "text/event-stream" in response.headers.get("content-type", ""):
        text, answer_id = _streamed_answer(response.text)
        return Outcome(line, request_id, response.status_code, text, latency, response_id=answer_id, **seen)
    try:
        payload = response.json()
    except ValueError:
        return Outcome(line, request_id, response.status_code, None, latency, "the answer is not JSON")
    if response.status_code >= 400:
        return Outcome(line, request_id, response.status_code, None, latency, error_text(payload))
    answer = ((payload.get("choices") or [{}])[0].get("message") or {}).get("content")
    answer_id = payload.get("id") if isinstance(payload.get("id"), str) else None
    return Outcome(line, request_id, response.status_code, answer, latency, response_id=answer_id, **seen)


def error_text(payload: object) -> str:
    """The message of an OpenAI error body (``{"error": {"message": ...}}``), else the body as text."""
    error = payload.get("error") if isinstance(payload, dict) else None
    if isinstance(error, dict) and error.get("message"):
        return str(error["message"])
    return str(error if error is not None else payload)


def _header_score(value: str | None) -> float | None:
    """A score header as a number (None: absent, not a number, or not finite)."""
    try:
        score = float(value) if value is not None else None
    except ValueError:
        return None
    return score if score is not None and math.isfinite(score) else None


def _streamed_answer(body: str) -> tuple[str | None, str | None]:
    """The first choice's content, joined from an SSE answer's deltas (None: no content chunk), and
    the answer's ``id`` (None: no chunk carries one)."""
    parts, answer_id = [], None
    for raw in split_lines(body):  # a JSON string may hold a raw U+2028, which splitlines() breaks at
        if not raw.startswith("data: ") or raw == "data: [DONE]":
            continue
        try:
            chunk = json.loads(raw[6:])
        except ValueError:
            continue
        if answer_id is None and isinstance(chunk.get("id"), str):
            answer_id = chunk["id"]
        for choice in chunk.get("choices") or []:
            if choice.get("index", 0) == 0 and isinstance((choice.get("delta") or {}).get("content"), str):
                parts.append(choice["delta"]["content"])
    return ("".join(parts) if parts else None), answer_id


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
    """Wait for ``job`` to end; one outcome per line, from its output and error files (a line in
    neither: missing). A job that failed as a whole has its errors printed."""
    deadline = time.monotonic() + timeout_s
    status: dict = {}
    while time.monotonic() < deadline:
        status = client.get(f"/v1/batches/{job.batch_id}", headers=job.auth).json()
        if status.get("status") in ("completed", "failed", "expired", "cancelled"):
            break
        time.sleep(0.5)
    elapsed = time.perf_counter() - job.started
    outcomes: list[Outcome] = []
    for file_key in ("output_file_id", "error_file_id"):
        if status.get(file_key):
            content = client.get(f"/v1/files/{status[file_key]}/content", headers=job.auth).text
            outcomes += _file_outcomes(content, job, prefix, elapsed)
    answered = {outcome.line.line_no for outcome in outcomes}
    why = f"batch {job.batch_id} ended {status.get('status', 'unknown')} without it"
    errors = batch_errors(status)
    if errors:
        print(f"  batch {job.batch_id} ({len(job.lines)} lines) {status.get('status')}: {len(errors)} error(s): "
              + "; ".join(errors[:MAX_SHOWN_ERRORS]), flush=True)
        why += f" ({errors[0]})"
    missing = [line for line in job.lines.values() if line.line_no not in answered]
    return outcomes + _missing(missing, prefix, why, elapsed)


def batch_errors(status: dict) -> list[str]:
    """A batch object's ``errors`` (why it failed as a whole) as ``line N: message`` texts."""
    data = (status.get("errors") or {}).get("data") if isinstance(status.get("errors"), dict) else None
    return [(f"line {e.get('line')}: " if e.get("line") is not None else "") + str(e.get("message") or e.get("code"))
            for e in data or [] if isinstance(e, dict)]


def _file_outcomes(content: str, job: _BatchJob, prefix: str, elapsed: float) -> list[Outcome]:
    """The outcomes of ``job``'s lines in one result file (output or error JSONL); a line that got no
    HTTP answer (expired, cancelled) has no request id: ``<prefix>-missing-<line>`` stands in."""
    outcomes = []
    for raw in split_lines(content):  # a JSON string may hold a raw U+2028, which splitlines() breaks at
        if not raw.strip():
            continue
        item = json.loads(raw)
        line = job.lines.get(item.get("custom_id"))
        if line is None:
            continue
        response = item.get("response") or {}
        body = response.get("body") or {}
        status = response.get("status_code", 599)
        request_id = response.get("request_id") or f"{prefix}-missing-{line.line_no}"
        if not response or status >= 400:
            error = error_text(body) if response else error_text(item)
            outcomes.append(Outcome(line, request_id, status, None, elapsed, error))
            continue
        answer = ((body.get("choices") or [{}])[0].get("message") or {}).get("content")
        outcomes.append(Outcome(line, request_id, status, answer, elapsed))
    return outcomes


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


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) during a replay; ``where`` says how far it got."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.where = where


def _sleep_until_due(start: float, t: float, time_scale: float, stop: threading.Event | None = None) -> None:
    """Sleep until ``start + t x time_scale`` (``time.perf_counter`` seconds), if that is ahead; with
    ``stop``, wake as soon as it is set."""
    delay = start + t * time_scale - time.perf_counter()
    if delay > 0:
        if stop is None:
            time.sleep(delay)
        else:
            stop.wait(delay)


def send_line(client: httpx.Client, line: TraceLine, request_id: str, start: float, time_scale: float, *,
              stop: threading.Event | None = None, after: threading.Event | None = None) -> Outcome:
    """Wait until ``line`` is due (``start + t x time_scale``) and, with ``after``, until that event is
    set (an identical request still in flight), then send it. Any exception on the way (a delay too
    large to sleep, a header httpx cannot encode, an unexpected answer) becomes a failed outcome (status
    599, no answer) instead of ending the replay; so does ``stop``, set before the line was sent."""
    try:
        _sleep_until_due(start, line.t, time_scale, stop)
        if after is not None:
            after.wait()
        if stop is not None and stop.is_set():
            return Outcome(line, request_id, 599, None, None, "interrupted before it was sent")
        return _ask(client, line, request_id)
    except Exception as exc:  # one bad request must not stop the run
        return Outcome(line, request_id, 599, None, None, f"client: {exc!r}")


def identical_before(lines: Sequence[TraceLine]) -> dict[int, int]:
    """For each line (by index) that repeats an earlier one's key and body, that earlier line's index:
    the replay sends it only once the earlier one is answered, so that which of two identical
    requests misses the exact cache (and which hits) does not depend on thread timing."""
    last: dict[str, int] = {}
    before: dict[int, int] = {}
    for index, line in enumerate(lines):
        signature = json.dumps([line.key, line.body], sort_keys=True)
        if signature in last:
            before[index] = last[signature]
        last[signature] = index
    return before


def replay_trace(base: str, lines: Sequence[TraceLine], prefix: str, *, concurrency: int, time_scale: float,
                 batch_timeout_s: float, settle: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Send every line at ``t x time_scale`` seconds after the start; batch lines as one job per key,
    submitted when the first batch line arrives. Every line gets exactly one outcome. A request
    identical (key and body) to one still in flight waits for its answer (see :func:`identical_before`)
    and then for ``settle(answer)`` (e.g. :func:`exact_cache_settle`: until the proxy has cached it).

    Raises:
        Interrupted: Ctrl-C; the lines not yet sent are dropped at once, those in flight are awaited.
    """
    interactive = [line for line in lines if not line.batch]
    batched = [line for line in lines if line.batch]
    outcomes: list[Outcome] = []
    lock = threading.Lock()
    stop = threading.Event()
    answered = [threading.Event() for _ in interactive]
    before = identical_before(interactive)
    followed = set(before.values())  # lines an identical one waits for
    start = time.perf_counter()
    done = 0

    def send(index: int, line: TraceLine) -> None:
        nonlocal done
        after = answered[before[index]] if index in before else None
        try:
            outcome = send_line(client, line, f"{prefix}-{line.line_no}", start, time_scale, stop=stop, after=after)
            if settle is not None and index in followed and not stop.is_set():
                with contextlib.suppress(Exception):  # waiting is a courtesy: a failure must not end the replay
                    settle(outcome)
        finally:
            answered[index].set()
        with lock:
            outcomes.append(outcome)
            done += 1
            if done % 50 == 0:
                print(f"  {done}/{len(interactive)} interactive requests answered", flush=True)

    client = httpx.Client(base_url=base, timeout=120)
    pool = ThreadPoolExecutor(concurrency)
    try:
        futures = [pool.submit(send, index, line) for index, line in enumerate(interactive)]
        if batched:
            batch_outcomes = _replay_batch(base, batched, prefix, start, time_scale, batch_timeout_s)
            with lock:
                outcomes += batch_outcomes
        for future in futures:
            future.result()
    except KeyboardInterrupt:
        stop.set()
        for event in answered:
            event.set()
        pool.shutdown(wait=True, cancel_futures=True)
        sent = sum(o.error != "interrupted before it was sent" for o in outcomes)
        raise Interrupted(f"{sent} of {len(lines)} requests had been answered") from None
    finally:
        pool.shutdown(wait=True)
        client.close()
    return sorted(outcomes, key=lambda o: o.line.line_no)


def _replay_batch(base: str, batched: Sequence[TraceLine], prefix: str, start: float, time_scale: float,
                  timeout_s: float) -> list[Outcome]:
    """The batch lines' outcomes: their jobs are submitted when the first of them is due."""
    try:
        _sleep_until_due(start, batched[0].t, time_scale)
        with httpx.Client(base_url=base, timeout=60) as batch_client:
            return run_batch(batch_client, batched, prefix, timeout_s)
    except Exception as exc:  # a safety net: run_batch already answers every line
        print(f"  batch jobs failed: {exc!r}", flush=True)
        return _missing(batched, prefix, repr(exc))


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
           f"{len(parsed.problems)}"]
    if comp["kinds"]:
        out.append("  " + ", ".join(f"{kind} {n}" for kind, n in comp["kinds"].items()))
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
    row("latency p50 / p95 ms (interactive, client)", "-", [_latency_cell(r) for r in reports])
    row("strong model's share of routed calls", "100 %",
        [f"{r.routed_strong}/{r.routed} ({100 * r.routed_strong / r.routed if r.routed else 0:.0f} %)"
         for r in reports])
    row("errors / rows missing from the log", "-", [f"{r.errors} / {r.missing_rows}" for r in reports])
    row("failed requests (HTTP error); right answers they lost", "-", [f"{r.failed}; {r.failed_lost}" for r in reports])
    row("wall time s", "-", [f"{wall:.0f}" for _, _, wall in runs])
    for cause in CAUSES:
        row(f"saved by {CAUSE_LABELS[cause]} (USD, % of all-strong; requests, answers lost)", "-",
            [f"{r.saved_by[cause]:.6f} ({100 * r.saved_by[cause] / r.baseline_usd if r.baseline_usd else 0:.1f} %); "
             + (f"{r.batch_discounted} discounted (counted under their stage above), +0" if cause == "batch" else
                f"{r.requests_by[cause]}, {r.quality_lost_by[cause]:+d}") for r in reports])
    row("sum of the stages = total saving", "-", [_sum_cell(r) for r in reports])
    for spec, r, _ in runs:
        out += _failure_notes(spec.label, r)
    return "\n".join(out)


def _latency_cell(report: Report) -> str:
    """p50 / p95 of the interactive requests' latency in ms; "-" when there were none (all batch)."""
    if not report.latencies_s:
        return "-"
    return f"{1000 * _pct(report.latencies_s, 50):.0f} / {1000 * _pct(report.latencies_s, 95):.0f}"


def _sum_cell(report: Report) -> str:
    """The stages' sum beside the total saving: one value twice when they agree up to float rounding
    (so the two never print as 0.012473 = 0.012474), both when they do not."""
    total, saved = sum(report.saved_by.values()), report.saved_usd
    if math.isclose(total, saved, rel_tol=1e-9, abs_tol=1e-12):
        return f"{saved:.6f} = {saved:.6f}"
    return f"{total:.6f} != {saved:.6f}"


def _failure_notes(label: str, report: Report) -> list[str]:
    """Lines under the table for a run with failed requests: the count by status and the first messages."""
    if not report.failed:
        return []
    statuses = ", ".join(f"{status} x{n}" for status, n in sorted(report.failed_by_status.items()))
    return ["", f"[{label}] {report.failed} failed requests ({statuses}), {report.failed_lost} of them right "
                f"under all strong (counted in the quality loss); first:",
            *(f"  {sample}" for sample in report.failure_samples)]


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
            from benchmarks.savings.learning import learn_escalation, training_trace

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
    parser.add_argument("--trace", help="a JSONL trace (see README, 'Savings trace'); default: the seeded trace "
                                        "generated from the public data")
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
                        help="also replay the all-strong baseline (every line interactively to the strong model, "
                             "caches off) so its latency is measured, not only its cost computed; its column also "
                             "cross-checks the computed baseline's cost and quality")
    parser.add_argument("--details", help="write one JSONL line per request and run (cause, cost, grades, error) to "
                                          "FILE, with the run's name added to the file name")
    parser.add_argument("--learn-escalation", action="store_true",
                        help="combined mode: first retrain the escalation model and learn the direct route (which "
                             "requests skip the weak call) from the proxy's own traffic (a training trace disjoint "
                             "from the evaluated one, every weak answer served and judged by feedback; see "
                             "benchmarks/savings/learning.py), choose both thresholds on that traffic, and evaluate "
                             "with them")
    parser.add_argument("--train-seed", type=int, default=None,
                        help="with --learn-escalation: seed of the training trace (default: --seed + 1)")
    parser.add_argument("--train-scale", type=int, default=1,
                        help="with --learn-escalation: the training trace holds this many times the default mix "
                             "(a whole number from 1 to 10; default 1)")
    parser.add_argument("--quality-budget", type=float, default=1.0,
                        help="with --learn-escalation: answers the chosen thresholds may lose against the strong "
                             "model on the training traffic, net, in points of its requests (default 1: the target's "
                             "quality loss)")
    parser.add_argument("--escalation-out", help="with --learn-escalation: keep the retrained artifact in this file "
                                                 "(and the learned direct route beside it, as "
                                                 "<stem>.direct-router.joblib)")
    parser.add_argument("--logs-only", action="store_true",
                        help="with --learn-escalation: train on the logged answers only (no public GSM8K rows)")
    parser.add_argument("--curve", help="comma-separated target large shares (e.g. 0.3,0.5,0.7,0.9); combined mode: "
                                        "escalation thresholds, or DIRECT:ESCALATION pairs (e.g. 0.3,0.217:0.5): "
                                        "one more run with every stage on per value, printed as a quality-cost curve")
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

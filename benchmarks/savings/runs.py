"""Running the proxy in front of the replay upstream and replaying a trace through it: the child
proxy's configuration and process, interactive requests (streamed or not) and batch jobs, and the
request log read back. Used by ``thrifty eval savings`` (:mod:`benchmarks.savings.evaluation`) and by
the escalation learning run (:mod:`benchmarks.savings.learning`)."""

from __future__ import annotations

import contextlib
import json
import math
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx

from benchmarks.batches import result_items, submit_lines
from benchmarks.harness import child_server, free_port
from benchmarks.savings.accounting import LogRow, Outcome
from benchmarks.savings.trace import TraceLine
from benchmarks.sse import body_chunks
from proxy.batch.cli import FINAL, BatchClient
from proxy.pricing import ModelPrice
from proxy.wire.errors import error_message

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
lookup_deadline_ms = 0  # a replay must not depend on how busy the machine is
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
    """The child proxy's request log rows by request id: the proxy's own row id (what a batch output line
    names) and, for a request that sent one, the caller's ``x-request-id`` (the replay's ids), which the
    log keeps beside its own id (``client_request_id``)."""
    if not database.exists():
        return {}
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
        rows = conn.execute(f"SELECT client_request_id, {', '.join(_LOG_COLUMNS)} FROM request_log").fetchall()
    by_id: dict[str, LogRow] = {}
    for client_id, *columns in rows:
        row = LogRow(*columns)
        by_id[row.id] = row
        if client_id:
            by_id.setdefault(client_id, row)
    return by_id


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
        return Outcome(line, request_id, response.status_code, None, latency, error_message(payload, response.status_code))
    answer = ((payload.get("choices") or [{}])[0].get("message") or {}).get("content")
    answer_id = payload.get("id") if isinstance(payload.get("id"), str) else None
    return Outcome(line, request_id, response.status_code, answer, latency, response_id=answer_id, **seen)


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
    for chunk in body_chunks(body):
        if answer_id is None and isinstance(chunk.get("id"), str):
            answer_id = chunk["id"]
        for choice in chunk.get("choices") or []:
            if choice.get("index", 0) == 0 and isinstance((choice.get("delta") or {}).get("content"), str):
                parts.append(choice["delta"]["content"])
    return ("".join(parts) if parts else None), answer_id


@dataclass(frozen=True, slots=True)
class _BatchJob:
    """One submitted batch job: the client with its key, its id, lines by custom id, submission time."""

    api: BatchClient
    batch_id: str
    lines: dict[str, TraceLine]
    started: float


def _submit_job(api: BatchClient, group: list[TraceLine]) -> _BatchJob:
    """Upload ``group`` as a JSONL file and create its batch job."""
    batch_id = submit_lines(api, [{"custom_id": str(line.line_no), "method": "POST", "url": "/v1/chat/completions",
                                   "body": line.body} for line in group], filename="trace.jsonl")
    return _BatchJob(api, batch_id, {str(line.line_no): line for line in group}, time.perf_counter())


def _collect_job(job: _BatchJob, prefix: str, timeout_s: float) -> list[Outcome]:
    """Wait for ``job`` to end; one outcome per line, from its output and error files (a line in
    neither: missing). A job that failed as a whole has its errors printed."""
    deadline = time.monotonic() + timeout_s
    status: dict = {}
    while time.monotonic() < deadline:
        status = job.api.get(job.batch_id)
        if status.get("status") in FINAL:
            break
        time.sleep(0.5)
    elapsed = time.perf_counter() - job.started
    outcomes: list[Outcome] = []
    for file_key in ("output_file_id", "error_file_id"):
        if status.get(file_key):
            outcomes += _file_outcomes(result_items(job.api, status[file_key]), job, prefix, elapsed)
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


def _file_outcomes(items: list[dict], job: _BatchJob, prefix: str, elapsed: float) -> list[Outcome]:
    """The outcomes of ``job``'s lines in one result file's items (output or error JSONL); a line that got
    no HTTP answer (expired, cancelled) has no request id: ``<prefix>-missing-<line>`` stands in."""
    outcomes = []
    for item in items:
        line = job.lines.get(item.get("custom_id"))
        if line is None:
            continue
        response = item.get("response") or {}
        body = response.get("body") or {}
        status = response.get("status_code", 599)
        request_id = response.get("request_id") or f"{prefix}-missing-{line.line_no}"
        if not response or status >= 400:
            error = error_message(body, status) if response else error_message(item)
            outcomes.append(Outcome(line, request_id, status, None, elapsed, error))
            continue
        answer = ((body.get("choices") or [{}])[0].get("message") or {}).get("content")
        outcomes.append(Outcome(line, request_id, status, answer, elapsed))
    return outcomes


def _missing(lines: Sequence[TraceLine], prefix: str, why: str, elapsed: float | None = None) -> list[Outcome]:
    """Failed outcomes (status 599, no answer) for ``lines`` that never got an answer."""
    return [Outcome(line, f"{prefix}-missing-{line.line_no}", 599, None, elapsed, why) for line in lines]


def run_batch(base: str, lines: Sequence[TraceLine], prefix: str, timeout_s: float,
              transport: httpx.BaseTransport | None = None) -> list[Outcome]:
    """Send ``lines`` as batch jobs (one per key) through the Files and Batches API of the proxy at
    ``base`` and wait for them (``transport``: another httpx transport, for tests).

    Every line gets one outcome. A job that cannot be submitted or collected (any exception) marks
    only its own lines as missing; the other jobs are unaffected."""
    by_key: dict[str, list[TraceLine]] = {}
    for line in lines:
        by_key.setdefault(line.key, []).append(line)
    outcomes: list[Outcome] = []
    jobs: list[_BatchJob] = []
    for key, group in by_key.items():
        try:
            jobs.append(_submit_job(BatchClient(base + "/v1", key, timeout=60, transport=transport), group))
        except Exception as exc:  # one job's failure must not lose the others
            print(f"  batch job for {len(group)} lines could not be submitted: {exc!r}", flush=True)
            outcomes += _missing(group, prefix, f"batch job not submitted: {exc!r}")
    for job in jobs:
        try:
            outcomes += _collect_job(job, prefix, timeout_s)
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
        return run_batch(base, batched, prefix, timeout_s)
    except Exception as exc:  # a safety net: run_batch already answers every line
        print(f"  batch jobs failed: {exc!r}", flush=True)
        return _missing(batched, prefix, repr(exc))

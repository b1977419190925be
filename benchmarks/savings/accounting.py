"""Cost, quality and the saving attributed to each stage, from a replay's outcomes and request log.

The baseline sends every trace request straight to the strong model: its cost is the strong
model's price times the replay's token counts for that request (the caller's own ``max_tokens``
only). Per request, the saving ``baseline - cost`` (cost from the request log) is split exactly:

- a cache hit: all of it to the exact or the semantic cache;
- otherwise, with ``M`` the served model, ``uncapped = price(M) x replay tokens of M`` for the
  request as the caller sent it, ``served = price(M) x logged tokens`` and ``extra`` what the
  request paid beyond ``served`` before any batch discount (the cascade's small call):
  ``baseline - uncapped - extra`` to the cascade (a cascaded request), to routing (a routed one)
  or to ``other``; ``uncapped - served`` to shaping/capping (a shorter answer or prompt);
  ``batch_saved_usd`` to the batch discount.

The parts add up to ``baseline - cost`` by construction, so the causes sum to the total saving.
The quality a stage cost: the requests whose primary cause it is (the cache that answered; else
capping when the answer was cut by ``max_tokens`` the caller did not set; else the cascade or the
routing that chose the model), strong-model right minus served right.

A failed request (an HTTP error, or no answer at all) still counts in quality, graded wrong: a user
who sent it got no right answer, and leaving it out would hide failures the proxy causes. It is
charged to ``other`` and counted apart (by status, with its first messages, and the answers lost to
failures), so the report says how much of the quality loss is failures rather than worse answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.savings.replay import ReplayBook, complete
from benchmarks.savings.trace import TraceLine, grade
from proxy.pricing import ModelPrice

CAUSES = ("exact_cache", "semantic_cache", "routing", "cascade", "batch", "capping", "other")
MAX_FAILURE_SAMPLES = 3  # failure messages kept per run
CAUSE_LABELS = {"exact_cache": "exact cache", "semantic_cache": "semantic cache", "routing": "routing",
                "cascade": "cascade", "batch": "batch discount", "capping": "shaping/capping", "other": "other"}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the client saw for one trace line."""

    line: TraceLine
    request_id: str
    status: int
    answer: str | None
    latency_s: float | None = None
    error: str | None = None
    route_score: float | None = None  # the prompt router's score (``x-thrifty-route-score``), when sent
    cache: str | None = None  # the proxy's ``x-thrifty-cache`` header (exact, semantic, miss, bypass), when sent
    response_id: str | None = None  # the answer's ``id``


@dataclass(frozen=True, slots=True)
class LogRow:
    """The request-log columns the accounting reads."""

    id: str
    status_code: int
    model_served: str | None
    route: str | None
    cache_outcome: str | None
    cascade_outcome: str | None
    cost_usd: float | None
    batch_saved_usd: float | None
    prompt_tokens: int | None
    completion_tokens: int | None
    cached_tokens: int | None
    finish_reason: str | None = None
    cap: str | None = None


@dataclass(slots=True)
class Report:
    """One run's totals."""

    requests: int = 0
    errors: int = 0
    missing_rows: int = 0
    baseline_usd: float = 0.0
    cost_usd: float = 0.0
    baseline_right: int = 0
    right: int = 0
    saved_by: dict[str, float] = field(default_factory=lambda: dict.fromkeys(CAUSES, 0.0))
    quality_lost_by: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CAUSES, 0))
    requests_by: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CAUSES, 0))
    latencies_s: list[float] = field(default_factory=list)
    routed: int = 0  # requests the router (or the cascade) sent upstream
    routed_strong: int = 0  # ... of which the strong model answered
    batch_discounted: int = 0  # requests paid at the batch price (each also counted under its primary stage)
    failed_by_status: dict[int, int] = field(default_factory=dict)  # failed requests (HTTP status >= 400)
    failed_lost: int = 0  # ... of which the strong model's answer was right: answers lost to failures
    failure_samples: list[str] = field(default_factory=list)  # the first few failures, "line N: status S: why"

    @property
    def failed(self) -> int:
        return sum(self.failed_by_status.values())

    @property
    def saved_usd(self) -> float:
        return self.baseline_usd - self.cost_usd

    @property
    def saving_share(self) -> float:
        return self.saved_usd / self.baseline_usd if self.baseline_usd else 0.0

    @property
    def accuracy(self) -> float:
        return self.right / self.requests if self.requests else 0.0

    @property
    def baseline_accuracy(self) -> float:
        return self.baseline_right / self.requests if self.requests else 0.0

    @property
    def quality_loss_points(self) -> float:
        return 100.0 * (self.baseline_accuracy - self.accuracy)


def price_of(prices: Mapping[str, ModelPrice], model: str | None) -> ModelPrice:
    """The price of ``model``; unpriced models cost nothing."""
    return prices.get(model or "", ModelPrice(model or "?"))


def baseline(book: ReplayBook, line: TraceLine, prices: Mapping[str, ModelPrice]) -> tuple[float, bool]:
    """What the line costs sent straight to the strong model, and whether that answer is right."""
    body = dict(line.body, model=book.strong_model)
    done = complete(book, body)
    cost = price_of(prices, book.strong_model).cost(done.prompt_tokens, done.completion_tokens)
    return cost, grade(book, line.ref, done.text)


def attribute(book: ReplayBook, line: TraceLine, row: LogRow, baseline_usd: float,
              prices: Mapping[str, ModelPrice]) -> dict[str, float]:
    """Split ``baseline_usd - row.cost_usd`` over the causes (see the module doc); the values sum
    to that difference exactly (up to float rounding)."""
    parts = dict.fromkeys(CAUSES, 0.0)
    cost = row.cost_usd or 0.0
    if row.status_code >= 400:
        parts["other"] = baseline_usd - cost
        return parts
    if row.cache_outcome in ("exact", "semantic"):
        parts[f"{row.cache_outcome}_cache"] = baseline_usd - cost
        return parts
    price = price_of(prices, row.model_served)
    batch = row.batch_saved_usd or 0.0
    served = price.cost(row.prompt_tokens or 0, row.completion_tokens or 0, row.cached_tokens or 0)
    extra = cost + batch - served
    if row.model_served in (book.weak_model, book.strong_model):
        done = complete(book, dict(line.body, model=row.model_served))
        uncapped = price.cost(done.prompt_tokens, done.completion_tokens)
    else:
        uncapped = served
    choice = "cascade" if row.cascade_outcome else "routing" if row.route else "other"
    parts[choice] = baseline_usd - uncapped - extra
    parts["capping"] = uncapped - served
    parts["batch"] = batch
    return parts


def primary_cause(book: ReplayBook, line: TraceLine, row: LogRow | None) -> str:
    """The stage a request's quality change is charged to."""
    if row is None or row.status_code >= 400:
        return "other"
    if row.cache_outcome in ("exact", "semantic"):
        return f"{row.cache_outcome}_cache"
    own_limit = line.body.get("max_tokens") or line.body.get("max_completion_tokens")
    if row.finish_reason == "length" and not own_limit:
        return "capping"
    if row.cascade_outcome:
        return "cascade"
    return "routing" if row.route else "other"


def account(book: ReplayBook, outcomes: Sequence[Outcome], rows: Mapping[str, LogRow],
            prices: Mapping[str, ModelPrice], details: list[dict[str, Any]] | None = None) -> Report:
    """Totals of one run: every outcome is graded; its log row (by request id) gives cost and cause.

    A request without a log row (lost, or never answered) or that failed (an HTTP error) is charged
    the baseline: a failure saves nothing (it would be retried), and it is graded wrong.
    ``details``, when given, receives one dict per request (line, kind, cause, costs, grades)."""
    report = Report()
    for outcome in outcomes:
        report.requests += 1
        base_cost, base_right = baseline(book, outcome.line, prices)
        right = outcome.status < 400 and grade(book, outcome.line.ref, outcome.answer)
        report.baseline_usd += base_cost
        report.baseline_right += base_right
        report.right += right
        if outcome.status >= 400 or outcome.answer is None:
            report.errors += 1
        if outcome.latency_s is not None and not outcome.line.batch:
            report.latencies_s.append(outcome.latency_s)
        row = rows.get(outcome.request_id)
        if row is None or row.status_code >= 400 or outcome.status >= 400:
            # lost or failed: charged as if sent to the strong model (a failure saves nothing), graded wrong
            report.missing_rows += row is None
            report.cost_usd += base_cost
            cause = "other"
        else:
            report.cost_usd += row.cost_usd or 0.0
            for name, value in attribute(book, outcome.line, row, base_cost, prices).items():
                report.saved_by[name] += value
            cause = primary_cause(book, outcome.line, row)
            report.batch_discounted += bool(row.batch_saved_usd)
            if row.route and row.cache_outcome not in ("exact", "semantic"):
                report.routed += 1
                report.routed_strong += row.model_served == book.strong_model
        report.requests_by[cause] += 1
        report.quality_lost_by[cause] += int(base_right) - int(right)
        if outcome.status >= 400:
            _count_failure(report, outcome, base_right)
        if details is not None:
            details.append({"line": outcome.line.line_no, "kind": outcome.line.kind, "key": outcome.line.key,
                            "ref": outcome.line.ref, "cause": cause, "status": outcome.status,
                            "model": row.model_served if row else None,
                            "cache": row.cache_outcome if row else None, "baseline_usd": base_cost,
                            "cost_usd": row.cost_usd if row else None, "strong_right": base_right,
                            "right": right, "answer": (outcome.answer or "")[:200], "error": outcome.error})
    return report


def _count_failure(report: Report, outcome: Outcome, base_right: bool) -> None:
    """Count a failed request: by status, the answer it lost, and its message among the first few."""
    report.failed_by_status[outcome.status] = report.failed_by_status.get(outcome.status, 0) + 1
    report.failed_lost += base_right
    if len(report.failure_samples) < MAX_FAILURE_SAMPLES:
        report.failure_samples.append(f"line {outcome.line.line_no}: status {outcome.status}: "
                                      f"{(outcome.error or 'no error message')[:300]}")


def composition(lines: Sequence[TraceLine]) -> dict[str, Any]:
    """What a trace is made of: lines per kind, batch share, keys, system prompts."""
    kinds: dict[str, int] = {}
    for line in lines:
        kinds[line.kind] = kinds.get(line.kind, 0) + 1
    systems = {m.get("content") for line in lines for m in line.body.get("messages", [])
               if isinstance(m, dict) and m.get("role") == "system"}
    return {"requests": len(lines), "kinds": dict(sorted(kinds.items())),
            "batch": sum(line.batch for line in lines), "keys": len({line.key for line in lines}),
            "system_prompts": len(systems), "span_s": max((line.t for line in lines), default=0.0)}

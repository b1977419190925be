"""The escalation model and the direct route learned from the proxy's own traffic, measured end to end
(issue 18, items 4 and 6).

``thrifty eval savings --learn-escalation`` runs this before the evaluation runs:

1. **A training trace** disjoint from the evaluation trace: the default trace's mix with another seed
   (``--train-scale`` times as large), drawn from the rows the evaluation trace does not use
   (:func:`training_trace`).
2. **An exploration run**: the training trace through a fresh ``thrifty proxy serve`` in combined mode
   with both thresholds at 1.0 (nothing goes straight to the strong model, no weak answer is
   escalated), caches off and ``[router] store_requests = true``, so every request's weak answer is
   served and stored. The client then sends ``POST /v1/feedback`` for every answer it got, its score
   the grade against the trace's reference: the thumbs up or down a user would give.
3. **Retraining** from that request log, as ``thrifty router train-escalation --logs`` does
   (:func:`proxy.commands.router_logs.load_small_answers`, then :func:`router.escalation.train_escalation`), with
   the public GSM8K rows minus the evaluation trace's questions.
   The out-of-fold scores of step 5 come from models fitted without the public rows of any question
   the training trace asks (else a public row would score its own twin in the logs), and the folds
   keep a question with its repeats and paraphrases (same trace reference).
4. **The direct route, from the same traffic**: the request is worth the weak call only when that
   call's answer can be served, so a prompt router is fitted on the training requests (embedding +
   request statistics, :func:`router.training.fitting.fit_classifier`) with the label "the weak call was of
   no use": the cascade alone (escalation threshold chosen as in step 5 with nothing sent direct)
   escalates the answer, or the answer is bad. Requests of a kind the cascade nearly always
   escalates then skip the wasted weak call (and its latency); the shipped prompt router, trained
   on "large model needed", cannot say that. Its scores on the training requests are out of fold
   (:func:`router.training.direct_route.fit_direct_route`, also behind ``thrifty router train-escalation --direct-out``).
5. **The thresholds, from the training traffic only**: out-of-fold escalation scores of the logged
   answers (5 folds) and the out-of-fold direct-route score of each request; for each direct
   threshold on a grid, the highest escalation threshold that leaves at most the quality budget's
   worth of bad weak answers served (``--quality-budget`` points of the training requests, default
   1: the issue's target), and the cheapest such pair wins (:func:`choose_thresholds`).

The evaluation runs then load both new artifacts (``[router] escalation_path`` and ``artifact_path``)
with those thresholds.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import httpx
import numpy as np

from benchmarks.savings.accounting import Outcome, baseline
from benchmarks.savings.replay import ReplayBook, last_user_text
from benchmarks.savings.runs import RunSpec, read_log, replay_trace, running_proxy
from benchmarks.savings.trace import TraceLine, default_trace, grade, reference_key
from proxy.pricing import ModelPrice

FOLDS = 5


@dataclass(frozen=True, slots=True)
class LearnedEscalation:
    """What the exploration run produced: the artifact, its threshold and how they were obtained."""

    artifact: Path
    threshold: float  # the escalation threshold
    router_artifact: Path | None  # the direct route's prompt router (None: the shipped one)
    direct_threshold: float
    provenance: str
    judged: int  # logged weak answers with feedback
    bad: int  # of which judged bad
    by_kind: dict[str, tuple[int, int, float]] = field(default_factory=dict)  # kind -> (rows, bad, mean score)
    feedback_sent: int = 0
    feedback_failed: int = 0
    candidates: list[ThresholdChoice] = field(default_factory=list)


def training_trace(book: ReplayBook, evaluation: Sequence[TraceLine], seed: int, scale: int = 1) -> list[TraceLine]:
    """The default trace's mix drawn with ``seed`` from rows that no line of ``evaluation`` uses, ``scale``
    times as many of each kind (more traffic: thresholds chosen on more than a handful of bad answers)."""
    return default_trace(book, seed, exclude=[line.ref for line in evaluation], scale=scale)


def evaluation_questions(book: ReplayBook, evaluation: Sequence[TraceLine]) -> set[str]:
    """The questions the evaluation trace asks, to leave out of the public training rows: each line's
    last user message (a custom trace's ``expected`` lines included) and its referenced row's prompt."""
    out = set()
    for line in evaluation:
        out.add(last_user_text(line.body.get("messages") or []))
        record = book.by_ref.get((str(line.ref.get("source")), str(line.ref.get("id"))))
        if record is not None:
            out.add(record.prompt)
    return out


DIRECT_GRID = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass(frozen=True, slots=True)
class TrafficRow:
    """One judged request of the exploration run, as the threshold choice sees it."""

    prompt_score: float  # the direct route's score (-inf when unknown: the proxy then cascades the request)
    escalation_score: float  # out of fold
    bad: bool  # the weak answer was judged bad
    weak_usd: float  # what the weak call cost
    strong_usd: float  # what the strong call would cost


@dataclass(frozen=True, slots=True)
class ThresholdChoice:
    """A (direct, escalation) pair and what it does on the training traffic."""

    direct: float
    escalation: float
    cost_usd: float
    bad_served: int
    direct_share: float
    escalated_share: float


def allowed_bad_answers(requests: int, quality_budget_points: float) -> int:
    """Bad weak answers the thresholds may leave served on ``requests`` training requests: the quality
    budget in points of those requests, rounded down (each served bad answer counts as a lost point
    share, even where the strong model would have been wrong too)."""
    return int(math.floor(quality_budget_points / 100.0 * requests + 1e-9))


def choose_thresholds(rows: Sequence[TrafficRow], max_bad_served: int,
                      grid: Sequence[float] = DIRECT_GRID) -> tuple[ThresholdChoice, list[ThresholdChoice]]:
    """The cheapest pair on ``rows``: for each direct threshold ``d`` of ``grid`` (prompt score >= ``d``
    goes straight to the strong model), the highest escalation threshold that leaves at most
    ``max_bad_served`` bad weak answers served (those sent direct are not served); cost = the direct
    requests' strong calls + every other request's weak call + its strong call when escalated.
    Returns the choice and every candidate. ``rows`` must not be empty."""
    prompt = np.array([r.prompt_score for r in rows])
    escalation = np.array([r.escalation_score for r in rows])
    bad = np.array([r.bad for r in rows], dtype=bool)
    weak = np.array([r.weak_usd for r in rows])
    strong = np.array([r.strong_usd for r in rows])
    allowed = max(max_bad_served, 0)
    candidates = []
    for d in grid:
        direct = prompt >= d
        open_bad = np.sort(escalation[~direct & bad])  # bad answers the cascade must catch
        t = float(open_bad[allowed]) if allowed < open_bad.size else 1.0
        escalated = ~direct & (escalation >= t)
        cost = float(strong[direct].sum() + weak[~direct].sum() + strong[escalated].sum())
        candidates.append(ThresholdChoice(float(d), t, cost, int((~direct & ~escalated & bad).sum()),
                                          float(direct.mean()), float(escalated.mean())))
    best = min(candidates, key=lambda c: (c.cost_usd, -c.direct))
    return best, candidates


def out_of_fold_scores(public: tuple[np.ndarray, np.ndarray] | None, logged_x: np.ndarray, logged_y: np.ndarray,
                       c: float, seed: int = 0, folds: int = FOLDS, groups: Sequence[str] | None = None) -> np.ndarray:
    """Each logged row's escalation score from a model fitted without its fold (public rows always in;
    a fold whose complement holds one label class only gets that class's rate). ``groups``: rows with the same group (e.g. the same question asked again) share a fold, so a
    repeat is never scored by a model that saw its twin."""
    from router.cascade import fit_escalation
    from router.errors import RouterDataError
    from router.training.direct_route import group_folds

    keys = list(groups) if groups is not None else [str(i) for i in range(len(logged_y))]
    fold_of = group_folds(keys, folds, seed)
    scores = np.empty(len(logged_y), dtype=np.float64)
    for fold in range(folds):
        held = fold_of == fold
        if not held.any():
            continue
        xs, ys = [logged_x[~held]], [logged_y[~held]]
        if public is not None:
            xs.append(public[0])
            ys.append(public[1])
        labels = np.concatenate(ys)
        try:
            scores[held] = fit_escalation(np.vstack(xs), labels, c).predict(logged_x[held])
        except RouterDataError:  # the other folds hold one class only (tiny traces): their base rate
            scores[held] = float(labels.mean())
    return scores


def send_feedback(base: str, book: ReplayBook, outcomes: Sequence[Outcome]) -> tuple[int, int]:
    """``POST /v1/feedback`` for every answered outcome (score 1 right, 0 wrong, with the line's key);
    returns (sent, failed)."""
    sent = failed = 0
    with httpx.Client(base_url=base, timeout=30) as client:
        for outcome in outcomes:
            if outcome.answer is None or not outcome.request_id or outcome.status >= 400:
                continue
            score = 1.0 if grade(book, outcome.line.ref, outcome.answer) else 0.0
            try:
                response = client.post("/v1/feedback", json={"request_id": outcome.request_id, "score": score},
                                       headers={"authorization": f"Bearer {outcome.line.key}"})
                ok = response.status_code < 400
            except httpx.HTTPError:
                ok = False
            sent += ok
            failed += not ok
    return sent, failed


def learn_escalation(book: ReplayBook, upstream: str, training: Sequence[TraceLine], evaluation: Sequence[TraceLine],
                     args: argparse.Namespace, prices: Mapping[str, ModelPrice], data_dir: Path | None,
                     workdir: Path) -> LearnedEscalation:
    """Steps 2-4 of the module docstring on the ``training`` lines (step 1: :func:`training_trace`),
    against the replay upstream at ``upstream``; public GSM8K rows asking a question of ``evaluation``
    are left out. The artifact is written under ``workdir`` (or to ``args.escalation_out``).

    Raises:
        RuntimeError: the exploration run produced no judged answers (see the child proxy's log).
        RouterDataError: the answers cannot train a model (one label class).
    """
    from proxy.commands.router_logs import load_small_answers
    from router.classifier import save_artifact
    from router.escalation import (
        DEFAULT_C,
        escalation_rows,
        fit_escalation_artifact,
        public_escalation_rows,
        save_escalation,
    )

    lines = [replace(line, batch=False) for line in training]  # interactive: the headers carry the prompt score
    print(f"[learn escalation] training trace: {len(lines)} requests; "
          f"{', '.join(f'{k} {n}' for k, n in sorted(Counter(x.kind for x in lines).items()))}", flush=True)
    spec = RunSpec("exploration (training trace)", False, "combined", direct_threshold=1.0, escalation_threshold=1.0,
                   store_requests=True)
    with tempfile.TemporaryDirectory(prefix="thrifty-eval-learn-") as tmp:
        print("[learn escalation] exploration run: every weak answer served, stored and judged ...", flush=True)
        with running_proxy(spec, Path(tmp), upstream, prices, args.batch_discount) as proxy:
            outcomes = replay_trace(proxy.base, lines, f"learn-{int(time.time())}", concurrency=args.concurrency,
                                    time_scale=args.time_scale, batch_timeout_s=args.batch_timeout)
            sent, failed = send_feedback(proxy.base, book, outcomes)
            time.sleep(1.5)  # feedback rows and the request log are written in the background
        examples, summary = load_small_answers(f"sqlite+aiosqlite:///{proxy.database}")
        log_rows = read_log(proxy.database)
    print(f"[learn escalation] feedback sent for {sent} answers ({failed} failed); {summary.examples} judged weak "
          f"answers in the log", flush=True)
    if not examples:
        raise RuntimeError("the exploration run logged no judged weak answers")
    logged = [(ex.request, ex.answer, ex.quality) for ex in examples]
    rows = escalation_rows(None if args.logs_only else data_dir, logged, evaluation_questions(book, evaluation))
    artifact = fit_escalation_artifact(rows, DEFAULT_C)
    assert rows.logged is not None  # ``logged`` is not empty
    logged_x, logged_y = rows.logged
    questions_of = [last_user_text(ex.request.get("messages") or []) for ex in examples]
    by_request = {o.request_id: o for o in outcomes if o.request_id}
    # the judged answers name the request log's own row id; the outcomes, the caller's x-request-id
    by_request |= {row.id: o for o in outcomes if o.request_id and (row := log_rows.get(o.request_id)) is not None}
    # folds by the trace line's reference: a question, its repeats and its paraphrases (other text, same
    # row) share a fold, so none is scored by a model that saw its twin
    groups = [reference_key(by_request[ex.request_id].line.ref) if ex.request_id in by_request else question
              for ex, question in zip(examples, questions_of, strict=True)]
    # the scores that choose the thresholds must not come from a model that saw the same question's public
    # row (the training trace asks public GSM8K questions): those rows are left out of every fold's fit
    oof_public = None if rows.public is None else public_escalation_rows(
        data_dir, evaluation_questions(book, evaluation) | evaluation_questions(book, training) | set(questions_of))
    scores = out_of_fold_scores(oof_public, logged_x, logged_y, DEFAULT_C, groups=groups)
    traffic, matched = [], []
    by_kind: dict[str, list[tuple[float, float]]] = {}
    for index, (example, score, label) in enumerate(zip(examples, scores, logged_y, strict=True)):
        outcome, row = by_request.get(example.request_id), log_rows.get(example.request_id)
        kind = outcome.line.kind.removesuffix(" (batch)") if outcome is not None else "unknown"
        by_kind.setdefault(kind, []).append((score, label))
        if outcome is None or row is None:
            continue
        matched.append(index)
        # the shipped router's score until the direct route is fitted; a failed first-step decision falls
        # back to the small tier, i.e. the cascade (proxy/pipeline/components.py)
        prompt_score = outcome.route_score if outcome.route_score is not None else -math.inf
        traffic.append(TrafficRow(prompt_score, float(score), bool(label >= 0.5), row.cost_usd or 0.0,
                                  baseline(book, outcome.line, prices)[0]))
    if not traffic:
        raise RuntimeError("no judged answer of the exploration run could be matched to its request")
    allowed = allowed_bad_answers(len(traffic), args.quality_budget)
    # the label's escalation threshold is one number chosen on every row (held-out folds included): a
    # small leak, left because each fold's own choice would give each fold another label
    cascade_alone, _ = choose_thresholds(traffic, allowed, grid=(math.inf,))
    useless = np.array([row.bad or row.escalation_score >= cascade_alone.escalation for row in traffic])
    direct_router = None
    if useless.any() and not useless.all():  # else nothing to learn: the shipped router decides the direct route
        print(f"[learn escalation] fitting the direct route: {int(useless.sum())} of {len(traffic)} weak calls "
              f"of no use (escalated at {cascade_alone.escalation:.3f}, or a bad answer) ...", flush=True)
        from router.training.direct_route import fit_direct_route

        direct_router, direct_scores = fit_direct_route([examples[i].request for i in matched], useless,
                                                        [groups[i] for i in matched])
        traffic = [replace(row, prompt_score=float(s)) for row, s in zip(traffic, direct_scores, strict=True)]
    choice, candidates = choose_thresholds(traffic, allowed)
    path = Path(args.escalation_out) if args.escalation_out else workdir / "learned_escalation.json"
    router_path: Path | None = path.with_name(f"{path.stem}.direct-router.joblib")
    if direct_router is not None:
        save_artifact(direct_router, router_path)
    else:
        router_path.unlink(missing_ok=True)  # an earlier run's route must not pass for this one's
        router_path = None
    save_escalation(artifact, path, trained_on=rows.provenance, c=DEFAULT_C)
    summary_by_kind = {kind: (len(group), int(sum(label for _, label in group)), float(np.mean([s for s, _ in group])))
                       for kind, group in sorted(by_kind.items())}
    learned = LearnedEscalation(path, choice.escalation, router_path, choice.direct, rows.provenance, len(logged),
                                int(logged_y.sum()), summary_by_kind, sent, failed, candidates)
    print(format_learned(learned, allowed, len(traffic)), flush=True)
    return learned


def format_learned(learned: LearnedEscalation, allowed: int, requests: int) -> str:
    """The retrained model's provenance, the chosen thresholds, the candidates and the out-of-fold
    scores by kind."""
    out = [f"escalation model retrained from the exploration run: {learned.provenance}",
           f"thresholds chosen on the training traffic: direct {learned.direct_threshold:.2f}, escalation "
           f"{learned.threshold:.3f} (the cheapest pair leaving at most {allowed} of the {learned.bad} weak answers "
           f"judged bad served on these {requests} requests, the quality budget; out-of-fold escalation scores, "
           f"{FOLDS} folds)",
           "", "| direct threshold | escalation threshold | sent direct | escalated | bad answers served | "
               "cost USD (training traffic) |", "|---|---|---|---|---|---|"]
    for c in learned.candidates:
        mark = " (chosen)" if (c.direct, c.escalation) == (learned.direct_threshold, learned.threshold) else ""
        out.append(f"| {c.direct:.1f}{mark} | {c.escalation:.3f} | {c.direct_share:.0%} | {c.escalated_share:.0%} | "
                   f"{c.bad_served} | {c.cost_usd:.6f} |")
    out += ["", "| training rows by kind | judged weak answers | judged bad | mean out-of-fold score |",
            "|---|---|---|---|"]
    for kind, (rows, bad, mean) in learned.by_kind.items():
        out.append(f"| {kind} | {rows} | {bad} | {mean:.3f} |")
    return "\n".join(out)

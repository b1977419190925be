"""The cascade's escalation model as a shipped artifact, and the decision the proxy takes with it.

The proxy's cascade mode asks the small tier first and escalates to the large tier when
:class:`Escalator` judges the small answer weak (see :mod:`router.cascade` for the features).
The artifact is plain JSON (feature names, standardisation, logistic weights): no pickle, a few
KiB, reproducible byte for byte by ``thrifty router train-escalation``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from router.cascade import (
    ANSWER_FEATURE_NAMES,
    EscalationModel,
    cascade_matrix,
    fit_escalation,
    load_gsm8k_answers,
)
from router.config import RouterConfig
from router.errors import RouterArtifactError, RouterDataError
from router.features import STAT_NAMES
from router.policy import ThresholdPolicy, build_policy

ARTIFACT_FORMAT = "thrifty-escalation"
ARTIFACT_VERSION = 1
DEFAULT_C = 0.1  # chosen by 5-fold CV inside GSM8K training rows (router/README.md)


def feature_names() -> tuple[str, ...]:
    """Names of the escalation model's inputs: answer features, then request statistics."""
    return (*ANSWER_FEATURE_NAMES, *(f"stat:{name}" for name in STAT_NAMES))


def default_escalation_path() -> Path:
    """The escalation artifact shipped with the package."""
    return Path(__file__).parent / "artifacts" / "default_escalation.json"


@dataclass(frozen=True, slots=True)
class EscalationArtifact:
    """A fitted escalation model and the distribution of its scores on its training rows."""

    model: EscalationModel
    score_quantiles: np.ndarray  # (101,): the 0, 1, ..., 100th percentiles of training scores

    def reference_threshold(self, target_share: float) -> float:
        """The score above which ``target_share`` of the training rows lie (a warm-up threshold)."""
        return float(np.interp(1.0 - target_share, np.linspace(0.0, 1.0, 101), self.score_quantiles))


def save_escalation(artifact: EscalationArtifact, path: Path, *, trained_on: str, c: float) -> None:
    """Write ``artifact`` as JSON (stable key order and float formatting)."""
    model = artifact.model
    document = {
        "format": ARTIFACT_FORMAT,
        "version": ARTIFACT_VERSION,
        "trained_on": trained_on,
        "c": c,
        "feature_names": list(feature_names()),
        "mean": [float(v) for v in model.mean],
        "scale": [float(v) for v in model.scale],
        "weight": [float(v) for v in model.weight],
        "bias": float(model.bias),
        "score_quantiles": [float(v) for v in artifact.score_quantiles],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


def load_escalation(path: Path | None = None) -> EscalationArtifact:
    """Read an artifact written by :func:`save_escalation` (default: the shipped one).

    Raises:
        RouterArtifactError: missing, unreadable, malformed, or made for other features.
    """
    path = path or default_escalation_path()
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RouterArtifactError(path, f"cannot read escalation artifact: {exc}") from exc
    if not isinstance(document, dict) or document.get("format") != ARTIFACT_FORMAT:
        raise RouterArtifactError(path, "not a thrifty escalation artifact")
    if document.get("version") != ARTIFACT_VERSION:
        raise RouterArtifactError(path, f"unsupported artifact version {document.get('version')!r}")
    names = tuple(document.get("feature_names") or ())
    if names != feature_names():
        raise RouterArtifactError(path, "made for other features than this version computes; retrain it")
    try:
        arrays = [np.asarray(document[k], dtype=np.float64) for k in ("mean", "scale", "weight")]
        bias = float(document["bias"])
        quantiles = np.asarray(document["score_quantiles"], dtype=np.float64)
    except (KeyError, TypeError, ValueError) as exc:
        raise RouterArtifactError(path, f"malformed weights: {exc}") from exc
    if any(a.shape != (len(names),) or not np.isfinite(a).all() for a in arrays) or not np.isfinite(bias):
        raise RouterArtifactError(path, f"weights must be {len(names)} finite numbers each")
    if (arrays[1] <= 0).any():
        raise RouterArtifactError(path, "scales must be positive")
    if quantiles.shape != (101,) or not np.isfinite(quantiles).all() or (np.diff(quantiles) < 0).any():
        raise RouterArtifactError(path, "score_quantiles must be 101 non-decreasing finite numbers")
    return EscalationArtifact(EscalationModel(arrays[0], arrays[1], arrays[2], bias), quantiles)


@dataclass(frozen=True, slots=True)
class EscalationDecision:
    """Whether to ask the large tier after reading the small tier's answer, and why."""

    escalate: bool
    score: float
    threshold: float
    reason: str


class Escalator:
    """Scores a small-tier answer and decides on escalation with the router's threshold policy.

    In ``share`` mode the policy keeps the share of escalated requests near
    ``target_large_share`` (quantile of recent escalation scores); in ``fixed`` mode a request is
    escalated when its score reaches ``fixed_threshold``.
    """

    def __init__(self, model: EscalationModel, policy: ThresholdPolicy) -> None:
        self.model = model
        self.policy = policy

    @classmethod
    def from_config(cls, config: RouterConfig, path: Path | None = None) -> Escalator:
        """The escalator ``config``'s threshold settings describe, with the artifact at ``path``
        (default: the shipped one). Share mode warms up on the artifact's training scores.

        Raises:
            RouterArtifactError: see :func:`load_escalation`.
        """
        artifact = load_escalation(path)
        reference = artifact.reference_threshold(config.target_large_share)
        return cls(artifact.model, build_policy(config, reference_threshold=reference))

    def score(self, body: Mapping[str, Any], answer: str) -> float:
        """P(the large tier is needed | the small tier's ``answer`` to ``body``)."""
        return self.model.score(body, answer)

    def decide(
        self, body: Mapping[str, Any], answer: str | None, finish_reason: str | None = None
    ) -> EscalationDecision:
        """Escalate or keep the small answer; never raises. No text, an answer cut off at the
        token limit (``finish_reason == "length"``: small models often loop until then) or a
        scoring failure escalates without consulting the model (the score is NaN)."""
        if not isinstance(answer, str) or not answer.strip():
            return EscalationDecision(True, float("nan"), float("nan"), "small tier gave no text answer")
        if finish_reason == "length":
            return EscalationDecision(True, float("nan"), float("nan"), "small answer was cut off at max_tokens")
        try:
            score = self.score(body, answer)
            if not np.isfinite(score):
                raise ValueError(f"non-finite score {score}")
            escalate, threshold, reason = self.policy.choose(score)
        except Exception as exc:  # noqa: BLE001 - a broken check must not fail the request
            return EscalationDecision(True, float("nan"), float("nan"), f"error: {type(exc).__name__}: {exc}")
        return EscalationDecision(escalate, score, threshold, reason)


def public_escalation_rows(data_dir: Path, exclude_prompts: Collection[str] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels (strong right and weak wrong) of the public GSM8K rows under ``data_dir``,
    with the weak model's stored answers; rows whose question is in ``exclude_prompts`` are left out
    (e.g. the questions of an evaluation trace).

    Raises:
        RouterDataError: unreadable public data.
    """
    from router.data import load_gsm8k

    examples = load_gsm8k(data_dir)
    answers = load_gsm8k_answers(data_dir, examples)
    if exclude_prompts:
        excluded = set(exclude_prompts)
        kept = [(ex, a) for ex, a in zip(examples, answers, strict=True) if _question(ex.body) not in excluded]
        examples, answers = [ex for ex, _ in kept], [a for _, a in kept]
    return cascade_matrix(examples, answers)


def logged_escalation_rows(logged: Sequence[tuple[Mapping[str, Any], str, float]]) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of ``(request body, small-tier answer, quality in [0, 1])`` rows from the
    proxy's own traffic: the large tier was needed when quality < 0.5."""
    from router.cascade import cascade_features

    x = np.vstack([cascade_features(body, answer) for body, answer, _ in logged])
    return x, np.array([1.0 if quality < 0.5 else 0.0 for _, _, quality in logged])


def _question(body: Mapping[str, Any]) -> str:
    messages = body.get("messages") or []
    last = messages[-1] if messages else {}
    return str(last.get("content", "")) if isinstance(last, Mapping) else ""


@dataclass(frozen=True, slots=True)
class EscalationRows:
    """The escalation model's training rows, each part as ``(features, labels)``, and where they came from."""

    public: tuple[np.ndarray, np.ndarray] | None  # public GSM8K rows (None: not used)
    logged: tuple[np.ndarray, np.ndarray] | None  # the proxy's judged small answers (None: none given)
    provenance: str


def escalation_rows(data_dir: Path | None, logged: Sequence[tuple[Mapping[str, Any], str, float]] = (),
                    exclude_prompts: Collection[str] = ()) -> EscalationRows:
    """The GSM8K rows of the public data under ``data_dir`` (label: strong right and weak wrong; features
    of the weak model's answer; rows asking a question in ``exclude_prompts`` left out) and ``logged``
    rows ``(request body, small-tier answer, quality in [0, 1])`` from the proxy's own traffic (label: the
    large tier was needed when quality < 0.5). ``data_dir`` None: logged rows only.

    Raises:
        RouterDataError: unreadable public data, or no rows at all.
    """
    public = logged_rows = None
    parts = []
    if data_dir is not None:
        public = public_escalation_rows(data_dir, exclude_prompts)
        need = public[1]
        left_out = " (questions of an evaluation trace left out)" if exclude_prompts else ""
        parts.append(f"gsm8k weak-model answers, {len(need)} rows{left_out}, {int(need.sum())} need the large model")
    if logged:
        logged_rows = logged_escalation_rows(logged)
        parts.append(f"proxy logs, {len(logged)} judged small answers, {int(logged_rows[1].sum())} judged bad")
    if public is None and logged_rows is None:
        raise RouterDataError("no training rows: give public data, logged small answers, or both")
    return EscalationRows(public, logged_rows, "; ".join(parts))


def fit_escalation_artifact(rows: EscalationRows, c: float = DEFAULT_C) -> EscalationArtifact:
    """Fit the escalation model on all of ``rows`` (public first, then logged).

    Raises:
        RouterDataError: only one label class.
    """
    parts = [part for part in (rows.public, rows.logged) if part is not None]
    x, need = np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    model = fit_escalation(x, need, c)
    quantiles = np.quantile(model.predict(x), np.linspace(0.0, 1.0, 101))
    return EscalationArtifact(model, quantiles)


def train_escalation(data_dir: Path | None, c: float = DEFAULT_C,
                     logged: Sequence[tuple[Mapping[str, Any], str, float]] = (),
                     exclude_prompts: Collection[str] = ()) -> tuple[EscalationArtifact, str]:
    """Fit the escalation model on :func:`escalation_rows` (the same arguments); returns the model and a
    provenance line.

    Raises:
        RouterDataError: unreadable public data, no rows, or only one label class.
    """
    rows = escalation_rows(data_dir, logged, exclude_prompts)
    return fit_escalation_artifact(rows, c), rows.provenance


def main(argv: Sequence[str] | None = None) -> int:
    """``thrifty router train-escalation``: write the cascade's escalation artifact."""
    parser = argparse.ArgumentParser(prog="thrifty router train-escalation", description=main.__doc__)
    parser.add_argument("--data-dir", default=None, help="benchmark data (default: ../shared/data)")
    parser.add_argument("--out", type=Path, default=None,
                        help="where to write the artifact (required: the shipped one, "
                             f"{default_escalation_path()}, is only overwritten when named here, and never with "
                             "--logs; with --expect and no --out the artifact is trained into a temporary file; "
                             "with --direct-out and no --out only the direct route is trained)")
    parser.add_argument("--c", type=float, default=DEFAULT_C,
                        help="inverse L2 strength of the logistic regression, > 0")
    parser.add_argument("--expect", type=Path, default=None,
                        help="reproducibility check: exit 1 unless the trained artifact is byte-identical to this "
                             "file (e.g. the shipped one); without --out nothing but a temporary file is written")
    parser.add_argument("--logs", metavar="DATABASE_URL", default=None,
                        help="also learn from the proxy's request log: cascaded requests' small answers "
                             "(needs [router] store_requests = true) judged by feedback or automatic checks")
    parser.add_argument("--since", default=None, help="with --logs: only requests since (2026-11-30, 7d, 12h)")
    parser.add_argument("--logs-only", action="store_true", help="with --logs: leave the public GSM8K rows out")
    parser.add_argument("--direct-out", type=Path, default=None,
                        help="with --logs: also learn combined mode's direct route from the same log (a prompt "
                             "router whose label is 'the small call was of no use': escalated, or judged bad) and "
                             "write it here, for [router] artifact_path")
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
    from router.training import resolve_data_dir  # not at import: the proxy loads this module

    logged: list[tuple[Mapping[str, Any], str, float]] = []
    if args.logs:
        from proxy.masking import mask_url
        from proxy.router_logs import ExportError, load_small_answers  # only this command reads a database

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


REPRODUCE_RTOL = 1e-9  # another CPU kind or BLAS build moves the last digits of a fit, nothing more


def artifact_difference(expected: Path, got: Path) -> float | None:
    """How far two escalation artifacts are apart: 0.0 when byte-identical, else the largest relative
    difference of their numbers (``None``: unreadable, or other fields, features or shapes)."""
    try:
        if expected.read_bytes() == got.read_bytes():
            return 0.0
        a, b = (json.loads(path.read_text(encoding="utf-8")) for path in (expected, got))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    numeric = ("mean", "scale", "weight", "bias", "score_quantiles")
    if not isinstance(a, dict) or not isinstance(b, dict) or set(a) != set(b) or \
            any(a[k] != b[k] for k in a if k not in numeric):
        return None
    largest = 0.0
    for key in numeric:
        x, y = np.asarray(a.get(key), dtype=np.float64), np.asarray(b.get(key), dtype=np.float64)
        if x.shape != y.shape:
            return None
        scale = np.maximum(np.maximum(np.abs(x), np.abs(y)), 1e-12)
        largest = max(largest, float(np.max(np.abs(x - y) / scale, initial=0.0)))
    return largest


def _train_direct_route(database_url: str, since: str | None, out: Path) -> int:
    """``--direct-out``: fit the direct route on every cascaded request of the log and write it to ``out``."""
    from proxy.router_logs import ExportError, load_cascaded_requests
    from router.classifier import save_artifact
    from router.training import auroc, fit_direct_route

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
                                          [_question(r.request) for r in requests])
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

"""The savings report's text: the trace's composition and one column per run beside the all-strong
baseline, the quality-cost curve, and the verdict against the issue's target."""

from __future__ import annotations

import math

from benchmarks.savings.accounting import CAUSE_LABELS, CAUSES, Report, composition
from benchmarks.savings.runs import RunSpec
from benchmarks.savings.trace import ParsedTrace

__all__ = ["format_curve", "format_report", "verdict"]


def _pct(values: list[float], q: float) -> float:
    """The ``q``-th percentile by nearest rank (NaN for no values)."""
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

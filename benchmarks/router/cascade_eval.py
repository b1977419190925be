"""``thrifty eval cascade``: the cascade's escalation model on a live small model's own answers.

The shipped escalation model was fitted on Mixtral's GSM8K answers. This command asks a real
small model (by default the bundled SmolLM2 backend, started as a child process) the GSM8K
questions whose strong-model answer is correct, grades each answer against that answer's final
number, and reports how the escalator separates wrong answers from right ones on *this* model:
escalation share, recall of wrong answers, kept right answers, and AUROC.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import httpx
import numpy as np

from router.cascade import final_number, read_gsm8k_rows
from router.errors import RouterDataError

FORMAT_HINT = "\nSolve it step by step, then give the final answer on its own line as '#### <number>'."


@dataclass(frozen=True, slots=True)
class GradedAnswer:
    question: str
    answer: str
    correct: bool
    score: float  # escalation probability of the model; 1.0 for a cut-off answer (always escalated)
    cut_off: bool = False  # finish_reason "length"


def load_questions(data_dir: Path, limit: int) -> list[tuple[str, float]]:
    """Up to ``limit`` GSM8K questions (evenly spread over the file) whose strong-model answer is
    marked correct, with that answer's final number as the reference."""
    try:
        rows = read_gsm8k_rows(data_dir)
    except RouterDataError as exc:
        raise SystemExit(f"error: {exc}") from None
    if not rows or len(rows[0]) < 5:
        raise SystemExit("error: the GSM8K file needs columns prompt, <weak>, <strong>, <weak>_response, "
                         "<strong>_response")
    usable = []
    for row in rows[1:]:
        reference = final_number(row[4]) if len(row) >= 5 and row[2] == "True" else None
        if reference is not None:
            usable.append((row[0], reference))
    step = max(1, len(usable) // max(1, limit))
    return usable[::step][:limit]


def ask_all(base_url: str, model: str, questions: Sequence[str], max_tokens: int,
            concurrency: int) -> list[tuple[str, str | None]]:
    """The small model's answers and finish reasons (temperature 0), in order, with a progress bar."""
    from tqdm import tqdm

    def ask(client: httpx.Client, question: str) -> tuple[str, str | None]:
        reply = client.post(f"{base_url}/v1/chat/completions", json={
            "model": model, "temperature": 0, "max_tokens": max_tokens,
            "messages": [{"role": "user", "content": question + FORMAT_HINT}]})
        reply.raise_for_status()
        choice = reply.json()["choices"][0]
        return choice["message"]["content"] or "", choice.get("finish_reason")

    with httpx.Client(timeout=600) as client, ThreadPoolExecutor(concurrency) as pool:
        futures = [pool.submit(ask, client, q) for q in questions]
        return [f.result() for f in tqdm(futures, desc="small-model answers", file=sys.stderr)]


def auroc(scores: np.ndarray, positives: np.ndarray) -> float:
    """Probability that a random positive outscores a random negative (ties count half); ``nan``
    without both kinds."""
    if positives.all() or not positives.any():
        return float("nan")
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(positives, scores))


def report(graded: Sequence[GradedAnswer], thresholds: dict[str, float], model: str) -> str:
    """Markdown summary of how the escalator splits right and wrong answers."""
    scores = np.array([g.score for g in graded])
    wrong = np.array([not g.correct for g in graded])
    n = len(graded)
    lines = [
        f"{n} GSM8K questions (strong-model answer correct), small model `{model}`: "
        f"{int((~wrong).sum())} right ({(~wrong).mean():.1%}), {int(wrong.sum())} wrong; "
        f"{sum(g.cut_off for g in graded)} cut off at max_tokens (always escalated, counted as score 1). "
        f"AUROC of the escalation score for 'wrong': {auroc(scores, wrong):.3f}. "
        f"Mean score: right {scores[~wrong].mean() if (~wrong).any() else float('nan'):.3f}, "
        f"wrong {scores[wrong].mean() if wrong.any() else float('nan'):.3f}.",
        "",
        "| threshold | escalated | wrong answers escalated | right answers kept |",
        "|---|---|---|---|",
    ]
    for name, value in thresholds.items():
        up = scores >= value
        caught = f"{(up & wrong).sum() / wrong.sum():.1%}" if wrong.any() else "n/a"
        kept = f"{(~up & ~wrong).sum() / (~wrong).sum():.1%}" if (~wrong).any() else "n/a"
        lines.append(f"| {name} ({value:.3f}) | {up.mean():.1%} | {caught} | {kept} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Ask a small model GSM8K questions and report the escalator's decisions on its answers."""
    from router.escalation import load_escalation
    from router.features import prompt_body

    parser = argparse.ArgumentParser(prog="thrifty eval cascade", description=main.__doc__)
    parser.add_argument("--data-dir", type=Path, default=None, help="benchmark data (default: ../shared/data)")
    parser.add_argument("--base-url", default=None,
                        help="an OpenAI-compatible server to ask (default: start the bundled backend)")
    parser.add_argument("--model", default=None, help="model name at --base-url (default: the bundled model)")
    parser.add_argument("--limit", type=int, default=60, help="number of questions")
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--escalation", type=Path, default=None, help="escalation artifact (default: shipped)")
    parser.add_argument("--answers-out", type=Path, default=None,
                        help="also write each question, answer, grade and score as JSON lines to this file")
    args = parser.parse_args(argv)
    data_dir = args.data_dir or Path("../shared/data")
    if args.limit < 1 or args.max_tokens < 1 or args.concurrency < 1:
        print("error: --limit, --max-tokens and --concurrency must be positive", file=sys.stderr)
        return 2
    questions = load_questions(data_dir, args.limit)
    artifact = load_escalation(args.escalation)
    backend = None
    try:
        if args.base_url is None:
            from proxy.config.settings import load_settings
            from proxy.launch.supervisor import BackendProcess

            settings = load_settings(None)
            backend = BackendProcess(settings)
            print("starting the bundled backend...", file=sys.stderr)
            backend.start()
            backend.wait_ready()
            base_url, model = backend.base_url, args.model or settings.backend.served_model_name
        else:
            base_url, model = args.base_url.rstrip("/"), args.model or ""
        answers = ask_all(base_url, model, [q for q, _ in questions], args.max_tokens, args.concurrency)
    finally:
        if backend is not None:
            backend.stop()
    graded = []
    for (question, reference), (answer, finish_reason) in zip(questions, answers, strict=True):
        got = final_number(answer)
        correct = got is not None and abs(got - reference) < 1e-6 * max(1.0, abs(reference))
        body = prompt_body(question + FORMAT_HINT)  # what the proxy's escalator would see
        cut_off = finish_reason == "length"  # the proxy escalates these without scoring
        score = 1.0 if cut_off else artifact.model.score(body, answer)
        graded.append(GradedAnswer(question, answer, correct, score, cut_off))
    if args.answers_out is not None:
        with args.answers_out.open("w", encoding="utf-8") as handle:
            for g in graded:
                handle.write(json.dumps({"question": g.question, "answer": g.answer, "correct": g.correct,
                                         "score": g.score, "cut_off": g.cut_off}) + "\n")
    thresholds = {"fixed 0.5": 0.5, "share-mode warm-up for 30 % escalated": artifact.reference_threshold(0.3)}
    print("## Cascade escalation on a live small model's answers\n")
    print(f"Command: `thrifty eval cascade {' '.join(argv if argv is not None else sys.argv[1:])}`\n")
    print(report(graded, thresholds, model))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

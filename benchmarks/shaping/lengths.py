"""``thrifty eval shaping --part lengths``: how long the bundled model's answers to ordinary chat
prompts run, which is what the out-of-the-box ``default_max_tokens`` is chosen from.

Each prompt is asked twice through the real backend: greedily (temperature 0) and at the OpenAI
default temperature (1.0, what a client that sends no ``temperature`` gets), with a generous
``max_tokens`` so that natural ends (``finish_reason == "stop"``) can be told from runaways.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx
import numpy as np

#: Ordinary chat prompts of the kinds a new user sends: facts, how-tos, lists, short explanations,
#: writing, code. Not tuned on anything; the lengths are what they are.
CHAT_PROMPTS: tuple[str, ...] = (
    "Name three colours.",
    "What is the capital of France?",
    "How do I boil an egg?",
    "Give me a synonym for happy.",
    "What is photosynthesis?",
    "Write a haiku about the sea.",
    "How many days are there in a leap year?",
    "Explain what a computer virus is in simple terms.",
    "List five fruits that are rich in vitamin C.",
    "What is the difference between weather and climate?",
    "Translate 'good morning' into Spanish.",
    "Write a short birthday message for my sister.",
    "What does a Python list comprehension look like?",
    "Why is the sky blue?",
    "Suggest a name for a pet cat.",
    "How can I improve my sleep?",
    "What is 15 times 12?",
    "Write a two-sentence story about a robot.",
    "What are the main causes of the French Revolution?",
    "Give me three tips for a job interview.",
    "What is the boiling point of water in Fahrenheit?",
    "Explain recursion to a beginner.",
    "Who wrote Romeo and Juliet?",
    "Write a SQL query that counts the rows of a table named users.",
    "What should I pack for a weekend camping trip?",
    "Summarise the plot of Cinderella in a few sentences.",
    "How do vaccines work?",
    "What is the tallest mountain in the world?",
    "Write a polite email declining a meeting invitation.",
    "What are the benefits of regular exercise?",
    "How do I reverse a string in JavaScript?",
    "What is the meaning of the word 'ephemeral'?",
    "Recommend a good book for a long flight.",
    "How does a rainbow form?",
    "Describe a cat in one sentence.",
    "What is machine learning?",
)


@dataclass(frozen=True, slots=True)
class AnswerLength:
    prompt: str
    temperature: float
    completion_tokens: int
    finish_reason: str


def ask_lengths(base_url: str, model: str, prompts: Sequence[str], *, temperature: float, max_tokens: int,
                concurrency: int = 4, seed: int | None = None) -> list[AnswerLength]:
    """One answer per prompt from an OpenAI-compatible ``base_url`` (ending in ``/v1``), in order."""

    def one(prompt: str) -> AnswerLength:
        body: dict = {"model": model, "messages": [{"role": "user", "content": prompt}], "max_tokens": max_tokens,
                      "temperature": temperature}
        if seed is not None:
            body["seed"] = seed
        reply = httpx.post(base_url + "/chat/completions", json=body, timeout=900)
        reply.raise_for_status()
        data = reply.json()
        return AnswerLength(prompt, temperature, int(data["usage"]["completion_tokens"]),
                            str(data["choices"][0].get("finish_reason")))

    with ThreadPoolExecutor(concurrency) as pool:
        done: list[AnswerLength] = []
        for answer in pool.map(one, prompts):
            done.append(answer)
            print(f"  [{len(done)}/{len(prompts)}] t={temperature} {answer.completion_tokens:5d} tokens "
                  f"({answer.finish_reason}) {answer.prompt[:50]}", flush=True)
        return done


def length_table(answers: Sequence[AnswerLength], max_tokens: int) -> list[str]:
    """Markdown rows: per temperature, the quantiles of natural (``stop``) answer lengths and how
    many answers ran into ``max_tokens``."""
    rows = ["| temperature | answers | stopped naturally | p50 | p90 | p95 | max (stopped) | "
            f"ran to {max_tokens} |", "|---|---|---|---|---|---|---|---|"]
    for temperature in sorted({a.temperature for a in answers}):
        group = [a for a in answers if a.temperature == temperature]
        stopped = np.array([a.completion_tokens for a in group if a.finish_reason == "stop"] or [0])
        runaway = sum(1 for a in group if a.finish_reason == "length")
        rows.append(f"| {temperature:g} | {len(group)} | {len(group) - runaway} | {np.percentile(stopped, 50):.0f} | "
                    f"{np.percentile(stopped, 90):.0f} | {np.percentile(stopped, 95):.0f} | {stopped.max()} | "
                    f"{runaway} |")
    return rows

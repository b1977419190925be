"""``thrifty bench engine --matrix``: five traffic shapes, Thrifty and llama-cpp-python side by side.

(a) **prompt-heavy chat** — real prose passages of 20-600 tokens (log-uniform) in the chat template with a
    short question; answers stop at EOS (capped at 128 tokens); all requests arrive at once.
(b) **decode-heavy** — short prompts (16-64 tokens), long outputs (256-512 tokens, EOS ignored), all at once.
(c) **shared system prompt** — one ~1,000-token system prompt, short user questions, 16-64 output tokens
    (EOS ignored), all at once: the prefix cache's case (llama.cpp reuses the prefix it already holds).
(d) **single stream** — requests one after another (128-token prompts, 256 output tokens, EOS ignored).
(e) **single-stream chat** — 4 chats one after another: a prose passage of 40-300 tokens and a question,
    128 output tokens each (EOS ignored, so that both peers write as many): one person chatting with a
    local model.

Both peers replay the same token ids with greedy decoding; llama-cpp-python runs requests one at a time
(it has no continuous batching). Over HTTP (``--http``), the chat cases (a), (c) and (e) go as chat
messages to ``/v1/chat/completions``, the path users take (through ``thrifty serve``: the proxy's template,
caches and shaping included); (b) and (d), random token ids, as ``/v1/completions``. Reported per case:
output tokens/s of each peer and their ratio (Thrifty / llama-cpp-python) against the issue's targets (2x on
a-c, 1x on d, 1.25x on e).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.engine.http import run_http
from benchmarks.engine.kv_eval_text import KV_EVAL_TEXT
from benchmarks.engine.workload import (
    BenchRequest,
    BenchResult,
    llama_cpp_available,
    percentile,
    run_llama_cpp,
    run_thrifty,
)

QUESTIONS = (
    "In one sentence, what is this text about?",
    "Give this text a short title.",
    "Name one place mentioned in the text.",
    "What is the mood of this passage, in a few words?",
    "Who is the main subject here? Answer briefly.",
    "Summarise the passage in ten words or fewer.",
)
SHORT_QUESTIONS = (
    "How long did the crossing take?", "Who kept the logbook?", "What did the farmers send across?",
    "When did the first boat leave in winter?", "What did visitors ask about?", "Why did the ferry stop?",
    "What was carried on Thursdays?", "Describe the landing stage.",
)


@dataclass(frozen=True, slots=True)
class MatrixSpec:
    """Sizes of the five cases (``scale`` multiplies the request counts of (a)-(c))."""

    scale: float = 1.0
    seed: int = 0
    chat_requests: int = 32
    chat_prompt: tuple[int, int] = (20, 600)
    chat_max_tokens: int = 128
    decode_requests: int = 16
    decode_prompt: tuple[int, int] = (16, 64)
    decode_output: tuple[int, int] = (256, 512)
    shared_requests: int = 24
    system_tokens: int = 1000
    shared_output: tuple[int, int] = (16, 64)
    stream_requests: int = 3
    stream_prompt: int = 128
    stream_output: int = 256
    stream_chat_requests: int = 4
    stream_chat_prompt: tuple[int, int] = (40, 300)
    stream_chat_output: int = 128

    def count(self, n: int) -> int:
        return max(1, round(n * self.scale))


@dataclass(frozen=True, slots=True)
class MatrixCase:
    key: str
    title: str
    requests: list[BenchRequest]
    target: float  # Thrifty / llama-cpp-python output tokens/s to reach
    one_at_a_time: bool = False

    @property
    def prompt_tokens(self) -> int:
        return sum(len(r.prompt_ids) for r in self.requests)

    @property
    def max_len(self) -> int:
        return max(len(r.prompt_ids) + r.output_len for r in self.requests)


def _log_uniform(rng: random.Random, low: int, high: int) -> int:
    return min(high, max(low, int(math.exp(rng.uniform(math.log(low), math.log(high + 1))))))


def _random_ids(rng: random.Random, n: int, vocab: int) -> tuple[int, ...]:
    low, high = min(1000, vocab // 2), min(40000, vocab)
    return tuple(rng.randrange(low, high) for _ in range(n))


def _passage(text_ids: Sequence[int], rng: random.Random, n: int) -> list[int]:
    start = rng.randrange(len(text_ids))
    return [text_ids[(start + i) % len(text_ids)] for i in range(n)]


def _prose(tokenizer: Any, text_ids: Sequence[int], rng: random.Random, bounds: tuple[int, int]) -> str:
    """A passage of the eval text, its token length log-uniform within ``bounds``, as stripped text."""
    return tokenizer.decode(_passage(text_ids, rng, _log_uniform(rng, *bounds))).strip()


def _chat_request(tokenizer: Any, messages: tuple[dict, ...], output_len: int, ignore_eos: bool = True) -> BenchRequest:
    """A request carrying ``messages`` and the token ids their chat template gives."""
    return BenchRequest(tuple(tokenizer.encode_chat(list(messages))), output_len, 0.0, ignore_eos=ignore_eos,
                        messages=messages)


def matrix_cases(tokenizer: Any, vocab_size: int, spec: MatrixSpec = MatrixSpec()) -> list[MatrixCase]:
    """The five seeded cases; (a), (c) and (e) are real prose in the tokenizer's chat template (and carry
    their chat messages, which an HTTP replay sends as chat completions)."""
    rng = random.Random(spec.seed)
    text_ids = tokenizer.encode(KV_EVAL_TEXT)
    chat = []
    for _ in range(spec.count(spec.chat_requests)):
        message = f"{_prose(tokenizer, text_ids, rng, spec.chat_prompt)}\n\n{rng.choice(QUESTIONS)}"
        chat.append(_chat_request(tokenizer, ({"role": "user", "content": message},), spec.chat_max_tokens,
                                  ignore_eos=False))
    decode = [BenchRequest(_random_ids(rng, _log_uniform(rng, *spec.decode_prompt), vocab_size),
                           _log_uniform(rng, *spec.decode_output), 0.0)
              for _ in range(spec.count(spec.decode_requests))]
    system = tokenizer.decode(_passage(text_ids, random.Random(spec.seed + 1), spec.system_tokens))
    system = "You answer questions about the following document.\n\n" + system.strip()
    shared = []
    for _ in range(spec.count(spec.shared_requests)):
        messages = ({"role": "system", "content": system}, {"role": "user", "content": rng.choice(SHORT_QUESTIONS)})
        shared.append(_chat_request(tokenizer, messages, _log_uniform(rng, *spec.shared_output)))
    stream = [BenchRequest(_random_ids(rng, spec.stream_prompt, vocab_size), spec.stream_output, 0.0)
              for _ in range(max(1, spec.stream_requests))]
    chat_rng = random.Random(spec.seed + 2)  # its own stream: (a)-(d) stay as they were
    single_chat = []
    for question in chat_rng.sample(QUESTIONS, min(spec.stream_chat_requests, len(QUESTIONS))):
        message = f"{_prose(tokenizer, text_ids, chat_rng, spec.stream_chat_prompt)}\n\n{question}"
        # EOS ignored: both peers write the same number of tokens (their int4 answers differ in length, and
        # a shorter answer would weigh the fixed time to first token more)
        single_chat.append(_chat_request(tokenizer, ({"role": "user", "content": message},), spec.stream_chat_output))
    return [
        MatrixCase("a", "prompt-heavy chat, answers stop at EOS", chat, 2.0),
        MatrixCase("b", "decode-heavy, long outputs", decode, 2.0),
        MatrixCase("c", f"shared {spec.system_tokens}-token system prompt, short questions", shared, 2.0),
        MatrixCase("d", "single stream", stream, 1.0, one_at_a_time=True),
        MatrixCase("e", "single-stream chat", single_chat, 1.25, one_at_a_time=True),
    ]


@dataclass(slots=True)
class CaseResult:
    case: MatrixCase
    thrifty: BenchResult
    llama: BenchResult | None

    @property
    def ratio(self) -> float | None:
        if self.llama is None or self.llama.throughput <= 0:
            return None
        return self.thrifty.throughput / self.llama.throughput


def run_matrix(loaded: Any, gguf_path: Path | None, engine_config: Any, cases: Sequence[MatrixCase],
               llama: bool = True, n_threads: int = 2, progress: bool = True,
               http_base: str | None = None) -> list[CaseResult]:
    """Each case through Thrifty, then (when ``llama`` and installed) through llama-cpp-python.
    ``http_base``: Thrifty's side goes over HTTP to the ``thrifty backend serve`` there instead of an
    in-process engine."""
    from dataclasses import replace

    results = []
    eos = frozenset(loaded.eos_ids)
    for case in cases:
        config = replace(engine_config, max_model_len=max(engine_config.max_model_len, case.max_len))
        if http_base is not None:
            ours = run_http(http_base, case.requests, name=f"thrifty HTTP ({case.key})", progress=progress,
                            one_at_a_time=case.one_at_a_time)
        else:
            ours = run_thrifty(loaded, case.requests, config, name=f"thrifty ({case.key})", progress=progress,
                               one_at_a_time=case.one_at_a_time)
        theirs = None
        if llama and gguf_path is not None and llama_cpp_available():
            theirs = run_llama_cpp(gguf_path, case.requests, n_threads, case.max_len + 16, progress=progress,
                                   eos_ids=eos, one_at_a_time=case.one_at_a_time)
        results.append(CaseResult(case, ours, theirs))
    return results


def _ms(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value * 1000:.0f}"


def matrix_table(results: Sequence[CaseResult]) -> str:
    """Markdown: one row per case with both peers' output tokens/s, the ratio and the target."""
    lines = ["| case | requests | prompt tokens | output tokens (thrifty / llama) | thrifty tok/s | llama-cpp tok/s "
             "| ratio | target | met | TTFT p50 ms (thrifty / llama) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
    for r in results:
        case, ours, theirs = r.case, r.thrifty, r.llama
        ratio = r.ratio
        lines.append(
            f"| ({case.key}) {case.title} | {len(case.requests)} | {case.prompt_tokens} | {ours.output_tokens} / "
            f"{theirs.output_tokens if theirs else 'n/a'} | {ours.throughput:.1f} | "
            f"{f'{theirs.throughput:.1f}' if theirs else 'n/a'} | {f'{ratio:.2f}x' if ratio else 'n/a'} | "
            f"{case.target:g}x | {('yes' if ratio >= case.target else 'no') if ratio else 'n/a'} | "
            f"{_ms(percentile(ours.ttfts(), 50))} / {_ms(percentile(theirs.ttfts(), 50)) if theirs else 'n/a'} |")
    return "\n".join(lines)

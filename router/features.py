"""Request features for routing: the text to embed and cheap statistics.

The two are deliberately separate. The embedding of :attr:`RequestFeatures.text` is the expensive,
shareable part (the proxy may compute it once for the semantic cache and the router); the
statistics are pure-Python string work of well under a millisecond, so routing latency can be
measured without the embedding.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import astuple, dataclass, fields
from typing import Any

import numpy as np

#: Version of the text recipe and the statistics below; stored in artifacts so a model is never
#: fed features computed differently from the ones it was trained on.
FEATURE_VERSION = 1

#: Characters of a long message kept for the embedding: its head and its tail (the question of a
#: long prompt is usually at its end). MiniLM truncates at 256 word pieces, about 1,000 characters.
TEXT_HEAD_CHARS = 600
TEXT_TAIL_CHARS = 400
#: Characters of earlier user turns appended after the last user message.
CONTEXT_CHARS = 400
#: Statistics scan at most this many characters per message (lengths are always exact).
SCAN_CHARS = 20_000

_WORD = re.compile(r"\S+")
_NUMBER = re.compile(r"(?<![A-Za-z_])[-+]?\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?")
_OPERATOR = re.compile(r"(?<=[\w)\]\s])[-+*/^=<>≤≥≠×÷±√∑∫](?=[\w(\[\s])")
_LATEX = re.compile(
    r"\\(?:frac|int|sum|prod|sqrt|lim|infty|alpha|beta|gamma|theta|pi|sigma|mathbb|cdot|leq|geq|partial)\b|\$[^$\n]{1,200}\$"
)
_MATH_WORDS = re.compile(
    r"\b(?:solve|prove|proof|theorem|lemma|integral|integrate|derivative|differentiate|equation|"
    r"polynomial|matrix|matrices|eigen\w*|probability|compute|calculate|evaluate|simplify|"
    r"factor\w*|prime|modulo|mod|sum|product|limit|converge\w*|vector|logarithm|log|sqrt|"
    r"function|variance|expected|algebra\w*|geometry|triangle|angle|radius|area|volume|ratio|"
    r"percent\w*|fraction|divisible|integer|real numbers|inequality)\b",
    re.IGNORECASE,
)
_CODE_TOKENS = re.compile(
    r"\b(?:def|class|function|return|import|from|const|let|var|public|private|static|void|"
    r"int|struct|impl|fn|async|await|lambda|SELECT|INSERT|#include|printf|println|console\.log)\b"
    r"|[{};]\s*$|=>|->|::|\(\)",
    re.MULTILINE,
)
_REASONING_WORDS = re.compile(
    r"\b(?:why|explain|analy[sz]e|compare|contrast|justify|derive|reason\w*|step[- ]by[- ]step|"
    r"evaluate|critique|design|optimi[sz]e|implement|debug|trade-?offs?|implications?)\b",
    re.IGNORECASE,
)
_NEGATION_WORDS = re.compile(r"\b(?:not|except|never|least|false|incorrect|cannot)\b", re.IGNORECASE)
_CONSTRAINT_WORDS = re.compile(
    r"\b(?:must|exactly|at least|at most|only|without|each|every|format|json|words|sentences|"
    r"bullet|list|table)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class RequestStats:
    """Cheap statistics of a chat request, already transformed for a model (counts are log1p).

    Field order is the vector order of :meth:`as_vector` and :data:`STAT_NAMES`.
    """

    log_total_chars: float
    log_total_words: float
    log_last_user_chars: float
    log_last_user_words: float
    log_n_messages: float
    log_n_user_turns: float
    has_system: float
    has_tools: float
    log_n_tools: float
    json_response: float
    has_image: float
    log_code_fences: float
    log_code_tokens: float
    digit_frac: float
    log_numbers: float
    log_math_operators: float
    log_latex: float
    log_math_words: float
    log_reasoning_words: float
    log_negation_words: float
    log_constraint_words: float
    log_question_marks: float
    log_lines: float
    long_word_frac: float
    mean_word_len: float
    upper_frac: float

    def as_vector(self) -> np.ndarray:
        """The statistics as a float64 vector in :data:`STAT_NAMES` order."""
        return np.asarray(astuple(self), dtype=np.float64)


#: Names of the statistics, in vector order.
STAT_NAMES: tuple[str, ...] = tuple(f.name for f in fields(RequestStats))


@dataclass(frozen=True, slots=True)
class RequestFeatures:
    """Everything a router needs from one request: the text to embed and the cheap statistics."""

    text: str
    stats: RequestStats


def _content_text(content: Any) -> tuple[str, bool]:
    """Text of a message's ``content`` (a string or a list of parts) and whether it has an image."""
    if content is None:
        return "", False
    if isinstance(content, str):
        return content, False
    if isinstance(content, Sequence) and not isinstance(content, bytes | bytearray):
        texts: list[str] = []
        has_image = False
        for part in content:
            if isinstance(part, Mapping):
                kind = part.get("type")
                if kind == "text" and isinstance(part.get("text"), str):
                    texts.append(part["text"])
                elif kind in ("image_url", "input_image", "image"):
                    has_image = True
            elif isinstance(part, str):
                texts.append(part)
        return "\n".join(texts), has_image
    return str(content), False


def _messages(body: Mapping[str, Any]) -> list[tuple[str, str, bool]]:
    """(role, text, has_image) of each message of a chat body; a ``prompt`` is one user message."""
    if not isinstance(body, Mapping):
        raise TypeError(f"request body must be a mapping, got {type(body).__name__}")
    raw = body.get("messages")
    out: list[tuple[str, str, bool]] = []
    if isinstance(raw, Sequence) and not isinstance(raw, str | bytes):
        for message in raw:
            if not isinstance(message, Mapping):
                continue
            text, has_image = _content_text(message.get("content"))
            out.append((str(message.get("role", "user")), text, has_image))
    elif isinstance(body.get("prompt"), str):  # legacy completions body
        out.append(("user", body["prompt"], False))
    return out


def _clip(text: str, head: int, tail: int) -> str:
    if len(text) <= head + tail + 5:
        return text
    return f"{text[:head]} ... {text[-tail:]}"


def routing_text(body: Mapping[str, Any]) -> str:
    """The text a router embeds: the last user message (head and tail of a long one) followed by
    the most recent earlier user turns, up to :data:`CONTEXT_CHARS` characters of them."""
    messages = _messages(body)
    user_texts = [text for role, text, _ in messages if role == "user" and text.strip()]
    if not user_texts:
        user_texts = [text for _, text, _ in messages if text.strip()][-1:]
    if not user_texts:
        return ""
    text = _clip(user_texts[-1].strip(), TEXT_HEAD_CHARS, TEXT_TAIL_CHARS)
    budget = CONTEXT_CHARS
    for earlier in reversed(user_texts[:-1]):
        if budget <= 0:
            break
        piece = earlier.strip()[:budget]
        text = f"{text}\n\n{piece}"
        budget -= len(piece)
    return text


def _log(n: float) -> float:
    return math.log1p(n)


def request_stats(body: Mapping[str, Any]) -> RequestStats:
    """Cheap statistics of a chat request body (no model involved)."""
    messages = _messages(body)
    user_texts = [text for role, text, _ in messages if role == "user"]
    last_user = user_texts[-1] if user_texts else (messages[-1][1] if messages else "")
    all_text = "\n".join(text for _, text, _ in messages)
    scan = last_user[:SCAN_CHARS]
    words = _WORD.findall(scan)
    n_words = len(words)
    n_chars = len(scan)
    total_words = sum(len(_WORD.findall(text[:SCAN_CHARS])) for _, text, _ in messages)
    tools = body.get("tools") or body.get("functions") or []
    n_tools = len(tools) if isinstance(tools, Sequence) and not isinstance(tools, str) else 0
    response_format = body.get("response_format")
    json_response = isinstance(response_format, Mapping) and str(response_format.get("type", "")).startswith(
        "json"
    )
    letters = sum(ch.isalpha() for ch in scan)
    return RequestStats(
        log_total_chars=_log(len(all_text)),
        log_total_words=_log(total_words),
        log_last_user_chars=_log(len(last_user)),
        log_last_user_words=_log(n_words),
        log_n_messages=_log(len(messages)),
        log_n_user_turns=_log(len(user_texts)),
        has_system=float(any(role in ("system", "developer") for role, _, _ in messages)),
        has_tools=float(n_tools > 0),
        log_n_tools=_log(n_tools),
        json_response=float(json_response),
        has_image=float(any(image for _, _, image in messages)),
        log_code_fences=_log(scan.count("```")),
        log_code_tokens=_log(len(_CODE_TOKENS.findall(scan))),
        digit_frac=sum(ch.isdigit() for ch in scan) / max(n_chars, 1),
        log_numbers=_log(len(_NUMBER.findall(scan))),
        log_math_operators=_log(len(_OPERATOR.findall(scan))),
        log_latex=_log(len(_LATEX.findall(scan))),
        log_math_words=_log(len(_MATH_WORDS.findall(scan))),
        log_reasoning_words=_log(len(_REASONING_WORDS.findall(scan))),
        log_negation_words=_log(len(_NEGATION_WORDS.findall(scan))),
        log_constraint_words=_log(len(_CONSTRAINT_WORDS.findall(scan))),
        log_question_marks=_log(scan.count("?")),
        log_lines=_log(scan.count("\n") + 1 if scan else 0),
        long_word_frac=sum(len(w) >= 9 for w in words) / max(n_words, 1),
        mean_word_len=min(sum(len(w) for w in words) / max(n_words, 1), 20.0) / 10.0,
        upper_frac=sum(ch.isupper() for ch in scan) / max(letters, 1),
    )


def extract_features(body: Mapping[str, Any]) -> RequestFeatures:
    """Routing text and cheap statistics of an OpenAI chat-completions request body.

    Raises:
        TypeError: if ``body`` is not a mapping.
    """
    return RequestFeatures(text=routing_text(body), stats=request_stats(body))


def prompt_body(prompt: str) -> dict[str, Any]:
    """A minimal chat body with one user message (how benchmark prompts are routed)."""
    return {"messages": [{"role": "user", "content": prompt}]}


def stats_matrix(stats: Sequence[RequestStats]) -> np.ndarray:
    """Stack statistics into an ``(n, len(STAT_NAMES))`` float64 matrix."""
    if not stats:
        return np.zeros((0, len(STAT_NAMES)), dtype=np.float64)
    return np.vstack([s.as_vector() for s in stats])

"""A replay upstream: an OpenAI-compatible server that impersonates the weak and the strong model
of the public router data (``<data-dir>/router/``), so the whole proxy runs unchanged in front of it.

Answers are deterministic functions of (model, request):

- GSM8K prompts get the model's stored answer text (``gsm8k/gsm8k_responses.csv``).
- MMLU prompts: the data stores only whether each model was right, not the correct letter. The
  replay therefore *derives* a key letter from the prompt (SHA-256 of the prompt text, mod 4) and
  answers ``"<key>. <option text>"`` when the model's stored label is True, and another letter
  (also derived from the hash) when it is False. Grading compares the answer's letter with the same
  derived key, so a graded answer is right exactly when the stored correctness label says so.
- Any other prompt (GPTCache questions, custom traces) gets a generic answer whose length is
  derived from the prompt's hash.

``usage`` counts tokens by this exact rule: each message costs 4 tokens of framing plus
``ceil(characters / 4)`` of its text (string content, or its text parts joined; rounded up per
message), summed over the messages; the answer costs ``ceil(characters / 4)``.
``max_completion_tokens`` (else ``max_tokens``) cuts the answer to that many tokens x 4 characters
(``finish_reason = "length"``). A request with ``n`` > 1 gets ``n`` identical choices and is billed ``n``
answers' tokens.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.harness import read_body, serve_lifespan

LETTERS = "ABCD"
CHARS_PER_TOKEN = 4


@dataclass(frozen=True, slots=True)
class Record:
    """One known prompt of the public data: where it comes from and how each model did."""

    source: str  # mmlu | gsm8k
    id: str  # mmlu: <domain>:<row>; gsm8k: <row>
    prompt: str
    weak_ok: bool
    strong_ok: bool
    weak_text: str = ""  # gsm8k only: the stored answers
    strong_text: str = ""


@dataclass(slots=True)
class ReplayBook:
    """The known prompts, indexed by text and by reference, and the two impersonated model names."""

    weak_model: str
    strong_model: str
    by_prompt: dict[str, Record] = field(default_factory=dict)
    by_ref: dict[tuple[str, str], Record] = field(default_factory=dict)
    gptcache: list[tuple[str, str]] = field(default_factory=list)  # (origin, similar) pairs

    def add(self, record: Record) -> None:
        self.by_prompt.setdefault(record.prompt.strip(), record)
        self.by_ref[(record.source, record.id)] = record


def load_book(data_dir: Path, weak_model: str, strong_model: str) -> ReplayBook:
    """Read ``router/mmlu/*.csv``, ``router/gsm8k/gsm8k_responses.csv`` and (when present)
    ``semantic-cache/gptcache_mock_data.json`` under ``data_dir``."""
    router = data_dir / "router"
    if not router.is_dir():
        raise FileNotFoundError(f"{router} does not exist (expected the public router data there)")
    book = ReplayBook(weak_model, strong_model)
    for path in sorted((router / "mmlu").glob("mmlu_*.csv")):
        domain = path.stem.removeprefix("mmlu_")
        with path.open(newline="", encoding="utf-8") as f:
            rows = csv.reader(f)
            next(rows, None)
            for i, row in enumerate(rows):
                if len(row) >= 3:
                    book.add(Record("mmlu", f"{domain}:{i}", row[0], _true(row[1]), _true(row[2])))
    gsm = router / "gsm8k" / "gsm8k_responses.csv"
    if gsm.exists():
        with gsm.open(newline="", encoding="utf-8") as f:
            rows = csv.reader(f)
            next(rows, None)
            for i, row in enumerate(rows):
                if len(row) >= 5:
                    book.add(Record("gsm8k", str(i), row[0], _true(row[1]), _true(row[2]), row[3].strip(),
                                    row[4].strip()))
    pairs = data_dir / "semantic-cache" / "gptcache_mock_data.json"
    if pairs.exists():
        book.gptcache = [(p["origin"], p["similar"]) for p in json.loads(pairs.read_text(encoding="utf-8"))]
    return book


def _true(value: str) -> bool:
    return value.strip().lower() == "true"


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def key_letter(prompt: str) -> str:
    """The letter the replay treats as MMLU's correct answer for ``prompt`` (derived, see module doc)."""
    return LETTERS[_hash(prompt.strip()) % 4]


def wrong_letter(prompt: str) -> str:
    """The letter a model whose label is False answers: never the key."""
    key = LETTERS.index(key_letter(prompt))
    return LETTERS[(key + 1 + (_hash("wrong:" + prompt.strip()) % 3)) % 4]


def _option_text(prompt: str, letter: str) -> str:
    for line in prompt.splitlines():
        if line.startswith(f"{letter}. "):
            return line[3:].strip()
    return ""


def generic_answer(model: str, question: str) -> str:
    """The deterministic answer to an unknown prompt: a sentence naming the question, padded to a
    length derived from the question's hash."""
    h = _hash(question)
    words = 20 + h % 120
    filler = " ".join(f"point{(h >> (i % 40)) % 97}" for i in range(words))
    return f"{model} answers: {question.strip()[:200]} -- {filler}."


def last_user_text(messages: Iterable[Any]) -> str:
    """The text of the last user message (string content, or its text parts joined)."""
    text = ""
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "user":
            text = _content_text(message.get("content"))
    return text


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str))
    return ""


def count_tokens(text: str) -> int:
    """The replay's token count: ``ceil(len(text) / 4)``."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def prompt_tokens(messages: Iterable[Any]) -> int:
    """Prompt tokens of a chat: every message's text plus 4 tokens of framing per message."""
    total = 0
    for message in messages:
        if isinstance(message, dict):
            total += 4 + count_tokens(_content_text(message.get("content")))
    return total


def model_answer(book: ReplayBook, model: str, question: str) -> str:
    """What ``model`` (the weak or the strong one) answers to ``question``, before any ``max_tokens``."""
    strong = model == book.strong_model
    record = book.by_prompt.get(question.strip())
    if record is None:
        return generic_answer(model, question)
    if record.source == "gsm8k":
        return record.strong_text if strong else record.weak_text
    ok = record.strong_ok if strong else record.weak_ok
    letter = key_letter(record.prompt) if ok else wrong_letter(record.prompt)
    return f"{letter}. {_option_text(record.prompt, letter)}".strip()


@dataclass(frozen=True, slots=True)
class Completion:
    """One replayed answer with its usage."""

    text: str
    prompt_tokens: int
    completion_tokens: int  # all ``choices`` together
    finish_reason: str
    choices: int = 1  # ``n``: that many identical choices


def choices_asked(body: dict[str, Any]) -> int:
    """The ``n`` of a request: a whole number from 1 to 128, else 1."""
    n = body.get("n")
    return n if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 128 else 1


def complete(book: ReplayBook, body: dict[str, Any]) -> Completion:
    """The replayed completion of a chat request ``body`` (its ``model`` must be weak or strong); with
    ``n`` > 1, that many identical choices, each billed."""
    messages = body.get("messages") or []
    text = model_answer(book, str(body.get("model")), last_user_text(messages))
    limit = body.get("max_completion_tokens") or body.get("max_tokens")
    finish = "stop"
    if isinstance(limit, int) and limit > 0 and count_tokens(text) > limit:
        text, finish = text[: limit * CHARS_PER_TOKEN], "length"
    n = choices_asked(body)
    return Completion(text, prompt_tokens(messages), n * count_tokens(text), finish, n)


def _response(body: dict[str, Any], done: Completion) -> dict[str, Any]:
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:24]
    return {"id": f"chatcmpl-replay-{digest}", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": i, "message": {"role": "assistant", "content": done.text},
                         "finish_reason": done.finish_reason} for i in range(done.choices)],
            "usage": {"prompt_tokens": done.prompt_tokens, "completion_tokens": done.completion_tokens,
                      "total_tokens": done.prompt_tokens + done.completion_tokens}}


def _stream(response: dict[str, Any]) -> bytes:
    base = {k: response[k] for k in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
    chunks = []
    for choice in response["choices"]:
        i = choice["index"]
        chunks += [
            base | {"choices": [{"index": i, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]},
            base | {"choices": [{"index": i, "delta": {"content": choice["message"]["content"]},
                                 "finish_reason": None}]},
            base | {"choices": [{"index": i, "delta": {}, "finish_reason": choice["finish_reason"]}]},
        ]
    chunks.append(base | {"choices": [], "usage": response["usage"]})
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


def _error(status: int, message: str) -> tuple[int, bytes, bytes]:
    body = {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}
    return status, json.dumps(body).encode(), b"application/json"


def handle(book: ReplayBook, method: str, path: str, raw: bytes) -> tuple[int, bytes, bytes]:
    """One HTTP exchange: ``(status, body, content type)``."""
    if method == "GET" and path.rstrip("/").endswith("/models"):
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "replay"}
                for m in (book.weak_model, book.strong_model)]
        return 200, json.dumps({"object": "list", "data": data}).encode(), b"application/json"
    if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
        return _error(404, f"the replay upstream has no {method} {path}")
    try:
        body = json.loads(raw)
    except ValueError:
        return _error(400, "the body is not JSON")
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return _error(400, "a chat request needs a 'messages' list")
    if body.get("model") not in (book.weak_model, book.strong_model):
        return _error(404, f"unknown model {body.get('model')!r}; this replay serves "
                           f"{book.weak_model!r} and {book.strong_model!r}")
    response = _response(body, complete(book, body))
    if body.get("stream"):
        return 200, _stream(response), b"text/event-stream"
    return 200, json.dumps(response).encode(), b"application/json"


def make_app(book: ReplayBook):
    """The replay upstream as a raw ASGI app (both models behind one server, chosen by ``model``)."""

    async def app(scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        raw = await read_body(receive)
        status, payload, kind = handle(book, scope["method"], scope["path"], raw)
        await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", kind)]})
        await send({"type": "http.response.body", "body": payload})

    return app

"""The semantic lookup on the request path, through the real proxy: a slow embedder costs a request
at most the lookup deadline (forwarded as a counted miss), no response waits for its write-back,
and bad input stays a miss or a bypass, never a failure. The real embedding model behind a gate
the test opens; nothing here asserts a duration."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import httpx
import numpy as np
import pytest

from proxy.config.sections import CacheSettings
from proxy.http.app import create_app
from tests.support.servers import ScriptedUpstream, serve_in_thread

Q = "Which planet in the solar system has the most moons?"


class HeldEmbedder:
    """The real embedder whose forwards wait until ``gate`` is set; counts each text it embeds."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.gate = threading.Event()
        self.texts: list[str] = []

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        if not self.gate.wait(60):
            raise RuntimeError("the test never opened the gate")
        return self.inner.embed(texts)


def chat(content: str = Q, **extra) -> dict:
    return {"model": "gpt-test", "temperature": 0, "messages": [{"role": "user", "content": content}], **extra}


def settle(app) -> None:
    pipeline = app.state.thrifty.pipeline
    deadline = time.monotonic() + 30
    while pipeline._background and time.monotonic() < deadline:
        time.sleep(0.02)


def metric(proxy: str, line_start: str) -> float:
    for line in httpx.get(f"{proxy}/metrics", timeout=30).text.splitlines():
        if line.startswith(line_start):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no metric line starts with {line_start!r}")


def test_a_slow_embedder_is_forwarded_as_a_counted_miss_and_no_response_waits_for_the_write_back(
    make_settings, embedder
):
    held = HeldEmbedder(embedder)
    script = ScriptedUpstream(content="Saturn.", stream_when_asked=True)
    script.gate.set()  # streamed chunks flow at once
    with serve_in_thread(script) as up:
        settings = make_settings(up, cache=CacheSettings(enabled=True, semantic=True, lookup_deadline_ms=50))
        app = create_app(settings, embedder=held)
        with serve_in_thread(app) as proxy:
            # one entry in the scope first: a lookup that no entry could verify embeds nothing
            httpx.post(f"{proxy}/v1/chat/completions", json=chat("Which planet is the largest?"), timeout=60)
            settle(app)
            assert held.texts == []  # stored without a vector: the lookups below embed it with theirs
            first = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=60)
            # answered by the upstream while the embedder still holds the lookup's forward
            assert first.status_code == 200 and first.json()["choices"][0]["message"]["content"] == "Saturn."
            assert first.headers["x-thrifty-cache"] == "miss"
            assert first.headers["x-thrifty-cache-skipped"] == "deadline"
            with httpx.stream("POST", f"{proxy}/v1/chat/completions", timeout=60,
                              json=chat("Name the largest moons of Jupiter.", stream=True)) as streamed:
                lines = [line for line in streamed.iter_lines() if line.startswith("data:")]
                assert streamed.headers["x-thrifty-cache-skipped"] == "deadline"
            assert lines[-1] == "data: [DONE]"
            assert not held.gate.is_set()  # both answers came back before any embedding finished
            assert metric(proxy, 'thrifty_cache_lookup_skipped_total{reason="deadline"}') == 2
            assert metric(proxy, 'thrifty_cache_lookup_skipped_total{reason="queue_full"}') == 0
            held.gate.set()
            settle(app)
            # the write-backs reused the lookups' forwards, or stored their questions without a vector when the
            # lookup's text was dropped from the queue past its deadline: no question was embedded twice
            assert held.texts.count(Q) <= 1 and held.texts.count("Name the largest moons of Jupiter.") <= 1
            again = httpx.post(f"{proxy}/v1/chat/completions", json=chat(), timeout=60)
            assert again.headers["x-thrifty-cache"] == "exact"
            assert len(app.state.thrifty.cache.semantic.index.ids()) == 3  # every semantic entry was stored
    assert len(script.requests) == 3


def _conversation(turns: int) -> list[dict]:
    messages = [{"role": "system", "content": "You are terse."}]
    for i in range(turns):
        messages.append({"role": "user", "content": f"question {i}"})
        messages.append({"role": "assistant", "content": f"answer {i}"})
    messages.append({"role": "user", "content": "And the last question?"})
    return messages


@pytest.mark.parametrize("name, body, outcomes", [
    ("huge prompt", chat("lorem ipsum " * 200_000), {"miss"}),
    ("binary junk", chat("\x00\x01\x7f\ufffd\u202e\U0001f642 " * 100), {"miss"}),
    ("10,000 messages", {"model": "gpt-test", "temperature": 0, "messages": _conversation(5_000)}, {"miss"}),
    ("empty message", chat(""), {"miss"}),
    ("empty list content", chat([]), {"miss", "bypass"}),
])
def test_bad_input_on_the_lookup_path_is_answered_never_failed(make_settings, embedder, name, body, outcomes):
    script = ScriptedUpstream(content="ok")
    with serve_in_thread(script) as up:
        settings = make_settings(up, cache=CacheSettings(enabled=True, semantic=True, lookup_deadline_ms=0))
        app = create_app(settings, embedder=embedder)
        with serve_in_thread(app) as proxy:
            reply = httpx.post(f"{proxy}/v1/chat/completions", json=body, timeout=120)
            assert reply.status_code in (200, 400), reply.text
            if reply.status_code == 400:  # refused by validation: an OpenAI error object
                assert reply.json()["error"]["message"]
                return
            assert reply.headers["x-thrifty-cache"] in outcomes
            if name == "huge prompt":
                assert reply.headers["x-thrifty-cache-skipped"] == "too_long"  # never embedded
            settle(app)
            again = httpx.post(f"{proxy}/v1/chat/completions", json=body, timeout=120)
            assert again.status_code == 200
            if "miss" in outcomes and reply.headers["x-thrifty-cache"] == "miss":
                assert again.headers["x-thrifty-cache"] == "exact"  # written back whole

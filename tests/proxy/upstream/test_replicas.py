"""Prefix-aware replica choice: consistent hashing, load and down fallbacks, and the proxy app in
front of two scripted replicas (one of them down)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from proxy.config.replica_names import expand_replicas
from proxy.config.sections import UpstreamConfig
from proxy.config.settings import SettingsError, load_settings
from proxy.http.app import create_app
from proxy.launch.supervisor import free_port
from proxy.upstream.replicas import ReplicaChooser, rendezvous_order, stable_prefix
from proxy.wire.errors import UpstreamError
from tests.support.servers import ScriptedUpstream, serve_in_thread


def chat(system: str, user: str = "hi", **extra) -> dict:
    return {"model": "gpt-test", "temperature": 0, "max_tokens": 5, **extra,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}]}


def test_rendezvous_order_is_stable_consistent_and_spread() -> None:
    replicas = ["r0", "r1", "r2", "r3"]
    keys = [f"system prompt {i}" for i in range(2000)]
    first = {k: rendezvous_order(k, replicas)[0] for k in keys}
    assert first == {k: rendezvous_order(k, list(reversed(replicas)))[0] for k in keys}  # order-free, stable
    counts = {r: sum(1 for v in first.values() if v == r) for r in replicas}
    assert all(400 <= n <= 600 for n in counts.values())  # about a quarter each
    without = {k: rendezvous_order(k, ["r0", "r1", "r3"])[0] for k in keys}
    moved = [k for k in keys if without[k] != first[k]]
    assert moved and all(first[k] == "r2" for k in moved)  # only r2's prefixes move


def test_the_stable_prefix_ignores_the_user_turn_and_the_shaping_note() -> None:
    a = chat("Be brief.\n\nContext for this request:\nCurrent date: 2024-05-01", "one")
    b = chat("Be brief.\n\nContext for this request:\nCurrent date: 2024-06-01", "two")
    assert stable_prefix(a) == stable_prefix(b) != stable_prefix(chat("Be long."))


def test_overload_and_down_replicas_fall_back() -> None:
    chooser = ReplicaChooser({"g": ["g", "g#1", "g#2"]}, overload_margin=2, down_s=5.0)
    body = chat("shared")
    preferred = chooser.order("g", body, now=0.0)
    assert chooser.order("g", body, now=0.0) == preferred  # stable
    chooser.in_flight[preferred[0]] = 2
    assert chooser.order("g", body, now=0.0)[0] != preferred[0]  # overloaded: the least loaded one
    chooser.in_flight[preferred[0]] = 1
    assert chooser.order("g", body, now=0.0)[0] == preferred[0]  # within the margin: keep the cache
    chooser.in_flight[preferred[0]] = 0
    chooser.mark_down(preferred[0], now=0.0)
    assert chooser.order("g", body, now=1.0) == [*preferred[1:], preferred[0]]  # down: last resort
    assert chooser.order("g", body, now=6.0) == preferred  # back after down_s
    assert chooser.order("other", body) == ["other"]


def test_random_choice_is_the_baseline() -> None:
    chooser = ReplicaChooser({"g": ["g", "g#1"]}, choice={"g": "random"}, rng=random.Random(0))
    firsts = {chooser.order("g", chat("same"))[0] for _ in range(50)}
    assert firsts == {"g", "g#1"}


def test_base_urls_expand_into_one_upstream_per_replica(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('[[upstreams]]\nname = "vllm"\nbase_urls = ["http://a/v1", "http://b/v1"]\n'
                    '[models.m]\nupstream = "vllm"\nmodel = "m"\n')
    upstreams = {u.name: u for u in load_settings(path, {}).upstreams}
    assert upstreams["vllm"].base_url == "http://a/v1" and upstreams["vllm#1"].base_url == "http://b/v1"
    assert upstreams["vllm#1"].replica_of == "vllm"
    assert expand_replicas([UpstreamConfig("x", "http://x")]) == (UpstreamConfig("x", "http://x"),)


@pytest.mark.parametrize(("text", "message"), [
    ('[[upstreams]]\nname = "v"\n', "needs base_url"),
    ('[[upstreams]]\nname = "v"\nbase_urls = ["http://a"]\nreplica_choice = "nearest"\n', "replica_choice"),
    ('[[upstreams]]\nname = "v#2"\nbase_url = "http://a"\n', "may not contain"),
    ('[[upstreams]]\nname = "v"\nbase_urls = "http://a"\n', "list of URLs"),
    ("[bundled]\nreplicas = 0\n", "replicas must be >= 1"),
])
def test_bad_replica_settings_stop_start_up(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(SettingsError, match=message):
        load_settings(path, {})


def test_the_proxy_keeps_a_prefix_on_one_replica_and_falls_back_when_it_is_down(make_settings) -> None:
    scripts = [ScriptedUpstream(content="from replica 0"), ScriptedUpstream(content="from replica 1")]
    with serve_in_thread(scripts[0]) as up0, serve_in_thread(scripts[1]) as up1:
        settings = make_settings(up0)
        fake = replace(settings.upstreams[0], base_url="", base_urls=[up0 + "/v1", up1 + "/v1"])
        settings = replace(settings, upstreams=expand_replicas([fake]))
        app = create_app(settings)
        with serve_in_thread(app) as proxy:
            def ask(system: str, **extra) -> str:
                reply = httpx.post(f"{proxy}/v1/chat/completions", json=chat(system, **extra), timeout=30)
                assert reply.status_code == 200
                return reply.json()["choices"][0]["message"]["content"]

            prompts = [f"You are assistant number {i}." for i in range(12)]
            where = {p: ask(p) for p in prompts}
            assert set(where.values()) == {"from replica 0", "from replica 1"}  # spread over both
            assert all(ask(p, user="another question") == where[p] for p in prompts)  # and sticky
    down_port = free_port()
    with serve_in_thread(scripts[0]) as up0:
        settings = make_settings(up0)
        fake = replace(settings.upstreams[0], base_url="",
                       base_urls=[f"http://127.0.0.1:{down_port}/v1", up0 + "/v1"])
        settings = replace(settings, upstreams=expand_replicas([fake]))
        app = create_app(settings)
        with serve_in_thread(app) as proxy:
            for p in prompts:  # every prefix is answered, whichever replica it hashes to
                reply = httpx.post(f"{proxy}/v1/chat/completions", json=chat(p), timeout=30)
                assert reply.status_code == 200 and reply.json()["choices"][0]["message"]["content"] == "from replica 0"
            scripts[0].stream_when_asked = True
            scripts[0].gate.set()
            streamed = httpx.post(f"{proxy}/v1/chat/completions", json=chat(prompts[0], stream=True), timeout=30)
            assert streamed.status_code == 200 and "tok0" in streamed.text
            client = app.state.thrifty.upstream
            assert client.chooser.in_flight == {"fake": 0, "fake#1": 0}  # every request released its replica


def test_a_stream_that_is_never_read_still_releases_its_replica() -> None:
    import asyncio
    import gc

    from proxy.upstream.replicas import ReplicaClient

    class Opened:  # stands in for the httpx.Response of an opened stream
        pass

    class Client:
        async def stream(self, upstream, path, body, request_id, priority=None):
            return Opened()

    client = ReplicaClient(Client(), ReplicaChooser({"g": ["g", "g#1"]}))
    response = asyncio.run(client.stream("g", "/chat/completions", chat("x"), "request-1"))
    assert sum(client.chooser.in_flight.values()) == 1
    del response  # the caller went away before reading a byte
    gc.collect()
    assert sum(client.chooser.in_flight.values()) == 0


class Replicas:
    """An upstream client whose replicas each answer as scripted: an exception to raise, a status
    to answer with, or 200."""

    def __init__(self, outcomes: dict[str, object]) -> None:
        self.outcomes = outcomes
        self.calls: list[str] = []

    async def post(self, upstream, path, body, request_id, priority=None):
        from proxy.upstream.client import UpstreamReply

        self.calls.append(upstream)
        outcome = self.outcomes.get(upstream, 200)
        if isinstance(outcome, BaseException):
            raise outcome
        return UpstreamReply(int(outcome), {"replica": upstream}, {})


@pytest.mark.parametrize("failure", [
    UpstreamError("unreachable", code="upstream_unavailable", status=503),  # a connection error
    UpstreamError("not JSON", code="upstream_error", status=502),
    UpstreamError("too slow", code="upstream_timeout", status=504),
    502, 503, 504,  # the replica's own gateway answers
])
def test_a_failing_replica_falls_back_to_the_least_loaded_healthy_one(failure) -> None:
    import asyncio

    from proxy.upstream.replicas import ReplicaClient

    chooser = ReplicaChooser({"g": ["g", "g#1", "g#2"]}, overload_margin=100)
    body = chat("shared")
    first, second, third = chooser.order("g", body, now=0.0)
    client = ReplicaClient(Replicas({first: failure}), chooser)
    chooser.in_flight[second] = 3  # busy, but healthy: the idle third replica gets the retry
    reply = asyncio.run(client.post("g", "/chat/completions", body, "request-1"))
    assert reply.status == 200 and reply.body == {"replica": third}
    assert client._client.calls == [first, third]
    assert chooser.is_down(first) and not chooser.is_down(third)
    assert chooser.in_flight == {first: 0, second: 3, third: 0}


def test_other_failures_and_the_last_replicas_failure_reach_the_caller() -> None:
    import asyncio

    from proxy.upstream.replicas import ReplicaClient

    body = chat("shared")
    chooser = ReplicaChooser({"g": ["g", "g#1"]})
    first, second = chooser.order("g", body)
    refused = ReplicaClient(Replicas({first: 400}), chooser)
    assert asyncio.run(refused.post("g", "/chat/completions", body, "r")).status == 400  # the caller's fault
    assert refused._client.calls == [first] and not chooser.is_down(first)
    both = ReplicaClient(Replicas({first: 502, second: UpstreamError("down", status=503)}), chooser)
    with pytest.raises(UpstreamError) as raised:
        asyncio.run(both.post("g", "/chat/completions", body, "r"))
    assert raised.value.status == 503 and both._client.calls == [first, second]
    assert chooser.is_down(first) and chooser.is_down(second) and chooser.in_flight == {first: 0, second: 0}


def test_the_proxy_falls_back_when_a_replica_answers_garbage(make_settings) -> None:
    broken, healthy = ScriptedUpstream(mode="notjson"), ScriptedUpstream(content="healthy")
    with serve_in_thread(broken) as up0, serve_in_thread(healthy) as up1:
        settings = make_settings(up0)
        fake = replace(settings.upstreams[0], base_url="", base_urls=[up0 + "/v1", up1 + "/v1"])
        app = create_app(replace(settings, upstreams=expand_replicas([fake])))
        with serve_in_thread(app) as proxy:
            for i in range(6):  # whichever replica each prefix hashes to, the healthy one answers
                reply = httpx.post(f"{proxy}/v1/chat/completions", json=chat(f"Assistant {i}."), timeout=30)
                assert reply.status_code == 200 and reply.json()["choices"][0]["message"]["content"] == "healthy"
    assert broken.requests  # the broken replica was tried (and skipped after its 502)

"""Prefix-aware replica choice: an upstream that lists several ``base_urls`` (replicas of one
model: several bundled backends, vLLM or SGLang servers) gets each request on the replica chosen
by a consistent hash of the request's stable prefix, so requests that share a prefix land where
it is already in the KV cache (as SGLang's router does).

- **Consistent**: rendezvous hashing of the prefix over the replicas; removing a replica moves
  only the prefixes that were on it.
- **Load**: when the preferred replica has ``overload_margin`` more requests in flight than the
  least loaded one, the least loaded one gets the request.
- **Down**: a replica that is unreachable or fails at the gateway (a connection error, a timeout,
  or a 502, 503 or 504, raised by the upstream client or answered by the replica) is skipped for
  ``down_s`` seconds and the request goes to the least loaded of the healthy replicas left (their
  hash order breaks ties); when all are down, the first is tried. The last replica's failure is
  what the caller sees.

``replica_choice = "random"`` picks uniformly at random instead (the baseline of ``thrifty eval
shaping``). Each replica is a separate entry in the upstream client (``<name>#<i>`` for the
second and later ones) with its own connection accounting and breaker.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import time
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, Any

from proxy.shaping.prompt import NOTE_HEADER
from proxy.wire.errors import UpstreamError

if TYPE_CHECKING:
    from proxy.config.settings import Settings
    from proxy.upstream.client import SSEEvent, UpstreamClient, UpstreamReply

log = logging.getLogger(__name__)

PREFIX_CHARS = 4096  # how much of the stable prefix is hashed
DOWN_STATUSES = frozenset({502, 503, 504})  # bad gateway, unavailable (connection errors), timeout


def stable_prefix(body: dict[str, Any]) -> str:
    """The part of a request that is the same across requests sharing a prefix: tools, then the
    first message (a system prompt without its shaping note) or the prompt's start."""
    head: Any = ""
    messages = body.get("messages")
    if isinstance(messages, list) and messages:
        first = messages[0]
        content = first.get("content") if isinstance(first, dict) else first
        if isinstance(content, str):
            content = content.partition("\n\n" + NOTE_HEADER)[0]
        head = [first.get("role") if isinstance(first, dict) else None, content]
    elif isinstance(body.get("prompt"), str):
        head = body["prompt"]
    text = json.dumps([body.get("tools"), head], sort_keys=True, default=str)
    return text[:PREFIX_CHARS]


def rendezvous_order(key: str, replicas: Sequence[str]) -> list[str]:
    """``replicas`` ordered by their highest-random-weight score for ``key`` (stable, consistent)."""
    def score(name: str) -> bytes:
        return hashlib.sha256(f"{name}\0{key}".encode("utf-8", "replace")).digest()

    return sorted(replicas, key=score, reverse=True)


class ReplicaChooser:
    """Which replica of a group gets a request (see the module docstring)."""

    def __init__(self, groups: dict[str, list[str]], *, choice: dict[str, str] | None = None,
                 overload_margin: int = 4, down_s: float = 5.0, rng: random.Random | None = None) -> None:
        self.groups = groups
        self._choice = choice or {}
        self.overload_margin = overload_margin
        self.down_s = down_s
        self.in_flight: dict[str, int] = {name: 0 for names in groups.values() for name in names}
        self._down_until: dict[str, float] = {}
        self._rng = rng or random.Random()

    def order(self, group: str, body: dict[str, Any], now: float | None = None) -> list[str]:
        """The replicas to try for ``body``, best first (the group's own name when it has none)."""
        replicas = self.groups.get(group)
        if not replicas:
            return [group]
        if self._choice.get(group) == "random":
            ranked = list(replicas)
            self._rng.shuffle(ranked)
        else:
            ranked = rendezvous_order(stable_prefix(body), replicas)
        now = time.monotonic() if now is None else now
        up = [r for r in ranked if self._down_until.get(r, 0.0) <= now]
        down = [r for r in ranked if r not in up]
        if up:
            least = min(up, key=self._load)
            if self._load(up[0]) >= self._load(least) + self.overload_margin:
                up.remove(least)
                up.insert(0, least)
        return up[:1] + sorted(up[1:], key=self._load) + down  # after the first: as fallback() orders them

    def fallback(self, candidates: Sequence[str], now: float | None = None) -> list[str]:
        """``candidates`` in the order to try them after a replica failed: the healthy ones least
        loaded first (their given order breaks ties), then the down ones in their given order."""
        now = time.monotonic() if now is None else now
        up = [r for r in candidates if not self.is_down(r, now)]
        return sorted(up, key=self._load) + [r for r in candidates if self.is_down(r, now)]

    def _load(self, replica: str) -> int:
        return self.in_flight.get(replica, 0)

    def mark_down(self, replica: str, now: float | None = None) -> None:
        """Skip ``replica`` for ``down_s`` seconds from ``now``."""
        self._down_until[replica] = (time.monotonic() if now is None else now) + self.down_s
        log.warning("replica %s is down; skipping it for %.0f s", replica, self.down_s)

    def is_down(self, replica: str, now: float | None = None) -> bool:
        """True while ``replica`` is being skipped."""
        return self._down_until.get(replica, 0.0) > (time.monotonic() if now is None else now)


class ReplicaClient:
    """An :class:`proxy.upstream.client.UpstreamClient` that sends a replica group's requests to the
    replica :class:`ReplicaChooser` picks (falling back to another on a connection error, 502, 503
    or 504); every other call and every other upstream passes straight through."""

    def __init__(self, client: UpstreamClient, chooser: ReplicaChooser) -> None:
        self._client = client
        self.chooser = chooser
        self._streams: dict[int, tuple[str, Callable[[], None]]] = {}
        self.chosen: dict[str, int] = {name: 0 for name in chooser.in_flight}  # requests sent to each replica

    @classmethod
    def wrap(cls, client: UpstreamClient, settings: Settings) -> UpstreamClient | ReplicaClient:
        """``client`` itself when no upstream has replicas."""
        groups: dict[str, list[str]] = {}
        choice: dict[str, str] = {}
        for upstream in settings.upstreams:
            group = upstream.replica_of or upstream.name
            if upstream.replica_of or upstream.base_urls:
                groups.setdefault(group, []).append(upstream.name)
                choice.setdefault(group, upstream.replica_choice)
        groups = {g: names for g, names in groups.items() if len(names) > 1}
        if not groups:
            return client
        return cls(client, ReplicaChooser(groups, choice=choice))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    async def _try(self, upstream: str, body: dict[str, Any], call):
        """``(replica, call(replica))`` from the first replica that does not fail as down (see
        :data:`DOWN_STATUSES`); the last one's failure (raised or answered) when all do."""
        pending = self.chooser.order(upstream, body)
        grouped = len(pending) > 1
        while True:
            replica = pending.pop(0)
            self.chooser.in_flight.setdefault(replica, 0)
            self.chooser.in_flight[replica] += 1
            self.chosen[replica] = self.chosen.get(replica, 0) + 1
            try:
                result = await call(replica)
            except BaseException as exc:
                self.chooser.in_flight[replica] -= 1
                if not (self._went_down(replica, failure_status(exc), grouped) and pending):
                    raise
            else:
                if not (self._went_down(replica, getattr(result, "status", None), grouped) and pending):
                    return replica, result  # held until the caller releases it
                self.chooser.in_flight[replica] -= 1
            pending = self.chooser.fallback(pending)

    def _went_down(self, replica: str, status: int | None, grouped: bool) -> bool:
        """Whether ``status`` (of a failure raised or an answer) takes a grouped ``replica`` down;
        marks it down when it does."""
        down = grouped and status in DOWN_STATUSES
        if down:
            self.chooser.mark_down(replica)
        return down

    async def post(self, upstream: str, path: str, body: dict[str, Any], request_id: str,
                   priority: str | None = None) -> UpstreamReply:
        """POST to the chosen replica (the next one when it is unreachable)."""
        replica, reply = await self._try(upstream, body,
                                         lambda r: self._client.post(r, path, body, request_id, priority=priority))
        self.chooser.in_flight[replica] -= 1
        return reply

    async def stream(self, upstream: str, path: str, body: dict[str, Any], request_id: str,
                     priority: str | None = None):
        """Open a stream on the chosen replica; :meth:`iter_events` releases it when read."""
        replica, response = await self._try(
            upstream, body, lambda r: self._client.stream(r, path, body, request_id, priority=priority))
        released = False
        key = id(response)

        def release() -> None:  # once: when the events are read, or when a never-read response is collected
            nonlocal released
            if not released:
                released = True
                self.chooser.in_flight[replica] -= 1
                self._streams.pop(key, None)

        self._streams[key] = (replica, release)
        weakref.finalize(response, release)
        return response

    async def iter_events(self, upstream: str, response) -> AsyncIterator[SSEEvent]:
        replica, release = self._streams.get(id(response), (upstream, None))
        try:
            async for event in self._client.iter_events(replica, response):
                yield event
        finally:
            if release is not None:
                release()


def failure_status(exc: BaseException) -> int | None:
    """The HTTP status a forwarding failure stands for: an :class:`UpstreamError`'s (503 for a
    connection error, 504 for a timeout, 502 for a bad answer), or the status of an error answer
    the upstream client raised for a stream (``UpstreamReplyError.reply``); ``None`` otherwise."""
    if isinstance(exc, UpstreamError):
        return exc.status
    reply = getattr(exc, "reply", None)
    status = getattr(reply, "status", None)
    return status if isinstance(status, int) else None

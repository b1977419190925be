"""Learned output caps: the default ``max_tokens`` of a key's prompt cluster set at a high quantile
of the completion lengths the request log has seen for it, so caps follow real traffic.

A *prompt cluster* is the request's template: the model, the stable part of its system prompt
(after shaping moved volatile spans out) and the names of its tools, hashed to 16 hex digits and
logged in ``request_log.prompt_cluster``. Answers that ended by themselves
(``finish_reason == "stop"``) give the lengths callers really needed; answers cut at the limit
that applied (``finish_reason == "length"`` with ``completion_tokens >= max_tokens``) count as
*censored*: they needed at least that many tokens. Fitting only the finished ones would take a
high quantile of a distribution already cut at the old cap, so every refit would come out lower
(512 -> 423 -> 383 -> ... for answers whose true p99 is 585). The quantile is therefore the
Kaplan-Meier estimate over both (:func:`censored_quantile`); when too many answers were cut for
the estimate to reach the quantile, the cap goes up by :data:`RAISE_FACTOR` from the highest cut
(at most that factor above the longest finished answer, never below the highest cut, so answers
that never stop cannot raise it without bound). Without cut answers this is numpy's quantile of
the finished lengths. A cluster needs ``min_samples`` finished answers before its learned cap
replaces the configured default.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.shaping.prompt import NOTE_HEADER
from proxy.storage.db import RequestLog

log = logging.getLogger(__name__)

MIN_LEARNED_CAP = 16
RAISE_FACTOR = 1.5  # how far a cap most answers outgrow goes up per refit


def prompt_cluster(data: dict[str, Any], model: str) -> str:
    """The 16-hex-digit template cluster of a (shaped) request body."""
    system = ""
    messages = data.get("messages")
    if isinstance(messages, list) and messages and isinstance(messages[0], dict) \
            and messages[0].get("role") in ("system", "developer") and isinstance(messages[0].get("content"), str):
        system = messages[0]["content"].partition("\n\n" + NOTE_HEADER)[0]
    tools = data.get("tools")
    names = sorted(str(t.get("function", {}).get("name", "")) for t in tools
                   if isinstance(t, dict) and isinstance(t.get("function"), dict)) if isinstance(tools, list) else []
    text = "\0".join([model, system, ",".join(names)])
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]


class LearnedCaps:
    """Caps per ``(key id, prompt cluster)``, refitted from the request log now and then."""

    def __init__(self, quantile: float = 0.99, min_samples: int = 30, refresh_s: float = 300.0,
                 window_s: float = 7 * 86400.0, max_rows: int = 200_000) -> None:
        self.quantile, self.min_samples = quantile, min_samples
        self.refresh_s, self.window_s, self.max_rows = refresh_s, window_s, max_rows
        self._caps: dict[tuple[str, str], int] = {}
        self._next_refresh = 0.0

    def cap_for(self, key_id: str, cluster: str) -> int | None:
        """The learned cap, or ``None`` while the cluster has too few finished answers."""
        return self._caps.get((key_id, cluster))

    def fit(self, rows: Iterable[tuple[str, str, int, bool]]) -> None:
        """Refit from ``(key id, cluster, completion tokens, cut)`` rows: ``cut`` is true for an
        answer stopped at its limit (``tokens`` is then a lower bound), false for one that ended
        by itself."""
        finished: dict[tuple[str, str], list[int]] = defaultdict(list)
        cut: dict[tuple[str, str], list[int]] = defaultdict(list)
        for key_id, cluster, tokens, was_cut in rows:
            if cluster and isinstance(tokens, int) and tokens >= 0:
                (cut if was_cut else finished)[(key_id, cluster)].append(tokens)
        self._caps = {group: learned_cap(values, cut.get(group, []), self.quantile)
                      for group, values in finished.items() if len(values) >= self.min_samples}

    def due(self, now: float | None = None) -> bool:
        """True when a refresh should start (and marks it started)."""
        now = time.monotonic() if now is None else now
        if now < self._next_refresh:
            return False
        self._next_refresh = now + self.refresh_s
        return True

    async def refresh(self, engine: AsyncEngine) -> None:
        """Refit from the request log's recent finished answers (failures keep the old caps)."""
        since = datetime.now(UTC) - timedelta(seconds=self.window_s)
        cut = and_(RequestLog.finish_reason == "length", RequestLog.max_tokens.is_not(None),
                   RequestLog.completion_tokens >= RequestLog.max_tokens)
        query = (select(RequestLog.key_id, RequestLog.prompt_cluster, RequestLog.completion_tokens,
                        RequestLog.finish_reason)
                 .where(or_(RequestLog.finish_reason == "stop", cut), RequestLog.prompt_cluster.is_not(None),
                        _not_replayed(),
                        RequestLog.completion_tokens.is_not(None), RequestLog.created_at >= since)
                 .order_by(RequestLog.created_at.desc()).limit(self.max_rows))
        try:
            async with engine.connect() as conn:
                rows = (await conn.execute(query)).all()
        except Exception as exc:  # noqa: BLE001 - a learned cap is an optimisation; the default stands
            log.warning("could not refresh learned output caps: %r", exc)
            return
        self.fit((r[0], r[1], r[2], r[3] == "length") for r in rows)


def censored_quantile(finished: Sequence[int], cut: Sequence[int], quantile: float) -> float | None:
    """The ``quantile`` of the lengths behind ``finished`` (exact) and ``cut`` (at least this
    long) answers: the Kaplan-Meier estimate, the smallest finished length where the estimated
    share of shorter-or-equal answers reaches ``quantile`` (an answer cut at ``t`` is still at
    risk at ``t``). Without cut answers, numpy's (linear) quantile. ``None`` when the estimate
    never reaches ``quantile`` (too many answers were cut) or nothing finished."""
    if not finished:
        return None
    if not cut:
        return float(np.quantile(finished, quantile))
    done, stopped = np.sort(np.asarray(finished)), np.sort(np.asarray(cut))
    times, ended = np.unique(done, return_counts=True)
    at_risk = (done.size - np.searchsorted(done, times)) + (stopped.size - np.searchsorted(stopped, times))
    reached = 1.0 - np.cumprod(1.0 - ended / at_risk) >= quantile - 1e-9
    return float(times[np.argmax(reached)]) if reached.any() else None


def learned_cap(finished: Sequence[int], cut: Sequence[int], quantile: float) -> int:
    """The cap for a cluster's ``finished`` and ``cut`` answer lengths (see the module docstring)."""
    estimate = censored_quantile(finished, cut, quantile)
    if estimate is not None:
        return max(MIN_LEARNED_CAP, math.ceil(estimate))
    top_cut = max(cut, default=MIN_LEARNED_CAP)
    bound = RAISE_FACTOR * max(finished) if finished else math.inf
    return max(MIN_LEARNED_CAP, top_cut, math.ceil(min(top_cut * RAISE_FACTOR, bound)))


def _not_replayed():
    """Rows whose answer an upstream produced under the logged cap, not a cache's replay of one."""
    return func.coalesce(RequestLog.cache_outcome, "").not_in(("exact", "semantic"))


def _answered_upstream():
    """Finished rows whose answer an upstream produced (:func:`_not_replayed`)."""
    return RequestLog.finish_reason.is_not(None) & _not_replayed()


def _cap_kind_and_cut():
    """The SQL expressions of a request's cap kind (``none``: the caller's own limit) and of the number
    of answers cut at their limit (``finish_reason == "length"``), summed over a group."""
    return (func.coalesce(RequestLog.cap, "none"),
            func.sum((RequestLog.finish_reason == "length").cast(RequestLog.max_tokens.type)))


async def cap_report(engine: AsyncEngine) -> list[tuple[str, int, int]]:
    """``(cap kind, requests, cut)`` over the request log's upstream answers (cache replays excluded:
    their cut happened, and was counted, when the answer was first produced): how often each kind of cap
    (``default``, ``learned``, ``clamped``, or ``none`` for the caller's own limit) ended an answer
    that would have gone on (``finish_reason == "length"``)."""
    kind, cut = _cap_kind_and_cut()
    query = select(kind, func.count(), cut).where(_answered_upstream()).group_by(kind).order_by(kind)
    async with engine.connect() as conn:
        return [(str(k), int(n), int(c or 0)) for k, n, c in (await conn.execute(query)).all()]


async def cap_breakdown(engine: AsyncEngine, limit: int = 50) -> list[tuple[str, str, str, int, int]]:
    """``(key id, prompt cluster, cap kind, answers, cut)`` per key, prompt cluster and kind of cap:
    where the caps cut answers that would have gone on. Ordered by the number cut, then answers,
    most first; at most ``limit`` rows. Requests without a cluster (not chat) show ``-``."""
    kind, cut = _cap_kind_and_cut()
    cluster = func.coalesce(RequestLog.prompt_cluster, "-")
    query = (select(RequestLog.key_id, cluster, kind, func.count(), cut)
             .where(_answered_upstream())
             .group_by(RequestLog.key_id, cluster, kind)
             .order_by(cut.desc(), func.count().desc(), RequestLog.key_id, cluster, kind)
             .limit(limit))
    async with engine.connect() as conn:
        return [(str(key), str(c), str(k), int(n), int(x or 0)) for key, c, k, n, x in (await conn.execute(query)).all()]

"""Learned output caps: the default ``max_tokens`` of a key's prompt cluster set at a high quantile
of the completion lengths the request log has seen for it, so caps follow real traffic.

A *prompt cluster* is the request's template: the model, the stable part of its system prompt
(after shaping moved volatile spans out) and the names of its tools, hashed to 16 hex digits and
logged in ``request_log.prompt_cluster``. Only answers that ended by themselves
(``finish_reason == "stop"``) count: their lengths are what the caller really needed. A cluster
needs ``min_samples`` of them before its learned cap replaces the configured default.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.db import RequestLog
from proxy.shaping.prompt import NOTE_HEADER

log = logging.getLogger(__name__)

MIN_LEARNED_CAP = 16


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

    def fit(self, rows: Iterable[tuple[str, str, int]]) -> None:
        """Refit from ``(key id, cluster, completion tokens)`` of answers that ended by themselves."""
        lengths: dict[tuple[str, str], list[int]] = defaultdict(list)
        for key_id, cluster, tokens in rows:
            if cluster and isinstance(tokens, int) and tokens >= 0:
                lengths[(key_id, cluster)].append(tokens)
        self._caps = {group: max(MIN_LEARNED_CAP, math.ceil(float(np.quantile(values, self.quantile))))
                      for group, values in lengths.items() if len(values) >= self.min_samples}

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
        query = (select(RequestLog.key_id, RequestLog.prompt_cluster, RequestLog.completion_tokens)
                 .where(RequestLog.finish_reason == "stop", RequestLog.prompt_cluster.is_not(None),
                        RequestLog.completion_tokens.is_not(None), RequestLog.created_at >= since)
                 .order_by(RequestLog.created_at.desc()).limit(self.max_rows))
        try:
            async with engine.connect() as conn:
                rows = (await conn.execute(query)).all()
        except Exception as exc:  # noqa: BLE001 - a learned cap is an optimisation; the default stands
            log.warning("could not refresh learned output caps: %r", exc)
            return
        self.fit((r[0], r[1], r[2]) for r in rows)


async def cap_report(engine: AsyncEngine) -> list[tuple[str, int, int]]:
    """``(cap kind, requests, cut)`` over the whole request log: how often each kind of cap
    (``default``, ``learned``, ``clamped``, or ``none`` for the caller's own limit) ended an answer
    that would have gone on (``finish_reason == "length"``)."""
    kind = func.coalesce(RequestLog.cap, "none")
    cut = func.sum((RequestLog.finish_reason == "length").cast(RequestLog.max_tokens.type))
    query = select(kind, func.count(), cut).where(RequestLog.finish_reason.is_not(None)).group_by(kind).order_by(kind)
    async with engine.connect() as conn:
        return [(str(k), int(n), int(c or 0)) for k, n, c in (await conn.execute(query)).all()]

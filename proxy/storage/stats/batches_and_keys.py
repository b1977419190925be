"""Batch jobs with what their lines cost and saved, and the API keys, as the UI lists them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from proxy.storage.db import ApiKey, Batch, RequestLog
from proxy.storage.stats.ranges import as_utc


@dataclass(frozen=True, slots=True)
class BatchRow:
    """One batch job as the UI lists it, with what its lines cost and saved."""

    id: str
    key_id: str
    endpoint: str
    status: str
    created_at: datetime
    expires_at: datetime
    urgent: bool
    total: int
    completed: int
    failed: int
    requests_logged: int
    cost_usd: float
    batch_saved_usd: float
    saved_usd: float


async def recent_batches(conn: AsyncConnection, limit: int = 50) -> list[BatchRow]:
    """The newest batches with their logged cost and savings (final batches carry their counts;
    running ones are counted from their lines by the Batches API, shown here as logged requests)."""
    batches = (await conn.execute(select(Batch).order_by(Batch.created_at.desc()).limit(limit))).all()
    if not batches:
        return []
    ids = [b.id for b in batches]
    money = {row[0]: row[1:] for row in (await conn.execute(
        select(RequestLog.batch_id, func.count(), func.sum(RequestLog.cost_usd), func.sum(RequestLog.batch_saved_usd),
               func.sum(RequestLog.saved_usd))
        .where(RequestLog.batch_id.in_(ids)).group_by(RequestLog.batch_id))).all()}
    out = []
    for b in batches:
        n, cost, batch_saved, saved = money.get(b.id, (0, 0.0, 0.0, 0.0))
        out.append(BatchRow(b.id, b.key_id, b.endpoint, b.status, as_utc(b.created_at), as_utc(b.expires_at),
                            bool(b.urgent), b.total, b.completed, b.failed, int(n or 0), float(cost or 0.0),
                            float(batch_saved or 0.0), float(saved or 0.0)))
    return out


async def api_keys(conn: AsyncConnection) -> list[dict[str, Any]]:
    """Issued API keys (no secret: only the shown prefix) with their spend over the last 30 days."""
    keys = (await conn.execute(select(ApiKey).order_by(ApiKey.created_at))).all()
    since = datetime.now(UTC) - timedelta(days=30)
    spend = {row[0]: row[1:] for row in (await conn.execute(
        select(RequestLog.key_id, func.count(), func.sum(RequestLog.cost_usd))
        .where(RequestLog.key_id.in_([k.id for k in keys]), RequestLog.created_at >= since)
        .group_by(RequestLog.key_id))).all()} if keys else {}
    return [{"id": k.id, "name": k.name, "prefix": k.prefix,
             "models": json.loads(k.models) if k.models else None, "budget_usd": k.budget_usd,
             "budget_period": k.budget_period, "rpm": k.rpm, "tpm": k.tpm, "created_at": as_utc(k.created_at),
             "revoked_at": as_utc(k.revoked_at) if k.revoked_at else None,
             "requests_30d": int(spend.get(k.id, (0, 0.0))[0] or 0),
             "cost_30d": float(spend.get(k.id, (0, 0.0))[1] or 0.0)} for k in keys]

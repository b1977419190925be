"""Keeping the request log's hourly rollups current in the background, for the UI's first views."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.ext.asyncio import AsyncEngine

from proxy.storage.stats.time_series import refresh_rollups

log = logging.getLogger(__name__)

ROLLUP_INTERVAL_S = 300.0
ROLLUP_DAYS = 35.0


async def keep_rollups_fresh(engine: AsyncEngine, interval_s: float = ROLLUP_INTERVAL_S,
                             days: float = ROLLUP_DAYS) -> None:
    """Every ``interval_s``, roll up the settled hours of the last ``days`` days not stored yet.
    Never raises (a failed round is logged and retried at the next one); cancel it to stop."""
    while True:
        try:
            async with engine.connect() as conn:
                await refresh_rollups(conn, days=days)
        except Exception:  # noqa: BLE001 - the UI computes missing hours on demand anyway
            log.exception("request-log rollups could not be refreshed")
        await asyncio.sleep(interval_s)

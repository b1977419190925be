"""Helpers shared by the semantic-cache evaluation's sections: answers that carry an index, request
keys, a temporary SQLite cache, batched embedding with progress, percentages and Wilson intervals."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from tqdm import tqdm

from caches.db import create_tables
from caches.embedder import Embedder
from caches.keys import RequestKeys

WILSON_Z = 1.959964


def answer(i: int) -> str:
    """A chat completion whose content is ``i``: a hit's answer names the entry it came from."""
    return completion(str(i))


def completion(text: str) -> str:
    """A minimal chat-completion body with ``text`` as the assistant's content."""
    return json.dumps(
        {
            "object": "chat.completion",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
            ],
        }
    )


def answer_index(body: bytes) -> int:
    """The index an :func:`answer` body carries."""
    return int(json.loads(body)["choices"][0]["message"]["content"])


def keys(text: str, scope: str = "eval-scope", tenant: str = "eval") -> RequestKeys:
    """Request keys of a bare question in ``scope``."""
    return RequestKeys(exact="", scope=scope, query=text, tenant=tenant, model="eval-model")


def pct(x: float) -> str:
    """``0.423`` as ``42.3%``."""
    return f"{100 * x:.1f}%"


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (NaN for no values)."""
    return float(np.percentile(np.asarray(values), q)) if values else math.nan


async def sqlite_engine(tmp: Path, name: str) -> AsyncEngine:
    """A fresh SQLite file database under ``tmp`` with the cache's tables."""
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp / name}.db")
    await create_tables(engine)
    return engine


def embed_all(embedder: Embedder, texts: Sequence[str], desc: str, batch: int = 64) -> np.ndarray:
    """``texts`` embedded in batches, with a progress bar on stderr: ``[len(texts), dim]``."""
    out = []
    for i in tqdm(range(0, len(texts), batch), desc=desc, file=sys.stderr, unit="batch"):
        out.append(embedder.embed(texts[i : i + batch]))
    return np.concatenate(out) if out else np.empty((0, 0), np.float32)


def wilson_interval(successes: int, trials: int, z: float = WILSON_Z) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (``(0, 1)`` for no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denom = 1 + z * z / trials
    return max(0.0, (centre - spread) / denom), min(1.0, (centre + spread) / denom)


def wilson_lower_bound(successes: int, trials: int, z: float = WILSON_Z) -> float:
    """Lower end of the Wilson score interval (0 for no trials)."""
    return wilson_interval(successes, trials, z)[0] if trials else 0.0


def rate(k: int, n: int) -> str:
    """``k`` of ``n`` as a percentage with its Wilson 95% interval."""
    lo, hi = wilson_interval(k, n)
    return f"{pct(k / n if n else 0.0)} (95% CI {pct(lo)}-{pct(hi)})"

"""The paged, continuously batched inference engine.

``Sequence`` (sequence.py) → ``BlockManager`` (block_manager.py: paged KV blocks, chained-hash prefix
cache, ref counts, LRU) → ``Scheduler`` (scheduler.py: token budget, chunked prefill, priorities,
preemption) → ``ModelRunner`` (model_runner.py: sequences → tensors, paged attention) → ``Engine``
(engine.py: ``add`` / ``step`` / ``abort``) → ``EngineService`` (service.py: the loop thread behind the
HTTP server).
"""

from __future__ import annotations

from backend.engine.config import EngineConfig
from backend.engine.engine import Engine, EngineOutput
from backend.engine.service import EngineService

__all__ = ["Engine", "EngineConfig", "EngineOutput", "EngineService"]

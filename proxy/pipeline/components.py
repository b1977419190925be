"""Building the proxy's optional stages (caches, router) from settings; failures degrade, with a log line."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncEngine

from caches.config import CacheConfig, TenantCachePolicy
from caches.embedder import Embedder, EmbedderConfig, SentenceTransformerEmbedder
from caches.service import ResponseCache
from proxy.config.settings import Settings

log = logging.getLogger(__name__)


def cache_config(settings: Settings) -> CacheConfig:
    """Map the proxy's ``[cache]`` section onto the caches package's frozen config."""
    base = CacheConfig()
    c = settings.cache
    exact = replace(base.exact, enabled=c.enabled, ttl_s=c.ttl_s, max_entries=c.max_entries, max_bytes=c.max_bytes,
                    max_entry_bytes=c.max_entry_bytes, memo_ttl_s=c.memo_ttl_s)
    semantic = replace(base.semantic, enabled=c.enabled and c.semantic, ttl_s=c.ttl_s, max_entries=c.max_entries,
                       max_bytes=c.max_bytes, max_entry_bytes=c.max_entry_bytes, threshold=c.similarity_threshold,
                       close_distance_factor=c.close_distance_factor,
                       reworded_part_threshold=c.reworded_part_threshold or None,
                       lookup_deadline_s=c.lookup_deadline_ms / 1000 if c.lookup_deadline_ms > 0 else None,
                       batch_window_s=c.batch_window_ms / 1000, max_batch=c.embed_max_batch,
                       vectors_on_demand=c.vectors_on_demand)
    tenants = {
        key.tenant_id: TenantCachePolicy(
            enabled=key.enabled, semantic=key.semantic, ttl_s=key.ttl_s, threshold=key.similarity_threshold,
            semantic_requires_determinism=None if key.semantic_nondeterministic is None
            else not key.semantic_nondeterministic, replay_sampled=key.replay_sampled)
        for key in c.keys
    }
    policy = replace(base.policy, replay_sampled=c.replay_sampled)
    return replace(base, exact=exact, semantic=semantic, policy=policy, tenants=tenants)


def build_cache(settings: Settings, engine: AsyncEngine, embedder: Embedder | None,
                clock: Callable[[], float] | None = None) -> ResponseCache | None:
    """The response cache (``clock``: seconds since the epoch, for tests of expiry)."""
    if not settings.cache.enabled:
        return None
    return ResponseCache(engine, cache_config(settings), embedder=embedder if settings.cache.semantic else None,
                         **({"clock": clock} if clock else {}))


@dataclass(slots=True)
class RouterStage:
    """The router plus the public model names of its tiers."""

    router: object  # router.registry.Router
    public_model: str
    tier_models: dict[str, str]
    error: str | None = None  # start-up problem, reported on every decision
    escalator: object | None = None  # router.escalation.Escalator in cascade mode


def build_router_stage(settings: Settings, embedder: Embedder | None) -> RouterStage | None:
    """The configured router, or a fixed default-tier router (with the reason logged) when the
    artifact or configuration is unusable."""
    from router.config import RouterConfig
    from router.errors import RouterError
    from router.registry import build_router

    r = settings.router
    if not r.enabled:
        return None
    tiers = {"small": r.small_model, "large": r.large_model}
    try:
        config = RouterConfig(kind=r.kind, artifact_path=r.artifact_path or None, threshold_mode=r.threshold_mode,
                              target_large_share=r.target_large_share, fixed_threshold=r.fixed_threshold,
                              default_tier=r.default_tier)
        if r.mode in ("cascade", "combined") and r.small_model == r.large_model:
            log.warning("[router] mode = %s needs two different tiers (small and large are both %r); "
                        "routed requests go to it directly", r.mode, r.small_model)
            return RouterStage(FixedTierRouter("small", f"{r.mode}: one tier only", kind=r.mode), r.public_model,
                               tiers)
        if r.explore_share > 0.0 and r.mode != "combined":
            log.warning("[router] explore_share = %s does nothing in mode = %r (combined mode only)",
                        r.explore_share, r.mode)
        if r.mode in ("cascade", "combined"):
            from router.escalation import Escalator

            escalator = Escalator.from_config(config, Path(r.escalation_path) if r.escalation_path else None)
            if r.mode == "combined":
                # first step: the prompt router at a fixed threshold; "large" goes there directly, "small"
                # (and a failed decision, which falls back to the small tier) enters the cascade
                first = build_router(replace(config, threshold_mode="fixed", fixed_threshold=r.direct_threshold,
                                             default_tier="small"), embedder)
                if r.explore_share > 0.0:
                    first = ExploringRouter(first, r.explore_share, seed=config.seed)
            else:
                # the prompt router is not consulted in cascade mode: a fixed router stands in so that
                # decisions keep one shape (and a missing learned-router artifact does not matter)
                first = FixedTierRouter("small", "cascade: small tier first", kind="cascade")
            return RouterStage(first, r.public_model, tiers, escalator=escalator)
        return RouterStage(build_router(config, embedder), r.public_model, tiers)
    except (RouterError, ValueError, OSError) as exc:
        log.error("router unavailable, every %r request goes to the %r tier: %s", r.public_model, r.default_tier, exc)
        return RouterStage(FixedTierRouter(r.default_tier, f"error: router unavailable: {exc}"), r.public_model,
                           tiers, error=str(exc))


class ExploringRouter:
    """Combined mode's first step with exploration: a ``share`` of the requests ``inner`` sends straight to
    the large tier are cascaded instead (small tier first, reason ``explore: ...``), so that the request log
    keeps judging the small tier on the kinds of request the direct route takes away from it; without
    them, a direct route retrained on its own log would forget why it sends them direct."""

    def __init__(self, inner, share: float, seed: int = 0) -> None:
        import random

        self._inner, self._share = inner, share
        self._rng = random.Random(seed)
        self.kind, self.needs_embedding = inner.kind, inner.needs_embedding

    def _explore(self, decision, body):
        # only a request the cascade can take (a chat body it can judge): another would be answered by the
        # small tier alone
        if decision.tier != "large" or not isinstance(body.get("messages"), list) or not cascadable(body):
            return decision
        if self._rng.random() >= self._share:
            return decision
        return replace(decision, tier="small", reason=f"explore: {decision.reason} (cascaded anyway)")

    def decide(self, body, embedding=None):
        return self._explore(self._inner.decide(body, embedding), body)

    async def decide_async(self, body, embedding=None):
        return self._explore(await self._inner.decide_async(body, embedding), body)


def cascadable(body) -> bool:
    """Whether the cascade can judge this request's answer: one choice (``n`` > 1 would need every choice
    judged) and no tools (an answer made of tool calls cannot be judged)."""
    return (body.get("n") or 1) == 1 and not body.get("tools") and not body.get("functions")


class FixedTierRouter:
    """Always one tier, saying why: stands in for a router that could not be built (``fallback``),
    and is the first step of cascade mode (``cascade``: the small tier answers first)."""

    needs_embedding = False

    def __init__(self, tier: str, reason: str, kind: str = "fallback") -> None:
        self._tier, self._reason, self.kind = tier, reason, kind

    def decide(self, body, embedding=None):
        from router.policy import RouteDecision

        return RouteDecision(tier=self._tier, score=float("nan"), threshold=float("nan"), router=self.kind,
                             reason=self._reason)

    async def decide_async(self, body, embedding=None):
        return self.decide(body, embedding)


def shared_embedder(settings: Settings) -> Embedder | None:
    """One embedder for the semantic cache and the learned router (loaded lazily on first use)."""
    needs = (settings.cache.enabled and settings.cache.semantic) or (
        settings.router.enabled and settings.router.kind == "learned" and settings.router.mode in ("prompt", "combined"))
    return SentenceTransformerEmbedder(embedder_config(settings)) if needs else None


def embedder_config(settings: Settings) -> EmbedderConfig:
    """The embedder's configuration from ``[cache]`` (one embedder serves the cache, the router and /v1/embeddings)."""
    return EmbedderConfig(dtype=settings.cache.embed_dtype, threads=settings.cache.embed_threads or None,
                          implementation=settings.cache.embed_implementation)

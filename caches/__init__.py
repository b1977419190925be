"""Response caching for Thrifty: canonical keys, exact cache, semantic cache, policy, invalidation.

The package knows nothing about HTTP. The proxy uses :class:`caches.service.ResponseCache`
(the ``Cache`` protocol of :mod:`caches.types`); the pieces are usable on their own.
"""

from __future__ import annotations

from caches.config import CacheConfig, ExactCacheConfig, IndexConfig, PolicyConfig, SemanticCacheConfig
from caches.keys import RequestKeys, exact_key, request_keys, scope_key
from caches.policy import CacheDecision, decide
from caches.types import Cache, CacheError, CacheHit, CacheRequest, CacheStats

__all__ = [
    "Cache",
    "CacheConfig",
    "CacheDecision",
    "CacheError",
    "CacheHit",
    "CacheRequest",
    "CacheStats",
    "ExactCacheConfig",
    "IndexConfig",
    "PolicyConfig",
    "RequestKeys",
    "SemanticCacheConfig",
    "decide",
    "exact_key",
    "request_keys",
    "scope_key",
]

"""ResponseCache: exact then semantic, policy, write-back, invalidation."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from caches.config import CacheConfig, ExactCacheConfig, PolicyConfig
from caches.embedder import SentenceTransformerEmbedder
from caches.service import ResponseCache
from caches.types import Cache
from tests.caches.helpers import chat_body, completion


@pytest.fixture
async def cache(
    sqlite_engine: AsyncEngine, embedder: SentenceTransformerEmbedder
) -> AsyncIterator[ResponseCache]:
    rc = ResponseCache(
        async_sessionmaker(sqlite_engine, expire_on_commit=False), CacheConfig(), embedder=embedder
    )
    await rc.start()
    yield rc
    await rc.aclose()


async def test_exact_then_semantic(cache: ResponseCache) -> None:
    assert isinstance(cache, Cache)
    req = cache.prepare(chat_body("How do I boil an egg?"), model="small", tenant="acme")
    assert await cache.lookup(req, model_version="v") is None
    assert await cache.store(req, completion("10 minutes"), model_version="v")
    again = cache.prepare(
        chat_body("How do I boil an egg?", stream=True, user="u1"), model="small", tenant="acme"
    )
    hit = await cache.lookup(again, model_version="v")
    assert hit is not None and hit.kind == "exact"
    para = cache.prepare(chat_body("How can I boil an egg?"), model="small", tenant="acme")
    hit = await cache.lookup(para, model_version="v")
    assert hit is not None and hit.kind == "semantic" and b"10 minutes" in hit.body


async def test_non_deterministic_requests_use_the_exact_cache_only(cache: ResponseCache) -> None:
    req = cache.prepare(chat_body("Write a poem about rain.", temperature=0.9), model="small", tenant="acme")
    assert req.decision.lookup and not req.decision.semantic
    assert await cache.store(req, completion("drip drop"), model_version="v")
    assert (await cache.lookup(req, model_version="v")).kind == "exact"  # type: ignore[union-attr]
    para = cache.prepare(
        chat_body("Write a poem about the rain.", temperature=0.9), model="small", tenant="acme"
    )
    assert await cache.lookup(para, model_version="v") is None
    assert (await cache.stats())["semantic"].entries == 0


async def test_opt_outs(cache: ResponseCache) -> None:
    body = chat_body("What is the capital of Spain?")
    no_store = cache.prepare(body, model="small", tenant="acme", cache_control="no-store")
    assert not await cache.store(no_store, completion("Madrid"), model_version="v")
    plain = cache.prepare(body, model="small", tenant="acme")
    assert await cache.lookup(plain, model_version="v") is None
    await cache.store(plain, completion("Madrid"), model_version="v")
    no_cache = cache.prepare(body, model="small", tenant="acme", cache_control="no-cache")
    assert await cache.lookup(no_cache, model_version="v") is None  # refresh: skip the lookup ...
    assert await cache.store(no_cache, completion("Madrid!"), model_version="v")  # ... but store
    hit = await cache.lookup(plain, model_version="v")
    assert hit is not None and b"Madrid!" in hit.body
    off = cache.prepare(
        chat_body("What is the capital of Spain?", thrifty={"cache": False}), model="small", tenant="acme"
    )
    assert await cache.lookup(off, model_version="v") is None


async def test_only_successful_completions_are_stored(
    cache: ResponseCache, caplog: pytest.LogCaptureFixture
) -> None:
    req = cache.prepare(chat_body("Q?"), model="small", tenant="acme")
    assert not await cache.store(req, json.dumps({"error": {"message": "rate limited"}}), model_version="v")
    with caplog.at_level(logging.WARNING, logger="caches.service"):
        assert not await cache.store(req, "{truncated", model_version="v")
    assert caplog.records
    tool_call = json.loads(completion(""))
    tool_call["choices"][0]["message"]["tool_calls"] = [{"id": "c", "type": "function"}]
    assert await cache.store(req, json.dumps(tool_call), model_version="v")  # exact yes, semantic no
    stats = await cache.stats()
    assert stats["exact"].entries == 1 and stats["semantic"].entries == 0


async def test_unkeyable_body_disables_caching(
    cache: ResponseCache, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="caches.service"):
        req = cache.prepare(
            {"messages": [{"role": "user", "content": object()}]}, model="small", tenant="acme"
        )
    assert not req.decision.lookup and not req.decision.store and caplog.records
    assert await cache.lookup(req, model_version="v") is None


async def test_invalidation_across_both_caches(cache: ResponseCache) -> None:
    reqs = [
        cache.prepare(chat_body(q), model=m, tenant=t)
        for q, m, t in [
            ("Who wrote Dune?", "small", "a"),
            ("Who wrote Emma?", "large", "a"),
            ("Who wrote Dune?", "small", "b"),
        ]
    ]
    for r in reqs:
        await cache.store(r, completion("x"), model_version="v")
    res = await cache.delete_scope(reqs[0].keys.scope)
    assert (res.exact, res.semantic) == (1, 1)
    res = await cache.delete_model("large")
    assert res.total == 2
    hit = await cache.lookup(reqs[2], model_version="v")
    assert hit is not None and await cache.delete_entry("exact", hit.entry_id) == 1
    sem_hit = await cache.lookup(reqs[2], model_version="v")
    assert sem_hit is not None and sem_hit.kind == "semantic"
    assert await cache.delete_entry("semantic", sem_hit.entry_id) == 1
    assert await cache.lookup(reqs[2], model_version="v") is None
    await cache.store(reqs[0], completion("x"), model_version="v")
    assert (await cache.delete_tenant("a")).total == 2
    await cache.store(reqs[0], completion("x"), model_version="v")
    assert (await cache.clear()).total == 2
    await cache.maintenance()
    assert (await cache.purge_expired()).total == 0


async def test_exact_only_without_embedder(sqlite_engine: AsyncEngine) -> None:
    rc = ResponseCache(sqlite_engine, CacheConfig(exact=ExactCacheConfig(ttl_s=None), policy=PolicyConfig()))
    await rc.start()
    req = rc.prepare(chat_body("Ping?"), model="small", tenant="acme")
    assert await rc.store(req, completion("pong"), model_version="v")
    assert (await rc.lookup(req, model_version="v")).kind == "exact"  # type: ignore[union-attr]
    assert rc.semantic is None and set(await rc.stats()) == {"exact"}
    await rc.aclose()

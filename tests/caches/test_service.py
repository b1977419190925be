"""ResponseCache: exact then semantic, policy, write-back, invalidation."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from caches.config import CacheConfig, ExactCacheConfig, PolicyConfig, TenantCachePolicy
from caches.embedder import SentenceTransformerEmbedder
from caches.service import ResponseCache
from caches.types import Cache
from tests.caches.helpers import FakeClock, chat_body, completion


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
    sampled = cache.prepare(chat_body("Write a poem about rain.", temperature=0.9), model="small", tenant="acme")
    assert not sampled.decision.lookup and not sampled.decision.store  # a fresh sample each time
    assert not await cache.store(sampled, completion("drip drop"), model_version="v")
    req = cache.prepare(chat_body("Write a poem about rain.", n=2), model="small", tenant="acme")
    assert req.decision.lookup and not req.decision.semantic
    assert await cache.store(req, completion("drip drop"), model_version="v")
    assert (await cache.lookup(req, model_version="v")).kind == "exact"  # type: ignore[union-attr]
    para = cache.prepare(chat_body("Write a poem about the rain.", n=2), model="small", tenant="acme")
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
            {"messages": [{"role": "user", "content": object()}], "temperature": 0}, model="small", tenant="acme"
        )
    assert not req.decision.lookup and not req.decision.store and caplog.records
    assert await cache.lookup(req, model_version="v") is None


async def test_a_bypassed_request_is_not_keyed_and_a_cacheable_one_is(cache: ResponseCache) -> None:
    body = chat_body("Who wrote Dune?")
    bypassed = cache.prepare(body, model="small", tenant="acme", cache_control="no-store")
    assert not (bypassed.decision.lookup or bypassed.decision.store) and bypassed.keys.exact == ""
    keyed = cache.prepare(body, model="small", tenant="acme")
    assert keyed.decision.lookup and keyed.keys.exact and keyed.keys.scope


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
    assert hit is not None and await cache.delete_entry("exact", hit.entry_id) == 1  # its semantic row goes too
    assert await cache.lookup(reqs[2], model_version="v") is None
    await cache.store(reqs[0], completion("x"), model_version="v")
    assert (await cache.delete_tenant("a")).total == 2
    await cache.store(reqs[0], completion("x"), model_version="v")
    assert (await cache.clear()).total == 2
    await cache.maintenance()
    assert (await cache.purge_expired()).total == 0


async def test_deleting_an_entry_makes_the_identical_question_miss_in_both_caches(cache: ResponseCache) -> None:
    """Deleting a semantic row also deletes the exact entry of the same question and scope (the
    UI's Delete button), and the other way round; other scopes and other questions stay."""
    await _check_delete_entry_removes_both_copies(cache)


async def test_deleting_an_entry_removes_both_copies_on_postgresql(
    pg_engine: AsyncEngine, embedder: SentenceTransformerEmbedder
) -> None:
    rc = ResponseCache(pg_engine, CacheConfig(), embedder=embedder)
    await rc.start()
    try:
        await _check_delete_entry_removes_both_copies(rc)
    finally:
        await rc.aclose()


async def _check_delete_entry_removes_both_copies(cache: ResponseCache) -> None:
    question = "Who painted the Mona Lisa?"
    mine = cache.prepare(chat_body(question), model="small", tenant="a")
    other_tenant = cache.prepare(chat_body(question), model="small", tenant="b")
    neighbour = cache.prepare(chat_body("Who painted the Night Watch?"), model="small", tenant="a")
    assert mine.keys.scope == neighbour.keys.scope != other_tenant.keys.scope
    await cache.store(mine, completion("Leonardo"), model_version="v")
    await cache.store(other_tenant, completion("Leonardo"), model_version="v")
    await cache.store(neighbour, completion("Rembrandt"), model_version="v")
    assert cache.semantic is not None and cache.exact is not None

    row = await cache.semantic.get(mine.keys, model_version="v")  # the row the UI lists and deletes
    assert row is not None and row.kind == "semantic"
    assert await cache.delete_entry("semantic", row.entry_id) == 1  # the entry asked for; its copy goes too
    assert await cache.exact.get(mine.keys.exact, model_version="v") is None
    assert await cache.semantic.get(mine.keys, model_version="v") is None
    assert await cache.lookup(mine, model_version="v") is None

    for kept in (other_tenant, neighbour):  # another scope, another question of the scope: untouched
        hit = await cache.lookup(kept, model_version="v")
        assert hit is not None and hit.kind == "exact"
        assert await cache.semantic.get(kept.keys, model_version="v") is not None

    await cache.store(mine, completion("Leonardo da Vinci"), model_version="v")
    exact_hit = await cache.lookup(mine, model_version="v")
    assert exact_hit is not None and exact_hit.kind == "exact"
    assert await cache.delete_entry("exact", exact_hit.entry_id) == 1
    assert await cache.semantic.get(mine.keys, model_version="v") is None
    assert await cache.lookup(mine, model_version="v") is None
    assert (await cache.stats())["exact"].entries == 2 and (await cache.stats())["semantic"].entries == 2
    assert await cache.delete_entry("semantic", "999999") == 0  # an unknown id removes nothing


async def test_exact_only_without_embedder(sqlite_engine: AsyncEngine) -> None:
    rc = ResponseCache(sqlite_engine, CacheConfig(exact=ExactCacheConfig(ttl_s=None), policy=PolicyConfig()))
    await rc.start()
    req = rc.prepare(chat_body("Ping?"), model="small", tenant="acme")
    assert await rc.store(req, completion("pong"), model_version="v")
    assert (await rc.lookup(req, model_version="v")).kind == "exact"  # type: ignore[union-attr]
    assert rc.semantic is None and set(await rc.stats()) == {"exact"}
    await rc.aclose()


async def test_per_tenant_overrides(
    sqlite_engine: AsyncEngine, embedder: SentenceTransformerEmbedder, clock: FakeClock
) -> None:
    tenants = {
        "off": TenantCachePolicy(enabled=False),
        "exact-only": TenantCachePolicy(semantic=False),
        "strict": TenantCachePolicy(threshold=0.999),
        "creative": TenantCachePolicy(semantic_requires_determinism=False, ttl_s=30.0),
    }
    rc = ResponseCache(sqlite_engine, CacheConfig(tenants=tenants), embedder=embedder, clock=clock)
    try:
        q, para = "How do I boil an egg?", "How can I boil an egg?"
        off = rc.prepare(chat_body(q), model="small", tenant="off")
        assert not (off.decision.lookup or off.decision.store) and "off for this key" in off.decision.reason
        assert not await rc.store(off, completion("x"), model_version="v")
        for tenant in ("exact-only", "strict", "default"):
            assert await rc.store(
                rc.prepare(chat_body(q), model="small", tenant=tenant),
                completion("10 min"),
                model_version="v",
            )
            assert (
                await rc.lookup(rc.prepare(chat_body(q), model="small", tenant=tenant), model_version="v")
            ).kind == "exact"  # type: ignore[union-attr]
        exact_only = rc.prepare(chat_body(para), model="small", tenant="exact-only")
        assert not exact_only.decision.semantic and await rc.lookup(exact_only, model_version="v") is None
        assert (
            await rc.lookup(rc.prepare(chat_body(para), model="small", tenant="strict"), model_version="v")
            is None
        )
        hit = await rc.lookup(rc.prepare(chat_body(para), model="small", tenant="default"), model_version="v")
        assert (
            hit is not None
            and hit.kind == "semantic"
            and hit.similarity is not None
            and hit.similarity < 0.999
        )
        # non-deterministic requests may use the semantic cache for this key; its entries live 30 s
        warm = chat_body("Write a haiku about autumn leaves.", temperature=0.8)
        creative = rc.prepare(warm, model="small", tenant="creative")
        assert creative.decision.semantic and creative.ttl_s == 30.0
        assert await rc.store(creative, completion("leaves fall"), model_version="v")
        near = rc.prepare(
            chat_body("Write a haiku about autumn leaves, please.", temperature=0.8),
            model="small",
            tenant="creative",
        )
        assert (await rc.lookup(near, model_version="v")).kind == "semantic"  # type: ignore[union-attr]
        clock.advance(31.0)
        assert await rc.lookup(creative, model_version="v") is None
        assert await rc.lookup(near, model_version="v") is None
    finally:
        await rc.aclose()


def test_tenant_policy_validates_its_values() -> None:
    with pytest.raises(ValueError):
        TenantCachePolicy(threshold=1.5)
    with pytest.raises(ValueError):
        TenantCachePolicy(ttl_s=0)


@pytest.mark.parametrize(("cls", "kwargs", "message"), [
    ("ExactCacheConfig", {"ttl_s": 0}, "ttl_s must be > 0"),
    ("ExactCacheConfig", {"max_entries": 0}, "max_entries must be at least 1"),
    ("SemanticCacheConfig", {"threshold": 5.0}, r"threshold must be in \(0, 1\]"),
    ("SemanticCacheConfig", {"max_bytes": -1}, "max_bytes must be at least 1"),
])
def test_cache_configs_refuse_unusable_bounds(cls, kwargs, message):
    from caches import config

    with pytest.raises(ValueError, match=message):
        getattr(config, cls)(**kwargs)
    assert getattr(config, cls)(ttl_s=None).ttl_s is None  # None: no expiry

"""Exact cache over real SQLite files and real PostgreSQL."""

from __future__ import annotations

import json
import logging

import pytest
from sqlalchemy import select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine

from caches.config import ExactCacheConfig
from caches.exact import ExactCache
from caches.keys import RequestKeys, request_keys
from caches.models import ExactCacheEntry
from caches.types import CacheError
from tests.caches.helpers import FakeClock, chat_body, completion


def keys_for(question: str, *, tenant: str = "acme", model: str = "small", **params: object) -> RequestKeys:
    return request_keys(chat_body(question, **params), model=model, tenant=tenant)


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest) -> AsyncEngine:
    """The same tests on a real SQLite file and on the real PostgreSQL."""
    return request.getfixturevalue("sqlite_engine" if request.param == "sqlite" else "pg_engine")


async def test_round_trip_and_model_version(engine: AsyncEngine, clock: FakeClock) -> None:
    cache = ExactCache(engine, clock=clock)
    k = keys_for("What is 2+2?")
    assert await cache.get(k.exact, model_version="v1") is None
    assert await cache.put(k, completion("4"), model_version="v1")
    hit = await cache.get(k.exact, model_version="v1")
    assert (
        hit is not None
        and hit.kind == "exact"
        and json.loads(hit.body)["choices"][0]["message"]["content"] == "4"
    )
    assert hit.entry_id == k.exact and hit.model == "small" and hit.created_at == clock.now
    # a new upstream model version stops the old entry from hitting; storing replaces it
    assert await cache.get(k.exact, model_version="v2") is None
    assert await cache.put(k, completion("four"), model_version="v2")
    hit = await cache.get(k.exact, model_version="v2")
    assert hit is not None and b"four" in hit.body
    assert await cache.get(keys_for("What is 2+3?").exact, model_version="v2") is None


async def test_persists_across_instances(engine: AsyncEngine, clock: FakeClock) -> None:
    k = keys_for("persist me")
    assert await ExactCache(engine, clock=clock).put(k, completion("yes"), model_version="v")
    assert await ExactCache(engine, clock=clock).get(k.exact, model_version="v") is not None


async def test_ttl_expiry_and_purge(engine: AsyncEngine, clock: FakeClock) -> None:
    cache = ExactCache(engine, ExactCacheConfig(ttl_s=60), clock=clock)
    k, k2 = keys_for("short lived"), keys_for("long lived")
    await cache.put(k, completion("x"), model_version="v")
    await cache.put(k2, completion("y"), model_version="v", ttl_s=3600)
    clock.advance(59)
    assert await cache.get(k.exact, model_version="v") is not None
    clock.advance(2)
    assert await cache.get(k.exact, model_version="v") is None
    assert await cache.get(k2.exact, model_version="v") is not None
    assert await cache.purge_expired() == 1
    assert (await cache.stats()).entries == 1


async def test_lru_eviction_by_entries(engine: AsyncEngine, clock: FakeClock) -> None:
    cfg = ExactCacheConfig(max_entries=5, evict_fraction=0.2, recount_interval_s=0)
    cache = ExactCache(engine, cfg, clock=clock)
    keys = [keys_for(f"question {i}") for i in range(5)]
    for k in keys:
        clock.advance(1)
        assert await cache.put(k, completion("a"), model_version="v")
    clock.advance(1)
    assert await cache.get(keys[0].exact, model_version="v") is not None  # 0 is now recently used
    clock.advance(1)
    await cache.put(keys_for("question 5"), completion("a"), model_version="v")  # 6 > 5: evict to 4
    stats = await cache.stats()
    assert stats.entries == 4
    present = [await cache.get(k.exact, model_version="v") is not None for k in keys]
    assert present == [True, False, False, True, True]


async def test_lru_eviction_by_bytes(sqlite_engine: AsyncEngine, clock: FakeClock) -> None:
    body = completion("z" * 900)
    cfg = ExactCacheConfig(max_bytes=len(body) * 3, evict_fraction=0.0, recount_interval_s=0)
    cache = ExactCache(sqlite_engine, cfg, clock=clock)
    for i in range(5):
        clock.advance(1)
        await cache.put(keys_for(f"q{i}"), body, model_version="v")
    stats = await cache.stats()
    assert stats.entries == 3 and stats.bytes <= cfg.max_bytes
    assert await cache.get(keys_for("q0").exact, model_version="v") is None
    assert await cache.get(keys_for("q4").exact, model_version="v") is not None


async def test_hits_are_recorded(sqlite_engine: AsyncEngine, clock: FakeClock) -> None:
    cache = ExactCache(sqlite_engine, clock=clock)
    k = keys_for("popular")
    await cache.put(k, completion("a"), model_version="v")
    for _ in range(3):
        clock.advance(10)
        await cache.get(k.exact, model_version="v")
    await cache.flush_touches()
    async with sqlite_engine.connect() as conn:
        row = (await conn.execute(select(ExactCacheEntry.hits, ExactCacheEntry.last_access_at))).one()
    assert row.hits == 3 and row.last_access_at == clock.now


async def test_oversized_and_invalid_entries_are_refused(
    sqlite_engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    cache = ExactCache(sqlite_engine, ExactCacheConfig(max_entry_bytes=200))
    with caplog.at_level(logging.WARNING, logger="caches.exact"):
        assert not await cache.put(keys_for("big"), completion("x" * 500), model_version="v")
        assert not await cache.put(keys_for("bad"), "not json {", model_version="v")
        assert not await cache.put(keys_for("list"), "[1, 2]", model_version="v")
    assert "oversized" in caplog.text and len(caplog.records) == 3
    assert (await cache.stats()).entries == 0


async def test_corrupt_entry_is_a_miss_and_is_deleted(
    sqlite_engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    cache = ExactCache(sqlite_engine)
    k = keys_for("corrupt me")
    await cache.put(k, completion("fine"), model_version="v")
    async with sqlite_engine.begin() as conn:
        await conn.execute(update(ExactCacheEntry).values(response=b'{"tampered": true}'))
    with caplog.at_level(logging.WARNING, logger="caches.exact"):
        assert await cache.get(k.exact, model_version="v") is None
    assert "corrupt" in caplog.text
    assert (await cache.stats()).entries == 0


async def test_database_failure_degrades_to_miss(
    sqlite_engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    cache = ExactCache(sqlite_engine)
    k = keys_for("q")
    await cache.put(k, completion("a"), model_version="v")
    async with sqlite_engine.begin() as conn:
        await conn.execute(text("DROP TABLE thrifty_exact_cache"))
    with caplog.at_level(logging.WARNING, logger="caches.exact"):
        assert await cache.get(k.exact, model_version="v") is None
        assert await cache.put(k, completion("a"), model_version="v") is False
    assert "lookup failed" in caplog.text and "store failed" in caplog.text
    with pytest.raises(CacheError):
        await cache.clear()


async def test_invalidation(engine: AsyncEngine) -> None:
    cache = ExactCache(engine)
    a1 = keys_for("q1", tenant="a")
    a2 = keys_for("q2", tenant="a", model="large")
    b1 = keys_for("q1", tenant="b")
    b2 = keys_for("q1", tenant="b", system="other system prompt")
    for k in (a1, a2, b1, b2):
        await cache.put(k, completion("x"), model_version="v1")
    await cache.put(keys_for("q3", tenant="a"), completion("x"), model_version="v2")
    assert await cache.delete(a1.exact) == 1
    assert await cache.delete_scope(b2.scope) == 1
    assert await cache.delete_model("small", keep_version="v2") == 1  # b1 (v1) goes, q3 (v2) stays
    assert await cache.get(keys_for("q3", tenant="a").exact, model_version="v2") is not None
    assert await cache.delete_model("large", tenant="b") == 0
    assert await cache.delete_tenant("a") == 2
    assert (await cache.stats()).entries == 0
    await cache.put(a1, completion("x"), model_version="v1")
    assert await cache.clear() == 1


def content(hit: object) -> str:
    assert hit is not None
    return json.loads(hit.body)["choices"][0]["message"]["content"]  # type: ignore[attr-defined]


async def test_memo_answers_repeated_hits_with_bounded_staleness(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    """Another replica's change to the row is seen once the memo's trust period has passed."""
    cache = ExactCache(engine, ExactCacheConfig(ttl_s=600, memo_ttl_s=5.0), clock=clock)
    k = keys_for("What is the boiling point of water at sea level?")
    await cache.put(k, completion("100 C"), model_version="v")
    assert content(await cache.get(k.exact, model_version="v")) == "100 C"  # read from the database, memoised
    other = ExactCache(engine, clock=clock)  # another replica replaces the answer
    await other.put(k, completion("212 F"), model_version="v")
    clock.advance(4.0)
    assert content(await cache.get(k.exact, model_version="v")) == "100 C"  # still trusted
    clock.advance(1.5)
    assert content(await cache.get(k.exact, model_version="v")) == "212 F"  # re-read after memo_ttl_s
    await other.delete(k.exact)  # an invalidation on the other replica
    clock.advance(5.5)
    assert await cache.get(k.exact, model_version="v") is None
    # hits served from the memo still count (batched LRU/hit-count writes)
    await cache.flush_touches()
    await cache.put(k, completion("100 C"), model_version="v")
    for _ in range(3):
        assert await cache.get(k.exact, model_version="v") is not None
    await cache.flush_touches()
    async with engine.connect() as conn:
        hits = (
            await conn.execute(select(ExactCacheEntry.hits).where(ExactCacheEntry.key == k.exact))
        ).scalar_one()
    assert hits == 3


async def test_memo_honours_ttl_version_and_local_changes_at_once(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    cache = ExactCache(engine, ExactCacheConfig(ttl_s=60, memo_ttl_s=3600.0), clock=clock)
    k, k2 = keys_for("Name a prime number."), keys_for("Name an even number.")
    await cache.put(k, completion("7"), model_version="v1")
    assert content(await cache.get(k.exact, model_version="v1")) == "7"
    assert await cache.get(k.exact, model_version="v2") is None  # model version checked on memo hits
    assert content(await cache.get(k.exact, model_version="v1")) == "7"
    await cache.put(k, completion("11"), model_version="v1")  # a store here replaces at once
    assert content(await cache.get(k.exact, model_version="v1")) == "11"
    await cache.delete_tenant("acme")  # so does an invalidation here
    assert await cache.get(k.exact, model_version="v1") is None
    await cache.put(k2, completion("4"), model_version="v1")
    assert content(await cache.get(k2.exact, model_version="v1")) == "4"
    clock.advance(61.0)  # the entry's TTL, even though the memo still trusts it
    assert await cache.get(k2.exact, model_version="v1") is None


async def test_memo_can_be_turned_off(sqlite_engine: AsyncEngine, clock: FakeClock) -> None:
    cache = ExactCache(sqlite_engine, ExactCacheConfig(memo_entries=0), clock=clock)
    k = keys_for("What colour is the sky?")
    await cache.put(k, completion("blue"), model_version="v")
    assert content(await cache.get(k.exact, model_version="v")) == "blue"
    await ExactCache(sqlite_engine, clock=clock).put(k, completion("grey"), model_version="v")
    assert content(await cache.get(k.exact, model_version="v")) == "grey"

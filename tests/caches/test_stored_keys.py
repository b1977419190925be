"""The exact cache's filter of stored keys, over real SQLite files and real PostgreSQL: misses proved
without a database read, and never a hit lost for a key this process or another one stored."""

from __future__ import annotations

import asyncio
import random
import string

import pytest
from sqlalchemy import event, insert
from sqlalchemy.ext.asyncio import AsyncEngine

from caches.config import ExactCacheConfig
from caches.exact import ExactCache
from caches.keys import RequestKeys, request_keys
from caches.models import ExactCacheEntry
from caches.stored_keys import BloomFilter
from tests.caches.helpers import FakeClock, chat_body, completion


def keys_for(question: str) -> RequestKeys:
    return request_keys(chat_body(question), model="small", tenant="acme")


def random_strings(rng: random.Random, count: int) -> list[str]:
    return ["".join(rng.choices(string.ascii_letters + string.digits, k=rng.randint(1, 70))) for _ in range(count)]


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest) -> AsyncEngine:
    return request.getfixturevalue("sqlite_engine" if request.param == "sqlite" else "pg_engine")


class StatementCounter:
    """Counts the SQL statements an engine runs (the real driver's calls)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.selects = 0
        event.listen(engine.sync_engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn, _cursor, statement: str, *_args) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            self.selects += 1


def test_bloom_filter_holds_every_added_string_and_few_others() -> None:
    rng = random.Random(7)
    added = list(dict.fromkeys(random_strings(rng, 5000)))
    bloom = BloomFilter(len(added))
    for key in added:
        bloom.add(key)
    assert all(key in bloom for key in added)
    others = [key for key in dict.fromkeys(random_strings(rng, 20000)) if key not in set(added)]
    false_positives = sum(key in bloom for key in others)
    assert false_positives < 0.03 * len(others)  # ~1 % at capacity
    assert not bloom.full
    bloom.add("one more")
    assert bloom.full


async def test_a_key_never_stored_misses_without_a_read(engine: AsyncEngine, clock: FakeClock) -> None:
    cache = ExactCache(engine, clock=clock)
    stored = [keys_for(f"question {i}") for i in range(20)]
    for k in stored:
        assert await cache.put(k, completion("answer"), model_version="v")
    assert cache.stored_keys is not None
    await cache.stored_keys.refresh()
    assert cache.stored_keys.complete
    counter = StatementCounter(engine)
    absent = [keys_for(f"never stored {i}") for i in range(200)]
    assert [await cache.get(k.exact, model_version="v") for k in absent] == [None] * 200
    assert counter.selects <= 10  # the filter's ~1 % false positives read; the rest did not
    assert cache.stored_keys.proved_misses >= 190
    for k in stored:  # every stored key is still read and served
        assert await cache.get(k.exact, model_version="v") is not None
    await cache.aclose()


async def test_stores_during_the_first_load_are_not_lost(engine: AsyncEngine, clock: FakeClock) -> None:
    cache = ExactCache(engine, clock=clock)
    before = [keys_for(f"before start {i}") for i in range(30)]
    await asyncio.gather(*(cache.put(k, completion("b"), model_version="v") for k in before))
    fresh = ExactCache(engine, clock=clock)  # a process starting on a table that has rows
    assert fresh.stored_keys is not None
    fresh.stored_keys.refresh_if_due()  # the load starts as a task ...
    during = [keys_for(f"during load {i}") for i in range(30)]
    await asyncio.gather(*(fresh.put(k, completion("d"), model_version="v") for k in during))  # ... stores race it
    await fresh.stored_keys.refresh()  # a load or sync after whatever the task did
    for k in before + during:
        assert await fresh.get(k.exact, model_version="v") is not None, k.exact
    await asyncio.gather(cache.aclose(), fresh.aclose())


async def test_another_replicas_store_is_served_after_one_sync_interval(engine: AsyncEngine, clock: FakeClock) -> None:
    config = ExactCacheConfig(memo_ttl_s=2.0)
    here, there = ExactCache(engine, config, clock=clock), ExactCache(engine, config, clock=clock)
    assert here.stored_keys is not None
    await here.stored_keys.refresh()
    k = keys_for("stored by the other replica")
    assert await there.put(k, completion("from there"), model_version="v")
    # within the interval this replica has not read it yet: a miss, as if the request came earlier
    assert await here.get(k.exact, model_version="v") is None
    clock.advance(2.5)
    hit = None
    for _ in range(200):  # the lookup starts the sync; a later one is served
        hit = await here.get(k.exact, model_version="v")
        if hit is not None:
            break
        await asyncio.sleep(0.01)
    assert hit is not None and b"from there" in hit.body
    await asyncio.gather(here.aclose(), there.aclose())


async def test_a_table_beyond_the_capacity_grows_the_filter(engine: AsyncEngine, clock: FakeClock) -> None:
    cache = ExactCache(engine, ExactCacheConfig(max_entries=10), clock=clock)  # capacity: its floor, 1024
    rows = [{"key": f"k{i:05d}", "tenant": "acme", "model": "small", "model_version": "v", "scope": "s",
             "response": completion("x").encode(), "response_sha256": "0" * 64, "size_bytes": 1,
             "created_at": clock.now, "expires_at": None, "last_access_at": clock.now, "hits": 0}
            for i in range(3000)]
    async with engine.begin() as conn:  # another writer filled the table
        await conn.execute(insert(ExactCacheEntry), rows)
    keys = cache.stored_keys
    assert keys is not None
    await keys.refresh()
    assert not keys.complete  # too many for the first filter: it grows and reads again
    await keys.refresh()
    assert keys.complete
    assert all(keys.may_hold(row["key"]) for row in rows)
    await cache.aclose()


def test_memo_ttl_zero_turns_the_filter_off(tmp_path) -> None:
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
    assert ExactCache(engine, ExactCacheConfig(memo_ttl_s=0)).stored_keys is None
    assert ExactCache(engine, ExactCacheConfig(key_filter=False)).stored_keys is None
    assert ExactCache(engine).stored_keys is not None


async def test_a_write_still_in_flight_during_a_load_is_kept(engine: AsyncEngine, clock: FakeClock) -> None:
    """A key whose write was queued before a load began and commits after the load passed its page stays
    "maybe": the load adds the writes in flight to its filter."""
    cache = ExactCache(engine, clock=clock)
    keys = cache.stored_keys
    assert keys is not None
    keys.add("in-flight key")  # queued, not yet committed: the table lacks it
    await keys.refresh()
    assert keys.complete and keys.may_hold("in-flight key")
    keys.written("in-flight key")
    assert not keys.may_hold("never stored")
    await cache.aclose()


async def test_a_failed_read_is_retried_after_a_pause_not_on_every_lookup(tmp_path, clock: FakeClock,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'no-tables.db'}")  # no cache table
    cache = ExactCache(engine, clock=clock)
    keys = cache.stored_keys
    assert keys is not None
    await keys.refresh()
    assert not keys.complete and "reading the stored keys failed" in caplog.text
    for _ in range(5):  # lookups right after the failure start no read
        keys.refresh_if_due()
        assert keys._task is None or keys._task.done()  # noqa: SLF001
    clock.advance(6.0)
    keys.refresh_if_due()
    assert keys._task is not None  # noqa: SLF001
    await cache.aclose()
    await engine.dispose()

"""Group commits of the caches' stores: the batcher alone, then the exact and semantic caches on real
SQLite files and real PostgreSQL."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from caches.config import ExactCacheConfig, SemanticCacheConfig
from caches.exact import ExactCache
from caches.keys import RequestKeys, request_keys
from caches.models import ExactCacheEntry, SemanticCacheEntry
from caches.semantic import SemanticCache
from caches.semantic_choice import CONTESTED
from caches.writes import WriteBatcher, WriteQueueFull
from tests.caches.helpers import FakeClock, chat_body, completion


def keys_for(question: str, *, tenant: str = "acme") -> RequestKeys:
    return request_keys(chat_body(question), model="small", tenant=tenant)


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest) -> AsyncEngine:
    """The same tests on a real SQLite file and on the real PostgreSQL."""
    return request.getfixturevalue("sqlite_engine" if request.param == "sqlite" else "pg_engine")


# --- the batcher alone ---------------------------------------------------------------------------


class Recorder:
    """A ``write`` function that records its batches; rows equal to ``bad`` make a batch fail."""

    def __init__(self, bad: object = None) -> None:
        self.batches: list[list[int]] = []
        self.bad = bad

    async def __call__(self, rows: list[int]) -> list[int]:
        await asyncio.sleep(0.001)
        if self.bad in rows:
            raise ValueError(f"row {self.bad} is bad")
        self.batches.append(list(rows))
        return [row * 10 for row in rows]


async def test_concurrent_rows_share_one_write_and_get_their_own_results() -> None:
    write = Recorder()
    batcher = WriteBatcher(write, window_s=0.005, max_batch=64)
    results = await asyncio.gather(*(batcher.submit(i) for i in range(40)))
    assert results == [i * 10 for i in range(40)]
    assert write.batches == [list(range(40))] and batcher.writes == 1 and batcher.rows == 40


async def test_batches_are_bounded_and_rows_arriving_during_a_write_go_into_the_next() -> None:
    write = Recorder()
    batcher = WriteBatcher(write, window_s=0.0, max_batch=8)
    first = [asyncio.ensure_future(batcher.submit(i)) for i in range(20)]
    await asyncio.sleep(0.0005)  # the first batch is being written
    later = [asyncio.ensure_future(batcher.submit(i)) for i in range(20, 25)]
    assert await asyncio.gather(*first, *later) == [i * 10 for i in range(25)]
    assert all(len(batch) <= 8 for batch in write.batches)
    assert sorted(row for batch in write.batches for row in batch) == list(range(25))


async def test_a_failing_batch_is_retried_row_by_row_and_costs_only_the_bad_row() -> None:
    write = Recorder(bad=3)
    batcher = WriteBatcher(write, window_s=0.002)
    results = await asyncio.gather(*(batcher.submit(i) for i in range(6)), return_exceptions=True)
    assert [r for i, r in enumerate(results) if i != 3] == [0, 10, 20, 40, 50]
    assert isinstance(results[3], ValueError)
    assert batcher.failed_batches == 1 and write.batches == [[0], [1], [2], [4], [5]]


async def test_a_result_that_is_an_exception_fails_that_row_alone() -> None:
    async def write(rows: list[int]) -> list[int | BaseException]:
        return [RuntimeError("index update failed") if row == 1 else row for row in rows]

    batcher = WriteBatcher(write)
    results = await asyncio.gather(*(batcher.submit(i) for i in range(3)), return_exceptions=True)
    assert results[0] == 0 and results[2] == 2 and isinstance(results[1], RuntimeError)
    assert batcher.writes == 1 and batcher.failed_batches == 0


async def test_a_full_queue_refuses_rows() -> None:
    batcher = WriteBatcher(Recorder(), window_s=0.01, max_pending=3)
    queued = [asyncio.ensure_future(batcher.submit(i)) for i in range(3)]
    await asyncio.sleep(0)
    assert batcher.pending == 3
    with pytest.raises(WriteQueueFull):
        await batcher.submit(3)
    assert await asyncio.gather(*queued) == [0, 10, 20]


async def test_a_cancelled_submitter_is_left_out_and_close_writes_what_is_queued() -> None:
    write = Recorder()
    batcher = WriteBatcher(write, window_s=0.01)
    kept = asyncio.ensure_future(batcher.submit(1))
    dropped = asyncio.ensure_future(batcher.submit(2))
    await asyncio.sleep(0)
    dropped.cancel()
    await batcher.aclose()
    assert kept.done() and kept.result() == 10 and write.batches == [[1]]


def test_a_worker_stranded_by_a_closed_loop_does_not_block_the_next_loop() -> None:
    calls: list[list[int]] = []

    async def write(rows: list[int]) -> list[int]:
        calls.append(rows)
        if len(calls) == 1:
            await asyncio.sleep(3600)  # its loop closes under it
        return rows

    batcher = WriteBatcher(write, window_s=0.0)
    old = asyncio.new_event_loop()
    stranded = old.create_task(batcher.submit(1))
    old.run_until_complete(asyncio.sleep(0.01))
    old.close()
    assert asyncio.run(batcher.submit(2)) == 2 and calls == [[1], [2]]
    del stranded
    gc.collect()  # the stranded coroutine is closed here, in this test


def test_bounds_are_checked() -> None:
    with pytest.raises(ValueError):
        WriteBatcher(Recorder(), max_batch=0)
    with pytest.raises(ValueError):
        ExactCacheConfig(max_queued_writes=0)
    with pytest.raises(ValueError):
        SemanticCacheConfig(write_window_s=-1.0)


# --- the exact cache -----------------------------------------------------------------------------


async def test_exact_concurrent_stores_share_commits_and_read_their_writes(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    cache = ExactCache(engine, clock=clock)
    keys = [keys_for(f"question number {i}") for i in range(50)]

    async def store_then_read(i: int) -> bool:
        stored = await cache.put(keys[i], completion(f"answer {i}"), model_version="v")
        hit = await cache.get(keys[i].exact, model_version="v")  # visible as soon as put returns
        return stored and hit is not None and f"answer {i}".encode() in hit.body

    assert all(await asyncio.gather(*(store_then_read(i) for i in range(50))))
    assert cache.writer.rows == 50 and cache.writer.writes <= 2  # one or two commits for 50 stores
    async with engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(ExactCacheEntry))).scalar_one() == 50
    assert (await cache.stats()).entries == 50


async def test_exact_a_key_stored_twice_in_one_batch_keeps_the_later_answer(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    cache = ExactCache(engine, clock=clock)
    k = keys_for("same question")
    assert all(await asyncio.gather(*(cache.put(k, completion(f"take {i}"), model_version="v") for i in range(3))))
    hit = await cache.get(k.exact, model_version="v")
    assert hit is not None and b"take 2" in hit.body and cache.writer.writes == 1


async def test_exact_a_failing_row_does_not_lose_the_others_nor_raise(
    engine: AsyncEngine, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    cache = ExactCache(engine, clock=clock)
    keys = [keys_for(f"good question {i}") for i in range(5)]
    bad = keys_for("bad question")
    # a row the database driver refuses (a tenant that is not a string): its batch fails
    bad = RequestKeys(exact=bad.exact, scope=bad.scope, query=bad.query, tenant=object(),  # type: ignore[arg-type]
                      model=bad.model)
    with caplog.at_level(logging.WARNING, logger="caches.exact"):
        results = await asyncio.gather(
            *(cache.put(k, completion("fine"), model_version="v") for k in keys[:3]),
            cache.put(bad, completion("never"), model_version="v"),
            *(cache.put(k, completion("fine"), model_version="v") for k in keys[3:]),
        )
    assert results == [True, True, True, False, True, True]
    assert "store failed" in caplog.text
    assert cache.writer.failed_batches == 1
    for k in keys:
        assert await cache.get(k.exact, model_version="v") is not None
    assert await cache.get(bad.exact, model_version="v") is None


async def test_exact_a_full_write_queue_sheds_the_store(engine: AsyncEngine, clock: FakeClock) -> None:
    cache = ExactCache(engine, ExactCacheConfig(max_queued_writes=2, write_window_s=0.01), clock=clock)
    keys = [keys_for(f"question {i}") for i in range(3)]
    results = await asyncio.gather(*(cache.put(k, completion("a"), model_version="v") for k in keys))
    assert results == [True, True, False] and cache.writebacks_shed == 1
    assert await cache.get(keys[2].exact, model_version="v") is None


# --- the semantic cache --------------------------------------------------------------------------


@pytest.fixture
async def semantic(engine: AsyncEngine, embedder) -> AsyncIterator[SemanticCache]:  # noqa: ANN001 - session fixture
    cache = SemanticCache(engine, embedder)
    await cache.start()
    yield cache
    await cache.aclose()


async def test_semantic_concurrent_stores_share_commits_and_read_their_writes(
    semantic: SemanticCache, engine: AsyncEngine
) -> None:
    questions = [f"What is the capital city of country number {i}?" for i in range(24)]
    vectors = await semantic.embed(questions)

    async def store_then_read(i: int) -> bool:
        k = keys_for(questions[i])
        stored = await semantic.put(k, completion(f"capital {i}"), model_version="v", vector=vectors[i])
        hit = await semantic.get(k, model_version="v", vector=vectors[i])  # searchable as soon as put returns
        return stored and hit is not None and f"capital {i}".encode() in hit.body

    assert all(await asyncio.gather(*(store_then_read(i) for i in range(24))))
    assert semantic.writer.rows == 24 and semantic.writer.writes <= 2
    assert semantic.index is not None and len(semantic.index) == 24
    async with engine.connect() as conn:
        ids = set((await conn.execute(select(SemanticCacheEntry.id))).scalars().all())
    assert ids == set(semantic.index.ids())


async def test_semantic_one_question_answered_two_ways_in_one_batch_is_contested(
    semantic: SemanticCache, engine: AsyncEngine
) -> None:
    k = keys_for("What is the population of Paris?")
    (vector,) = await semantic.embed([k.query or ""])
    results = await asyncio.gather(
        semantic.put(k, completion("2.1 million"), model_version="v", vector=vector),
        semantic.put(k, completion("about 2 million"), model_version="v", vector=vector),
    )
    assert results == [True, True] and semantic.writer.writes == 1
    async with engine.connect() as conn:
        rows = (await conn.execute(select(SemanticCacheEntry.answer_sha256))).scalars().all()
    assert rows == [CONTESTED]  # as when the two answers are stored one after the other
    assert await semantic.get(keys_for("What's the population of Paris?"), model_version="v") is None

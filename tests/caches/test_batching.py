"""The request path of the semantic cache: micro-batched embeddings, the lookup deadline, write-backs
that reuse the lookup's vector and are shed first. Real embedding model, real SQLite; the only
stand-in is a wrapper that holds the model's forward until the test releases it (a slow embedder
on demand, so nothing here depends on timing)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence

import numpy as np
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from caches.batching import DeadlineExpired, EmbeddingBatcher, QueueFull
from caches.config import SemanticCacheConfig
from caches.embedder import EmbedderConfig, SentenceTransformerEmbedder
from caches.keys import RequestKeys, request_keys
from caches.models import SemanticCacheEntry
from caches.semantic import SemanticCache
from tests.caches.helpers import chat_body, completion

QUESTIONS = [
    "What is the capital of France?",
    "hi",
    "",
    "Explain, step by step and with an example, how a hash map resolves collisions with open addressing.",
    "Write a SQL query that selects users older than 30 and orders them by signup date.",
    "¿Cuál es la montaña más alta de América del Sur?",
    "x = [i ** 2 for i in range(10) if i % 3 == 0]  # what does this print?",
    "\x00\x01 binary junk \ufffd\u202e 🙂" * 20,
]


def keys_for(question: str) -> RequestKeys:
    return request_keys(chat_body(question), model="small", tenant="acme")


class HeldEmbedder:
    """The real embedder behind a gate: each forward waits until ``release()``; records every batch."""

    def __init__(self, inner: SentenceTransformerEmbedder) -> None:
        self.inner = inner
        self.gate = threading.Event()
        self.entered = threading.Event()  # a forward has started (and is waiting on the gate)
        self.batches: list[list[str]] = []

    @property
    def dim(self) -> int:
        return self.inner.dim

    def release(self) -> None:
        self.gate.set()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.batches.append(list(texts))
        self.entered.set()
        if not self.gate.wait(60):
            raise RuntimeError("the test never released the embedder")
        return self.inner.embed(texts)

    def embedded(self, text: str) -> int:
        return sum(batch.count(text) for batch in self.batches)


@pytest.fixture(scope="module")
def float32_embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(EmbedderConfig(dtype="float32", memo_size=0))


async def _run(fn: Callable, texts: list[str]) -> np.ndarray:
    return await asyncio.to_thread(fn, texts)


async def test_micro_batched_vectors_equal_one_at_a_time_vectors(float32_embedder) -> None:
    batcher = EmbeddingBatcher(float32_embedder.embed, _run, window_s=0.002, max_batch=64, memo_size=0)
    # submitted in one go, before the batcher's task runs: they share one forward
    futures = [batcher.submit(q) for q in QUESTIONS]
    batched = np.stack(await asyncio.gather(*futures))
    assert batcher.forwards == 1 and batcher.embedded == len(QUESTIONS)
    alone = np.stack([float32_embedder.embed([q])[0] for q in QUESTIONS])
    assert batched.shape == alone.shape == (len(QUESTIONS), float32_embedder.dim)
    assert np.abs(batched - alone).max() <= 1e-5


async def test_bfloat16_batches_agree_with_single_forwards_to_bf16_precision(embedder) -> None:
    """The default dtype on CPUs with native bf16: its matmuls are not batch-invariant, so a batched
    vector is not bitwise the single one (measured: cosine 0.99989 at worst, for the empty text, on a
    Xeon with AMX); it stays far closer than any similarity threshold can resolve."""
    batcher = EmbeddingBatcher(embedder.embed, _run, max_batch=64, memo_size=0)
    batched = np.stack(await asyncio.gather(*[batcher.submit(q) for q in QUESTIONS]))
    alone = np.stack([embedder.embed([q])[0] for q in QUESTIONS])
    cosines = (batched * alone).sum(axis=1)
    assert cosines.min() >= 0.9995


async def test_a_text_in_flight_is_joined_and_its_vector_memoised(embedder) -> None:
    held = HeldEmbedder(embedder)
    batcher = EmbeddingBatcher(held.embed, _run, max_batch=4)
    first = batcher.submit("What is the capital of France?")
    second = batcher.submit("What is the capital of France?", "store")  # the same text: joined
    assert second is first
    held.release()
    vector = await first
    assert held.embedded("What is the capital of France?") == 1
    assert batcher.cached("What is the capital of France?") is vector
    assert await batcher.submit("What is the capital of France?", "store") is vector  # memoised: no forward
    assert len(held.batches) == 1


async def test_lookups_go_first_and_stores_are_shed_when_their_queue_is_full(embedder) -> None:
    held = HeldEmbedder(embedder)
    batcher = EmbeddingBatcher(held.embed, _run, window_s=0.0, max_batch=1, max_lookups=2, max_stores=1)
    running = batcher.submit("lookup running")
    await asyncio.to_thread(held.entered.wait, 30)  # its forward holds the embedder
    store = batcher.submit("store queued", "store")
    with pytest.raises(QueueFull):
        batcher.submit("store shed", "store")  # the store queue is full: shed
    later = [batcher.submit("lookup a"), batcher.submit("lookup b")]  # lookups are still taken
    with pytest.raises(QueueFull):
        batcher.submit("lookup c")
    held.release()
    await asyncio.gather(running, store, *later)
    assert held.batches == [["lookup running"], ["lookup a"], ["lookup b"], ["store queued"]]


async def test_a_failed_forward_fails_its_waiters_and_the_next_one_runs(embedder) -> None:
    calls = []

    def flaky(texts: list[str]) -> np.ndarray:
        calls.append(texts)
        if len(calls) == 1:
            raise RuntimeError("embedding model crashed")
        return embedder.embed(texts)

    batcher = EmbeddingBatcher(flaky, _run)
    with pytest.raises(RuntimeError, match="crashed"):
        await batcher.submit("one")
    assert batcher.cached("one") is None
    assert (await batcher.submit("one")).shape == (embedder.dim,)


@pytest.fixture
async def make_cache(sqlite_engine: AsyncEngine) -> AsyncIterator[Callable[..., SemanticCache]]:
    made: list[SemanticCache] = []

    def factory(emb, **config) -> SemanticCache:
        cache = SemanticCache(sqlite_engine, emb, SemanticCacheConfig(verify=False, **config))
        made.append(cache)
        return cache

    yield factory
    for cache in made:
        await cache.aclose()


async def _rows(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(SemanticCacheEntry))).scalar_one())


async def test_a_slow_embedder_is_a_counted_miss_and_the_write_back_reuses_its_vector(
    make_cache, embedder, sqlite_engine: AsyncEngine
) -> None:
    held = HeldEmbedder(embedder)
    cache = make_cache(held, lookup_deadline_s=0.05)
    held.release()
    await cache.put(keys_for("Which ocean is the largest?"), completion("Pacific"), model_version="v")
    for _ in range(3000):  # the write-back's forward may still be running on a loaded machine: let it finish first
        if held.embedded("Which ocean is the largest?"):
            break
        await asyncio.sleep(0.01)
    held.gate.clear()
    held.entered.clear()
    q = "What is the tallest mountain in Europe?"
    skips: list[str] = []
    hit = await cache.get(keys_for(q), model_version="v", arrived=time.perf_counter(), on_skip=skips.append)
    assert hit is None and skips == ["deadline"]
    assert cache.skipped == {"deadline": 1}
    await asyncio.to_thread(held.entered.wait, 30)
    assert held.batches[-1] == [q]  # its forward goes on (held) after the lookup gave up
    held.release()
    # the write-back of the same question joins (or finds memoised) the lookup's forward
    assert await cache.put(keys_for(q), completion("Elbrus"), model_version="v") is True
    assert held.embedded(q) == 1
    assert await _rows(sqlite_engine) == 2
    # with time to spare, the same lookup hits (its vector is memoised now)
    hit = await cache.get(keys_for(q), model_version="v", arrived=time.perf_counter())
    assert hit is not None and held.embedded(q) == 1


async def test_a_lookup_past_its_deadline_does_not_embed_at_all(make_cache, embedder) -> None:
    held = HeldEmbedder(embedder)
    held.release()
    cache = make_cache(held, lookup_deadline_s=0.025)
    await cache.put(keys_for("Which ocean is the largest?"), completion("Pacific"), model_version="v")
    held.batches.clear()
    skips: list[str] = []
    hit = await cache.get(keys_for("Which river is the longest?"), model_version="v",
                          arrived=time.perf_counter() - 1.0, on_skip=skips.append)  # arrived a second ago
    assert hit is None and skips == ["late"] and held.batches == []  # the proxy was behind, not the model


async def test_full_lookup_queue_too_long_queries_and_embedder_errors_are_counted_misses(
    make_cache, embedder
) -> None:
    held = HeldEmbedder(embedder)
    held.release()
    cache = make_cache(held, lookup_deadline_s=30.0, max_queued_lookups=1, max_batch=1, batch_window_s=0.0,
                       max_query_chars=200)
    await cache.put(keys_for("Which ocean is the largest?"), completion("Pacific"), model_version="v")
    held.gate.clear()
    held.entered.clear()
    now = time.perf_counter
    skips: list[str] = []
    first = asyncio.ensure_future(cache.get(keys_for("first question"), model_version="v", arrived=now()))
    await asyncio.to_thread(held.entered.wait, 30)  # "first question" holds the embedder
    second = asyncio.ensure_future(cache.get(keys_for("second question"), model_version="v", arrived=now()))
    await asyncio.sleep(0)
    while cache.batcher.pending("lookup") < 1:  # "second question" waits in the queue
        await asyncio.sleep(0.001)
    assert await cache.get(keys_for("third question"), model_version="v", arrived=now(),
                           on_skip=skips.append) is None
    assert await cache.get(keys_for("long " * 100), model_version="v", arrived=now(),
                           on_skip=skips.append) is None
    assert held.embedded("long " * 100) == 0  # a too-long query is never embedded
    held.release()
    assert await first is None and await second is None
    assert skips == ["queue_full", "too_long"]

    broken = make_cache(_Broken(embedder), lookup_deadline_s=30.0)  # same database: the scope has a row
    assert await broken.start() == 1
    assert await broken.get(keys_for("any"), model_version="v", arrived=now(), on_skip=skips.append) is None
    assert skips[-1] == "error" and broken.skipped == {"error": 1}


class _Broken:
    def __init__(self, inner: SentenceTransformerEmbedder) -> None:
        self.dim = inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise RuntimeError("embedding model crashed")


async def test_write_backs_are_shed_when_the_store_queue_is_full(
    make_cache, embedder, sqlite_engine: AsyncEngine
) -> None:
    held = HeldEmbedder(embedder)
    held.release()
    cache = make_cache(held, max_queued_stores=1, max_batch=1, batch_window_s=0.0)
    await cache.put(keys_for("Which ocean is the largest?"), completion("Pacific"), model_version="v")
    held.gate.clear()
    held.entered.clear()
    busy = asyncio.ensure_future(cache.get(keys_for("a lookup in progress"), model_version="v",
                                           arrived=time.perf_counter()))
    await asyncio.to_thread(held.entered.wait, 30)
    queued = asyncio.ensure_future(cache.put(keys_for("stored later"), completion("1"), model_version="v"))
    while cache.batcher.pending("store") < 1:
        await asyncio.sleep(0.001)
    # the store queue is full: this write-back is dropped at once, without waiting for the embedder
    assert await cache.put(keys_for("shed"), completion("2"), model_version="v") is False
    assert cache.writebacks_shed == 1 and held.embedded("shed") == 0
    held.release()
    assert await queued is True and await busy is None
    assert await _rows(sqlite_engine) == 2


@pytest.mark.parametrize("query", [
    "",
    "   \n\t ",
    "\x00\xff\ud7ff junk \u0000" * 30,
    "word " * 50_000,
])
async def test_bad_queries_are_bounded_misses_and_leave_no_half_written_entry(
    make_cache, embedder, sqlite_engine: AsyncEngine, query: str
) -> None:
    cache = make_cache(embedder, lookup_deadline_s=30.0)
    await cache.start()
    keys = keys_for(query)
    assert await cache.get(keys, model_version="v", arrived=time.perf_counter()) is None
    stored = await cache.put(keys, completion("ok"), model_version="v")
    rows = await _rows(sqlite_engine)
    assert rows == (1 if stored else 0)
    if query.strip() and len(query) <= cache.config.max_query_chars:
        assert stored and len(cache.index) == 1  # the row and its vector, together
    else:
        assert not stored and len(cache.index) == 0


class ScriptedModel:
    """A scripted model (what the batching tests are not about): a forward costs 4 ms + 3 ms a text on a
    fake clock, which the batcher reads; every batch is recorded."""

    def __init__(self) -> None:
        self.now = 0.0
        self.batches: list[list[str]] = []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.batches.append(list(texts))
        self.now += 0.004 + 0.003 * len(texts)
        return np.full((len(texts), 4), 0.5, np.float32)

    async def run(self, fn: Callable, texts: list[str]) -> np.ndarray:
        return fn(texts)

    async def taught_batcher(self) -> EmbeddingBatcher:
        """A batcher that has learnt the cost from forwards of several sizes (its record cleared)."""
        batcher = EmbeddingBatcher(self.embed, self.run, window_s=0.0, max_batch=32, clock=lambda: self.now)
        for size in (1, 8, 2, 16, 4, 12, 1, 6) * 3:
            await asyncio.gather(*(batcher.submit(f"warm-up {size} {i} {len(self.batches)}") for i in range(size)))
        self.batches.clear()
        return batcher


async def test_batches_fit_their_deadlines_and_lookups_that_cannot_make_it_are_dropped_unembedded() -> None:
    model = ScriptedModel()
    batcher = await model.taught_batcher()
    assert abs(batcher.predicted_s(10) - 0.034) < 0.004
    batches = model.batches
    start = model.now
    hopeless = [batcher.submit(f"hopeless {i}", deadline=start + 0.001) for i in range(5)]  # 7 ms even alone
    timely = {f"timely {i}": batcher.submit(f"timely {i}", deadline=start + 0.025) for i in range(30)}
    kept = batcher.submit("wanted by a write-back", deadline=start + 0.001)
    assert batcher.submit("wanted by a write-back", "store") is kept  # a waiter without a deadline keeps it
    await asyncio.gather(*hopeless, *timely.values(), kept, return_exceptions=True)
    embedded = [text for batch in batches for text in batch]
    assert not any(text.startswith("hopeless") for text in embedded)
    assert all(isinstance(f.exception(), DeadlineExpired) for f in hopeless)
    assert "wanted by a write-back" in embedded and kept.exception() is None
    served = [text for text, future in timely.items() if future.exception() is None]
    assert 5 <= len(served) < 30  # as many as one forward can carry by the deadline; the rest dropped unembedded
    assert all(isinstance(timely[t].exception(), DeadlineExpired) for t in timely if t not in served)
    assert sorted(served) == sorted(t for t in embedded if t.startswith("timely"))
    first = batches[0]
    assert 0.004 + 0.003 * len(first) <= 0.025 + 0.002  # the first forward met its deadline
    assert batcher.expired == 5 + 30 - len(served)
    # after a quiet second, one lookup runs whatever the model predicts: a cost learnt under load is re-measured
    model.now += 2.0
    again = batcher.submit("after a pause", deadline=model.now + 0.001)
    assert (await again).shape == (4,) and batches[-1] == ["after a pause"]


async def test_a_lookup_with_a_deadline_goes_before_queued_texts_without_one() -> None:
    model = ScriptedModel()
    batcher = await model.taught_batcher()
    batches = model.batches
    # stored questions to embed on the side (no deadline), queued before a lookup that has 20 ms left
    fills = [batcher.submit(f"stored question {i}") for i in range(8)]
    lookup = batcher.submit("the query", deadline=model.now + 0.020)
    await asyncio.gather(lookup, *fills)
    assert "the query" in batches[0] and len(batches[0]) < 9  # the fills took only the rows its deadline left
    assert sorted(t for b in batches for t in b) == sorted(["the query", *(f"stored question {i}" for i in range(8))])

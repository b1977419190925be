"""Semantic cache with the real embedding model, real FAISS, real SQLite / PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace
from importlib import resources

import numpy as np
import pytest
from sqlalchemy import select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine

from caches.config import IndexConfig, SemanticCacheConfig
from caches.embedder import Embedder, SentenceTransformerEmbedder
from caches.keys import RequestKeys, request_keys
from caches.models import SemanticCacheEntry
from caches.semantic import SemanticCache
from caches.semantic_choice import CONTESTED, Candidate, answer_fingerprint, choose, close_threshold_of
from caches.semantic_stores import SemanticItem
from tests.caches.helpers import FakeClock, chat_body, completion

MakeCache = Callable[..., SemanticCache]


def keys_for(
    question: str, *, tenant: str = "acme", system: str = "You are a helpful assistant.", **params: object
) -> RequestKeys:
    return request_keys(chat_body(question, system=system, **params), model="small", tenant=tenant)


def answer(hit: object) -> str:
    assert hit is not None
    return json.loads(hit.body)["choices"][0]["message"]["content"]  # type: ignore[attr-defined]


@pytest.fixture
async def make_cache(
    sqlite_engine: AsyncEngine, embedder: SentenceTransformerEmbedder
) -> AsyncIterator[MakeCache]:
    made: list[SemanticCache] = []

    def factory(
        config: SemanticCacheConfig | None = None,
        *,
        engine: AsyncEngine | None = None,
        emb: Embedder | None = None,
        clock: Callable[[], float] = time.time,
    ) -> SemanticCache:
        cache = SemanticCache(engine or sqlite_engine, emb or embedder, config, clock=clock)
        made.append(cache)
        return cache

    yield factory
    for cache in made:
        await cache.aclose()


def held(cache: SemanticCache) -> int:
    """Entries the cache's index holds: with a vector, or stored without one (pending)."""
    assert cache.index is not None
    return len(cache.index.ids())


async def db_ids(engine: AsyncEngine) -> set[int]:
    async with engine.connect() as conn:
        return set((await conn.execute(select(SemanticCacheEntry.id))).scalars().all())


async def test_paraphrase_hits_and_unrelated_misses(make_cache: MakeCache) -> None:
    cache = make_cache()
    assert await cache.put(
        keys_for("How do I reverse a list in Python?"), completion("use reversed()"), model_version="v1"
    )
    hit = await cache.get(keys_for("How can I reverse a list in Python?"), model_version="v1")
    assert answer(hit) == "use reversed()"
    assert hit.kind == "semantic" and hit.similarity is not None and hit.similarity >= cache.config.threshold
    assert hit.matched_query == "How do I reverse a list in Python?"
    assert await cache.get(keys_for("How do I sort a dictionary by value?"), model_version="v1") is None
    # another upstream model version never hits
    assert await cache.get(keys_for("How can I reverse a list in Python?"), model_version="v2") is None


async def test_hits_only_within_the_same_scope(make_cache: MakeCache) -> None:
    cache = make_cache()
    await cache.put(keys_for("What is the refund policy?"), completion("30 days"), model_version="v")
    same = keys_for("What's the refund policy?")
    assert answer(await cache.get(same, model_version="v")) == "30 days"
    for other in (
        keys_for("What's the refund policy?", tenant="globex"),
        keys_for("What's the refund policy?", system="You are a pirate."),
        keys_for("What's the refund policy?", max_tokens=5),
        request_keys(chat_body("What's the refund policy?"), model="large", tenant="acme"),
    ):
        assert other.scope != same.scope
        assert await cache.get(other, model_version="v") is None


async def test_no_hard_negative_hits_through_the_cache(make_cache: MakeCache) -> None:
    data = json.loads(resources.files("benchmarks.caches").joinpath("data", "dev_hard_negatives.json").read_text("utf-8"))
    cache = make_cache()
    pairs = data["text_pairs"]
    stored = await cache.put_many(
        [SemanticItem(keys_for(p["stored"]), completion(str(i)), "v") for i, p in enumerate(pairs)]
    )
    assert stored == len({p["stored"] for p in pairs})
    query_vecs = await cache.embed([p["query"] for p in pairs])
    false_hits = []
    for p, vec in zip(pairs, query_vecs, strict=True):
        hit = await cache.get(keys_for(p["query"]), model_version="v", vector=vec)
        if hit is not None:
            false_hits.append((p["query"], hit.matched_query))
    assert false_hits == []
    # without verification the same cache does serve some of them: the check is doing the work
    loose = make_cache(SemanticCacheConfig(verify=False))
    hits = [
        await loose.get(keys_for(p["query"]), model_version="v", vector=v)
        for p, v in zip(pairs, query_vecs, strict=True)
    ]
    assert sum(h is not None for h in hits) >= 20


async def test_ambiguous_queries_miss(make_cache: MakeCache) -> None:
    cache = make_cache()
    await cache.put(keys_for("How do I reverse a list in Python?"), completion("A"), model_version="v")
    await cache.put(keys_for("How can I reverse a list in Python?"), completion("B"), model_version="v")
    assert await cache.get(keys_for("How would I reverse a list in Python?"), model_version="v") is None
    # the same answer in a response with another id, timestamp and usage is not ambiguous
    other = "You are terse."
    await cache.put(
        keys_for("How do I reverse a list in Python?", system=other), completion("A"), model_version="v"
    )
    same_answer = completion("A", id="chatcmpl-2", created=123, usage={"total_tokens": 9})
    await cache.put(
        keys_for("How can I reverse a list in Python?", system=other), same_answer, model_version="v"
    )
    hit = await cache.get(keys_for("How would I reverse a list in Python?", system=other), model_version="v")
    assert answer(hit) == "A"


def test_answer_fingerprint_ignores_response_metadata() -> None:
    a = completion("Paris", id="1", created=1).encode()
    b = completion("Paris", id="2", created=2, usage={"total_tokens": 3}).encode()
    assert answer_fingerprint(a) == answer_fingerprint(b)
    assert answer_fingerprint(a) != answer_fingerprint(completion("Lyon", id="1", created=1).encode())
    assert answer_fingerprint(b"not json") == answer_fingerprint(b"not json") != answer_fingerprint(b"other")


def test_choose_rules() -> None:
    c = [Candidate(1, 0.95, "Is Paris big?", "x"), Candidate(2, 0.94, "Is Paris large?", "y")]
    assert choose("Is Paris huge?", c, threshold=0.9, ambiguity_margin=0.02) is None
    assert choose("Is Paris huge?", c, threshold=0.9, ambiguity_margin=0.0).entry_id == 1  # type: ignore[union-attr]
    assert choose("Is Paris huge?", c, threshold=0.96, ambiguity_margin=0.0) is None
    # the closest candidate failing verification is never fallen through, whatever the margin
    c2 = [Candidate(1, 0.95, "Is Rome big?", "x"), Candidate(2, 0.94, "Is Paris large?", "y")]
    assert choose("Is Paris huge?", c2, threshold=0.9, ambiguity_margin=0.02) is None
    assert choose("Is Paris huge?", c2, threshold=0.9, ambiguity_margin=0.5) is None
    # ... unless it stores the same answer as the one that verifies
    same = [Candidate(1, 0.95, "Is Rome big?", "y"), Candidate(2, 0.94, "Is Paris large?", "y")]
    assert choose("Is Paris huge?", same, threshold=0.9, ambiguity_margin=0.02).entry_id == 2  # type: ignore[union-attr]
    # a contested entry never answers, and makes a close neighbour ambiguous
    contested = [Candidate(1, 0.95, "Is Paris big?", CONTESTED)]
    assert choose("Is Paris huge?", contested, threshold=0.9, ambiguity_margin=0.02) is None
    near = [Candidate(2, 0.95, "Is Paris large?", "y"), Candidate(1, 0.94, "Is Paris big?", CONTESTED)]
    assert choose("Is Paris huge?", near, threshold=0.9, ambiguity_margin=0.02) is None
    assert choose("Is Paris huge?", near, threshold=0.9, ambiguity_margin=0.0).entry_id == 2  # type: ignore[union-attr]


def test_close_candidates_may_score_lower_than_rewordings() -> None:
    # the same content words (a request frame differs): enough at the close threshold
    close = [Candidate(1, 0.80, "Tell me about tidal locking.", "x")]
    assert choose("Explain tidal locking.", close, threshold=0.9, ambiguity_margin=0.02) is None
    hit = choose("Explain tidal locking.", close, threshold=0.9, close_threshold=0.75, ambiguity_margin=0.02)
    assert hit is not None and hit.entry_id == 1
    # a rewording that verifies (other content words) still needs the threshold
    reworded = [Candidate(1, 0.80, "How many moons circle Jupiter?", "x")]
    assert choose("How many moons orbit Jupiter?", reworded, threshold=0.9, close_threshold=0.75,
                  ambiguity_margin=0.02) is None
    # a verified candidate just below the threshold with another answer still makes the query ambiguous
    between = [Candidate(1, 0.93, "Is Paris big?", "x"), Candidate(2, 0.915, "Is Paris large?", "y")]
    assert choose("Is Paris huge?", between, threshold=0.92, ambiguity_margin=0.02) is None
    assert choose("Is Paris huge?", between, threshold=0.92, ambiguity_margin=0.01).entry_id == 1  # type: ignore[union-attr]
    # and a close candidate below the close threshold misses
    assert choose("Explain tidal locking.", close, threshold=0.9, close_threshold=0.85, ambiguity_margin=0.02) is None
    # the factor is in cosine distance: a strict tenant's threshold stays strict
    assert close_threshold_of(0.90, 2.5) == pytest.approx(0.75)
    assert close_threshold_of(0.999, 2.5) == pytest.approx(0.9975)
    assert close_threshold_of(0.5, 3.0) == 0.0


async def test_restart_rebuilds_the_index_from_the_database(
    make_cache: MakeCache, sqlite_engine: AsyncEngine
) -> None:
    first = make_cache()
    questions = ["What is the capital of Japan?", "How tall is Mount Everest?", "Who painted the Mona Lisa?"]
    for i, q in enumerate(questions):
        await first.put(keys_for(q), completion(str(i)), model_version="v")
    await first.aclose()
    second = make_cache()
    assert await second.start() == 3
    assert second.index is not None and set(second.index.ids()) == await db_ids(sqlite_engine)
    assert (
        answer(await second.get(keys_for("Who was the painter of the Mona Lisa?"), model_version="v")) == "2"
    )
    # rows of another embedder are not loaded
    third = make_cache(SemanticCacheConfig(embedder_id="another-model"))
    assert await third.start() == 0


async def test_ttl_expiry_keeps_index_and_database_consistent(
    make_cache: MakeCache, sqlite_engine: AsyncEngine, clock: FakeClock
) -> None:
    cache = make_cache(SemanticCacheConfig(ttl_s=100), clock=clock)
    await cache.put(keys_for("What is the speed of light?"), completion("c"), model_version="v")
    await cache.put(
        keys_for("What is the boiling point of water?"), completion("100"), model_version="v", ttl_s=1000
    )
    clock.advance(101)
    assert await cache.get(keys_for("How fast is light?"), model_version="v") is None
    assert await cache.purge_expired() == 1
    assert (
        cache.index is not None
        and set(cache.index.ids()) == await db_ids(sqlite_engine)
        and len(cache.index) == 1
    )
    assert answer(await cache.get(keys_for("What's the boiling point of water?"), model_version="v")) == "100"


async def test_lru_eviction_removes_rows_and_vectors(
    make_cache: MakeCache, sqlite_engine: AsyncEngine, clock: FakeClock
) -> None:
    cfg = SemanticCacheConfig(max_entries=3, evict_fraction=0.0, recount_interval_s=0)
    cache = make_cache(cfg, clock=clock)
    qs = ["What is the capital of Peru?", "How many legs does a spider have?", "Who wrote Hamlet?"]
    for i, q in enumerate(qs):
        clock.advance(1)
        await cache.put(keys_for(q), completion(str(i)), model_version="v")
    clock.advance(1)
    assert answer(await cache.get(keys_for("What's the capital of Peru?"), model_version="v")) == "0"
    clock.advance(1)
    await cache.put(keys_for("What is the largest ocean?"), completion("3"), model_version="v")
    assert len(await db_ids(sqlite_engine)) == 3
    assert cache.index is not None and set(cache.index.ids()) == await db_ids(sqlite_engine)
    assert (
        await cache.get(keys_for("How many legs do spiders have?"), model_version="v") is None
    )  # evicted (LRU)
    assert await cache.get(keys_for("What's the capital of Peru?"), model_version="v") is not None


async def test_invalidation_removes_vectors(make_cache: MakeCache, sqlite_engine: AsyncEngine) -> None:
    cache = make_cache()
    ka = keys_for("What is the capital of Chile?", tenant="a")
    kb = keys_for("What is the capital of Chile?", tenant="b")
    kc = keys_for("Who discovered penicillin?", tenant="a", system="Answer briefly.")
    for k in (ka, kb, kc):
        await cache.put(k, completion("x"), model_version="v")
    assert held(cache) == 3
    hit = await cache.get(kb, model_version="v")
    assert hit is not None and await cache.delete(int(hit.entry_id)) == 1
    assert held(cache) == 2 and await cache.get(kb, model_version="v") is None
    assert await cache.delete_scope(kc.scope) == 1 and held(cache) == 1
    assert await cache.delete_model("small", tenant="b") == 0
    assert await cache.delete_tenant("a") == 1 and held(cache) == 0
    await cache.put(ka, completion("x"), model_version="v1")
    assert await cache.delete_model("small", keep_version="v1") == 0
    assert await cache.delete_model("small") == 1 and held(cache) == 0
    await cache.put(ka, completion("x"), model_version="v")
    assert await cache.clear() == 1 and held(cache) == 0 and await db_ids(sqlite_engine) == set()


async def test_replicas_sync_through_the_database(make_cache: MakeCache) -> None:
    a, b = make_cache(), make_cache()
    await b.start()
    await a.put(keys_for("What is the tallest building in the world?"), completion("Burj"), model_version="v")
    paraphrase = keys_for("Which building is the tallest in the world?")
    assert await b.get(paraphrase, model_version="v") is None  # not in b's index yet
    assert await b.sync() == 1
    assert answer(await b.get(paraphrase, model_version="v")) == "Burj"
    assert await a.clear() == 1
    assert await b.get(paraphrase, model_version="v") is None  # row gone: b drops its stale vector
    assert b.index is not None and len(b.index) == 0 and held(b) == 0


async def test_same_question_new_model_version_replaces_the_answer(
    make_cache: MakeCache, sqlite_engine: AsyncEngine
) -> None:
    cache = make_cache()
    k = keys_for("What is the capital of Kenya?")
    await cache.put(k, completion("old"), model_version="v1")
    await cache.put(k, completion("new"), model_version="v2")
    assert len(await db_ids(sqlite_engine)) == 1 and held(cache) == 1
    assert answer(await cache.get(k, model_version="v2")) == "new"
    assert await cache.get(k, model_version="v1") is None


@pytest.fixture(params=["sqlite", "postgresql"])
def any_engine(request: pytest.FixtureRequest) -> AsyncEngine:
    """A real SQLite file and the real PostgreSQL."""
    return request.getfixturevalue("sqlite_engine" if request.param == "sqlite" else "pg_engine")


async def test_a_question_answered_two_ways_is_contested(
    any_engine: AsyncEngine, make_cache: MakeCache, clock: FakeClock
) -> None:
    engine = any_engine
    cache = make_cache(SemanticCacheConfig(ttl_s=100.0), engine=engine, clock=clock)
    k = keys_for("What is the current price of one bitcoin in US dollars?")
    paraphrase = keys_for("Tell me the current price of one bitcoin in US dollars.")
    await cache.put(k, completion("42000"), model_version="v")
    assert answer(await cache.get(paraphrase, model_version="v")) == "42000"
    await cache.put(k, completion("42000", id="other-id"), model_version="v")  # same answer: still fine
    assert answer(await cache.get(paraphrase, model_version="v")) == "42000"
    await cache.put(k, completion("67500"), model_version="v")
    assert await cache.get(paraphrase, model_version="v") is None
    assert await cache.get(k, model_version="v") is None
    await cache.put(k, completion("42000"), model_version="v")  # stays contested
    assert await cache.get(paraphrase, model_version="v") is None
    # it also survives a restart (the mark is in the database)
    again = make_cache(SemanticCacheConfig(ttl_s=100.0), engine=engine, clock=clock)
    assert await again.get(paraphrase, model_version="v") is None
    # a new model version, or the contested row's expiry, starts afresh
    await cache.put(k, completion("70000"), model_version="v2")
    assert answer(await cache.get(k, model_version="v2")) == "70000"
    await cache.put(k, completion("71000"), model_version="v2")
    assert await cache.get(k, model_version="v2") is None
    clock.advance(101.0)
    await cache.put(k, completion("72000"), model_version="v2")
    assert answer(await cache.get(k, model_version="v2")) == "72000"


async def test_put_many_marks_a_question_repeated_with_different_answers(make_cache: MakeCache) -> None:
    cache = make_cache()
    k, other = (
        keys_for("Who is the current chief executive of the company?"),
        keys_for("Who founded the company?"),
    )
    stored = await cache.put_many(
        [
            SemanticItem(k, completion("Alice"), "v"),
            SemanticItem(other, completion("Carol"), "v"),
            SemanticItem(k, completion("Bob"), "v"),
        ]
    )
    assert stored == 2
    assert await cache.get(k, model_version="v") is None
    assert answer(await cache.get(other, model_version="v")) == "Carol"


async def test_refused_and_ineligible_entries(
    make_cache: MakeCache, caplog: pytest.LogCaptureFixture
) -> None:
    cache = make_cache(SemanticCacheConfig(max_entry_bytes=400, max_query_chars=200))
    with caplog.at_level(logging.WARNING, logger="caches.semantic"):
        assert not await cache.put(
            keys_for("Tell me a long story"), completion("x" * 1000), model_version="v"
        )
    assert "oversized" in caplog.text
    long_q = "Summarise the following text. " + "The quarterly report lists revenue. " * 10
    assert not await cache.put(
        keys_for(long_q), completion("ok"), model_version="v"
    )  # too long to embed safely
    assert await cache.get(keys_for(long_q), model_version="v") is None
    image = request_keys(
        {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "u"}}]}]},
        model="small",
        tenant="acme",
    )
    assert not await cache.put(image, completion("ok"), model_version="v")


async def test_corrupt_entry_is_a_miss(
    make_cache: MakeCache, sqlite_engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    cache = make_cache()
    k = keys_for("What is the capital of Norway?")
    await cache.put(k, completion("Oslo"), model_version="v")
    async with sqlite_engine.begin() as conn:
        await conn.execute(update(SemanticCacheEntry).values(response=b'{"choices": []}'))
    with caplog.at_level(logging.WARNING, logger="caches.semantic"):
        assert await cache.get(k, model_version="v") is None
    assert "corrupt" in caplog.text and await db_ids(sqlite_engine) == set()
    assert cache.index is not None and len(cache.index) == 0


class FailingEmbedder:
    dim = 384

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise RuntimeError("embedding model crashed")


class GatedEmbedder:
    """Delegates to the real model once ``gate`` is set (by the event loop); records the threads
    it ran on. Run on the event loop's own thread, it would wait for a gate the blocked loop can
    never set, and fail after ``timeout``."""

    def __init__(self, inner: SentenceTransformerEmbedder, timeout: float = 30.0) -> None:
        self.inner, self.timeout, self.threads = inner, timeout, set[int]()
        self.gate, self.started = threading.Event(), threading.Event()
        self.timed_out = False

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.threads.add(threading.get_ident())
        self.started.set()
        if not self.gate.wait(self.timeout):
            self.timed_out = True  # (the cache degrades to a miss: the test checks this flag)
            raise RuntimeError("the event loop never ran while the embedding waited")
        return self.inner.embed(texts)


async def test_embedder_failure_degrades(make_cache: MakeCache, caplog: pytest.LogCaptureFixture) -> None:
    cache = make_cache(emb=FailingEmbedder())
    with caplog.at_level(logging.WARNING, logger="caches.semantic"):
        # a write-back needs no model: the entry waits for its vector
        assert await cache.put(keys_for("anything at all"), completion("x"), model_version="v") is True
        assert await cache.get(keys_for("anything at all"), model_version="v") is None
        assert cache.index is not None and cache.index.gate is not None
        assert cache.index.gate.pending_count() == 1  # still pending: a later lookup tries again
        eager = make_cache(SemanticCacheConfig(vectors_on_demand=False), emb=FailingEmbedder())
        assert await eager.put(keys_for("anything"), completion("x"), model_version="v") is False
    assert caplog.text.count("embedding model crashed") == 2


async def test_database_failure_degrades(
    make_cache: MakeCache, sqlite_engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    cache = make_cache()
    k = keys_for("What is the capital of Egypt?")
    await cache.put(k, completion("Cairo"), model_version="v")
    async with sqlite_engine.begin() as conn:
        await conn.execute(text("DROP TABLE thrifty_semantic_cache"))
    with caplog.at_level(logging.WARNING, logger="caches.semantic"):
        assert await cache.get(k, model_version="v") is None
        assert await cache.put(k, completion("Cairo"), model_version="v") is False
    assert "lookup failed" in caplog.text and "store failed" in caplog.text


async def test_embedding_does_not_block_the_event_loop(
    make_cache: MakeCache, embedder: SentenceTransformerEmbedder
) -> None:
    gated = GatedEmbedder(embedder)
    cache = make_cache(emb=gated)
    await cache.start()

    async def open_the_gate() -> bool:
        """Runs on the loop: it can only open the gate if the loop is free while the model waits."""
        while not gated.started.is_set():
            await asyncio.sleep(0.005)
        gated.gate.set()
        return True

    await cache.put(keys_for("What is the capital of Italy?"), completion("Rome"), model_version="v")
    opener = asyncio.create_task(open_the_gate())
    await cache.get(keys_for("What is the capital of Italy?"), model_version="v")
    assert await opener
    assert not gated.timed_out and gated.threads and threading.get_ident() not in gated.threads


async def test_on_postgresql(pg_engine: AsyncEngine, embedder: SentenceTransformerEmbedder) -> None:
    cache = SemanticCache(pg_engine, embedder)
    try:
        await cache.put(
            keys_for("How do I make cold brew coffee?"), completion("steep 12h"), model_version="v"
        )
        await cache.put(
            keys_for("How do I make cold brew coffee?"), completion("steep 16h"), model_version="v2"
        )
        hit = await cache.get(keys_for("How can I make cold brew coffee?"), model_version="v2")
        assert answer(hit) == "steep 16h"
        restarted = SemanticCache(pg_engine, embedder)
        assert await restarted.start() == 1
        assert (
            answer(await restarted.get(keys_for("How can I make cold brew coffee?"), model_version="v2"))
            == "steep 16h"
        )
        await restarted.aclose()
        assert await cache.delete_scope(keys_for("x").scope) == 1
        assert cache.index is not None and len(cache.index) == 0
    finally:
        await cache.aclose()


async def test_maintenance_retrains_a_grown_ivf_scope(make_cache: MakeCache) -> None:
    cfg = SemanticCacheConfig(index=IndexConfig(ivf_min_size=300, nprobe=64, retrain_growth=2.0))
    cache = make_cache(cfg)
    rng = np.random.default_rng(7)
    vecs = rng.standard_normal((700, 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    k = keys_for("seed question")

    def item(i: int) -> SemanticItem:
        return SemanticItem(replace(k, query=f"synthetic question {i}"), completion(str(i)), "v", vecs[i])

    await cache.put_many([item(i) for i in range(300)])
    assert cache.index is not None and cache.index.partition_kind(k.scope) == "ivf"
    assert cache.index.trained_size(k.scope) == 300
    await cache.put_many([item(i) for i in range(300, 700)])
    assert cache.index.trained_size(k.scope) == 300
    await cache.maintenance()
    assert cache.index.trained_size(k.scope) == 700 and cache.index.scope_size(k.scope) == 700
    hit = await cache.get(replace(k, query="synthetic question 650"), model_version="v", vector=vecs[650])
    assert answer(hit) == "650"



# --- vectors on demand: a miss proved by verification's keys costs no embedding ---------------------

async def stored_dims(engine: AsyncEngine) -> list[int]:
    async with engine.connect() as conn:
        rows = await conn.execute(select(SemanticCacheEntry.embedding_dim).order_by(SemanticCacheEntry.id))
        return list(rows.scalars().all())


async def test_a_miss_that_no_entry_could_verify_runs_no_forward(make_cache: MakeCache) -> None:
    cache = make_cache()
    assert await cache.put(keys_for("What is 17 * 23 in Python?"), completion("391"), model_version="v")
    for query in ("What is 17 * 24 in Python?", "Is 17 * 23 not computed in Python?", "Who wrote Hamlet?"):
        assert await cache.get(keys_for(query), model_version="v", arrived=time.perf_counter()) is None
    assert cache.proved_misses == 3 and cache.skipped == {}
    assert cache.batcher.forwards == 0  # neither the write-back nor the three lookups ran the model


async def test_a_write_back_without_a_vector_is_embedded_by_the_first_query_that_could_match(
    any_engine: AsyncEngine, make_cache: MakeCache
) -> None:
    cache = make_cache(engine=any_engine)
    assert await cache.put(keys_for("How do I reverse a list in Python?"), completion("reversed()"), model_version="v")
    assert await stored_dims(any_engine) == [0] and cache.batcher.forwards == 0
    hit = await cache.get(keys_for("How can I reverse a list in Python?"), model_version="v")  # no deadline
    assert answer(hit) == "reversed()"
    # the query and the stored question shared one forward
    assert (cache.batcher.forwards, cache.batcher.embedded, cache.filled_on_demand) == (1, 2, 1)
    await cache.aclose()  # waits for the vector to be recorded in its row
    assert await stored_dims(any_engine) == [384]
    again = make_cache(engine=any_engine)
    assert await again.start() == 1 and again.index is not None and len(again.index) == 1


async def test_entries_without_vectors_survive_a_restart_and_reach_other_replicas(
    make_cache: MakeCache
) -> None:
    first = make_cache()
    await first.put(keys_for("What is the tallest building in the world?"), completion("Burj"), model_version="v")
    await first.aclose()
    second, third = make_cache(), make_cache()
    await third.start()
    assert await second.start() == 1
    assert second.index is not None and second.index.gate is not None and second.index.gate.pending_count() == 1
    paraphrase = keys_for("Which building is the tallest in the world?")
    assert answer(await second.get(paraphrase, model_version="v")) == "Burj"
    await second.aclose()  # waits for the vector it computed to be recorded in the row
    writer = make_cache()
    await writer.put(keys_for("How old is the tallest tree on Earth?"), completion("old"), model_version="v")
    # the row written above (without a vector) and the vector second recorded for the first row
    assert await third.sync() == 2 and third.index is not None and len(third.index) == 1
    assert third.index.gate is not None and third.index.gate.pending_count() == 1  # only the new row
    assert answer(await third.get(paraphrase, model_version="v")) == "Burj"
    assert await writer.clear() == 2
    await third.sync(reconcile=True)
    assert held(third) == 0


async def test_a_write_back_reuses_its_lookups_vector_and_eager_mode_embeds(make_cache: MakeCache,
                                                                               sqlite_engine: AsyncEngine) -> None:
    cache = make_cache()
    await cache.put(keys_for("What is the capital of France?"), completion("Paris"), model_version="v")
    spain = keys_for("What is the capital of Spain?")
    assert await cache.get(spain, model_version="v") is None  # could match: embedded
    forwards = cache.batcher.forwards
    await cache.put(spain, completion("Madrid"), model_version="v")
    assert cache.batcher.forwards == forwards and (await stored_dims(sqlite_engine))[-1] == 384
    eager = make_cache(SemanticCacheConfig(vectors_on_demand=False))
    await eager.put(keys_for("Who painted the Mona Lisa?"), completion("Leonardo"), model_version="v")
    assert eager.batcher.forwards == 1 and (await stored_dims(sqlite_engine))[-1] == 384


async def test_a_large_cache_computes_its_gate_keys_after_start_up(make_cache: MakeCache,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    first = make_cache()
    questions = [f"What is the population of district {n} of the capital?" for n in range(6)]
    for n, question in enumerate(questions):
        await first.put(keys_for(question), completion(str(n)), model_version="v")
    await first.aclose()
    monkeypatch.setattr("caches.semantic_loading._KEYS_AT_START", 2)  # "large": more rows than start() keys itself
    second = make_cache()
    assert await second.start() == 6
    gate = second.index.gate if second.index is not None else None
    assert gate is not None and second._warmup is not None  # noqa: SLF001 - the background task under test
    await second._warmup  # noqa: SLF001
    assert gate.complete and gate.pending_count() == 6
    assert await second.get(keys_for("Who wrote Hamlet?"), model_version="v") is None
    assert second.proved_misses == 1 and second.batcher.forwards == 0
    paraphrase = keys_for("What's the population of the capital's district 4?")
    assert answer(await second.get(paraphrase, model_version="v")) == "4"


async def test_a_question_stored_again_without_a_vector_keeps_the_vector_its_row_has(
    any_engine: AsyncEngine, make_cache: MakeCache
) -> None:
    cache = make_cache(engine=any_engine)
    question = keys_for("How do I reverse a list in Python?")
    assert await cache.get(question, model_version="v") is None  # empty scope: nothing embedded
    await cache.put(question, completion("reversed()"), model_version="v",
                    vector=(await cache.embed([question.query or ""]))[0])
    assert await stored_dims(any_engine) == [384]
    cache.batcher.forget()  # its vector is no longer memoised: the next write-back has none
    await cache.put(question, completion("reversed()"), model_version="v")
    assert await stored_dims(any_engine) == [384]  # the upsert kept the row's vector
    assert cache.index is not None and cache.index.gate is not None and cache.index.gate.pending_count() == 0
    again = make_cache(engine=any_engine)
    assert await again.start() == 1 and again.index is not None and len(again.index) == 1


async def test_a_cancelled_lookup_does_not_cancel_the_forward_another_lookup_waits_for(
    make_cache: MakeCache, embedder: SentenceTransformerEmbedder
) -> None:
    gated = GatedEmbedder(embedder)
    cache = make_cache(SemanticCacheConfig(lookup_deadline_s=30.0), emb=gated)
    stored = "How do I bake sourdough bread at home?"
    await cache.put(keys_for(stored), completion("slowly"), model_version="v")  # no vector yet
    paraphrase = asyncio.create_task(cache.get(keys_for("How can I bake sourdough bread at home?"),
                                               model_version="v", arrived=time.perf_counter()))
    await asyncio.sleep(0.05)  # its forward (the paraphrase and the stored question) waits at the gate
    same = asyncio.create_task(cache.get(keys_for(stored), model_version="v"))  # joins that forward
    await asyncio.sleep(0.05)
    same.cancel()  # e.g. its client went away
    await asyncio.sleep(0.01)
    gated.gate.set()
    assert answer(await paraphrase) == "slowly"
    with pytest.raises(asyncio.CancelledError):
        await same


class SlowEmbedder:
    """The real embedder, with ``delay_s`` more per forward (a CPU too slow for the lookup deadline)."""

    def __init__(self, inner: SentenceTransformerEmbedder, delay_s: float) -> None:
        self.inner, self.delay_s = inner, delay_s

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts):
        time.sleep(self.delay_s)
        return self.inner.embed(texts)


async def test_an_embedder_slower_than_the_deadline_is_named_in_one_warning(
    make_cache: MakeCache, embedder: SentenceTransformerEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    cache = make_cache(SemanticCacheConfig(lookup_deadline_s=0.02), emb=SlowEmbedder(embedder, 0.1))
    await cache.put(keys_for("How do I bake sourdough bread at home?"), completion("slowly"), model_version="v",
                    vector=(await cache.embed(["How do I bake sourdough bread at home?"]))[0])
    questions = [f"How can I bake {kind} bread at home?" for kind in ("rye", "corn", "oat", "spelt")]
    with caplog.at_level(logging.WARNING, logger="caches.semantic"):
        for question in questions:  # each given up at the deadline; the first forward teaches the cost
            assert await cache.get(keys_for(question), model_version="v", arrived=time.perf_counter()) is None
            await asyncio.sleep(0.15)  # the forward it left behind finishes
    assert cache.skipped.get("deadline", 0) == len(questions)
    warnings = [r.getMessage() for r in caplog.records if "lookup deadline" in r.getMessage()]
    assert len(warnings) == 1 and "lookup_deadline_ms" in warnings[0], warnings


_TRACEBACK = ("```\n2025-03-11 04:00:09 ERROR invoice-export: job failed with exit code 1\n"
              "Traceback (most recent call last):\n  File \"/srv/billing/run.py\", line 88, in <module>\n    main()\n"
              "  File \"/srv/billing/run.py\", line 41, in main\n    rows = export_rows(load_invoices(args.month))\n"
              "  File \"/srv/billing/export.py\", line 19, in export_rows\n"
              "    total = sum(r[\"amount\"] for r in rows) / len(rows)\nZeroDivisionError: division by zero\n```")


async def test_another_task_on_the_same_material_misses_and_a_reworded_one_hits(make_cache: MakeCache) -> None:
    """The shape of a pair of the opened set v27: verification reads the other task as a rewording, and the shared
    traceback makes the whole texts embed alike (0.97)."""
    def asking(task: str) -> RequestKeys:
        return keys_for(f"Here is the traceback:\n{_TRACEBACK}\n\n{task}")

    report = "Write a short bug report for this crash."
    other = asking("Rewrite the failing function so it logs a warning instead of crashing.")
    reworded = asking("Can you write a short bug report for this crash?")
    cache = make_cache()
    await cache.put(asking(report), completion("the month had no invoices"), model_version="v")
    assert await cache.get(other, model_version="v") is None
    assert answer(await cache.get(reworded, model_version="v")) == "the month had no invoices"
    # without the check the other task is served
    loose = make_cache(SemanticCacheConfig(reworded_part_threshold=None))
    await loose.put(asking(report), completion("the month had no invoices"), model_version="v")
    assert await loose.get(other, model_version="v") is not None


_MEAN = ('```python\ndef mean(xs):\n    """Return the average of the numbers.\n\n    Raises ZeroDivisionError on an empty '
         'list.\n    """\n    return sum(xs) / len(xs)\n\nprint(mean([2, 4, 9]))\n```')


async def test_a_request_about_the_same_material_in_other_words_hits(make_cache: MakeCache) -> None:
    """Verification refuses the whole texts (the docstring's words beside the request's); the two requests alone
    pass it and embed close enough, so the cached answer is served; a request for another task is not."""
    def about(request: str) -> RequestKeys:
        return keys_for(f"{request}\n\n{_MEAN}")

    cache = make_cache()
    await cache.put(about("Describe what this code does:"), completion("it averages"), model_version="v")
    assert answer(await cache.get(about("Explain what this code is doing:"), model_version="v")) == "it averages"
    assert await cache.get(about("Add type hints to this code:"), model_version="v") is None
    assert await cache.get(about("Translate the docstring of this code into French:"), model_version="v") is None

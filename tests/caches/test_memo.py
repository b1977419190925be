"""The in-process hit memo: bounds, trust period, expiry, model version."""

from __future__ import annotations

from caches.memo import HitMemo
from caches.types import CacheHit
from tests.caches.helpers import FakeClock


def hit(body: bytes = b"{}", version: str = "v") -> CacheHit:
    return CacheHit(body=body, kind="exact", entry_id="k", model="m", model_version=version, created_at=0.0)


def test_bounds_evict_least_recently_used() -> None:
    clock = FakeClock()
    memo = HitMemo(2, 1000, 10.0, monotonic=clock)
    for key in "abc":
        memo.put(key, hit(), expires_at=None)
    assert len(memo) == 2 and memo.get("a", model_version="v", now=clock.now) is None
    assert memo.get("b", model_version="v", now=clock.now) is not None  # b is now most recent
    memo.put("d", hit(), expires_at=None)
    assert memo.get("c", model_version="v", now=clock.now) is None
    by_bytes = HitMemo(100, 10, 10.0, monotonic=clock)
    by_bytes.put("x", hit(b"123456"), expires_at=None)
    by_bytes.put("y", hit(b"123456"), expires_at=None)
    assert len(by_bytes) == 1 and by_bytes.get("y", model_version="v", now=clock.now) is not None
    by_bytes.put("huge", hit(b"x" * 11), expires_at=None)  # larger than the whole memo: not kept
    assert by_bytes.get("huge", model_version="v", now=clock.now) is None


def test_trust_period_expiry_and_version() -> None:
    clock = FakeClock()
    memo = HitMemo(10, 1000, 5.0, monotonic=clock)
    memo.put("a", hit(), expires_at=clock.now + 100)
    memo.put("b", hit(), expires_at=clock.now + 2)
    assert memo.get("a", model_version="other", now=clock.now) is None  # and dropped
    assert memo.get("a", model_version="v", now=clock.now) is None
    memo.put("a", hit(), expires_at=clock.now + 100)
    clock.advance(3)
    assert memo.get("b", model_version="v", now=clock.now) is None  # the entry's own TTL
    assert memo.get("a", model_version="v", now=clock.now) is not None
    clock.advance(2)
    assert memo.get("a", model_version="v", now=clock.now) is None  # no longer trusted
    memo.put("c", hit(), expires_at=None)
    memo.discard(["c"])
    assert len(memo) == 0


def test_a_hit_read_before_an_invalidation_is_not_memoised() -> None:
    """A reader that read the database before a discard/clear must not memoise the old row after it."""
    clock = FakeClock()
    memo = HitMemo(10, 1000, 5.0, monotonic=clock)
    before = memo.generation
    memo.discard(["a"])  # a store or delete of "a" lands while the reader is in the database
    memo.put("a", hit(b"old"), expires_at=None, generation=before)
    assert memo.get("a", model_version="v", now=clock.now) is None
    before = memo.generation
    memo.clear()
    memo.put("a", hit(b"old"), expires_at=None, generation=before)
    assert len(memo) == 0
    memo.put("a", hit(b"new"), expires_at=None, generation=memo.generation)  # nothing in between: kept
    assert memo.get("a", model_version="v", now=clock.now).body == b"new"

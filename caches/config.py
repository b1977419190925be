"""Frozen configuration of the caches (composed by ``proxy/config/settings.py``; nothing here reads env)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = [
    "CacheConfig",
    "ExactCacheConfig",
    "IndexConfig",
    "PolicyConfig",
    "SemanticCacheConfig",
    "TenantCachePolicy",
]

# Chosen by `thrifty eval cache` on the calibration split of GPTCache's mock data (pairs 0-499):
# the lowest grid threshold whose strict precision is >= 99.5% there and at every higher threshold
# (see caches.evaluation.select_threshold). Never tuned on the report split (pairs 500-998).
DEFAULT_SIMILARITY_THRESHOLD = 0.90
DEFAULT_AMBIGUITY_MARGIN = 0.02
# How much farther from the query (in cosine distance, 1 - similarity) than the threshold allows a
# *close* candidate may be (verification found the same content words up to synonyms; see
# caches.verify.VerifyResult.close): 2.5 turns the threshold 0.90 into 0.75 for them, and a strict
# tenant's 0.99 into 0.975. See BENCHMARKS.md "Close candidates" for how it was chosen.
DEFAULT_CLOSE_DISTANCE_FACTOR = 2.5
# The similarity the parts of two prompts that they do not share must reach when the prompts share material and
# verification read the rest as a rewording (caches.reworded_parts): chosen on the opened generated sets, where
# requests for other tasks on the same material scored 0.26-0.51 and reworded requests 0.48-0.98 (one below);
# BENCHMARKS.md "Semantic cache" 2n.
DEFAULT_REWORDED_PART_THRESHOLD = 0.55


@dataclass(frozen=True, slots=True)
class ExactCacheConfig:
    """Exact (full-key) response cache.

    ``ttl_s``: lifetime of an entry (``None``: no expiry); ``max_entries`` / ``max_bytes``: size
    bounds enforced with LRU eviction (``max_bytes`` counts stored response bytes);
    ``max_entry_bytes``: larger responses are refused; ``recount_interval_s``: how often the
    entry/byte totals are re-read from the database (other replicas write too).

    ``memo_entries`` / ``memo_max_bytes``: bounds of the in-process memo of recently hit entries
    that answers repeated exact hits without a database read (0 turns it off);
    ``memo_ttl_s``: how long a memoised entry is trusted before the database is read again. It
    bounds how stale this replica can be about changes made by *other* replicas (a replaced
    answer or an admin invalidation there); changes made through this replica, expiry (TTL) and
    model-version changes take effect at once.

    ``key_filter``: keep a Bloom filter of the stored keys in memory, so that a lookup of a key never
    stored is a miss without a database read (:mod:`caches.stored_keys`); the keys other replicas
    store are read every ``memo_ttl_s`` too, and until then their entries miss here (with
    ``memo_ttl_s = 0`` the filter is off: every lookup reads the database).

    Stores share commits (see :mod:`caches.writes`): ``write_window_s``, how long the first store
    of an idle writer waits for others; ``max_write_batch``: rows per transaction;
    ``max_queued_writes``: rows waiting to be written, beyond which stores are shed.
    """

    enabled: bool = True
    ttl_s: float | None = 24 * 3600.0
    max_entries: int = 100_000
    max_bytes: int = 512 * 1024 * 1024
    max_entry_bytes: int = 1024 * 1024
    recount_interval_s: float = 30.0
    evict_fraction: float = 0.05  # when over a bound, evict down to (1 - this) of it
    memo_entries: int = 4096
    memo_max_bytes: int = 64 * 1024 * 1024
    memo_ttl_s: float = 2.0
    key_filter: bool = True
    write_window_s: float = 0.002
    max_write_batch: int = 64
    max_queued_writes: int = 1024

    def __post_init__(self) -> None:
        _check_bounds(self.ttl_s, self.max_entries, self.max_bytes, self.max_entry_bytes)
        _check_writes(self.write_window_s, self.max_write_batch, self.max_queued_writes)


def _check_bounds(ttl_s: float | None, max_entries: int, max_bytes: int, max_entry_bytes: int) -> None:
    """Refuse bounds that would make every store fail or expire at once."""
    if ttl_s is not None and not ttl_s > 0:
        raise ValueError(f"ttl_s must be > 0 (or None: no expiry), got {ttl_s!r}")
    for name, value in (("max_entries", max_entries), ("max_bytes", max_bytes), ("max_entry_bytes", max_entry_bytes)):
        if not value >= 1:
            raise ValueError(f"{name} must be at least 1, got {value!r}")


def _check_writes(window_s: float, max_batch: int, max_queued: int) -> None:
    if not 0.0 <= window_s <= 1.0:
        raise ValueError(f"write_window_s must be in [0, 1], got {window_s!r}")
    for name, value in (("max_write_batch", max_batch), ("max_queued_writes", max_queued)):
        if not value >= 1:
            raise ValueError(f"{name} must be at least 1, got {value!r}")


@dataclass(frozen=True, slots=True)
class IndexConfig:
    """FAISS index of one scope: exact inner product (flat) while small, IVF above ``ivf_min_size``.

    IVF is used (not HNSW) because it supports ``remove_ids``; ``nlist`` is about
    ``sqrt(size) * nlist_factor`` (clamped), fixed when the partition is (re)built; ``nprobe``
    lists are scanned per search. A partition falls back to flat below ``ivf_min_size // 2``.
    ``retrain_growth``: maintenance retrains an IVF partition (new centroids, ``nlist`` for the
    new size) once it holds this many times the vectors it was trained on.
    """

    ivf_min_size: int = 20_000
    nlist_factor: float = 1.0
    max_nlist: int = 4096
    nprobe: int = 16
    train_points_per_list: int = 64
    retrain_growth: float = 2.0


@dataclass(frozen=True, slots=True)
class SemanticCacheConfig:
    """Semantic (embedding-similarity) response cache.

    ``threshold``: minimum cosine similarity of a hit; ``ambiguity_margin``: a hit is refused when a
    second verified candidate with a different answer scores within this margin of the best (the
    query sits between two cached questions); ``close_distance_factor``: a candidate for which
    verification found the same content words (only function words, request frames, word order
    or the question's form differ) may be this many times as far from the query as the threshold
    allows (cosine distance; 1 turns this off); ``reworded_part_threshold``: a candidate that verification passed
    as a rewording (other words, not only their order or form) and that shares material with the query (a code
    block, a sentence: see :mod:`caches.reworded_parts`) is served only if the parts the two texts do not share
    embed at least this close (``None``: no such check); ``verify``: run :func:`caches.verify.verify` on
    candidates; ``top_k``: candidates fetched per lookup; ``max_query_chars``: longer last user
    messages are not semantic-cached (the embedder truncates its input, so two long prompts that
    differ only near the end would embed alike); ``embedder_id``: stored with each vector, rows
    with another id are ignored at start-up; ``workers``: threads for FAISS, database checks and
    waiting on the embedder (which runs the model on its own single thread);
    ``features_memo_size``:
    verification features of recent texts kept (cached questions recur as candidates).

    The request path (see :mod:`caches.batching`): ``batch_window_s``, how long a lookup's text
    waits for others to share its embedding forward; ``max_batch``: texts per forward;
    ``lookup_deadline_s``: a lookup still waiting for its embedding this long after the request
    arrived is given up and the request forwarded as a miss (``None``: no deadline);
    ``max_queued_lookups`` / ``max_queued_stores``: bounds of the embedding queues (a full lookup
    queue skips the lookup, a full store queue sheds the write-back's semantic entry; stores only
    fill the rows lookups leave free, so under load they are shed first); ``vector_memo_size``:
    vectors kept by text, so a write-back reuses its lookup's vector. ``vectors_on_demand`` (with
    ``verify``): a lookup that no cached question could pass verification for is a miss without
    embedding its query (:mod:`caches.candidate_gate`), and its write-back stores the entry without
    a vector; the vector is computed when a later query could match it, so traffic that never
    repeats itself costs no embedding. ``write_window_s`` /
    ``max_write_batch`` / ``max_queued_writes``: the stores' shared commits, as in
    :class:`ExactCacheConfig` (a full write queue sheds the write-back's semantic entry).
    """

    enabled: bool = True
    threshold: float = DEFAULT_SIMILARITY_THRESHOLD
    ambiguity_margin: float = DEFAULT_AMBIGUITY_MARGIN
    close_distance_factor: float = DEFAULT_CLOSE_DISTANCE_FACTOR
    reworded_part_threshold: float | None = DEFAULT_REWORDED_PART_THRESHOLD
    verify: bool = True
    top_k: int = 4
    ttl_s: float | None = 24 * 3600.0
    max_entries: int = 100_000
    max_bytes: int = 512 * 1024 * 1024
    max_entry_bytes: int = 1024 * 1024
    max_query_chars: int = 1000
    recount_interval_s: float = 30.0
    evict_fraction: float = 0.05
    embedder_id: str = "all-MiniLM-L6-v2"
    workers: int = 2
    features_memo_size: int = 4096
    batch_window_s: float = 0.002
    max_batch: int = 32
    lookup_deadline_s: float | None = 0.025
    max_queued_lookups: int = 256
    max_queued_stores: int = 64
    vector_memo_size: int = 2048
    vectors_on_demand: bool = True
    write_window_s: float = 0.002
    max_write_batch: int = 64
    max_queued_writes: int = 1024
    index: IndexConfig = field(default_factory=IndexConfig)

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], got {self.threshold!r}")
        if self.reworded_part_threshold is not None and not 0.0 <= self.reworded_part_threshold <= 1.0:
            raise ValueError(f"reworded_part_threshold must be in [0, 1] (or None: off), got {self.reworded_part_threshold!r}")
        if not self.close_distance_factor >= 1.0:
            raise ValueError(f"close_distance_factor must be >= 1, got {self.close_distance_factor!r}")
        if not 0.0 <= self.batch_window_s <= 1.0:
            raise ValueError(f"batch_window_s must be in [0, 1], got {self.batch_window_s!r}")
        if self.lookup_deadline_s is not None and not self.lookup_deadline_s > 0:
            raise ValueError(f"lookup_deadline_s must be > 0 (or None: no deadline), got {self.lookup_deadline_s!r}")
        for name in ("max_batch", "max_queued_lookups"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)!r}")
        for name in ("max_queued_stores", "vector_memo_size"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")
        _check_bounds(self.ttl_s, self.max_entries, self.max_bytes, self.max_entry_bytes)
        _check_writes(self.write_window_s, self.max_write_batch, self.max_queued_writes)


@dataclass(frozen=True, slots=True)
class PolicyConfig:
    """Which requests may use the caches (see :func:`caches.policy.decide`)."""

    exact: bool = True
    semantic: bool = True
    semantic_requires_determinism: bool = True
    # serve cached answers to sampled requests (temperature > 0, or absent: OpenAI's default is 1,
    # without a seed)? Off: a caller who samples gets a fresh sample, and sampled answers are not stored
    replay_sampled: bool = False


@dataclass(frozen=True, slots=True)
class TenantCachePolicy:
    """Overrides for one tenant (an API key); ``None`` keeps the global setting.

    ``enabled``: use the caches at all (``False``: no lookup, no store); ``semantic``: use the
    semantic cache; ``ttl_s``: lifetime of the entries this tenant stores; ``threshold``:
    similarity threshold of its semantic lookups; ``semantic_requires_determinism``: ``False``
    lets its non-deterministic requests (temperature > 0 without a seed) use the semantic cache;
    ``replay_sampled``: ``True`` lets its sampled requests be answered from (and stored in) the
    caches at all (``semantic_requires_determinism = False`` implies it).
    """

    enabled: bool | None = None
    semantic: bool | None = None
    ttl_s: float | None = None
    threshold: float | None = None
    semantic_requires_determinism: bool | None = None
    replay_sampled: bool | None = None

    def __post_init__(self) -> None:
        if self.ttl_s is not None and not self.ttl_s > 0:
            raise ValueError(f"ttl_s must be > 0, got {self.ttl_s!r}")
        if self.threshold is not None and not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], got {self.threshold!r}")


@dataclass(frozen=True, slots=True)
class CacheConfig:
    """Configuration of :class:`caches.service.ResponseCache`.

    ``tenants``: per-tenant overrides, keyed by the tenant id passed to ``prepare`` (read-only).
    """

    exact: ExactCacheConfig = field(default_factory=ExactCacheConfig)
    semantic: SemanticCacheConfig = field(default_factory=SemanticCacheConfig)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    tenants: Mapping[str, TenantCachePolicy] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if not isinstance(self.tenants, MappingProxyType):
            object.__setattr__(self, "tenants", MappingProxyType(dict(self.tenants)))

"""The settings' sections, one frozen dataclass per TOML table (``[proxy]``, ``[database]``, ``[bundled]``,
``[[upstreams]]``, ``[models.<name>]``, ``[cache]``, ``[router]``, ``[batch]``, ``[auth]``, ``[admin]``,
``[embeddings]``); :class:`proxy.config.settings.Settings` composes them with the sections other modules
own (``[shaping]`` in :mod:`proxy.config.shaping`, ``[backend]`` in :mod:`backend.config`).

Plain data: :func:`proxy.config.settings.load_settings` fills and checks them."""

from __future__ import annotations

from dataclasses import dataclass, field

from proxy.identity import key_id_from_sha256

BUNDLED_UPSTREAM = "local"


@dataclass(frozen=True, slots=True)
class ProxyConfig:
    host: str = "127.0.0.1"
    port: int = 8000
    connect_timeout_s: float = 5.0
    request_timeout_s: float = 300.0  # upstream read timeout (per chunk when streaming)
    max_body_bytes: int = 10_000_000
    max_connections: int = 200
    log_flush_interval_s: float = 0.5
    log_batch_size: int = 2000  # rows per transaction of the request-log writer
    # every request-log entry is appended to <data_dir>/request-log-journal before it is queued, so a
    # killed proxy loses none: the next start writes what the database did not have yet
    log_journal: bool = True
    log_max_pending: int = 100_000  # entries queued for the database before new ones are dropped (counted)
    log_backpressure_rows: int = 20_000  # past this many queued entries, new requests wait for the writer
    log_backpressure_max_wait_s: float = 5.0  # … at most this long each
    metrics_token: str = ""  # set: /metrics needs "Authorization: Bearer <metrics_token>"; empty: open (/health always is)
    # upstream resilience, before the first byte reaches the client: retries on connect errors,
    # 429 and 5xx with exponential backoff and jitter (a retry-after up to max_retry_wait_s is
    # honoured), and a circuit breaker per upstream (open after circuit_failures failures in a row,
    # one probe after circuit_open_s)
    body_timeout_s: float = 30.0  # a request body whose next chunk takes longer is refused (408)
    # the whole request, from its arrival: reading the body, the upstream's first byte and the whole
    # answer or stream; past it the upstream call is cancelled and the client gets a 504 (an error
    # event and [DONE] when streaming). [models.<name>] deadline_s overrides it per model
    request_deadline_s: float = 300.0
    header_timeout_s: float = 15.0  # a request whose headers are not all in by then is answered 408 and closed
    log_format: str = "text"  # text | json: one format for every log line (json: one object per line)
    access_log: bool = True  # one line per finished request (logger thrifty.access), with its request id
    max_retries: int = 2
    retry_backoff_s: float = 0.2
    max_retry_wait_s: float = 10.0
    circuit_failures: int = 5
    circuit_open_s: float = 30.0


@dataclass(frozen=True, slots=True)
class DatabaseConfig:
    url: str = ""  # empty: SQLite file under data_dir
    migrate_on_start: bool = True


@dataclass(frozen=True, slots=True)
class BundledBackendConfig:
    """How ``thrifty serve`` runs the bundled backend as a child process."""

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 0  # 0: a free local port
    startup_timeout_s: float = 300.0
    replicas: int = 1  # backend processes `thrifty serve` starts; requests pick one by prompt prefix
    replica_choice: str = "prefix"  # prefix (consistent hash of the stable prefix) | random


@dataclass(frozen=True, slots=True)
class UpstreamConfig:
    """An OpenAI-compatible server: the bundled backend, vLLM, SGLang, OpenAI..."""

    name: str
    base_url: str = ""  # e.g. http://127.0.0.1:8001/v1 (required unless base_urls is given)
    api_key: str = ""
    api_key_env: str = ""  # name of an environment variable holding the key (read at start-up)
    # the upstream has OpenAI's Files and Batches API: batch lines that miss the cache are handed to
    # it as one upstream batch (its discount, its rate limits) instead of being sent one by one
    batch_api: bool = False
    # the upstream serves OpenAI's Responses API: /v1/responses requests for its models are forwarded to it
    # as they are (docs/responses.md); otherwise the proxy translates them to chat completions
    responses_api: bool = False
    # replicas of one model (several bundled backends, vLLM servers...): each request goes to the
    # replica a consistent hash of its stable prefix picks ("prefix"), or a random one ("random");
    # see proxy.upstream.replicas. Expanded at load time into one entry per replica (<name>#<i>).
    base_urls: list[str] = field(default_factory=list)
    replica_choice: str = "prefix"
    replica_of: str = ""  # set on the expanded <name>#<i> entries


@dataclass(frozen=True, slots=True)
class ModelAlias:
    """A public model name mapped to an upstream and the model name that upstream knows."""

    name: str
    upstream: str
    model: str
    # other public model names to answer with, in order, when this one's upstream fails (5xx,
    # down, timed out, circuit open) before the answer started
    fallbacks: tuple[str, ...] = ()
    deadline_s: float | None = None  # this model's whole-request deadline; None: [proxy] request_deadline_s


@dataclass(frozen=True, slots=True)
class CacheKeySettings:
    """Cache overrides for one API key: a ``[cache.keys.<name>]`` table.

    The key is named by ``api_key_sha256`` (hex SHA-256 of the bearer token, so the token itself
    need not be in the file) or by ``tenant`` (the id the proxy derives from it, ``key-<24 hex>``,
    as shown in the request log; ``anonymous`` for requests without a key). Unset fields keep the
    ``[cache]`` settings: ``enabled`` (any caching), ``semantic`` (the semantic cache; it can only
    be turned on where ``[cache] semantic`` runs), ``ttl_s``, ``similarity_threshold``,
    ``semantic_nondeterministic`` (let requests without temperature 0 or a seed use the semantic
    cache), ``replay_sampled`` (serve cached answers to sampled requests, temperature > 0 without
    a seed; unset: on when ``semantic_nondeterministic`` is true).
    """

    name: str
    api_key_sha256: str = ""
    tenant: str = ""
    enabled: bool | None = None
    semantic: bool | None = None
    ttl_s: float | None = None
    similarity_threshold: float | None = None
    semantic_nondeterministic: bool | None = None
    replay_sampled: bool | None = None

    @property
    def tenant_id(self) -> str:
        return self.tenant or key_id_from_sha256(self.api_key_sha256)


@dataclass(frozen=True, slots=True)
class CacheSettings:
    """Response caching (composed into ``caches.config.CacheConfig`` by :func:`cache_config`)."""

    enabled: bool = True
    semantic: bool = True
    ttl_s: float = 86400.0
    max_entries: int = 100_000
    max_bytes: int = 512 * 1024 * 1024
    max_entry_bytes: int = 1024 * 1024
    similarity_threshold: float = 0.90
    # a candidate with the same content words as the query (only function words, request frames,
    # word order or the question's form differ) may be this many times as far from it as the
    # threshold allows, in cosine distance (1: off)
    close_distance_factor: float = 2.5
    # a candidate verification reads as a rewording beside material the query shares (a code block, an email's
    # lines) is served only if the parts the two do not share embed at least this close (0: off)
    reworded_part_threshold: float = 0.55
    maintenance_interval_s: float = 60.0
    embed_dtype: str = "auto"  # embedder dtype: auto (bf16 on CPUs with native bf16) | float32 | bfloat16 | float16
    # how long a replica trusts its in-process memo of exact hits before re-reading the database:
    # the bound on staleness about other replicas' changes; also how often the filter of stored keys
    # (misses without a database read) reads the keys other replicas stored (0 turns both off)
    memo_ttl_s: float = 2.0
    # answer sampled requests (temperature > 0 or absent, without a seed) from the cache? Off: a
    # caller who samples gets a fresh sample (per key: [cache.keys.<name>] replay_sampled)
    replay_sampled: bool = False
    # the request path (docs/performance-tuning.md): a semantic lookup whose embedding is not ready
    # this long after the request arrived is forwarded as a miss (0: no deadline); concurrent lookups
    # arriving within batch_window_ms share one embedding forward of at most embed_max_batch texts
    lookup_deadline_ms: float = 25.0
    batch_window_ms: float = 2.0
    embed_max_batch: int = 32
    # a lookup that no cached question could pass verification for is a miss without embedding its
    # query, and its write-back is stored without a vector, computed when a later query could match it
    vectors_on_demand: bool = True
    # torch threads of the embedding thread (semantic cache and router); 0: automatic (1 under
    # `thrifty serve`, which leaves the cores to the bundled backend; torch's default otherwise)
    embed_threads: int = 0
    # auto: our own encoder for plain mean-pooled BERT models such as the default MiniLM (the same vectors as
    # sentence-transformers, ~4 s less start-up) | sentence-transformers: always that library
    embed_implementation: str = "auto"
    keys: tuple[CacheKeySettings, ...] = ()  # [cache.keys.<name>] tables


@dataclass(frozen=True, slots=True)
class RouterSettings:
    """The routed public model name and how it picks a tier (see ``router.config.RouterConfig``)."""

    enabled: bool = True
    public_model: str = "thrifty-auto"
    small_model: str = ""  # public model name of the small tier; empty: the bundled model
    large_model: str = ""  # public model name of the large tier; empty: same as small
    kind: str = "learned"  # learned | heuristic | random
    artifact_path: str = ""  # empty: the shipped default router
    threshold_mode: str = "share"  # share (target share of large calls) | fixed (quality floor)
    target_large_share: float = 0.3
    fixed_threshold: float = 0.5
    default_tier: str = "small"
    # prompt: the router picks the tier from the request alone. cascade: every routed chat request
    # asks the small tier first and is escalated to the large tier when the escalation model
    # (router.escalation) judges the small answer weak; the threshold settings above then set the
    # escalated share (share mode) or the escalation score floor (fixed mode). combined: the prompt
    # router sends a request whose score reaches direct_threshold straight to the large tier, the
    # cascade handles the rest (`thrifty router choose-combined` picks both thresholds on training data).
    mode: str = "prompt"
    escalation_path: str = ""  # cascade mode's escalation artifact; empty: the shipped default
    direct_threshold: float = 0.217  # combined mode: prompt score (calibrated P(large needed)) sent straight to large
    # combined mode: this share of the requests the prompt router would send straight to the large tier is
    # cascaded anyway, so the request log keeps evidence about them for retraining the direct route
    # (`thrifty router train-escalation --direct-out`); each costs a small call that is usually escalated
    explore_share: float = 0.0
    # Privacy choice, off by default: keep each routed request's messages (plus tools and
    # response_format) in the router_request table so `thrifty router export-logs` can turn them,
    # joined with feedback, into retraining data. This stores prompt text in the database.
    store_requests: bool = False


ROUTER_MODES = ("prompt", "cascade", "combined")


@dataclass(frozen=True, slots=True)
class BatchSettings:
    """Batch jobs (the Files and Batches API) and the worker that runs their lines.

    ``window``: ``"always"`` (run at once, at batch priority) or a daily local-time range such as
    ``"01:00-06:00"`` (may cross midnight) in ``timezone`` (an IANA name; empty: the machine's).
    A batch whose metadata has ``thrifty_urgent = "true"`` runs outside the window.
    """

    enabled: bool = True
    worker: bool = True  # run a queue worker in this proxy process (replicas on PostgreSQL share the queue)
    files_dir: str = ""  # empty: <data_dir>/files
    max_file_bytes: int = 200 * 1024 * 1024  # OpenAI's limit for batch input files
    max_lines: int = 50_000  # OpenAI's limit of requests per batch
    window: str = "always"
    timezone: str = ""
    discount: float = 0.5  # batch price = (1 - discount) x the interactive price, as the big providers charge
    concurrency: int = 4  # lines in flight per upstream
    # ... and while interactive requests are being answered (and busy_quiet_s after the last): batch
    # work yields the shared CPU/GPU to them (lines already running finish)
    busy_concurrency: int = 1
    busy_quiet_s: float = 2.0
    lease_s: float = 60.0  # a claimed line returns to the queue this long after its worker stopped renewing
    poll_interval_s: float = 0.5
    max_attempts: int = 3  # tries of one line on transport failures / 5xx before it is an error line
    # batch pass-through (upstreams with batch_api = true): lines are collected for up to
    # passthrough_collect_s (or passthrough_max_lines) into one upstream batch, polled every passthrough_poll_s
    passthrough_collect_s: float = 2.0
    passthrough_max_lines: int = 1000
    passthrough_poll_s: float = 5.0


@dataclass(frozen=True, slots=True)
class AuthSettings:
    """Who may call the proxy. ``open``: any bearer token (its hash is the caller's identity);
    ``keys``: only keys issued by ``thrifty keys create`` (or the admin API), with their model
    lists, budgets and rate limits, counted in Redis when ``redis_url`` is set (shared by replicas)
    and in the database otherwise (table ``usage_counter``: they survive restarts)."""

    mode: str = "open"
    redis_url: str = ""  # e.g. redis://127.0.0.1:6379/0
    redis_namespace: str = "thrifty"
    assumed_max_tokens: int = 1024  # output reserved against limits when a request sets no max_tokens


AUTH_MODES = ("open", "keys")


@dataclass(frozen=True, slots=True)
class AdminConfig:
    """Admin API access: requests need ``Authorization: Bearer <api_key>``; empty disables the admin API.

    The web UI at ``/ui`` logs in with the same key; ``session_lifetime_s`` is how long its session
    cookie stays valid.
    """

    api_key: str = ""
    session_lifetime_s: float = 8 * 3600.0


@dataclass(frozen=True, slots=True)
class EmbeddingsSettings:
    """``/v1/embeddings`` (docs/embeddings.md): the bundled MiniLM's public name, limits and cache."""

    enabled: bool = True  # serve the bundled embedding model (other embedding models are forwarded regardless)
    model_name: str = "all-minilm-l6-v2"  # its public model name
    max_inputs: int = 2048  # inputs per request (OpenAI's limit); more is a 400 naming it
    cache: bool = True  # exact cache per input text (per key and model)
    cache_ttl_s: float = 30 * 86400.0

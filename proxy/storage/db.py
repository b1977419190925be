"""Database engine and the proxy's tables (SQLAlchemy 2.0, async; SQLite or PostgreSQL).

Alembic migrations in ``migrations/`` are the schema's source of truth; these models mirror them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    event,
)
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from proxy.storage.database_url import async_database_url


class ProxyBase(DeclarativeBase):
    """Declarative base of the tables the proxy owns."""


class RequestLog(ProxyBase):
    """One row per request answered by the proxy."""

    __tablename__ = "request_log"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # the proxy's own id, unique
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True,
                                                 default=lambda: datetime.now(UTC))
    key_id: Mapped[str] = mapped_column(String(64), index=True)
    # the caller's x-request-id, when it sent one (callers may repeat it: never a key)
    client_request_id: Mapped[str | None] = mapped_column(String(64), index=True)
    endpoint: Mapped[str] = mapped_column(String(64))
    model_requested: Mapped[str | None] = mapped_column(String(256))
    model_served: Mapped[str | None] = mapped_column(String(256))
    upstream: Mapped[str | None] = mapped_column(String(128))
    stream: Mapped[bool] = mapped_column(Boolean, default=False)
    status_code: Mapped[int] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    prompt_tokens: Mapped[int | None] = mapped_column(Integer)
    completion_tokens: Mapped[int | None] = mapped_column(Integer)
    cached_tokens: Mapped[int | None] = mapped_column(Integer)
    latency_ms: Mapped[float | None] = mapped_column(Float)
    ttft_ms: Mapped[float | None] = mapped_column(Float)
    cache_outcome: Mapped[str | None] = mapped_column(String(16))  # exact | semantic | miss | bypass
    route: Mapped[str | None] = mapped_column(String(64))
    route_score: Mapped[float | None] = mapped_column(Float)
    cascade_outcome: Mapped[str | None] = mapped_column(String(32))  # accepted | escalated | escalation_failed
    cost_usd: Mapped[float | None] = mapped_column(Float)
    saved_usd: Mapped[float | None] = mapped_column(Float)
    batch_id: Mapped[str | None] = mapped_column(String(64), index=True)  # set for lines of a batch job
    batch_saved_usd: Mapped[float | None] = mapped_column(Float)  # the part of saved_usd due to the batch discount
    finish_reason: Mapped[str | None] = mapped_column(String(32))  # "length" when any choice was cut off
    max_tokens: Mapped[int | None] = mapped_column(Integer)  # output limit sent upstream, after capping
    cap: Mapped[str | None] = mapped_column(String(16))  # default | learned | clamped | null (own limit)
    shaping: Mapped[str | None] = mapped_column(String(256))  # mode and actions, e.g. "safe,tools-canonical"
    prompt_cluster: Mapped[str | None] = mapped_column(String(16))  # model + stable system prompt + tools, hashed


class Feedback(ProxyBase):
    """A quality signal about one logged request: explicit (``POST /v1/feedback``) or automatic."""

    __tablename__ = "feedback"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))
    request_id: Mapped[str] = mapped_column(String(64), index=True)
    key_id: Mapped[str] = mapped_column(String(64))
    score: Mapped[float] = mapped_column(Float)  # 0 = bad … 1 = good
    source: Mapped[str] = mapped_column(String(32))  # "user" | "json_check" | ...
    comment: Mapped[str | None] = mapped_column(Text)


class RouterRequest(ProxyBase):
    """The routing-relevant part of a routed request (opt-in: ``[router] store_requests``).

    Kept apart from ``request_log`` so that prompt text lives in one table that can be left empty,
    purged or access-controlled on its own; ``request_id`` is the ``request_log.id`` it belongs to.
    """

    __tablename__ = "router_request"

    request_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True,
                                                 default=lambda: datetime.now(UTC))
    request: Mapped[str] = mapped_column(Text)  # JSON object: messages, tools, response_format
    # cascade mode: the small tier's answer that the escalation model judged (accepted or escalated)
    small_answer: Mapped[str | None] = mapped_column(Text, nullable=True)


class RequestLogHourly(ProxyBase):
    """Pre-aggregated statistics of one whole hour of the request log (the admin UI's rollups).

    Written by ``proxy.storage.stats.time_series`` the first time a settled hour is read; ``data`` is the
    hour's ``Bucket`` (``proxy.storage.stats.time_series``) as JSON, ``version`` the format it was computed with.
    """

    __tablename__ = "request_log_hourly"

    hour_start: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    data: Mapped[str] = mapped_column(Text)


class StoredFile(ProxyBase):
    """An uploaded or generated file of the Files API; its bytes live under the files folder."""

    __tablename__ = "stored_file"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # file-<hex>
    key_id: Mapped[str] = mapped_column(String(64), index=True)  # owner: only this key may read it
    purpose: Mapped[str] = mapped_column(String(32))  # batch | batch_output
    filename: Mapped[str] = mapped_column(String(512))
    bytes: Mapped[int] = mapped_column(Integer)
    lines: Mapped[int] = mapped_column(Integer, default=0)
    path: Mapped[str] = mapped_column(String(1024))  # relative to the files folder
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)


class Batch(ProxyBase):
    """One batch job of the Batches API; its lines are :class:`BatchLine` rows."""

    __tablename__ = "batch"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # batch_<hex>
    key_id: Mapped[str] = mapped_column(String(64), index=True)
    endpoint: Mapped[str] = mapped_column(String(64))
    input_file_id: Mapped[str] = mapped_column(String(64))
    completion_window: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    metadata_json: Mapped[str | None] = mapped_column(Text)
    errors_json: Mapped[str | None] = mapped_column(Text)  # validation errors: OpenAI's errors.data
    urgent: Mapped[bool] = mapped_column(Boolean, default=False)  # runs outside the nightly window
    total: Mapped[int] = mapped_column(Integer, default=0)
    completed: Mapped[int] = mapped_column(Integer, default=0)
    failed: Mapped[int] = mapped_column(Integer, default=0)
    output_file_id: Mapped[str | None] = mapped_column(String(64))
    error_file_id: Mapped[str | None] = mapped_column(String(64))
    upstream_batch_id: Mapped[str | None] = mapped_column(String(128))  # pass-through to an upstream's Batch API
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    in_progress_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finalizing_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    failed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    expired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cancelling_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    cancelled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class BatchLine(ProxyBase):
    """One request line of a batch: its durable queue state and, once done, its output line."""

    __tablename__ = "batch_line"
    __table_args__ = (Index("ix_batch_line_claim", "state", "lease_until"),)

    batch_id: Mapped[str] = mapped_column(String(64), ForeignKey("batch.id", ondelete="CASCADE"),
                                          primary_key=True)
    line_no: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1-based line of the input file
    custom_id: Mapped[str] = mapped_column(String(512))
    body: Mapped[str] = mapped_column(Text)  # the request body, JSON
    state: Mapped[str] = mapped_column(String(16))  # pending | running | done | skipped
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    lease_owner: Mapped[str | None] = mapped_column(String(64))
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    is_error: Mapped[bool] = mapped_column(Boolean, default=False)
    result: Mapped[str | None] = mapped_column(Text)  # the whole output (or error) line, JSON
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ApiKey(ProxyBase):
    """An issued API key (``[auth] mode = "keys"``). Only its SHA-256 is stored; ``id`` is the
    tenant id the proxy derives from that hash, so logs, caches and batches name the key the same way."""

    __tablename__ = "api_key"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), index=True, unique=True)
    prefix: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(256))
    models: Mapped[str | None] = mapped_column(Text)  # JSON list of allowed public model names; None: all
    budget_usd: Mapped[float | None] = mapped_column(Float)
    budget_period: Mapped[str | None] = mapped_column(String(8))  # day | month
    rpm: Mapped[int | None] = mapped_column(Integer)
    tpm: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class UsageCounter(ProxyBase):
    """One key's count in one window when no Redis is configured (``proxy.auth.limits.DatabaseCounters``):
    requests or tokens of a minute, or micro-dollars spent in a day or month."""

    __tablename__ = "usage_counter"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)  # rpm:<key>:<minute> | budget:<key>:<period>
    value: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class UiSession(ProxyBase):
    """A web UI session (``proxy.ui.auth``): valid while its row exists, has not expired and is not revoked."""

    __tablename__ = "ui_session"

    nonce: Mapped[str] = mapped_column(String(64), primary_key=True)  # the random part of the signed token
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # logout


class AuthFailure(ProxyBase):
    """Failed admin logins of one scope (a client address, or a hashed key prefix) and its lockout."""

    __tablename__ = "auth_failure"

    scope: Mapped[str] = mapped_column(String(128), primary_key=True)  # addr:<address> | prefix:<hash>
    failures: Mapped[int] = mapped_column(Integer)
    last_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    locked_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class EmbeddingCacheEntry(ProxyBase):
    """One input text's embedding (``proxy.embeddings.cache``): keyed by tenant, model and text."""

    __tablename__ = "embedding_cache"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of tenant, model, variant and text
    model: Mapped[str] = mapped_column(String(256))
    dims: Mapped[int] = mapped_column(Integer)
    tokens: Mapped[int] = mapped_column(Integer)  # what the text cost when it was embedded
    vector: Mapped[bytes] = mapped_column(LargeBinary)  # float32, little-endian, ``dims`` values
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class StoredResponse(ProxyBase):
    """A Responses API answer kept for ``previous_response_id`` and retrieval, readable by its key only."""

    __tablename__ = "stored_response"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # resp_<hex>
    key_id: Mapped[str] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    previous_response_id: Mapped[str | None] = mapped_column(String(64))
    body: Mapped[str] = mapped_column(Text)  # the response object, JSON
    input_items: Mapped[str] = mapped_column(Text)  # this request's input items (with ids), JSON list
    history: Mapped[str] = mapped_column(Text)  # the items of the earlier turns of its chain, JSON list


def create_engine(url: str) -> AsyncEngine:
    """An async engine; SQLite files get their folder created, WAL mode and a busy timeout. ``url`` may be
    plain (``sqlite:///``, ``postgresql://``): see :func:`proxy.storage.database_url.async_database_url`.

    Raises:
        DatabaseUrlError: a URL that cannot be used.
    """
    url = async_database_url(url)
    if url.startswith("sqlite"):
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if path and path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record) -> None:  # pragma: no cover - driver callback
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_async_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


def session_factory(engine: AsyncEngine) -> async_sessionmaker:
    return async_sessionmaker(engine, expire_on_commit=False)

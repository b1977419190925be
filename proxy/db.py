"""Database engine and the proxy's tables (SQLAlchemy 2.0, async; SQLite or PostgreSQL).

Alembic migrations in ``migrations/`` are the schema's source of truth; these models mirror them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Boolean, DateTime, Float, Integer, String, Text, event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class ProxyBase(DeclarativeBase):
    """Declarative base of the tables the proxy owns."""


class RequestLog(ProxyBase):
    """One row per request answered by the proxy."""

    __tablename__ = "request_log"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True,
                                                 default=lambda: datetime.now(UTC))
    key_id: Mapped[str] = mapped_column(String(64), index=True)
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


def create_engine(url: str) -> AsyncEngine:
    """An async engine; SQLite files get their folder created, WAL mode and a busy timeout."""
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

"""SQLAlchemy models of the caches (schema source of truth: migrations/versions/0002_caches.py).

Timestamps are epoch seconds (double precision) so TTL and LRU arithmetic is the same on SQLite
and PostgreSQL.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Double, Index, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["CacheBase", "ExactCacheEntry", "SemanticCacheEntry"]

# BIGINT on PostgreSQL; INTEGER on SQLite so that the primary key is the autoincrementing rowid.
_BigId = BigInteger().with_variant(Integer(), "sqlite")


class CacheBase(DeclarativeBase):
    """Declarative base of the cache tables (its own metadata, separate from the request log)."""


class ExactCacheEntry(CacheBase):
    """One response of the exact cache, keyed by the canonical request key."""

    __tablename__ = "thrifty_exact_cache"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    tenant: Mapped[str] = mapped_column(String(255))
    model: Mapped[str] = mapped_column(String(255))
    model_version: Mapped[str] = mapped_column(String(255), default="")
    scope: Mapped[str] = mapped_column(String(64))
    response: Mapped[bytes] = mapped_column(LargeBinary)
    response_sha256: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Double)
    expires_at: Mapped[float | None] = mapped_column(Double, nullable=True)
    last_access_at: Mapped[float] = mapped_column(Double)
    hits: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (
        Index("ix_thrifty_exact_cache_tenant", "tenant"),
        Index("ix_thrifty_exact_cache_model", "model"),
        Index("ix_thrifty_exact_cache_scope", "scope"),
        Index("ix_thrifty_exact_cache_expires_at", "expires_at"),
        Index("ix_thrifty_exact_cache_last_access_at", "last_access_at"),
    )


class SemanticCacheEntry(CacheBase):
    """One response of the semantic cache: the question, its embedding and the answer.

    ``entry_key`` (SHA-256 of scope + question) is unique: storing the same question in the same
    scope again replaces the answer. ``id`` is also the vector id in the FAISS index.
    ``response_sha256`` checks the stored bytes; ``answer_sha256`` fingerprints only what the model
    said (choice contents, tool calls), so two responses that differ only in ``id``, ``created`` or
    ``usage`` count as the same answer.
    """

    __tablename__ = "thrifty_semantic_cache"

    id: Mapped[int] = mapped_column(_BigId, primary_key=True, autoincrement=True)
    entry_key: Mapped[str] = mapped_column(String(64))
    scope: Mapped[str] = mapped_column(String(64))
    tenant: Mapped[str] = mapped_column(String(255))
    model: Mapped[str] = mapped_column(String(255))
    model_version: Mapped[str] = mapped_column(String(255), default="")
    query_text: Mapped[str] = mapped_column(Text)
    embedding: Mapped[bytes] = mapped_column(LargeBinary)
    embedding_dim: Mapped[int] = mapped_column(Integer)
    embedder: Mapped[str] = mapped_column(String(255))
    response: Mapped[bytes] = mapped_column(LargeBinary)
    response_sha256: Mapped[str] = mapped_column(String(64))
    answer_sha256: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Double)
    expires_at: Mapped[float | None] = mapped_column(Double, nullable=True)
    last_access_at: Mapped[float] = mapped_column(Double)
    hits: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (
        UniqueConstraint("entry_key", name="uq_thrifty_semantic_cache_entry_key"),
        Index("ix_thrifty_semantic_cache_scope", "scope"),
        Index("ix_thrifty_semantic_cache_tenant", "tenant"),
        Index("ix_thrifty_semantic_cache_model", "model"),
        Index("ix_thrifty_semantic_cache_expires_at", "expires_at"),
        Index("ix_thrifty_semantic_cache_last_access_at", "last_access_at"),
    )

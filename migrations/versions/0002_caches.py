"""Response caches: exact cache and semantic cache tables.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "thrifty_exact_cache",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("tenant", sa.String(length=255), nullable=False),
        sa.Column("model", sa.String(length=255), nullable=False),
        sa.Column("model_version", sa.String(length=255), nullable=False),
        sa.Column("scope", sa.String(length=64), nullable=False),
        sa.Column("response", sa.LargeBinary(), nullable=False),
        sa.Column("response_sha256", sa.String(length=64), nullable=False),
        sa.Column("size_bytes", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=True),
        sa.Column("last_access_at", sa.Double(), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_thrifty_exact_cache"),
    )
    op.create_index("ix_thrifty_exact_cache_tenant", "thrifty_exact_cache", ["tenant"])
    op.create_index("ix_thrifty_exact_cache_model", "thrifty_exact_cache", ["model"])
    op.create_index("ix_thrifty_exact_cache_scope", "thrifty_exact_cache", ["scope"])
    op.create_index("ix_thrifty_exact_cache_expires_at", "thrifty_exact_cache", ["expires_at"])
    op.create_index("ix_thrifty_exact_cache_last_access_at", "thrifty_exact_cache", ["last_access_at"])

    op.create_table(
        "thrifty_semantic_cache",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("entry_key", sa.String(length=64), nullable=False),
        sa.Column("scope", sa.String(length=64), nullable=False),
        sa.Column("tenant", sa.String(length=255), nullable=False),
        sa.Column("model", sa.String(length=255), nullable=False),
        sa.Column("model_version", sa.String(length=255), nullable=False),
        sa.Column("query_text", sa.Text(), nullable=False),
        sa.Column("embedding", sa.LargeBinary(), nullable=False),
        sa.Column("embedding_dim", sa.Integer(), nullable=False),
        sa.Column("embedder", sa.String(length=255), nullable=False),
        sa.Column("response", sa.LargeBinary(), nullable=False),
        sa.Column("response_sha256", sa.String(length=64), nullable=False),
        sa.Column("answer_sha256", sa.String(length=64), nullable=False),
        sa.Column("size_bytes", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=True),
        sa.Column("last_access_at", sa.Double(), nullable=False),
        sa.Column("hits", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_thrifty_semantic_cache"),
        sa.UniqueConstraint("entry_key", name="uq_thrifty_semantic_cache_entry_key"),
    )
    op.create_index("ix_thrifty_semantic_cache_scope", "thrifty_semantic_cache", ["scope"])
    op.create_index("ix_thrifty_semantic_cache_tenant", "thrifty_semantic_cache", ["tenant"])
    op.create_index("ix_thrifty_semantic_cache_model", "thrifty_semantic_cache", ["model"])
    op.create_index("ix_thrifty_semantic_cache_expires_at", "thrifty_semantic_cache", ["expires_at"])
    op.create_index("ix_thrifty_semantic_cache_last_access_at", "thrifty_semantic_cache", ["last_access_at"])


def downgrade() -> None:
    op.drop_table("thrifty_semantic_cache")
    op.drop_table("thrifty_exact_cache")

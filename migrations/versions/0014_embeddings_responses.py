"""embedding_cache and stored_response: the exact cache of /v1/embeddings (one row per text) and the
Responses API's stored responses (previous_response_id, retrieval; per key)

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "embedding_cache",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("model", sa.String(256), nullable=False),
        sa.Column("dims", sa.Integer, nullable=False),
        sa.Column("tokens", sa.Integer, nullable=False),
        sa.Column("vector", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_embedding_cache_created_at", "embedding_cache", ["created_at"])
    op.create_table(
        "stored_response",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("key_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("previous_response_id", sa.String(64), nullable=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("input_items", sa.Text, nullable=False),
        sa.Column("history", sa.Text, nullable=False),
    )
    op.create_index("ix_stored_response_key_id", "stored_response", ["key_id"])
    op.create_index("ix_stored_response_created_at", "stored_response", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_stored_response_created_at", table_name="stored_response")
    op.drop_index("ix_stored_response_key_id", table_name="stored_response")
    op.drop_table("stored_response")
    op.drop_index("ix_embedding_cache_created_at", table_name="embedding_cache")
    op.drop_table("embedding_cache")

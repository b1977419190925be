"""api_key: issued API keys ([auth] mode = "keys"): a hash, a display prefix, allowed models,
budget and rate limits

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_key",
        sa.Column("id", sa.String(64), primary_key=True),  # key-<24 hex>: the tenant id the proxy logs
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("prefix", sa.String(32), nullable=False),
        sa.Column("name", sa.String(256), nullable=False),
        sa.Column("models", sa.Text, nullable=True),  # JSON list of allowed public model names; null: all
        sa.Column("budget_usd", sa.Float, nullable=True),
        sa.Column("budget_period", sa.String(8), nullable=True),  # day | month
        sa.Column("rpm", sa.Integer, nullable=True),
        sa.Column("tpm", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_api_key_sha256", "api_key", ["sha256"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_api_key_sha256", "api_key")
    op.drop_table("api_key")

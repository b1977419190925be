"""request log

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "request_log",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("key_id", sa.String(64), nullable=False),
        sa.Column("endpoint", sa.String(64), nullable=False),
        sa.Column("model_requested", sa.String(256)),
        sa.Column("model_served", sa.String(256)),
        sa.Column("upstream", sa.String(128)),
        sa.Column("stream", sa.Boolean, nullable=False),
        sa.Column("status_code", sa.Integer, nullable=False),
        sa.Column("error", sa.Text),
        sa.Column("prompt_tokens", sa.Integer),
        sa.Column("completion_tokens", sa.Integer),
        sa.Column("cached_tokens", sa.Integer),
        sa.Column("latency_ms", sa.Float),
        sa.Column("ttft_ms", sa.Float),
        sa.Column("cache_outcome", sa.String(16)),
        sa.Column("route", sa.String(64)),
        sa.Column("route_score", sa.Float),
        sa.Column("cost_usd", sa.Float),
        sa.Column("saved_usd", sa.Float),
    )
    op.create_index("ix_request_log_created_at", "request_log", ["created_at"])
    op.create_index("ix_request_log_key_id", "request_log", ["key_id"])


def downgrade() -> None:
    op.drop_index("ix_request_log_key_id", "request_log")
    op.drop_index("ix_request_log_created_at", "request_log")
    op.drop_table("request_log")

"""router_request: the routed request bodies kept for router retraining (opt-in, see [router] store_requests)

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "router_request",
        sa.Column("request_id", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("request", sa.Text, nullable=False),  # JSON: messages, tools, response_format
    )
    op.create_index("ix_router_request_created_at", "router_request", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_router_request_created_at", "router_request")
    op.drop_table("router_request")

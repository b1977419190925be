"""request_log.client_request_id: the caller's own x-request-id, kept beside the proxy's unique row id

A caller may send the same ``x-request-id`` on many requests; the row id is always the proxy's own,
so a repeated id never conflicts, and the caller's id stays searchable.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("request_log", sa.Column("client_request_id", sa.String(64), nullable=True))
    op.create_index("ix_request_log_client_request_id", "request_log", ["client_request_id"])


def downgrade() -> None:
    op.drop_index("ix_request_log_client_request_id", table_name="request_log")
    with op.batch_alter_table("request_log") as batch:  # SQLite drops a column by copying the table
        batch.drop_column("client_request_id")

"""Files and Batches API: stored_file, batch, batch_line (the durable per-line queue), and the
request log's batch columns

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _ts(name: str, nullable: bool = True) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "stored_file",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("key_id", sa.String(64), nullable=False),
        sa.Column("purpose", sa.String(32), nullable=False),
        sa.Column("filename", sa.String(512), nullable=False),
        sa.Column("bytes", sa.Integer, nullable=False),
        sa.Column("lines", sa.Integer, nullable=False),
        sa.Column("path", sa.String(1024), nullable=False),
        _ts("created_at", nullable=False),
        sa.Column("deleted", sa.Boolean, nullable=False),
    )
    op.create_index("ix_stored_file_key_id", "stored_file", ["key_id"])
    op.create_table(
        "batch",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("key_id", sa.String(64), nullable=False),
        sa.Column("endpoint", sa.String(64), nullable=False),
        sa.Column("input_file_id", sa.String(64), nullable=False),
        sa.Column("completion_window", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("metadata_json", sa.Text, nullable=True),
        sa.Column("errors_json", sa.Text, nullable=True),
        sa.Column("urgent", sa.Boolean, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("completed", sa.Integer, nullable=False),
        sa.Column("failed", sa.Integer, nullable=False),
        sa.Column("output_file_id", sa.String(64), nullable=True),
        sa.Column("error_file_id", sa.String(64), nullable=True),
        sa.Column("upstream_batch_id", sa.String(128), nullable=True),
        _ts("created_at", nullable=False),
        _ts("expires_at", nullable=False),
        _ts("in_progress_at"), _ts("finalizing_at"), _ts("completed_at"), _ts("failed_at"),
        _ts("expired_at"), _ts("cancelling_at"), _ts("cancelled_at"),
    )
    op.create_index("ix_batch_key_id", "batch", ["key_id"])
    op.create_index("ix_batch_status", "batch", ["status"])
    op.create_table(
        "batch_line",
        sa.Column("batch_id", sa.String(64), sa.ForeignKey("batch.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("line_no", sa.Integer, primary_key=True),
        sa.Column("custom_id", sa.String(512), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("lease_owner", sa.String(64), nullable=True),
        _ts("lease_until"),
        sa.Column("is_error", sa.Boolean, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        _ts("finished_at"),
    )
    op.create_index("ix_batch_line_claim", "batch_line", ["state", "lease_until"])
    op.add_column("request_log", sa.Column("batch_id", sa.String(64), nullable=True))
    op.add_column("request_log", sa.Column("batch_saved_usd", sa.Float, nullable=True))
    op.create_index("ix_request_log_batch_id", "request_log", ["batch_id"])


def downgrade() -> None:
    op.drop_index("ix_request_log_batch_id", "request_log")
    with op.batch_alter_table("request_log") as batch:  # SQLite drops a column by copying the table
        batch.drop_column("batch_saved_usd")
        batch.drop_column("batch_id")
    op.drop_index("ix_batch_line_claim", "batch_line")
    op.drop_table("batch_line")
    op.drop_index("ix_batch_status", "batch")
    op.drop_index("ix_batch_key_id", "batch")
    op.drop_table("batch")
    op.drop_index("ix_stored_file_key_id", "stored_file")
    op.drop_table("stored_file")

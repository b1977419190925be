"""feedback: quality signals joined with the request log for router retraining

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "feedback",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("request_id", sa.String(64), nullable=False),
        sa.Column("key_id", sa.String(64), nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("comment", sa.Text),
    )
    op.create_index("ix_feedback_request_id", "feedback", ["request_id"])


def downgrade() -> None:
    op.drop_index("ix_feedback_request_id", "feedback")
    op.drop_table("feedback")

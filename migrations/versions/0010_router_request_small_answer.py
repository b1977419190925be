"""router_request.small_answer: the small tier's answer of a cascaded request (escalation retraining)

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("router_request", sa.Column("small_answer", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("router_request") as batch:  # SQLite drops a column by copying the table
        batch.drop_column("small_answer")

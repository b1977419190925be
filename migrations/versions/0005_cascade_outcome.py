"""request_log.cascade_outcome: what cascade mode did with the small tier's answer

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("request_log", sa.Column("cascade_outcome", sa.String(32), nullable=True))  # accepted | escalated | escalation_failed


def downgrade() -> None:
    with op.batch_alter_table("request_log") as batch:  # SQLite drops a column by copying the table
        batch.drop_column("cascade_outcome")

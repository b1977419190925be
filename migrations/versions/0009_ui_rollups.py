"""request_log_hourly: hourly rollups of the request log for the admin UI

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "request_log_hourly",
        sa.Column("hour_start", sa.DateTime(timezone=True), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("request_log_hourly")

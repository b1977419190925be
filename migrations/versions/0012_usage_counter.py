"""usage_counter: per-key RPM/TPM windows and budget spend kept in the database (no Redis), so a
restart refuses what it refused before

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "usage_counter",
        sa.Column("name", sa.String(200), primary_key=True),  # rpm:<key>:<minute> | tpm:… | budget:<key>:<period>
        sa.Column("value", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_usage_counter_expires_at", "usage_counter", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_usage_counter_expires_at", table_name="usage_counter")
    op.drop_table("usage_counter")

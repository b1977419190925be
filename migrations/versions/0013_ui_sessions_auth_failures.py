"""ui_session and auth_failure: UI sessions and logouts, and failed admin logins, in the database
(they hold across restarts and replicas)

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ui_session",
        sa.Column("nonce", sa.String(64), primary_key=True),  # the random part of the signed session token
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),  # set by logout
    )
    op.create_index("ix_ui_session_expires_at", "ui_session", ["expires_at"])
    op.create_table(
        "auth_failure",
        sa.Column("scope", sa.String(128), primary_key=True),  # addr:<client address> | prefix:<hash>
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("auth_failure")
    op.drop_index("ix_ui_session_expires_at", table_name="ui_session")
    op.drop_table("ui_session")

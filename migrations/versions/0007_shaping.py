"""request_log: what output capping and prompt shaping did (finish_reason, max_tokens, cap, shaping,
prompt_cluster)

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_COLUMNS = (
    ("finish_reason", sa.String(32)),  # "length" when any choice was cut off by the output limit
    ("max_tokens", sa.Integer()),  # the output limit sent upstream, after capping
    ("cap", sa.String(16)),  # default | learned | clamped | null
    ("shaping", sa.String(256)),  # shaping mode and actions
    ("prompt_cluster", sa.String(16)),  # model + stable system prompt + tool names, hashed (learned caps)
)


def upgrade() -> None:
    for name, kind in _COLUMNS:
        op.add_column("request_log", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("request_log") as batch:  # SQLite drops a column by copying the table
        for name, _ in reversed(_COLUMNS):
            batch.drop_column(name)

"""A move the turn timer played for its player is marked as such (``moves.automatic``).

The table message recalls the last turns in words, and a turn the timer played reads
"(automatic: the turn timer ran out)". Those words were kept in memory only: after a
restart or a take-over, the turns recalled from the log lost them. The flag is stored with
the move, in the move's own transaction.

Moves logged before this revision are taken as played by their players (``false``): which
of them the timer played was not recorded.

Downgrade: the column is dropped.

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
    # a plain ALTER TABLE on both databases: the log is not copied (nor its trigger lost)
    op.add_column(
        "moves",
        sa.Column("automatic", sa.Boolean, nullable=False, server_default=sa.text("false")),
    )


def downgrade() -> None:
    op.drop_column("moves", "automatic")

"""Shard leases: which bot process owns which shard's tables, when several share one
PostgreSQL database (``stackbot run --shards``).

* ``shard_leases`` (new): one row per shard — the shard count it was claimed under, the
  process holding it (``owner``, its node id; NULL when free), the fencing ``token``
  (bumped at every claim) and when the lease runs out unless renewed (``expires_at``, by
  the database's clock). See :mod:`persistence.leases`.

A single process (the default, and every SQLite database) never writes this table.

Downgrade: the table is dropped.

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


def upgrade() -> None:
    op.create_table(
        "shard_leases",
        sa.Column("shard_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("shard_count", sa.Integer, nullable=False),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("token", sa.BigInteger, nullable=False, server_default=sa.text("0")),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("shard_id >= 0 AND shard_id < shard_count", name="ck_shard_in_range"),
    )


def downgrade() -> None:
    op.drop_table("shard_leases")

"""The outbox, table activity and ping fields, channel timers and expiry settings.

* ``outbox``: what a committed write owes its channel, delivered after the commit.
* ``tables``: ``last_active_at`` (the last human action), ``moved_at`` (created_at of the
  newest logged move, kept by the trigger on ``moves`` in the same INSERT that keeps the
  version) and ``pinged_version``.
* ``channel_settings``: ``rules`` may be NULL (a channel that overrides only the timer);
  ``turn_seconds`` (NULL: the server's).
* ``guild_settings``: ``lobby_timeout`` and ``idle_timeout`` in seconds.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
PENDING = sa.text("delivered_at IS NULL")

# The version follows the log, and moved_at is the newest logged move's time: the turn
# timer's deadline derives from the committed move with no statement of its own.
PG_FUNCTION = """
CREATE OR REPLACE FUNCTION stackbot_moves_version() RETURNS trigger AS $$
BEGIN
    UPDATE tables SET
        moved_at = CASE WHEN NEW.seq >= version THEN NEW.created_at ELSE moved_at END,
        version = GREATEST(version, NEW.seq)
    WHERE id = NEW.table_id;
    RETURN NEW;
END $$ LANGUAGE plpgsql
"""
SQLITE_TRIGGER = (
    "CREATE TRIGGER moves_version AFTER INSERT ON moves BEGIN "
    "UPDATE tables SET "
    "moved_at = CASE WHEN NEW.seq >= version THEN NEW.created_at ELSE moved_at END, "
    "version = MAX(version, NEW.seq) "
    "WHERE id = NEW.table_id; END"
)

PG_FUNCTION_0001 = """
CREATE OR REPLACE FUNCTION stackbot_moves_version() RETURNS trigger AS $$
BEGIN
    UPDATE tables SET version = GREATEST(version, NEW.seq) WHERE id = NEW.table_id;
    RETURN NEW;
END $$ LANGUAGE plpgsql
"""
SQLITE_TRIGGER_0001 = (
    "CREATE TRIGGER moves_version AFTER INSERT ON moves BEGIN "
    "UPDATE tables SET version = MAX(version, NEW.seq) WHERE id = NEW.table_id; END"
)


def _postgresql() -> bool:
    return bool(op.get_bind().dialect.name == "postgresql")


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("table_id", Id, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("content", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("kind IN ('message', 'table')", name="ck_outbox_kind"),
    )
    op.create_index(
        "ix_outbox_pending",
        "outbox",
        ["table_id", "id"],
        sqlite_where=PENDING,
        postgresql_where=PENDING,
    )
    op.add_column("tables", sa.Column("last_active_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("tables", sa.Column("moved_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("tables", sa.Column("pinged_version", sa.Integer, nullable=True))
    # Tables already open: their last activity and last move are as good as now known.
    op.execute(
        "UPDATE tables SET last_active_at = COALESCE(started_at, created_at) "
        "WHERE status IN ('lobby', 'playing')"
    )
    op.execute(
        "UPDATE tables SET moved_at = "
        "(SELECT MAX(m.created_at) FROM moves m WHERE m.table_id = tables.id) "
        "WHERE status = 'playing'"
    )
    with op.batch_alter_table("channel_settings") as batch:
        batch.alter_column("rules", existing_type=sa.JSON, nullable=True)
        batch.add_column(sa.Column("turn_seconds", sa.Integer, nullable=True))
    op.add_column(
        "guild_settings",
        sa.Column("lobby_timeout", sa.Integer, nullable=False, server_default=sa.text("3600")),
    )
    op.add_column(
        "guild_settings",
        sa.Column("idle_timeout", sa.Integer, nullable=False, server_default=sa.text("86400")),
    )
    if _postgresql():
        op.execute(PG_FUNCTION)
    else:
        op.execute("DROP TRIGGER moves_version")
        op.execute(SQLITE_TRIGGER)


def downgrade() -> None:
    if _postgresql():
        op.execute(PG_FUNCTION_0001)
    else:
        op.execute("DROP TRIGGER moves_version")
        op.execute(SQLITE_TRIGGER_0001)
    op.drop_column("guild_settings", "idle_timeout")
    op.drop_column("guild_settings", "lobby_timeout")
    op.execute("DELETE FROM channel_settings WHERE rules IS NULL")
    with op.batch_alter_table("channel_settings") as batch:
        batch.drop_column("turn_seconds")
        batch.alter_column("rules", existing_type=sa.JSON, nullable=False)
    op.drop_column("tables", "pinged_version")
    op.drop_column("tables", "moved_at")
    op.drop_column("tables", "last_active_at")
    op.drop_index("ix_outbox_pending", table_name="outbox")
    op.drop_table("outbox")

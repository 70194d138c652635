"""The initial schema: settings, tables, seats, moves, round scores, results and stats.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
ACTIVE = sa.text("status IN ('lobby', 'playing')")


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("rules", sa.JSON, nullable=True),
        sa.Column("turn_seconds", sa.Integer, nullable=False, server_default=sa.text("120")),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("turn_seconds >= 0", name="ck_guild_turn_seconds"),
    )
    op.create_table(
        "channel_settings",
        sa.Column("channel_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("host_id", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("rules", sa.JSON, nullable=True),
        sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("rounds_done", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("message_channel_id", sa.BigInteger, nullable=True),
        sa.Column("message_id", sa.BigInteger, nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('lobby', 'playing', 'finished', 'abandoned')", name="ck_tables_status"
        ),
    )
    op.create_index(
        "uq_tables_active_channel",
        "tables",
        ["channel_id"],
        unique=True,
        sqlite_where=ACTIVE,
        postgresql_where=ACTIVE,
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_table(
        "snapshots",
        sa.Column("table_id", Id, sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", Id, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("ai_level", sa.String(16), nullable=True),
        sa.Column("timeouts", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("left_game", sa.Boolean, nullable=False, server_default=sa.text("false")),
        sa.PrimaryKeyConstraint("table_id", "position"),
        sa.UniqueConstraint("table_id", "user_id", name="uq_seats_user"),
    )
    op.create_table(
        "moves",
        sa.Column("table_id", Id, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("move", sa.JSON, nullable=False),
        sa.Column("interaction_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq"),
        sa.UniqueConstraint("interaction_id", name="uq_moves_interaction"),
    )
    # The table's version is the length of its move log, kept by the database itself in
    # the same statement that appends a move.
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            """
            CREATE OR REPLACE FUNCTION stackbot_moves_version() RETURNS trigger AS $$
            BEGIN
                UPDATE tables SET version = GREATEST(version, NEW.seq) WHERE id = NEW.table_id;
                RETURN NEW;
            END $$ LANGUAGE plpgsql
            """
        )
        op.execute(
            "CREATE TRIGGER moves_version AFTER INSERT ON moves "
            "FOR EACH ROW EXECUTE FUNCTION stackbot_moves_version()"
        )
    else:
        op.execute(
            "CREATE TRIGGER moves_version AFTER INSERT ON moves BEGIN "
            "UPDATE tables SET version = MAX(version, NEW.seq) WHERE id = NEW.table_id; END"
        )
    op.create_table(
        "round_scores",
        sa.Column("table_id", Id, sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("round_no", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "round_no", "position"),
    )
    op.create_table(
        "results",
        sa.Column("table_id", Id, sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("winners", sa.JSON, nullable=False),
        sa.Column("totals", sa.JSON, nullable=False),
        sa.Column("rounds_played", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_results_channel", "results", ["channel_id", "finished_at"])
    op.create_table(
        "player_stats",
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("best_round", sa.Integer, nullable=False),
        sa.Column("captures", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id"),
    )
    op.create_index("ix_player_stats_wins", "player_stats", ["guild_id", "wins"])
    op.create_index("ix_player_stats_points", "player_stats", ["guild_id", "points"])


def downgrade() -> None:
    op.execute(
        "DROP TRIGGER IF EXISTS moves_version"
        + (" ON moves" if op.get_bind().dialect.name == "postgresql" else "")
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS stackbot_moves_version()")
    for name in (
        "player_stats",
        "results",
        "round_scores",
        "moves",
        "seats",
        "snapshots",
        "tables",
        "channel_settings",
        "guild_settings",
    ):
        op.drop_table(name)

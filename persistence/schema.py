"""The database schema (SQLAlchemy Core). Migrations in ``persistence/migrations`` build it."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    literal_column,
    text,
)
from sqlalchemy.sql.elements import ColumnElement

metadata = MetaData()

# SQLite only auto-increments an INTEGER PRIMARY KEY; PostgreSQL gets a BIGINT identity.
Id = BigInteger().with_variant(Integer(), "sqlite")

ACTIVE = ("lobby", "playing")
STATUSES = ("lobby", "playing", "finished", "abandoned")

GAME_NAME = String(32)  # a game's registry name (engine.games): "stack", "stackup"
SERVER_WIDE = 0  # house_rules.channel_id of a server's own rules (no channel id is 0)

# Per server: what is not a game's rules (the turn timer, expiry times, the pictures' theme,
# the language of its public messages).
guild_settings = Table(
    "guild_settings",
    metadata,
    Column("guild_id", BigInteger, primary_key=True, autoincrement=False),
    Column("turn_seconds", Integer, nullable=False, server_default=text("120")),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # seconds an idle lobby stays open, and a game may go without a human move
    Column("lobby_timeout", Integer, nullable=False, server_default=text("3600")),
    Column("idle_timeout", Integer, nullable=False, server_default=text("86400")),
    # the theme of the pictures drawn for the server
    Column("theme", String(8), nullable=False, server_default=text("'dark'")),
    # the language the server chose (a catalog code); NULL: not chosen (its locale's)
    Column("language", String(16), nullable=True),
    CheckConstraint("turn_seconds >= 0", name="ck_guild_turn_seconds"),
    CheckConstraint("theme IN ('dark', 'light')", name="ck_guild_theme"),
)

# A channel's own turn timer (a channel without one has no row).
channel_settings = Table(
    "channel_settings",
    metadata,
    Column("channel_id", BigInteger, primary_key=True, autoincrement=False),
    Column("guild_id", BigInteger, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("turn_seconds", Integer, nullable=False),
)

# A game's house rules (its settings model, as JSON) for a server (channel_id
# SERVER_WIDE) or one channel of it. A channel's rules belong to the channel (found by
# channel and game, whichever server asks, as a channel's settings always were).
house_rules = Table(
    "house_rules",
    metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("game", GAME_NAME, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("guild_id", "channel_id", "game"),
    Index(
        "uq_house_rules_channel",
        "channel_id",
        "game",
        unique=True,
        sqlite_where=text(f"channel_id <> {SERVER_WIDE}"),
        postgresql_where=text(f"channel_id <> {SERVER_WIDE}"),
    ),
)

tables = Table(
    "tables",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("host_id", BigInteger, nullable=False),
    Column("game", GAME_NAME, nullable=False, server_default=text("'stack'")),
    Column("status", String(16), nullable=False),
    Column("options", JSON, nullable=False),
    # the game's rules as the table plays them (JSON), from its start
    Column("rules", JSON, nullable=True),
    # the game's state (its to_dict(), whole) at log position initial_version, from the
    # start: the state every replay of the log starts from
    Column("initial", JSON, nullable=True),
    Column("initial_version", Integer, nullable=True),
    Column("version", Integer, nullable=False, server_default=text("0")),
    # rounds scored so far (rows in round_scores), for games played in rounds
    Column("rounds_done", Integer, nullable=False, server_default=text("0")),
    Column("message_channel_id", BigInteger, nullable=True),
    Column("message_id", BigInteger, nullable=True),
    Column("deadline", DateTime(timezone=True), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=True),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    # the last human action (created, a join, the start, a human's move)
    Column("last_active_at", DateTime(timezone=True), nullable=True),
    # created_at of the newest logged move, kept by the trigger on moves
    Column("moved_at", DateTime(timezone=True), nullable=True),
    # the version whose turn ping was delivered
    Column("pinged_version", Integer, nullable=True),
    CheckConstraint(
        "status IN ('lobby', 'playing', 'finished', 'abandoned')", name="ck_tables_status"
    ),
    # At most one active table per channel, enforced by the database itself.
    Index(
        "uq_tables_active_channel",
        "channel_id",
        unique=True,
        sqlite_where=text("status IN ('lobby', 'playing')"),
        postgresql_where=text("status IN ('lobby', 'playing')"),
    ),
    Index("ix_tables_status", "status"),
)

# The live state at some version (compact: only its latest round's turns); the moves
# logged after that version replay on top of it.
snapshots = Table(
    "snapshots",
    metadata,
    Column("table_id", Id, ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("state", JSON, nullable=False),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", Id, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("user_id", BigInteger, nullable=True),
    Column("name", String(100), nullable=False),
    Column("ai_level", String(16), nullable=True),
    Column("timeouts", Integer, nullable=False, server_default=text("0")),
    Column("left_game", Boolean, nullable=False, server_default=text("false")),
    PrimaryKeyConstraint("table_id", "position"),
    UniqueConstraint("table_id", "user_id", name="uq_seats_user"),
    Index("ix_seats_user", "user_id"),  # a player's games, for their stats
)

moves = Table(
    "moves",
    metadata,
    Column("table_id", Id, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("move", JSON, nullable=False),
    Column("interaction_id", String(32), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # played by the turn timer for its player (its turn's words say so)
    Column("automatic", Boolean, nullable=False, server_default=text("false")),
    PrimaryKeyConstraint("table_id", "seq"),
    UniqueConstraint("interaction_id", name="uq_moves_interaction"),
)

# The points of each seat in each scored round, for a game played in rounds.
round_scores = Table(
    "round_scores",
    metadata,
    Column("table_id", Id, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("round_no", Integer, nullable=False),
    Column("position", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    PrimaryKeyConstraint("table_id", "round_no", "position"),
)

# A finished game's result: who won, the final figure of each seat (Outcome.scores, counted
# as higher_wins says), how it ended (the game's word) and the rounds it took (0 for a game
# not played in rounds).
results = Table(
    "results",
    metadata,
    Column("table_id", Id, ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("guild_id", BigInteger, nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("game", GAME_NAME, nullable=False, server_default=text("'stack'")),
    Column("winners", JSON, nullable=False),
    Column("scores", JSON, nullable=False),
    Column("rounds_played", Integer, nullable=False),
    Column("ended_by", String(32), nullable=False),
    Column("higher_wins", Boolean, nullable=False, server_default=text("true")),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Index("ix_results_channel", "channel_id", "game", "finished_at"),
)

# A player's record in one game on one server: games, wins and points (their final figures
# added up) for every game, and the game's own figures (Game.stats_figures) in ``figures``:
# a key starting with ``best_`` keeps the highest value seen, every other key is summed.
player_stats = Table(
    "player_stats",
    metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("user_id", BigInteger, nullable=False),
    Column("game", GAME_NAME, nullable=False),
    Column("name", String(100), nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("points", Integer, nullable=False),
    Column("figures", JSON, nullable=False),
    PrimaryKeyConstraint("guild_id", "user_id", "game"),
    Index("ix_player_stats_wins", "guild_id", "game", "wins"),
    Index("ix_player_stats_points", "guild_id", "game", "points"),
)

# A rated player's skill in one game on one server (OpenSkill, Plackett-Luce: see
# persistence.ratings): a human (``player`` "user:<id>", ``user_id`` set) or an AI level
# (``player`` "ai:<level>", ``ai_level`` set: every seat of that level is the one player).
# ``ordinal`` (mu - 3 sigma) is what the leaderboard ranks by; ``games`` counts rated games.
ratings = Table(
    "ratings",
    metadata,
    Column("guild_id", BigInteger, nullable=False),
    Column("game", GAME_NAME, nullable=False),
    Column("player", String(40), nullable=False),
    Column("user_id", BigInteger, nullable=True),
    Column("ai_level", String(16), nullable=True),
    Column("name", String(100), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("ordinal", Float, nullable=False),
    Column("games", Integer, nullable=False),
    PrimaryKeyConstraint("guild_id", "game", "player"),
    Index("ix_ratings_ordinal", "guild_id", "game", "ordinal"),
)

# Each rated player's skill after each rated game (its table: a result's, or a game closed
# when someone left it), for the chart of their rating over their last games; written with
# the result (or the closing), in the same commit.
rating_history = Table(
    "rating_history",
    metadata,
    Column("table_id", Id, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("player", String(40), nullable=False),
    Column("guild_id", BigInteger, nullable=False),
    Column("game", GAME_NAME, nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "player"),
    Index("ix_rating_history_player", "guild_id", "game", "player", "finished_at"),
)

# What a write owes a channel, committed with the write and delivered afterwards: a message
# to post, or the table message to re-render.
outbox = Table(
    "outbox",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("table_id", Id, ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
    Column("channel_id", BigInteger, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("content", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("delivered_at", DateTime(timezone=True), nullable=True),
    Column("round_no", Integer, nullable=True),  # the round a 'round' row is about
    # the message a delivered row posted (its Discord id): owed rows of its channel are
    # looked for only among later posts, after a crash (bot.outbox.already_posted)
    Column("message_id", BigInteger, nullable=True),
    CheckConstraint("kind IN ('message', 'table', 'round', 'game')", name="ck_outbox_kind"),
    Index(
        "ix_outbox_pending",
        "table_id",
        "id",
        sqlite_where=text("delivered_at IS NULL"),
        postgresql_where=text("delivered_at IS NULL"),
    ),
)


# Which bot process owns which shard's tables, when several share one PostgreSQL database
# (``stackbot run --shards``): the holder's node id, the fencing token (bumped at every
# claim) and when the lease runs out unless renewed (persistence.leases). A single process
# never writes it.
shard_leases = Table(
    "shard_leases",
    metadata,
    Column("shard_id", Integer, primary_key=True, autoincrement=False),
    Column("shard_count", Integer, nullable=False),
    Column("owner", String(64), nullable=True),
    Column("token", BigInteger, nullable=False, server_default=text("0")),
    Column("expires_at", DateTime(timezone=True), nullable=True),
    Column("claimed_at", DateTime(timezone=True), nullable=True),
    CheckConstraint("shard_id >= 0 AND shard_id < shard_count", name="ck_shard_in_range"),
)


def is_active() -> ColumnElement[bool]:
    """``tables.status IN ('lobby', 'playing')`` with the statuses written out, as in the
    partial index on active channels, so that SQLite can use that index."""
    return tables.c.status.in_([literal_column(f"'{status}'") for status in ACTIVE])

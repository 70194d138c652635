"""Many games: every table, setting, result and stat names its game; what is a game's own
is stored as the game encodes it (JSON).

(Issue 9 calls this migration "0002"; 0002 to 0004 were taken by then, so it is 0005.)

* ``tables``: ``game`` (``'stack'`` for every table of before); ``initial`` and
  ``initial_version``, the game's whole state at a log position, from which any game's
  log replays (for a table of before: a new Stack state among its seats under its rules,
  at position 0, since its whole log is stored).
* ``house_rules`` (new): a game's house rules for a server (``channel_id`` 0) or a
  channel, keyed by server, channel and game (a channel's unique by channel and game). The Stack rules of ``guild_settings`` and
  ``channel_settings`` move there as the ``'stack'`` game's; the timer, expiry times and
  theme stay where they were. A channel row that only held rules goes (a channel row is
  now its turn timer, never NULL).
* ``results``: ``game``; ``totals`` is now ``scores`` (the outcome's figure per seat);
  ``ended_by`` (``'target'``, how every Stack game of before ended) and ``higher_wins``;
  the channel index covers the game.
* ``player_stats``: keyed by (server, player, game), with games, wins and points for every
  game and the game's own figures in ``figures`` (JSON). Stack's ``best_round``,
  ``captures``, ``rounds`` and ``placed_1`` .. ``placed_6`` move there, values unchanged.

Downgrade: back to 0004's Stack-only shape. What only a game other than Stack had is
lost on the way down (its tables with their logs and results, its house rules, its
players' stats), since the code of 0004 cannot read it.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

log = logging.getLogger(__name__)
GAME = sa.String(32)
STACK = "stack"
SERVER_WIDE = 0
A_CHANNEL = sa.text("channel_id <> 0")
PLACED = tuple(f"placed_{face}" for face in range(1, 7))
STACK_FIGURES = ("best_round", "captures", "rounds", *PLACED)
CHUNK = 1000

# The rows this migration reads and writes, as typed constructs (JSON parsed and written
# as JSON on every back end).
TABLES = sa.table(
    "tables",
    sa.column("id", sa.BigInteger),
    sa.column("rules", sa.JSON),
    sa.column("initial", sa.JSON),
    sa.column("initial_version", sa.Integer),
)
SEATS = sa.table(
    "seats", sa.column("table_id", sa.BigInteger), sa.column("position"), sa.column("name")
)
HOUSE_RULES = sa.table(
    "house_rules",
    sa.column("guild_id", sa.BigInteger),
    sa.column("channel_id", sa.BigInteger),
    sa.column("game", GAME),
    sa.column("rules", sa.JSON),
    sa.column("updated_at", sa.DateTime(timezone=True)),
)


def _settings_table(name: str, *extra: sa.ColumnClause[Any]) -> sa.TableClause:
    return sa.table(
        name,
        sa.column("guild_id", sa.BigInteger),
        sa.column("rules", sa.JSON),
        sa.column("updated_at", sa.DateTime(timezone=True)),
        *extra,
    )


GUILD_SETTINGS = _settings_table("guild_settings")
CHANNEL_SETTINGS = _settings_table(
    "channel_settings", sa.column("channel_id", sa.BigInteger), sa.column("turn_seconds")
)


def upgrade() -> None:
    conn = op.get_bind()
    # tables: plain ADD COLUMNs (a batch copy of "tables" would cascade-delete its rows'
    # seats, moves and results on SQLite)
    op.add_column(
        "tables", sa.Column("game", GAME, nullable=False, server_default=sa.text("'stack'"))
    )
    op.add_column("tables", sa.Column("initial", sa.JSON, nullable=True))
    op.add_column("tables", sa.Column("initial_version", sa.Integer, nullable=True))
    _fill_initial_states(conn)

    op.create_table(
        "house_rules",
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("game", GAME, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "channel_id", "game"),
    )
    op.create_index(
        "uq_house_rules_channel",
        "house_rules",
        ["channel_id", "game"],
        unique=True,
        sqlite_where=A_CHANNEL,
        postgresql_where=A_CHANNEL,
    )
    _move_rules_up(conn)
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("rules")
    op.execute("DELETE FROM channel_settings WHERE turn_seconds IS NULL")
    with op.batch_alter_table("channel_settings") as batch:
        batch.drop_column("rules")
        batch.alter_column("turn_seconds", existing_type=sa.Integer, nullable=False)

    with op.batch_alter_table("results") as batch:
        batch.add_column(sa.Column("game", GAME, nullable=False, server_default=sa.text("'stack'")))
        batch.alter_column(
            "totals", new_column_name="scores", existing_type=sa.JSON, existing_nullable=False
        )
        batch.add_column(sa.Column("ended_by", sa.String(32), nullable=True))
        batch.add_column(
            sa.Column("higher_wins", sa.Boolean, nullable=False, server_default=sa.true())
        )
        batch.drop_index("ix_results_channel")
        batch.create_index("ix_results_channel", ["channel_id", "game", "finished_at"])
    op.execute("UPDATE results SET ended_by = 'target'")  # how every Stack game ended
    with op.batch_alter_table("results") as batch:
        batch.alter_column("ended_by", existing_type=sa.String(32), nullable=False)

    _rebuild_player_stats_up(conn)


def downgrade() -> None:
    conn = op.get_bind()
    others = "SELECT id FROM tables WHERE game <> 'stack'"
    for child in ("outbox", "round_scores", "results", "moves", "seats", "snapshots"):
        op.execute(f"DELETE FROM {child} WHERE table_id IN ({others})")
    op.execute("DELETE FROM tables WHERE game <> 'stack'")

    _rebuild_player_stats_down(conn)

    op.execute("DELETE FROM results WHERE game <> 'stack'")
    with op.batch_alter_table("results") as batch:
        batch.drop_index("ix_results_channel")
        batch.create_index("ix_results_channel", ["channel_id", "finished_at"])
        batch.drop_column("higher_wins")
        batch.drop_column("ended_by")
        batch.drop_column("game")
        batch.alter_column(
            "scores", new_column_name="totals", existing_type=sa.JSON, existing_nullable=False
        )

    op.add_column("guild_settings", sa.Column("rules", sa.JSON, nullable=True))
    with op.batch_alter_table("channel_settings") as batch:
        batch.add_column(sa.Column("rules", sa.JSON, nullable=True))
        batch.alter_column("turn_seconds", existing_type=sa.Integer, nullable=True)
    _move_rules_down(conn)
    op.drop_index("uq_house_rules_channel", table_name="house_rules")
    op.drop_table("house_rules")

    # plain DROP COLUMNs (SQLite 3.35+), for the reason given in upgrade()
    op.drop_column("tables", "initial_version")
    op.drop_column("tables", "initial")
    op.drop_column("tables", "game")


# ------------------------------------------------------------------------- tables


def _fill_initial_states(conn: sa.Connection) -> None:
    """Each started table's new Stack state among its seats under its rules: its whole
    log replays from there."""
    from engine.stack.rules import StackRules
    from engine.stack.state import StackState

    started = conn.execute(
        sa.select(TABLES.c.id, TABLES.c.rules)
        .where(TABLES.c.rules.is_not(None))
        .order_by(TABLES.c.id)
    ).all()
    names: dict[int, list[str]] = {}
    for seat in conn.execute(
        sa.select(SEATS.c.table_id, SEATS.c.name).order_by(SEATS.c.table_id, SEATS.c.position)
    ):
        names.setdefault(seat.table_id, []).append(seat.name)
    filled = []
    for row in started:
        rules = _json(row.rules)
        if not isinstance(rules, dict):
            continue
        try:
            state = StackState(tuple(names.get(row.id, ())), StackRules.model_validate(rules))
        except ValueError as err:  # cannot happen for a table this code started
            log.warning("table %s: no initial state (%s); it cannot be replayed", row.id, err)
            continue
        filled.append({"b_id": row.id, "b_initial": state.to_dict()})
    statement = (
        TABLES.update()
        .where(TABLES.c.id == sa.bindparam("b_id"))
        .values(initial=sa.bindparam("b_initial", type_=sa.JSON), initial_version=0)
    )
    for chunk in _chunks(filled):
        conn.execute(statement, chunk)


# ------------------------------------------------------------------------- settings


def _move_rules_up(conn: sa.Connection) -> None:
    """The Stack house rules of servers and channels, as the 'stack' game's."""
    moved = []
    for g in conn.execute(
        sa.select(GUILD_SETTINGS.c.guild_id, GUILD_SETTINGS.c.rules, GUILD_SETTINGS.c.updated_at)
    ):
        rules = _json(g.rules)
        if isinstance(rules, dict) and rules:  # {} and NULL both meant the defaults
            moved.append(_rules_row(g.guild_id, SERVER_WIDE, rules, g.updated_at))
    for c in conn.execute(
        sa.select(
            CHANNEL_SETTINGS.c.guild_id,
            CHANNEL_SETTINGS.c.channel_id,
            CHANNEL_SETTINGS.c.rules,
            CHANNEL_SETTINGS.c.updated_at,
        )
    ):
        rules = _json(c.rules)
        if isinstance(rules, dict):
            moved.append(_rules_row(c.guild_id, c.channel_id, rules, c.updated_at))
    for chunk in _chunks(moved):
        conn.execute(HOUSE_RULES.insert(), chunk)


def _rules_row(
    guild_id: int, channel_id: int, rules: dict[str, Any], updated_at: Any
) -> dict[str, Any]:
    return {
        "guild_id": guild_id,
        "channel_id": channel_id,
        "game": STACK,
        "rules": rules,
        "updated_at": updated_at or datetime.now(UTC),
    }


def _move_rules_down(conn: sa.Connection) -> None:
    """The 'stack' game's house rules back into the server's and channels' settings."""
    stack = conn.execute(sa.select(HOUSE_RULES).where(HOUSE_RULES.c.game == STACK)).all()
    guilds = {r.guild_id: r for r in stack if r.channel_id == SERVER_WIDE}
    channels = {r.channel_id: r for r in stack if r.channel_id != SERVER_WIDE}
    known_guilds = set(conn.execute(sa.select(GUILD_SETTINGS.c.guild_id)).scalars())
    for guild_id, r in guilds.items():
        if guild_id in known_guilds:
            conn.execute(
                GUILD_SETTINGS.update()
                .where(GUILD_SETTINGS.c.guild_id == guild_id)
                .values(rules=r.rules)
            )
        else:
            conn.execute(
                GUILD_SETTINGS.insert().values(
                    guild_id=guild_id, rules=r.rules, updated_at=r.updated_at
                )
            )
    timed = set(conn.execute(sa.select(CHANNEL_SETTINGS.c.channel_id)).scalars())
    for channel_id, r in channels.items():
        if channel_id in timed:
            conn.execute(
                CHANNEL_SETTINGS.update()
                .where(CHANNEL_SETTINGS.c.channel_id == channel_id)
                .values(rules=r.rules)
            )
        else:
            conn.execute(
                CHANNEL_SETTINGS.insert().values(
                    channel_id=channel_id,
                    guild_id=r.guild_id,
                    rules=r.rules,
                    updated_at=r.updated_at,
                    turn_seconds=None,
                )
            )


# ------------------------------------------------------------------------- stats


def _rebuild_player_stats_up(conn: sa.Connection) -> None:
    """player_stats keyed by game, with Stack's columns moved into ``figures``."""
    old = sa.Table("player_stats", sa.MetaData(), autoload_with=conn)
    rows = [
        {
            "guild_id": r.guild_id,
            "user_id": r.user_id,
            "game": STACK,
            "name": r.name,
            "games": r.games,
            "wins": r.wins,
            "points": r.points,
            "figures": {key: int(getattr(r, key)) for key in STACK_FIGURES},
        }
        for r in conn.execute(sa.select(old))
    ]
    op.drop_index("ix_player_stats_wins", table_name="player_stats")
    op.drop_index("ix_player_stats_points", table_name="player_stats")
    op.drop_table("player_stats")
    new = op.create_table(
        "player_stats",
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("game", GAME, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("figures", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", "game"),
    )
    op.create_index("ix_player_stats_wins", "player_stats", ["guild_id", "game", "wins"])
    op.create_index("ix_player_stats_points", "player_stats", ["guild_id", "game", "points"])
    assert new is not None
    for chunk in _chunks(rows):
        conn.execute(new.insert(), chunk)


def _rebuild_player_stats_down(conn: sa.Connection) -> None:
    """player_stats of Stack alone, with its figures back in their columns."""
    current = sa.Table("player_stats", sa.MetaData(), autoload_with=conn)
    rows = []
    for r in conn.execute(sa.select(current).where(current.c.game == STACK)):
        figures = _json(r.figures) or {}
        rows.append(
            {
                "guild_id": r.guild_id,
                "user_id": r.user_id,
                "name": r.name,
                "games": r.games,
                "wins": r.wins,
                "points": r.points,
                **{key: int(figures.get(key, 0)) for key in STACK_FIGURES},
            }
        )
    op.drop_index("ix_player_stats_wins", table_name="player_stats")
    op.drop_index("ix_player_stats_points", table_name="player_stats")
    op.drop_table("player_stats")
    old = op.create_table(
        "player_stats",
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("best_round", sa.Integer, nullable=False),
        sa.Column("captures", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False, server_default="0"),
        *(sa.Column(c, sa.Integer, nullable=False, server_default="0") for c in PLACED),
        sa.PrimaryKeyConstraint("guild_id", "user_id"),
    )
    op.create_index("ix_player_stats_wins", "player_stats", ["guild_id", "wins"])
    op.create_index("ix_player_stats_points", "player_stats", ["guild_id", "points"])
    assert old is not None
    for chunk in _chunks(rows):
        conn.execute(old.insert(), chunk)


# ------------------------------------------------------------------------- helpers


def _chunks(rows: list[dict[str, Any]]) -> Iterable[list[dict[str, Any]]]:
    for start in range(0, len(rows), CHUNK):
        yield rows[start : start + CHUNK]


def _json(value: Any) -> Any:
    """A JSON value as read (text on a reflected column of some back ends)."""
    if isinstance(value, str):
        return json.loads(value)
    return value

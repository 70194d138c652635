"""Ratings: each player's skill per server and game (OpenSkill, Plackett-Luce), and its
history game by game.

* ``ratings`` (new): one row per rated player (a human, or an AI level) per server and
  game: mu, sigma, the ordinal (mu - 3 sigma) and the games rated.
* ``rating_history`` (new): each rated player's mu and sigma after each rated game.

Both are filled in from the results already stored, rated from scratch in game order
(``finished_at``, then table id) as :mod:`persistence.ratings` rates a game's end; a
table's sides (teams) come from its initial state.

Downgrade: both tables are dropped.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

log = logging.getLogger(__name__)
CHUNK = 500

META = sa.MetaData()
RESULTS = sa.Table(
    "results",
    META,
    sa.Column("table_id", sa.BigInteger),
    sa.Column("guild_id", sa.BigInteger),
    sa.Column("game", sa.String(32)),
    sa.Column("winners", sa.JSON),
    sa.Column("scores", sa.JSON),
    sa.Column("higher_wins", sa.Boolean),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
)
TABLES = sa.Table("tables", META, sa.Column("id", sa.BigInteger), sa.Column("initial", sa.JSON))
SEATS = sa.Table(
    "seats",
    META,
    sa.Column("table_id", sa.BigInteger),
    sa.Column("position", sa.Integer),
    sa.Column("user_id", sa.BigInteger),
    sa.Column("name", sa.String(100)),
    sa.Column("ai_level", sa.String(16)),
    sa.Column("left_game", sa.Boolean),
)
GAME = sa.String(32)
Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    ratings = op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("game", GAME, nullable=False),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("user_id", sa.BigInteger, nullable=True),
        sa.Column("ai_level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "game", "player"),
    )
    op.create_index("ix_ratings_ordinal", "ratings", ["guild_id", "game", "ordinal"])
    history = op.create_table(
        "rating_history",
        sa.Column(
            "table_id",
            Id,
            sa.ForeignKey("results.table_id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("game", GAME, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "player"),
    )
    op.create_index(
        "ix_rating_history_player",
        "rating_history",
        ["guild_id", "game", "player", "finished_at"],
    )
    assert ratings is not None and history is not None
    _backfill(op.get_bind(), ratings, history)


def downgrade() -> None:
    op.drop_index("ix_rating_history_player", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_ordinal", "ratings")
    op.drop_table("ratings")


def _backfill(conn: sa.Connection, ratings: sa.Table, history: sa.Table) -> None:
    """Every stored result rated from scratch, in game order."""
    from persistence.ratings import rating_row, replay

    replayed = replay(stored_games(conn))
    rows = [
        rating_row(guild_id, game, player, skill)
        for (guild_id, game, _), (player, skill) in replayed.skills.items()
    ]
    for chunk in _chunks(rows):
        conn.execute(ratings.insert(), chunk)
    for chunk in _chunks(replayed.history):
        conn.execute(history.insert(), chunk)


def stored_games(conn: sa.Connection) -> list[Any]:
    """The stored results as :class:`persistence.ratings.RatedGame` values (sides from
    each table's initial state; every seat alone where it has none)."""
    from engine import games
    from persistence.ratings import RatedGame
    from persistence.records import SeatInfo

    seats: dict[int, list[SeatInfo]] = {}
    for s in conn.execute(sa.select(SEATS).order_by(SEATS.c.table_id, SEATS.c.position)):
        seats.setdefault(s.table_id, []).append(
            SeatInfo(s.position, s.user_id, s.name, s.ai_level, 0, bool(s.left_game))
        )
    found = []
    rows = conn.execute(
        sa.select(RESULTS, TABLES.c.initial).join(TABLES, TABLES.c.id == RESULTS.c.table_id)
    )
    for r in rows:
        sides: list[list[int]] = []
        try:
            game = games.get(r.game)
            if r.initial is not None:
                sides = [list(side) for side in game.sides(game.state_from_dict(r.initial))]
        except (games.UnknownGame, ValueError) as err:  # a game this code does not know
            log.warning("table %s: sides unknown (%s); every seat rated alone", r.table_id, err)
        found.append(
            RatedGame(
                r.table_id,
                r.guild_id,
                r.game,
                _aware(r.finished_at),
                list(r.winners),
                list(r.scores),
                bool(r.higher_wins),
                seats.get(r.table_id, []),
                sides,
            )
        )
    return found


def _aware(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _chunks(rows: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(rows), CHUNK):
        yield rows[start : start + CHUNK]

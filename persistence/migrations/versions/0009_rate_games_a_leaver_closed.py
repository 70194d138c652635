"""Ratings of the games closed before their end that someone walked away from: a game
whose last human left, timed out or ended it, or that expired with one human at most
still seated, rates those humans last; one ended or expired after a player left, with two
humans or more still seated, rates its leavers last; every side that played on ties above
them (:func:`persistence.ratings.closed_game`), so that leaving does not spare a rating.

* ``rating_history.table_id`` now refers to ``tables.id`` (a closed game has no result
  row); it referred to ``results.table_id``.
* ``ratings`` and ``rating_history`` are rated again from scratch, in game order: the
  stored results and the games closed before their end (``finished_at``, then table
  id).

Downgrade: ``rating_history`` refers to ``results.table_id`` again, and both tables are
rated again from the results alone (as revision 0007 rated them).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
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
TABLES = sa.Table(
    "tables",
    META,
    sa.Column("id", sa.BigInteger),
    sa.Column("guild_id", sa.BigInteger),
    sa.Column("game", sa.String(32)),
    sa.Column("status", sa.String(16)),
    sa.Column("initial", sa.JSON),
    sa.Column("started_at", sa.DateTime(timezone=True)),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
)
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
RATINGS = sa.Table(
    "ratings",
    META,
    sa.Column("guild_id", sa.BigInteger),
    sa.Column("game", sa.String(32)),
    sa.Column("player", sa.String(40)),
    sa.Column("user_id", sa.BigInteger),
    sa.Column("ai_level", sa.String(16)),
    sa.Column("name", sa.String(100)),
    sa.Column("mu", sa.Float),
    sa.Column("sigma", sa.Float),
    sa.Column("ordinal", sa.Float),
    sa.Column("games", sa.Integer),
)
GAME = sa.String(32)
Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    history = _history_to("tables.id")
    _backfill(op.get_bind(), history, closed=True)


def downgrade() -> None:
    history = _history_to("results.table_id")
    _backfill(op.get_bind(), history, closed=False)


def _history_to(target: str) -> sa.Table:
    """``rating_history`` made anew (empty), its ``table_id`` referring to ``target``."""
    op.drop_index("ix_rating_history_player", "rating_history")
    op.drop_table("rating_history")
    history = op.create_table(
        "rating_history",
        sa.Column(
            "table_id",
            Id,
            sa.ForeignKey(target, ondelete="CASCADE"),
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
    assert history is not None
    return history


def _backfill(conn: sa.Connection, history: sa.Table, *, closed: bool) -> None:
    """Every stored result (and, with ``closed``, every closed game a player left) rated
    from scratch, in game order."""
    from persistence.ratings import rating_row, replay

    conn.execute(sa.delete(RATINGS))
    replayed = replay(rated_games(conn, closed=closed))
    rows = [
        rating_row(guild_id, game, player, skill)
        for (guild_id, game, _), (player, skill) in replayed.skills.items()
    ]
    for chunk in _chunks(rows):
        conn.execute(RATINGS.insert(), chunk)
    for chunk in _chunks(replayed.history):
        conn.execute(history.insert(), chunk)


def rated_games(conn: sa.Connection, *, closed: bool = True) -> list[Any]:
    """The stored results, and (with ``closed``) the games closed without a result that a
    player left, as :class:`persistence.ratings.RatedGame` values (sides from each
    table's initial state; every seat alone where it has none)."""
    from persistence.gamebook import sides_of
    from persistence.ratings import RatedGame, closed_game
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
                sides_of(r.game, r.initial),
            )
        )
    if not closed:
        return found
    abandoned = conn.execute(  # the games closed before their end (not lobbies)
        sa.select(TABLES).where(
            TABLES.c.status == "abandoned",
            TABLES.c.started_at.is_not(None),
            TABLES.c.finished_at.is_not(None),
        )
    )
    for t in abandoned:
        game = closed_game(
            t.id,
            t.guild_id,
            t.game,
            _aware(t.finished_at),
            seats.get(t.id, []),
            sides_of(t.game, t.initial),
        )
        if game is not None:
            found.append(game)
    return found


def _aware(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _chunks(rows: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(rows), CHUNK):
        yield rows[start : start + CHUNK]

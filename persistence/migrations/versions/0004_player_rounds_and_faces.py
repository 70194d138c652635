"""A player's rounds played and dice placed per face; an index on a seat's player.

* ``player_stats``: ``rounds`` (rounds played, for the average round score) and
  ``placed_1`` .. ``placed_6`` (dice placed on a pile per face, for the favourite face),
  filled in for the games already played: each finished game is replayed from its move
  log and credited as the writer credits a game's end (not to a seat its player left).
* ``seats``: ``ix_seats_user``, to find a player's recent games.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

PLACED = tuple(f"placed_{face}" for face in range(1, 7))


def upgrade() -> None:
    with op.batch_alter_table("player_stats") as batch:
        batch.add_column(sa.Column("rounds", sa.Integer, nullable=False, server_default="0"))
        for column in PLACED:
            batch.add_column(sa.Column(column, sa.Integer, nullable=False, server_default="0"))
    op.create_index("ix_seats_user", "seats", ["user_id"])
    _fill_in(op.get_bind())


def downgrade() -> None:
    op.drop_index("ix_seats_user", "seats")
    with op.batch_alter_table("player_stats") as batch:
        for column in ("rounds", *PLACED):
            batch.drop_column(column)


def _fill_in(conn: sa.Connection) -> None:
    """Rounds and dice placed of the games already finished, per credited player."""
    from engine.stack.moves import move_from_json
    from engine.stack.rules import StackRules
    from engine.stack.state import StackState

    meta = sa.MetaData()
    results = sa.Table("results", meta, autoload_with=conn)
    tables = sa.Table("tables", meta, autoload_with=conn)
    seats = sa.Table("seats", meta, autoload_with=conn)
    moves = sa.Table("moves", meta, autoload_with=conn)
    player_stats = sa.Table("player_stats", meta, autoload_with=conn)

    credit: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0] * 7)
    games = conn.execute(
        sa.select(results.c.table_id, results.c.guild_id, results.c.rounds_played, tables.c.rules)
        .join(tables, tables.c.id == results.c.table_id)
        .order_by(results.c.table_id)
    ).all()
    for game in games:
        table_seats = conn.execute(
            sa.select(seats.c.position, seats.c.user_id, seats.c.name, seats.c.left_game)
            .where(seats.c.table_id == game.table_id)
            .order_by(seats.c.position)
        ).all()
        counts: list[list[int]] | None = None
        try:
            state = StackState(
                tuple(s.name for s in table_seats), StackRules.model_validate(_json(game.rules))
            )
            for row in conn.execute(
                sa.select(moves.c.move)
                .where(moves.c.table_id == game.table_id)
                .order_by(moves.c.seq)
            ):
                state.apply(move_from_json(_json(row.move)))
            counts = placed_counts(state)
        except Exception:  # a log that does not replay: its rounds still count
            counts = None
        for seat in table_seats:
            if seat.user_id is None or seat.left_game:
                continue
            tally = credit[(game.guild_id, seat.user_id)]
            tally[0] += game.rounds_played
            if counts is not None:
                for face in range(6):
                    tally[face + 1] += counts[seat.position][face]
    for (guild_id, user_id), tally in credit.items():
        conn.execute(
            player_stats.update()
            .where(player_stats.c.guild_id == guild_id, player_stats.c.user_id == user_id)
            .values(rounds=tally[0], **{c: tally[i + 1] for i, c in enumerate(PLACED)})
        )


def placed_counts(state: Any) -> list[list[int]]:
    """Per seat, the dice it placed on a pile in the state's history, per face:
    ``counts[seat][face - 1]``. A stack places the die's face; a reroll places the rolled
    face when the die went onto a pile (not when it came back unstacked). The state holds
    its whole history (it was replayed from the whole log)."""
    counts = [[0] * 6 for _ in range(len(state.players))]
    for rnd in state.history:
        for turn in rnd["turns"]:
            if turn[0] == "stack":
                counts[turn[1]][turn[2] - 1] += 1
            elif turn[4] is not None:  # ("reroll", seat, face, rolled, owner, height)
                counts[turn[1]][turn[3] - 1] += 1
    return counts


def _json(value: Any) -> Any:
    """A JSON column as read by a reflected table (text on some back ends)."""
    if isinstance(value, str):
        import json

        return json.loads(value)
    return value

"""A turn limit a server or a table sets is at most 10,000 turns (Stack Up! and Color
Stack): a stored house rule above that is lowered to it, and so is a lobby's own option
(a game in progress keeps its rules: they are the game's, in its snapshot and record).

Before, any whole number was taken and a number past 64 bits failed to store, with an
error the admin could not act on; 10,000 turns is twenty times Stack Up!'s default and
more than thirty times Color Stack's, so no limit that was meant to bind is changed.

Downgrade: nothing to undo (the values lowered are not kept).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

MOST = 10_000  # engine.stackup.rules / engine.colorstack.rules MAX_HOUSE_TURN_LIMIT
GAMES = ("stackup", "colorstack")

META = sa.MetaData()
HOUSE_RULES = sa.Table(
    "house_rules",
    META,
    sa.Column("guild_id", sa.BigInteger),
    sa.Column("channel_id", sa.BigInteger),
    sa.Column("game", sa.String(32)),
    sa.Column("rules", sa.JSON),
)
TABLES = sa.Table(
    "tables",
    META,
    sa.Column("id", sa.BigInteger),
    sa.Column("game", sa.String(32)),
    sa.Column("status", sa.String(16)),
    sa.Column("options", sa.JSON),
)


def _lowered(values: Any) -> dict[str, Any] | None:
    """``values`` with its turn limit lowered to :data:`MOST`, or ``None`` if it is
    within (or has none)."""
    if not isinstance(values, dict):
        return None
    limit = values.get("turn_limit")  # a number past 64 bits may read back as a float
    if not isinstance(limit, int | float) or isinstance(limit, bool) or limit <= MOST:
        return None
    return {**values, "turn_limit": MOST}


def upgrade() -> None:
    conn = op.get_bind()
    h = HOUSE_RULES.c
    for row in conn.execute(sa.select(HOUSE_RULES).where(h.game.in_(GAMES))).all():
        lowered = _lowered(row.rules)
        if lowered is not None:
            conn.execute(
                HOUSE_RULES.update()
                .where(h.guild_id == row.guild_id, h.channel_id == row.channel_id)
                .where(h.game == row.game)
                .values(rules=lowered)
            )
    t = TABLES.c
    lobbies = sa.select(TABLES).where(t.game.in_(GAMES), t.status == "lobby")
    for row in conn.execute(lobbies).all():
        lowered = _lowered(row.options)
        if lowered is not None:
            conn.execute(TABLES.update().where(t.id == row.id).values(options=lowered))


def downgrade() -> None:
    pass

"""A channel's house-rule override holds only the rules set for that channel.

Before, ``/houserules set KEY VALUE here:true`` stored a copy of every rule of the game for
the channel, so that the server's later changes never reached it again. From this revision
a channel's row holds only the rules set for it, and every other rule follows the server's
(and the defaults).

A row stored before cannot tell which of its rules were set for the channel and which were
copied from the server. Each is narrowed to the rules whose value differs from what the
channel would have without it (the server's row over the game's defaults, as they were at
this revision): every table opened in that channel gets exactly the rules it got before,
and a rule equal to the server's now follows the server's next change. A rule the server
changed after the copy was made stays the channel's (it is what the channel plays), shown
as overridden there, and ``/houserules reset here:true`` removes it.

Downgrade: every channel's row is written out in full again (the server's rules over the
defaults, the channel's over them), as the release before reads it.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

SERVER_WIDE = 0  # persistence.schema.SERVER_WIDE: the channel id of a server's own row
DEFAULTS: dict[str, dict[str, Any]] = {  # each game's house rules' defaults at this revision
    "stack": {
        "target_score": 200,
        "dice_per_player": 14,
        "four_high_bonus": False,
        "capture_penalty": False,
        "rolled_two_penalty": False,
        "tie_break": "extra_round",
        "teams": False,
    },
    "stackup": {"turn_limit": 500},
    "colorstack": {"board": "light", "turn_limit": 300},
}

META = sa.MetaData()
HOUSE_RULES = sa.Table(
    "house_rules",
    META,
    sa.Column("guild_id", sa.BigInteger),
    sa.Column("channel_id", sa.BigInteger),
    sa.Column("game", sa.String(32)),
    sa.Column("rules", sa.JSON),
)


def _rows() -> tuple[Any, list[Any], dict[tuple[int, str], dict[str, Any]]]:
    """The connection, every channel's row, and each server's rules in force by (server,
    game): its row over the game's defaults."""
    conn = op.get_bind()
    rows = conn.execute(sa.select(HOUSE_RULES)).all()
    servers = {
        (r.guild_id, r.game): {**DEFAULTS.get(r.game, {}), **r.rules}
        for r in rows
        if r.channel_id == SERVER_WIDE and isinstance(r.rules, dict)
    }
    channels = [r for r in rows if r.channel_id != SERVER_WIDE and isinstance(r.rules, dict)]
    return conn, channels, servers


def _store(conn: Any, row: Any, rules: dict[str, Any]) -> None:
    h = HOUSE_RULES.c
    conn.execute(
        HOUSE_RULES.update()
        .where(h.guild_id == row.guild_id, h.channel_id == row.channel_id, h.game == row.game)
        .values(rules=rules)
    )


def upgrade() -> None:
    conn, channels, servers = _rows()
    for row in channels:
        server = servers.get((row.guild_id, row.game), DEFAULTS.get(row.game, {}))
        own = {k: v for k, v in row.rules.items() if k not in server or server[k] != v}
        if own != row.rules:
            _store(conn, row, own)


def downgrade() -> None:
    conn, channels, servers = _rows()
    for row in channels:
        server = servers.get((row.guild_id, row.game), DEFAULTS.get(row.game, {}))
        full = {**server, **row.rules}
        if full != row.rules:
            _store(conn, row, full)

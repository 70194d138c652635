"""A server's picture theme, and outbox rows for round and game ends.

* ``guild_settings.theme``: ``dark`` (the default) or ``light``, the theme of the table
  picture and charts the bot draws for that server.
* ``outbox``: two more kinds, ``round`` (a round's short summary, with a button for its
  full scoring) and ``game`` (the game's end, with its chart), and ``round_no``, the round
  a ``round`` row is about.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

KINDS_0002 = "kind IN ('message', 'table')"
KINDS = "kind IN ('message', 'table', 'round', 'game')"


def upgrade() -> None:
    op.add_column(
        "guild_settings",
        sa.Column("theme", sa.String(8), nullable=False, server_default=sa.text("'dark'")),
    )
    with op.batch_alter_table("guild_settings") as batch:
        batch.create_check_constraint("ck_guild_theme", "theme IN ('dark', 'light')")
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("round_no", sa.Integer, nullable=True))
        batch.drop_constraint("ck_outbox_kind", type_="check")
        batch.create_check_constraint("ck_outbox_kind", KINDS)


def downgrade() -> None:
    op.execute("DELETE FROM outbox WHERE kind IN ('round', 'game')")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_constraint("ck_outbox_kind", type_="check")
        batch.create_check_constraint("ck_outbox_kind", KINDS_0002)
        batch.drop_column("round_no")
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_constraint("ck_guild_theme", type_="check")
        batch.drop_column("theme")

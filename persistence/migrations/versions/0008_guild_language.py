"""A server's language: the language of its public messages (issue 21).

* ``guild_settings.language`` (new, nullable): the language a server chose with
  ``/houserules set key:language`` (a catalog language code, ``en`` or ``ja``); ``NULL``,
  as for every server before this revision, means "not chosen": the bot then speaks the
  server's preferred locale when it can, else English.

Downgrade: the column is dropped (the servers' choices with it).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.add_column(sa.Column("language", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("guild_settings") as batch:
        batch.drop_column("language")

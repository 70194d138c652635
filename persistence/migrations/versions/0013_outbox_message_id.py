"""A delivered outbox row keeps the id of the message it posted (``outbox.message_id``).

After a crash, the bot looks in each channel for the posts of the rows it owes (posted
but not marked delivered) by their text. A row whose words an earlier row of the channel
had already posted ("🤝 Draw: the turn limit (4 turns) was reached." twice) was taken for
posted, found in that earlier post, and never posted. With the id of the last post
delivered before them, owed rows are looked for only among later posts.

Rows delivered before this revision have no id: for them the bot looks as before.

Downgrade: the column is dropped.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("outbox", sa.Column("message_id", sa.BigInteger, nullable=True))


def downgrade() -> None:
    op.drop_column("outbox", "message_id")

"""The store's outbox: what committed writes owe their channels, until it is delivered."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime

from sqlalchemy import delete, func, or_, select, update

from persistence.core import StoreCore, bind
from persistence.errors import InvalidSettings
from persistence.fence import in_shards
from persistence.records import OutboxItem
from persistence.rows import outbox_item_from_row
from persistence.schema import outbox, tables
from persistence.writer import WriteContext

OUTBOX_CHUNK = 500  # ids per UPDATE when marking deliveries


class OutboxAPI(StoreCore):
    async def pending_outbox(
        self,
        table_id: int | None = None,
        *,
        shard_count: int | None = None,
        shards: Iterable[int] | None = None,
    ) -> list[OutboxItem]:
        """The announcements not yet delivered (of one table, or all; with ``shards`` of
        ``shard_count``, only those of tables of guilds on these shards), oldest first, each
        with its table's server."""
        query = (
            select(outbox, tables.c.guild_id)
            .select_from(outbox.join(tables, tables.c.id == outbox.c.table_id))
            .where(outbox.c.delivered_at.is_(None))
        )
        if table_id is not None:
            query = query.where(outbox.c.table_id == table_id)
        if shards is not None:
            if shard_count is None:
                raise ValueError("shards need their shard_count")
            query = query.where(in_shards(tables.c.guild_id, shard_count, shards))
        async with self.engine.connect() as conn:
            rows = await conn.execute(query.order_by(outbox.c.id))
            return [outbox_item_from_row(r) for r in rows]

    async def mark_delivered(
        self, ids: Sequence[int], *, posts: Mapping[int, int] | None = None
    ) -> None:
        """These outbox rows reached their channel; ``posts``: the message each of those
        that posted one made (row id → message id)."""
        if ids:
            await self.writer.run(bind(mark_delivered, list(ids), dict(posts or {})))

    async def last_post(self, channel_id: int, before: int) -> int | None:
        """The latest message posted by a delivered outbox row of the channel written
        before row ``before`` and known posted before it: a row of the same table (a
        table's rows go out in order), or one marked delivered before ``before`` was
        written (another table's rows go out at their own pace: one written earlier may
        have been posted after), or ``None`` when none is known."""
        row = outbox.alias("owed")
        owed_table = select(row.c.table_id).where(row.c.id == before).scalar_subquery()
        owed_at = select(row.c.created_at).where(row.c.id == before).scalar_subquery()
        query = select(func.max(outbox.c.message_id)).where(
            outbox.c.channel_id == channel_id,
            outbox.c.id < before,
            outbox.c.delivered_at.is_not(None),
            or_(outbox.c.table_id == owed_table, outbox.c.delivered_at < owed_at),
        )
        async with self.engine.connect() as conn:
            found = (await conn.execute(query)).scalar()
        return None if found is None else int(found)

    async def purge_delivered(self, before: datetime) -> int:
        """Delete the outbox rows delivered before ``before``; how many there were."""
        if before.tzinfo is None:
            raise InvalidSettings("A time needs a time zone.")
        return await self.writer.run(bind(purge_delivered, before))


async def mark_delivered(ctx: WriteContext, ids: Sequence[int], posts: dict[int, int]) -> None:
    for row_id, message_id in sorted(posts.items()):
        if row_id in ids:
            await ctx.write(
                update(outbox)
                .where(outbox.c.id == row_id, outbox.c.delivered_at.is_(None))
                .values(delivered_at=ctx.now, message_id=message_id)
            )
    unique = sorted(set(ids) - set(posts))
    for start in range(0, len(unique), OUTBOX_CHUNK):
        await ctx.write(
            update(outbox)
            .where(
                outbox.c.id.in_(unique[start : start + OUTBOX_CHUNK]),
                outbox.c.delivered_at.is_(None),
            )
            .values(delivered_at=ctx.now)
        )


async def purge_delivered(ctx: WriteContext, before: datetime) -> int:
    result = await ctx.write(delete(outbox).where(outbox.c.delivered_at < before))
    return max(result.rowcount, 0)

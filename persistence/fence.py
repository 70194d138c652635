"""The fence: what a process that holds shard leases checks in every write transaction
(:mod:`persistence.leases` says how leases are claimed, renewed and released).

A guild's shard is ``(guild_id >> 22) % shard_count`` (Discord's rule). A write of a
table or of a server's settings first share-locks the lease rows of the shards it writes
(``FOR KEY SHARE``) and goes on only if this process still holds every one of them: the
same owner, the token it claimed, unexpired by the database's clock, the same shard count.
Otherwise it fails with :class:`~persistence.errors.LeaseLost` and writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, Integer, func, literal, select
from sqlalchemy.ext.asyncio import AsyncConnection

from persistence.errors import LeaseLost
from persistence.schema import shard_leases

# The guard, as the asyncpg fast path sends it: the rows of the shards a batch writes,
# share-locked until the commit.
GUARD_SQL = (
    "SELECT shard_id, owner, token, shard_count, expires_at > now() AS live "
    "FROM shard_leases WHERE shard_id = ANY($1::int[]) ORDER BY shard_id FOR KEY SHARE"
)


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard of a guild: ``(guild_id >> 22) % shard_count`` (Discord's rule)."""
    return (guild_id >> 22) % shard_count


def in_shards(guild_id: ColumnElement[int], shard_count: int, shards: Iterable[int]) -> Any:
    """SQL: the guild id's shard is one of ``shards`` (the same rule, in the database)."""
    chosen = sorted(set(shards))
    if not chosen:
        return literal(False)
    shifted = guild_id.op(">>")(literal(22, Integer))
    return (shifted % literal(shard_count, Integer)).in_(chosen)


@dataclass(slots=True)
class Fence:
    """The leases this process holds, as its writes are checked against them."""

    owner: str
    shard_count: int
    tokens: dict[int, int] = field(default_factory=dict)  # shard -> fencing token
    # shards a write found taken (or expired) before this process's heartbeat noticed:
    # every later write of them fails at once, without asking the database
    revoked: set[int] = field(default_factory=set)

    def shard_of(self, guild_id: int) -> int:
        return shard_of(guild_id, self.shard_count)

    def holds(self, shard: int) -> bool:
        """Whether this process may still try to write the shard."""
        return shard in self.tokens and shard not in self.revoked

    def holds_guild(self, guild_id: int) -> bool:
        return self.holds(self.shard_of(guild_id))

    def lost(self, shards: Iterable[int], rows: Iterable[Any]) -> set[int]:
        """Of ``shards``, those this process does not hold by the guard's ``rows``
        (``shard_id, owner, token, shard_count, live``)."""
        found = {int(r[0]): r for r in rows}
        lost = set()
        for shard in shards:
            row = found.get(shard)
            token = self.tokens.get(shard)
            if (
                row is None
                or token is None
                or row[1] != self.owner
                or int(row[2]) != token
                or int(row[3]) != self.shard_count
                or not row[4]
            ):
                lost.add(shard)
        return lost

    async def check(self, conn: AsyncConnection, shards: Iterable[int]) -> None:
        """Inside a write transaction: share-lock the rows of ``shards`` and raise
        :class:`LeaseLost` unless this process holds every one of them."""
        wanted = sorted(set(shards))
        if not wanted:
            return
        missing = [s for s in wanted if not self.holds(s)]
        if missing:
            raise LeaseLost(missing)
        rows = await conn.execute(
            select(
                shard_leases.c.shard_id,
                shard_leases.c.owner,
                shard_leases.c.token,
                shard_leases.c.shard_count,
                (shard_leases.c.expires_at > func.now()).label("live"),
            )
            .where(shard_leases.c.shard_id.in_(wanted))
            .order_by(shard_leases.c.shard_id)
            .with_for_update(read=True, key_share=True)
        )
        lost = self.lost(wanted, rows)
        if lost:
            self.revoked |= lost
            raise LeaseLost(sorted(lost))

"""Shard leases: which bot process owns which shard's tables when several processes share
one PostgreSQL database (``stackbot run --shards``), and the fence that keeps a process that
lost a shard from ever writing its tables again.

A guild's shard is ``(guild_id >> 22) % shard_count`` (Discord's rule), and a table belongs
to its guild's shard. A process owns a shard through the shard's row in ``shard_leases``:

* ``owner``: the process's node id (unique to one run of one process), NULL when free;
* ``token``: the fencing token, bumped by every claim, so that an owner that was replaced
  holds a token nobody has any more, even if it comes back under the same name;
* ``expires_at``: when the lease runs out unless its holder renews it (the database's
  clock, never a process's).

The fence. Every write transaction of a process that holds leases (the move writer's, and
every other write of a table or a server's settings) first reads the rows of the shards it
writes ``FOR KEY SHARE`` and checks that each is still held by this process, under the token
it claimed, unexpired and under the same shard count; a write on any other shard fails with
:class:`~persistence.errors.LeaseLost` and writes nothing. A claim reads its row ``FOR
UPDATE``, which waits for every transaction holding that share lock: so every write of the
old owner either committed before the claim (and the new owner, which loads the shard's
tables after its claim, sees it) or runs after it and is refused. Renewing is a plain update
of ``expires_at``, which does not conflict with the share lock: writes never wait for a
heartbeat. A lease that expired is lost too: its holder must claim it again (a new token)
and reload.

SQLite databases (one process) never use leases.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    func,
    literal,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from persistence.core import StoreCore, bind
from persistence.errors import AlreadyServed, ClusterRunning, ShardCountMismatch, StorageError
from persistence.fence import Fence, in_shards, shard_of
from persistence.rows import aware
from persistence.schema import shard_leases
from persistence.writer import WriteContext

# Claims and releases take this transaction-level advisory lock, so that two processes
# started with different shard counts cannot both claim.
CLAIM_LOCK = 0x537461636B6C73  # "Stackls"
# Every serving process holds this session-level advisory lock for as long as its
# connection lives (a process killed loses it with its connection): exclusively when it has
# no shards, shared when it has. So a process without shards serves a database alone. Its
# second key is the schema's (stackbots in two schemas of a database are two databases).
SERVING_LOCK = 0x53746B53  # "StkS"
# The lock's session: the server probes a silent client after 30 s, every 10 s, and ends
# the session after 3 probes unanswered (the kernel's default waits two hours).
KEEPALIVES = (
    "SET tcp_keepalives_idle = 30",
    "SET tcp_keepalives_interval = 10",
    "SET tcp_keepalives_count = 3",
)
MAX_SHARDS = 4096
CLAIM_WAIT_MS = 2_000  # a claim waiting this long on a transaction of the holder gives up


@dataclass(frozen=True, slots=True)
class Lease:
    """One shard's row: who holds it, under which token, and whether it is live now."""

    shard: int
    shard_count: int
    owner: str | None
    token: int
    expires_at: datetime | None
    live: bool  # held and unexpired, by the database's clock

    @property
    def free(self) -> bool:
        return self.owner is None or not self.live


def _lease(row: Any) -> Lease:
    return Lease(
        int(row.shard_id),
        int(row.shard_count),
        row.owner,
        int(row.token),
        aware(row.expires_at),
        bool(row.live) and row.owner is not None,
    )


def _ttl(seconds: float) -> Any:
    return func.now() + literal(timedelta(seconds=seconds))


LEASE_COLUMNS = (
    shard_leases.c.shard_id,
    shard_leases.c.shard_count,
    shard_leases.c.owner,
    shard_leases.c.token,
    shard_leases.c.expires_at,
    (shard_leases.c.expires_at > func.now()).label("live"),
)


class LeasesAPI(StoreCore):
    """Claiming, renewing and releasing shard leases (PostgreSQL only)."""

    _serving: AsyncConnection | None = None  # the connection that holds SERVING_LOCK

    def _need_postgresql(self) -> None:
        if self.engine.dialect.name != "postgresql":
            raise StorageError(
                "Shards need PostgreSQL: several processes cannot share a SQLite file. "
                "Set DATABASE_URL=postgresql+asyncpg://..."
            )

    @property
    def fence(self) -> Fence | None:
        """The leases every write of this store is checked against (``None``: one process,
        no check)."""
        return self.writer.fence

    def use_fence(self, fence: Fence) -> None:
        """From now on, every write is checked against ``fence`` in its transaction."""
        self._need_postgresql()
        self.writer.fence = fence

    async def prepare_leases(self, shard_count: int) -> None:
        """Make sure every shard of ``shard_count`` has its row (free), and refuse a
        shard count other than the one live leases were claimed under."""
        self._need_postgresql()
        if not 1 <= shard_count <= MAX_SHARDS:
            raise StorageError(f"A shard count is 1 to {MAX_SHARDS}, not {shard_count}.")
        async with self.engine.begin() as conn:
            await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": CLAIM_LOCK})
            await _refuse_other_count(conn, shard_count)
            await conn.execute(
                pg_insert(shard_leases)
                .values([{"shard_id": s, "shard_count": shard_count} for s in range(shard_count)])
                .on_conflict_do_nothing(index_elements=[shard_leases.c.shard_id])
            )

    async def refuse_if_sharded(self) -> None:
        """Refuse (:class:`~persistence.errors.ClusterRunning`) to serve a database that
        processes with shards hold live leases of: a process without shards serves every
        table and writes unfenced. Nothing to check on SQLite (never sharded)."""
        if self.engine.dialect.name != "postgresql":
            return
        async with self.engine.connect() as conn:
            held = await _live_lease(conn)
        if held is not None:
            raise ClusterRunning(int(held.shard_count), str(held.owner))

    async def hold_serving(self, *, sharded: bool) -> None:
        """Take :data:`SERVING_LOCK` for this process's life (until :meth:`close`), on a
        connection of its own: exclusively for a process without shards, shared for one
        with shards; refused (:class:`~persistence.errors.AlreadyServed`, naming the
        session that holds it) while another process holds it in a way that excludes
        this one. Nothing to do on SQLite (one process).

        The server ends the session of a process killed at once (its socket closed), and
        of one whose machine vanished within about a minute (:data:`KEEPALIVES`), and
        the lock with it. A database restart frees it too: it guards starts, not a
        running process (processes with shards are fenced besides)."""
        if self.engine.dialect.name != "postgresql" or self._serving is not None:
            return
        take = "pg_try_advisory_lock_shared" if sharded else "pg_try_advisory_lock"
        conn = await self.engine.connect()
        try:
            for setting in KEEPALIVES:
                await conn.execute(text(setting))
            await conn.execute(
                text(
                    "SELECT set_config('application_name', "
                    "left('stackbot serving ' || current_setting('application_name'), 63), false)"
                )
            )
            held = (
                await conn.execute(
                    text(f"SELECT {take}(:k, hashtext(current_schema()))"), {"k": SERVING_LOCK}
                )
            ).scalar()
            holder = None if held else await _serving_holder(conn)
            await conn.commit()  # the lock is the session's: it outlives the transaction
        except BaseException:
            await _discard(conn)
            raise
        if not held:
            await _discard(conn)
            raise AlreadyServed(sharded=sharded, holder=holder)
        self._serving = conn

    async def release_serving(self) -> None:
        """Give :data:`SERVING_LOCK` back: its connection is closed, not returned to the
        pool (where the session's lock would live on)."""
        conn, self._serving = self._serving, None
        if conn is not None:
            await _discard(conn)

    async def leases(self, shard_count: int | None = None) -> list[Lease]:
        """Every shard's lease (of ``shard_count``'s shards when given), by shard."""
        self._need_postgresql()
        query = select(*LEASE_COLUMNS).order_by(shard_leases.c.shard_id)
        if shard_count is not None:
            query = query.where(shard_leases.c.shard_id < shard_count)
        async with self.engine.connect() as conn:
            return [_lease(r) for r in await conn.execute(query)]

    async def claim_shard(
        self,
        shard: int,
        owner: str,
        shard_count: int,
        ttl: float,
        *,
        replacing: tuple[str, int] | None = None,
    ) -> int | None:
        """Claim ``shard`` for ``owner`` when it is free (never held, released, or
        expired by the database's clock), or when it is still held by exactly
        ``replacing`` (the owner and token of a process known to be dead). The new fencing
        token, or ``None`` when the shard is held by someone else. Waits for every write
        transaction of the former holder still under way (they hold the row's share
        lock), so none of them commits after the claim."""
        self._need_postgresql()
        if not 0 <= shard < shard_count:
            raise StorageError(f"Shard {shard} is not one of {shard_count} shards.")
        async with self.engine.begin() as conn:
            # a claim waits for the writes under way, never for long: a transaction left
            # open by a dead or paused holder makes it fail, and the claimer ends that
            # holder's sessions (end_sessions_of) before trying again
            await conn.execute(text(f"SET LOCAL lock_timeout = '{CLAIM_WAIT_MS}ms'"))
            await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": CLAIM_LOCK})
            await _refuse_other_count(conn, shard_count)
            await conn.execute(
                pg_insert(shard_leases)
                .values(shard_id=shard, shard_count=shard_count)
                .on_conflict_do_nothing(index_elements=[shard_leases.c.shard_id])
            )
            row = (
                await conn.execute(
                    select(*LEASE_COLUMNS).where(shard_leases.c.shard_id == shard).with_for_update()
                )
            ).one()
            lease = _lease(row)
            taken_over = replacing is not None and (lease.owner, lease.token) == replacing
            if not (lease.free or taken_over):
                return None
            token = (
                await conn.execute(
                    update(shard_leases)
                    .where(shard_leases.c.shard_id == shard)
                    .values(
                        owner=owner,
                        token=shard_leases.c.token + 1,
                        shard_count=shard_count,
                        expires_at=_ttl(ttl),
                        claimed_at=func.now(),
                    )
                    .returning(shard_leases.c.token)
                )
            ).scalar_one()
            return int(token)

    async def confirm_lease(self, guild_id: int) -> None:
        """Raise :class:`LeaseLost` unless this process still holds the guild's shard, by
        the database (a write transaction's check, writing nothing); nothing to check
        without a fence. Asked before something leaves for Discord that no transaction
        can take back (an announcement), so that a process woken after its shard was
        taken over sends nothing."""
        if self.writer.fence is not None:
            await self.writer.run(bind(_confirm_lease, guild_id))

    async def end_sessions_of(self, owner: str) -> int:
        """End every database session of process ``owner`` (known dead, or paused: its
        sessions are named after it), so that none of its transactions holds a lease's
        lock any longer, nor commits; how many were ended. A role that may not end them
        ends none (the server's idle-transaction time-out still does, later)."""
        self._need_postgresql()
        async with self.engine.begin() as conn:
            ended = await conn.execute(
                text(
                    "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) "
                    "FROM pg_stat_activity "
                    "WHERE application_name = :owner AND pid <> pg_backend_pid()"
                ),
                {"owner": owner[:63]},
            )
            return int(ended.scalar_one() or 0)

    async def renew_leases(self, owner: str, tokens: Mapping[int, int], ttl: float) -> set[int]:
        """Renew the leases ``owner`` holds (shard → token) for ``ttl`` seconds more; the
        shards still held. One that expired, or that another process claimed, is lost."""
        return await self._update_held(
            owner, tokens, {"expires_at": _ttl(ttl)}, shard_leases.c.expires_at > func.now()
        )

    async def release_shards(self, owner: str, tokens: Mapping[int, int]) -> set[int]:
        """Give up the leases ``owner`` holds under these tokens (its tables are written
        and forgotten): free at once for the next claim. The shards released."""
        return await self._update_held(owner, tokens, {"owner": None, "expires_at": func.now()})

    async def _update_held(
        self,
        owner: str,
        tokens: Mapping[int, int],
        values: dict[str, Any],
        *where: ColumnElement[bool],
    ) -> set[int]:
        """Set ``values`` on the leases ``owner`` holds under ``tokens`` (those ``where``
        also holds for); the shards it set them on."""
        self._need_postgresql()
        if not tokens:
            return set()
        async with self.engine.begin() as conn:
            done = await conn.execute(
                update(shard_leases)
                .where(*_held_by(owner, tokens), *where)
                .values(**values)
                .returning(shard_leases.c.shard_id)
            )
            return {int(r[0]) for r in done}


async def _confirm_lease(ctx: WriteContext, guild_id: int) -> None:
    await ctx.check_lease(guild_id)


def _held_by(owner: str, tokens: Mapping[int, int]) -> tuple[Any, ...]:
    """The lease rows ``owner`` holds under exactly these tokens (shard -> token)."""
    pairs = sorted(tokens.items())
    return (
        shard_leases.c.owner == owner,
        tuple_(shard_leases.c.shard_id, shard_leases.c.token).in_(pairs),
    )


async def _live_lease(conn: AsyncConnection, other_than: int | None = None) -> Any:
    """A live lease (its shard count and owner), of a shard count other than
    ``other_than`` when given; ``None`` when there is none."""
    live = [shard_leases.c.owner.is_not(None), shard_leases.c.expires_at > func.now()]
    if other_than is not None:
        live.append(shard_leases.c.shard_count != other_than)
    query = select(shard_leases.c.shard_count, shard_leases.c.owner).where(*live).limit(1)
    return (await conn.execute(query)).first()


async def _discard(conn: AsyncConnection) -> None:
    """Close ``conn`` for good: never back to the pool with its session's settings."""
    await conn.invalidate()
    await conn.close()


async def _serving_holder(conn: AsyncConnection) -> str | None:
    """The session that holds :data:`SERVING_LOCK` (its server process id, where it
    connects from and since when), in words for the operator; ``None`` if not found."""
    row = (
        await conn.execute(
            text(
                "SELECT a.pid, host(a.client_addr) AS addr, a.backend_start "
                "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
                "AND l.classid = CAST(:k AS oid) AND l.objid = hashtext(current_schema())::oid "
                "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                "ORDER BY a.backend_start LIMIT 1"
            ),
            {"k": SERVING_LOCK},
        )
    ).first()
    if row is None:
        return None
    where = f"from {row.addr}" if row.addr else "over a local socket"
    started = row.backend_start
    since = started.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") if started else "?"
    return (
        f"PostgreSQL session {row.pid}, {where}, since {since}; if its process is gone, "
        f"SELECT pg_terminate_backend({row.pid}); ends it"
    )


async def _refuse_other_count(conn: AsyncConnection, shard_count: int) -> None:
    """Refuse while any live lease was claimed under another shard count (its guilds
    would overlap this count's)."""
    other = await _live_lease(conn, other_than=shard_count)
    if other is not None:
        raise ShardCountMismatch(int(other.shard_count), shard_count, str(other.owner))


__all__ = ["Fence", "Lease", "LeasesAPI", "in_shards", "shard_of"]

"""Shard leases and the fence (issue 11): a process owns a shard's tables through a lease
in PostgreSQL, checked in the same transaction as every write, so that a process that lost
its lease can never write those tables again — whether the new owner has written yet or
not, and even with a commit of the old owner under way while the shard is claimed.

Two :class:`Store` objects on one database play two processes (each its own connections
and its own move writer). PostgreSQL only (``TEST_DATABASE_URL``), as sharding is.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import func, select, text, update

from persistence import LeaseLost, Store
from persistence.errors import (
    AlreadyServed,
    ClusterRunning,
    ShardCountMismatch,
    StaleVersion,
    StorageError,
)
from persistence.fence import Fence, shard_of
from persistence.records import Announcement
from persistence.schema import moves, outbox, tables
from persistence.writer import WriteContext
from tests.persistence.conftest import POSTGRES_URL
from tests.persistence.helpers import next_step, started_table
from tests.services import fresh_schema, in_schema

COUNT = 4  # shards
TTL = 30.0
SHARD0, SHARD1 = 0 << 22, 1 << 22  # a guild on shard 0, and one on shard 1


def guild_on(shard: int, k: int = 0) -> int:
    """A guild id whose shard (of ``COUNT``) is ``shard``."""
    return ((k * COUNT + shard) << 22) | 12345


class Cluster:
    """Stores on one fresh PostgreSQL schema: each plays a process."""

    def __init__(self, url: str, schema: str) -> None:
        self.url = url
        self.options = in_schema(schema)
        self.opened: list[Store] = []

    async def process(self, name: str, *, shards: dict[int, int] | None = None) -> Store:
        store = await Store.open(self.url, **self.options)
        self.opened.append(store)
        store.use_fence(Fence(name, COUNT))
        await store.prepare_leases(COUNT)
        for shard in shards or {}:
            await claim(store, shard)
        return store


async def claim(store: Store, shard: int, **kwargs: Any) -> int:
    fence = store.fence
    assert fence is not None
    token = await store.claim_shard(shard, fence.owner, COUNT, kwargs.pop("ttl", TTL), **kwargs)
    assert token is not None, f"{fence.owner} could not claim shard {shard}"
    fence.tokens[shard] = token
    store.forget_shards(COUNT, [shard])
    return token


@pytest.fixture
async def cluster() -> AsyncIterator[Cluster]:
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set: shard leases need PostgreSQL")
    async with fresh_schema(POSTGRES_URL) as schema:
        made = Cluster(POSTGRES_URL, schema)
        try:
            yield made
        finally:
            for store in made.opened:
                await store.close()


async def logged(store: Store, table_id: int) -> list[Any]:
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            select(moves.c.seq, moves.c.interaction_id)
            .where(moves.c.table_id == table_id)
            .order_by(moves.c.seq)
        )
        return [tuple(r) for r in rows]


# ---------------------------------------------------------------- claiming


async def test_a_free_shard_is_claimed_once_and_every_claim_bumps_the_token(
    cluster: Cluster,
) -> None:
    a = await cluster.process("a")
    b = await cluster.process("b")
    first = await claim(a, 2)
    assert await b.claim_shard(2, "b", COUNT, TTL) is None  # held by a
    assert await a.renew_leases("a", {2: first}, TTL) == {2}
    assert await a.release_shards("a", {2: first}) == {2}
    assert await a.renew_leases("a", {2: first}, TTL) == set()  # released: gone
    second = await claim(b, 2)
    assert second == first + 1
    leases = {lease.shard: lease for lease in await a.leases(COUNT)}
    assert leases[2].owner == "b" and leases[2].live and leases[2].token == second
    assert leases[0].owner is None and leases[0].free


async def test_an_expired_lease_is_lost_and_free_for_another(cluster: Cluster) -> None:
    a = await cluster.process("a")
    b = await cluster.process("b")
    token = await claim(a, 1, ttl=0.2)
    await asyncio.sleep(0.4)
    assert await a.renew_leases("a", {1: token}, TTL) == set()
    assert await claim(b, 1) == token + 1


async def test_a_dead_holder_is_replaced_only_by_its_exact_token(cluster: Cluster) -> None:
    a = await cluster.process("a")
    b = await cluster.process("b")
    token = await claim(a, 3)
    assert await b.claim_shard(3, "b", COUNT, TTL, replacing=("a", token + 7)) is None
    assert await b.claim_shard(3, "b", COUNT, TTL, replacing=("x", token)) is None
    assert await b.claim_shard(3, "b", COUNT, TTL, replacing=("a", token)) == token + 1


async def test_another_shard_count_is_refused_while_leases_of_this_one_live(
    cluster: Cluster,
) -> None:
    a = await cluster.process("a")
    await claim(a, 0)
    other = await Store.open(cluster.url, **cluster.options)
    cluster.opened.append(other)
    with pytest.raises(ShardCountMismatch, match="--shard-count 4"):
        await other.prepare_leases(8)
    with pytest.raises(ShardCountMismatch):
        await other.claim_shard(5, "c", 8, TTL)


async def test_a_process_without_shards_is_refused_while_sharded_ones_hold_leases(
    cluster: Cluster,
) -> None:
    """A process started without ``--shards`` serves every table, unfenced: on a database
    that processes with shards serve, it is refused until their leases are gone."""
    a = await cluster.process("a")
    await claim(a, 1)
    alone = await Store.open(cluster.url, **cluster.options)
    cluster.opened.append(alone)
    with pytest.raises(ClusterRunning, match=r"--shard-count 4, e\.g\. a"):
        await alone.refuse_if_sharded()
    async with a.engine.begin() as conn:  # its process is gone: the lease expired
        await conn.execute(
            text(
                "UPDATE shard_leases SET expires_at = now() - interval '1 second' WHERE shard_id = 1"
            )
        )
    await alone.refuse_if_sharded()


async def test_sqlite_refuses_shards(tmp_path: Any) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}")
    try:
        with pytest.raises(StorageError, match="Shards need PostgreSQL"):
            store.use_fence(Fence("a", 2))
        with pytest.raises(StorageError, match="Shards need PostgreSQL"):
            await store.prepare_leases(2)
        await store.refuse_if_sharded()  # never sharded: nothing to refuse
    finally:
        await store.close()


# ---------------------------------------------------------------- the fence


async def test_a_replaced_owner_cannot_write_even_before_the_new_owner_has(
    cluster: Cluster,
) -> None:
    """The log's version key alone would let the old owner write the next move while the
    new owner has not written yet; the lease check refuses it."""
    a = await cluster.process("a", shards={0: 1})
    info, state, rng = await started_table(a, 10, guild=guild_on(0))
    version = (await a.record_move(info.id, info.version, next_step(state, rng), state)).version
    b = await cluster.process("b")
    await claim(b, 0, replacing=("a", a.fence.tokens[0]))  # type: ignore[union-attr]
    before = await logged(b, info.id)
    with pytest.raises(LeaseLost):
        await a.record_move(info.id, version, next_step(state, rng), state)
    assert await logged(b, info.id) == before
    # the new owner plays on from what is stored
    loaded = await b.load_table(info.id)
    assert loaded.info.version == version
    step = next_step(loaded.state, rng)
    assert (await b.record_move(info.id, version, step, loaded.state)).version > version


async def test_a_replaced_owner_cannot_write_after_the_new_owner_has(cluster: Cluster) -> None:
    a = await cluster.process("a", shards={0: 1})
    info, state, rng = await started_table(a, 11, guild=guild_on(0))
    b = await cluster.process("b")
    await claim(b, 0, replacing=("a", a.fence.tokens[0]))  # type: ignore[union-attr]
    loaded = await b.load_table(info.id)
    await b.record_move(info.id, info.version, next_step(loaded.state, rng), loaded.state)
    stored = await logged(b, info.id)
    with pytest.raises(LeaseLost):  # refused by the lease, before the version key
        await a.record_move(info.id, info.version, next_step(state, rng), state)
    assert await logged(b, info.id) == stored


async def test_an_expired_lease_fences_its_holder_with_nobody_else_claiming(
    cluster: Cluster,
) -> None:
    a = await cluster.process("a")
    await claim(a, 1)
    info, state, rng = await started_table(a, 12, guild=guild_on(1))
    async with a.engine.begin() as conn:  # the heartbeat stopped long ago
        await conn.execute(text("UPDATE shard_leases SET expires_at = now() WHERE shard_id = 1"))
    with pytest.raises(LeaseLost):
        await a.record_move(info.id, info.version, next_step(state, rng), state)
    with pytest.raises(LeaseLost):
        await a.set_message(info.id, 12, 99)
    assert await logged(a, info.id) == [(seq, None) for seq in range(1, info.version + 1)]


async def test_a_claim_waits_for_the_old_owners_commit_under_way(cluster: Cluster) -> None:
    """A write of the old owner that checked its lease holds the lease row's share lock:
    the claim waits for its commit, and the new owner, loading after its claim, sees it;
    the old owner's next write is refused."""
    a = await cluster.process("a", shards={2: 1})
    guild = guild_on(2)
    info = await a.create_table(guild, 13, 1, "ann")
    checked = asyncio.Event()
    go_on = asyncio.Event()

    async def slow_write(ctx: WriteContext) -> None:
        await ctx.check_lease(guild)
        await ctx.write(update(tables).where(tables.c.id == info.id).values(message_id=4242))
        checked.set()
        await go_on.wait()

    writing = asyncio.create_task(a.writer.run(slow_write))
    await asyncio.wait_for(checked.wait(), 5)
    b = await cluster.process("b")
    claiming = asyncio.create_task(
        b.claim_shard(2, "b", COUNT, TTL, replacing=("a", a.fence.tokens[2]))  # type: ignore[union-attr]
    )
    await asyncio.sleep(0.5)
    assert not claiming.done(), "the claim must wait for the write under way"
    go_on.set()
    await writing
    token = await asyncio.wait_for(claiming, 5)
    assert token is not None
    assert (await b.table(info.id)).message_id == 4242  # the committed write is kept
    with pytest.raises(LeaseLost):
        await a.set_message(info.id, 13, 1)
    assert (await b.table(info.id)).message_id == 4242


async def test_every_table_and_settings_write_is_fenced(cluster: Cluster) -> None:
    a = await cluster.process("a", shards={3: 1})
    guild = guild_on(3)
    lobby = await a.create_table(guild, 14, 1, "ann")
    info, _state, _rng = await started_table(a, 15, guild=guild)
    await a.release_shards("a", dict(a.fence.tokens))  # type: ignore[union-attr]
    writes = [
        a.create_table(guild, 16, 1, "ann"),
        a.join_table(lobby.id, 2, "bob"),
        a.add_ai(lobby.id),
        a.leave_lobby(lobby.id, 1),
        a.end_table(info.id, announcements=[Announcement("message", "bye")]),
        a.set_seat_ai(info.id, 0),
        a.set_timeouts(info.id, 0, 1),
        a.set_message(info.id, 15, 1),
        a.set_theme(guild, "light"),
        a.set_turn_timer(guild, 60),
        a.set_expiry(guild, lobby_timeout=600),
        a.set_house_rules(guild, {"target_score": 150}),
    ]
    for write in writes:
        with pytest.raises(LeaseLost):
            await write
    assert (await a.table(lobby.id)).seats == lobby.seats
    assert (await a.table(info.id)).status == "playing"
    assert (await a.guild_settings(guild)).theme == "dark"
    assert await a.pending_outbox(info.id) == []


async def test_a_lost_shard_fails_only_its_own_moves_in_a_batch(cluster: Cluster) -> None:
    a = await cluster.process("a", shards={0: 1, 1: 1})
    one, s1, r1 = await started_table(a, 17, guild=guild_on(0))
    two, s2, r2 = await started_table(a, 18, guild=guild_on(1))
    b = await cluster.process("b")
    await claim(b, 1, replacing=("a", a.fence.tokens[1]))  # type: ignore[union-attr]
    writes = [
        asyncio.ensure_future(a.record_move(one.id, one.version, next_step(s1, r1), s1)),
        asyncio.ensure_future(a.record_move(two.id, two.version, next_step(s2, r2), s2)),
    ]
    await asyncio.sleep(0)
    assert len(a.writer.queue) == 2  # both wait in one batch for the writer
    kept, lost = await asyncio.gather(*writes, return_exceptions=True)
    assert not isinstance(kept, BaseException) and kept.version > one.version
    assert isinstance(lost, LeaseLost) and lost.shards == [1]
    assert len(await logged(a, two.id)) == two.version


async def test_a_move_retried_at_the_new_owner_is_applied_once(cluster: Cluster) -> None:
    """The old owner committed a move and died before answering; the same interaction
    arriving at the new owner is a duplicate, never a second move."""
    a = await cluster.process("a", shards={2: 1})
    info, state, rng = await started_table(a, 19, guild=guild_on(2))
    step = next_step(state, rng)
    done = await a.record_move(info.id, info.version, step, state, interaction_id="i-1")
    b = await cluster.process("b")
    await claim(b, 2, replacing=("a", a.fence.tokens[2]))  # type: ignore[union-attr]
    loaded = await b.load_table(info.id)
    again = await b.record_move(
        info.id, done.version, next_step(loaded.state, rng), loaded.state, interaction_id="i-1"
    )
    assert again.duplicate
    with pytest.raises(LeaseLost):  # and the old owner, were it alive, writes nothing more
        await a.record_move(info.id, done.version, step, state, interaction_id="i-2")
    with pytest.raises(StaleVersion):  # a stale retry at the new owner is refused too
        await b.record_move(info.id, info.version, step, state, interaction_id="i-3")
    async with b.engine.connect() as conn:
        counted = await conn.execute(
            select(moves.c.interaction_id, func.count())
            .where(moves.c.interaction_id.is_not(None))
            .group_by(moves.c.interaction_id)
        )
        assert dict(counted.all()) == {"i-1": 1}


async def test_loading_and_outbox_by_shard(cluster: Cluster) -> None:
    a = await cluster.process("a", shards={0: 1, 1: 1, 2: 1})
    infos = {}
    for shard in (0, 1, 2):
        info, _state, _rng = await started_table(a, 20 + shard, guild=guild_on(shard))
        await a.end_table(info.id, "finished", announcements=[Announcement("message", "x")])
        infos[shard], _s, _r = await started_table(a, 30 + shard, guild=guild_on(shard, 1))
    loaded = await a.load_active_tables(shard_count=COUNT, shards=[0, 2])
    assert sorted(t.info.id for t in loaded) == sorted([infos[0].id, infos[2].id])
    assert all(shard_of(t.info.guild_id, COUNT) in (0, 2) for t in loaded)
    pending = await a.pending_outbox(shard_count=COUNT, shards=[1])
    assert len(pending) == 1
    async with a.engine.connect() as conn:
        table_of = (
            await conn.execute(select(outbox.c.table_id).where(outbox.c.id == pending[0].id))
        ).scalar_one()
        guild = (
            await conn.execute(select(tables.c.guild_id).where(tables.c.id == table_of))
        ).scalar_one()
    assert shard_of(guild, COUNT) == 1


async def test_processes_starting_together_migrate_once(cluster: Cluster) -> None:
    stores = await asyncio.gather(*(Store.open(cluster.url, **cluster.options) for _ in range(3)))
    cluster.opened.extend(stores)
    assert [await s.count_tables() for s in stores] == [0, 0, 0]


async def test_a_process_without_shards_serves_its_database_alone(cluster: Cluster) -> None:
    """Every serving process holds the serving lock for its life: one without shards
    exclusively, so that neither another such process nor one with shards starts beside
    it; processes with shards share it. Closing the store (or losing the connection, as a
    killed process does) gives it back."""

    async def opened() -> Store:
        store = await Store.open(cluster.url, **cluster.options)
        cluster.opened.append(store)
        return store

    alone, second, sharded = await opened(), await opened(), await opened()
    await alone.hold_serving(sharded=False)
    with pytest.raises(AlreadyServed, match="Another stackbot process already serves") as why:
        await second.hold_serving(sharded=False)
    # the holder named, with what ends its session if its process is gone
    assert alone._serving is not None
    pid = (await alone._serving.execute(text("SELECT pg_backend_pid()"))).scalar()
    assert f"PostgreSQL session {pid}, " in str(why.value), why.value
    assert f"SELECT pg_terminate_backend({pid});" in str(why.value)
    # a holder whose machine vanishes is noticed within about a minute, not hours (over
    # TCP: a local socket has no keepalives)
    local = "SELECT client_addr IS NULL FROM pg_stat_activity WHERE pid = pg_backend_pid()"
    if not (await alone._serving.execute(text(local))).scalar():
        idle = (await alone._serving.execute(text("SHOW tcp_keepalives_idle"))).scalar()
        assert idle == "30"
    with pytest.raises(AlreadyServed, match="without shards already serves"):
        await sharded.hold_serving(sharded=True)
    await alone.close()
    await sharded.hold_serving(sharded=True)
    other = await opened()
    await other.hold_serving(sharded=True)  # processes with shards serve together
    with pytest.raises(AlreadyServed, match="must be the only one"):
        await second.hold_serving(sharded=False)
    await sharded.release_serving()
    await other.release_serving()
    await second.hold_serving(sharded=False)


async def test_the_serving_lock_is_a_schemas_own(cluster: Cluster) -> None:
    """Two deployments in two schemas of one database each have their own process
    without shards."""
    mine = await Store.open(cluster.url, **cluster.options)
    cluster.opened.append(mine)
    await mine.hold_serving(sharded=False)
    async with fresh_schema(cluster.url) as schema:
        theirs = await Store.open(cluster.url, **in_schema(schema))
        try:
            await theirs.hold_serving(sharded=False)
        finally:
            await theirs.close()

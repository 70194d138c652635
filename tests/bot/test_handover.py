"""A shard handed over between processes, seen from the host (issue 11): the tables of a
shard given up are let go — a request queued behind the hand-over is refused and changes
nothing, their clocks stop, what a committed move owes the channel is left to the next
process, and nothing brings them back into memory (a reload, a lobby just opened) — while
the next process resumes them whole. Two processes in this test process, each its own
store, tables and cluster, on the local PostgreSQL and Redis; Discord is a stand-in."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any

import pytest

from bot.bench_kit import BenchBot
from bot.refusal_words import MOVED_AWAY
from bot.tables import Tables
from catalog import t
from host.cluster import Cluster, ClusterConfig, parse_shards
from host.service import MoveOutcome, Player
from persistence import LeaseLost, Store
from pictures.painter import Painter
from tests.bot.conftest import refused
from tests.services import Services, fresh_services, until

COUNT = 2
ANN, BOB = Player(11, "ann"), Player(12, "bob")


def guild_on(shard: int) -> int:
    return (shard << 22) | 777


class Process:
    def __init__(self, store: Store, tables: Tables, cluster: Cluster) -> None:
        self.store, self.tables, self.cluster = store, tables, cluster
        self.service = tables.service


class Processes:
    def __init__(self, services: Services) -> None:
        self.services = services
        self.running: list[Process] = []

    async def start(self, name: str, home: str, **timings: float) -> Process:
        s = self.services
        store = await Store.open(s.database_url, **s.engine_options)
        tables = Tables(BenchBot(), store, seed=3, painter=Painter("thread"))  # type: ignore[arg-type]
        tables.draw_pictures = False
        config = ClusterConfig(
            COUNT,
            parse_shards(home, COUNT),
            s.redis_url,
            prefix=s.prefix,
            name=name,
            **{
                "heartbeat": 0.05,
                "dead_after": 0.4,
                "lease_ttl": 3.0,
                "boot_grace": 0.4,
                **timings,
            },
        )
        cluster = Cluster(store, config)
        tables.use_cluster(cluster)
        await cluster.start(tables)
        process = Process(store, tables, cluster)
        self.running.append(process)
        return process

    async def aclose(self) -> None:
        for p in self.running:
            await p.cluster.halt()
            p.tables.accepting = False
            await p.tables.drain()
            await p.store.close()


@pytest.fixture
async def processes() -> AsyncIterator[Processes]:
    async with fresh_services() as services, aclosing(Processes(services)) as made:
        yield made


async def game(p: Process, channel: int, shard: int) -> Any:
    await p.service.new_table(guild_on(shard), channel, ANN, {"target_score": 60})
    await p.service.join(channel, BOB)
    outcome = await p.service.start(channel, ANN)
    p.tables.committed(outcome)
    return outcome.table


async def converge_no_more(p: Process) -> None:
    """The test hands shards over itself (``_give_up``): no convergence round (every
    heartbeat, or woken by the process's own "released") claims them back meanwhile — a
    lone process would, as soon as a round comes, on a busy machine before the test looks."""

    async def hold_still() -> None:
        return None

    p.cluster.converge_once = hold_still  # type: ignore[method-assign]
    async with p.cluster._converging:  # a round under way has ended
        pass


def mover(live: Any) -> Player:
    return ANN if live.current_user() == ANN.id else BOB


async def test_a_request_queued_behind_a_hand_over_is_refused_and_the_table_let_go(
    processes: Processes,
) -> None:
    a = await processes.start("a", "0-1")
    live = await game(a, 100, shard=0)
    other = await game(a, 101, shard=1)
    await until(lambda: a.tables.expiry.timers.get(live.id) is not None)
    await converge_no_more(a)
    version = live.version
    await live.lock.acquire()  # a step under way on the table
    giving = asyncio.create_task(a.cluster._give_up(frozenset({0})))
    await asyncio.sleep(0.05)
    queued = asyncio.create_task(
        a.service.move(100, mover(live), move=live.state.legal_moves()[0], interaction_id="q1")
    )
    await asyncio.sleep(0.05)
    live.lock.release()
    await giving
    with refused(match=t(MOVED_AWAY)):
        await queued
    assert live.away and live.id not in a.service.by_id and 100 not in a.service.by_channel
    assert live.id not in a.tables.messages  # its clock and message record are gone
    stored = await a.store.load_table(live.id)
    assert stored.info.version == version  # the refused move changed nothing
    leases = {x.shard: x for x in await a.store.leases(COUNT)}
    assert leases[0].owner is None and leases[1].owner == a.cluster.node
    # the other shard's table plays on
    assert other.id in a.service.by_id and a.tables.admits(guild_on(1)) is None
    assert a.tables.admits(guild_on(0)) == t(MOVED_AWAY)  # nobody serves shard 0 yet


async def test_nothing_brings_a_table_of_a_shard_given_up_back(processes: Processes) -> None:
    a = await processes.start("a", "0-1")
    live = await game(a, 200, shard=0)
    await converge_no_more(a)
    await a.cluster._give_up(frozenset({0}))
    await a.service._reload(live)  # a reload, as after a refused commit
    assert live.id not in a.service.by_id
    a.tables.committed(MoveOutcome(live, announced=True))  # a step that ended just now
    assert live.id not in a.tables.messages  # nothing is edited or delivered for it here
    a.cluster._closing.add(1)  # shard 1 is being handed over: a lobby opened meanwhile
    try:
        with refused(match=t(MOVED_AWAY)):
            await a.service.new_table(guild_on(1), 201, ANN, {})
    finally:
        a.cluster._closing.discard(1)
    assert 201 not in a.service.by_channel


async def test_a_shard_handed_over_resumes_whole_in_the_next_process(
    processes: Processes,
) -> None:
    """A serves both shards (shard 0 has no home process running); B starts with shard 0
    as its home: A hands it over, and B resumes the table as stored, with its clock, and
    plays on; A can no longer write it."""
    a = await processes.start("a", "1")
    await until(lambda: a.cluster.ready == {0, 1})  # after its boot grace, by rendezvous
    live = await game(a, 300, shard=0)
    for _ in range(3):
        outcome = await a.service.move(300, mover(live), move=live.state.legal_moves()[0])
        a.tables.committed(outcome)
    state = live.state.to_dict()
    b = await processes.start("b", "0")
    await until(lambda: b.cluster.ready == {0} and a.cluster.ready == {1})
    resumed = b.service.by_channel[300]
    assert resumed.state.to_dict() == state and resumed.version == live.version
    await until(lambda: b.tables.expiry.timers.get(resumed.id) is not None)
    outcome = await b.service.move(300, mover(resumed), move=resumed.state.legal_moves()[0])
    assert outcome.table.version > live.version
    # an interaction of that server reaching A is left to B (A says nothing, once it has
    # seen B's heartbeat say so), and A's store can write nothing of the table any more
    await until(lambda: a.cluster.served_elsewhere(0) == b.cluster.node)
    assert a.tables.admits(guild_on(0)) == ""
    with pytest.raises(LeaseLost):
        await a.store.set_message(resumed.id, 300, 1)


async def test_after_redis_comes_back_nobody_is_taken_for_dead(processes: Processes) -> None:
    """While Redis is down no heartbeat can be seen moving; when it is back, every process
    starts afresh: nobody's shards are taken over for the outage."""
    import redis.asyncio as aioredis

    a = await processes.start("a", "0")
    b = await processes.start("b", "1")
    # settled first: a lone process takes the other's home shard after its boot grace, so
    # on a busy machine a may hold shard 1 for a while before b starts
    await until(lambda: a.cluster.ready == {0} and b.cluster.ready == {1})
    seen_a, seen_b = len(a.cluster.events), len(b.cluster.events)
    good = a.cluster.redis
    a.cluster.redis = aioredis.Redis.from_url(
        processes.services.redis_url.replace(":6379", ":1"), socket_connect_timeout=0.1
    )
    b_good = b.cluster.redis
    b.cluster.redis = aioredis.Redis.from_url(
        processes.services.redis_url.replace(":6379", ":1"), socket_connect_timeout=0.1
    )
    await until(lambda: not a.cluster.redis_ok and not b.cluster.redis_ok)
    await beats_go_by(a, b)  # 20 beats: longer than dead_after, nobody's beat moved meanwhile
    a.cluster.redis, b.cluster.redis = good, b_good
    await until(lambda: a.cluster.redis_ok and b.cluster.redis_ok)
    await beats_go_by(a, b)
    assert a.cluster.ready == {0} and b.cluster.ready == {1}
    assert list(a.cluster.events)[seen_a:] == [] and list(b.cluster.events)[seen_b:] == []


async def beats_go_by(*ps: Process, beats: int = 20) -> None:
    """Wait (with a deadline) until each process has beaten ``beats`` more times, at its
    heartbeat's period: at least that long, however slow the machine."""
    start = [p.cluster.beats for p in ps]
    await until(
        lambda: all(p.cluster.beats >= n + beats for p, n in zip(ps, start, strict=True)),
        seconds=60,
    )


async def owe(p: Process, live: Any, content: str) -> None:
    """An announcement the table owes its channel (as a committed move leaves one)."""
    from datetime import UTC, datetime

    from persistence.schema import outbox

    async with p.store.engine.begin() as conn:
        await conn.execute(
            outbox.insert().values(
                table_id=live.id,
                channel_id=live.info.channel_id,
                kind="message",
                content=content,
                created_at=datetime.now(UTC),
            )
        )


async def test_a_process_woken_after_its_shard_was_taken_posts_no_announcement(
    processes: Processes,
) -> None:
    """A process paused (its loops stopped, so it still believes it holds the shard) while
    another claims its shard posts nothing of what the table owes: the lease is confirmed
    by the database before anything leaves for Discord, and the announcement stays owed
    for the new holder."""
    a = await processes.start("a", "0-1")
    live = await game(a, 400, shard=0)
    channel = a.tables.bot.get_channel(400)
    await a.tables.outbox.deliver(live.id, guild_on(0))  # who begins, owed since the start
    await owe(a, live, "round 1 is over")
    before = channel.calls
    await a.tables.outbox.deliver(live.id, guild_on(0))
    assert channel.calls == before + 1  # delivered while the lease is held
    assert await a.store.pending_outbox(live.id) == []
    await a.cluster.halt()  # paused: nothing of it notices what follows
    lease = {x.shard: x for x in await a.store.leases(COUNT)}[0]
    token = await a.store.claim_shard(0, "b", COUNT, 10.0, replacing=(a.cluster.node, lease.token))
    assert token is not None
    assert a.tables.owns_guild(guild_on(0))  # it still thinks the shard is its own
    await owe(a, live, "round 2 is over")
    await a.tables.outbox.deliver(live.id, guild_on(0))
    assert channel.calls == before + 1  # nothing posted
    owed = await a.store.pending_outbox(live.id)
    assert [item.content for item in owed] == ["round 2 is over"]  # left to the new holder


async def test_a_lease_whose_release_failed_is_released_at_the_next_round(
    processes: Processes,
) -> None:
    """A shard given up while the database did not answer the release is not left
    unserved until its lease expires: the release is made again at the next round."""
    a = await processes.start("a", "0-1", lease_ttl=60.0)
    release = a.store.release_shards
    failing = True

    async def flaky(owner: str, tokens: Any) -> set[int]:
        if failing:
            raise OSError("the database did not answer")
        return await release(owner, tokens)

    a.store.release_shards = flaky  # type: ignore[method-assign]
    await a.cluster._give_up(frozenset({1}))
    leases = {x.shard: x for x in await a.store.leases(COUNT)}
    assert leases[1].owner == a.cluster.node and leases[1].live  # still held, unserved
    await beats_go_by(a, beats=10)  # rounds go by: its own live lease keeps it from the shard
    assert a.cluster.ready == {0} and 1 in a.cluster._unreleased
    failing = False
    await until(lambda: a.cluster.ready == {0, 1}, seconds=30.0)  # released, claimed again
    assert not a.cluster._unreleased

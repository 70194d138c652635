"""Processes sharing shards through PostgreSQL (leases) and Redis (heartbeats): home shards
adopted at start, a dead process's shards taken over once its heartbeat stops, handed back
when it runs again, given up at once by a process that leaves cleanly, and nothing taken
over on a guess while Redis is down. Processes are :class:`Cluster` objects in this test
process, each with its own store (connections, move writer), so that a "kill" is exact:
its loops stop and it says nothing.

Needs the local PostgreSQL and Redis (``.ci/run`` points the tests at both)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any

import pytest

from host.cluster import Cluster, ClusterConfig, assign, parse_shards, shard_ranges
from persistence import Store
from persistence.leases import Lease
from tests.services import Services, fresh_services, until

COUNT = 4
FAST = {
    "heartbeat": 0.05,
    "dead_after": 0.4,
    "lease_ttl": 3.0,
    "forget_after": 5.0,
    "boot_grace": 0.4,
}


class Host:
    """A stand-in for what a process does with its shards: it notes each call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, frozenset[int]]] = []
        self.serving: set[int] = set()

    async def adopt(self, shard_count: int, shards: frozenset[int]) -> None:
        self.calls.append(("adopt", shards))
        self.serving |= shards

    async def release(self, shard_count: int, shards: frozenset[int]) -> None:
        self.calls.append(("release", shards))
        self.serving -= shards

    async def drop(self, shard_count: int, shards: frozenset[int]) -> None:
        self.calls.append(("drop", shards))
        self.serving -= shards

    def health(self) -> dict[str, Any]:
        return {"tables": len(self.serving)}


class Processes:
    def __init__(self, services: Services) -> None:
        self.services = services
        self.running: list[Cluster] = []
        self.stores: list[Store] = []

    async def start(
        self, name: str, home: str, host: Host | None = None, **timings: float
    ) -> tuple[Cluster, Host]:
        store = await Store.open(self.services.database_url, **self.services.engine_options)
        self.stores.append(store)
        config = ClusterConfig(
            COUNT,
            parse_shards(home, COUNT),
            self.services.redis_url,
            prefix=self.services.prefix,
            name=name,
            **{**FAST, **timings},
        )
        cluster, host = Cluster(store, config), host or Host()
        await cluster.start(host)
        self.running.append(cluster)
        return cluster, host

    async def aclose(self) -> None:
        for cluster in self.running:
            await cluster.halt()
        for store in self.stores:
            await store.close()


@pytest.fixture
async def processes() -> AsyncIterator[Processes]:
    async with fresh_services() as services, aclosing(Processes(services)) as made:
        yield made


# ---------------------------------------------------------------- the assignment


def test_shards_are_read_as_ranges_and_refused_by_name() -> None:
    assert parse_shards("0-3", 8) == {0, 1, 2, 3}
    assert parse_shards("0,2,5-7", 8) == {0, 2, 5, 6, 7}
    assert parse_shards("none", 8) == frozenset()
    assert shard_ranges({0, 1, 2, 3, 6}) == "0-3,6" and shard_ranges(set()) == "none"
    for bad, says in [
        ("0-8", "shard 8 is not one of the 8 shards (0 to 7)"),
        ("3-1", "'3-1' runs backwards"),
        ("a", "'a' is not a shard or a range like 0-3"),
        ("-1", "is not a shard or a range"),
    ]:
        with pytest.raises(ValueError, match=re.escape(says)):
            parse_shards(bad, 8)


def test_a_shard_goes_home_else_by_rendezvous_so_only_a_dead_ones_shards_move() -> None:
    homes = {"a": frozenset({0, 1}), "b": frozenset({2, 3}), "c": frozenset()}
    owner = assign(6, homes)
    assert [owner[s] for s in range(4)] == ["a", "a", "b", "b"]
    assert {owner[4], owner[5]} <= {"a", "b", "c"}
    without_c = assign(6, {"a": homes["a"], "b": homes["b"]})
    assert all(without_c[s] == owner[s] for s in range(6) if owner[s] != "c")
    floating = assign(64, {"x": frozenset(), "y": frozenset(), "z": frozenset()})
    counts = {n: sum(1 for v in floating.values() if v == n) for n in "xyz"}
    assert all(10 <= c <= 35 for c in counts.values()), counts  # spread, not piled up


# ---------------------------------------------------------------- processes


async def test_each_process_adopts_its_home_shards(processes: Processes) -> None:
    # started together, as a cluster boots: within the boot grace each one takes only its
    # home shards, however long the second takes to start on a busy machine
    a, host_a = await processes.start("a", "0-1", boot_grace=60.0)
    b, host_b = await processes.start("b", "2-3", boot_grace=60.0)
    assert a.ready == {0, 1} and host_a.calls == [("adopt", {0, 1})]
    assert b.ready == {2, 3} and host_b.serving == {2, 3}
    leases = {lease.shard: lease.owner for lease in await a.store.leases(COUNT)}
    assert leases == {0: a.node, 1: a.node, 2: b.node, 3: b.node}


async def test_a_dead_processs_shards_are_taken_over_and_handed_back(
    processes: Processes,
) -> None:
    a, host_a = await processes.start("a", "0-1")
    b, _host_b = await processes.start("b", "2-3")
    await until(lambda: a.ready == {0, 1} and b.ready == {2, 3})
    b_token = b.fence.tokens[2]
    await b.halt()  # killed: its loops stop, it releases nothing and says nothing
    await until(lambda: a.ready == {0, 1, 2, 3})
    assert ("adopt", frozenset({2, 3})) in host_a.calls
    assert a.fence.tokens[2] > b_token  # claimed under a new token: b's token is dead
    # b runs again (a new process, a new node id): a hands its home shards back
    b2, host_b2 = await processes.start("b", "2-3")
    await until(lambda: b2.ready == {2, 3} and a.ready == {0, 1})
    assert ("release", frozenset({2, 3})) in host_a.calls
    assert host_b2.serving == {2, 3}
    assert {e.what for e in a.events} >= {"adopted", "released"}


async def test_a_process_that_leaves_cleanly_is_taken_over_at_once(
    processes: Processes,
) -> None:
    slow = {"dead_after": 30.0}  # only the clean leave can explain a quick take-over
    a, _host_a = await processes.start("a", "0-1", **slow)
    b, host_b = await processes.start("b", "2-3", **slow)
    await until(lambda: a.ready == {0, 1} and b.ready == {2, 3})
    await b.stop()
    assert host_b.calls[-1] == ("release", frozenset({2, 3}))
    await until(lambda: a.ready == {0, 1, 2, 3}, seconds=20)  # far less than dead_after
    leases = await a.store.leases(COUNT)
    assert all(lease.owner == a.node for lease in leases)


async def test_a_process_without_home_shards_only_takes_over(processes: Processes) -> None:
    a, _ = await processes.start("a", "0-3")
    spare, host = await processes.start("spare", "none")
    await rounds_go_by(spare)
    assert spare.ready == set() and host.calls == []
    await a.halt()
    await until(lambda: spare.ready == {0, 1, 2, 3})


async def test_a_lost_lease_is_dropped_at_once(processes: Processes) -> None:
    a, host_a = await processes.start("a", "0-1")
    async with a.store.engine.begin() as conn:  # as if another process had claimed it
        from sqlalchemy import text

        await conn.execute(
            text("UPDATE shard_leases SET owner = 'someone', token = token + 1 WHERE shard_id = 1")
        )
    await until(lambda: ("drop", frozenset({1})) in host_a.calls)
    assert 1 not in a.ready and 1 not in a.fence.tokens


async def test_without_redis_nothing_is_taken_over_on_a_guess(processes: Processes) -> None:
    a, _ = await processes.start("a", "0-1", lease_ttl=60.0)
    b, _ = await processes.start("b", "2-3", lease_ttl=60.0)
    await until(lambda: a.ready == {0, 1} and b.ready == {2, 3})
    await a.redis.aclose()  # a can no longer reach Redis
    broken = processes.services.redis_url.replace(":6379", ":1")
    import redis.asyncio as aioredis

    a.redis = aioredis.Redis.from_url(broken, socket_connect_timeout=0.2)
    await b.halt()
    await until(lambda: not a.redis_ok)
    await rounds_go_by(a)  # b's leases (60 s) are still live: only a guess could take them
    assert a.ready == {0, 1}  # b's shards wait: b may be alive
    assert set(a.fence.tokens) == {0, 1}  # a keeps renewing its own leases


async def rounds_go_by(cluster: Cluster, rounds: int = 10) -> None:
    """Wait (with a deadline) until ``cluster`` has beaten ``rounds`` more times: as many of
    its rounds go by, however slow the machine (a fixed sleep may see none under load)."""
    start = cluster.beats
    await until(lambda: cluster.beats >= start + rounds, seconds=30)


class SlowDrop(Host):
    """A host whose forgetting of a shard's tables takes a while (its gateway shard is
    slow to close)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()

    async def drop(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.gate.wait()
        await super().drop(shard_count, shards)


async def test_a_shard_lost_is_claimed_again_only_once_its_old_tables_are_gone(
    processes: Processes,
) -> None:
    """A lease lost (the database was unreachable past its expiry) and free again: the
    process claims it back only after the old tables are dropped, so a late drop never
    wipes the tables it adopts anew."""
    slow = SlowDrop()
    a, _ = await processes.start("a", "0-1", host=slow)
    async with a.store.engine.begin() as conn:  # expired and released meanwhile
        from sqlalchemy import text

        await conn.execute(text("UPDATE shard_leases SET owner = NULL WHERE shard_id = 1"))
    await until(lambda: any(e.what == "lost" for e in a.events))
    await rounds_go_by(a)  # while the old tables are still going
    # (a, alone, also takes shards 2 and 3 once its boot grace is over: only shard 1 counts)
    shard_1 = [kind for kind, shards in slow.calls if 1 in shards]
    assert 1 not in a.held and shard_1 == ["adopt"]  # its drop not over, no adoption
    slow.gate.set()
    await until(lambda: 1 in a.ready)
    shard_1 = [kind for kind, shards in slow.calls if 1 in shards]
    assert shard_1 == ["adopt", "drop", "adopt"]  # claimed again only once dropped
    assert {0, 1} <= slow.serving


async def test_a_message_of_another_shape_on_the_events_channel_is_ignored(
    processes: Processes,
) -> None:
    """What another version (or anyone) publishes on the events channel never stops the
    listener: a later event still wakes the process."""
    a, _ = await processes.start("a", "0-1")
    await until(lambda: a.ready == {0, 1, 2, 3})  # nobody else: it serves every shard
    for junk in ("[1, 2]", "42", "null", "not json", '"text"'):
        await a.redis.publish(a.events_key, junk)
    await asyncio.sleep(0.2)
    listener = next(t for t in a._tasks if t.get_name() == "cluster-events")
    assert not listener.done()
    b, _ = await processes.start("b", "2-3")
    await until(lambda: b.ready == {2, 3} and a.ready == {0, 1})
    assert not listener.done()


async def test_a_clock_set_back_or_forward_keeps_the_heartbeat_steady() -> None:
    """The cluster's heartbeat and rounds go on every period whatever a step of the clock
    they read does: set back a minute, the next round is not a minute late; set forward,
    the missed rounds are not run back to back."""
    from host.cluster import Every

    loop = asyncio.get_running_loop()
    offset = 0.0  # the clock the loop reads: the event loop's, stepped by the test

    def stepped() -> float:
        return loop.time() + offset

    rounds = 0

    async def one_round() -> None:
        nonlocal rounds
        rounds += 1

    steady = Every(one_round, 0.05, now=stepped)
    steady.start()
    try:
        await until(lambda: rounds >= 2)
        offset = -60.0  # set back a minute
        before = rounds
        await until(lambda: rounds - before >= 10)  # not a minute late
        offset = 60.0  # then forward: two minutes on
        before, began = rounds, loop.time()
        await until(lambda: rounds - before >= 10)
        # ten rounds take at least nine periods (0.45 s): no 2,400 rounds in a burst
        assert loop.time() - began >= 0.4
    finally:
        steady.cancel()


# ---------------------------------------------------------------- a holder Redis does not list


class OneShardDatabase:
    """A database of one shard, whose lease a process holds and renews; the calls of this
    process noted (a store's lease calls, no PostgreSQL)."""

    def __init__(self, owner: str) -> None:
        self.owner, self.live = owner, True
        self.claims: list[tuple[int, tuple[str, int] | None]] = []

    async def prepare_leases(self, shard_count: int) -> None:
        pass

    def use_fence(self, fence: Any) -> None:
        pass

    def forget_shards(self, shard_count: int, shards: frozenset[int]) -> None:
        pass

    async def leases(self, shard_count: int | None = None) -> list[Lease]:
        return [Lease(0, 1, self.owner, 7, None, live=self.live)]

    async def claim_shard(
        self,
        shard: int,
        owner: str,
        shard_count: int,
        ttl: float,
        *,
        replacing: tuple[str, int] | None = None,
    ) -> int:
        self.claims.append((shard, replacing))
        self.owner, self.live = owner, True
        return 8

    async def renew_leases(self, owner: str, tokens: Any, ttl: float) -> set[int]:
        return set(tokens)


class Registry:
    """A Redis of this process's own: the registry holds what this process writes."""

    def __init__(self) -> None:
        self.nodes: dict[str, str] = {}

    async def hset(self, key: str, node: str, entry: str) -> None:
        self.nodes[node] = entry

    async def hgetall(self, key: str) -> dict[str, str]:
        return dict(self.nodes)

    async def hdel(self, key: str, node: str) -> None:
        self.nodes.pop(node, None)

    async def publish(self, channel: str, message: str) -> None:
        pass

    async def aclose(self) -> None:
        pass


async def test_a_live_lease_of_a_process_missing_from_redis_is_not_taken_for_dead(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A lease held, and renewed, by a process this process's Redis does not list (it
    meets its peers in another Redis or under another CLUSTER_PREFIX, or lost Redis alone)
    is not taken over on the guess that its holder died: each would take the shard from
    the other every second. The operator is told once; the shard is claimed once the lease
    expires (its holder stopped renewing: fenced already)."""
    database = OneShardDatabase("elsewhere-host-1-abcdef")
    config = ClusterConfig(1, frozenset({0}), "redis://unused", listen=False, **FAST)
    cluster = Cluster(database, config, redis=Registry())  # type: ignore[arg-type]
    host = Host()
    await cluster.start(host)
    try:
        # missing from the registry for far longer than a stopped heartbeat takes
        await rounds_go_by(cluster, rounds=4 * int(FAST["dead_after"] / FAST["heartbeat"]))
        assert database.claims == [] and cluster.ready == set()
        warned = [r.getMessage() for r in caplog.records if "elsewhere-host" in r.getMessage()]
        assert len(warned) == 1 and "CLUSTER_PREFIX" in warned[0], warned
        database.live = False  # it stopped renewing: the lease expired
        await until(lambda: cluster.ready == {0})
        assert database.claims == [(0, None)]
        took = "took shard 0 over from elsewhere-host-1-abcdef (its lease expired)"
        assert took in caplog.text  # whose it was: the operator sees a take-over
    finally:
        await cluster.halt()

"""One process of several on simulated Discord (issue 11): the real sharded bot
(:class:`~bot.client.ShardedStackBot`, an ``AutoShardedClient``), its command tree and
views, on PostgreSQL and Redis, in guilds of two shards.

It serves the guilds of the shard it holds; when the process holding the other shard dies
(its heartbeat stops, its lease is left behind) it takes that shard over: the table of the
dead process resumes from the database — its message posted again, the announcement the
dead process owed the channel delivered once, the game played on through the gateway
shard it connects — while the dead process, were it still running, could write nothing.
When the shard's home process runs again, the shard is handed back: its gateway shard
disconnected, its tables forgotten here, its lease released.

The cluster's loops are :mod:`discord.ext.tasks` loops, which simcord runs on its virtual
clock: ``advance_time`` is what lets heartbeats happen and deaths be noticed."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis
import simcord

from bot.client import ShardedStackBot
from bot.config import Settings
from bot.front import DISCORD
from bot.refusal_words import MOVED_AWAY
from bot.text import escape_name
from catalog import t
from host.cluster import ClusterConfig
from host.service import Player, TableService
from persistence import Store
from persistence.fence import Fence
from tests.bot.conftest import buttons_of, nasty_name, refused, table_text_of
from tests.bot.test_game import tap
from tests.services import Services, fresh_services

COUNT = 2
LIVE_MENTION = re.compile(r"<@[!&]?\d+>|@everyone|@here")


@pytest.fixture
async def services() -> AsyncIterator[Services]:
    async with fresh_services() as made:
        yield made


def config(services: Services, home: set[int], name: str) -> ClusterConfig:
    return ClusterConfig(
        COUNT,
        frozenset(home),
        services.redis_url,
        prefix=services.prefix,
        name=name,
        heartbeat=1.0,
        dead_after=5.0,
        lease_ttl=3600.0,  # renewed on the virtual clock: real time must not expire it
        boot_grace=5.0,
        listen=False,  # a blocking read simcord cannot settle; heartbeats suffice
    )


class VirtualSleep:
    """The cluster's heartbeat and rounds wait on simcord's virtual clock: each wait is
    declared to simcord, so that only ``advance_time`` moves them on (as a real process's
    heartbeat moves on with real time)."""

    def __init__(self) -> None:
        self.env: simcord.Env | None = None

    async def __call__(self, seconds: float) -> None:
        assert self.env is not None, "the bot's cluster started before its simcord env"
        await self.env.external_wait(asyncio.sleep(seconds), reason="cluster heartbeat")


@pytest.fixture
def cluster_sleep() -> VirtualSleep:
    return VirtualSleep()


@pytest.fixture
def simcord_bot(services: Services, cluster_sleep: VirtualSleep) -> ShardedStackBot:
    """Process B: home shard 1; built with both gateway shards so that simcord has both
    (it connects only those it holds)."""
    return ShardedStackBot(
        Settings(database_url=services.database_url, discord_token=None),
        cluster=config(services, {1}, "b"),
        cluster_sleep=cluster_sleep,
        shard_ids=[0, 1],
        seed=7,
        handle_signals=False,
        pictures="thread",
        database_options=services.engine_options,
    )


@pytest.fixture
async def simcord_env(
    simcord_bot: ShardedStackBot, cluster_sleep: VirtualSleep
) -> AsyncIterator[simcord.Env]:
    """simcord's own fixture, the env handed to the cluster's clock before the bot starts."""
    env = simcord.Env(simcord_bot)
    cluster_sleep.env = env
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


def only_mentions(text: str, allowed: set[int]) -> None:
    """Every mention Discord would act on names one of ``allowed`` (an edit pings none)."""
    for found in LIVE_MENTION.findall(text):
        assert found in {f"<@{u}>" for u in allowed}, (found, text)


def texts(channel: Any) -> list[str]:
    return [table_text_of(m) for m in channel.history()]


def pinged(env: simcord.Env, channel: Any) -> list[int]:
    return [
        user
        for m in channel.history()
        for user in env.backend.get_message(channel.id, m.id).ping_user_ids
    ]


class DeadProcess:
    """Process A, which held shard 0 and played a table there, then died without a word:
    its lease is left in the database and its last heartbeat in Redis."""

    def __init__(self, services: Services, store: Store) -> None:
        self.services = services
        self.store = store
        self.service = TableService(store, front=DISCORD, seed=3)

    @classmethod
    async def start(cls, services: Services) -> DeadProcess:
        store = await Store.open(services.database_url, **services.engine_options)
        fence = Fence("a-dead", COUNT)
        store.use_fence(fence)
        await store.prepare_leases(COUNT)
        token = await store.claim_shard(0, "a-dead", COUNT, 3600.0)
        assert token is not None
        fence.tokens[0] = token
        client = aioredis.Redis.from_url(services.redis_url)
        entry = {"home": [0], "held": [0], "ready": [0], "beat": 41}
        await client.hset(f"{services.prefix}:nodes", "a-dead", json.dumps(entry))
        await client.aclose()
        return cls(services, store)


async def test_a_dead_processs_shard_is_taken_over_on_discord_and_handed_back(
    simcord_env: simcord.Env, simcord_bot: ShardedStackBot, services: Services
) -> None:
    env, bot = simcord_env, simcord_bot
    await bot.tree.sync()
    assert bot.cluster is not None and bot.cluster.ready == {1}
    assert bot.get_shard(0).is_closed() and not bot.get_shard(1).is_closed()

    # --- shard 1: served here, 8 seats of 32-character names full of markdown and mentions
    g1 = env.create_guild("one", shard_id=1)
    ch1 = g1.create_text_channel("stack")
    players = [g1.add_member(env.create_user(nasty_name(i))) for i in range(8)]
    lobby = await players[0].slash(ch1, "table new", target=40, dice=3)
    assert not lobby.ephemeral
    for p in players[1:]:
        joined = await p.click(lobby.response, label="Join")
        assert joined.ephemeral and "You're in" in joined.response.content
    await players[0].click(lobby.response, label="Start")
    live = bot.tables.service.by_channel[ch1.id]
    for _ in range(6):
        mover = next(p for p in players if p.id == live.current_user())
        record = bot.tables.messages[live.id]
        panel = await mover.click(message_of(ch1, record.message_id), label="My turn")
        assert panel.ephemeral, panel.response.content
        await tap(mover, panel.response, live.state.legal_moves()[0])
    shown = table_text_of(message_of(ch1, bot.tables.messages[live.id].message_id))
    assert escape_name(nasty_name(3)) in shown  # named, escaped, in the last turns
    only_mentions(shown, {p.id for p in players})
    assert pinged(env, ch1) == []  # the edits ping nobody

    # --- shard 0: process A held it, played a table there, and died owing a message
    g0 = env.create_guild("zero", shard_id=0)
    ch0 = g0.create_text_channel("stack")
    ann = g0.add_member(env.create_user(nasty_name(0)))
    bob = g0.add_member(env.create_user("bob"))
    cat = g0.add_member(env.create_user("cat"))
    dead = await DeadProcess.start(services)
    host = Player(ann.id, ann.name)
    table = await dead.service.new_table(g0.id, ch0.id, host, {"target_score": 40})
    await dead.service.join(ch0.id, Player(bob.id, "bob"))
    await dead.service.join(ch0.id, Player(cat.id, "cat"))
    started = await dead.service.start(ch0.id, host)
    left = await dead.service.leave(ch0.id, Player(cat.id, "cat"))
    assert left.announced  # "cat left; an AI plays their seat": owed, never delivered
    version = started.table.version
    assert texts(ch0) == []

    # B notices A's heartbeat stop, then takes shard 0 over under a new token
    await env.advance_time(2)
    assert bot.cluster.ready == {1}, "A still counts as alive: its heartbeat was just seen"
    await env.advance_time(6)
    assert bot.cluster.ready == {0, 1}
    assert not bot.get_shard(0).is_closed()
    leases = {lease.shard: lease for lease in await bot.store.leases(COUNT)}
    assert leases[0].owner == bot.cluster.node and leases[0].token == 2
    resumed = bot.tables.service.by_channel[ch0.id]
    assert resumed.id == table.id and resumed.version >= version
    said = texts(ch0)
    assert sum("cat left; an AI plays their seat from now on." in t for t in said) == 1
    table_msg = message_of(ch0, bot.tables.messages[table.id].message_id)
    resumed_text = table_text_of(table_msg)
    assert escape_name(nasty_name(0))[:12] in resumed_text and "**bob**" in resumed_text
    only_mentions(resumed_text, {ann.id, bob.id})
    assert [b["label"] for b in buttons_of(table_msg)] == ["My turn"]

    # A, were it still running, can write nothing more there
    mover_id = resumed.current_user()
    assert mover_id in (ann.id, bob.id)
    zombie_live = dead.service.by_channel[ch0.id]
    name = "bob" if mover_id == bob.id else ann.name
    with refused(match=re.escape(t(MOVED_AWAY))):
        await dead.service.move(
            ch0.id, Player(mover_id, name), move=zombie_live.state.legal_moves()[0]
        )
    # the game goes on here, through the gateway shard B connected
    mover = bob if mover_id == bob.id else ann
    before = resumed.version
    panel = await mover.click(table_msg, label="My turn")
    assert panel.ephemeral, panel.response.content
    await tap(mover, panel.response, resumed.state.legal_moves()[0])
    assert bot.tables.service.by_channel[ch0.id].version > before
    assert pinged(env, ch0) == []

    # --- A's home process runs again: B hands shard 0 back
    client = aioredis.Redis.from_url(services.redis_url)
    for beat in range(1, 4):
        entry = {"home": [0], "held": [], "ready": [], "beat": beat}
        await client.hset(f"{services.prefix}:nodes", "a-again", json.dumps(entry))
        await env.advance_time(1)
    await client.aclose()
    assert bot.cluster.ready == {1}
    assert bot.get_shard(0).is_closed()
    assert ch0.id not in bot.tables.service.by_channel
    leases = {lease.shard: lease for lease in await bot.store.leases(COUNT)}
    assert leases[0].owner is None  # released: A's new process claims it at once
    await dead.store.close()


def message_of(channel: Any, message_id: int | None) -> Any:
    assert message_id is not None
    for m in channel.history():
        if m.id == message_id:
            return m
    raise AssertionError(f"no message {message_id}")


async def test_a_shard_disconnects_while_another_shards_connection_is_stuck(
    simcord_env: simcord.Env, simcord_bot: ShardedStackBot, services: Services
) -> None:
    """A gateway connection that hangs (a Discord outage: discord.py retries it inside
    ``launch_shard`` for minutes) holds the gateway lock; a shard given up meanwhile is
    disconnected at once all the same, so a hand-over never stalls behind it."""
    bot = simcord_bot
    assert bot.cluster is not None and bot.cluster.ready == {1}
    host = bot.shards_host
    assert host is not None and not bot.get_shard(1).is_closed()
    async with host._gateway:  # shard 0's connection, stuck
        await asyncio.wait_for(host.disconnect(frozenset({1})), 5.0)
        assert bot.get_shard(1).is_closed()


async def test_a_shard_still_connecting_when_the_bot_closes_is_not_tried_again(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py tries a gateway shard's connection again every 5 s, forever, even once
    the client is closed: a process stopped (SIGTERM) while its shards were still
    connecting, 5 s apart, never exited, and logged a traceback every 5 s. Once the client
    is closed, a shard is not tried again, and the launch ends."""
    from discord.gateway import DiscordWebSocket

    home = ClusterConfig(8, frozenset({0, 1, 2, 3}), "redis://127.0.0.1:1/0", name="s0")
    bot = ShardedStackBot(
        Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", discord_token=None),
        cluster=home,
        handle_signals=False,
        pictures="thread",
    )
    tries: list[int] = []

    async def refused(*args: Any, shard_id: int, **kwargs: Any) -> None:
        tries.append(shard_id)
        await bot.close()  # the process stops while the shard connects
        raise OSError("Cannot write to closing transport")

    monkeypatch.setattr(DiscordWebSocket, "from_client", refused)
    async with bot:  # what bot.run() makes before connecting
        await asyncio.wait_for(bot.launch_shard(DiscordWebSocket.DEFAULT_GATEWAY, 3), 30)
    assert tries == [3]


async def test_a_stop_while_the_shards_connect_cancels_the_connection_under_way(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At start the shards held connect one at a time (Discord's pace: 5 s apart); a stop
    meanwhile gives them up, which cancels the connection under way, and the launch ends
    without connecting the rest (it went on connecting them, the last one failing once the
    client had closed: the exit came 5–10 s late, past Docker's grace period)."""
    from types import SimpleNamespace

    from discord.gateway import DiscordWebSocket

    from bot.sharding import BotShards

    home = ClusterConfig(8, frozenset({0, 1}), "redis://127.0.0.1:1/0", name="s0")
    bot = ShardedStackBot(
        Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", discord_token=None),
        cluster=home,
        handle_signals=False,
        pictures="thread",
    )
    cluster = SimpleNamespace(held={0, 1}, ready={0, 1})
    shards = BotShards(bot, None, cluster)  # type: ignore[arg-type]
    tries: list[int] = []
    connecting = asyncio.Event()

    async def slow(*args: Any, shard_id: int, **kwargs: Any) -> None:
        tries.append(shard_id)
        connecting.set()
        await asyncio.Event().wait()  # Discord's identify pace: a while

    monkeypatch.setattr(DiscordWebSocket, "from_client", slow)
    async with bot:
        launching = asyncio.create_task(shards.launch())
        await asyncio.wait_for(connecting.wait(), 10)
        cluster.ready = set()  # the stop gives both up (no longer served, then released)
        await shards.disconnect(frozenset({0, 1}))
        await asyncio.wait_for(launching, 10)
    assert tries == [0]

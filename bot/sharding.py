"""The bot's side of the shards it holds (one process of several: :mod:`host.cluster`): its
tables (:class:`~bot.tables.Tables`) and its gateway connections (discord.py's
:class:`~discord.AutoShardedClient`).

A shard is served only once its tables are loaded: adopting one loads its tables, then
connects its gateway shard, so that no interaction of its guilds arrives before their
tables are there; giving one up disconnects the gateway shard first (no new interaction),
then lets the tables' work finish. At start the client launches only the shards the
cluster holds by then (none, for a process that only takes over); a shard adopted later is
connected then (``ShardInfo.connect`` for one the client knows, ``launch_shard`` for a
new one), in a task of its own: Discord lets a bot identify one shard every 5 seconds (per
``max_concurrency`` bucket), so connecting several takes a while, and the tables are served
(their timers run, their messages are edited) meanwhile. A connection that does not come up
within ``CONNECT_TIMEOUT`` is tried again later, as long as the shard is held.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.gateway import DiscordWebSocket

if TYPE_CHECKING:
    from bot.tables import Tables
    from host.cluster import Cluster

log = logging.getLogger(__name__)
CONNECT_TIMEOUT = 120.0  # seconds for one gateway shard to connect
CONNECT_RETRY = 30.0  # seconds before a failed connection is tried again
DISCONNECT_WAIT = 5.0  # seconds a disconnect waits for its shards' cancelled connections


class BotShards:
    """What the bot does with the shards the cluster gives it (a
    :class:`~host.cluster.ShardHost`): its client (the gateway, a
    :class:`~bot.client.ShardedStackBot`), its tables and its cluster are given to it."""

    def __init__(self, bot: discord.AutoShardedClient, tables: Tables, cluster: Cluster) -> None:
        self.bot = bot
        self.tables = tables
        self.cluster = cluster
        self.launched = False  # the client's gateway has started
        self._gateway = asyncio.Lock()
        self._connecting: dict[int, asyncio.Task[None]] = {}

    async def adopt(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.tables.adopt(shard_count, shards)
        for shard in shards:
            self._connect_later(shard)

    async def release(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.disconnect(shards)
        await self.tables.release(shard_count, shards)

    async def drop(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.disconnect(shards)
        await self.tables.drop(shard_count, shards)

    def _connect_later(self, shard: int) -> None:
        running = self._connecting.get(shard)
        if running is None or running.done():
            self._connecting[shard] = asyncio.get_running_loop().create_task(
                self._keep_connecting(shard), name=f"gateway-shard-{shard}"
            )

    async def _keep_connecting(self, shard: int) -> None:
        """Connect the shard's gateway, again after a failure, while the shard is held."""
        while shard in self.cluster.held:
            try:
                await asyncio.wait_for(self.connect(frozenset({shard})), CONNECT_TIMEOUT)
                return
            except (TimeoutError, OSError, discord.HTTPException, discord.GatewayNotFound) as err:
                log.error("gateway: shard %d did not connect (%r); trying again", shard, err)
            await asyncio.sleep(CONNECT_RETRY)

    def health(self) -> dict[str, Any]:
        figures = self.tables.health()
        figures["gateway_ms"] = {
            shard: round(latency * 1000, 1) for shard, latency in gateway_latencies(self.bot)
        }
        return figures

    # ------------------------------------------------------------ the gateway

    async def launch(self) -> None:
        """The client connects: launch the shards held now (the others as they come)."""
        async with self._gateway:
            bot = self.bot
            held = sorted(self.cluster.ready)
            bot.shard_ids = held
            bot._connection.shard_count = bot.shard_count
            bot._connection.shard_ids = held
            self.launched = True
            for shard in held:
                if shard not in self.cluster.ready or bot.is_closed():
                    continue  # given up meanwhile (a stop while the others connected)
                # a task of its own, as a later shard's: giving the shard up cancels it
                launching = asyncio.get_running_loop().create_task(
                    bot.launch_shard(
                        DiscordWebSocket.DEFAULT_GATEWAY, shard, initial=shard == held[0]
                    ),
                    name=f"gateway-shard-{shard}",
                )
                self._connecting[shard] = launching
                await asyncio.wait({launching})
                if not launching.cancelled():
                    launching.result()

    async def connect(self, shards: frozenset[int]) -> None:
        """Receive the shards' events from now on."""
        async with self._gateway:
            bot = self.bot
            for shard in sorted(shards):
                info = bot.get_shard(shard)
                if info is not None:
                    if not info.is_closed():
                        continue
                    await info.connect()
                elif self.launched:
                    if bot.shard_ids is None:
                        bot.shard_ids = []
                    if shard not in bot.shard_ids:
                        bot.shard_ids.append(shard)
                    await bot.launch_shard(DiscordWebSocket.DEFAULT_GATEWAY, shard)
                else:
                    continue  # the client is not connected yet: launch() connects it
                log.info("gateway: shard %d connected", shard)

    async def disconnect(self, shards: frozenset[int]) -> None:
        """Receive none of the shards' events any more. Their own connections under way
        are cancelled first; another shard's (which may wait minutes on a Discord outage)
        is not waited for, so a hand-over never stalls behind it."""
        pending = [
            task
            for shard in shards
            if (task := self._connecting.pop(shard, None)) is not None and not task.done()
        ]
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending, timeout=DISCONNECT_WAIT)
        for shard in sorted(shards):
            info = self.bot.get_shard(shard)
            if info is not None and not info.is_closed():
                try:
                    await info.disconnect()
                except (discord.HTTPException, OSError, RuntimeError) as err:
                    log.warning("gateway: disconnecting shard %d failed: %s", shard, err)
                else:
                    log.info("gateway: shard %d disconnected", shard)

    async def keep_only_held(self, shard_id: int) -> None:
        """A shard connected (or resumed) that this process does not hold — a client that
        connects every shard it was built with, as a test's simulated Discord does, or a
        resume Discord asked for just as the shard was given up: disconnect it."""
        if shard_id not in self.cluster.held:
            await self.disconnect(frozenset({shard_id}))


def gateway_latencies(bot: Any) -> list[tuple[int, float]]:
    """Each connected shard's gateway heartbeat latency (s): none for a shard closed or
    not yet acknowledged (discord.py says ``inf`` or NaN for those)."""
    try:
        pairs = list(bot.latencies)
    except (AttributeError, KeyError):
        return []
    return [(shard, x) for shard, x in pairs if x == x and x != float("inf")]

"""The bot's side of the shards it holds (one process of several: :mod:`bot.cluster`): its
tables (:class:`~bot.tables.Tables`) and its gateway connections (discord.py's
:class:`~discord.AutoShardedClient`).

A shard is served only once its tables are loaded: adopting one loads its tables, then
connects its gateway shard, so that no interaction of its guilds arrives before their
tables are there; giving one up disconnects the gateway shard first (no new interaction),
then lets the tables' work finish. At start the client launches only the shards the
cluster holds by then (none, for a process that only takes over); a shard adopted later is
connected then (``ShardInfo.connect`` for one the client knows, ``launch_shard`` for a
new one).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.gateway import DiscordWebSocket

if TYPE_CHECKING:
    from bot.client import ShardedStackBot

log = logging.getLogger(__name__)


class BotShards:
    """What the bot does with the shards the cluster gives it (a
    :class:`~bot.cluster.ShardHost`)."""

    def __init__(self, bot: ShardedStackBot) -> None:
        self.bot = bot
        self.launched = False  # the client's gateway has started
        self._gateway = asyncio.Lock()

    async def adopt(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.bot.tables.adopt(shard_count, shards)
        await self.connect(shards)

    async def release(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.disconnect(shards)
        await self.bot.tables.release(shard_count, shards)

    async def drop(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.disconnect(shards)
        await self.bot.tables.drop(shard_count, shards)

    def health(self) -> dict[str, Any]:
        figures = self.bot.tables.health()
        latencies = {
            shard: round(latency * 1000, 1)
            for shard, latency in self._latencies()
            if latency == latency and latency != float("inf")  # NaN before the first ACK
        }
        figures["gateway_ms"] = latencies
        return figures

    def _latencies(self) -> list[tuple[int, float]]:
        try:
            return list(self.bot.latencies)
        except (AttributeError, KeyError):
            return []

    # ------------------------------------------------------------ the gateway

    async def launch(self) -> None:
        """The client connects: launch the shards held now (the others as they come)."""
        async with self._gateway:
            bot = self.bot
            held = sorted(bot.cluster.ready) if bot.cluster is not None else []
            bot.shard_ids = held
            bot._connection.shard_count = bot.shard_count
            bot._connection.shard_ids = held
            self.launched = True
            for shard in held:
                await bot.launch_shard(
                    DiscordWebSocket.DEFAULT_GATEWAY, shard, initial=shard == held[0]
                )

    async def connect(self, shards: frozenset[int]) -> None:
        """Receive the shards' events from now on."""
        async with self._gateway:
            bot = self.bot
            for shard in sorted(shards):
                info = bot.get_shard(shard)
                if info is not None:
                    if info.is_closed():
                        await info.connect()
                elif self.launched:
                    if bot.shard_ids is None:
                        bot.shard_ids = []
                    if shard not in bot.shard_ids:
                        bot.shard_ids.append(shard)
                    await bot.launch_shard(DiscordWebSocket.DEFAULT_GATEWAY, shard)
                # before the client connects, launch() connects it with the others
                log.info("gateway: shard %d connected", shard)

    async def disconnect(self, shards: frozenset[int]) -> None:
        """Receive none of the shards' events any more."""
        async with self._gateway:
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
        """A shard connected that this process does not serve (a client that connects
        every shard it was built with, as a test's simulated Discord does): disconnect
        it."""
        cluster = self.bot.cluster
        if cluster is not None and shard_id not in cluster.held:
            await self.disconnect(frozenset({shard_id}))

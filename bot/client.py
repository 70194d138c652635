"""The bot: thin cogs loaded in ``setup_hook``, persistent buttons registered at start-up."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.config import Settings
from bot.tables import Tables
from bot.views import DYNAMIC_ITEMS
from persistence import Store

log = logging.getLogger(__name__)
COGS = ("bot.cogs.table", "bot.cogs.play", "bot.cogs.info")


class StackBot(commands.Bot):
    """Opens the database (migrating it), loads every active table, resumes timers and
    buttons, then serves the slash commands."""

    def __init__(self, settings: Settings, *, seed: int | None = None) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.settings = settings
        self.seed = seed
        self.store: Store | None = None
        self._tables: Tables | None = None

    @property
    def tables(self) -> Tables:
        assert self._tables is not None, "the bot has not started"
        return self._tables

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_url)
        self._tables = Tables(self, self.store, seed=self.seed)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for name in COGS:
            await self.load_extension(name)
        await self._tables.resume()
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("commands synced to the dev guild %s", self.settings.dev_guild_id)

    async def setup_hook_for_sync(self) -> None:
        """Load the command cogs only (for ``stackbot sync``: no database needed)."""
        for name in COGS:
            await self.load_extension(name)

    async def on_message(self, message: discord.Message) -> None:
        if self._tables is not None and message.channel.id in self._tables.service.by_channel:
            self._tables.message_seen(message.channel.id)

    async def close(self) -> None:
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None

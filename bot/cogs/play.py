"""Help during any game: ``/hint`` and ``/export`` (each game's own moves are its cog's:
Stack's ``/stack`` and ``/reroll`` are in :mod:`bot.games.stack.game`)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StackBot


class PlayCog(commands.Cog):
    def __init__(self, bot: StackBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="hint", description="What the greedy AI would play (only you see it)"
    )
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.hint(interaction)

    @app_commands.command(name="export", description="The game record of this channel's game")
    @app_commands.guild_only()
    async def export(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.export(interaction)


async def setup(bot: StackBot) -> None:
    await bot.add_cog(PlayCog(bot))

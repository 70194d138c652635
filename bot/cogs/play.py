"""Moves and help during a game: ``/stack``, ``/reroll``, ``/hint``, ``/export``."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StackBot

MENTION = re.compile(r"^<@!?(\d+)>$")


class PlayCog(commands.Cog):
    def __init__(self, bot: StackBot) -> None:
        self.bot = bot

    def _target_name(self, interaction: discord.Interaction, on: str) -> str:
        """A pasted mention becomes the seat's name; anything else is read by the parser."""
        m = MENTION.match(on.strip())
        live = self.bot.tables.service.by_channel.get(interaction.channel_id or 0)
        if m and live is not None:
            seat = live.info.seat_of(int(m[1]))
            if seat is not None:
                return seat.name
        return on

    @app_commands.command(name="stack", description="Stack one of your unstacked dice on a pile")
    @app_commands.guild_only()
    @app_commands.describe(
        die="The face of your die (it must match the pile's)",
        on="Whose pile: the player who owns its top die",
        height="The pile's height, when that player has several piles of this face",
    )
    async def stack(
        self,
        interaction: discord.Interaction,
        die: app_commands.Range[int, 1, 6],
        on: str,
        height: app_commands.Range[int, 1, 3] | None = None,
    ) -> None:
        target = self._target_name(interaction, on)
        # quoted, so that a name ending in a number is never read as a height
        text = f'stack {die} on "{target}"' + (f" {height}" if height else "")
        await self.bot.tables.play(interaction, text)

    @stack.autocomplete("on")
    async def stack_on(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        live = self.bot.tables.service.by_channel.get(interaction.channel_id or 0)
        if live is None:
            return []
        names = [s.name for s in live.info.seats if s.user_id != interaction.user.id]
        wanted = current.lstrip("@").lower()
        return [app_commands.Choice(name=n, value=n) for n in names if wanted in n.lower()][:25]

    @app_commands.command(name="reroll", description="Roll one of your unstacked dice again")
    @app_commands.guild_only()
    @app_commands.describe(die="The face of the die to roll again")
    async def reroll(
        self, interaction: discord.Interaction, die: app_commands.Range[int, 1, 6]
    ) -> None:
        await self.bot.tables.play(interaction, f"reroll {die}")

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

"""``/table``: open (any hosted game), join, leave, start, add AI, kick, end and show a
table."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import games
from bot.client import StackBot


def game_choices() -> list[app_commands.Choice[str]]:
    """``/table new game:``'s choices: every hosted game, the default first."""
    return [app_commands.Choice(name=games.get(n).title, value=n) for n in games.names()]


class TableCog(commands.Cog):
    table = app_commands.Group(
        name="table", description="A game table in this channel", guild_only=True
    )

    def __init__(self, bot: StackBot) -> None:
        self.bot = bot

    @table.command(name="new", description="Open a table in this channel")
    @app_commands.describe(
        game="Which game (default: Stack)",
        teams="Play in teams of two (needs an even number of players, at least 4)",
        target="Points that end the game (default: the server's house rule, 200)",
        dice="Dice per player (default: the server's house rule, 14)",
    )
    @app_commands.choices(game=game_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        game: str = games.DEFAULT,
        teams: bool | None = None,
        target: app_commands.Range[int, 1, 10_000] | None = None,
        dice: app_commands.Range[int, 1, 30] | None = None,
    ) -> None:
        options = {"teams": teams, "target": target, "dice": dice}
        await self.bot.tables.new(interaction, options, game)

    @table.command(name="join", description="Sit down at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.join(interaction)

    @table.command(name="leave", description="Leave the table (an AI takes your seat mid-game)")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.leave(interaction)

    @table.command(name="start", description="Start the game (host only)")
    async def start(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.start(interaction)

    @table.command(name="addbot", description="Add an AI player to the lobby")
    @app_commands.describe(level="How the AI plays: greedy (good) or random (easy)")
    async def addbot(
        self, interaction: discord.Interaction, level: Literal["greedy", "random"] = "greedy"
    ) -> None:
        await self.bot.tables.add_ai(interaction, level)

    @table.command(name="kick", description="Remove a player from the table (host only)")
    @app_commands.describe(player="The player to remove")
    async def kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self.bot.tables.kick(interaction, player.id)

    @table.command(name="end", description="End the table (host or server manager)")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.end(interaction)

    @table.command(
        name="show", description="Post the live table again at the bottom of the channel"
    )
    async def show(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.show(interaction)


async def setup(bot: StackBot) -> None:
    await bot.add_cog(TableCog(bot))

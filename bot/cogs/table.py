"""``/table``: open (any hosted game), join, leave, start, add AI, kick, end and show a
table, or open it as the Discord Activity.

Discord's slash options are fixed when the commands are synced, so ``/table new`` carries
every hosted game's options at once (Stack's ``teams``, ``target``, ``dice``; Stack Up!'s
``turn_limit``). Each game says which are its own (:attr:`DiscordGame.table_options`,
option -> settings field); an option given for a game that does not take it is refused
by name, with the options that game does take, before anything is opened."""

from __future__ import annotations

from collections.abc import Mapping

import discord
from discord import app_commands
from discord.ext import commands

import catalog
from bot import games
from bot.ai_levels import level_choice_name, level_name
from bot.client import StackBot
from bot.games.base import DiscordGame
from bot.refusal_words import Refused
from bot.text import cut, escape_name, label_name
from bot.webfront import launch_activity


def game_choices() -> list[app_commands.Choice[str]]:
    """``/table new game:``'s choices: every hosted game, the default first."""
    return [app_commands.Choice(name=games.get(n).title, value=n) for n in games.names()]


def level_choices() -> list[app_commands.Choice[str]]:
    """``/table addbot level:``'s and ``/stats ai:``'s choices: every AI level of any
    hosted game, easiest first as the games list them, each with its strength in words (a
    level the table's game lacks is refused, naming the game's levels)."""
    levels: dict[str, None] = {}
    for played in games.all_games():
        levels.update(dict.fromkeys(played.game.ai_levels))
    return [app_commands.Choice(name=level_choice_name(level), value=level) for level in levels]


def foreign_options(played: DiscordGame, options: Mapping[str, object]) -> str | None:
    """The refusal of the options given (not ``None``) that ``played`` does not take,
    naming the game each belongs to and the options ``played`` takes; ``None`` when
    every option given is the game's: ``"`target` is a Stack option; Stack Up! takes
    `turn_limit`."``"""
    wrong = [o for o, v in options.items() if v is not None and o not in played.table_options]
    if not wrong:
        return None
    by_owner: dict[str, list[str]] = {}
    for option in wrong:
        owners = [escape_name(g.title) for g in games.all_games() if option in g.table_options]
        by_owner.setdefault(catalog.join(owners), []).append(f"`{option}`")
    parts = catalog.t("info.options.separator").join(
        _belongs(named, owner) for owner, named in by_owner.items()
    )
    title = escape_name(played.title)
    if not played.table_options:
        return catalog.t("info.options.takes_none", parts=parts, title=title)
    takes = catalog.t("list.comma").join(f"`{o}`" for o in played.table_options)
    return catalog.t("info.options.takes", parts=parts, title=title, options=takes)


def _belongs(named: list[str], owner: str) -> str:
    """``"`target` is a Stack option"``, ``"`target` and `dice` are Stack options"``."""
    if not owner:
        return catalog.n("info.options.nobody", len(named), options=catalog.join(named))
    return catalog.n("info.options.of", len(named), options=catalog.join(named), owner=owner)


class TableCog(commands.Cog):
    table = app_commands.Group(
        name="table",
        description="A game table in this channel",
        allowed_contexts=app_commands.AppCommandContext(guild=True),  # servers only
    )

    def __init__(self, bot: StackBot) -> None:
        self.bot = bot

    @table.command(name="new", description="Open a table in this channel")
    @app_commands.describe(
        game="Which game (default: Stack)",
        teams="Stack: play in teams of two (needs an even number of players, at least 4)",
        target="Stack: points that end the game (default: the house rule, 200)",
        dice="Stack: dice per player (default: the house rule, 14)",
        turn_limit="Stack Up!, Color Stack: turns after which the game ends (house rule)",
        board="Color Stack: light (6 cards, the default) or heavy (9 cards)",
    )
    @app_commands.choices(
        game=game_choices(),
        board=[
            app_commands.Choice(name="light (6 cards)", value="light"),
            app_commands.Choice(name="heavy (9 cards)", value="heavy"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        game: str = games.DEFAULT,
        teams: bool | None = None,
        target: app_commands.Range[int, 1, 10_000] | None = None,
        dice: app_commands.Range[int, 1, 30] | None = None,
        turn_limit: app_commands.Range[int, 1, None] | None = None,
        board: str | None = None,
    ) -> None:
        options = {
            "teams": teams,
            "target": target,
            "dice": dice,
            "turn_limit": turn_limit,
            "board": board,
        }
        if game in games.names():  # an unknown game is refused by the host, by name
            refusal = foreign_options(games.get(game), options)
            if refusal is not None:
                raise Refused(refusal)
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
    @app_commands.describe(
        level="How strong the AI plays: random (easy), greedy (fair), expert (strong)"
    )
    @app_commands.choices(level=level_choices())
    async def addbot(self, interaction: discord.Interaction, level: str = "greedy") -> None:
        await self.bot.tables.add_ai(interaction, level)

    @table.command(
        name="kick", description="Remove a player, or an AI seat of the lobby (host only)"
    )
    @app_commands.describe(
        player="The player to remove",
        seat="Or the seat to remove, by its name: an AI's (before the game starts) or a player's",
    )
    async def kick(
        self,
        interaction: discord.Interaction,
        player: discord.Member | discord.User | None = None,  # a User: left the server
        seat: str | None = None,
    ) -> None:
        if player is not None and seat is not None:
            raise Refused("refusal.kick.both")
        if player is not None:
            await self.bot.tables.kick(interaction, player.id)
        elif seat is not None and seat.strip():
            await self.bot.tables.lobby.kick_seat(interaction, seat)
        else:
            raise Refused("refusal.kick.none")

    @kick.autocomplete("seat")
    async def _seats(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The seats the host may remove, those containing what was typed: in the lobby
        every other seat, AIs with their level as the lobby shows them; mid-game the
        other players still seated (an AI seat plays on)."""
        live = self.bot.tables.service.by_channel.get(interaction.channel_id or 0)
        if live is None:
            return []
        lobby = live.info.status == "lobby"
        typed = current.strip().removeprefix("@").casefold()
        choices = []
        for s in live.info.seats:
            if s.user_id == interaction.user.id or (s.is_ai and not lobby):
                continue
            if typed not in s.name.casefold():
                continue
            shown = label_name(s.name)
            if s.is_ai:
                shown = catalog.t("discord.lobby.ai_seat", name=shown, level=level_name(s.ai_level))
            choices.append(app_commands.Choice(name=cut(shown, 100), value=s.name))
        return choices[:25]

    @table.command(name="end", description="End the table (host or server manager)")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.end(interaction)

    @table.command(
        name="show", description="Post the live table again at the bottom of the channel"
    )
    async def show(self, interaction: discord.Interaction) -> None:
        await self.bot.tables.show(interaction)

    @table.command(name="activity", description="Open this channel's table as an Activity")
    async def activity(self, interaction: discord.Interaction) -> None:
        await launch_activity(interaction, self.bot.health.web)


async def setup(bot: StackBot) -> None:
    await bot.add_cog(TableCog(bot))

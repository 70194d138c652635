"""Scores (with the game's chart), history (a button per game), leaderboard, stats (with
a chart of the last games), rules and house rules (the picture theme among them).

``/scores``, ``/leaderboard``, ``/stats`` and ``/rules`` serve every hosted game: each
answers with the game's own words (:class:`~bot.games.base.DiscordGame`); ``game:``
chooses it (default: the channel's table's game, else Stack). ``/houserules`` sets
Stack's house rules (the server-wide timers and theme apply to every game)."""

from __future__ import annotations

import re
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot import games
from bot.client import StackBot
from bot.cogs.table import game_choices
from bot.games.base import DiscordGame
from bot.render import history_text, house_rules_text, leaderboard_text
from bot.story import MAX_GAME_BUTTONS, history_view
from bot.text import echo, escape_name, fit_message
from engine.stack.rules import HouseRules, rules_error
from persistence import InvalidSettings, TableNotFound, WrongTableStatus
from persistence.records import THEMES

MIN_TURN_SECONDS = 15
SERVER_KEYS = ("lobby_timeout", "idle_timeout")  # settings of the whole server only
THEME = "theme"  # the server's picture theme (dark or light)
RULE_KEYS = [*HouseRules.model_fields, "turn_timer", *SERVER_KEYS, THEME]
DURATION = re.compile(r"^(\d{1,7})\s*([smhd]?)$")
UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(key: str, raw: str) -> int:
    """Seconds from ``90``, ``90s``, ``30m``, ``2h`` or ``1d``."""
    m = DURATION.match(raw.strip().lower())
    if m is None:
        raise ValueError(f"`{key}` takes a duration such as 30m, 2h or 1d, not {echo(raw)}.")
    return int(m[1]) * UNITS[m[2]]


def duration_words(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds} s"


TRUE = {"on", "true", "yes", "1"}
FALSE = {"off", "false", "no", "0"}


def parse_value(key: str, raw: str) -> object:
    """A house rule's value from what an admin typed."""
    text = raw.strip().lower()
    if key in SERVER_KEYS:
        return parse_duration(key, raw)
    field = HouseRules.model_fields.get(key)
    if key == "turn_timer" or (field is not None and field.annotation is int):
        if text in FALSE and key == "turn_timer":
            return 0
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"`{key}` takes a whole number, not {echo(raw)}.") from None
    if field is not None and field.annotation is bool:
        if text in TRUE:
            return True
        if text in FALSE:
            return False
        raise ValueError(f"`{key}` is on or off, not {echo(raw)}.")
    return text


def shown_value(value: object) -> str:
    """A house rule's value as a reply shows it: on/off, a number, or the (escaped) word."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return escape_name(str(value))


async def reply(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral reply, shortened to fit Discord's limit."""
    await interaction.response.send_message(fit_message(text), ephemeral=True)


class InfoCog(commands.Cog):
    def __init__(self, bot: StackBot) -> None:
        self.bot = bot

    @property
    def store(self):  # type: ignore[no-untyped-def]
        return self.bot.tables.store

    @app_commands.command(
        name="scores", description="The score sheet of this channel's game, or its history"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        show="sheet: the current (or last) game; history: finished games here",
        game="The history of which game (default: this channel's, or Stack)",
    )
    @app_commands.choices(game=game_choices())
    async def scores(
        self,
        interaction: discord.Interaction,
        show: Literal["sheet", "history"] = "sheet",
        game: str | None = None,
    ) -> None:
        channel_id = interaction.channel_id or 0
        tables = self.bot.tables
        if show == "history":
            played = self._game(interaction, game)
            finished = await self.store.history(
                channel_id, limit=MAX_GAME_BUTTONS, game=played.name
            )
            view = history_view(finished)
            extra = {"view": view} if view is not None else {}
            await tables.say(interaction, history_text(finished), **extra)
            return
        live = tables.service.by_channel.get(channel_id)
        table_id = live.id if live is not None and live.state is not None else None
        if table_id is None:
            table_id = await tables.last_finished(channel_id)
        if table_id is None:
            await reply(interaction, "No game has been played in this channel yet.")
            return
        try:
            sheet = await self.store.score_sheet(table_id)
            info = await self.store.table(table_id)
        except (TableNotFound, WrongTableStatus):
            await reply(interaction, "No game has been played in this channel yet.")
            return
        shown = games.get(info.game)
        chart = await tables.in_time(interaction, shown.score_chart(tables, sheet, info))
        extra = {"file": chart} if chart is not None else {}
        await tables.say(interaction, shown.score_text(sheet), **extra)

    def _game(self, interaction: discord.Interaction, name: str | None) -> DiscordGame:
        """The game asked for, else the channel's table's, else the default (Stack)."""
        if name is None:
            live = self.bot.tables.service.by_channel.get(interaction.channel_id or 0)
            name = live.info.game if live is not None else games.DEFAULT
        return games.get(name)

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.guild_only()
    @app_commands.describe(
        by="Rank by wins or by points", game="Which game (default: this channel's, or Stack)"
    )
    @app_commands.choices(game=game_choices())
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        by: Literal["wins", "points"] = "wins",
        game: str | None = None,
    ) -> None:
        played = self._game(interaction, game)
        store = self.store
        rows = await store.leaderboard(interaction.guild_id or 0, by=by, game=played.name)
        await reply(interaction, leaderboard_text(rows, by))

    @app_commands.command(name="stats", description="A player's record in a game on this server")
    @app_commands.guild_only()
    @app_commands.describe(
        player="Whose stats (default: yours)",
        game="Which game (default: this channel's, or Stack)",
    )
    @app_commands.choices(game=game_choices())
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.Member | None = None,
        game: str | None = None,
    ) -> None:
        played = self._game(interaction, game)
        who = player or interaction.user
        guild_id = interaction.guild_id or 0
        store = self.store
        record = await store.stats(guild_id, who.id, game=played.name)
        name = getattr(who, "display_name", who.name)
        tables = self.bot.tables
        chart = None
        if record is not None:
            chart = await tables.in_time(
                interaction, played.stats_chart(tables, guild_id, name, record)
            )
        extra = {"file": chart} if chart is not None else {}
        await tables.say(interaction, played.stats_text(name, record), **extra)

    @app_commands.command(
        name="rules", description="A game's rules in brief, with this channel's house rules"
    )
    @app_commands.guild_only()
    @app_commands.describe(game="Which game (default: this channel's, or Stack)")
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        played = self._game(interaction, game)
        store = self.store
        settings = await store.guild_settings(
            interaction.guild_id or 0, interaction.channel_id, game=played.name
        )
        timer = f"{settings.turn_seconds} s" if settings.turn_seconds else "off"
        house = played.settings_text(settings.effective)
        text = f"{played.rules_brief()}\n\n{house}\nTurn timer: {timer}"
        await reply(interaction, text)

    houserules = app_commands.Group(
        name="houserules",
        description="This server's house rules (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    async def _manager(self, interaction: discord.Interaction) -> bool:
        # default_permissions can be changed by admins: check at run time too.
        if interaction.permissions.manage_guild:
            return True
        await reply(interaction, "Only members with **Manage Server** can change house rules.")
        return False

    @houserules.command(name="show", description="The house rules in force here")
    async def show(self, interaction: discord.Interaction) -> None:
        settings = await self.store.guild_settings(
            interaction.guild_id or 0, interaction.channel_id
        )
        timer = f"{settings.turn_seconds} s" if settings.turn_seconds else "off"
        if settings.channel_turn_seconds is not None:
            timer += " (this channel)"
        here = settings.channel_rules is not None
        text = (
            house_rules_text(settings.effective, channel=here)
            + f"\n`turn_timer` = {timer}"
            + f"\n`lobby_timeout` = {duration_words(settings.lobby_timeout)} (server)"
            + f"\n`idle_timeout` = {duration_words(settings.idle_timeout)} (server)"
            + f"\n`{THEME}` = {settings.theme} (server: the pictures' theme)"
        )
        await reply(interaction, text)

    @houserules.command(name="set", description="Change one house rule")
    @app_commands.describe(
        key="Which rule",
        value="Its new value: a number, on/off, extra_round/shared, a duration (30m, 2h), "
        "or dark/light",
        here="Only for this channel (overrides the server's value here), for any rule",
    )
    @app_commands.choices(key=[app_commands.Choice(name=k, value=k) for k in RULE_KEYS])
    async def set(
        self, interaction: discord.Interaction, key: str, value: str, here: bool = False
    ) -> None:
        if not await self._manager(interaction):
            return
        guild_id = interaction.guild_id or 0
        if key not in RULE_KEYS:
            await reply(interaction, f"There's no house rule called {echo(key)}.")
            return
        where = " in this channel" if here else " on this server"
        if key == THEME:
            await self._set_theme(interaction, guild_id, value, here)
            return
        try:
            parsed = parse_value(key, value)
            if key in SERVER_KEYS:
                if here:
                    await reply(
                        interaction,
                        f"`{key}` is kept for the whole server; set it without `here`.",
                    )
                    return
                assert isinstance(parsed, int)
                await self.store.set_expiry(guild_id, **{key: parsed})
                await reply(
                    interaction,
                    f"`{key}` is now {duration_words(parsed)} on this server, "
                    "for every table from now on.",
                )
                return
            if key == "turn_timer":
                assert isinstance(parsed, int)
                if 0 < parsed < MIN_TURN_SECONDS:
                    await reply(
                        interaction,
                        f"The turn timer is off (0) or at least {MIN_TURN_SECONDS} s: a "
                        "shorter turn leaves no time to be pinged and to answer.",
                    )
                    return
                channel = interaction.channel_id if here else None
                await self.store.set_turn_timer(guild_id, parsed, channel_id=channel)
                shown = f"{parsed} s" if parsed else "off"
                await reply(
                    interaction, f"Turn timer: {shown}{where}. It applies from the next turn on."
                )
                return
            else:
                settings = await self.store.guild_settings(guild_id, interaction.channel_id)
                base = settings.channel_rules if here and settings.channel_rules else settings.rules
                rules = HouseRules.model_validate({**base.model_dump(), key: parsed})
                await self.store.set_house_rules(
                    guild_id, rules, channel_id=interaction.channel_id if here else None
                )
                done = f"`{key}` is now {shown_value(parsed)}{where}."
        except ValidationError as err:
            await reply(interaction, f"{rules_error(err)}.")
            return
        except (ValueError, InvalidSettings) as err:
            await reply(interaction, str(err))
            return
        await reply(interaction, done + " It applies to tables opened from now on.")

    async def _set_theme(
        self, interaction: discord.Interaction, guild_id: int, value: str, here: bool
    ) -> None:
        """The server's picture theme: dark (the default) or light."""
        if here:
            await reply(
                interaction, f"`{THEME}` is kept for the whole server; set it without `here`."
            )
            return
        theme = value.strip().lower()
        if theme not in THEMES:
            await reply(interaction, f"`{THEME}` is dark or light, not {echo(value)}.")
            return
        try:
            await self.store.set_theme(guild_id, theme)
        except InvalidSettings as err:
            await reply(interaction, escape_name(str(err)))
            return
        await reply(
            interaction,
            f"`{THEME}` is now {theme} on this server: the pictures and charts drawn from now "
            "on use it.",
        )

    @houserules.command(name="reset", description="Back to the default rules")
    @app_commands.describe(here="Only remove this channel's override")
    async def reset(self, interaction: discord.Interaction, here: bool = False) -> None:
        if not await self._manager(interaction):
            return
        await self.store.reset_house_rules(
            interaction.guild_id or 0, channel_id=interaction.channel_id if here else None
        )
        await reply(
            interaction,
            "This channel's override is gone." if here else "House rules are back to the defaults.",
        )


async def setup(bot: StackBot) -> None:
    await bot.add_cog(InfoCog(bot))

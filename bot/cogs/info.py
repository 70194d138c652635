"""Scores (with the game's chart), history (a button per game), leaderboard, stats (with
a chart of the last games), rules and house rules (the picture theme among them).

``/scores``, ``/leaderboard``, ``/stats``, ``/rules`` and ``/houserules`` serve every
hosted game: each answers with the game's own words (:class:`~bot.games.base.DiscordGame`);
``game:`` chooses it (default: the channel's table's game, else Stack). A game's house
rules are the fields of its settings model (:attr:`engine.game.Game.settings`, e.g.
Stack's ``target_score``, Stack Up!'s ``turn_limit``), kept per server and per channel;
the turn timer, the expiry times and the picture theme (:data:`COMMON_KEYS`) are the
server's whatever the game, so ``/houserules set`` offers them beside every game's keys."""

from __future__ import annotations

import re
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, ValidationError

import catalog
from bot import games
from bot.client import StackBot
from bot.cogs.table import game_choices
from bot.front import DISCORD
from bot.games.base import DiscordGame, settings_error
from bot.language import chosen_language
from bot.refusal_words import Refused
from bot.render import history_text, leaderboard_text, rating_board_text, rating_words
from bot.story import MAX_GAME_BUTTONS, history_view, rating_chart_file
from bot.text import cut, echo, escape_name, fit_message, plural
from persistence import InvalidSettings, TableNotFound, WrongTableStatus
from persistence.ratings import RATED_AFTER
from persistence.records import THEMES

MIN_TURN_SECONDS = 15
TURN_TIMER = "turn_timer"  # the server's turn timer, or a channel's (here)
SERVER_KEYS = ("lobby_timeout", "idle_timeout")  # settings of the whole server only
THEME = "theme"  # the server's picture theme (dark or light)
LANGUAGE = "language"  # the language of the server's public messages (bot.language)
COMMON_KEYS = (TURN_TIMER, *SERVER_KEYS, THEME, LANGUAGE)  # every game's: not kept per game
COMMON_KEY_WORDS = {
    TURN_TIMER: "seconds per turn, or off (every game)",
    "lobby_timeout": "how long an idle lobby stays open (every game, server)",
    "idle_timeout": "how long a game may go without a human move (every game, server)",
    THEME: "the pictures' theme: dark or light (every game, server)",
}
MAX_AUTOCOMPLETE = 25  # Discord's limit of choices offered
DURATION = re.compile(r"^(\d{1,7})\s*([smhd]?)$")
UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def game_keys(played: DiscordGame) -> tuple[str, ...]:
    """The house rules of a game: its settings model's fields, in the model's order."""
    return tuple(played.game.settings.model_fields)


def rule_keys(played: DiscordGame) -> tuple[str, ...]:
    """Every key ``/houserules set`` takes for a game: its own, then every game's."""
    return (*game_keys(played), *COMMON_KEYS)


def key_words(played: DiscordGame, key: str) -> str:
    """What a key is, for the autocomplete list: the settings field's description."""
    if key == LANGUAGE:
        return catalog.t("setup.language.key")
    if key in COMMON_KEY_WORDS:
        return COMMON_KEY_WORDS[key]
    field = played.game.settings.model_fields.get(key)
    return (field.description if field is not None else None) or played.title


def unknown_key(played: DiscordGame, key: str) -> str:
    """The refusal of a key the game has not: which game has it, if one does, and the
    keys this game takes."""
    owners = [g.title for g in games.all_games() if g is not played and key in game_keys(g)]
    own = ", ".join(f"`{k}`" for k in game_keys(played)) or "none"
    common = ", ".join(f"`{k}`" for k in COMMON_KEYS)
    title = escape_name(played.title)
    if owners:
        head = (
            f"`{key}` is a house rule of {' and '.join(escape_name(o) for o in owners)}, "
            f"not of {title} (choose it with `game:`)."
        )
    else:
        head = f"There's no house rule called {echo(key)} for {title}."
    return f"{head} {title}'s house rules: {own}; every game's: {common}."


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


def parse_value(key: str, raw: str, settings: type[BaseModel]) -> object:
    """A house rule's value from what an admin typed, read by the type of the game's
    settings field (``settings``): a whole number, on/off, or the word itself (which the
    model then checks, e.g. a ``Literal``)."""
    text = raw.strip().lower()
    if key in SERVER_KEYS:
        return parse_duration(key, raw)
    field = settings.model_fields.get(key)
    if key == TURN_TIMER or (field is not None and field.annotation is int):
        if text in FALSE and key == TURN_TIMER:
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


def listed_value(value: object) -> str:
    """A value as the games' ``settings_text`` lists it (``true``/``false``, numbers, words)."""
    return escape_name(str(value).lower() if isinstance(value, bool) else str(value))


def language_words(language: str) -> str:
    """``ja`` (日本語): a language's code and its name in its own words."""
    return catalog.t("setup.language.named", code=language, name=catalog.NAMES[language])


def language_line(chosen: str | None, interaction: discord.Interaction) -> str:
    """``/houserules show``'s line of the server's language: chosen, or its locale's."""
    spoken = DISCORD.language(interaction.guild_id)
    if chosen is None:
        return catalog.t("setup.language.shown_locale", language=language_words(spoken))
    return catalog.t("setup.language.shown", language=language_words(chosen))


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
            await tables.say(interaction, history_text(finished, played.history_line), **extra)
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
        await tables.say(interaction, await tables.score_text(sheet), **extra)

    def _game_name(self, interaction: discord.Interaction, name: str | None) -> str:
        """The game asked for, else the channel's table's, else the default (Stack)."""
        if name is None:
            live = self.bot.tables.service.by_channel.get(interaction.channel_id or 0)
            name = live.info.game if live is not None else games.DEFAULT
        return name

    def _game(self, interaction: discord.Interaction, name: str | None) -> DiscordGame:
        """The game asked for, else the channel's table's, else the default (Stack); a game
        not hosted is refused by name."""
        name = self._game_name(interaction, name)
        try:
            return games.get(name)
        except games.UnknownGame:
            hosted = ", ".join(games.names())
            raise Refused(
                f"There is no game called “{escape_name(cut(name, 40))}” here; the games "
                f"are {hosted}."
            ) from None

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.guild_only()
    @app_commands.describe(
        by="Rank by rating, wins or points (default: rating once a player has 5 rated games)",
        game="Which game (default: this channel's, or Stack)",
    )
    @app_commands.choices(game=game_choices())
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        by: Literal["rating", "wins", "points"] | None = None,
        game: str | None = None,
    ) -> None:
        if by not in (None, "rating", "wins", "points"):  # only a modified client sends it
            raise Refused("The leaderboard is by rating, by wins or by points.")
        played = self._game(interaction, game)
        store = self.store
        guild_id = interaction.guild_id or 0
        if by is None:
            ranked = await store.ranked_by_rating(guild_id, game=played.name)
            by = "rating" if ranked else "wins"
        if by == "rating":
            rated = await store.rating_board(guild_id, game=played.name)
            await reply(interaction, rating_board_text(rated, RATED_AFTER))
            return
        rows = await store.leaderboard(guild_id, by=by, game=played.name)
        await reply(interaction, leaderboard_text(rows, by, played.figure_name))

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
        player: discord.Member | discord.User | None = None,
        game: str | None = None,
    ) -> None:
        played = self._game(interaction, game)
        who = player or interaction.user
        guild_id = interaction.guild_id or 0
        store = self.store
        record = await store.stats(guild_id, who.id, game=played.name)
        rating = await store.player_rating(guild_id, who.id, game=played.name)
        name = getattr(who, "display_name", who.name)
        tables = self.bot.tables

        async def charts() -> list[discord.File]:
            """The last games' chart, then the rating's (each where there is one)."""
            drawn = []
            if record is not None:
                drawn.append(await played.stats_chart(tables, guild_id, name, record))
            if rating is not None:
                drawn.append(await rating_chart_file(tables, guild_id, name, rating))
            return [file for file in drawn if file is not None]

        files = await tables.in_time(interaction, charts())
        text = played.stats_text(name, record)
        if rating is not None:
            text += (
                f"\nRating: **{rating_words(rating.rating)}** "
                f"({plural(rating.rating.games, 'rated game')})"
            )
        extra = {"files": files} if files else {}
        await tables.say(interaction, text, **extra)

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
        house = played.settings_text(settings.effective, channel=settings.channel_rules is not None)
        text = f"{played.rules_brief(str(interaction.locale))}\n\n{house}\nTurn timer: {timer}"
        table = self._table_options(interaction, played)
        if table:
            text += f"\nThis channel's table: {table}"
        await reply(interaction, text)

    def _table_options(self, interaction: discord.Interaction, played: DiscordGame) -> str:
        """The options the channel's table of ``played`` was opened with, over the house
        rules (``""``: none, or no such table here)."""
        live = self.bot.tables.service.by_channel.get(interaction.channel_id or 0)
        if live is None or live.info.game != played.name or not live.info.options:
            return ""
        return ", ".join(f"`{k}` = {listed_value(v)}" for k, v in live.info.options.items())

    # ------------------------------------------------------------ /houserules

    houserules = app_commands.Group(
        name="houserules",
        description="This server's house rules (Manage Server)",
        allowed_contexts=app_commands.AppCommandContext(guild=True),  # servers only
        default_permissions=discord.Permissions(manage_guild=True),
    )

    async def _manager(self, interaction: discord.Interaction) -> bool:
        # default_permissions can be changed by admins: check at run time too.
        if interaction.permissions.manage_guild:
            return True
        await reply(interaction, "Only members with **Manage Server** can change house rules.")
        return False

    def _chosen(self, interaction: discord.Interaction, name: str | None) -> DiscordGame:
        """``game:`` of ``/houserules`` (default: the channel's table's game, else Stack);
        a game not hosted is refused by name."""
        return self._game(interaction, name)

    @houserules.command(name="show", description="A game's house rules in force here")
    @app_commands.describe(game="Which game's rules (default: this channel's, or Stack)")
    @app_commands.choices(game=game_choices())
    async def show(self, interaction: discord.Interaction, game: str | None = None) -> None:
        played = self._chosen(interaction, game)
        settings = await self.store.guild_settings(
            interaction.guild_id or 0, interaction.channel_id, game=played.name
        )
        timer = f"{settings.turn_seconds} s" if settings.turn_seconds else "off"
        if settings.channel_turn_seconds is not None:
            timer += " (this channel)"
        here = settings.channel_rules is not None
        text = played.settings_text(settings.effective, channel=here)
        if here:
            text += "\n" + self._server_differs(settings.rules, settings.channel_rules)
        text += (
            f"\n`{TURN_TIMER}` = {timer}"
            f"\n`lobby_timeout` = {duration_words(settings.lobby_timeout)} (server)"
            f"\n`idle_timeout` = {duration_words(settings.idle_timeout)} (server)"
            f"\n`{THEME}` = {settings.theme} (server: the pictures' theme)"
        )
        text += "\n" + language_line(settings.language, interaction)
        await reply(interaction, text)

    @staticmethod
    def _server_differs(server: BaseModel, channel: BaseModel) -> str:
        """Under a channel's override: the server's values it replaces here."""
        ours, theirs = server.model_dump(), channel.model_dump()
        differs = [f"`{k}` = {listed_value(v)}" for k, v in ours.items() if theirs.get(k) != v]
        if not differs:
            return "-# This channel's override has the server's values."
        return "-# The server's own values, overridden here: " + ", ".join(differs)

    @houserules.command(name="set", description="Change one house rule of a game, or a timer")
    @app_commands.describe(
        key="Which rule: the game's own, or turn_timer, lobby_timeout, idle_timeout, theme, "
        "language",
        value="Its new value: a number, on/off, extra_round/shared, a duration (30m, 2h), "
        "dark/light, or ja/en",
        game="Which game's rule (default: this channel's, or Stack)",
        here="Only for this channel (overrides the server's value here), for any rule",
    )
    @app_commands.choices(game=game_choices())
    async def set(
        self,
        interaction: discord.Interaction,
        key: str,
        value: str,
        game: str | None = None,
        here: bool = False,
    ) -> None:
        if not await self._manager(interaction):
            return
        played = self._chosen(interaction, game)
        name = key.strip().lower()
        if name not in rule_keys(played):
            await reply(interaction, unknown_key(played, name))
            return
        if name == THEME:
            await self._set_theme(interaction, value, here)
            return
        if name == LANGUAGE:
            await self._set_language(interaction, value, here)
            return
        try:
            parsed = parse_value(name, value, played.game.settings)
            if name in SERVER_KEYS:
                done = await self._set_expiry(interaction, name, parsed, here)
            elif name == TURN_TIMER:
                done = await self._set_turn_timer(interaction, parsed, here)
            else:
                done = await self._set_rule(interaction, played, name, parsed, here)
        except ValidationError as err:
            await reply(interaction, f"{settings_error(err)}.")
            return
        except (ValueError, InvalidSettings) as err:
            await reply(interaction, str(err))
            return
        await reply(interaction, done)

    @set.autocomplete("key")
    async def _key_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The keys of the game chosen so far (``game:``, else the channel's, else
        Stack's) and every game's keys, those containing what was typed first."""
        name = self._game_name(interaction, getattr(interaction.namespace, "game", None))
        played = games.get(name if name in games.names() else games.DEFAULT)
        typed = current.strip().lower()
        keys = [k for k in rule_keys(played) if typed in k]
        return [
            app_commands.Choice(name=cut(f"{k} · {key_words(played, k)}", 100), value=k)
            for k in keys[:MAX_AUTOCOMPLETE]
        ]

    async def _set_expiry(
        self, interaction: discord.Interaction, key: str, seconds: object, here: bool
    ) -> str:
        """The server's lobby or idle timeout (never a channel's)."""
        if here:
            return f"`{key}` is kept for the whole server; set it without `here`."
        assert isinstance(seconds, int)
        await self.store.set_expiry(interaction.guild_id or 0, **{key: seconds})
        return (
            f"`{key}` is now {duration_words(seconds)} on this server, for every table from now on."
        )

    async def _set_turn_timer(
        self, interaction: discord.Interaction, seconds: object, here: bool
    ) -> str:
        """The server's turn timer, or this channel's (``here``), for every game."""
        assert isinstance(seconds, int)
        if 0 < seconds < MIN_TURN_SECONDS:
            return (
                f"The turn timer is off (0) or at least {MIN_TURN_SECONDS} s: a "
                "shorter turn leaves no time to be pinged and to answer."
            )
        channel = interaction.channel_id if here else None
        await self.store.set_turn_timer(interaction.guild_id or 0, seconds, channel_id=channel)
        shown = f"{seconds} s" if seconds else "off"
        where = " in this channel" if here else " on this server"
        return f"Turn timer: {shown}{where}. It applies from the next turn on."

    async def _set_rule(
        self,
        interaction: discord.Interaction,
        played: DiscordGame,
        key: str,
        value: object,
        here: bool,
    ) -> str:
        """One of ``played``'s house rules, validated by its settings model with the
        others as they are (the channel's override, when ``here`` and there is one)."""
        guild_id = interaction.guild_id or 0
        settings = await self.store.guild_settings(
            guild_id, interaction.channel_id, game=played.name
        )
        base = settings.channel_rules if here and settings.channel_rules else settings.rules
        rules = played.settings_of({**base.model_dump(), key: value})
        await self.store.set_house_rules(
            guild_id,
            rules,
            channel_id=interaction.channel_id if here else None,
            game=played.name,
        )
        where = " in this channel" if here else " on this server"
        return (
            f"`{key}` is now {shown_value(getattr(rules, key))}{where}. It applies to "
            f"{escape_name(played.title)} tables opened from now on."
        )

    async def _set_theme(self, interaction: discord.Interaction, value: str, here: bool) -> None:
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
            await self.store.set_theme(interaction.guild_id or 0, theme)
        except InvalidSettings as err:
            await reply(interaction, escape_name(str(err)))
            return
        await reply(
            interaction,
            f"`{THEME}` is now {theme} on this server: the pictures and charts drawn from now "
            "on use it.",
        )

    async def _set_language(self, interaction: discord.Interaction, value: str, here: bool) -> None:
        """The language of the server's public messages: one the bot speaks."""
        if here:
            await reply(interaction, catalog.t("setup.language.here"))
            return
        language = chosen_language(value)
        if language is None:
            spoken = catalog.join([language_words(c) for c in catalog.LANGUAGES], "or")
            await reply(
                interaction,
                catalog.t("setup.language.unknown", value=echo(value), languages=spoken),
            )
            return
        guild_id = interaction.guild_id or 0
        await self.store.set_language(guild_id, language)
        self.bot.languages.choose(
            guild_id, language, getattr(interaction.guild, "preferred_locale", None)
        )
        await reply(interaction, catalog.t("setup.language.set", language=language_words(language)))

    @houserules.command(name="reset", description="A game's house rules back to the defaults")
    @app_commands.describe(
        game="Which game's rules (default: this channel's, or Stack)",
        here="Only remove this channel's override (its rules of the game and its turn timer)",
    )
    @app_commands.choices(game=game_choices())
    async def reset(
        self, interaction: discord.Interaction, game: str | None = None, here: bool = False
    ) -> None:
        if not await self._manager(interaction):
            return
        played = self._chosen(interaction, game)
        await self.store.reset_house_rules(
            interaction.guild_id or 0,
            channel_id=interaction.channel_id if here else None,
            game=played.name,
        )
        title = escape_name(played.title)
        await reply(
            interaction,
            f"This channel's override is gone: the server's {title} rules and turn timer "
            "apply here."
            if here
            else f"{title}'s house rules are back to the defaults on this server.",
        )


async def setup(bot: StackBot) -> None:
    await bot.add_cog(InfoCog(bot))

"""Scores (with the game's chart), history (a button per game), leaderboard, stats (with
a chart of the last games), rules and house rules (the picture theme among them).

``/scores``, ``/leaderboard``, ``/stats``, ``/rules`` and ``/houserules`` serve every
hosted game: each answers with the game's own words (:class:`~bot.games.base.DiscordGame`);
``game:`` chooses it (default: the channel's table's game, else the game last finished
there, else Stack). A game's house
rules are the fields of its settings model (:attr:`engine.game.Game.settings`, e.g.
Stack's ``target_score``, Stack Up!'s ``turn_limit``), kept per server and per channel;
the turn timer, the expiry times and the picture theme (:data:`COMMON_KEYS`) are the
server's whatever the game, so ``/houserules set`` offers them beside every game's keys."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, ValidationError

import catalog
from bot import games
from bot.ai_levels import level_name
from bot.client import StackBot
from bot.cogs.table import game_choices, level_choices
from bot.front import DISCORD
from bot.games.base import DiscordGame, settings_words
from bot.language import chosen_language
from bot.refusal_words import Refused
from bot.render import history_page, leaderboard_text, rating_board_text, rating_line
from bot.story import MAX_GAME_BUTTONS, history_view, rating_chart_file
from bot.text import cut, echo, escape_name, fit_message, percent
from persistence import InvalidSettings, TableNotFound, WrongTableStatus
from persistence.ratings import RATED_AFTER
from persistence.records import THEMES, PlayerRating, PlayerStats
from persistence.settings import IDLE_TIMEOUT, LOBBY_TIMEOUT, MAX_TURN_SECONDS

MIN_TURN_SECONDS = 15
TURN_TIMER = "turn_timer"  # the server's turn timer, or a channel's (here)
SERVER_KEYS = ("lobby_timeout", "idle_timeout")  # settings of the whole server only
THEME = "theme"  # the server's picture theme (dark or light)
LANGUAGE = "language"  # the language of the server's public messages (bot.language)
AUTO = "auto"  # language: back to the server's Discord locale's, as before any choice
COMMON_KEYS = (TURN_TIMER, *SERVER_KEYS, THEME, LANGUAGE)  # every game's: not kept per game
COMMON_KEY_WORDS = {  # what each is, for the autocomplete list: catalog keys (info.po)
    TURN_TIMER: "info.houserule.turn_timer",
    "lobby_timeout": "info.houserule.lobby_timeout",
    "idle_timeout": "info.houserule.idle_timeout",
    THEME: "info.houserule.theme",
    LANGUAGE: "setup.language.key",
}
EXPIRY_BOUNDS = {"lobby_timeout": LOBBY_TIMEOUT, "idle_timeout": IDLE_TIMEOUT}  # seconds
MAX_AUTOCOMPLETE = 25  # Discord's limit of choices offered
# a duration: parts of a number and a unit, largest first or not (1h30m), the last part's
# unit optional (seconds): 90, 90s, 30m, 2h, 1d, 1h30m; a number of up to 30 digits is
# read (one too long for its key is refused with the key's bounds), no longer one
DURATION = re.compile(r"^(?:\d{1,30}\s*[smhd]\s*)*\d{1,30}\s*[smhd]?$")
DURATION_PART = re.compile(r"(\d{1,30})\s*([smhd]?)")
UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def game_keys(played: DiscordGame) -> tuple[str, ...]:
    """The house rules of a game: its settings model's fields, in the model's order."""
    return tuple(played.game.settings.model_fields)


def rule_keys(played: DiscordGame) -> tuple[str, ...]:
    """Every key ``/houserules set`` takes for a game: its own, then every game's."""
    return (*game_keys(played), *COMMON_KEYS)


def key_words(played: DiscordGame, key: str) -> str:
    """What a key is, for the autocomplete list: the settings field's description (in
    the catalog as ``info.field.<game>.<key>``; a field not there yet: its English)."""
    if key in COMMON_KEY_WORDS:
        return catalog.t(COMMON_KEY_WORDS[key])
    words = f"info.field.{played.name}.{key}"
    if catalog.catalog(catalog.DEFAULT).text(words) is not None:
        return catalog.t(words)
    field = played.game.settings.model_fields.get(key)
    return (field.description if field is not None else None) or played.title


def unknown_key(played: DiscordGame, key: str) -> str:
    """The refusal of a key the game has not: which game has it, if one does, and the
    keys this game takes."""
    owners = [g.title for g in games.all_games() if g is not played and key in game_keys(g)]
    comma = catalog.t("list.comma")
    own = comma.join(f"`{k}`" for k in game_keys(played)) or catalog.t("info.houserule.none")
    common = comma.join(f"`{k}`" for k in COMMON_KEYS)
    title = escape_name(played.title)
    if owners:
        named = catalog.join([escape_name(o) for o in owners])
        head = catalog.t("info.houserule.elsewhere", key=key, owners=named, title=title)
    else:
        head = catalog.t("info.houserule.unknown", key=echo(key), title=title)
    return catalog.t("info.houserule.keys", refusal=head, title=title, own=own, common=common)


def parse_duration(key: str, raw: str) -> int:
    """Seconds from ``90``, ``90s``, ``30m``, ``2h``, ``1d`` or ``1h30m``."""
    text = raw.strip().lower()
    if DURATION.match(text) is None:
        raise ValueError(catalog.t("info.value.duration", key=key, value=echo(raw)))
    return sum(int(number) * UNITS[unit] for number, unit in DURATION_PART.findall(text))


def duration_words(seconds: int) -> str:
    """A duration as ``/houserules`` shows it, the way it is typed: ``2h``, ``30m``, ``1d``."""
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds % size == 0:
            return catalog.t(f"info.duration.{unit}", count=seconds // size)
    return catalog.t("info.duration.seconds", count=seconds)


def long_duration(seconds: int) -> str:
    """A duration in full words (``1 minute``, ``7 days``): an expiry's bounds."""
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds % size == 0:
            return catalog.n(f"info.duration.long.{unit}", seconds // size)
    return catalog.t("info.duration.seconds", count=seconds)


def timer_words(seconds: int) -> str:
    """A turn timer's value: ``90 s`` or ``off``."""
    return (
        catalog.t("info.timer.seconds", count=seconds) if seconds else catalog.t("info.timer.off")
    )


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
    if key == TURN_TIMER:  # seconds, a duration (2m, 1m30s), or off
        if text in FALSE:
            return 0
        try:
            return parse_duration(key, text)
        except ValueError:  # said as a timer's value: seconds, a duration or off
            raise ValueError(catalog.t("info.value.timer", key=key, value=echo(raw))) from None
    if field is not None and field.annotation is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError(catalog.t("info.value.number", key=key, value=echo(raw))) from None
    if field is not None and field.annotation is bool:
        if text in TRUE:
            return True
        if text in FALSE:
            return False
        raise ValueError(catalog.t("info.value.on_off", key=key, value=echo(raw)))
    return text


def shown_value(value: object) -> str:
    """A house rule's value as a reply shows it: on/off, a number, or the (escaped) word."""
    if isinstance(value, bool):
        return catalog.t("info.value.on" if value else "info.value.off")
    return escape_name(str(value))


def listed_settings(settings: Mapping[str, object]) -> str:
    """Settings on one line, each as the games' ``settings_text`` lists it
    (```target_score` = 30``; in Japanese the value in code too), joined by the
    language's comma."""
    return catalog.t("list.comma").join(
        catalog.t(
            "discord.settings.line",
            key=key,
            value=str(value).lower() if isinstance(value, bool) else str(value),
        )
        for key, value in settings.items()
    )


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
            played = await self._game(interaction, game)
            finished = await self.store.history(
                channel_id, limit=MAX_GAME_BUTTONS, game=played.name
            )
            text, listed = history_page(finished, played.history_line, played.title)
            view = history_view(finished[:listed])  # a button for each game listed, no other
            extra = {"view": view} if view is not None else {}
            await tables.say(interaction, text, **extra)
            return
        live = tables.service.by_channel.get(channel_id)
        table_id = live.id if live is not None and live.state is not None else None
        if table_id is None:
            table_id = await tables.last_finished(channel_id)
        if table_id is None:
            await reply(interaction, catalog.t("info.scores.none"))
            return
        try:
            sheet = await self.store.score_sheet(table_id)
            info = await self.store.table(table_id)
        except (TableNotFound, WrongTableStatus):
            await reply(interaction, catalog.t("info.scores.none"))
            return
        shown = games.get(info.game)
        chart = await tables.in_time(interaction, shown.score_chart(tables, sheet, info))
        extra = {"file": chart} if chart is not None else {}
        await tables.say(interaction, await tables.score_text(sheet), **extra)

    async def _game_name(
        self, interaction: discord.Interaction, name: str | None, *, remembered: bool = False
    ) -> str:
        """The game asked for, else the channel's table's, else the game last finished in
        the channel, else the default (Stack). A command reads the last finished game from
        the store (and remembers it); with ``remembered`` (an autocomplete, at every
        keystroke) what is remembered does (:class:`~bot.channel_games.ChannelGames`)."""
        if name is not None:
            return name
        channel_id = interaction.channel_id or 0
        tables = self.bot.tables
        live = tables.service.by_channel.get(channel_id)
        if live is not None:
            return live.info.game
        known = tables.channel_games
        if remembered and known.known(channel_id):
            last_game = known.game(channel_id)
        else:
            last = await self.store.last_finished(channel_id)
            last_game = last[1] if last is not None else None
            known.learnt(channel_id, last_game)
        return last_game or games.DEFAULT

    async def _game(self, interaction: discord.Interaction, name: str | None) -> DiscordGame:
        """The game asked for, else the channel's (its table's, else its last finished
        game's), else the default (Stack); a game not hosted is refused by name."""
        name = await self._game_name(interaction, name)
        try:
            return games.get(name)
        except games.UnknownGame:
            hosted = catalog.t("list.comma").join(games.names())
            raise Refused(
                catalog.t("info.game.unknown", name=escape_name(cut(name, 40)), games=hosted)
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
            raise Refused(catalog.t("info.leaderboard.by"))
        played = await self._game(interaction, game)
        store = self.store
        guild_id = interaction.guild_id or 0
        if by is None:
            ranked = await store.ranked_by_rating(guild_id, game=played.name)
            by = "rating" if ranked else "wins"
        if by == "rating":
            rated = await store.rating_board(guild_id, game=played.name)
            await reply(interaction, rating_board_text(rated, RATED_AFTER, played.title))
            return
        if not played.counts_points:
            by = "wins"  # its figure is the win itself
        rows = await store.leaderboard(guild_id, by=by, game=played.name)
        board = leaderboard_text(
            rows,
            by,
            played.figure_name,
            played.title,
            figures=played.counts_points,
            per_game=not played.game.higher_wins,  # ranked by its figure per game
        )
        await reply(interaction, board)

    @app_commands.command(name="stats", description="A player's record in a game on this server")
    @app_commands.guild_only()
    @app_commands.describe(
        player="Whose stats (default: yours)",
        game="Which game (default: this channel's, or Stack)",
        ai="An AI level's record and rating instead of a player's",
    )
    @app_commands.choices(game=game_choices(), ai=level_choices())
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.Member | discord.User | None = None,
        game: str | None = None,
        ai: str | None = None,
    ) -> None:
        played = await self._game(interaction, game)
        if ai is not None:
            if player is not None:
                raise Refused("info.stats.player_or_ai")
            await self._ai_stats(interaction, played, ai)
            return
        who = player or interaction.user
        guild_id = interaction.guild_id or 0
        store = self.store
        record = await store.stats(guild_id, who.id, game=played.name)
        rating = await store.player_rating(guild_id, who.id, game=played.name)
        name = who.display_name
        if not isinstance(who, discord.Member) and record is not None and record.name:
            name = record.name  # no longer a member: the name they played under, as ranked
        tables = self.bot.tables

        async def charts() -> list[discord.File]:
            """The last games' chart, then the rating's (each where there is one)."""
            drawn = []
            if record is not None:
                drawn.append(await played.stats_chart(tables, guild_id, name, record))
            if rating is not None:
                drawn.append(await rating_chart_file(tables, guild_id, name, rating, played.title))
            return [file for file in drawn if file is not None]

        files = await tables.in_time(interaction, charts())
        if record is None and rating is not None:  # rated only for games left or closed
            text = catalog.t(
                "info.stats.none_but_rated",
                player=escape_name(cut(name, 32)),
                title=escape_name(played.title),
            )
        else:
            text = played.stats_text(name, record)
        if rating is not None:
            text += f"\n{rating_line(rating.rating)}"
        extra = {"files": files} if files else {}
        await tables.say(interaction, text, **extra)

    async def _ai_stats(
        self, interaction: discord.Interaction, played: DiscordGame, level: str
    ) -> None:
        """``/stats ai:``: an AI level's record and rating in the game on this server (every
        seat of that level is one player), with the charts of its last games and of its
        rating, as a player's."""
        levels = played.game.ai_levels
        if level not in levels:
            raise Refused(
                "info.stats.no_such_ai",
                title=played.title,
                level=escape_name(cut(level_name(level), 32)),
                levels=catalog.join([level_name(known) for known in levels]),
            )
        guild_id = interaction.guild_id or 0
        store = self.store
        name = catalog.t("discord.rating.ai_level", level=level_name(level))
        title = escape_name(played.title)
        tables = self.bot.tables

        async def gathered() -> tuple[PlayerStats | None, PlayerRating | None, list[discord.File]]:
            """Its record (every seat of the level read: on a large server the slow part,
            so inside the answer's deadline), its rating, and their charts."""
            record = await store.ai_stats(guild_id, level, game=played.name)
            rating = await store.ai_rating(guild_id, level, game=played.name)
            drawn = []
            if record is not None:
                drawn.append(await played.stats_chart(tables, guild_id, name, record))
            if rating is not None:
                drawn.append(await rating_chart_file(tables, guild_id, name, rating, played.title))
            return record, rating, [file for file in drawn if file is not None]

        record, rating, files = await tables.in_time(interaction, gathered())
        if record is None and rating is None:
            await tables.say(interaction, catalog.t("info.stats.ai_unrated", ai=name, title=title))
            return
        lines = [catalog.t("info.stats.ai", ai=name, title=title)]
        if record is not None:
            rate = percent(record.wins, record.games)
            lines.append(
                catalog.t(
                    "info.stats.ai_record",
                    games=catalog.n("discord.count.games", record.games),
                    wins=catalog.n("discord.count.wins", record.wins),
                    rate=rate,
                )
            )
        else:  # rated only for games left or closed before their end
            lines.append(catalog.t("info.stats.ai_none_finished", title=title))
        if rating is not None:
            lines.append(rating_line(rating.rating))
        extra = {"files": files} if files else {}
        await tables.say(interaction, "\n".join(lines), **extra)

    @app_commands.command(
        name="rules", description="A game's rules in brief, with this channel's house rules"
    )
    @app_commands.guild_only()
    @app_commands.describe(game="Which game (default: this channel's, or Stack)")
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        played = await self._game(interaction, game)
        store = self.store
        settings = await store.guild_settings(
            interaction.guild_id or 0, interaction.channel_id, game=played.name
        )
        timer = catalog.t("info.rules.timer", timer=timer_words(settings.turn_seconds))
        house = played.settings_text(settings.effective, channel=settings.channel_rules is not None)
        text = f"{played.rules_brief(str(interaction.locale))}\n\n{house}\n{timer}"
        table = self._table_options(interaction, played)
        if table:
            text += "\n" + catalog.t("info.rules.table", options=table)
        await reply(interaction, text)

    def _table_options(self, interaction: discord.Interaction, played: DiscordGame) -> str:
        """The options the channel's table of ``played`` was opened with, over the house
        rules (``""``: none, or no such table here)."""
        live = self.bot.tables.service.by_channel.get(interaction.channel_id or 0)
        if live is None or live.info.game != played.name or not live.info.options:
            return ""
        return listed_settings(live.info.options)

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
        await reply(interaction, catalog.t("info.houserule.manager"))
        return False

    async def _chosen(self, interaction: discord.Interaction, name: str | None) -> DiscordGame:
        """``game:`` of ``/houserules`` (default: the channel's table's game, else its last
        finished game's, else Stack); a game not hosted is refused by name."""
        return await self._game(interaction, name)

    @houserules.command(name="show", description="A game's house rules in force here")
    @app_commands.describe(game="Which game's rules (default: this channel's, or Stack)")
    @app_commands.choices(game=game_choices())
    async def show(self, interaction: discord.Interaction, game: str | None = None) -> None:
        played = await self._chosen(interaction, game)
        settings = await self.store.guild_settings(
            interaction.guild_id or 0, interaction.channel_id, game=played.name
        )
        timer = timer_words(settings.turn_seconds)
        if settings.channel_turn_seconds is not None:
            timer += catalog.t("info.show.this_channel")
        here = settings.channel_rules is not None
        text = played.settings_text(settings.effective, channel=here)
        if here:
            text += "\n" + self._server_differs(settings.rules, settings.channel_keys)
        lobby, idle = settings.lobby_timeout, settings.idle_timeout
        text += (
            f"\n`{TURN_TIMER}` = {timer}"
            "\n"
            + catalog.t("info.show.server", key="lobby_timeout", value=duration_words(lobby))
            + "\n"
            + catalog.t("info.show.server", key="idle_timeout", value=duration_words(idle))
            + "\n"
            + catalog.t("info.show.theme", key=THEME, value=settings.theme)
        )
        text += "\n" + language_line(settings.language, interaction)
        await reply(interaction, text)

    @staticmethod
    def _server_differs(server: BaseModel, overridden: frozenset[str]) -> str:
        """Under a channel's override: the server's values of the rules set for this
        channel (the rules it sets, and those alone)."""
        ours = server.model_dump()
        differs = {k: v for k, v in ours.items() if k in overridden}
        if not differs:
            return catalog.t("info.show.same")
        return catalog.t("info.show.overridden", values=listed_settings(differs))

    @houserules.command(name="set", description="Change one house rule of a game, or a timer")
    @app_commands.describe(
        key="Which rule: the game's own, or turn_timer, lobby_timeout, idle_timeout, theme, "
        "language",
        value="Its new value: a number, on/off, extra_round/shared, a duration (30m, 2h), "
        "dark/light, or ja/en/auto",
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
        played = await self._chosen(interaction, game)
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
            await reply(interaction, catalog.t("info.value.invalid", error=settings_words(err)))
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
        Stack's) and every game's keys, those containing what was typed first; asked at
        every keystroke, it is answered from memory (no query)."""
        chosen = getattr(interaction.namespace, "game", None)
        name = await self._game_name(interaction, chosen, remembered=True)
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
            return catalog.t("info.houserule.server_only", key=key)
        assert isinstance(seconds, int)
        low, high = EXPIRY_BOUNDS[key]
        if not low <= seconds <= high:  # the store's bounds, said in the asker's language
            return catalog.t(
                f"info.expiry.range.{key}",
                low=long_duration(low),
                high=long_duration(high),
                low_seconds=low,
                high_seconds=high,
            )
        await self.store.set_expiry(interaction.guild_id or 0, **{key: seconds})
        return catalog.t("info.expiry.set", key=key, duration=duration_words(seconds))

    async def _set_turn_timer(
        self, interaction: discord.Interaction, seconds: object, here: bool
    ) -> str:
        """The server's turn timer, or this channel's (``here``), for every game."""
        assert isinstance(seconds, int)
        if 0 < seconds < MIN_TURN_SECONDS:
            return catalog.t("info.timer.too_short", least=MIN_TURN_SECONDS)
        if not 0 <= seconds <= MAX_TURN_SECONDS:  # the store's bounds
            return catalog.t("info.timer.too_long", most=MAX_TURN_SECONDS)
        channel = interaction.channel_id if here else None
        await self.store.set_turn_timer(interaction.guild_id or 0, seconds, channel_id=channel)
        where = "channel" if here else "server"
        return catalog.t(f"info.timer.set.{where}", timer=timer_words(seconds))

    async def _set_rule(
        self,
        interaction: discord.Interaction,
        played: DiscordGame,
        key: str,
        value: object,
        here: bool,
    ) -> str:
        """One of ``played``'s house rules, validated by its settings model with the
        others as they are: the server's, or with ``here`` this channel's, where only
        that rule is added to the channel's override (the others keep following the
        server's)."""
        guild_id = interaction.guild_id or 0
        settings = await self.store.guild_settings(
            guild_id, interaction.channel_id, game=played.name
        )
        base = settings.effective if here else settings.rules
        rules = played.settings_of({**base.model_dump(), key: value})
        await self.store.set_house_rules(
            guild_id,
            {key: getattr(rules, key)} if here else rules,
            channel_id=interaction.channel_id if here else None,
            game=played.name,
        )
        return catalog.t(
            f"info.rule.set.{'channel' if here else 'server'}",
            key=key,
            value=shown_value(getattr(rules, key)),
            title=escape_name(played.title),
        )

    async def _set_theme(self, interaction: discord.Interaction, value: str, here: bool) -> None:
        """The server's picture theme: dark (the default) or light."""
        if here:
            await reply(interaction, catalog.t("info.houserule.server_only", key=THEME))
            return
        theme = value.strip().lower()
        if theme not in THEMES:
            await reply(interaction, catalog.t("info.value.theme", key=THEME, value=echo(value)))
            return
        try:
            await self.store.set_theme(interaction.guild_id or 0, theme)
        except InvalidSettings as err:
            await reply(interaction, escape_name(str(err)))
            return
        await reply(interaction, catalog.t("info.theme.set", key=THEME, theme=theme))

    async def _set_language(self, interaction: discord.Interaction, value: str, here: bool) -> None:
        """The language of the server's public messages: one the bot speaks, or ``auto``
        (its Discord locale's, as before any choice)."""
        if here:
            await reply(interaction, catalog.t("setup.language.here"))
            return
        guild_id = interaction.guild_id or 0
        locale = getattr(interaction.guild, "preferred_locale", None)
        if value.strip().lower() == AUTO:
            await self.store.set_language(guild_id, None)
            spoken = self.bot.languages.choose(guild_id, None, locale)
            await reply(
                interaction, catalog.t("setup.language.auto", language=language_words(spoken))
            )
            return
        language = chosen_language(value)
        if language is None:
            named = [language_words(c) for c in catalog.LANGUAGES]
            spoken = catalog.join([*named, catalog.t("setup.language.auto_named")], "or")
            await reply(
                interaction,
                catalog.t("setup.language.unknown", value=echo(value), languages=spoken),
            )
            return
        await self.store.set_language(guild_id, language)
        self.bot.languages.choose(guild_id, language, locale)
        await reply(interaction, catalog.t("setup.language.set", language=language_words(language)))

    @houserules.command(
        name="reset", description="A game's house rules and the turn timer back to the defaults"
    )
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
        played = await self._chosen(interaction, game)
        guild_id = interaction.guild_id or 0
        await self.store.reset_house_rules(
            guild_id, channel_id=interaction.channel_id if here else None, game=played.name
        )
        # the timer is every game's (and a channel's, every game's there): said, with
        # the value now in force, so that a reset of one game's rules hides nothing (the
        # server's, after a server reset: not this channel's own, which stays)
        settings = await self.store.guild_settings(
            guild_id, interaction.channel_id if here else None, game=played.name
        )
        title = escape_name(played.title)
        where = "channel" if here else "server"
        timer = timer_words(settings.turn_seconds)
        await reply(interaction, catalog.t(f"info.reset.{where}", title=title, timer=timer))


async def setup(bot: StackBot) -> None:
    await bot.add_cog(InfoCog(bot))

"""The story of any game on Discord: the channel's finished games with a button each
(``/scores show:history``, :class:`GameButton`): a click answers privately with the
game's sheet, its chart (when the game draws one) and its record. The answers' shared
parts (:func:`private_answer`, :func:`table_of`, :class:`StoryRefusal`) are used by a
game's own story too (Stack's **Full scoring** and charts: :mod:`bot.games.stack.story`).

Every button is a dynamic item whose custom_id carries what it needs (the table), so it
keeps working after a restart; a custom_id names any table, so each click is checked: the
table must be of the clicker's server, and a running game with hidden information
(:attr:`~bot.games.base.DiscordGame.hidden_information`) is never exported. Its
custom_id starts with ``story:``, not a game's name, so the start-up clean-up never takes
a story message for a table message left behind. A click on a game that no longer
exists, or a button brought from another server gets a clear private answer and changes
nothing. The game is the host's (``host.service.front``): this module looks no game up.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

import catalog
from bot.hosting import Host
from bot.refusal_words import Refused
from bot.text import EMBED_FIELD, cut, label_name, plain_name
from bot.views import Components, TableButton, host_of, ready_items
from engine.errors import NoRecord
from persistence import Store, TableNotFound, WrongTableStatus
from persistence.records import GameSummary, PlayerRating, TableInfo
from pictures.palette import THEMES, Theme

log = logging.getLogger(__name__)

MAX_GAME_BUTTONS = 25  # Discord: 5 rows of 5 buttons
LABEL_LIMIT = 80  # Discord: a button's label
# why a click cannot be answered: catalog keys (info.po), said by StoryRefusal
GONE = "info.story.gone"
ELSEWHERE = "info.story.elsewhere"
NOT_STARTED = "info.story.not_started"


class StoryRefusal(Refused):
    """A click that cannot be answered as asked; the message says why. Nothing changed.

    Given a catalog key (:data:`GONE`…, with its facts), it says that message in the
    language spoken where it is raised (the asking user's); given words, those words."""

    def __init__(self, words: str, /, **facts: object) -> None:
        if facts or catalog.catalog(catalog.DEFAULT).text(words) is not None:
            words = catalog.t(words, **facts)
        super().__init__(words)


# ---------------------------------------------------------------------------- buttons


class GameButton(TableButton, template=r"story:game:(?P<table>\d+)"):
    """One finished game of ``/scores show:history``: its chart and record, privately."""

    def __init__(self, table_id: int, label: str = "Game") -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=cut(label, LABEL_LIMIT),
            style=discord.ButtonStyle.secondary,
            custom_id=f"story:game:{table_id}",
        )
        super().__init__(button, table_id, 0)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameButton:
        return cls(int(match["table"]))

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        await answer_game(interaction, self.table_id)


STORY_ITEMS = (GameButton,)


def game_label(number: int, game: GameSummary) -> str:
    """A history button's label: its number in the list, the date, the winner(s) (as
    typed: a label shows no markdown and mentions nobody, so nothing is escaped in it) or
    ``draw`` (a game with no winner), at most 80 characters."""
    when = game.finished_at.strftime("%Y-%m-%d")
    if not game.winners:
        return cut(f"{number}. {when} · {catalog.t('info.history.draw')}", LABEL_LIMIT)
    winners = catalog.together(label_name(cut(n, 24)) for n in game.winners)
    return cut(f"{number}. {when} · 🏆 {winners}", LABEL_LIMIT)


def history_view(games: Sequence[GameSummary]) -> Components | None:
    """A button per finished game (the first :data:`MAX_GAME_BUTTONS`), numbered as
    :func:`bot.render.history_page` lists them; ``None`` without games. Give it the games
    the text lists (:func:`bot.render.history_page`), so that each button has its line."""
    if not games:
        return None
    shown = enumerate(games[:MAX_GAME_BUTTONS], start=1)
    return ready_items(*(GameButton(game.table_id, game_label(n, game)) for n, game in shown))


# ---------------------------------------------------------------------------- answers


async def private_answer(
    interaction: discord.Interaction, texts: Sequence[str], files: Sequence[discord.File] = ()
) -> None:
    """Answer privately: the first text (with ``files``), then the others as follow-ups."""
    tables = host_of(interaction)
    for i, text in enumerate(texts):
        extra: dict[str, Any] = {"files": list(files)} if i == 0 and files else {}
        await tables.say(interaction, text, **extra)


async def table_of(store: Store, table_id: int, guild_id: int | None) -> TableInfo:
    """The table a button names, checked to be of this server."""
    try:
        info = await store.table(table_id)
    except TableNotFound:
        raise StoryRefusal(GONE) from None
    if info.guild_id != guild_id:
        raise StoryRefusal(ELSEWHERE)
    return info


async def answer_game(interaction: discord.Interaction, table_id: int) -> None:
    """A history button: the game's score sheet, chart and record, privately; only for a
    table of this server, and never while a game with hidden information runs (its record
    holds the cards nobody may see yet: the rule of ``/export``)."""
    tables = host_of(interaction)
    info = await table_of(tables.store, table_id, interaction.guild_id)
    game = tables.service.front.game(info.game)
    if game.hidden_information and info.is_active:
        raise StoryRefusal("info.story.running", game=game.title)
    text, files = await tables.in_time(interaction, _game_answer(tables, info))
    await private_answer(interaction, [text], files)


async def _game_answer(tables: Host, info: TableInfo) -> tuple[str, list[discord.File]]:
    """A finished game's sheet as text, with its chart (when it can be drawn) and record."""
    try:
        sheet = await tables.store.score_sheet(info.id)
        record: dict[str, Any] | None = await tables.store.export_record(info.id)
    except TableNotFound:
        raise StoryRefusal(GONE) from None
    except WrongTableStatus:
        raise StoryRefusal(NOT_STARTED) from None
    except NoRecord:  # resigned before its board was set up: its sheet alone
        record = None
    game = tables.service.front.game(info.game)
    files = []
    chart = await game.score_chart(tables, sheet, info)
    if chart is not None:
        files.append(chart)
    text = game.score_text(sheet)
    if record is not None:
        data = json.dumps(record, indent=1).encode()
        name = f"{game.name}-table-{info.id}.json"
        files.append(discord.File(io.BytesIO(data), filename=name))
        text += "\n" + catalog.t("info.story.record", format=game.game.record_format)
    return text, files


# ---------------------------------------------------------------------------- pictures


async def theme_of(store: Store, guild_id: int, channel_id: int | None = None) -> Theme:
    """The server's picture theme (``dark`` unless an admin chose ``light``)."""
    theme = (await store.guild_settings(guild_id, channel_id)).theme
    return theme if theme in THEMES else "dark"


async def rating_chart_file(
    tables: Host, guild_id: int, name: str, rating: PlayerRating, game: str
) -> discord.File | None:
    """``/stats``: a player's rating in ``game`` (its title, in the language spoken) over
    their last rated games as a chart, or ``None`` (fewer than two games to draw, pictures
    are off, or the drawing failed). The chart and its alt text name the game."""
    if len(rating.recent) < 2 or not tables.draw_pictures:
        return None
    try:
        from pictures.charts import RatingChart

        theme = await theme_of(tables.store, guild_id)
        png: bytes = await tables.painter.draw(RatingChart(name, rating.recent, theme, game))
    except Exception:
        log.exception("the rating chart of %s could not be drawn", rating.rating.user_id)
        return None
    shown = catalog.t("list.comma").join(f"{mu - 3 * sigma:.1f}" for mu, sigma in rating.recent)
    words = catalog.n(
        "info.story.rating_alt",
        len(rating.recent),
        name=plain_name(cut(name, 32)),
        game=plain_name(game),
        ratings=shown,
    )
    description = cut(words, EMBED_FIELD)
    return discord.File(io.BytesIO(png), filename="rating.png", description=description)


def attach_permission(channel: Any) -> bool | None:
    """Whether the bot may attach files in ``channel``; ``None`` when not known (a partial
    channel: its server is not cached yet)."""
    me = getattr(getattr(channel, "guild", None), "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return None
    return bool(channel.permissions_for(me).attach_files)


def may_attach(channel: Any) -> bool:
    """Whether the bot may attach files in ``channel`` (a partial channel: assume so;
    Discord refuses, and the caller sends the text alone)."""
    return attach_permission(channel) is not False


__all__ = [
    "ELSEWHERE",
    "GONE",
    "MAX_GAME_BUTTONS",
    "NOT_STARTED",
    "STORY_ITEMS",
    "GameButton",
    "StoryRefusal",
    "answer_game",
    "attach_permission",
    "game_label",
    "history_view",
    "may_attach",
    "private_answer",
    "rating_chart_file",
    "table_of",
    "theme_of",
]

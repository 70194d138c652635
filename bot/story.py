"""The story of a game on Discord: a round's full scoring one click away, a game's chart
of running totals, the channel's finished games with a button each, a player's chart.

* A round's end is one short message (:func:`bot.render.round_end_text`) with a
  **Full scoring** button (:class:`ScoringButton`): a click answers privately with that
  round's pile-by-pile scoring, rebuilt from storage (the table's log replayed to the
  moment the round ended: its scores in, the next round's dice not rolled yet).
* A game's end carries the chart of its running totals (:func:`game_chart_file`), as
  ``/scores`` does for the game in the channel.
* ``/scores show:history`` lists the channel's finished games with a button per game
  (:class:`GameButton`): a click answers privately with its chart and its record.

Every button is a dynamic item whose custom_id carries what it needs (the table, the
round), so it keeps working after a restart; a custom_id names any table, so each click is
checked: the table must be of the clicker's server, and a running game with hidden
information (:attr:`~bot.games.base.DiscordGame.hidden_information`) is never exported.
Its custom_id starts with ``story:``, not ``stack:``, so the start-up clean-up never takes
a round's message for a table message left behind. A click on a game that no longer exists, a round out of range, or a button
brought from another server gets a clear private answer and changes nothing.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import games as hosted
from bot.refusal_words import Refused
from bot.render import scoring_messages
from bot.text import EMBED_FIELD, cut, plain_name, plural
from bot.views import TableButton, host_of
from engine.stack.record import RecordError, replay
from engine.stack.render import COLOURS
from persistence import Store, TableNotFound, WrongTableStatus
from persistence.records import GameSummary, PlayerStats, ScoreSheet, TableInfo
from pictures.palette import THEMES, Theme

if TYPE_CHECKING:
    from bot.games.base import Host

log = logging.getLogger(__name__)

MAX_GAME_BUTTONS = 25  # Discord: 5 rows of 5 buttons
LABEL_LIMIT = 80  # Discord: a button's label
SCORINGS_KEPT = 64  # rounds whose full scoring is kept in memory, per store
GONE = "That game is no longer stored, so there is nothing to show."
ELSEWHERE = "That button belongs to a game on another server."
NOT_STARTED = "That game never started, so it has no scores."
NO_MENTIONS = discord.AllowedMentions.none()


class StoryRefusal(Refused):
    """A click that cannot be answered as asked; the message says why. Nothing changed."""


# ---------------------------------------------------------------------------- buttons


class ScoringButton(TableButton, template=r"story:round:(?P<table>\d+):(?P<round>\d+)"):
    """**Full scoring** under a round's end: round ``round_no``'s scoring, privately."""

    def __init__(self, table_id: int, round_no: int) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Full scoring",
            emoji="🧮",
            style=discord.ButtonStyle.secondary,
            custom_id=f"story:round:{table_id}:{round_no}",
        )
        super().__init__(button, table_id, 0)
        self.round_no = round_no

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ScoringButton:
        return cls(int(match["table"]), int(match["round"]))

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        await answer_scoring(interaction, self.table_id, self.round_no)


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


STORY_ITEMS = (ScoringButton, GameButton)


def round_view(table_id: int, round_no: int) -> discord.ui.View:
    """The button under round ``round_no``'s end."""
    view = discord.ui.View(timeout=None)
    view.add_item(ScoringButton(table_id, round_no))
    return view


def game_label(number: int, game: GameSummary) -> str:
    """A history button's label: its number in the list, the date, the winner(s) (plain
    text: a label shows no markdown and mentions nobody) or ``draw`` (a game with no
    winner), at most 80 characters."""
    when = game.finished_at.strftime("%Y-%m-%d")
    if not game.winners:
        return cut(f"{number}. {when} · 🤝 draw", LABEL_LIMIT)
    winners = " & ".join(plain_name(cut(n, 24)) for n in game.winners)
    return cut(f"{number}. {when} · 🏆 {winners}", LABEL_LIMIT)


def history_view(games: Sequence[GameSummary]) -> discord.ui.View | None:
    """A button per finished game (the first :data:`MAX_GAME_BUTTONS`), numbered as
    :func:`bot.render.history_text` lists them; ``None`` without games."""
    if not games:
        return None
    view = discord.ui.View(timeout=None)
    for number, game in enumerate(games[:MAX_GAME_BUTTONS], start=1):
        view.add_item(GameButton(game.table_id, game_label(number, game)))
    return view


# ---------------------------------------------------------------------------- answers


async def _answer(
    interaction: discord.Interaction, texts: Sequence[str], files: Sequence[discord.File] = ()
) -> None:
    """Answer privately: the first text (with ``files``), then the others as follow-ups."""
    tables = host_of(interaction)
    for i, text in enumerate(texts):
        extra: dict[str, Any] = {"files": list(files)} if i == 0 and files else {}
        await tables.say(interaction, text, **extra)


async def _table_of(store: Store, table_id: int, guild_id: int | None) -> TableInfo:
    """The table a button names, checked to be of this server."""
    try:
        info = await store.table(table_id)
    except TableNotFound:
        raise StoryRefusal(GONE) from None
    if info.guild_id != guild_id:
        raise StoryRefusal(ELSEWHERE)
    return info


async def answer_scoring(interaction: discord.Interaction, table_id: int, round_no: int) -> None:
    """The **Full scoring** button: round ``round_no``'s pile-by-pile scoring, privately
    (split over follow-ups when it is long)."""
    tables = host_of(interaction)
    await _table_of(tables.store, table_id, interaction.guild_id)
    texts = await tables.in_time(interaction, scoring_of(tables.store, table_id, round_no))
    await _answer(interaction, texts)


_scorings: weakref.WeakKeyDictionary[Store, OrderedDict[tuple[int, int], list[str]]] = (
    weakref.WeakKeyDictionary()
)


async def scoring_of(store: Store, table_id: int, round_no: int) -> list[str]:
    """Round ``round_no``'s full scoring (:func:`bot.render.scoring_messages`), from the
    table's stored record replayed to the end of that round. A finished round never
    changes, so the last :data:`SCORINGS_KEPT` asked are kept. :class:`StoryRefusal` for
    a game that is gone or never started, or a round that is not over."""
    kept = _scorings.setdefault(store, OrderedDict())
    key = (table_id, round_no)
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    try:
        record = await store.export_record(table_id)
    except TableNotFound:
        raise StoryRefusal(GONE) from None
    except WrongTableStatus:
        raise StoryRefusal(NOT_STARTED) from None
    rounds = record["rounds"]
    if not 1 <= round_no <= len(rounds):
        raise StoryRefusal(f"That game has no round {round_no}.")
    upto = {**record, "rounds": rounds[:round_no]}
    try:
        state = await asyncio.to_thread(replay, upto)
    except RecordError as err:  # storage that does not replay: say so, do not guess
        log.error("table %s: round %s does not replay: %s", table_id, round_no, err)
        raise StoryRefusal("That round's scoring cannot be rebuilt from storage.") from None
    if len(state.round_scores) < round_no:
        raise StoryRefusal(f"Round {round_no} of that game is not over yet.")
    texts = scoring_messages(state, round_no)
    kept[key] = texts
    while len(kept) > SCORINGS_KEPT:
        kept.popitem(last=False)
    return texts


async def answer_game(interaction: discord.Interaction, table_id: int) -> None:
    """A history button: the game's score sheet, chart and record, privately; only for a
    table of this server, and never while a game with hidden information runs (its record
    holds the cards nobody may see yet: the rule of ``/export``)."""
    tables = host_of(interaction)
    info = await _table_of(tables.store, table_id, interaction.guild_id)
    game = hosted.get(info.game)
    if game.hidden_information and info.is_active:
        raise StoryRefusal(
            f"That {game.title} game is still running: its record holds the cards nobody may "
            "see yet, so it is given once the game is over."
        )
    text, files = await tables.in_time(interaction, _game_answer(tables, info))
    await _answer(interaction, [text], files)


async def _game_answer(tables: Host, info: TableInfo) -> tuple[str, list[discord.File]]:
    """A finished game's sheet as text, with its chart (when it can be drawn) and record."""
    try:
        sheet = await tables.store.score_sheet(info.id)
        record = await tables.store.export_record(info.id)
    except TableNotFound:
        raise StoryRefusal(GONE) from None
    except WrongTableStatus:
        raise StoryRefusal(NOT_STARTED) from None
    game = hosted.get(info.game)
    files = []
    chart = await game.score_chart(tables, sheet, info)
    if chart is not None:
        files.append(chart)
    data = json.dumps(record, indent=1).encode()
    files.append(discord.File(io.BytesIO(data), filename=f"{game.name}-table-{info.id}.json"))
    text = (
        game.score_text(sheet)
        + f"\n-# The game record (`{game.game.record_format}`) is attached; check it with "
        "`python -m engine.record check`."
    )
    return text, files


# ---------------------------------------------------------------------------- charts


async def theme_of(store: Store, guild_id: int, channel_id: int | None = None) -> Theme:
    """The server's picture theme (``dark`` unless an admin chose ``light``)."""
    theme = (await store.guild_settings(guild_id, channel_id)).theme
    return theme if theme in THEMES else "dark"


def may_attach(channel: Any) -> bool:
    """Whether the bot may attach files in ``channel`` (a partial channel: assume so;
    Discord refuses, and the caller sends the text alone)."""
    me = getattr(getattr(channel, "guild", None), "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return True
    return bool(channel.permissions_for(me).attach_files)


def game_chart_description(sheet: ScoreSheet) -> str:
    """The game chart's alt text (at most 1,024 characters): the rounds, the target and
    each player's colour and final total, the winners named."""
    winners = set(sheet.winners or ())
    parts = [
        f"Chart of the running totals round by round over {plural(len(sheet.rounds), 'round')}, "
        f"target {sheet.target_score}."
    ]
    for seat, name in enumerate(sheet.names):
        won = ", winner" if name in winners else ""
        parts.append(
            f"{plain_name(cut(name, 32))} ({COLOURS[seat % len(COLOURS)]}): "
            f"{sheet.totals[seat]}{won}."
        )
    return cut(" ".join(parts), EMBED_FIELD)


def stats_chart_description(name: str, stats: PlayerStats) -> str:
    """The stats chart's alt text: the last games' totals, oldest first, wins marked."""
    games = list(reversed(stats.recent))
    each = ", ".join(f"{g.total} (target {g.target}{', won' if g.won else ''})" for g in games)
    last = "last game" if len(games) == 1 else f"last {len(games)} games"
    text = f"Bar chart of {plain_name(cut(name, 32))}'s {last}, "
    return cut(text + f"oldest first: {each}.", EMBED_FIELD)


async def draw(tables: Host, chart: Any) -> bytes:
    """A chart drawn off the event loop (by the table pictures' painter)."""
    png: bytes = await tables.painter.draw(chart)
    return png


async def game_chart_file(
    tables: Host, sheet: ScoreSheet, theme: Theme, info: TableInfo | None = None
) -> discord.File | None:
    """The chart of ``sheet`` as an attachment, or ``None`` (no round played yet, pictures
    are off, or the drawing failed: the caller sends its text alone)."""
    if not sheet.rounds or not tables.draw_pictures:
        return None
    try:
        from pictures.charts import GameChart

        rules = info.rules if info is not None else None
        teams = rules.team_of(sheet.names) if rules is not None else None
        chart = GameChart.of_sheet(sheet, theme=theme, teams=teams)
        png = await draw(tables, chart)
    except Exception:
        log.exception("table %s: the game chart could not be drawn", sheet.table_id)
        return None
    return discord.File(
        io.BytesIO(png), filename="game.png", description=game_chart_description(sheet)
    )


async def stats_chart_file(
    tables: Host, name: str, stats: PlayerStats, theme: Theme
) -> discord.File | None:
    """A player's last games as a small chart, or ``None`` (no game, pictures are off, or
    the drawing failed)."""
    if not stats.recent or not tables.draw_pictures:
        return None
    try:
        from pictures.charts import StatsChart

        png = await draw(tables, StatsChart(name, stats.recent, theme))
    except Exception:
        log.exception("the stats chart of %s could not be drawn", stats.user_id)
        return None
    return discord.File(
        io.BytesIO(png), filename="stats.png", description=stats_chart_description(name, stats)
    )


__all__ = [
    "STORY_ITEMS",
    "GameButton",
    "ScoringButton",
    "StoryRefusal",
    "answer_game",
    "answer_scoring",
    "game_chart_file",
    "history_view",
    "may_attach",
    "round_view",
    "scoring_of",
    "stats_chart_file",
    "theme_of",
]

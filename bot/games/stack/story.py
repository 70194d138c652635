"""Stack's story on Discord: a round's full scoring one click away, the chart of a
game's running totals, a player's chart.

* A round's end is one short message (:func:`bot.games.stack.words.round_end_text`) with
  a **Full scoring** button (:class:`ScoringButton`): a click answers privately with that
  round's pile-by-pile scoring, rebuilt from storage (the table's log replayed to the
  moment the round ended: its scores in, the next round's dice not rolled yet).
* A game's end carries the chart of its running totals (:func:`game_chart_file`), as
  ``/scores`` does for the game in the channel; ``/stats`` a player's last games
  (:func:`stats_chart_file`).

The button is a dynamic item (one of Stack's
:attr:`~bot.games.base.DiscordGame.dynamic_items`) whose custom_id carries the table and
the round, so it keeps working after a restart; each click is checked as
:mod:`bot.story`'s buttons are (the table must be of the clicker's server). Its custom_id
starts with ``story:``, not ``stack:``, so the start-up clean-up never takes a round's
message for a table message left behind. A round out of range gets a clear private
answer and changes nothing.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import weakref
from collections import OrderedDict
from typing import Any

import discord

import catalog
from bot.games.stack.words import colour_word, scoring_messages
from bot.hosting import Host
from bot.story import GONE, NOT_STARTED, StoryRefusal, private_answer, table_of
from bot.text import EMBED_FIELD, cut, plain_name
from bot.views import Components, TableButton, host_of, ready_items
from catalog import n, t
from engine.errors import RecordError
from engine.stack.record import replay
from engine.stack.rules import StackRules
from persistence import Store, TableNotFound, WrongTableStatus
from persistence.records import PlayerStats, ScoreSheet, TableInfo
from pictures.palette import Theme

log = logging.getLogger(__name__)

SCORINGS_KEPT = 64  # rounds whose full scoring is kept in memory, per store


class ScoringButton(TableButton, template=r"story:round:(?P<table>\d+):(?P<round>\d+)"):
    """**Full scoring** under a round's end: round ``round_no``'s scoring, privately."""

    def __init__(self, table_id: int, round_no: int) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=t("stack.story.full_scoring"),
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


def round_view(table_id: int, round_no: int) -> Components:
    """The button under round ``round_no``'s end."""
    return ready_items(ScoringButton(table_id, round_no))


async def answer_scoring(interaction: discord.Interaction, table_id: int, round_no: int) -> None:
    """The **Full scoring** button: round ``round_no``'s pile-by-pile scoring, privately
    (split over follow-ups when it is long)."""
    tables = host_of(interaction)
    await table_of(tables.store, table_id, interaction.guild_id)
    texts = await tables.in_time(interaction, scoring_of(tables.store, table_id, round_no))
    await private_answer(interaction, texts)


_scorings: weakref.WeakKeyDictionary[Store, OrderedDict[tuple[int, int, str], list[str]]] = (
    weakref.WeakKeyDictionary()
)


async def scoring_of(store: Store, table_id: int, round_no: int) -> list[str]:
    """Round ``round_no``'s full scoring (:func:`bot.games.stack.words.scoring_messages`), from the
    table's stored record replayed to the end of that round. A finished round never
    changes, so the last :data:`SCORINGS_KEPT` asked are kept. :class:`StoryRefusal` for
    a game that is gone or never started, or a round that is not over."""
    kept = _scorings.setdefault(store, OrderedDict())
    key = (table_id, round_no, catalog.current())  # said in the asker's language
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
        raise StoryRefusal(t("stack.story.no_round", round=round_no))
    upto = {**record, "rounds": rounds[:round_no]}
    try:
        state = await asyncio.to_thread(replay, upto)
    except RecordError as err:  # storage that does not replay: say so, do not guess
        log.error("table %s: round %s does not replay: %s", table_id, round_no, err)
        raise StoryRefusal(t("stack.story.not_rebuilt")) from None
    if len(state.round_scores) < round_no:
        raise StoryRefusal(t("stack.story.not_over", round=round_no))
    texts = scoring_messages(state, round_no)
    kept[key] = texts
    while len(kept) > SCORINGS_KEPT:
        kept.popitem(last=False)
    return texts


def game_chart_description(sheet: ScoreSheet) -> str:
    """The game chart's alt text (at most 1,024 characters): the rounds, the target and
    each player's colour and final total, the winners named."""
    winners = set(sheet.winners or ())
    rounds = n("stack.rounds", len(sheet.rounds))
    parts = [t("stack.chart.game", rounds=rounds, target=sheet.target_score)]
    for seat, name in enumerate(sheet.names):
        parts.append(
            t(
                "stack.chart.seat_won" if name in winners else "stack.chart.seat",
                name=plain_name(cut(name, 32)),
                colour=colour_word(seat),
                total=sheet.totals[seat],
            )
        )
    return cut(" ".join(parts), EMBED_FIELD)


def stats_chart_description(name: str, stats: PlayerStats, game: str) -> str:
    """The stats chart's alt text: the last games of ``game`` (its title), their totals
    oldest first, wins marked."""
    games = list(reversed(stats.recent))
    each = t("stack.chart.comma").join(
        t(
            "stack.chart.game_won" if g.won else "stack.chart.game_each",
            total=g.total,
            target=g.target,
        )
        for g in games
    )
    last = n("stack.chart.last", len(games))
    text = t(
        "stack.chart.stats",
        name=plain_name(cut(name, 32)),
        game=plain_name(game),
        last=last,
        each=each,
    )
    return cut(text, EMBED_FIELD)


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

        stored = info.rules_record if info is not None else None
        rules = StackRules.model_validate(stored) if stored is not None else None
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
    tables: Host, name: str, stats: PlayerStats, theme: Theme, game: str
) -> discord.File | None:
    """A player's last games of ``game`` (its title, in the language spoken) as a small
    chart, or ``None`` (no game, pictures are off, or the drawing failed). The chart and
    its alt text name the game."""
    if not stats.recent or not tables.draw_pictures:
        return None
    try:
        from pictures.charts import StatsChart

        png = await draw(tables, StatsChart(name, stats.recent, theme, game))
    except Exception:
        log.exception("the stats chart of %s could not be drawn", stats.user_id)
        return None
    return discord.File(
        io.BytesIO(png),
        filename="stats.png",
        description=stats_chart_description(name, stats, game),
    )


__all__ = [
    "ScoringButton",
    "answer_scoring",
    "game_chart_file",
    "round_view",
    "scoring_of",
    "stats_chart_file",
]

"""Color Stack on Discord: the game's :class:`~bot.games.base.DiscordGame` — the public
table message and its picture, the **My move** panel, typed moves (``/move``, ``/set``)
and ``/rules`` in English or Japanese.

Everything is public (perfect information): the table message shows the board as a text
grid (:mod:`bot.games.colorstack.words`) and as a picture
(:class:`~pictures.colorstack.BoardPicture`, drawn in the painter worker); the
panel (:mod:`bot.games.colorstack.views`) walks a player from a piece to its legal
destinations or new faces, and lets either player resign at any time (with a
confirmation). Typed moves are read by the engine's parser, whose refusals speak to the
player ("d2 is black", "your 5 cannot stack on a 2").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.games.base import DiscordGame, Host, Panel, PrivateButton, shown_to_move
from bot.games.colorstack.panel import move_code, move_of_code
from bot.games.colorstack.rules import rules_brief
from bot.games.colorstack.views import PanelStep, build_panel
from bot.games.colorstack.words import (
    ENDED_BY,
    colours_words,
    end_words,
    field_text,
    last_line,
    pair_words,
    seat_line,
)
from bot.refusal_words import Refused
from bot.sheets import DRAWN_BY, summary_line
from bot.text import cut, escape_name, fit_message, plain_name
from catalog import colorstack as words
from catalog import games as game_words
from catalog import isolate, n, t
from engine.colorstack.board import other_colours
from engine.colorstack.game import GAME
from engine.colorstack.moves import Colours, Move, Set
from engine.colorstack.state import ColorStackState
from engine.errors import MoveError
from engine.game import TurnEnded
from pictures.colorstack import BoardPicture, describe
from pictures.painter import DrawJob

if TYPE_CHECKING:
    from host.live import LiveTable
    from persistence.records import GameSummary, ScoreSheet

__all__ = ["DISCORD_GAME", "ColorStackCommands", "ColorStackDiscord"]


def _name(state: ColorStackState, seat: int) -> str:
    return escape_name(state.players[seat])


T = TypeVar("T")


class _Said(Generic[T]):
    """A class attribute said in the language being spoken whenever it is read (the
    private button's label, the leaderboard's figure): never a word fixed at import."""

    def __init__(self, say: Callable[[], T]) -> None:
        self.say = say

    def __get__(self, instance: object, owner: type | None = None) -> T:
        return self.say()


# ------------------------------------------------------------------ typed moves


async def _typed(bot: commands.Bot, interaction: discord.Interaction, text: str) -> None:
    """Play ``text`` at the channel's table, which must be a Color Stack table."""
    host: Host = bot.tables  # type: ignore[attr-defined]
    channel = interaction.channel_id
    if channel is None:
        raise Refused(t("colorstack.wrong_channel"))
    live = host.service.table_in(channel)
    if live.game is not DISCORD_GAME:
        title = game_words.words(live.game.name).title()
        raise Refused(t("colorstack.wrong_game", game=escape_name(title)))
    await host.play_move(interaction, text=text)


class ColorStackCommands(commands.Cog):
    """Color Stack's own slash commands: ``/move`` and ``/set``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="move", description="Color Stack: move a piece, or resign")
    @app_commands.guild_only()
    @app_commands.describe(move="from-to, like c1-e3 · or resign")
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        await _typed(self.bot, interaction, move)

    @app_commands.command(name="set", description="Color Stack: turn a piece's top die to a number")
    @app_commands.guild_only()
    @app_commands.describe(square="your piece's square, like c1", number="its new number, 1–6")
    async def set(
        self,
        interaction: discord.Interaction,
        square: str,
        number: app_commands.Range[int, 1, 6],
    ) -> None:
        await _typed(self.bot, interaction, f"set {square.strip()} {number}")


# ------------------------------------------------------------------ the game


class ColorStackDiscord(DiscordGame):
    """Color Stack on Discord (see the module's description)."""

    private_button = _Said(lambda: PrivateButton(t("colorstack.button.my_move"), "🎲"))
    # the outcome's figure: 1 for the winner
    figure_name = _Said(lambda: (t("colorstack.figure.one"), t("colorstack.figure.many")))
    counts_points = False  # the figure is the win itself: the leaderboard shows wins once
    table_options: Mapping[str, str] = MappingProxyType(
        {"turn_limit": "turn_limit", "board": "board"}
    )
    dynamic_items = (PanelStep,)

    def __init__(self) -> None:
        self.game = GAME  # /hint's reason is said by hint_text (catalog.colorstack)

    @property
    def title(self) -> str:
        return words.WORDS.title()

    # ------------------------------------------------------------ lobby and rules

    def lobby_summary(self, settings: BaseModel) -> list[str]:
        board = getattr(settings, "board", "light")
        size = t("colorstack.lobby.heavy" if board == "heavy" else "colorstack.lobby.light")
        limit = getattr(settings, "turn_limit", None)
        lines = [t("colorstack.lobby.summary", title=self.title, board=size)]
        if limit:
            lines.append(n("colorstack.lobby.draws", limit))
        return lines

    def rules_brief(self, locale: str | None = None) -> str:
        return fit_message(rules_brief(locale))

    def start_text(self, state: Any) -> str:
        assert isinstance(state, ColorStackState)
        first = state.first if state.first is not None else 0
        second = 1 - first
        if not state.colours:  # the first player is to choose colours
            return t(
                "colorstack.table.start_choosing",
                first=_name(state, first),
                second=_name(state, second),
            )
        return t(
            "colorstack.table.start",
            first=_name(state, first),
            first_colours=colours_words(state, first),
            second=_name(state, second),
            second_colours=colours_words(state, second),
        )

    # ------------------------------------------------------------ the table message

    def your_turn_words(self, state: Any, seat: int) -> str:
        if not state.colours:  # the first player's decision before the first turn
            return t("colorstack.table.your_choice")
        return t("colorstack.table.your_colours", colours=colours_words(state, seat))

    def to_move_words(self, state: Any, seat: int) -> str:
        if not state.colours:
            return t("colorstack.table.choosing", name=_name(state, seat))
        return t(
            "colorstack.table.to_move", name=_name(state, seat), colours=colours_words(state, seat)
        )

    def field_text(self, state: Any, turns: Sequence[str] | None) -> str:
        assert isinstance(state, ColorStackState)
        if state.setup is None:  # the first player chooses colours: no board yet
            first = state.first if state.first is not None else 0
            return "\n".join(
                [
                    f"**{escape_name(self.title)}**",
                    t("colorstack.table.choosing", name=_name(state, first)),
                ]
            )
        return field_text(state, turns)

    def alt_text(self, state: Any) -> str:
        if getattr(state, "setup", None) is None:
            return ""
        picture = BoardPicture.of(state)
        names = (plain_name(picture.names[0]), plain_name(picture.names[1]))
        return cut(describe(_renamed(picture, names, shown_to_move(state))), 1024)

    def picture(self, state: Any, *, theme: str, turn_seconds: int | None) -> DrawJob | None:
        if getattr(state, "setup", None) is None:
            return None  # no board before the first player has chosen colours
        shown = BoardPicture.of(
            state, theme="light" if theme == "light" else "dark", turn_seconds=turn_seconds
        )
        return DrawJob("colorstack", (shown,))

    # ------------------------------------------------------------ what happened

    def turn_text(self, state: Any, event: TurnEnded) -> str:
        return words.turn_words(state, event)

    def decision_text(self, state: Any, seat: int, move: Any) -> str | None:
        """The first player's colours, once chosen (a decision, not a turn): plain words,
        the host escapes them."""
        if not isinstance(move, Colours) or not isinstance(state, ColorStackState):
            return None
        return t(
            "colorstack.table.chosen",
            first=isolate(state.players[seat]),
            first_colours=pair_words(move.pair),
            second=isolate(state.players[1 - seat]),
            second_colours=pair_words(other_colours(move.pair)),
        )

    def end_line(self, state: Any) -> str:
        """A win, a resignation or a draw in the host's words, with where the four
        colours stand and after how many turns."""
        assert isinstance(state, ColorStackState)
        return end_words(state)

    def game_end_texts(self, state: Any) -> list[str]:
        return [fit_message(self.end_line(state))]

    # ------------------------------------------------------------ moves

    def move_code(self, move: Any) -> str:
        return move_code(move)

    def move_from_code(self, state: Any, code: str) -> Any | None:
        """The move a button or menu carries, whether or not it can be played now: the
        host refuses a stale panel's move by its version first ("an older state"), then
        an illegal one in the engine's words, by the clicker's seat."""
        return move_of_code(code, getattr(state, "rows", 9))

    def move_label(self, state: Any, move: Any) -> str:
        if isinstance(move, Move | Set | Colours):
            return cut(words.move_words(state, move), 80)
        return t("colorstack.move.resign_short")

    def refusal_text(self, error: MoveError) -> str:
        return words.error_text(error) if str(error) else t("colorstack.refused")

    async def panel(self, host: Host, live: LiveTable[DiscordGame], seat: int) -> Panel:
        panel, _ = build_panel(live, seat)
        return panel

    # ------------------------------------------------------------ records and stats

    def history_line(self, number: int, summary: GameSummary) -> str:
        """The winner and how (a stack of four colours, a resignation), or the draw and
        how, then the two players: the figure per seat (1 for the win) says nothing more."""
        key = ENDED_BY.get(summary.ended_by) if summary.winners else None
        return summary_line(number, summary, None, t(key) if key else "")

    def score_text(self, sheet: ScoreSheet, state: Any = None) -> str:
        """``/scores``: Color Stack has no points and no rounds. While the game runs here,
        the turn, the two players and their colours, and the last move; once it is over,
        who won and how, or the draw and how."""
        title = escape_name(self.title)
        names = [f"**{escape_name(name)}**" for name in sheet.names]
        if sheet.winners is not None:
            if sheet.winners:
                winner = sheet.winners[0]
                loser = next((x for x in sheet.names if x != winner), winner)
                won = ENDED_BY.get(sheet.ended_by or "")
                said = {
                    "winner": f"**{escape_name(winner)}**",
                    "loser": f"**{escape_name(loser)}**",
                }
                if won is None:  # an ending this front end has no words for
                    return fit_message(t("colorstack.score.won_plain", title=title, **said))
                return fit_message(t("colorstack.score.won", title=title, how=t(won), **said))
            players = t("list.and").join(names)
            drawn = DRAWN_BY.get(sheet.ended_by or "")
            if drawn is None:
                return fit_message(t("colorstack.score.drawn_plain", title=title, players=players))
            return fit_message(
                t("colorstack.score.drawn", title=title, players=players, how=t(drawn))
            )
        if isinstance(state, ColorStackState) and not state.is_over:
            top = n("colorstack.table.turn", state.turns_left, title=title, turn=state.turns + 1)
            lines = [top, *(seat_line(state, seat) for seat in range(2))]
            last = last_line(state)
            if last:
                lines.append(last)
            return fit_message("\n".join(lines))
        return fit_message(t("colorstack.score.on", title=title, players=t("list.and").join(names)))

    def cog(self, bot: commands.Bot) -> commands.Cog | None:
        return ColorStackCommands(bot)


def _renamed(picture: BoardPicture, names: tuple[str, str], current: int | None) -> BoardPicture:
    from dataclasses import replace

    return replace(picture, names=names, current=current)


DISCORD_GAME = ColorStackDiscord()

"""Stack on Discord: everything that is Stack's own (the host knows none of it).

* The table message: :func:`bot.games.stack.words.table_parts` (whose turn, the field as text, the
  last turns) and the picture (:class:`pictures.stack.FieldPicture`, drawn by
  :func:`pictures.stack.draw_field` in the painter's worker).
* **My turn**: the player's own row and their moves grouped by what they achieve
  (:mod:`engine.stack.advice`), the greedy AI's pick suggested (:mod:`bot.games.stack.panel`, and
  :func:`panel_view` here); the same panel for a rerolled die to place (a turn begun: the
  host shows the panel again after the reroll).
* The story: a round's end (:func:`bot.games.stack.words.round_end_text`, with its **Full scoring**
  button of :mod:`bot.games.stack.story`), the game's end with the chart of its running totals.
* ``/stack`` and ``/reroll`` (:class:`StackCog`); refusals in Discord's words
  (:mod:`bot.games.stack.wording`).
* Move codes in custom ids: ``s3.1.2`` (stack a 3 on seat 1's single), ``r3`` (reroll a
  3), ``p1.2`` (place the rerolled die on seat 1's pile of 2).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import partial
from types import MappingProxyType
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

import catalog
from bot.games.base import (
    PANELS,
    DiscordGame,
    Host,
    Panel,
    TableParts,
    colour_of,
)
from bot.games.stack.panel import GROUP_EMOJI, SUGGESTED, move_label, move_note, panel_text
from bot.games.stack.story import ScoringButton, game_chart_file, round_view, stats_chart_file
from bot.games.stack.wording import discord_words
from bot.games.stack.words import (
    alt_text,
    game_end_messages,
    round_end_text,
    rules_brief,
    score_sheet_text,
    stack_history_line,
    stats_text,
    table_parts,
)
from bot.refusal_words import Refused
from bot.story import theme_of
from bot.text import cut, escape_name, fit_message, label_name
from bot.views import (
    MAX_BUTTONS_PER_ROW,
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    Components,
    move_button,
    move_select,
    option_payload,
)
from catalog import games as game_words
from catalog import n, t
from catalog.stack import WORDS
from engine.errors import AmbiguousMoveError, MoveError
from engine.game import RoundEnded, TurnEnded
from engine.stack.advice import Advice, Group, advise
from engine.stack.game import GAME
from engine.stack.moves import PLACES, REROLLS, STACKS, PlayerMove, Reroll, Stack
from engine.stack.rules import HouseRules
from engine.stack.state import StackState
from host.live import LiveTable
from host.refusals import Refusal, Why
from persistence.records import GameSummary, PlayerStats, ScoreSheet
from pictures.painter import DrawJob
from pictures.palette import Theme
from pictures.stack import FieldPicture

__all__ = [
    "DISCORD_GAME",
    "StackCog",
    "StackOnDiscord",
    "move_code",
    "move_from_code",
    "panel_view",
]

MENTION = re.compile(r"^<@!?(\d+)>$")


def move_code(move: PlayerMove) -> str:
    """A short code for a move in a custom_id or select value: ``s3.1.2``, ``r3``, ``p1.2``."""
    if isinstance(move, Stack):
        return f"s{move.face}.{move.owner}.{move.height}"
    if isinstance(move, Reroll):
        return f"r{move.face}"
    return f"p{move.owner}.{move.height}"


_CODE = re.compile(r"^(?:s(\d)\.(\d)\.(\d)|r(\d)|p(\d)\.(\d))$")


def move_from_code(code: str) -> PlayerMove | None:
    m = _CODE.match(code)
    if m is None:
        return None
    try:
        if m[1]:
            return STACKS[(int(m[1]), int(m[2]), int(m[3]))]
        if m[4]:
            return REROLLS[int(m[4])]
        return PLACES[(int(m[5]), int(m[6]))]
    except KeyError:
        return None


def panel_layout(advice: list[Advice]) -> tuple[list[list[Advice]], list[list[Advice]]]:
    """Where **My turn**'s moves go: their rows of buttons and their menus (see
    :func:`panel_view`)."""
    ordered = sorted(advice, key=lambda a: not a.suggested)  # stable: groups kept in order
    rows: list[list[Advice]] = []
    for group in Group:
        moves = [a for a in ordered if a.group is group]
        rows += [
            moves[i : i + MAX_BUTTONS_PER_ROW] for i in range(0, len(moves), MAX_BUTTONS_PER_ROW)
        ]
    if len(rows) > MAX_ROWS:
        rerolls = [a for a in ordered if a.group is Group.REROLL]
        stacks = [a for a in ordered if a.group is not Group.REROLL]
        first = [a for a in stacks if a.suggested or a.group is Group.CAPTURE][:MAX_BUTTONS_PER_ROW]
        rest = [a for a in stacks if a not in first]
        rows = [first] if first else []
        rows += [
            rerolls[i : i + MAX_BUTTONS_PER_ROW]
            for i in range(0, len(rerolls), MAX_BUTTONS_PER_ROW)
        ]
        selects = [
            rest[i : i + MAX_SELECT_OPTIONS] for i in range(0, len(rest), MAX_SELECT_OPTIONS)
        ]
    else:
        selects = []
    return rows, selects


def panel_view(
    table_id: int, version: int, state: StackState, advice: list[Advice]
) -> tuple[Components, int]:
    """The **My turn** panel's buttons: a row per group of moves (captures, safe takes,
    takes, rerolls; the suggestion first and green, marked ⭐). When they need more than
    Discord's 5 rows of 5 buttons: the suggestion and the captures as buttons, the rerolls
    as buttons, the other moves in menus of 25 (best first). Returns the view and how
    many moves did not fit (those can still be typed)."""
    rows, selects = panel_layout(advice)
    items: list[tuple[int, dict[str, Any]]] = []
    shown = 0
    for row, moves in enumerate(rows[:MAX_ROWS]):
        for a in moves:
            button = move_button(
                table_id,
                version,
                move_code(a.move),
                move_label(state, a),
                emoji=SUGGESTED if a.suggested else GROUP_EMOJI[a.group],
                suggested=a.suggested,
            )
            items.append((row, button))
            shown += 1
    row = min(len(rows), MAX_ROWS)
    for part, moves in enumerate(selects[: MAX_ROWS - row]):
        options = [
            option_payload(
                move_label(state, a),
                move_code(a.move),
                cut(move_note(a), 100),
                SUGGESTED if a.suggested else GROUP_EMOJI[a.group],
            )
            for a in moves
        ]
        select = move_select(table_id, version, part, options, placeholder=t("stack.panel.select"))
        items.append((row + part, select))
        shown += len(options)
    return Components(items), len(advice) - shown


def _panel(table_id: int, version: int, state: StackState, seat: int) -> tuple[str, Components]:
    """**My turn**'s text and buttons for ``seat``, the seat to move."""
    advice = advise(state)
    text = panel_text(state, seat, advice)
    view, hidden = panel_view(table_id, version, state, advice)
    if hidden:
        text = fit_message(f"{text}\n-# {t('stack.panel.typed', count=hidden)}")
    return text, view


class StackOnDiscord(DiscordGame):
    """The dice game Stack on Discord."""

    game = GAME

    @property
    def title(self) -> str:
        """The game's name in the language being spoken."""
        return WORDS.title()

    hidden_information = False  # every die is on the table
    dynamic_items = (ScoringButton,)  # **Full scoring** under a round's end
    table_options: Mapping[str, str] = MappingProxyType(
        {"teams": "teams", "target": "target_score", "dice": "dice_per_player"}
    )

    def lobby_summary(self, settings: BaseModel) -> list[str]:
        assert isinstance(settings, HouseRules)
        lines = [n("stack.lobby.settings", settings.dice_per_player, target=settings.target_score)]
        if settings.teams:
            lines.append(t("stack.lobby.teams"))
        return lines

    def rules_brief(self, locale: str | None = None) -> str:
        """In the reader's language (``locale``), else in the language being spoken."""
        language = catalog.language_of(locale, catalog.current()) if locale else catalog.current()
        with catalog.speaking(language):
            return rules_brief()

    def start_text(self, state: Any) -> str:
        assert isinstance(state, StackState) and state.first is not None
        return t("stack.start", name=escape_name(state.name(state.first)))

    # ------------------------------------------------------------ the table message

    def table_parts(
        self,
        state: Any,
        *,
        current_user: int | None,
        turns: Sequence[str] | None,
        deadline: datetime | None = None,
        note: str | None = None,
        closed: bool = False,
    ) -> TableParts:
        head, field = table_parts(
            state,
            current_user=current_user,
            last_move="\n".join(turns) if turns else None,
            deadline=deadline,
            note=note,
            closed=closed,
        )
        closed = closed and not state.is_over
        accent = None if closed else self.accent(state)
        return TableParts(head, field, accent, alt_text(state, closed=closed))

    def accent(self, state: Any) -> int | None:
        seat = (state.winner or [None])[0] if state.is_over else state.current
        return colour_of(seat) if seat is not None else None

    def alt_text(self, state: Any) -> str:
        return alt_text(state)

    def picture(self, state: Any, *, theme: str, turn_seconds: int | None) -> DrawJob | None:
        shade: Theme = "light" if theme == "light" else "dark"
        picture = FieldPicture.of(state, theme=shade, turn_seconds=turn_seconds)
        return DrawJob("stack", (picture,))

    def mid_turn(self, state: Any) -> bool:
        """A rerolled die waits for its pile."""
        return bool(state.placing is not None)

    # ------------------------------------------------------------ what happened

    def round_text(self, state: Any, event: RoundEnded) -> str | None:
        return round_end_text(state, event.round_no)

    def round_view(self, table_id: int, round_no: int) -> Components | None:
        """**Full scoring** (:mod:`bot.games.stack.story`): the round pile by pile, privately."""
        return round_view(table_id, round_no)

    def game_end_texts(self, state: Any) -> list[str]:
        return game_end_messages(state)

    async def game_chart(self, host: Host, table_id: int) -> discord.File | None:
        info = await host.store.table(table_id)
        sheet = await host.store.score_sheet(table_id)
        theme = await theme_of(host.store, info.guild_id)
        return await game_chart_file(host, sheet, theme, info)

    # ------------------------------------------------------------ moves

    def turn_text(self, state: Any, event: TurnEnded) -> str:
        return WORDS.turn_words(state, event)

    def move_code(self, move: Any) -> str:
        return move_code(move)

    def move_label(self, state: Any, move: Any) -> str:
        """A legal move on a chooser's button, in the language being spoken."""
        return cut(WORDS.move_words(state, move), 80)

    def move_from_code(self, state: Any, code: str) -> Any | None:
        return move_from_code(code)

    def refusal_text(self, error: MoveError) -> str:
        return discord_words(error)

    def chooser_text(self, state: Any, error: AmbiguousMoveError) -> str:
        return t("stack.chooser")

    async def panel(self, host: Host, live: LiveTable[DiscordGame], seat: int) -> Panel:
        """**My turn**: the player's own row, their moves grouped by what they achieve
        (captures, safe takes, takes, rerolls) with the greedy AI's pick suggested, and a
        button (or menu option) per move; for a rerolled die, its piles."""
        state = live.state
        assert isinstance(state, StackState)
        if state.current != seat:
            current = state.current
            who = state.name(current) if current is not None else None
            raise Refusal(Why.NOT_YOUR_TURN, player=who, hint=False)
        return Panel(
            *PANELS.get(live, seat, "", partial(_panel, live.id, live.version, state, seat))
        )

    # ------------------------------------------------------------ records and stats

    def score_text(self, sheet: ScoreSheet, state: Any = None) -> str:
        return score_sheet_text(sheet)

    def history_line(self, number: int, summary: GameSummary) -> str:
        return stack_history_line(number, summary)

    async def score_chart(self, host: Host, sheet: ScoreSheet, info: Any) -> discord.File | None:
        theme = await theme_of(host.store, info.guild_id)
        return await game_chart_file(host, sheet, theme, info)

    def stats_text(self, name: str, stats: PlayerStats | None) -> str:
        if stats is None:  # the words every game has for it
            return super().stats_text(name, None)
        return stats_text(name, stats)

    async def stats_chart(
        self, host: Host, guild_id: int, name: str, stats: PlayerStats
    ) -> discord.File | None:
        theme = await theme_of(host.store, guild_id)
        return await stats_chart_file(host, name, stats, theme, self.title)

    def cog(self, bot: commands.Bot) -> commands.Cog | None:
        return StackCog(bot)


class StackCog(commands.Cog):
    """``/stack`` and ``/reroll``: Stack's moves typed as commands."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def host(self) -> Any:
        return self.bot.tables  # type: ignore[attr-defined]

    def _at_a_stack_table(self, interaction: discord.Interaction) -> None:
        """Another game's table refuses Stack's commands by name, rather than reading
        them as its own notation (no table: the host says so, as for every move)."""
        live = self.host.service.by_channel.get(interaction.channel_id or 0)
        if live is not None and live.game is not DISCORD_GAME:
            title = game_words.words(live.game.name).title()
            raise Refused(t("stack.refusal.other_game", game=escape_name(title)))

    def _target_name(self, interaction: discord.Interaction, on: str) -> str:
        """A pasted mention becomes the seat's name; anything else is read by the parser."""
        m = MENTION.match(on.strip())
        live = self.host.service.by_channel.get(interaction.channel_id or 0)
        if m and live is not None:
            seat = live.info.seat_of(int(m[1]))
            if seat is not None:
                return str(seat.name)
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
        self._at_a_stack_table(interaction)
        target = self._target_name(interaction, on)
        # quoted, so that a name ending in a number is never read as a height
        text = f'stack {die} on "{target}"' + (f" {height}" if height else "")
        await self.host.play_move(interaction, text=text)

    @stack.autocomplete("on")
    async def stack_on(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        live = self.host.service.by_channel.get(interaction.channel_id or 0)
        if live is None:
            return []
        names = [s.name for s in live.info.seats if s.user_id != interaction.user.id]
        wanted = current.lstrip("@").lower()
        # the choice's name is shown as it is (plain text), its value is typed as it is
        return [
            app_commands.Choice(name=label_name(n)[:100], value=n)
            for n in names
            if wanted in n.lower()
        ][:25]

    @app_commands.command(name="reroll", description="Roll one of your unstacked dice again")
    @app_commands.guild_only()
    @app_commands.describe(die="The face of the die to roll again")
    async def reroll(
        self, interaction: discord.Interaction, die: app_commands.Range[int, 1, 6]
    ) -> None:
        self._at_a_stack_table(interaction)
        await self.host.play_move(interaction, text=f"reroll {die}")


DISCORD_GAME = StackOnDiscord()

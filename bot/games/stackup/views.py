"""Stack Up!'s public table text and private **My hand** panel on Discord: the words of
the table message (the stack, a pending Crash, the last play, every hand's *size*), and
the panel a player gets alone (their hand sorted, the step of their decision as buttons).

Steps of the decision (:mod:`bot.games.stackup.panel`) are :class:`HandStep` buttons
(``stackup:TABLE:VERSION:s:PATH``): a click redraws the clicker's panel at that step if the
table has not moved on (a stale panel is refused and changes nothing). A complete decision
is a :class:`HandMove` (``stackup:TABLE:VERSION:m:CODE``): one engine move sent to the
host, which checks the version and the move's legality.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import PANELS, DiscordGame, Host, Panel, seat_mark
from bot.games.buttons import PanelButton, payload_of
from bot.games.stackup.panel import (
    SQUARES,
    Choice,
    Node,
    hand_words,
    move_code,
    move_of_code,
    node,
)
from bot.games.steps import Path
from bot.refusal_words import Refused
from bot.text import MESSAGE_LIMIT, button_label, escape_name, fit_message
from bot.views import FOREIGN_PANEL, Components, foreign_panel, owns_panel
from catalog import n, t
from catalog.stackup import card_named, colour_name
from engine.stackup.cards import COLOUR_LETTERS
from engine.stackup.state import StackUpState
from host.refusals import Refusal, Why
from pictures.stackup import last_turn

if TYPE_CHECKING:
    from host.live import LiveTable

__all__ = [
    "HandMove",
    "HandStep",
    "asked",
    "field_text",
    "hand_panel",
    "last_line",
    "seat_line",
    "stack_line",
]

STALE = "stackup.refusal.stale"  # a catalog key
ARROWS = {"up": "stackup.table.way_up", "down": "stackup.table.way_down"}  # catalog keys
RECENT_TURNS = 4  # turns the table message recalls


# ------------------------------------------------------------------ words


def _name(state: StackUpState, seat: int) -> str:
    return escape_name(state.players[seat])


def stack_line(state: StackUpState) -> str:
    """``🟥 **Red 7** · ⬆️ up (1→15) · draw pile **34**``."""
    letter = COLOUR_LETTERS[state.colour]
    way = t(ARROWS.get(state.direction or "", "stackup.table.way_unset"))
    return t(
        "stackup.table.stack",
        square=SQUARES[letter],
        colour=colour_name(state.colour),
        number=state.number,
        way=way,
        pile=state.pile_size,
    )


def asked(state: StackUpState) -> str:
    """What the seat to act must decide, in a few words."""
    if state.phase == "direction":
        return t("stackup.asked.direction")
    if state.phase == "drawn":
        return t("stackup.asked.drawn")
    if state.pending_crash is not None and state.pending_crash == state.current_player:
        return t("stackup.asked.crash")
    return t("stackup.asked.play")


def last_line(state: StackUpState) -> str | None:
    """The last turn, public facts only: ``Last: **ann** R9 R10 R11 · bonus: skip``."""
    seat, cards, note = last_turn(state)
    if seat is None:
        return None
    parts = [t("stackup.table.last", player=_name(state, seat))]
    if cards:
        parts.append(" ".join(card_named(card) for card in cards))
    line = " ".join(parts)
    return f"{line} · {escape_name(note)}" if note else line


def seat_line(state: StackUpState, seat: int) -> str:
    """``▶ **ann** · 7 cards · 🎟️ 1 draw pass · 💥 Crash``: a hand's size, never its cards."""
    mark = seat_mark(state, seat)
    parts = [f"{mark} **{_name(state, seat)}**", n("stackup.count.cards", state.hand_size(seat))]
    if state.passes[seat]:
        parts.append("🎟️ " + n("stackup.count.passes", state.passes[seat]))
    if state.pending_crash == seat and not state.is_over:
        parts.append(t("stackup.table.crash_on_them"))
    return " · ".join(parts)


def field_text(state: StackUpState, turns: Sequence[str] | None) -> str:
    """The table as text: the stack, a pending Crash, the last play, every hand's size,
    the recent turns (``turns``: the host's, escaped). No card of any hand."""
    if state.is_over:
        top = t("stackup.table.top_over", turns=n("stackup.count.turns", state.turns_taken))
    else:
        top = t(
            "stackup.table.top",
            turn=state.turns_taken + 1,
            turns=n("stackup.count.turns", state.turns_left),
        )
    lines = [top, stack_line(state)]
    crash = state.pending_crash
    if crash is not None and not state.is_over:
        lines.append(t("stackup.table.crash", player=_name(state, crash)))
    last = last_line(state)
    if last:
        lines.append(last)
    lines += [seat_line(state, seat) for seat in range(len(state.players))]
    recent = list(turns or ())[-RECENT_TURNS:]
    if recent:
        lines.append("-# " + " · ".join(recent))
    return "\n".join(lines)


# ------------------------------------------------------------------ the panel


def _button(live: LiveTable[DiscordGame], choice: Choice) -> dict[str, Any]:
    """The payload of the :class:`HandMove` or :class:`HandStep` of ``choice``."""
    if choice.move is not None:
        return payload_of(choice, HandMove.id_of(live.id, live.version, move_code(choice.move)))
    return payload_of(choice, HandStep.id_of(live.id, live.version, choice.path or ""))


def _view(live: LiveTable[DiscordGame], step: Node) -> Components:
    items: list[tuple[int, dict[str, Any]]] = []
    rows = list(step.rows)
    for row, choices in enumerate(rows[:5]):
        for choice in choices[:5]:
            items.append((row, _button(live, choice)))
    if step.back is not None:
        back = Choice(t("stackup.panel.back"), "secondary", "◀️", path=step.back)
        row = len(rows) if len(rows) < 5 else 4
        items.append((row, _button(live, back)))
    return Components(items)


def hand_panel(live: LiveTable[DiscordGame], seat: int, path: Path = "") -> Panel:
    """``seat``'s private panel at step ``path`` (:func:`build_hand_panel`), built once
    per version of the table (:data:`~bot.games.base.PANELS`)."""
    text, view = PANELS.get(live, seat, path, partial(build_hand_panel, live, seat, path))
    return Panel(text, view)


def build_hand_panel(
    live: LiveTable[DiscordGame], seat: int, path: Path = ""
) -> tuple[str, Components | None]:
    """``seat``'s private panel at step ``path``: their hand sorted, the stack, and — when
    they are to act — the step's question and buttons; otherwise whom the table waits for.
    Raises :class:`~host.refusals.Refusal` when the step no longer exists. Call it under the table's lock
    (it reads the state)."""
    state = live.state
    if not isinstance(state, StackUpState):
        raise Refusal(Why.GAME_NOT_STARTED, hint=False)
    hand = state.hand(seat)
    head = t("stackup.panel.head", cards=n("stackup.count.cards", len(hand)))
    if state.passes[seat]:
        head += " · 🎟️ " + n("stackup.count.passes", state.passes[seat])
    lines = [head, hand_words(hand), t("stackup.panel.stack", stack=stack_line(state))]
    current = state.current_player
    if state.is_over:
        lines.append(t("stackup.panel.over"))
        return fit_message("\n".join(lines), MESSAGE_LIMIT), None
    if current != seat:
        if current is None:
            lines.append(t("stackup.panel.busy", button=button_label("stackup.button.my_hand")))
        else:
            lines.append(
                t("stackup.panel.waiting", player=_name(state, current), asked=asked(state))
            )
        return fit_message("\n".join(lines), MESSAGE_LIMIT), None
    step = node(state.legal_moves(), path, state.players, state.drawn)
    if step is None:
        raise Refused(t(STALE, button=button_label("stackup.button.my_hand")))
    lines.append(step.question)
    return fit_message("\n".join(lines), MESSAGE_LIMIT), _view(live, step)


class HandStep(
    PanelButton,
    template=r"stackup:(?P<table>\d+):(?P<version>\d+):s:(?P<value>[A-Za-z0-9]{0,40})",
):
    """A step of **My hand** (a first card, the next card, a Switch, a Snatch target…):
    redraws the clicker's panel at that step, if the table has not moved on."""

    game, kind = "stackup", "s"

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        live = host.service.table_by_id(self.table_id)
        seat = await host.service.seat_of(live, host.player(interaction))
        # a panel answers its owner only: anyone else gets their own hand, anew
        path = self.value if owns_panel(interaction) else ""
        async with live.lock:  # the committed state, never a step half-played
            if live.version != self.version:
                raise Refused(t(STALE, button=button_label("stackup.button.my_hand")))
            panel = hand_panel(live, seat, path)
        await host.edit_panel(interaction, content=panel.text, view=panel.view)


class HandMove(
    PanelButton,
    template=r"stackup:(?P<table>\d+):(?P<version>\d+):m:(?P<value>[A-Za-z0-9.-]{1,40})",
):
    """A complete decision from **My hand** (play these cards with this bonus, Switch to
    Blue, Snatch 2 from bob, block, keep…): sent to the host as one engine move."""

    game, kind, label = "stackup", "m", "Play"

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        if foreign_panel(interaction):
            raise Refused(FOREIGN_PANEL)
        move = move_of_code(self.value)
        if move is None:
            raise Refused(t("stackup.refusal.not_a_move"))
        await host.play_move(
            interaction, move=move, table_id=self.table_id, version=self.version, edit=True
        )

"""Stack Up! on Discord: the public table message, the picture, the private **My hand**
panel, typed plays (``/play``) and ``/rules``.

Hands are hidden. Everything public — the table message (:meth:`StackUpDiscord.table_parts`),
its picture (:class:`~bot.games.stackup_picture.TablePicture`, built from hand *sizes*),
the turn and game-end texts — is made from what every player may see: the stack, the
last play's cards (on the stack now), hand sizes, the draw pile's size, draw passes, a
pending Crash. A player's own cards appear only in the panel answered to that player
alone (ephemeral, drawn fresh on every click, since ephemeral messages cannot be edited
after 15 minutes).

**My hand** walks the decision tree of :mod:`bot.games.stackup_panel`: step buttons
(:class:`HandStep`, ``stackup:TABLE:VERSION:s:PATH``) redraw the panel at the next step;
a leaf (:class:`HandMove`, ``stackup:TABLE:VERSION:m:CODE``) sends one complete engine
move to the host, which checks the version (a stale panel is refused and changes nothing)
and the move's legality. A step click checks the version too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.games.base import DiscordGame, Host, Panel, PrivateButton, TableParts
from bot.games.stackup_panel import (
    SQUARES,
    Choice,
    Node,
    Path,
    hand_words,
    move_code,
    move_of_code,
    node,
    play_words,
)
from bot.games.stackup_picture import TablePicture, describe, last_turn
from bot.painter import DrawJob
from bot.service import Player, Refusal
from bot.text import MESSAGE_LIMIT, cut, escape_name, fit_message, mention, plain_name, plural
from bot.views import TableButton
from engine import games as engine_games
from engine.errors import AmbiguousMoveError, MoveError
from engine.stackup.cards import COLOUR_LETTERS, COLOUR_NAMES
from engine.stackup.moves import (
    Block,
    Direction,
    Draw,
    Keep,
    Play,
    PlayDrawn,
    PlayerMove,
    Take,
    UsePass,
)
from engine.stackup.state import StackUpState

if TYPE_CHECKING:
    from bot.service import LiveTable

__all__ = ["DISCORD_GAME", "HandMove", "HandStep", "StackUpDiscord", "hand_panel"]

STALE = (
    "This hand is from an older state of the table, so nothing was played. "
    "Press **My hand** on the newest table message."
)
ARROWS = {"up": "⬆️ up (1→15)", "down": "⬇️ down (15→1)"}
RECENT_TURNS = 4  # turns the table message recalls
NOTATION = (
    "**Typing a play** (`/play …`, any case):\n"
    "`/play R7` · `/play R7 R8 R9 skip` (or `pass`: the bonus of 3+ cards) · "
    "`/play flip` · `/play freeze` · `/play crash` · `/play switch blue` · "
    "`/play snatch @bob 2` · `/play block` · `/play take` · `/play keep` · "
    "`/play play` (the card you drew) · `/play up` / `/play down` (the first player)\n"
    "Cards: colour letter and number (`R7`, `G15`; R Red, B Blue, Y Yellow, G Green), "
    "or a special card's name."
)


# ------------------------------------------------------------------ words


def _name(state: StackUpState, seat: int) -> str:
    return escape_name(state.players[seat])


def stack_line(state: StackUpState) -> str:
    """``🟥 **Red 7** · ⬆️ up (1→15) · draw pile **34**``."""
    letter = COLOUR_LETTERS[state.colour]
    way = ARROWS.get(state.direction or "", "direction not chosen yet")
    return (
        f"{SQUARES[letter]} **{COLOUR_NAMES[state.colour]} {state.number}** · {way}"
        f" · draw pile **{state.pile_size}**"
    )


def asked(state: StackUpState) -> str:
    """What the seat to act must decide, in a few words."""
    if state.phase == "direction":
        return "choose the direction"
    if state.phase == "drawn":
        return "play or keep the card they drew"
    if state.pending_crash is not None and state.pending_crash == state.current_player:
        return "block the Crash or take 3 cards"
    return "play"


def last_line(state: StackUpState) -> str | None:
    """The last turn, public facts only: ``Last: **ann** R9 R10 R11 · bonus: skip``."""
    seat, cards, note = last_turn(state)
    if seat is None:
        return None
    parts = [f"Last: **{_name(state, seat)}**"]
    if cards:
        parts.append(" ".join(cards))
    line = " ".join(parts)
    return f"{line} · {escape_name(note)}" if note else line


def seat_line(state: StackUpState, seat: int) -> str:
    """``▶ **ann** · 7 cards · 🎟️ 1 draw pass · 💥 Crash``: a hand's size, never its cards."""
    outcome = state.outcome()
    if outcome is not None and seat in outcome.winners:
        mark = "🏆"
    elif seat == state.current_player:
        mark = "▶"
    else:
        mark = "\u2003"
    parts = [f"{mark} **{_name(state, seat)}**", plural(state.hand_size(seat), "card")]
    if state.passes[seat]:
        parts.append("🎟️ " + plural(state.passes[seat], "draw pass", "draw passes"))
    if state.pending_crash == seat and not state.is_over:
        parts.append("💥 Crash on them")
    return " · ".join(parts)


def field_text(state: StackUpState, turns: Sequence[str] | None) -> str:
    """The table as text: the stack, a pending Crash, the last play, every hand's size,
    the recent turns (``turns``: the host's, escaped). No card of any hand."""
    if state.is_over:
        top = f"**Stack Up!** · game over after {plural(state.turns_taken, 'turn')}"
    else:
        top = (
            f"**Stack Up!** · turn {state.turns_taken + 1} · "
            f"{plural(state.turns_left, 'turn')} left before the limit"
        )
    lines = [top, stack_line(state)]
    crash = state.pending_crash
    if crash is not None and not state.is_over:
        lines.append(
            f"💥 **Crash** on **{_name(state, crash)}**: block it with a Crash or take 3 cards"
        )
    last = last_line(state)
    if last:
        lines.append(last)
    lines += [seat_line(state, seat) for seat in range(len(state.players))]
    recent = list(turns or ())[-RECENT_TURNS:]
    if recent:
        lines.append("-# " + " · ".join(recent))
    return "\n".join(lines)


# ------------------------------------------------------------------ the panel


_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def _style(choice: Choice) -> discord.ButtonStyle:
    return _STYLES[choice.style]


def _button(live: LiveTable, choice: Choice, row: int) -> discord.ui.Item[Any]:
    item: TableButton
    if choice.move is not None:
        item = HandMove(live.id, live.version, move_code(choice.move), choice)
    else:
        item = HandStep(live.id, live.version, choice.path or "", choice)
    item.item.row = row
    return item


def _view(live: LiveTable, step: Node) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    rows = list(step.rows)
    for row, choices in enumerate(rows[:5]):
        for choice in choices[:5]:
            view.add_item(_button(live, choice, row))
    if step.back is not None:
        back = Choice("Back", "secondary", "◀️", path=step.back)
        row = len(rows) if len(rows) < 5 else 4
        view.add_item(_button(live, back, row))
    return view


def hand_panel(live: LiveTable, seat: int, path: Path = "") -> Panel:
    """``seat``'s private panel at step ``path``: their hand sorted, the stack, and — when
    they are to act — the step's question and buttons; otherwise whom the table waits for.
    Raises :class:`Refusal` when the step no longer exists."""
    state = live.state
    if not isinstance(state, StackUpState):
        raise Refusal("The game hasn't started yet. The host presses **Start**.")
    hand = state.hand(seat)
    head = f"🃏 **Your hand** · {plural(len(hand), 'card')}"
    if state.passes[seat]:
        head += " · 🎟️ " + plural(state.passes[seat], "draw pass", "draw passes")
    lines = [head, hand_words(hand), f"Stack: {stack_line(state)}"]
    current = state.current_player
    if state.is_over:
        lines.append("The game is over.")
        return Panel(fit_message("\n".join(lines), MESSAGE_LIMIT))
    if current != seat:
        if current is None:
            lines.append("⏳ The table is busy; press **My hand** again in a moment.")
        else:
            lines.append(f"⏳ Waiting for **{_name(state, current)}** to {asked(state)}.")
        return Panel(fit_message("\n".join(lines), MESSAGE_LIMIT))
    step = node(state.legal_moves(), path, state.players, state.drawn)
    if step is None:
        raise Refusal(STALE)
    lines.append(step.question)
    return Panel(fit_message("\n".join(lines), MESSAGE_LIMIT), _view(live, step))


def _player(interaction: discord.Interaction) -> Player:
    user = interaction.user
    return Player(user.id, getattr(user, "display_name", None) or user.name)


class HandStep(
    TableButton,
    template=r"stackup:(?P<table>\d+):(?P<version>\d+):s:(?P<path>[A-Za-z0-9]{0,40})",
):
    """A step of **My hand** (a first card, the next card, a Switch, a Snatch target…):
    redraws the clicker's panel at that step, if the table has not moved on."""

    def __init__(self, table_id: int, version: int, path: str, looks: Choice | None = None) -> None:
        looks = looks or Choice("…")
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=cut(looks.label, 80),
            emoji=looks.emoji,
            style=_style(looks),
            custom_id=f"stackup:{table_id}:{version}:s:{path}",
        )
        super().__init__(button, table_id, version)
        self.path = path

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        live = host.service.table_by_id(self.table_id)
        seat = await host.service.seat_of(live, _player(interaction))
        if live.version != self.version:
            raise Refusal(STALE)
        panel = hand_panel(live, seat, self.path)
        await host.edit_panel(interaction, content=panel.text, view=panel.view)


class HandMove(
    TableButton,
    template=r"stackup:(?P<table>\d+):(?P<version>\d+):m:(?P<code>[A-Za-z0-9.-]{1,40})",
):
    """A complete decision from **My hand** (play these cards with this bonus, Switch to
    Blue, Snatch 2 from bob, block, keep…): sent to the host as one engine move."""

    def __init__(self, table_id: int, version: int, code: str, looks: Choice | None = None) -> None:
        looks = looks or Choice("Play")
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=cut(looks.label, 80),
            emoji=looks.emoji,
            style=_style(looks),
            custom_id=f"stackup:{table_id}:{version}:m:{code}",
        )
        super().__init__(button, table_id, version)
        self.code = code

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        move = move_of_code(self.code)
        if move is None:
            raise Refusal("That button is not a move of this game; nothing was played.")
        await host.play_move(
            interaction, move=move, table_id=self.table_id, version=self.version, edit=True
        )


# ------------------------------------------------------------------ typed plays

_MENTION = re.compile(r"<@!?(\d+)>")


def named_mentions(text: str, live: LiveTable) -> str:
    """``text`` with each mention of a seated user (``<@123>``) replaced by their seat's
    name, as the engine's parser reads a Snatch's target."""
    state = live.state
    if state is None:
        return text

    def name(match: re.Match[str]) -> str:
        user = int(match[1])
        for seat in live.info.seats:
            if seat.user_id == user:
                return str(state.players[seat.position])
        return match[0]

    return _MENTION.sub(name, text)


class StackUpCommands(commands.Cog):
    """Stack Up!'s own slash command: ``/play``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="play", description="Stack Up!: play cards by typing them")
    @app_commands.describe(
        cards="R7 R8 R9 skip · switch blue · snatch @bob 2 · crash · block · take · keep · up"
    )
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        host: Host = self.bot.tables  # type: ignore[attr-defined]
        channel = interaction.channel_id
        if channel is None:
            raise Refusal("Play in the table's channel.")
        live = host.service.table_in(channel)
        if live.game is not DISCORD_GAME:
            raise Refusal("`/play` is for Stack Up! tables; this table plays another game.")
        await host.play_move(interaction, text=named_mentions(cards, live))


# ------------------------------------------------------------------ the game


def _move_words(state: StackUpState, move: PlayerMove) -> str:
    """A decision in a player's words (buttons of a chooser)."""
    if isinstance(move, Direction):
        return "Up (1→15)" if move.up else "Down (15→1)"
    if isinstance(move, Block):
        return "Block with a Crash"
    if isinstance(move, Take):
        return "Take 3 cards"
    if isinstance(move, Keep):
        return "Keep the card"
    if isinstance(move, UsePass):
        return "Use a draw pass"
    if isinstance(move, Draw):
        return "Draw a card"
    words = (
        "Play the drawn card" if isinstance(move, PlayDrawn) else f"Play {play_words(move.cards)}"
    )
    if isinstance(move, Play) and move.bonus is not None:
        words += " + " + ("draw pass" if move.bonus == "pass" else "skip")
    if move.colour is not None:
        words += f" → {COLOUR_NAMES[move.colour]}"
    if move.target is not None and move.count is not None:
        words += f": {move.count} from {' '.join(state.players[move.target].split())}"
    return cut(words, 80)


class StackUpDiscord(DiscordGame):
    """Stack Up! on Discord (see the module's description)."""

    private_button = PrivateButton("My hand", "🃏")
    hidden_information = True
    dynamic_items = (HandStep, HandMove)

    def __init__(self) -> None:
        self.game = engine_games.get("stackup")

    # ------------------------------------------------------------ lobby and rules

    def lobby_summary(self, settings: BaseModel) -> list[str]:
        limit = getattr(settings, "turn_limit", None)
        line = "Stack Up! · 2–6 players · 10 cards each · first to empty their hand wins"
        return [line] + (
            [f"The game ends after {limit} turns (fewest cards win)."] if limit else []
        )

    def rules_brief(self) -> str:
        return fit_message(
            "**Stack Up!** (2–6 players, 10 cards each; empty your hand to win)\n"
            "80 cards: 1–15 in 🟥 Red, 🟦 Blue, 🟨 Yellow, 🟩 Green, and four each of "
            "Flip, Freeze, Snatch, Switch, Crash. The first player chooses the direction, "
            "up or down.\n"
            "**A play**: a card of the stack's colour, or the next number in the direction "
            "(any colour); then more cards of that colour, each one step further "
            "(`R7 R8 R9`). 3+ cards that leave you cards earn a bonus: a **draw pass** or "
            "a **skip** of the next player. Or one special card: **Flip** reverses the "
            "direction, **Freeze** skips the next player, **Snatch** takes 1–3 random cards "
            "from a player with 2+, **Switch** names a new colour, **Crash** makes the next "
            "player take 3 cards unless they block with a Crash. Flip, Freeze and Snatch may "
            "not be your last card.\n"
            "**Stuck?** A draw pass is used, else you draw 1 and may play it alone.\n"
            "Your cards are secret: press **My hand** under the table to see them and play "
            "step by step (first card, next cards, play these).\n" + NOTATION
        )

    # ------------------------------------------------------------ the table message

    def table_parts(
        self,
        state: Any,
        *,
        current_user: int | None,
        turns: Sequence[str] | None,
        deadline: datetime | None = None,
        note: str | None = None,
    ) -> TableParts:
        assert isinstance(state, StackUpState)
        when = f" · time runs out <t:{int(deadline.timestamp())}:R>" if deadline else ""
        seat = state.current_player
        outcome = state.outcome()
        if outcome is not None:
            winners = " & ".join(f"**{_name(state, s)}**" for s in outcome.winners)
            how = (
                "emptied their hand"
                if outcome.ended_by == "empty_hand"
                else "fewest cards at the turn limit"
            )
            verb = "share the win" if len(outcome.winners) > 1 else "wins"
            head = f"🏆 {winners} {verb} ({how})!"
        elif seat is not None and current_user:
            head = f"▶ {mention(current_user)}, it's your turn: {asked(state)}{when}"
        elif seat is not None:
            head = f"▶ **{_name(state, seat)}** to {asked(state)}{when}"
        else:
            head = "…"
        if note:
            head += "\n" + cut(note, 300)
        room = MESSAGE_LIMIT - len(head) - 1
        field = fit_message(field_text(state, turns), room)
        return TableParts(head, field, self.accent(state), self.alt_text(state))

    def alt_text(self, state: Any) -> str:
        picture = TablePicture.of(state)
        names = tuple(plain_name(name) for name in picture.names)
        return cut(describe(replace(picture, names=names)), 1024)

    def picture(self, state: Any, *, theme: str, turn_seconds: int | None) -> DrawJob | None:
        shown = TablePicture.of(
            state, theme="light" if theme == "light" else "dark", turn_seconds=turn_seconds
        )
        return DrawJob("bot.games.stackup_picture:draw_table", (shown,))

    def mid_turn(self, state: Any) -> bool:
        return isinstance(state, StackUpState) and state.phase == "drawn"

    # ------------------------------------------------------------ what happened

    def game_end_texts(self, state: Any) -> list[str]:
        outcome = state.outcome()
        names = " & ".join(f"**{_name(state, s)}**" for s in outcome.winners)
        verb = "share the win" if len(outcome.winners) > 1 else "wins"
        how = (
            "by emptying their hand"
            if outcome.ended_by == "empty_hand"
            else f"with the fewest cards after {plural(state.turns_taken, 'turn')}"
        )
        left = ", ".join(
            f"{_name(state, seat)} {plural(size, 'card')}"
            for seat, size in enumerate(state.hand_sizes)
        )
        return [fit_message(f"🏆 {names} {verb} {how}! Cards left: {left}.")]

    # ------------------------------------------------------------ moves

    def move_code(self, move: Any) -> str:
        return move_code(move)

    def move_from_code(self, state: Any, code: str) -> Any | None:
        move = move_of_code(code)
        return move if move is not None and state.is_legal(move) else None

    def move_label(self, state: Any, move: Any) -> str:
        return _move_words(state, move)

    def refusal_words(self, error: MoveError) -> str:
        return escape_name(str(error)) if str(error) else "That can't be played now."

    def chooser_text(self, state: Any, error: AmbiguousMoveError) -> str:
        return "Which do you mean? (or press **My hand**)"

    async def panel(self, host: Host, live: LiveTable, seat: int) -> Panel:
        return hand_panel(live, seat)

    def cog(self, bot: commands.Bot) -> commands.Cog | None:
        return StackUpCommands(bot)


DISCORD_GAME = StackUpDiscord()

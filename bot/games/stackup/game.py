"""Stack Up! on Discord: the game's :class:`~bot.games.base.DiscordGame` — the public
table message and its picture, **My hand**, typed plays (``/play``) and ``/rules``.

Hands are hidden. Everything public — the table message (:meth:`StackUpDiscord.table_parts`,
words of :mod:`bot.games.stackup.views`), its picture
(:class:`~pictures.stackup.TablePicture`, built from hand *sizes*), the turn and
game-end texts — is made from what every player may see: the stack, the last play's cards
(on the stack now), hand sizes, the draw pile's size, draw passes, a pending Crash. A
player's own cards appear only in the panel answered to that player alone (ephemeral,
drawn fresh on every click: ephemeral messages cannot be edited after 15 minutes).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.games.base import DiscordGame, Host, Panel, PrivateButton
from bot.games.stackup.panel import move_code, move_of_code, play_words
from bot.games.stackup.views import HandMove, HandStep, asked, field_text, hand_panel, seat_line
from bot.refusal_words import Refused
from bot.sheets import summary_line
from bot.text import cut, escape_name, fit_message, plain_name, plural
from engine import games as engine_games
from engine.errors import AmbiguousMoveError, MoveError
from engine.stackup import moves
from engine.stackup.cards import COLOUR_NAMES
from engine.stackup.describe import direction_words
from engine.stackup.notation import move_notation
from engine.stackup.state import StackUpState
from pictures.painter import DrawJob
from pictures.stackup import TablePicture, describe

if TYPE_CHECKING:
    from host.live import LiveTable
    from persistence.records import GameSummary, ScoreSheet

__all__ = ["DISCORD_GAME", "NOTATION", "StackUpDiscord", "named_mentions"]

NOTATION = (
    "**Typing a play** (`/play …`, any case):\n"
    "`/play R7` · `/play R7 R8 R9 skip` (or `pass`: the bonus of 3+ cards) · "
    "`/play flip` · `/play freeze` · `/play crash` · `/play switch blue` · "
    "`/play snatch @bob 2` · `/play block` · `/play take` · `/play keep` · "
    "`/play play` (the card you drew) · `/play up` / `/play down` (the first player)\n"
    "Cards: colour letter and number (`R7`, `G15`; R Red, B Blue, Y Yellow, G Green), "
    "or a special card's name."
)


ENDED_BY = {"empty_hand": "emptied their hand", "turn_limit": "fewest cards at the turn limit"}


def _name(state: StackUpState, seat: int) -> str:
    return escape_name(state.players[seat])


# ------------------------------------------------------------------ typed plays

_MENTION = re.compile(r"<@!?(\d+)>")
QUOTES = '"“”'


def named_mentions(text: str, live: LiveTable[DiscordGame]) -> str:
    """``text`` with each mention of a seated user (``<@123>``) replaced by their seat's
    name in double quotes (read whole by the engine's parser, spaces and all), as a
    Snatch's target is typed. It reads the table's state: call it under the table's lock."""
    state = live.state
    if state is None:
        return text

    def name(match: re.Match[str]) -> str:
        user = int(match[1])
        for seat in live.info.seats:
            if seat.user_id == user:
                name = str(state.players[seat.position])
                return name if any(q in name for q in QUOTES) else f'"{name}"'
        return match[0]

    return _MENTION.sub(name, text)


class StackUpCommands(commands.Cog):
    """Stack Up!'s own slash command: ``/play``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="play", description="Stack Up!: play cards by typing them")
    @app_commands.guild_only()
    @app_commands.describe(
        cards="R7 R8 R9 skip · switch blue · snatch @bob 2 · crash · block · take · keep · up"
    )
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        host: Host = self.bot.tables  # type: ignore[attr-defined]
        channel = interaction.channel_id
        if channel is None:
            raise Refused("Play in the table's channel.")
        live = host.service.table_in(channel)
        if live.game is not DISCORD_GAME:
            raise Refused("`/play` is for Stack Up! tables; this table plays another game.")
        async with live.lock:
            text = named_mentions(cards, live)
        await host.play_move(interaction, text=text)


# ------------------------------------------------------------------ the game


# the decisions without cards in a player's words, by their notation
_PLAIN_WORDS = {
    "up": "Up (1→15)",
    "down": "Down (15→1)",
    "block": "Block with a Crash",
    "take": "Take 3 cards",
    "keep": "Keep the card",
    "pass": "Use a draw pass",
    "draw": "Draw a card",
}


def _move_words(state: StackUpState, move: moves.PlayerMove) -> str:
    """A decision in a player's words (buttons of a chooser)."""
    if not isinstance(move, (moves.Play, moves.PlayDrawn)):
        return _PLAIN_WORDS[move_notation(state, move)]
    words = (
        "Play the drawn card"
        if isinstance(move, moves.PlayDrawn)
        else f"Play {play_words(move.cards)}"
    )
    if isinstance(move, moves.Play) and move.bonus is not None:
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
    figure_name = ("card left", "cards left")  # the outcome's figure: fewest wins
    table_options: Mapping[str, str] = MappingProxyType({"turn_limit": "turn_limit"})
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

    def rules_brief(self, locale: str | None = None) -> str:
        # English only: the locale is ignored
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

    def end_line(self, state: Any) -> str:
        outcome = state.outcome()
        winners = " & ".join(f"**{_name(state, s)}**" for s in outcome.winners)
        how = ENDED_BY.get(outcome.ended_by, outcome.ended_by)
        verb = "share the win" if len(outcome.winners) > 1 else "wins"
        return f"🏆 {winners} {verb} ({how})!"

    def your_turn_words(self, state: Any, seat: int) -> str:
        return f": {asked(state)}"

    def to_move_words(self, state: Any, seat: int) -> str:
        return f"**{_name(state, seat)}** to {asked(state)}"

    def field_text(self, state: Any, turns: Sequence[str] | None) -> str:
        return field_text(state, turns)

    def alt_text(self, state: Any) -> str:
        picture = TablePicture.of(state)
        names = tuple(plain_name(name) for name in picture.names)
        return cut(describe(replace(picture, names=names)), 1024)

    def picture(self, state: Any, *, theme: str, turn_seconds: int | None) -> DrawJob | None:
        shown = TablePicture.of(
            state, theme="light" if theme == "light" else "dark", turn_seconds=turn_seconds
        )
        return DrawJob("stackup", (shown,))

    def mid_turn(self, state: Any) -> bool:
        return isinstance(state, StackUpState) and state.phase == "drawn"

    # ------------------------------------------------------------ what happened

    def decision_text(self, state: Any, seat: int, move: Any) -> str | None:
        """The first player's choice of direction (a decision, not a turn): told to the
        table, which otherwise would learn it only from the stack's arrow."""
        if isinstance(move, moves.Direction) and isinstance(state, StackUpState):
            return direction_words(state)
        return None

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

    async def panel(self, host: Host, live: LiveTable[DiscordGame], seat: int) -> Panel:
        return hand_panel(live, seat)

    # ------------------------------------------------------------ records and stats

    def score_text(self, sheet: ScoreSheet, state: Any = None) -> str:
        """``/scores``: Stack Up! has no points and no rounds. While the game runs, every
        hand's size (public, as on the table message; never a card); once it is over, the
        winners and the cards left in every hand (the fewest cards win)."""
        title = "**Stack Up!** · "
        if sheet.winners is not None:
            winners = " & ".join(f"**{escape_name(n)}**" for n in sheet.winners)
            verb = "share the win" if len(sheet.winners) > 1 else "wins"
            sizes = dict(zip(sheet.names, sheet.totals, strict=True))
            kept = min((sizes.get(n, 0) for n in sheet.winners), default=0)
            how = "by playing every card" if kept == 0 else f"with the fewest cards left ({kept})"
            left = ", ".join(
                f"{escape_name(name)} {plural(size, 'card')}"
                for name, size in zip(sheet.names, sheet.totals, strict=True)
            )
            return fit_message(f"{title}🏆 {winners} {verb} {how}.\nCards left: {left}.")
        if isinstance(state, StackUpState) and not state.is_over:
            lines = [f"{title}the game is on: the cards in every hand"]
            lines += [seat_line(state, seat) for seat in range(state.n)]
            return fit_message("\n".join(lines))
        names = ", ".join(escape_name(name) for name in sheet.names)
        return fit_message(
            f"{title}{names}: the game is on, and the fewest cards left will win. Every "
            "hand's size is on the table message (`/table show`)."
        )

    def history_line(self, number: int, summary: GameSummary) -> str:
        how = ENDED_BY.get(summary.ended_by, "")
        return summary_line(number, summary, self.figure_name[1], how)

    def cog(self, bot: commands.Bot) -> commands.Cog | None:
        return StackUpCommands(bot)


DISCORD_GAME = StackUpDiscord()

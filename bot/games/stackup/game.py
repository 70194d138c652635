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

import catalog
from bot.games.base import DiscordGame, Host, Panel, PrivateButton, shown_to_move
from bot.games.stackup.panel import move_code, move_of_code, play_words
from bot.games.stackup.views import HandMove, HandStep, asked, field_text, hand_panel, seat_line
from bot.refusal_words import Refused
from bot.sheets import summary_line
from bot.text import button_label, cut, escape_name, fit_message, label_name, plain_name
from catalog import n, t
from catalog.stackup import WORDS, colour_name
from engine import games as engine_games
from engine.errors import AmbiguousMoveError, MoveError
from engine.game import TurnEnded
from engine.stackup import moves
from engine.stackup.notation import move_notation
from engine.stackup.rules import PENALTY_CARDS
from engine.stackup.state import StackUpState
from pictures.painter import DrawJob
from pictures.stackup import TablePicture, describe

if TYPE_CHECKING:
    from host.live import LiveTable
    from persistence.records import GameSummary, ScoreSheet

__all__ = ["DISCORD_GAME", "StackUpDiscord", "named_mentions", "notation_text"]


def notation_text() -> str:
    """How a play is typed with ``/play``, in the current language (the commands as typed)."""
    return t("stackup.discord.notation")


# how a game ended, by the outcome's ``ended_by``: catalog keys
ENDED_BY = {"empty_hand": "stackup.ended.empty_hand", "turn_limit": "stackup.ended.turn_limit"}


def _ended_by(ended_by: str | None, default: str | None = None) -> str:
    key = ENDED_BY.get(ended_by or "")
    if key is None:
        return ended_by or "" if default is None else default
    return t(key)


class _Said:
    """A class attribute said in the current language each time it is read (a game's
    private button and figure name are read where the table or the leaderboard is
    worded, in the language spoken there)."""

    def __init__(self, make: Any) -> None:
        self.make = make

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        return self.make()


def _winners(state: Any, seats: Sequence[int]) -> str:
    return catalog.together(f"**{_name(state, s)}**" for s in seats)


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


def mentions_a_stranger(text: str, live: LiveTable[DiscordGame], user_id: int) -> bool:
    """Whether ``text`` is a Snatch, typed by the player to move (``user_id``), at a user
    mentioned who has no seat at the table. Anyone else's text, and any other, is refused
    as the host refuses it; a mention that is part of a seated player's name is that
    name."""
    words = text.strip().removeprefix("/").lower().split()
    if words[:1] != ["snatch"] and words[:2] != ["play", "snatch"]:
        return False
    if live.state is None or live.current_user() != user_id:
        return False
    seated = {seat.user_id for seat in live.info.seats}
    names = [str(name) for name in live.state.players]
    return any(
        int(found[1]) not in seated and not any(found[0] in name for name in names)
        for found in _MENTION.finditer(text)
    )


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
            raise Refused(t("stackup.refusal.channel"))
        live = host.service.table_in(channel)
        if live.game is not DISCORD_GAME:
            raise Refused(t("stackup.refusal.other_game"))
        if mentions_a_stranger(cards, live, interaction.user.id):
            raise Refused(t("stackup.refusal.not_seated"))
        async with live.lock:
            text = named_mentions(cards, live)
        await host.play_move(interaction, text=text)


# ------------------------------------------------------------------ the game


# the decisions without cards in a player's words, by their notation: catalog keys
_PLAIN_WORDS = {
    "up": "stackup.label.up",
    "down": "stackup.label.down",
    "block": "stackup.label.block",
    "keep": "stackup.label.keep",
    "pass": "stackup.label.use_pass",
    "draw": "stackup.label.draw",
}


def _move_words(state: StackUpState, move: moves.PlayerMove) -> str:
    """A decision in a player's words (buttons of a chooser)."""
    if not isinstance(move, (moves.Play, moves.PlayDrawn)):
        typed = move_notation(state, move)
        if typed == "take":
            return n("stackup.label.take", PENALTY_CARDS)
        return t(_PLAIN_WORDS[typed])
    words = (
        t("stackup.label.play_drawn")
        if isinstance(move, moves.PlayDrawn)
        else t("stackup.label.play", cards=play_words(move.cards))
    )
    if isinstance(move, moves.Play) and move.bonus is not None:
        key = "stackup.label.plus_pass" if move.bonus == "pass" else "stackup.label.plus_skip"
        words = t(key, move=words)
    if move.colour is not None:
        words = t("stackup.label.to_colour", move=words, colour=colour_name(move.colour))
    if move.target is not None and move.count is not None:
        who = label_name(state.players[move.target])
        words = t("stackup.label.snatch_from", move=words, count=move.count, player=who)
    return cut(words, 80)


class StackUpDiscord(DiscordGame):
    """Stack Up! on Discord (see the module's description)."""

    private_button = _Said(lambda: PrivateButton(t("stackup.button.my_hand"), "🃏"))
    hidden_information = True
    # the outcome's figure (fewest wins), in the language spoken where it is read
    figure_name = _Said(lambda: (t("stackup.figure.card_left"), t("stackup.figure.cards_left")))
    table_options: Mapping[str, str] = MappingProxyType({"turn_limit": "turn_limit"})
    dynamic_items = (HandStep, HandMove)

    def __init__(self) -> None:
        self.game = engine_games.get("stackup")

    # ------------------------------------------------------------ lobby and rules

    def lobby_summary(self, settings: BaseModel) -> list[str]:
        limit = getattr(settings, "turn_limit", None)
        line = t("stackup.lobby.summary")
        return [line] + ([n("stackup.lobby.limit", limit)] if limit else [])

    def rules_brief(self, locale: str | None = None) -> str:
        """The rules in short and how to play them here, in ``locale``'s language (a
        Discord locale such as ``ja``; none: the language being spoken)."""
        language = catalog.language_of(locale, catalog.current()) if locale else catalog.current()
        with catalog.speaking(language):
            return fit_message(
                t(
                    "stackup.rules.brief",
                    notation=notation_text(),
                    button=button_label("stackup.button.my_hand"),
                )
            )

    # ------------------------------------------------------------ the table message

    def end_line(self, state: Any) -> str:
        outcome = state.outcome()
        winners = _winners(state, outcome.winners)
        how = _ended_by(outcome.ended_by)
        key = "stackup.end.line_many" if len(outcome.winners) > 1 else "stackup.end.line_one"
        return t(key, winners=winners, how=how)

    def your_turn_words(self, state: Any, seat: int) -> str:
        return t("stackup.prompt.yours", asked=asked(state))

    def to_move_words(self, state: Any, seat: int) -> str:
        return t("stackup.prompt.to_move", player=_name(state, seat), asked=asked(state))

    def field_text(self, state: Any, turns: Sequence[str] | None) -> str:
        return field_text(state, turns)

    def alt_text(self, state: Any) -> str:
        picture = TablePicture.of(state)
        names = tuple(plain_name(name) for name in picture.names)
        shown = replace(picture, names=names, current=shown_to_move(state))
        return cut(describe(shown), 1024)

    def picture(self, state: Any, *, theme: str, turn_seconds: int | None) -> DrawJob | None:
        shown = TablePicture.of(
            state, theme="light" if theme == "light" else "dark", turn_seconds=turn_seconds
        )
        return DrawJob("stackup", (shown,))

    def mid_turn(self, state: Any) -> bool:
        return isinstance(state, StackUpState) and state.phase == "drawn"

    # ------------------------------------------------------------ what happened

    def turn_text(self, state: Any, event: TurnEnded) -> str:
        """A turn that just ended, in words everyone may see, in the language spoken."""
        return WORDS.turn_words(state, event)

    def decision_text(self, state: Any, seat: int, move: Any) -> str | None:
        """The first player's choice of direction (a decision, not a turn): told to the
        table, which otherwise would learn it only from the stack's arrow."""
        if isinstance(move, moves.Direction) and isinstance(state, StackUpState):
            return WORDS.direction_words(state)
        return None

    def game_end_texts(self, state: Any) -> list[str]:
        outcome = state.outcome()
        names = _winners(state, outcome.winners)
        how = (
            t("stackup.end.by_emptying")
            if outcome.ended_by == "empty_hand"
            else t("stackup.end.by_fewest", turns=n("stackup.count.turns", state.turns_taken))
        )
        left = t("list.comma").join(
            t("stackup.end.left", player=_name(state, seat), cards=n("stackup.count.cards", size))
            for seat, size in enumerate(state.hand_sizes)
        )
        key = "stackup.end.text_many" if len(outcome.winners) > 1 else "stackup.end.text_one"
        return [fit_message(t(key, winners=names, how=how, left=left))]

    # ------------------------------------------------------------ moves

    def move_code(self, move: Any) -> str:
        return move_code(move)

    def move_from_code(self, state: Any, code: str) -> Any | None:
        move = move_of_code(code)
        return move if move is not None and state.is_legal(move) else None

    def move_label(self, state: Any, move: Any) -> str:
        return _move_words(state, move)

    def refusal_text(self, error: MoveError) -> str:
        if not str(error):
            return t("stackup.error.other")
        return WORDS.error_text(error)

    def chooser_text(self, state: Any, error: AmbiguousMoveError) -> str:
        return t("stackup.chooser", button=button_label("stackup.button.my_hand"))

    async def panel(self, host: Host, live: LiveTable[DiscordGame], seat: int) -> Panel:
        return hand_panel(live, seat)

    # ------------------------------------------------------------ records and stats

    def score_text(self, sheet: ScoreSheet, state: Any = None) -> str:
        """``/scores``: Stack Up! has no points and no rounds. While the game runs, every
        hand's size (public, as on the table message; never a card); once it is over, the
        winners and the cards left in every hand (the fewest cards win)."""
        if sheet.winners is not None:
            winners = catalog.together(f"**{escape_name(name)}**" for name in sheet.winners)
            sizes = dict(zip(sheet.names, sheet.totals, strict=True))
            kept = min((sizes.get(name, 0) for name in sheet.winners), default=0)
            how = (
                t("stackup.score.every_card") if kept == 0 else t("stackup.score.fewest", kept=kept)
            )
            left = t("list.comma").join(
                t(
                    "stackup.end.left",
                    player=escape_name(name),
                    cards=n("stackup.count.cards", size),
                )
                for name, size in zip(sheet.names, sheet.totals, strict=True)
            )
            key = "stackup.score.over_many" if len(sheet.winners) > 1 else "stackup.score.over_one"
            return fit_message(t(key, winners=winners, how=how, left=left))
        if isinstance(state, StackUpState) and not state.is_over:
            lines = [t("stackup.score.on")]
            lines += [seat_line(state, seat) for seat in range(state.n)]
            return fit_message("\n".join(lines))
        names = t("list.comma").join(escape_name(name) for name in sheet.names)
        return fit_message(t("stackup.score.on_names", names=names))

    def history_line(self, number: int, summary: GameSummary) -> str:
        how = _ended_by(summary.ended_by, "")
        return summary_line(number, summary, self.figure_name[1], how)

    def cog(self, bot: commands.Bot) -> commands.Cog | None:
        return StackUpCommands(bot)


DISCORD_GAME = StackUpDiscord()

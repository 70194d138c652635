"""A front end of the host that is not Discord: every game with plain words of the tests'
own (the host composes none), for the tests that play tables through
:class:`host.service.TableService` without discord.py."""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from engine import games
from engine.errors import AmbiguousMoveError
from engine.game import RoundEnded, TurnEnded
from host.refusals import Refusal, Why
from host.words import Notice
from terminal.hosting import TerminalHostedGame


class PlainGame(TerminalHostedGame):
    """An engine game with plain words of the tests' own (its settings, moves' labels and
    the rest as the terminal's)."""

    def start_text(self, state: Any) -> str:
        return f"start: {state.players[state.current_player]}"

    def turn_text(self, state: Any, event: TurnEnded) -> str:
        return "turn: " + self.game.turn_words(state, event)

    def round_text(self, state: Any, event: RoundEnded) -> str | None:
        return f"round {event.round_no}"

    def game_end_texts(self, state: Any) -> list[str]:
        return ["over"]

    def chooser_text(self, state: Any, error: AmbiguousMoveError) -> str:
        return "which?"

    def hint_text(self, state: Any) -> str:
        return self.game.hint(state)[1]


class PlainFront:
    """Every registered game, each notice as its code and facts."""

    default_game = "stack"

    def game_names(self) -> tuple[str, ...]:
        return tuple(games.names())

    def game(self, name: str) -> PlainGame:
        return PlainGame(games.get(name))

    def turn_line(self, words: str, *, automatic: bool) -> str:
        return f"[{words}]" + (" (timer)" if automatic else "")

    def notice(self, notice: Notice, data: Mapping[str, Any]) -> str:
        return f"{notice.value} {sorted(data.items())}"

    def plain(self, line: str) -> str:
        return line

    def speaking(self, info: Any) -> AbstractContextManager[object]:
        return nullcontext()


async def code_of(work: Awaitable[Any]) -> tuple[Why, Mapping[str, Any]]:
    """The code and facts of the refusal ``work`` raises (it must be refused)."""
    try:
        await work
    except Refusal as refusal:
        return refusal.code, refusal.data
    raise AssertionError("not refused")

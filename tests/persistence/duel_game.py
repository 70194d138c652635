"""Duel: a tiny two-player board game with what Color Stack brings to the host, so that
the host and storage are tested apart from Color Stack (registered for a test by
:func:`register`, in the engine's registry and, with :func:`register_discord`, the bot's).

Shaped like Color Stack where the host can tell: exactly two players, no chance, a win
(``"target"``), a draw by threefold repetition or by the turn limit (an outcome with no
winner), a resignation by either player whoever is to move (``off_turn_moves``: anything
else out of turn is refused with ``NOT_YOUR_TURN``), and an AI level that thinks
(``thinking_levels``: ``slow``, which waits for the test's :data:`GATE`; ``broken``,
which fails).

The rules: a counter starts at 0. On a turn a player adds 1 or 2 (never past the
target) or passes. Whoever brings the counter to the target wins. A position is the
counter and the player to move; its third occurrence draws the game, and so does the
turn limit.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from typing import Annotated, Any, Self

import pytest
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from engine import games
from engine.errors import IllegalMoveError, IllegalReason, InvalidMoveError
from engine.game import Decision, Event, Game, GameEnded, Goal, Outcome, SetupError, TurnEnded

Move = tuple[Any, ...]  # ("add", 1 | 2), ("pass",) or ("resign",)
PASS: Move = ("pass",)
RESIGN: Move = ("resign",)
STARTED = threading.Event()  # set when the slow AI starts thinking
GATE = threading.Event()  # the slow AI answers once this is set
GATE_TIMEOUT = 30.0  # a test that forgets to open the gate fails, never hangs


class DuelSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    target: Annotated[StrictInt, Field(ge=1, le=100)] = 10
    turn_limit: Annotated[StrictInt, Field(ge=1, le=500)] = 40


class DuelState:
    def __init__(self, players: Sequence[str], settings: DuelSettings) -> None:
        self.players = tuple(players)
        self.settings = settings
        self.count = 0
        self.current = 0
        self.turns = 0
        self.log: list[list[Any]] = []  # [seat, move]
        self.seen: dict[str, int] = {self._position(): 1}
        self.ended_by: str | None = None
        self.winner: int | None = None

    def _position(self) -> str:
        return f"{self.count}:{self.current}"

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.current

    @property
    def decision(self) -> Decision:
        return Decision.OVER if self.is_over else Decision.TURN

    @property
    def is_over(self) -> bool:
        return self.ended_by is not None

    def legal_moves(self) -> list[Move]:
        if self.is_over:
            return []
        room = self.settings.target - self.count
        return [*(("add", n) for n in (1, 2) if n <= room), PASS]

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move, by=self.current)
        except IllegalMoveError:
            return False
        return True

    def check(self, move: Move, *, by: int | None = None) -> None:
        if self.is_over:
            raise IllegalMoveError("The game is over.", IllegalReason.GAME_OVER)
        if move == RESIGN:
            return  # either player, whoever is to move
        if by is not None and by != self.current:
            raise IllegalMoveError(
                f"It's {self.players[self.current]}'s turn; you may only resign.",
                IllegalReason.NOT_YOUR_TURN,
            )
        if move not in self.legal_moves():
            raise IllegalMoveError(
                f"{move!r} would pass {self.settings.target}.", IllegalReason.WRONG_DECISION
            )

    def apply(self, move: Move, *, by: int | None = None) -> Sequence[Event]:
        move = tuple(move)
        self.check(move, by=by)
        seat = self.current if by is None else by
        self.log.append([seat, list(move)])
        if move == RESIGN:
            self.ended_by, self.winner = "resignation", 1 - seat
            return (GameEnded(),)
        if move[0] == "add":
            self.count += int(move[1])
        self.turns += 1
        if self.count == self.settings.target:
            self.ended_by, self.winner = "target", seat
            return (TurnEnded(seat), GameEnded())
        self.current = 1 - seat
        position = self._position()
        self.seen[position] = self.seen.get(position, 0) + 1
        if self.seen[position] >= 3:
            self.ended_by = "repetition"
        elif self.turns >= self.settings.turn_limit:
            self.ended_by = "turn_limit"
        return (TurnEnded(seat), GameEnded()) if self.is_over else (TurnEnded(seat),)

    def sample_chance(self, rng: random.Random) -> Move:
        raise ValueError("Duel has no chance")

    def outcome(self) -> Outcome | None:
        if self.ended_by is None:
            return None
        winners = () if self.winner is None else (self.winner,)
        scores = tuple(int(s == self.winner) for s in range(2))
        return Outcome(winners, scores, self.ended_by)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "settings": self.settings.model_dump(),
            "count": self.count,
            "current": self.current,
            "turns": self.turns,
            "log": [list(t) for t in self.log],
            "seen": dict(self.seen),
            "ended_by": self.ended_by,
            "winner": self.winner,
        }

    def copy(self) -> Self:
        return type(self).from_dict(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        self = cls(data["players"], DuelSettings.model_validate(data["settings"]))
        self.count = data["count"]
        self.current = data["current"]
        self.turns = data["turns"]
        self.log = [list(t) for t in data["log"]]
        self.seen = dict(data["seen"])
        self.ended_by = data["ended_by"]
        self.winner = data["winner"]
        return self


def greedy(state: DuelState) -> Move:
    """Reach the target when it is in reach, else add 1."""
    room = state.settings.target - state.count
    return ("add", room) if room in (1, 2) else ("add", 1)


class DuelAI:
    def __init__(self, level: str) -> None:
        self.level = level

    def choose(self, state: DuelState, rng: random.Random) -> Move:
        if self.level == "random":
            return rng.choice(state.legal_moves())
        if self.level == "slow":  # thinks until the test opens the gate
            STARTED.set()
            if not GATE.wait(GATE_TIMEOUT):
                raise TimeoutError("the test never opened the gate")
            return PASS
        if self.level == "broken":
            raise RuntimeError("the search broke")
        return greedy(state)


class DuelGame(Game[DuelState]):
    name = "duel"
    title = "Duel"
    min_players = 2
    max_players = 2
    settings = DuelSettings
    ai_levels = ("random", "greedy", "slow", "broken")
    record_format = "duel-record/1"
    off_turn_moves = True
    thinking_levels = ("slow", "broken")

    def seat_order(self, names: Sequence[str], settings: BaseModel) -> tuple[str, ...]:
        if len(names) != 2:
            raise SetupError("Duel is for 2 players.")
        return tuple(names)

    def new_state(self, players: Sequence[str], settings: BaseModel) -> DuelState:
        return DuelState(players, DuelSettings.model_validate(settings.model_dump()))

    def state_from_dict(self, data: dict[str, Any]) -> DuelState:
        return DuelState.from_dict(data)

    def round_scores(self, state: DuelState) -> Sequence[Sequence[int]]:
        return ()

    def goal(self, state: DuelState) -> Goal:
        return Goal(turn_limit=state.settings.turn_limit)

    def encode_move(self, move: Any) -> Any:
        return list(move)

    def decode_move(self, data: Any) -> Move:
        return tuple(data)

    def parse_move(self, state: DuelState, text: str, seat: int | None = None) -> Move:
        words = text.split()
        if words == ["resign"]:
            move: Move = RESIGN
        elif words == ["pass"]:
            move = PASS
        elif len(words) == 2 and words[0] == "add" and words[1] in ("1", "2"):
            move = ("add", int(words[1]))
        else:
            raise InvalidMoveError(f"{text!r} is not a move: add 1, add 2, pass or resign.")
        state.check(move, by=seat)
        return move

    def move_notation(self, state: DuelState, move: Any) -> str:
        return " ".join(str(part) for part in move)

    def move_words(self, state: DuelState, move: Any) -> str:
        return self.move_notation(state, move)

    def turn_words(self, state: DuelState, event: TurnEnded) -> str:
        seat, move = state.log[-1]
        return f"{state.players[seat]} played {' '.join(str(p) for p in move)}"

    def make_ai(self, level: str) -> DuelAI:
        return DuelAI(level)

    def hint(self, state: DuelState) -> tuple[Any, str]:
        return greedy(state), "the greedy move"

    def export_record(self, state: DuelState, meta: Any = None) -> dict[str, Any]:
        return {
            "format": self.record_format,
            "players": list(state.players),
            "turns": [list(t) for t in state.log],
        }

    def render_text(self, state: DuelState, viewer: int | None = None) -> str:
        return f"Counter {state.count} of {state.settings.target}"

    def rules_text(self) -> str:
        return "Add 1 or 2; whoever reaches the target wins."

    def stats_figures(self, state: DuelState, seat: int) -> dict[str, int]:
        return {"moves": sum(1 for who, _ in state.log if who == seat)}


GAME = DuelGame()


def register(monkeypatch: pytest.MonkeyPatch) -> DuelGame:
    """Until the test ends, :func:`engine.games.get` knows ``"duel"`` too; the slow AI's
    events start cleared."""
    known = games.get

    def get(name: str) -> Game[Any]:
        return GAME if name == GAME.name else known(name)

    monkeypatch.setattr(games, "get", get)
    STARTED.clear()
    GATE.clear()
    return GAME


def register_discord(monkeypatch: pytest.MonkeyPatch) -> Any:
    """:func:`register`, and the bot's registry hosts Duel with the default Discord
    interface (:class:`bot.games.base.DiscordGame`) until the test ends."""
    from bot import games as hosted
    from bot.games.base import DiscordGame

    register(monkeypatch)

    class DuelOnDiscord(DiscordGame):
        game = GAME

    played = DuelOnDiscord()
    monkeypatch.setitem(hosted._MODULES, GAME.name, __name__)
    monkeypatch.setitem(hosted._loaded, GAME.name, played)
    return played

"""Shed: a tiny second game, to show storage keeps any game behind the interface of
:mod:`engine.game` (registered for a test by :func:`register`).

Shaped like Stack Up! where storage can tell: a settings model whose key is
``turn_limit``; chance outcomes and moves through the game's JSON codec; no rounds; an
outcome whose scores are cards left in hand, ``higher_wins=False``, ended by
``"empty_hand"`` or ``"turn_limit"``; a compact snapshot that leaves out the turns (so the
stats need the log replayed from the initial state).

The rules: each player holds ``hand`` cards. On a turn a die shows 1 to 3 (chance), then
the player sheds 1 to that many cards, or keeps them all. The first with no card wins at
once; at the turn limit, the fewest cards win.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Annotated, Any, Self

import pytest
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from engine import games
from engine.game import (
    NO_EVENTS,
    Decision,
    Event,
    Game,
    GameEnded,
    Goal,
    Outcome,
    TurnEnded,
)

Move = tuple[Any, ...]  # ("roll", k), ("shed", n) or ("keep",)
KEEP: Move = ("keep",)


class ShedSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    turn_limit: Annotated[StrictInt, Field(ge=1, le=500)] = 30
    hand: Annotated[StrictInt, Field(ge=1, le=40)] = 20


class ShedState:
    def __init__(self, players: Sequence[str], settings: ShedSettings) -> None:
        self.players = tuple(players)
        self.settings = settings
        self.hands = [settings.hand] * len(self.players)
        self.turns = 0
        self.current = 0
        self.roll: int | None = None
        self.log: list[list[Any]] = []  # [seat, roll, shed]
        self.log_offset = 0
        self.ended_by: str | None = None

    @property
    def current_player(self) -> int | None:
        return None if self.is_over or self.roll is None else self.current

    @property
    def decision(self) -> Decision:
        if self.is_over:
            return Decision.OVER
        return Decision.CHANCE if self.roll is None else Decision.TURN

    @property
    def is_over(self) -> bool:
        return self.ended_by is not None

    def legal_moves(self) -> list[Move]:
        if self.decision is not Decision.TURN:
            return []
        assert self.roll is not None
        most = min(self.roll, self.hands[self.current])
        return [KEEP, *(("shed", n) for n in range(1, most + 1))]

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except ValueError:
            return False
        return True

    def check(self, move: Move, *, by: int | None = None) -> None:
        if self.decision is Decision.CHANCE:
            if not (move[0] == "roll" and move[1] in (1, 2, 3)):
                raise ValueError(f"{move!r} is not a roll of 1 to 3")
        elif move not in self.legal_moves() or (by is not None and by != self.current):
            raise ValueError(f"{move!r} cannot be played now")

    def apply(self, move: Move, *, by: int | None = None) -> Sequence[Event]:
        self.check(move, by=by)
        if move[0] == "roll":
            self.roll = int(move[1])
            return NO_EVENTS
        seat = self.current
        shed = int(move[1]) if move[0] == "shed" else 0
        self.hands[seat] -= shed
        self.log.append([seat, self.roll, shed])
        self.turns += 1
        self.roll = None
        if not self.hands[seat]:
            self.ended_by = "empty_hand"
        elif self.turns >= self.settings.turn_limit:
            self.ended_by = "turn_limit"
        self.current = (seat + 1) % len(self.players)
        return (TurnEnded(seat), GameEnded()) if self.is_over else (TurnEnded(seat),)

    def sample_chance(self, rng: random.Random) -> Move:
        return ("roll", rng.randint(1, 3))

    def outcome(self) -> Outcome | None:
        if self.ended_by is None:
            return None
        fewest = min(self.hands)
        winners = tuple(s for s, cards in enumerate(self.hands) if cards == fewest)
        return Outcome(winners, tuple(self.hands), self.ended_by, higher_wins=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "settings": self.settings.model_dump(),
            "hands": list(self.hands),
            "turns": self.turns,
            "current": self.current,
            "roll": self.roll,
            "log": [list(t) for t in self.log],
            "log_offset": self.log_offset,
            "ended_by": self.ended_by,
        }

    def copy(self) -> Self:
        return type(self).from_dict(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        self = cls(data["players"], ShedSettings.model_validate(data["settings"]))
        self.hands = list(data["hands"])
        self.turns = data["turns"]
        self.current = data["current"]
        self.roll = data["roll"]
        self.log = [list(t) for t in data["log"]]
        self.log_offset = data["log_offset"]
        self.ended_by = data["ended_by"]
        return self


class RandomShedder:
    level = "random"

    def choose(self, state: ShedState, rng: random.Random) -> Move:
        return rng.choice(state.legal_moves())


class ShedGame(Game[ShedState]):
    name = "shed"
    title = "Shed"
    min_players = 2
    max_players = 4
    settings = ShedSettings
    ai_levels = ("random",)
    record_format = "shed-record/1"

    def new_state(self, players: Sequence[str], settings: BaseModel) -> ShedState:
        return ShedState(players, ShedSettings.model_validate(settings.model_dump()))

    def state_from_dict(self, data: dict[str, Any]) -> ShedState:
        return ShedState.from_dict(data)

    def snapshot(self, state: ShedState) -> dict[str, Any]:
        """The turns are left out: the move log holds them."""
        data = state.to_dict()
        data["log"] = []
        data["log_offset"] = state.log_offset + len(state.log)
        return data

    def holds_whole_game(self, state: ShedState) -> bool:
        return state.log_offset == 0

    def round_scores(self, state: ShedState) -> Sequence[Sequence[int]]:
        return ()

    def goal(self, state: ShedState) -> Goal:
        return Goal(turn_limit=state.settings.turn_limit)

    def encode_move(self, move: Any) -> Any:
        return list(move)

    def decode_move(self, data: Any) -> Move:
        return tuple(data)

    def make_ai(self, level: str) -> RandomShedder:
        return RandomShedder()

    def export_record(self, state: ShedState, meta: Any = None) -> dict[str, Any]:
        assert self.holds_whole_game(state)
        record: dict[str, Any] = {
            "format": self.record_format,
            "players": list(state.players),
            "turns": [list(t) for t in state.log],
            "hands": list(state.hands),
        }
        if meta is not None:
            record["meta"] = meta
        return record

    def stats_figures(self, state: ShedState, seat: int) -> dict[str, int]:
        assert self.holds_whole_game(state)
        mine = [shed for who, _, shed in state.log if who == seat]
        return {
            "cards_shed": sum(mine),
            "best_shed": max(mine, default=0),
            "keeps": sum(1 for shed in mine if not shed),
        }


GAME = ShedGame()


def register(monkeypatch: pytest.MonkeyPatch) -> ShedGame:
    """Until the test ends, :func:`engine.games.get` knows ``"shed"`` too."""
    known = games.get

    def get(name: str) -> Game[Any]:
        return GAME if name == GAME.name else known(name)

    monkeypatch.setattr(games, "get", get)
    return GAME

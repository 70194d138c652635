"""The small interface through which the rest of the project talks to a game.

Stack is the only game today; a card game and a board game are planned. Each game keeps
its rules in a package of its own and offers a state object of this shape.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from enum import Enum
from typing import Any, Protocol, Self, TypeVar

MoveT = TypeVar("MoveT", bound=Hashable)


class Decision(Enum):
    """What the game is waiting for."""

    TURN = "turn"  # the current player chooses a move
    PLACE = "place"  # the current player places a rerolled die that has several targets
    CHANCE = "chance"  # dice must be rolled (an RNG draws them, or a replay gives them)
    OVER = "over"  # the game has ended


class GameState(Protocol[MoveT]):
    """A game in progress: whose turn, what is legal, and how to move."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def decision(self) -> Decision: ...

    def legal_moves(self) -> Sequence[MoveT]: ...

    def is_legal(self, move: MoveT) -> bool: ...

    def apply(self, move: MoveT) -> None: ...

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self: ...

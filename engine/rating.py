"""What the AI players of the games of chance (Stack, Stack Up!) share: a rated move,
playing the best-rated one (``greedy``), and the error for a state with no decision."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

M = TypeVar("M")
S = TypeVar("S")


class NoMoveError(ValueError):
    """There is no decision for a player to make (a chance outcome, or the game is over)."""


@dataclass(frozen=True, slots=True)
class RatedMove(Generic[M]):
    """A legal move, the greedy heuristic's value for it, and why, in a sentence."""

    move: M
    value: float
    reason: str


class RatingPlayer(Generic[S, M]):
    """Plays the move its :meth:`rate` values most; ties are broken at random."""

    def rate(self, state: S) -> list[RatedMove[M]]:
        """Every legal move with its value and a reason in a player's words."""
        raise NotImplementedError

    def choose(self, state: S, rng: random.Random) -> M:
        rated = self.rate(state)
        if not rated:
            raise NoMoveError("There is no move to choose.")
        if len(rated) == 1:
            return rated[0].move
        best = max(r.value for r in rated)
        top = [r.move for r in rated if r.value >= best - 1e-9]
        return top[int(rng.random() * len(top))] if len(top) > 1 else top[0]

    def best(self, state: S) -> RatedMove[M]:
        """The best-rated move (the first of equals), for hints."""
        rated = self.rate(state)
        if not rated:
            raise NoMoveError("There is no move to choose.")
        return max(rated, key=lambda r: r.value)


def make_player(level: str, players: Mapping[str, Callable[[], Any]], expert: str) -> Any:
    """The AI player called ``level``: one of ``players`` (by name, easiest first), or
    ``expert`` — the search of module ``expert``, imported on first use."""
    if level == "expert":
        return importlib.import_module(expert).make_expert()
    try:
        return players[level]()
    except KeyError:
        raise ValueError(
            f"There is no AI level {level!r}; choose from {', '.join((*players, 'expert'))}."
        ) from None

"""Hand-built situations for the rule tests."""

from __future__ import annotations

from engine.stack.moves import Place, PlayerMove, Reroll, Roll, RoundDice, Stack
from engine.stack.rules import StackRules
from engine.stack.state import StackState

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
A, B, C, D = 0, 1, 2, 3


def deal(*dice: list[int], first: int = 0, **rules: object) -> StackState:
    """A game whose first round has just been rolled: seat i rolled ``dice[i]``."""
    players = NAMES[: len(dice)]
    state = StackState(players, StackRules(dice_per_player=len(dice[0]), **rules), first=first)
    state.apply(RoundDice(tuple(tuple(d) for d in dice)))
    return state


def stack(state: StackState, face: int, owner: int, height: int = 1) -> None:
    state.apply(Stack(face, owner, height))


def reroll(state: StackState, face: int, rolled: int, place: tuple[int, int] | None = None) -> None:
    """Reroll a ``face``, roll ``rolled``, and place it on ``place`` if a choice is asked."""
    state.apply(Reroll(face))
    state.apply(Roll(rolled))
    if place is not None:
        state.apply(Place(*place))


def play(state: StackState, *moves: PlayerMove | Roll) -> None:
    for move in moves:
        state.apply(move)

"""Hand-built situations for the rule tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from engine.game import Decision, GameState
from engine.stack.ai import RandomPlayer
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


def any_rules(draw: st.DrawFn, most_dice: int, highest_target: int, **rules: Any) -> StackRules:
    """Stack rules drawn by hypothesis: 1 to ``most_dice`` dice each, a target of 1 to
    ``highest_target``, each scoring switch on or off; ``rules`` as given."""
    return StackRules(
        dice_per_player=draw(st.integers(1, most_dice)),
        target_score=draw(st.integers(1, highest_target)),
        four_high_bonus=draw(st.booleans()),
        capture_penalty=draw(st.booleans()),
        rolled_two_penalty=draw(st.booleans()),
        **rules,
    )


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


def random_steps(state: StackState, rng: random.Random, steps: int) -> None:
    """Play up to ``steps`` random steps (dice rolled, moves chosen at random) on
    ``state``, stopping when the game is over."""
    for _ in range(steps):
        if state.is_over:
            break
        one_step(state, rng, RandomPlayer())


def one_step(state: GameState[Any], rng: random.Random, player: Any) -> None:
    """Play ``state``'s next step: its chance outcome (drawn from ``rng``) or ``player``'s
    choice."""
    if state.decision is Decision.CHANCE:
        state.apply(state.sample_chance(rng))
    else:
        state.apply(player.choose(state, rng))


def chance_outcomes(state: GameState[Any], rng: random.Random) -> None:
    """Play the chance outcomes (drawn from ``rng``) until a player must decide."""
    while state.decision is Decision.CHANCE:
        state.apply(state.sample_chance(rng))


def decisions(state: GameState[Any], rng: random.Random) -> Iterator[None]:
    """Each decision of a player in turn, until the game is over: the chance outcomes
    before it played (from ``rng``); the loop's body plays the player's move."""
    while True:
        chance_outcomes(state, rng)
        if state.is_over:
            return
        yield

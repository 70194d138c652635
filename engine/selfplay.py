"""Playing a game through the public interface alone, as every host does: chance outcomes
drawn from an injected RNG, forced moves played by the table, decisions by AI players.

The benches, the greedy-against-random simulation and the conformance tests drive every
game through these two functions, so they measure and check the path production runs.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.game import Decision, Event, Game, GameState

# (seat or None for a chance outcome, the move, what it led to)
Step = tuple[int | None, Any, Sequence[Event]]


def settle(game: Game[Any], state: GameState[Any], rng: random.Random) -> list[Step]:
    """Apply chance outcomes and forced moves until a player must decide or the game ends."""
    done: list[Step] = []
    while True:
        decision = state.decision
        if decision is Decision.CHANCE:
            outcome = state.sample_chance(rng)
            done.append((None, outcome, state.apply(outcome)))
            continue
        if decision is Decision.OVER:
            return done
        forced = game.automatic(state) if game.forced_moves else None
        if forced is None:
            return done
        seat = state.current_player
        done.append((seat, forced, state.apply(forced, by=seat)))


Chooser = Callable[[GameState[Any], random.Random], Any]


def play_out(
    game: Game[Any],
    state: GameState[Any],
    choosers: Sequence[Chooser],
    rng: random.Random,
    *,
    on_step: Callable[[Step], None] | None = None,
    max_decisions: int = 1_000_000,
) -> int:
    """Play ``state`` to its end, ``choosers[seat]`` deciding for each seat; returns the
    number of decisions the players took. ``on_step`` sees every applied move.

    The same steps as :func:`settle` then a player's decision, in one loop: this is the
    benches' inner loop."""
    decisions = 0
    chance, over = Decision.CHANCE, Decision.OVER
    automatic, forced = game.automatic, game.forced_moves
    apply, sample = state.apply, state.sample_chance
    while True:
        decision = state.decision
        if decision is chance:
            move = sample(rng)
            seat = None
        elif decision is over:
            return decisions
        else:
            seat = state.current_player
            move = automatic(state) if forced else None
            if move is None:
                if decisions >= max_decisions:
                    raise RuntimeError(f"{game.title} did not end in {max_decisions} decisions")
                assert seat is not None
                move = choosers[seat](state, rng)
                decisions += 1
        events = apply(move, by=seat)
        if on_step is not None:
            on_step((seat, move, events))

"""``python -m engine.simulate``: the greedy AI against three random players.

Plays 4-player games to 200 with the greedy player in a rotating seat and reports its
win rate (a shared victory counts as a win). Random play would win a quarter of them.
"""

from __future__ import annotations

import argparse
import random

from engine.game import Decision
from engine.stack.ai import AIPlayer, GreedyPlayer, RandomPlayer
from engine.stack.state import StackState

PLAYERS = ("north", "east", "south", "west")


def play_game(seats: list[AIPlayer], rng: random.Random) -> tuple[int, ...]:
    """Play one game with ``seats[i]`` choosing for seat ``i``; returns the winners."""
    state = StackState(PLAYERS[: len(seats)])
    while not state.is_over:
        if state.decision is Decision.CHANCE:
            state.resolve_chance(rng)
            continue
        assert state.current is not None
        state.apply(seats[state.current].choose(state, rng))
    assert state.winner is not None
    return state.winner


def win_rate(games: int, seed: int) -> float:
    """The greedy player's share of wins over ``games`` games against three random ones."""
    rng = random.Random(seed)
    wins = 0
    for game in range(games):
        greedy_seat = game % 4
        seats: list[AIPlayer] = [RandomPlayer() for _ in range(4)]
        seats[greedy_seat] = GreedyPlayer()
        if greedy_seat in play_game(seats, rng):
            wins += 1
    return wins / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="greedy AI against three random players")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rate = win_rate(args.games, args.seed)
    print(f"greedy won {rate:.1%} of {args.games} four-player games against 3 random players")
    print("(a random player would win about 25%)")


if __name__ == "__main__":
    main()

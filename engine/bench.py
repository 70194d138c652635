"""``python -m engine.bench``: random self-play of 4-player games to 200.

Drives the engine through its public API exactly as an AI seat does (``RandomPlayer``
choosing, ``apply``, ``resolve_chance``) for a few seconds on one core, and prints games/s
and turns/s. The last line is ``N games/s``.
"""

from __future__ import annotations

import argparse
import random
import time

from engine.game import Decision
from engine.stack.ai import RandomPlayer
from engine.stack.state import StackState

PLAYERS = ("north", "east", "south", "west")


def play_one(rng: random.Random, player: RandomPlayer) -> int:
    """Play one game between random players; returns the number of decisions taken."""
    state = StackState(PLAYERS)
    decisions = 0
    chance = Decision.CHANCE
    while not state.is_over:
        if state.decision is chance:
            state.resolve_chance(rng)
            continue
        state.apply(player.choose(state, rng))
        decisions += 1
    return decisions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dice")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    player = RandomPlayer()
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        decisions += play_one(rng, player)
        games += 1
    elapsed = time.perf_counter() - start
    print(f"{games} games of 4 random players to 200 in {elapsed:.2f} s (seed {args.seed})")
    print(f"{decisions / games:.1f} decisions per game")
    print(f"{decisions / elapsed:,.0f} turns/s")
    print(f"{games / elapsed:.0f} games/s")


if __name__ == "__main__":
    main()

"""Random self-play of Stack Up!, driven exactly as a host drives a table.

``play_one(rng)`` plays one game: chance outcomes from ``sample_chance``, the table's own
moves from ``automatic()``, every other decision by a :class:`RandomPlayer`; it returns
the number of decisions applied. ``python -m engine.stackup.bench [--seconds 5]
[--players 4]`` prints games/s (the lead wires it as ``python -m engine.bench --game
stackup``).
"""

from __future__ import annotations

import argparse
import random
import time

from engine.game import Decision
from engine.stackup.ai import RandomPlayer
from engine.stackup.moves import Move
from engine.stackup.state import StackUpState

NAMES = ("north", "east", "south", "west", "up", "down")
_PLAYER = RandomPlayer()


def play_one(rng: random.Random, players: int = 4) -> int:
    """Play one game between random players; returns the number of decisions applied
    (chance outcomes included)."""
    state = StackUpState(NAMES[:players])
    decisions = 0
    chance = Decision.CHANCE
    while not state.is_over:
        move: Move
        if state.decision is chance:
            move = state.sample_chance(rng)
        else:
            move = state.automatic() or _PLAYER.choose(state, rng)
        state.apply(move)
        decisions += 1
    return decisions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Stack Up!: random self-play games/s")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, help="2 to 6")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        decisions += play_one(rng, args.players)
        games += 1
    elapsed = time.perf_counter() - start
    print(f"{games} games of {args.players} random players in {elapsed:.2f} s (seed {args.seed})")
    print(f"{decisions / games:.1f} decisions per game, {1000 * elapsed / games:.2f} ms per game")
    print(f"{decisions / elapsed:,.0f} decisions/s")
    print(f"{games / elapsed:.0f} games/s")


if __name__ == "__main__":
    main()

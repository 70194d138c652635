"""``python -m engine.bench [--game NAME]``: random self-play through the game interface.

Plays whole games between random players for a few seconds on one core, exactly as a
host drives any game (:mod:`engine.flow`, the table loop: chance outcomes from the RNG,
forced moves played by the table, every decision by the game's ``random`` AI), and
prints games/s and decisions/s. The last line is ``N games/s``. Stack: 4 players to 200;
Stack Up!: 4 players (``--players`` changes it).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from engine import games
from engine.flow import play_out
from engine.game import Game

NAMES = ("north", "east", "south", "west", "nw", "ne", "se", "sw")


def play_one(game: Game[Any], players: int, rng: random.Random, choose: Any) -> int:
    """Play one game between random players; returns the number of decisions taken."""
    state = game.new_state(NAMES[:players], game.settings())
    return play_out(game, state, [choose] * players, rng)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", choices=games.names(), default=games.DEFAULT)
    parser.add_argument("--players", type=int, default=4, help="seats at the table")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play")
    parser.add_argument("--seed", type=int, default=1, help="seed of the chance outcomes")
    args = parser.parse_args(argv)
    game = games.get(args.game)
    if not game.min_players <= args.players <= game.max_players:
        parser.error(f"{game.title} takes {game.min_players} to {game.max_players} players")
    rng = random.Random(args.seed)
    choose = game.make_ai("random").choose
    played = decisions = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        decisions += play_one(game, args.players, rng, choose)
        played += 1
    elapsed = time.perf_counter() - start
    what = f"{game.title} games of {args.players} random players"
    print(f"{played} {what} in {elapsed:.2f} s (seed {args.seed})")
    print(f"{decisions / played:.1f} decisions per game")
    print(f"{decisions / elapsed:,.0f} turns/s")
    print(f"{played / elapsed:.0f} games/s")


if __name__ == "__main__":
    main()

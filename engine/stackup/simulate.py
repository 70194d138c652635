"""Greedy against random: the greedy AI's win rate in Stack Up! games against random players.

``win_rates(games, players, seed)`` plays ``games`` games of ``players`` seats, the greedy
player in a rotating seat and random players in the others, driven as a host drives a
table (``automatic()`` for the table's own moves, ``sample_chance`` for chance). A shared
win at the turn limit counts as a win. A random player would win about ``1 / players``.

``python -m engine.stackup.simulate [--games 1000] [--seed 1]`` prints the figures for 2,
4 and 6 players.
"""

from __future__ import annotations

import argparse
import random
from typing import NamedTuple

from engine.game import Decision
from engine.stackup.ai import GreedyPlayer, RandomPlayer
from engine.stackup.state import StackUpState

NAMES = ("north", "east", "south", "west", "up", "down")


class WinRates(NamedTuple):
    """How often the greedy seat won, next to a random seat's fair share."""

    games: int
    players: int
    greedy_wins: int

    @property
    def greedy(self) -> float:
        return self.greedy_wins / self.games if self.games else 0.0

    @property
    def fair_share(self) -> float:
        return 1 / self.players

    def line(self) -> str:
        return (
            f"{self.players} players: greedy won {self.greedy:.1%} of {self.games} games "
            f"against {self.players - 1} random players (a random seat's share: "
            f"{self.fair_share:.1%})"
        )


def play_game(seats: list[RandomPlayer | GreedyPlayer], rng: random.Random) -> tuple[int, ...]:
    """One game with ``seats[i]`` deciding for seat ``i``; returns the winners."""
    state = StackUpState(NAMES[: len(seats)])
    chance = Decision.CHANCE
    while not state.is_over:
        if state.decision is chance:
            state.apply(state.sample_chance(rng))
            continue
        move = state.automatic()
        if move is None:
            seat = state.current_player
            assert seat is not None
            move = seats[seat].choose(state, rng)
        state.apply(move)
    outcome = state.outcome()
    assert outcome is not None
    return outcome.winners


def win_rates(games: int, players: int, seed: int) -> WinRates:
    """The greedy player's wins over ``games`` games of ``players`` seats (greedy seat
    rotating), the others random."""
    rng = random.Random(seed)
    wins = 0
    for game in range(games):
        greedy_seat = game % players
        seats: list[RandomPlayer | GreedyPlayer] = [RandomPlayer() for _ in range(players)]
        seats[greedy_seat] = GreedyPlayer()
        if greedy_seat in play_game(seats, rng):
            wins += 1
    return WinRates(games, players, wins)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Stack Up!: greedy AI against random players")
    parser.add_argument("--games", type=int, default=1000, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4, 6])
    args = parser.parse_args(argv)
    for players in args.players:
        print(win_rates(args.games, players, args.seed).line())


if __name__ == "__main__":
    main()

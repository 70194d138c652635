"""``python -m engine.simulate [--game NAME]``: the greedy AI against random players.

Plays whole games through the game interface (:mod:`engine.selfplay`) with one greedy
player in a rotating seat and every other seat random, and reports the greedy player's win
rate (a shared win counts as a win) next to what a random player would win. Stack: four
players; Stack Up!: 2, 4 and 6 players (``--players`` chooses).
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from engine import games
from engine.game import Game
from engine.selfplay import play_out

NAMES = ("north", "east", "south", "west", "nw", "ne", "se", "sw")
DEFAULT_PLAYERS = {"stack": (4,), "stackup": (2, 4, 6)}


def greedy_win_rate(game: Game[Any], players: int, games_played: int, seed: int) -> float:
    """The greedy player's share of wins over ``games_played`` games of ``players``
    (greedy in seat ``g % players`` of game ``g``, the others random)."""
    rng = random.Random(seed)
    greedy = game.make_ai("greedy").choose
    rand = game.make_ai("random").choose
    wins = 0
    for g in range(games_played):
        seat = g % players
        choosers = [rand] * players
        choosers[seat] = greedy
        state = game.new_state(NAMES[:players], game.settings())
        play_out(game, state, choosers, rng)
        outcome = state.outcome()
        assert outcome is not None
        wins += seat in outcome.winners
    return wins / games_played


def win_rate(games: int, seed: int) -> float:
    """Stack: the greedy player's share of wins over ``games`` games against three random
    players."""
    return greedy_win_rate(_stack(), 4, games, seed)


def _stack() -> Game[Any]:
    return games.get("stack")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="greedy AI against random players")
    parser.add_argument("--game", choices=games.names(), default=games.DEFAULT)
    parser.add_argument("--players", type=int, nargs="*", help="table sizes (default per game)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = games.get(args.game)
    sizes = args.players or DEFAULT_PLAYERS.get(game.name, (game.min_players,))
    for players in sizes:
        if not game.min_players <= players <= game.max_players:
            parser.error(f"{game.title} takes {game.min_players} to {game.max_players} players")
        rate = greedy_win_rate(game, players, args.games, args.seed)
        others = players - 1
        print(
            f"{game.title}: greedy won {rate:.1%} of {args.games} {players}-player games "
            f"against {others} random player{'s' if others > 1 else ''} "
            f"(a random player would win about {1 / players:.0%})"
        )


if __name__ == "__main__":
    main()

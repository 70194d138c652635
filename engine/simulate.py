"""``python -m engine.simulate [--game NAME]``: the greedy AI against random players.

Plays whole games through the table loop (:mod:`engine.flow`) with one greedy player in
a rotating seat and every other seat random, and reports the greedy player's win
rate (a shared win counts as a win) next to what a random player would win. Stack: four
players; Stack Up!: 2, 4 and 6 players (``--players`` chooses).

``--levels A,B`` pits any two AI levels of a two-player game head to head instead, the
first player alternating between them (Color Stack does this by default, greedy against
random), and reports wins, draws and how the games ended. ``--setting key=value`` sets a
table option (``--setting board=heavy``); ``--budget`` / ``--nodes`` limit a searching AI
(one with a ``budget`` attribute, such as Color Stack's ``expert``) per move.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from engine import games
from engine.budget import limit_search
from engine.errors import settings_error
from engine.flow import Chooser, play_out, settle
from engine.game import Game

NAMES = ("north", "east", "south", "west", "nw", "ne", "se", "sw")
DEFAULT_PLAYERS = {"stack": (4,), "stackup": (2, 4, 6)}
# games simulated head to head by default (two players): the levels, first named first
DEFAULT_LEVELS = {"colorstack": ("greedy", "random")}


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


@dataclass
class Match:
    """Two AI levels head to head: who won each game, how it ended, how long it took."""

    levels: tuple[str, str]
    wins: list[int]  # per level
    wins_first: list[int]  # per level, the games it won as the first player
    draws: int
    endings: Counter[str]
    lengths: list[int]  # decisions per game
    seconds: list[float]  # thinking time per decision, per level
    decisions: list[int]  # per level


def head_to_head(
    game: Game[Any],
    levels: tuple[str, str],
    games_played: int,
    seed: int,
    settings: Any = None,
    budget: float | None = None,
    nodes: int | None = None,
) -> Match:
    """``levels[0]`` against ``levels[1]`` over ``games_played`` two-player games, the
    first player alternating: ``levels[0]`` moves first in even games. The set-up is
    settled before the seats are given out, so the first player is known whatever chance
    chose."""
    rng = random.Random(seed)
    ais = [limit_search(game.make_ai(level), budget, nodes) for level in levels]
    match = Match(levels, [0, 0], [0, 0], 0, Counter(), [], [0.0, 0.0], [0, 0])

    def timed(index: int) -> Chooser:
        choose = ais[index].choose

        def chooser(state: Any, r: random.Random) -> Any:
            start = time.perf_counter()
            move = choose(state, r)
            match.seconds[index] += time.perf_counter() - start
            match.decisions[index] += 1
            return move

        return chooser

    choosers = [timed(0), timed(1)]
    settings = settings if settings is not None else game.settings()
    for g in range(games_played):
        state = game.new_state(NAMES[:2], settings)
        settle(game, state, rng)
        first = state.current_player
        assert first is not None, "a game over before its first decision"
        lead = g % 2  # the level moving first in this game
        seats = (
            [choosers[lead], choosers[1 - lead]]
            if first == 0
            else [
                choosers[1 - lead],
                choosers[lead],
            ]
        )
        match.lengths.append(play_out(game, state, seats, rng))
        outcome = state.outcome()
        assert outcome is not None
        match.endings[outcome.ended_by] += 1
        if not outcome.winners:
            match.draws += 1
            continue
        winner_level = lead if outcome.winners[0] == first else 1 - lead
        match.wins[winner_level] += 1
        if winner_level == lead:
            match.wins_first[winner_level] += 1
    return match


def match_report(game: Game[Any], match: Match, settings_words: str, limit_words: str) -> str:
    """The match in a few lines: wins, draws, endings, lengths and thinking time."""
    n = len(match.lengths)
    half = {0: (n + 1) // 2, 1: n // 2}  # games each level moved first
    a, b = match.levels
    lines = [
        f"{game.title}{settings_words}: {a} against {b}{limit_words}, {n} games, "
        "the first player alternating",
    ]
    for i, level in enumerate(match.levels):
        lines.append(
            f"  {level} won {match.wins[i]} ({match.wins[i] / n:.1%}); as first player "
            f"{match.wins_first[i]} of {half[i]}"
        )
    endings = ", ".join(f"{k} {v}" for k, v in sorted(match.endings.items()))
    lines.append(f"  draws {match.draws} ({match.draws / n:.1%}); endings: {endings}")
    lines.append(
        f"  decisions a game: median {statistics.median(match.lengths):g}, max {max(match.lengths)}"
    )
    for i, level in enumerate(match.levels):
        if match.decisions[i]:
            per = match.seconds[i] / match.decisions[i]
            lines.append(f"  {level}: {per * 1000:.1f} ms a decision on average")
    return "\n".join(lines)


def _setting(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"a setting is key=value, not {text!r}")
    try:
        value: Any = json.loads(raw)
    except ValueError:
        value = raw
    return key, value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m engine.simulate",
        description="the greedy AI against random players, or two levels head to head (--levels)",
    )
    parser.add_argument("--game", choices=games.names(), default=games.DEFAULT)
    parser.add_argument("--players", type=int, nargs="*", help="table sizes (default per game)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--levels", help="two AI levels head to head, e.g. expert,greedy (two-player games)"
    )
    parser.add_argument(
        "--setting", type=_setting, action="append", default=[], help="a table option key=value"
    )
    parser.add_argument("--budget", type=float, help="seconds a move for a searching AI")
    parser.add_argument("--nodes", type=int, help="nodes a move for a searching AI")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games is at least 1, not {args.games}")
    game = games.get(args.game)
    try:
        settings = game.settings(**dict(args.setting))
    except ValidationError as err:  # pydantic's own words span lines and name its model
        parser.error(f"bad --setting for {game.title}: {settings_error(err)}")
    if args.budget is not None and not args.budget > 0:
        parser.error(f"--budget is a positive number of seconds, not {args.budget}")
    if args.nodes is not None and args.nodes < 1:
        parser.error(f"--nodes is at least 1, not {args.nodes}")
    levels = args.levels.split(",") if args.levels else DEFAULT_LEVELS.get(game.name)
    if levels is not None:
        if len(levels) != 2 or any(level not in game.ai_levels for level in levels):
            parser.error(f"--levels names two of {', '.join(game.ai_levels)}, like greedy,random")
        if game.min_players > 2 or game.max_players < 2:
            parser.error(f"{game.title} is not a two-player game")
        match = head_to_head(
            game, (levels[0], levels[1]), args.games, args.seed, settings, args.budget, args.nodes
        )
        settings_words = "".join(f", {k}={v}" for k, v in args.setting)
        limit_words = ""
        if args.nodes is not None:
            limit_words = f" (searching AIs: {args.nodes} nodes a move)"
        elif args.budget is not None:
            limit_words = f" (searching AIs: {args.budget} s a move)"
        print(match_report(game, match, settings_words, limit_words))
        return
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

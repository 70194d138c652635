"""``python -m engine.bench [--game NAME|all]``: random self-play, engine against reference.

Plays whole games between random players for a few seconds on one core through
:func:`engine.flow.play_out` (chance outcomes from the RNG, forced moves played by the
table, every decision by the game's ``random`` AI), and prints games and decisions per CPU
second. By default nobody watches the games, as in self-play and search: the table loop's
lean form plays them, which lets a state play a random player's pick or a chance outcome in
one step, and Stack's state a whole game of random players itself
(``StackState.play_out_random``). ``--watched`` plays every game through the loop a host's
table runs instead, one step at a time with its step records (an observer sees every
move): the engine's speed on the bot's path, the expert's search and the ladder aside.
Stack: 4 players to 200; Stack Up!: 4 players (``--players`` changes it); Color Stack: 2
players, light board.

Then it plays the same games with the game's naive reference implementation
(:mod:`engine.reference`: straightforward code from the rule book) and, when the engine
has a compiled build (``python -m engine.compile``), with the engine both compiled and
pure (``STACKBOT_ENGINE=pure``, in a process of its own). Engine and reference take turns
of a quarter second on the same core, timed in the process's CPU time (so that other work
on a busy machine slows neither); it prints games per CPU second of each and the engine's
speed as a multiple of the reference's.
The last line of a game's block is ``N games/s`` (the engine as it runs here);
``--only-engine`` measures the engine alone, as before.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from engine import games, native
from engine.flow import Played, play_out
from engine.game import Game

NAMES = ("north", "east", "south", "west", "nw", "ne", "se", "sw")
SLICE = 0.25  # seconds of one turn of side_by_side
DEFAULT_PLAYERS = {"stack": 4, "stackup": 4, "colorstack": 2}


def play_one(
    game: Game[Any],
    players: int,
    rng: random.Random,
    choose: Any,
    settings: Any = None,
    *,
    watched: bool = False,
) -> int:
    """Play one game between random players; returns the number of decisions taken
    (``watched``: through the table loop step by step, an observer seeing every move)."""
    if settings is None:
        settings = game.settings()
    state = game.new_state(NAMES[:players], settings)
    if watched:
        return play_out(game, state, [choose] * players, rng, on_step=_seen)
    return play_out(game, state, [choose] * players, rng)


def _seen(played: Played) -> None:
    """The watched games' observer: it sees each move and keeps nothing."""


def _engine_player(
    game: Game[Any], players: int, watched: bool = False
) -> Callable[[random.Random], int]:
    # a table's settings are made once (as a host does), its games started from them
    choose, settings = game.make_ai("random").choose, game.settings()
    return lambda rng: play_one(game, players, rng, choose, settings, watched=watched)


def _reference_player(name: str, players: int) -> Callable[[random.Random], int]:
    from engine.reference import colorstack, stack, stackup

    if name == "stack":
        return lambda rng: stack.self_play(players, rng)
    if name == "stackup":
        return lambda rng: stackup.self_play(players, rng)
    return colorstack.self_play


def side_by_side(
    players: dict[str, Callable[[random.Random], int]], seconds: float, seed: int
) -> dict[str, tuple[int, int, float]]:
    """Measure each of ``players`` for ``seconds`` of CPU time in all, in turns of a
    quarter second (so a machine whose load changes slows each alike); games, decisions
    and CPU time of each."""
    rngs = {name: random.Random(seed) for name in players}
    totals = {name: [0, 0, 0.0] for name in players}
    while min(t[2] for t in totals.values()) < seconds:
        for name, one in players.items():
            rng, total = rngs[name], totals[name]
            start = time.process_time()
            deadline = start + SLICE
            while True:
                total[1] += one(rng)
                total[0] += 1
                now = time.process_time()
                if now >= deadline:
                    break
            total[2] += now - start
    return {name: (int(t[0]), int(t[1]), t[2]) for name, t in totals.items()}


def _pure_child(args: argparse.Namespace) -> dict[str, float]:
    """Games per CPU second of the pure engine and of the reference, measured side by side in a
    process that ignores the compiled build."""
    env = dict(os.environ, **{native.ENV: "pure"})
    command = [sys.executable, "-m", "engine.bench", "--game", args.game]
    command += ["--players", str(args.players), "--seconds", str(args.seconds)]
    command += ["--seed", str(args.seed), "--no-pure", *(["--watched"] if args.watched else [])]
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    figures = {}
    for line in out.splitlines():
        if line.startswith(RATE):
            label, rate = line[len(RATE) :].split(":")
            figures[label.strip()] = float(rate.split()[0])
    return figures


RATE = "rate "


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m engine.bench", description=__doc__.splitlines()[0] if __doc__ else None
    )
    parser.add_argument("--game", choices=(*games.names(), "all"), default=games.DEFAULT)
    parser.add_argument("--players", type=int, help="seats at the table (default per game)")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to play, each")
    parser.add_argument("--seed", type=int, default=1, help="seed of the chance outcomes")
    parser.add_argument(
        "--only-engine", action="store_true", help="measure the engine alone (no reference)"
    )
    parser.add_argument(
        "--watched",
        action="store_true",
        help="every game through the table loop a host runs, step by step (not the lean loop)",
    )
    parser.add_argument("--no-pure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.seconds > 0:
        parser.error(f"--seconds is a positive number of CPU seconds, not {args.seconds}")
    if args.game == "all":
        for name in games.names():
            main([*(argv if argv is not None else sys.argv[1:]), "--game", name])
        return
    game = games.get(args.game)
    if args.players is None:
        args.players = DEFAULT_PLAYERS.get(args.game, game.min_players)
    if not game.min_players <= args.players <= game.max_players:
        parser.error(f"{game.title} takes {game.min_players} to {game.max_players} players")
    build = native.running()
    contenders = {"engine": _engine_player(game, args.players, args.watched)}
    if not args.only_engine:
        contenders["reference"] = _reference_player(args.game, args.players)
    results = side_by_side(contenders, args.seconds, args.seed)
    played, decisions, elapsed = results["engine"]
    loop = "watched: the host's step-by-step loop" if args.watched else "unwatched: the lean loop"
    what = f"{game.title} games of {args.players} random players ({loop})"
    print(f"{played} {what} in {elapsed:.2f} CPU-s (seed {args.seed}, engine {build})")
    print(f"{decisions / played:.1f} decisions per game")
    print(f"{decisions / elapsed:,.0f} turns/s")
    if not args.only_engine:
        rates = {name: r[0] / r[2] for name, r in results.items()}
        ref = rates["reference"]
        print(f"{RATE}engine {build}: {rates['engine']:.1f} games/CPU-s")
        print(f"{RATE}reference: {ref:.1f} games/CPU-s")
        print(f"engine {build} = {rates['engine'] / ref:.1f}x reference (side by side)")
        if build == "compiled" and not args.no_pure:
            pure = _pure_child(args)
            ratio = pure["engine pure"] / pure["reference"]
            print(
                f"engine pure = {ratio:.1f}x reference (side by side, in a process of its own:"
                f" {pure['engine pure']:.1f} against {pure['reference']:.1f} games/CPU-s)"
            )
    print(f"{played / elapsed:.0f} games/s")


if __name__ == "__main__":
    main()

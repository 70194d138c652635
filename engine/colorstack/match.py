"""``python -m engine.colorstack.match``: Color Stack's ``expert`` against the plain
alpha-beta baseline (:mod:`engine.colorstack.baseline`), at equal time per move.

Games come in pairs on one set-up (the same cards and dice): the expert moves first in
the first game of a pair and second in the other, so the first move's edge and the luck
of the deal cancel. Both players get the same ``--seconds`` of wall clock a move, and both
manage it the same way (a hard stop at 95 %, no new iteration after 45 %); the tool times
every call the same way (``time.perf_counter`` around ``choose``) and prints each side's
mean time and depth, so the equality can be checked. ``--nodes`` gives both the same node
budget instead (reproducible, for tests; their nodes cost differently, so it is not equal
strength of machine). ``--baseline-soon`` gives the baseline its one domain term (a
four-colour stacking one set away, see :mod:`engine.colorstack.baseline`).

It prints the expert's wins, draws and losses, its score (a draw half a win) with a 95 %
Wilson interval, and the Elo difference that score means, the interval's ends converted
the same way. ``--minutes`` stops starting new pairs of games after so many minutes.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass, field, replace

from engine.colorstack.baseline import BaselinePlayer
from engine.colorstack.moves import Setup
from engine.colorstack.rules import DEFAULT_TURN_LIMIT, ColorStackSettings
from engine.colorstack.search import ExpertPlayer
from engine.colorstack.state import ColorStackState

Z95 = 1.959964
EXPERT, BASELINE = 0, 1  # seats


@dataclass
class Tally:
    """The match so far, from the expert's side."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # per seat
    depths: list[int] = field(default_factory=lambda: [0, 0])
    moves: list[int] = field(default_factory=lambda: [0, 0])
    turns: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, score: float) -> None:
        if score == 1:
            self.wins += 1
        elif score == 0:
            self.losses += 1
        else:
            self.draws += 1


def score_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """The score (a draw half a win) and its 95 % Wilson interval, the score taken as a
    proportion of ``n`` games (as :mod:`engine.ladder` does): sound at 0 and 1 too, and a
    little wide when there are draws (their smaller variance is not counted)."""
    n = wins + draws + losses
    s = (wins + draws / 2) / n
    denom = 1 + Z95**2 / n
    centre = (s + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(s * (1 - s) / n + Z95**2 / (4 * n * n)) / denom
    return s, max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    """The Elo difference a score expects (``±inf`` at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0


def play_game(
    setup: Setup,
    expert_first: bool,
    players: tuple[ExpertPlayer, BaselinePlayer],
    settings: ColorStackSettings,
    rng: random.Random,
    tally: Tally,
) -> float:
    """One game on ``setup``; the expert's score (1, ½, 0). Every action goes through
    :meth:`~engine.colorstack.state.ColorStackState.apply`, which refuses an illegal one."""
    state = ColorStackState(("expert", "baseline"), settings)
    state.apply(replace(setup, first=EXPERT if expert_first else BASELINE))
    expert, baseline = players
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        start = time.perf_counter()
        if seat == EXPERT:
            found = expert.search(state, rng)
            mv, depth = found.move, found.depth
        else:
            mine = baseline.search(state, rng)
            mv, depth = mine.move, mine.depth
        tally.seconds[seat] += time.perf_counter() - start
        tally.depths[seat] += depth
        tally.moves[seat] += 1
        state.apply(mv, by=seat)
    tally.turns += state.turns
    if state.winner is None:
        return 0.5
    return 1.0 if state.winner == EXPERT else 0.0


def summary(tally: Tally, label: str) -> list[str]:
    n = tally.games
    s, low, high = score_interval(tally.wins, tally.draws, tally.losses)
    lines = [
        f"{label}: expert v baseline, {n} games: +{tally.wins} ={tally.draws} -{tally.losses}",
        f"  score {s:.3f} (95 % {low:.3f}–{high:.3f}, Wilson, draws as ½)",
        f"  Elo {_elo_text(elo(s))} (95 % {_elo_text(elo(low))} to {_elo_text(elo(high))})",
    ]
    for seat, name in ((EXPERT, "expert"), (BASELINE, "baseline")):
        moves = max(1, tally.moves[seat])
        lines.append(
            f"  {name:<8} {tally.moves[seat]} moves, mean {tally.seconds[seat] / moves:.3f} s "
            f"and depth {tally.depths[seat] / moves:.2f} a move"
        )
    lines.append(f"  mean game length {tally.turns / max(1, n):.0f} turns")
    return lines


def _elo_text(value: float) -> str:
    return "+inf" if value == math.inf else "-inf" if value == -math.inf else f"{value:+.0f}"


def run(
    games: int,
    board: str,
    seconds: float,
    nodes: int | None,
    seed: int,
    turn_limit: int,
    quiet: bool = False,
    minutes: float | None = None,
    soon: bool = False,
    whole_first: bool = False,
) -> Tally:
    """Play the match (no new pair of games after ``minutes``); progress lines on stderr
    unless ``quiet``."""
    stop = None if minutes is None else time.monotonic() + 60 * minutes
    settings = ColorStackSettings.model_validate({"board": board, "turn_limit": turn_limit})
    players = (
        ExpertPlayer(budget=seconds, nodes=nodes),
        BaselinePlayer(seconds, nodes, soon, whole_first),
    )
    tally = Tally()
    setup: Setup | None = None
    for g in range(games):
        rng = random.Random(seed * 1_000_033 + g)
        if g % 2 == 0:
            if stop is not None and time.monotonic() >= stop:
                break
            deal = random.Random(seed * 1_000_003 + g)
            setup = ColorStackState(("a", "b"), settings).sample_setup(deal)
        assert setup is not None
        result = play_game(setup, g % 2 == 0, players, settings, rng, tally)
        tally.add(result)
        if not quiet:
            s, low, high = score_interval(tally.wins, tally.draws, tally.losses)
            print(
                f"  game {g + 1}: expert {'first' if g % 2 == 0 else 'second'} scores "
                f"{result:g}; so far +{tally.wins} ={tally.draws} -{tally.losses}, "
                f"score {s:.3f} ({low:.3f}–{high:.3f})",
                file=sys.stderr,
                flush=True,
            )
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m engine.colorstack.match",
        description="Color Stack's expert against the plain alpha-beta baseline",
    )
    parser.add_argument("--seconds", type=float, default=0.1, help="wall clock a move, each")
    parser.add_argument("--nodes", type=int, help="a node budget a move for both instead")
    parser.add_argument("--games", type=int, default=20, help="games (pairs on one set-up)")
    parser.add_argument("--board", choices=("light", "heavy"), default="light")
    parser.add_argument("--seed", type=int, default=1, help="the set-ups' random seed")
    parser.add_argument("--turn-limit", type=int, default=DEFAULT_TURN_LIMIT)
    parser.add_argument("--minutes", type=float, help="start no new pair of games after this")
    parser.add_argument(
        "--baseline-soon", action="store_true", help="the baseline also counts wins a set away"
    )
    parser.add_argument(
        "--baseline-whole-first",
        action="store_true",
        help="the baseline always finishes its depth-1 iteration",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if args.games < 1 or not args.seconds > 0 or (args.nodes is not None and args.nodes < 1):
        parser.error("--games and --nodes are at least 1, --seconds positive")
    if args.turn_limit < 1:
        parser.error(f"--turn-limit is at least 1, not {args.turn_limit}")
    if args.minutes is not None and not args.minutes > 0:
        parser.error(f"--minutes is positive (no game starts after it), not {args.minutes}")
    tally = run(
        args.games,
        args.board,
        args.seconds,
        args.nodes,
        args.seed,
        args.turn_limit,
        args.quiet,
        args.minutes,
        args.baseline_soon,
        args.baseline_whole_first,
    )
    limit = f"{args.nodes} nodes" if args.nodes is not None else f"{args.seconds:g} s"
    kinds = [
        *(["wins a set away"] if args.baseline_soon else []),
        *(["depth 1 whole"] if args.baseline_whole_first else []),
    ]
    kind = f" (baseline with {', '.join(kinds)})" if kinds else ""
    print("\n".join(summary(tally, f"Color Stack {args.board}, {limit} a move{kind}")))
    command = " ".join(sys.argv[1:] if argv is None else argv)
    print(f"(python -m engine.colorstack.match {command})", flush=True)


if __name__ == "__main__":
    main()

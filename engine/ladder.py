"""``python -m engine.ladder --game G``: how strong each AI level is, in Elo.

Plays the game's levels head to head in two-player games — each level against the next
stronger one (``random`` against ``greedy``, ``greedy`` against ``expert``…), the first
player alternating — with a **sequential probability ratio test** stopping each match as
soon as it is decided (H0: the stronger-listed level is no better, Elo ``--elo0``; H1: it
is ``--elo1`` better; error rates ``--alpha`` and ``--beta``; the normal approximation of
the game score's log-likelihood ratio, as chess engine testing does), or at ``--games``.
It prints each match's score and Elo difference with a 95 % interval, and a ladder: every
level's Elo against the weakest (adjacent differences added, their variances too).

``--previous REF`` adds the previous release's player (``--previous-level``, by default
``expert``, else ``greedy`` when that release has no expert) to the top of the ladder:
the release's ``engine`` package is taken from git (``git archive REF engine``) into a
temporary directory, renamed ``engine_prev`` (its own imports rewritten), and imported
beside the current one; positions cross between the two as ``to_dict()`` data and moves
as their JSON codec, so the old player plays the current rules as far as they agree.

``--one-against LEVEL --players N`` measures a single level in an ``N``-player field of
``LEVEL`` seats instead (the seat rotated each game): its share of wins (a shared win
counts as its share) with a 95 % Wilson interval, next to parity ``1/N``.

Searching levels (those with a node budget) play with ``--nodes`` nodes a move (default
:data:`DEFAULT_NODES`): reproducible, and small enough to finish on a busy machine; the
bot gives them a second a move, which searches far more. ``--budget SECONDS`` gives them
that much time a move instead: equal time, for players whose nodes cost differently (two
releases' searches), not reproducible.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import itertools
import math
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import games
from engine.budget import limit_search
from engine.flow import Chooser, play_out, settle
from engine.game import Game

NAMES = ("north", "east", "south", "west", "nw", "ne", "se", "sw")
DEFAULT_NODES = 300
Z95 = 1.959964


def elo(score: float) -> float:
    """The Elo difference that expects ``score`` (0 < score < 1; clipped just inside)."""
    s = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / s - 1)


def expected(elo_diff: float) -> float:
    """The score an Elo difference of ``elo_diff`` expects."""
    return 1 / (1 + 10 ** (-elo_diff / 400))


@dataclass
class Sprt:
    """A sequential probability ratio test on game scores (1, ½, 0), with the normal
    approximation of the log-likelihood ratio."""

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05
    scores: list[float] = field(default_factory=list)

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self) -> float:
        n = len(self.scores)
        if n < 2:
            return 0.0
        mean = sum(self.scores) / n
        # the variance with half a win and half a loss added (a prior): a run of equal
        # scores is not taken for certainty (with no variance, two wins decided a match)
        prior = (*self.scores, 1.0, 0.0)
        weights = (*([1.0] * n), 0.5, 0.5)
        centre = sum(w * s for w, s in zip(weights, prior, strict=True)) / (n + 1)
        var = sum(w * (s - centre) ** 2 for w, s in zip(weights, prior, strict=True)) / (n + 1)
        s0, s1 = expected(self.elo0), expected(self.elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def verdict(self) -> str | None:
        """``"H1"`` (stronger by ``elo1``), ``"H0"`` (not stronger), or ``None`` (go on)."""
        low, high = self.bounds
        llr = self.llr()
        if llr >= high:
            return "H1"
        if llr <= low:
            return "H0"
        return None


def interval(scores: list[float]) -> tuple[float, float, float]:
    """The mean score and its 95 % Wilson interval (a draw counts half a win; sound
    at a score of 0 or 1 too, where a normal interval has no width)."""
    n = len(scores)
    mean = sum(scores) / n
    low, high = wilson(sum(scores), n)
    return mean, low, high


def elo_words(value: float) -> str:
    """An Elo difference as the ladder prints it (beyond what games can show: ``±inf``)."""
    if value >= elo(1.0):
        return "+inf"
    if value <= elo(0.0):
        return "-inf"
    return f"{value:+z.0f}"  # z: a difference that rounds to 0 is +0, not -0


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a proportion ``wins / n``."""
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return centre - half, centre + half


# ---------------------------------------------------------------------------- players


@dataclass
class Entrant:
    """A player of the ladder: its name and how it chooses a move."""

    name: str
    choose: Chooser


def current_player(
    game: Game[Any], level: str, nodes: int | None, budget: float | None = None
) -> Entrant:
    """The current release's ``level`` (a searching one limited to ``nodes`` a move, or
    to ``budget`` seconds)."""
    ai = limit_search(game.make_ai(level), budget, None if budget is not None else nodes)
    return Entrant(level, ai.choose)


class NoRelease(ValueError):
    """Git has no revision of that name to take the previous release's engine from."""


# ``from engine…`` / ``import engine…`` and a module's name in a string ("engine.stack.expert":
# the games' registry and the levels' experts are imported by name, on first use)
_ENGINE_NAME = re.compile(r"\b(from|import) engine(?=[. ])|(?<=[\"'])engine(?=\.)")


def previous_engine(ref: str, repo: Path) -> Any:
    """The ``engine`` package of git revision ``ref`` of ``repo``, imported as
    ``engine_prev`` (from a temporary directory, removed when the process ends): every
    module it names, by an import or by a string, is its own copy's."""
    if ref.startswith("-"):  # git would read it as an option (--output=FILE writes FILE)
        raise NoRelease(f"no git revision {ref!r} to take the engine from (none begins with -)")
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", ref, "engine"], capture_output=True, check=False
    )
    if archive.returncode != 0:
        said = archive.stderr.decode(errors="replace").strip()
        raise NoRelease(f"no git revision {ref!r} to take the engine from ({said})")
    where = Path(tempfile.mkdtemp(prefix="ladder-"))
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    (where / "engine").rename(where / "engine_prev")
    for path in (where / "engine_prev").rglob("*.py"):
        text = path.read_text()
        path.write_text(_ENGINE_NAME.sub(_prev_name, text))
    sys.path.insert(0, str(where))
    return importlib.import_module("engine_prev.games")


def _prev_name(found: re.Match[str]) -> str:
    return f"{found[1]} engine_prev" if found[1] else "engine_prev"


def previous_player(
    game: Game[Any],
    ref: str,
    level: str | None,
    nodes: int | None,
    repo: Path,
    budget: float | None = None,
) -> Entrant:
    """The player ``level`` of release ``ref`` (by default its expert, else its greedy),
    choosing on the old engine's copy of each position."""
    old_games = previous_engine(ref, repo)
    old = old_games.get(game.name)
    if level is None:
        level = "expert" if "expert" in old.ai_levels else "greedy"
    ai = limit_search(old.make_ai(level), budget, None if budget is not None else nodes)

    # a decision the old release does not have (Color Stack's first player choosing the
    # colours came later) is taken by this release's greedy, as every level takes it
    newer = game.make_ai("greedy")

    def choose(state: Any, rng: random.Random) -> Any:
        mine = old.state_from_dict(state.to_dict())
        if not mine.legal_moves():
            return newer.choose(state, rng)
        return game.decode_move(old.encode_move(ai.choose(mine, rng)))

    return Entrant(f"{level}@{ref}", choose)


# ---------------------------------------------------------------------------- matches


@dataclass
class Result:
    """A finished match: the weaker-listed and stronger-listed players, the stronger's
    score in each game, and the test's verdict."""

    weaker: str
    stronger: str
    scores: list[float]
    verdict: str | None

    @property
    def elo(self) -> tuple[float, float, float]:
        mean, low, high = interval(self.scores)
        return elo(mean), elo(low), elo(high)


def duel(
    game: Game[Any],
    weaker: Entrant,
    stronger: Entrant,
    rng: random.Random,
    sprt: Sprt,
    max_games: int,
    progress: Callable[[int, float], None] | None = None,
) -> Result:
    """``stronger`` against ``weaker`` in two-player games until ``sprt`` decides or
    ``max_games`` (``stronger`` moving first in even games)."""
    settings = game.settings()
    verdict = None
    for g in range(max_games):
        state = game.new_state(NAMES[:2], settings)
        settle(game, state, rng)
        first = state.current_player
        assert first is not None
        strong_seat = first if g % 2 == 0 else 1 - first
        seats = [weaker.choose, weaker.choose]
        seats[strong_seat] = stronger.choose
        play_out(game, state, seats, rng)
        outcome = state.outcome()
        assert outcome is not None
        won = outcome.winners
        sprt.scores.append(0.5 if len(won) != 1 else 1.0 if won[0] == strong_seat else 0.0)
        if progress is not None:
            progress(g + 1, sum(sprt.scores) / len(sprt.scores))
        verdict = sprt.verdict()
        if verdict is not None and g + 1 >= 20:
            break
    return Result(weaker.name, stronger.name, list(sprt.scores), verdict)


def one_against(
    game: Game[Any], player: Entrant, field_ai: Entrant, players: int, games_played: int,
    rng: random.Random, progress: Callable[[int, float], None] | None = None,
) -> float:  # fmt: skip
    """``player``'s share of wins in ``players``-seat games against ``field_ai`` in every
    other seat (its seat ``g % players`` in game ``g``; a shared win counts its share)."""
    wins = 0.0
    for g in range(games_played):
        seat = g % players
        seats = [field_ai.choose] * players
        seats[seat] = player.choose
        state = game.new_state(NAMES[:players], game.settings())
        play_out(game, state, seats, rng)
        outcome = state.outcome()
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
        if progress is not None:
            progress(g + 1, wins)
    return wins


def ladder_lines(results: list[Result]) -> list[str]:
    """The ladder: each player's Elo against the first (adjacent differences added, and
    their intervals' variances); a step no game was lost or won in is only a bound."""
    lines = [f"  {results[0].weaker:<20} {0:>+6.0f}"]
    total = var = 0.0
    bound = ""
    for r in results:
        mid, low, high = r.elo
        if elo_words(mid).endswith("inf"):
            # a clean sweep: the interval's inner end is all the games show
            step = low if mid > 0 else high
            bound = "at least " if mid > 0 else "at most "
            total += step
        else:
            total += mid
            var += ((high - low) / (2 * Z95)) ** 2
        half = Z95 * math.sqrt(var)
        spread = f" ± {half:.0f}" if half >= 0.5 else ""  # a bound alone has no ± of its own
        lines.append(f"  {r.stronger:<20} {bound}{total:+.0f}{spread}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m engine.ladder", description="the AI levels' strength ladder, in Elo"
    )
    parser.add_argument("--game", default="stack", choices=games.names())
    parser.add_argument("--levels", help="levels to ladder, weakest first (default: all)")
    parser.add_argument(
        "--nodes", type=int, default=DEFAULT_NODES, help="searching AIs' node budget a move"
    )
    parser.add_argument(
        "--budget",
        type=float,
        metavar="SECONDS",
        help="searching AIs' time a move instead of --nodes (equal time, not equal nodes)",
    )
    parser.add_argument("--games", type=int, default=400, help="most games a match (at least 1)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's random seed")
    parser.add_argument("--elo0", type=float, default=0.0, help="SPRT: H0, stronger by at most")
    parser.add_argument("--elo1", type=float, default=50.0, help="SPRT: H1, stronger by at least")
    parser.add_argument("--alpha", type=float, default=0.05, help="SPRT: false H1 rate")
    parser.add_argument("--beta", type=float, default=0.05, help="SPRT: false H0 rate")
    parser.add_argument("--previous", metavar="REF", help="add the player of git release REF")
    parser.add_argument("--previous-level", help="REF's level (default: expert, else greedy)")
    parser.add_argument("--one-against", metavar="LEVEL", help="one player in a field of LEVEL")
    parser.add_argument("--players", type=int, default=4, help="seats with --one-against")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, not {args.games}")
    if args.nodes < 1:
        parser.error(f"--nodes must be at least 1, not {args.nodes}")
    if args.budget is not None and not 0 < args.budget < math.inf:
        parser.error(f"--budget is a positive number of seconds, not {args.budget}")
    limited = (
        f"{args.budget:g} s a move" if args.budget is not None else f"{args.nodes} nodes a move"
    )
    if not args.elo0 < args.elo1:
        parser.error(f"--elo0 must be below --elo1, not {args.elo0:g} and {args.elo1:g}")
    if args.previous_level and not args.previous:
        parser.error("--previous-level names a level of --previous REF: give the release too")
    for name in ("alpha", "beta"):
        if not 0 < getattr(args, name) < 1:
            parser.error(f"--{name} is an error rate between 0 and 1, not {getattr(args, name)}")
    game = games.get(args.game)
    levels = args.levels.split(",") if args.levels else list(game.ai_levels)
    named = [*levels, args.one_against] if args.one_against is not None else levels
    unknown = [lv for lv in named if lv not in game.ai_levels]
    if unknown:
        parser.error(
            f"{game.title} has no level {unknown[0]!r}; its levels: {', '.join(game.ai_levels)}"
        )
    if args.one_against and not game.min_players <= args.players <= game.max_players:
        parser.error(
            f"{game.title} takes {game.min_players} to {game.max_players} players, "
            f"not --players {args.players}"
        )
    if not args.one_against and len(levels) + bool(args.previous) < 2:
        parser.error("a ladder needs two levels (or --previous REF, or --one-against LEVEL)")
    rng = random.Random(args.seed)
    entrants = [current_player(game, lv, args.nodes, args.budget) for lv in levels]
    command = "python -m engine.ladder " + " ".join(sys.argv[1:] if argv is None else argv)
    if args.one_against:
        field_ai = current_player(game, args.one_against, args.nodes, args.budget)
        for e in entrants:

            def so_far(n: int, wins: float, name: str = e.name) -> None:
                if not args.quiet and n % 20 == 0:
                    low, high = wilson(wins, n)
                    print(
                        f"  … {name}: {wins:g} of {n} ({low:.1%}–{high:.1%})",
                        file=sys.stderr,
                        flush=True,
                    )

            wins = one_against(game, e, field_ai, args.players, args.games, rng, so_far)
            low, high = wilson(wins, args.games)
            print(
                f"{game.title}, {args.players} players: 1 {e.name} against {args.players - 1} "
                f"{field_ai.name} ({limited}): won {wins:g} of {args.games} = "
                f"{wins / args.games:.1%} (95 % {low:.1%}–{high:.1%}; parity "
                f"{1 / args.players:.1%})",
                flush=True,
            )
        print(f"({command})")
        return
    if args.previous:
        repo = Path(__file__).resolve().parent.parent
        try:
            old = previous_player(
                game, args.previous, args.previous_level, args.nodes, repo, args.budget
            )
        except ValueError as exc:  # no such revision, or no such level of it
            parser.error(str(exc))
        entrants.append(old)
    results = []
    for weaker, stronger in itertools.pairwise(entrants):
        sprt = Sprt(args.elo0, args.elo1, args.alpha, args.beta)

        def progress(n: int, score: float, pair: str = f"{stronger.name} v {weaker.name}") -> None:
            if not args.quiet and n % 10 == 0:
                print(f"  … {pair}: {n} games, score {score:.3f}", file=sys.stderr, flush=True)

        r = duel(game, weaker, stronger, rng, sprt, args.games, progress)
        mid, low, high = r.elo
        mean, _, _ = interval(r.scores)
        verdict = {
            "H1": f"stronger by {args.elo1:g}+ (SPRT)",
            "H0": f"not {args.elo1:g} stronger (SPRT)",
        }
        print(
            f"{game.title}: {r.stronger} v {r.weaker}: {len(r.scores)} games, score "
            f"{mean:.3f}, Elo {elo_words(mid)} (95 % {elo_words(low)} to {elo_words(high)}); "
            f"{verdict.get(r.verdict or '', 'undecided at the game limit')}",
            flush=True,
        )
        results.append(r)
    if results:
        print(f"{game.title} ladder (Elo against {results[0].weaker}, 95 % interval):")
        print("\n".join(ladder_lines(results)))
    print(f"({command}; searching levels at {limited})")


if __name__ == "__main__":
    main()

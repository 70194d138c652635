"""``python -m engine.stackup.oracle``: an upper bound on Stack Up!'s expert, as evidence —
never a playable level (it is in no game's ``ai_levels``).

:class:`OmniscientPlayer` is the expert's search with the hidden cards *known*: every
play-out starts from the true position — every hand and the draw pile in its order —
instead of a determinisation, so only the table's own chance (a Snatch's cards, a rebuilt
pile) and the ``greedy`` seats' tie-breaks are left to sample. How often it beats
``greedy`` is what the hidden cards cost a fair player: no fair player's search of the
same kind can do better.

    python -m engine.stackup.oracle --players 2 --games 300 --nodes 10000

plays it in a field of ``greedy`` seats (its seat rotated each game, as
``python -m engine.ladder --one-against greedy`` does) and prints its share of wins with
a 95 % Wilson interval.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import cast

from engine.flow import Chooser
from engine.ladder import Entrant, one_against, wilson
from engine.stackup.cards import Card
from engine.stackup.expert import ExpertPlayer
from engine.stackup.game import GAME
from engine.stackup.inference import Lacks, LastRun
from engine.stackup.state import StackUpState


class OmniscientPlayer(ExpertPlayer):
    """The expert's search on the true position: it reads every hand and the pile."""

    level = "omniscient"

    def deal(
        self,
        state: StackUpState,
        seat: int,
        unseen: list[Card],
        rng: random.Random,
        lacks: list[Lacks],
        runs: list[LastRun],
    ) -> StackUpState:
        """The true position (a copy): nothing is dealt."""
        return state.copy()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m engine.stackup.oracle",
        description="an omniscient searcher's share of wins against greedy (an upper bound)",
    )
    parser.add_argument("--players", type=int, default=2, help="seats (2-6)")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--nodes", type=int, default=10_000, help="its node budget a move")
    parser.add_argument("--horizon", type=int, help="turns a seat a play-out plays (the end)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    player = OmniscientPlayer(nodes=args.nodes, horizon=args.horizon)
    field_ai = Entrant("greedy", cast(Chooser, GAME.make_ai("greedy").choose))

    def so_far(n: int, wins: float) -> None:
        if n % 20 == 0:
            low, high = wilson(wins, n)
            print(f"  … {wins:g} of {n} ({low:.1%}–{high:.1%})", file=sys.stderr, flush=True)

    me = Entrant("omniscient", cast(Chooser, player.choose))
    wins = one_against(
        GAME, me, field_ai, args.players, args.games, random.Random(args.seed), so_far
    )
    low, high = wilson(wins, args.games)
    print(
        f"Stack Up!, {args.players} players: 1 omniscient (nodes {args.nodes}, horizon "
        f"{args.horizon or 'the end'}) against {args.players - 1} greedy: won {wins:g} of "
        f"{args.games} = {wins / args.games:.1%} (95 % {low:.1%}–{high:.1%}; parity "
        f"{1 / args.players:.1%})",
        flush=True,
    )


if __name__ == "__main__":
    main()

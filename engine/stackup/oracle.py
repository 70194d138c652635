"""``python -m engine.stackup.oracle``: upper bounds on Stack Up!'s expert, as evidence —
never a playable level (they are in no game's ``ai_levels``).

:class:`OmniscientPlayer` is the expert's search with the hidden cards *known*: every
play-out starts from the true position — every hand and the draw pile in its order —
instead of a determinisation, so only the table's own chance (a Snatch's cards, a rebuilt
pile) and the ``greedy`` seats' tie-breaks are left to sample. :class:`HandReader` knows
the hands only: every play-out starts from the true hands and the draw pile shuffled anew,
which is what a perfect reading of the others' hands would give. How often each beats
``greedy`` is what the hidden cards (or the hands alone) cost a fair player: no fair
player's search of the same kind can do better.

    python -m engine.stackup.oracle --players 2 --games 300 --nodes 10000
    python -m engine.stackup.oracle --reads hands --search tree --players 4 --nodes 2400 --games 600 --seed 2

plays one in a field of ``greedy`` seats (its seat rotated each game, as
``python -m engine.ladder --one-against greedy`` does) and prints its share of wins with
a 95 % Wilson interval. ``--search flat`` is :class:`~.expert.ExpertPlayer`'s sampling
(the default, as before); ``--search tree`` is the ``expert`` level's own search
(:class:`~.ismcts.IsmctsPlayer`, its tree of its own later turns) over the same deals.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import cast

from engine.flow import Chooser
from engine.ladder import Entrant, one_against, wilson
from engine.stackup.cards import Card
from engine.stackup.expert import WIDTH, ExpertPlayer, _dealt
from engine.stackup.game import GAME
from engine.stackup.inference import Lacks, LastRun
from engine.stackup.ismcts import HORIZON, IsmctsPlayer
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


class HandReader(ExpertPlayer):
    """The expert's search reading the others' hands, not the pile: every play-out starts
    from the true hands, the draw pile shuffled by the play-out's own random source."""

    level = "hand reader"

    def deal(
        self,
        state: StackUpState,
        seat: int,
        unseen: list[Card],
        rng: random.Random,
        lacks: list[Lacks],
        runs: list[LastRun],
    ) -> StackUpState:
        """The true hands and the pile's cards in a random order."""
        pile = list(state.pile)
        rng.shuffle(pile)
        return _dealt(state, seat, [list(state.hand(p)) for p in range(state.n)], pile)


READERS: dict[str, type[ExpertPlayer]] = {"all": OmniscientPlayer, "hands": HandReader}
READ_WORDS = {"all": "every hand and the pile", "hands": "the hands"}


def make_oracle(
    reads: str, search: str, nodes: int, horizon: int | None
) -> ExpertPlayer | IsmctsPlayer:
    """An upper bound that reads ``reads`` (``"all"``: every hand and the pile;
    ``"hands"``: the hands) with ``search`` (``"flat"``: :class:`~.expert.ExpertPlayer`'s
    sampling; ``"tree"``: the ``expert`` level's :class:`~.ismcts.IsmctsPlayer`, whose
    play-outs go ``horizon`` turns a seat, its default when ``None``)."""
    if reads not in READERS:
        raise ValueError(f"an oracle reads 'all' or 'hands', not {reads!r}")
    reader = READERS[reads]
    if search == "flat":
        return reader(nodes=nodes, horizon=horizon)
    if search != "tree":
        raise ValueError(f"an oracle's search is 'flat' or 'tree', not {search!r}")
    horizon = HORIZON if horizon is None else horizon
    dealer = reader(nodes=1, horizon=horizon, width=WIDTH)
    return IsmctsPlayer(nodes=nodes, horizon=horizon, dealer=dealer)


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
    parser.add_argument(
        "--reads",
        choices=tuple(READERS),
        default="all",
        help="every hand and the pile, or the hands",
    )
    parser.add_argument(
        "--search",
        choices=("flat", "tree"),
        default="flat",
        help="the sampling, or the level's tree",
    )
    args = parser.parse_args(argv)
    if not GAME.min_players <= args.players <= GAME.max_players:
        parser.error(f"--players is {GAME.min_players} to {GAME.max_players}, not {args.players}")
    if args.games < 1 or args.nodes < 1:
        parser.error("--games and --nodes are at least 1")
    player = make_oracle(args.reads, args.search, args.nodes, args.horizon)
    field_ai = Entrant("greedy", cast(Chooser, GAME.make_ai("greedy").choose))

    def so_far(n: int, wins: float) -> None:
        if n % 20 == 0:
            low, high = wilson(wins, n)
            print(f"  … {wins:g} of {n} ({low:.1%}–{high:.1%})", file=sys.stderr, flush=True)

    me = Entrant(f"oracle reading {args.reads}", cast(Chooser, player.choose))
    wins = one_against(
        GAME, me, field_ai, args.players, args.games, random.Random(args.seed), so_far
    )
    low, high = wilson(wins, args.games)
    print(
        f"Stack Up!, {args.players} players: 1 oracle reading {READ_WORDS[args.reads]} "
        f"({args.search} search, nodes {args.nodes}, horizon {player.horizon or 'the end'}) "
        f"against {args.players - 1} greedy: won {wins:g} of "
        f"{args.games} = {wins / args.games:.1%} (95 % {low:.1%}–{high:.1%}; parity "
        f"{1 / args.players:.1%})",
        flush=True,
    )


if __name__ == "__main__":
    main()

"""``python -m engine.stackup.fit --players N``: refit the expert's evaluation.

Plays ``--games`` games of greedy self-play (the wordless policy, :mod:`.policy`), keeps
the positions at the start of a turn with a decision and no Crash pending (each with chance
``--sample``), and fits a multinomial logistic regression of which seat won on each
seat's features (:func:`features`, the order of :func:`.expert.seat_score`'s coefficients,
then how many seats after the seat to act it sits). Prints the coefficients and the
held-out log-likelihood per position. The expert's ``_TWO`` / ``_LATER_TWO`` come from
``--players 2``, ``_MORE`` / ``_LATER_MORE`` from ``--players 4`` (README, "AI levels").
"""

from __future__ import annotations

import argparse
import math
import random

import numpy as np
import numpy.typing as npt

from engine.stackup.ai import best_run
from engine.stackup.cards import CRASH, FLIP, FREEZE, SNATCH, SWITCH
from engine.stackup.policy import greedy_choice
from engine.stackup.rules import MAX_PLAYERS, MIN_PLAYERS
from engine.stackup.shape import hand_shape
from engine.stackup.state import StackUpState

NAMES = ("a", "b", "c", "d", "e", "f")
FEATURES = (
    "log size",
    "size",
    "flips",
    "freezes",
    "snatches",
    "switches",
    "crashes",
    "passes",
    "switches+crashes in a hand of 1-2",
    "flips+freezes+snatches in a hand of 1-2",
    "runs its number cards split into",
    "colours held",
    "most cards of one colour",
    "longest run",
    "to act: most cards one number play sheds now",
    "to act: stuck (no number play, no special)",
    "log of the plays the hand needs (runs + specials)",
    "the hand is one run",
)


def features(state: StackUpState, seat: int) -> list[float]:
    """``seat``'s features, in the order of :data:`FEATURES` (those "to act" are 0 for a
    seat that is not the seat to act)."""
    hand = state.hands[seat]
    runs, colours, most, longest = hand_shape(hand)
    act = now = stuck = 0.0
    if state.seat == seat and state.up is not None:
        act = 1.0
        now = float(best_run(hand, state.colour, state.number, state.up))
        stuck = 1.0 if now == 0 and not any(c >= FLIP for c in hand) else 0.0
    specials = sum(1 for c in hand if c >= FLIP)
    size = len(hand)
    switch_crash = hand.count(SWITCH) + hand.count(CRASH)
    liabilities = hand.count(FLIP) + hand.count(FREEZE) + hand.count(SNATCH)
    small = 1.0 if size <= 2 else 0.0
    return [
        math.log(max(size, 1)),
        float(size),
        float(hand.count(FLIP)),
        float(hand.count(FREEZE)),
        float(hand.count(SNATCH)),
        float(hand.count(SWITCH)),
        float(hand.count(CRASH)),
        float(state.passes[seat]),
        small * switch_crash,
        small * liabilities,
        float(runs),
        float(colours),
        float(most),
        float(longest),
        act * now,
        act * stuck,
        math.log(runs + specials + 1),
        1.0 if runs == 1 and not specials else 0.0,
    ]


def positions(
    players: int, games: int, sample: float, seed: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Features ``[position, seat from the seat to act, feature]`` (the distance as one-hot
    columns after the hand's) and each seat's share of the win ``[position, seat]``."""
    rng = random.Random(seed)
    rows: list[list[list[float]]] = []
    wins: list[list[float]] = []
    for _ in range(games):
        state = StackUpState(NAMES[:players])
        kept: list[tuple[int, list[list[float]]]] = []
        while not state.is_over:
            p = state.current_player
            if p is None:
                state.apply(state.sample_chance(rng))
                continue
            if state.phase == "turn" and state.pending_crash is None and rng.random() < sample:
                seats = [(p + k) % players for k in range(players)]
                kept.append(
                    (
                        p,
                        [
                            features(state, s) + [1.0 if k == j else 0.0 for j in range(1, players)]
                            for k, s in enumerate(seats)
                        ],
                    )
                )
            state.apply(greedy_choice(state, rng))
        winners = state.winners or ()
        for p, row in kept:
            rows.append(row)
            wins.append(
                [1 / len(winners) if (p + k) % players in winners else 0.0 for k in range(players)]
            )
    return np.array(rows, dtype=np.float64), np.array(wins, dtype=np.float64)


def _probabilities(
    x: npt.NDArray[np.float64], w: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    s = x @ w
    s -= s.max(axis=1, keepdims=True)
    e = np.exp(s)
    out: npt.NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
    return out


def fit(
    x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], steps: int = 600
) -> npt.NDArray[np.float64]:
    """The coefficients maximising the log-likelihood of ``y`` (Adam, ``steps`` steps)."""
    w = np.zeros(x.shape[2])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for step in range(1, steps + 1):
        g = np.einsum("nk,nkf->f", y - _probabilities(x, w), x) / len(x)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w += 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def log_likelihood(
    x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], w: npt.NDArray[np.float64]
) -> float:
    """The mean log-likelihood per position of ``y`` under ``w``."""
    return float((y * np.log(_probabilities(x, w) + 1e-12)).sum(axis=1).mean())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m engine.stackup.fit", description=__doc__)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=8000)
    parser.add_argument("--sample", type=float, default=0.3, help="share of turns kept")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        parser.error(f"--players is {MIN_PLAYERS} to {MAX_PLAYERS}, not {args.players}")
    if args.games < 1 or not 0 < args.sample <= 1:
        parser.error("--games is at least 1 and --sample a share of turns above 0, at most 1")
    x, y = positions(args.players, args.games, args.sample, args.seed)
    order = np.random.default_rng(args.seed).permutation(len(x))
    train, test = order[: len(x) * 4 // 5], order[len(x) * 4 // 5 :]
    w = fit(x[train], y[train])
    names = [*FEATURES, *(f"{j} after the seat to act" for j in range(1, args.players))]
    print(f"{len(x)} positions of {args.games} games, {args.players} players")
    for name, value in zip(names, w, strict=True):
        print(f"  {name:<42} {value:+.3f}")
    print(f"held-out log-likelihood per position: {log_likelihood(x[test], y[test], w):.4f}")


if __name__ == "__main__":
    main()

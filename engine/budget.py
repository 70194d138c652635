"""A searching AI's per-move budget (seconds on a clock, or a number of nodes), and the
sampling loop of the experts of the games of chance.

Every expert (Stack's, Stack Up!'s, Color Stack's) searches within one: ``seconds``
(default 1) for play, or ``nodes`` for reproducible play and tests — a node budget ignores
the clock entirely, so the same position, budget and random source give the same move on
any machine, however loaded.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from engine.rating import NoMoveError

M = TypeVar("M")

DEFAULT_BUDGET = 1.0  # seconds a move


class Budget:
    """Counts a search's nodes and says when its budget is spent."""

    __slots__ = ("deadline", "limit", "nodes")

    def __init__(self, seconds: float = DEFAULT_BUDGET, nodes: int | None = None) -> None:
        check_budget(seconds, nodes)
        self.nodes = 0
        self.limit = nodes
        self.deadline = None if nodes is not None else time.perf_counter() + seconds

    def spend(self, nodes: int) -> None:
        """Count ``nodes`` more nodes searched."""
        self.nodes += nodes

    @property
    def spent(self) -> bool:
        """Whether the search should stop now."""
        if self.limit is not None:
            return self.nodes >= self.limit
        assert self.deadline is not None
        return time.perf_counter() >= self.deadline


def check_budget(seconds: float, nodes: int | None) -> None:
    """Refuse a budget that is not one (``ValueError`` naming it)."""
    if not seconds > 0:
        raise ValueError(f"the expert's budget is a positive number of seconds, not {seconds!r}")
    if nodes is not None and nodes < 1:
        raise ValueError(f"the expert's node budget is at least 1, not {nodes!r}")


@dataclass(frozen=True, slots=True)
class Sampled(Generic[M]):
    """A move's play-outs: their mean value, and how far above the ``prior`` move's it is
    in standard errors of the paired difference (0 for the prior itself)."""

    move: M
    mean: float
    lead: float


def rank_by_sampling(
    moves: Sequence[M],
    sample: Callable[[int, int], float],
    rng: random.Random,
    budget: Budget,
    prior: int = 0,
) -> tuple[list[Sampled[M]], int]:
    """Every move of ``moves`` sampled over rounds, best mean first, and the rounds played.

    ``sample(i, seed)`` plays move ``i`` out once with the chance (and, in a game of hidden
    cards, the unseen cards) drawn from ``seed``, charging ``budget`` for its nodes; every
    move of a round gets the same seed (common random numbers: the moves are compared on
    equal luck, and each one's lead over move ``prior`` is a paired difference). Rounds go
    on until ``budget`` is spent — checked between rounds, so a node budget gives the same
    ranking for the same ``rng`` — and there are at least two (a lead needs a spread).
    """
    count = len(moves)
    totals = [0.0] * count
    diffs = [0.0] * count  # sums of (value - prior's value) and of its square
    squares = [0.0] * count
    rounds = 0
    while rounds < 2 or not budget.spent:
        seed = rng.getrandbits(64)
        values = [sample(i, seed) for i in range(count)]
        base = values[prior]
        for i, v in enumerate(values):
            totals[i] += v
            d = v - base
            diffs[i] += d
            squares[i] += d * d
        rounds += 1
    out = []
    for i in sorted(range(count), key=lambda i: -totals[i]):
        mean_diff = diffs[i] / rounds
        var = max(0.0, squares[i] / rounds - mean_diff * mean_diff)
        if i == prior or rounds < 2:
            lead = 0.0
        elif var == 0.0:
            lead = math.copysign(math.inf, mean_diff) if mean_diff else 0.0
        else:
            lead = mean_diff / math.sqrt(var / (rounds - 1))
        out.append(Sampled(moves[i], totals[i] / rounds, lead))
    return out, rounds


def pick(ranked: Sequence[Sampled[M]], prior: M, confidence: float) -> M:
    """The best-sampled move when it leads ``prior`` by at least ``confidence`` standard
    errors, else ``prior`` (a few noisy play-outs do not overrule a sound heuristic)."""
    best = ranked[0]
    return best.move if best.lead >= confidence else prior


class Seated(Protocol):
    """A game state as an expert sees it: whose decision it is (``None``: nobody's)."""

    @property
    def current_player(self) -> int | None: ...


S = TypeVar("S", bound=Seated)


def limit_search(ai: Any, budget: float | None, nodes: int | None) -> Any:
    """``ai`` limited, when it searches (has a ``budget``), to ``nodes`` nodes a move (a
    node budget ignores the clock) or else to ``budget`` seconds a move, its node budget
    lifted; any other AI, or one given neither, unchanged. The tools' ``--nodes`` and
    ``--budget`` (``engine.simulate``, ``engine.ladder``)."""
    if hasattr(ai, "budget"):
        if budget is not None:
            ai.budget = budget
            ai.nodes = nodes
        elif nodes is not None:
            ai.nodes = nodes
    return ai


def limit_words(budget: float, nodes: int | None) -> str:
    """A searching AI's limit as its ``repr`` shows it: ``nodes=300`` or ``budget=1.0``."""
    return f"nodes={nodes}" if nodes is not None else f"budget={budget}"


class SampledExpert(Generic[S, M]):
    """An expert that samples play-outs (:func:`rank_by_sampling`) within ``budget``
    seconds or exactly ``nodes`` nodes a move, and plays the best-sampled move when it
    leads the heuristic's by :attr:`confidence` standard errors (:func:`pick`). A game's
    expert says which moves to sample (:meth:`candidates`) and how to play one out
    (:meth:`sampler`)."""

    level = "expert"
    confidence = 1.0

    def __init__(self, budget: float = DEFAULT_BUDGET, nodes: int | None = None) -> None:
        check_budget(budget, nodes)
        self.budget = budget
        self.nodes = nodes

    def __repr__(self) -> str:
        return (
            f"{type(self).__module__}.{type(self).__name__}({limit_words(self.budget, self.nodes)})"
        )

    def choose(self, state: S, rng: random.Random) -> M:
        ranked, prior = self.scores(state, rng)
        return pick(ranked, prior, self.confidence)

    def scores(self, state: S, rng: random.Random) -> tuple[list[Sampled[M]], M]:
        """The candidate moves sampled (best mean first), and the heuristic's move (the
        state is not changed)."""
        seat = state.current_player
        found = None if seat is None else self.candidates(state)
        if seat is None or found is None:
            raise NoMoveError("There is no move to choose.")
        moves, prior = found
        if len(moves) == 1:
            return [Sampled(moves[0], 0.0, 0.0)], prior
        budget = Budget(self.budget, self.nodes)
        sample = self.sampler(state, seat, moves, budget)
        ranked, _ = rank_by_sampling(moves, sample, rng, budget, moves.index(prior))
        return ranked, prior

    def candidates(self, state: S) -> tuple[list[M], M] | None:
        """The moves worth sampling (in the legal order) and the heuristic's move among
        them; ``None`` when there is no move."""
        raise NotImplementedError

    def sampler(
        self, state: S, seat: int, moves: list[M], budget: Budget
    ) -> Callable[[int, int], float]:
        """``sample(i, seed)`` for :func:`rank_by_sampling`: move ``i`` played out once for
        ``seat``, its value, its nodes charged to ``budget``."""
        raise NotImplementedError

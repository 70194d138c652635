"""Stack Up!'s ``expert`` AI: single-observer information-set MCTS (SO-ISMCTS, Cowling,
Powley & Whitehouse 2012) that plans the searching seat's own later turns, over the
determinisations, the play-outs and the evaluation of :mod:`.expert`.

:class:`~.expert.ExpertPlayer` ranks only its immediate moves and plays every later turn,
its own included, by the ``greedy`` policy. This one grows a tree of its own decision
points instead — *open loop*: a node is the sequence of its own decisions that led to it,
whatever the cards and the other seats did in between — so a move can be valued by the
best of what the seat does next, not by what greedy would do.

**Each iteration** draws one determinisation of the cards the seat has not seen, with
:meth:`.expert.ExpertPlayer.deal` (the same inference from the public history, the same
fairness — never another hand or the pile), then descends: at the seat's own decisions
(those with a choice) it selects by UCB1 over the moves legal in this determinisation,
counting each move's *availability* (how often it was legal when its node was reached) in
place of the parent's visits (ISMCTS); the other seats play the ``greedy`` move
(:func:`~.policy.greedy_choice`: exactly how a greedy table plays) and chance is drawn from
the iteration's seed. One node is added an iteration. On leaving the tree — a new node, or
:data:`DEPTH` own decisions deep — every seat plays ``greedy`` for ``horizon`` turns a seat
and the position is scored by :func:`.expert.evaluate` (or, with ``horizon=None``, played
to the end).

**Paired** (:data:`PAIRED`, the level's way): every round draws one determinisation and
tries every root move from it with the same chance (common random numbers, as
:func:`~engine.budget.rank_by_sampling` does for :class:`~.expert.ExpertPlayer`), each
followed by a descent of its own subtree; at depth 1 it is exactly that player. Unpaired,
each iteration selects its root move too.

The root's moves are the best :data:`WIDTH` by :func:`.expert.rate`, deeper nodes' the best
:data:`WIDTH` by the greedy value; an optional progressive bias (``bias``) adds each move's
rating, scaled to ``[0, 1]`` at its node, divided by its visits plus one. The move played
is the root's most visited (``final = "visits"``) or best mean (``"mean"``) — paired, the
best mean — and only when it leads the heuristic's move by ``confidence`` standard errors
of the difference of their means; else the heuristic's move.

Under a node budget (moves applied, counted as :mod:`.expert` counts them) the budget is
checked between iterations, so the same position and random source give the same move.
What each part is worth against ``greedy``: README, "AI levels and how strong they are".
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from engine.budget import (
    DEFAULT_BUDGET,
    Budget,
    Sampled,
    check_budget,
    limit_words,
    rank_by_sampling,
)
from engine.rating import NoMoveError
from engine.stackup.expert import EXTRA, WIDTH, ExpertPlayer, evaluate, rate, unseen_cards
from engine.stackup.inference import read_history
from engine.stackup.moves import PlayerMove
from engine.stackup.policy import greedy_choice, greedy_values
from engine.stackup.state import StackUpState

DEPTH = 3  # own decisions (with a choice) the tree may plan, the root's included
HORIZON = 1  # turns of every seat played by greedy after the tree before evaluating
EXPLORATION = 0.25  # UCB1's constant (values are shares of a win, in [0, 1])
BIAS = 0.0  # weight of the progressive bias (the move's scaled rating / (visits + 1))
FINAL = "visits"  # the root move chosen by "visits" or by "mean"
CONFIDENCE = 1.0  # standard errors by which the chosen move must lead the heuristic's
PAIRED = True  # every root move tried on every deal (common random numbers)


@dataclass(slots=True)
class _Edge:
    """A move out of a node: how often it was legal there, chosen, and what it scored."""

    prior: float  # its rating scaled to [0, 1] at the node (for the progressive bias)
    avail: int = 0
    visits: int = 0
    total: float = 0.0
    squares: float = 0.0
    child: _Node | None = None

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    @property
    def variance(self) -> float:
        """The sample variance of its values (0 with fewer than two)."""
        if self.visits < 2:
            return 0.0
        m = self.mean
        return max(0.0, (self.squares - self.visits * m * m) / (self.visits - 1))


@dataclass(slots=True)
class _Node:
    """One of the searching seat's own decision points (reached by its own moves)."""

    edges: dict[PlayerMove, _Edge] = field(default_factory=dict)


def _scaled(values: list[float]) -> list[float]:
    """``values`` scaled to ``[0, 1]`` (all 1 when they are equal)."""
    low, high = min(values), max(values)
    if high - low < 1e-12:
        return [1.0] * len(values)
    return [(v - low) / (high - low) for v in values]


def _top(moves: list[PlayerMove], values: list[float], width: int) -> list[int]:
    """The indices of the best ``width`` of ``moves`` by ``values`` (first of equals), in
    the legal order."""
    if len(moves) <= width:
        return list(range(len(moves)))
    return sorted(sorted(range(len(moves)), key=lambda i: -values[i])[:width])


class IsmctsPlayer:
    """The SO-ISMCTS expert (the module's description), within ``budget`` seconds or
    exactly ``nodes`` nodes (moves applied in iterations) a move."""

    level = "expert"

    def __init__(
        self,
        budget: float = DEFAULT_BUDGET,
        nodes: int | None = None,
        *,
        depth: int = DEPTH,
        horizon: int | None = HORIZON,
        width: int = WIDTH,
        exploration: float = EXPLORATION,
        bias: float = BIAS,
        final: str = FINAL,
        confidence: float | None = CONFIDENCE,
        runs: bool = True,
        paired: bool = PAIRED,
        dealer: ExpertPlayer | None = None,
    ) -> None:
        check_budget(budget, nodes)
        if depth < 1:
            raise ValueError(f"the tree plans at least the move to play, not depth {depth!r}")
        if final not in ("visits", "mean"):
            raise ValueError(f"the final move is chosen by 'visits' or 'mean', not {final!r}")
        self.budget = budget
        self.nodes = nodes
        self.depth = depth
        self.horizon = horizon
        self.width = width
        self.exploration = exploration
        self.bias = bias
        self.final = final
        self.confidence = confidence  # None: always the search's move
        self.runs = runs
        self.paired = paired  # every root move tried on every deal (common random numbers)
        # the determinisations' dealer: the expert's own (fair) unless an oracle's is given
        self._dealer = (
            dealer
            if dealer is not None
            else ExpertPlayer(nodes=1, horizon=horizon, width=width, runs=runs)
        )

    def __repr__(self) -> str:
        return (
            f"{type(self).__module__}.{type(self).__name__}({limit_words(self.budget, self.nodes)})"
        )

    def choose(self, state: StackUpState, rng: random.Random) -> PlayerMove:
        ranked, prior = self.scores(state, rng)
        if self.confidence is None:
            return ranked[0].move
        best = ranked[0]
        return best.move if best.lead >= self.confidence else prior

    def scores(
        self, state: StackUpState, rng: random.Random
    ) -> tuple[list[Sampled[PlayerMove]], PlayerMove]:
        """The root's moves searched, the chosen first (then by the final criterion), each
        with its mean and its lead over the heuristic's move in standard errors; and the
        heuristic's move (the state is not changed)."""
        seat = state.current_player
        rated = rate(state) if seat is not None else []
        if seat is None or not rated:
            raise NoMoveError("There is no move to choose.")
        moves = [m for m, _ in rated]
        values = [v for _, v in rated]
        top = _top(moves, values, self.width)
        prior = moves[max(top, key=lambda i: (values[i], -i))]
        if len(top) == 1:
            return [Sampled(moves[top[0]], 0.0, 0.0)], prior
        root = _Node()
        for i, scaled in zip(top, _scaled([values[i] for i in top]), strict=True):
            root.edges[moves[i]] = _Edge(scaled)
        root_moves = [moves[i] for i in top]
        budget = Budget(self.budget, self.nodes)
        if self.paired:
            return self._paired(state, seat, root, root_moves, prior, rng, budget), prior
        unseen = unseen_cards(state, seat)
        lacks, runs = read_history(state, seat)
        if not self.runs:
            runs = []
        iterations = 0
        while iterations < len(root_moves) or not budget.spent:
            it_rng = random.Random(rng.getrandbits(64))
            sim = self._dealer.deal(state, seat, unseen, it_rng, lacks, runs)
            self._iterate(sim, seat, root, root_moves, it_rng, budget)
            iterations += 1
        return self._ranked(root, prior), prior

    def _paired(
        self,
        state: StackUpState,
        seat: int,
        root: _Node,
        root_moves: list[PlayerMove],
        prior: PlayerMove,
        rng: random.Random,
        budget: Budget,
    ) -> list[Sampled[PlayerMove]]:
        """The root's moves ranked by :func:`~engine.budget.rank_by_sampling`: every round
        one determinisation, every root move tried from it with the same chance (common
        random numbers), each followed by a descent of its own subtree."""
        deal_round = self._dealer.round_deals(state, seat)

        def sample(i: int, seed: int) -> float:
            sim, it_rng = deal_round(seed)
            return self._iterate(sim, seat, root, root_moves, it_rng, budget, root_moves[i])

        ranked, _ = rank_by_sampling(root_moves, sample, rng, budget, root_moves.index(prior))
        return ranked

    def _ranked(self, root: _Node, prior: PlayerMove) -> list[Sampled[PlayerMove]]:
        base = root.edges[prior]

        def lead(e: _Edge) -> float:
            if e is base or e.visits < 2 or base.visits < 2:
                return 0.0
            diff = e.mean - base.mean
            var = e.variance / e.visits + base.variance / base.visits
            if var == 0.0:
                return math.copysign(math.inf, diff) if diff else 0.0
            return diff / math.sqrt(var)

        items = list(root.edges.items())
        if self.final == "visits":
            items.sort(key=lambda kv: (-kv[1].visits, -kv[1].mean))
        else:
            items.sort(key=lambda kv: (-kv[1].mean, -kv[1].visits))
        return [Sampled(m, e.mean, lead(e)) for m, e in items]

    def _select(self, node: _Node, moves: list[PlayerMove]) -> tuple[PlayerMove, _Edge]:
        """The move to follow at ``node`` among ``moves`` (legal here, all with edges,
        their availability counted): an untried one (the best rated first), else UCB1 with
        availability counts and the progressive bias."""
        edges = node.edges
        untried = [m for m in moves if edges[m].visits == 0]
        if untried:
            m = max(untried, key=lambda m: edges[m].prior)
            return m, edges[m]
        best_m = moves[0]
        best_e = edges[best_m]
        best_v = -math.inf
        c, b = self.exploration, self.bias
        for m in moves:
            e = edges[m]
            v = e.total / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
            if b:
                v += b * e.prior / (e.visits + 1)
            if v > best_v:
                best_m, best_e, best_v = m, e, v
        return best_m, best_e

    def _iterate(
        self,
        sim: StackUpState,
        seat: int,
        root: _Node,
        root_moves: list[PlayerMove],
        rng: random.Random,
        budget: Budget,
        first: PlayerMove | None = None,
    ) -> float:
        """One iteration from the determinisation ``sim`` (its root move ``first`` when
        given, else selected): select, expand one node, play out, evaluate, back the value
        up the edges followed; the value."""
        path: list[_Edge] = []
        node: _Node | None = root
        stop: int | None = None  # the play-out's last turn, once the tree is left
        applied = 0
        horizon = self.horizon
        while not sim.is_over:
            if stop is not None and not (
                sim.turns_taken < stop
                or (sim.pending_crash is not None and sim.turns_taken < stop + EXTRA)
            ):
                break
            p = sim.current_player
            if p is None:
                sim.apply(sim.sample_chance(rng))
                applied += 1
                continue
            if p != seat or node is None:
                sim.apply(greedy_choice(sim, rng))
                applied += 1
                continue
            if node is root:
                moves = root_moves
            else:
                legal = sim.legal_moves()
                if len(legal) == 1:
                    sim.apply(legal[0])
                    applied += 1
                    continue
                values = greedy_values(sim, legal)
                top = _top(legal, values, self.width)
                moves = [legal[i] for i in top]
                scaled = _scaled([values[i] for i in top])
                for m, s in zip(moves, scaled, strict=True):
                    if m not in node.edges:
                        node.edges[m] = _Edge(s)
            for m in moves:
                node.edges[m].avail += 1
            if node is root and first is not None:
                move, edge = first, root.edges[first]
            else:
                move, edge = self._select(node, moves)
            fresh = edge.visits == 0
            path.append(edge)
            turns = sim.turns_taken
            sim.apply(move)
            applied += 1
            if fresh or len(path) >= self.depth:
                node = None
                stop = sim.turn_limit + 1 if horizon is None else turns + horizon * sim.n + 1
            else:
                if edge.child is None:
                    edge.child = _Node()
                node = edge.child
        budget.spend(applied)
        value = evaluate(sim, seat)
        for e in path:
            e.visits += 1
            e.total += value
            e.squares += value * value
        return value


def make_expert(budget: float = DEFAULT_BUDGET, nodes: int | None = None) -> IsmctsPlayer:
    """Stack Up!'s ``expert`` AI: ``budget`` seconds a move (or ``nodes`` nodes)."""
    return IsmctsPlayer(budget=budget, nodes=nodes)

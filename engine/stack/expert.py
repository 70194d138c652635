"""Stack's ``expert`` AI: a sampled search over the dice's chance, within a per-move budget.

Stack is a game of chance (every reroll) among several players, so the expert does not
look for a best line but for the move with the best *expected* field when its turn comes
round again. For each legal move it plays out, on a private copy of the state, the move
itself and every other seat's turn until its own next turn (or the round's end): the
rerolls' faces are drawn from a random source and the other seats play the ``greedy``
player's move (its model of an opponent). The copy's field is then scored by
:func:`evaluate`. Each round of sampling plays every candidate once with the *same*
dice (common random numbers: :func:`~engine.budget.rank_by_sampling`), and rounds go on
until the budget is spent. The best mean wins when it leads the ``greedy`` player's move
by :data:`CONFIDENCE` standard errors of their paired difference (else the greedy move:
noise does not overrule a sound heuristic).

**Evaluation, in one sentence**: the round-end race — the seat's side's running total
plus what the field would score now, against the best other side's — plus the captures in
its reach (a 3-high pile of a face it holds unstacked) and minus its piles an opponent can
take straight back (a 2- or 3-high pile of a face an opponent holds unstacked); a won game
is worth more than any field.

**Budget**: :class:`~engine.budget.Budget`: ``budget`` seconds (default 1) or ``nodes``
(each move applied in a play-out is a node), checked after each round of sampling, so a
node budget gives the same move for the same random source on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.budget import DEFAULT_BUDGET, Budget, SampledExpert
from engine.stack.ai import GreedyPlayer
from engine.stack.moves import PlayerMove, face_value
from engine.stack.state import Phase, StackState

WON = 10_000.0  # a game won (lost: minus this), beyond any field
REACH = 0.5  # a capture in reach: its value, discounted (one move a turn, others may take it)
EXPOSED = 0.4  # a pile an opponent can take back: its value, discounted
AHEAD = 0.25  # weight of the lead over the average other side (besides the best one)
CONFIDENCE = 0.5  # standard errors by which a move must lead the greedy one to be played
MAX_PLAYOUT = 200  # moves a play-out may apply (a turn round is far fewer)


def evaluate(state: StackState, seat: int) -> float:
    """The field's value for ``seat`` (see the module's sentence)."""
    if state.is_over:
        return WON if state.winner is not None and seat in state.winner else -WON
    side = state.team_members(seat)
    in_round = state.phase is not Phase.CHANCE or state.chance_kind == "roll"
    field = state.field_scores() if in_round else [0] * state.n
    standing = [state.totals[s] + field[s] for s in range(state.n)]
    mine = sum(standing[s] for s in side)
    others: dict[tuple[int, ...], int] = {}
    for s in range(state.n):
        if s not in side:
            key = state.team_members(s)
            others[key] = others.get(key, 0) + standing[s]
    if not others:
        return float(mine)
    best = max(others.values())
    value = mine - best + AHEAD * (mine - sum(others.values()) / len(others))
    if in_round:
        value += _reach(state, seat, side)
    return value


def _reach(state: StackState, seat: int, side: tuple[int, ...]) -> float:
    """Captures in ``seat``'s reach minus its side's piles the others can take back."""
    bonus = 2 if state.rules.four_high_bonus else 1
    singles = state.singles
    opponents = [s for s in range(state.n) if s not in side]
    reach = 0.0
    exposed = 0.0
    for (owner, face, height), comps in state.piles.items():
        if not comps:
            continue
        fv = face_value(face)
        if owner in side:
            if any(singles[o][face] for o in opponents):
                exposed += fv * len(comps) * (1.0 if height == 3 else 0.5)
        elif height == 3 and singles[seat][face]:
            reach = max(reach, fv * bonus + fv)
    return REACH * reach - EXPOSED * exposed


class ExpertPlayer(SampledExpert[StackState, PlayerMove]):
    """Stack's expert: sampled play-outs of every move to its next turn (the module's
    description), within ``budget`` seconds or exactly ``nodes`` nodes a move."""

    confidence = CONFIDENCE
    _greedy = GreedyPlayer()

    def candidates(self, state: StackState) -> tuple[list[PlayerMove], PlayerMove] | None:
        """Every legal move, and the greedy player's."""
        moves = state.legal_moves()
        return (moves, self._greedy.best(state).move) if moves else None

    def sampler(
        self, state: StackState, seat: int, moves: list[PlayerMove], budget: Budget
    ) -> Callable[[int, int], float]:
        base = state.to_dict(full_history=False)

        def sample(i: int, seed: int) -> float:
            sim = StackState.from_dict(base)
            return self._play_out(sim, moves[i], seat, random.Random(seed), budget)

        return sample

    def _play_out(
        self, sim: StackState, move: PlayerMove, me: int, rng: random.Random, budget: Budget
    ) -> float:
        """Play ``move`` then the others' turns until ``me`` is to move again (a new turn,
        not the placing of its reroll) or the round ends; the end's value for ``me``."""
        sim.apply(move)
        applied = 1
        greedy = self._greedy
        while applied < MAX_PLAYOUT:
            if sim.is_over:
                break
            if sim.phase is Phase.CHANCE:
                if sim.chance_kind != "roll":
                    break  # the round is over: its scores are in the totals
                sim.apply(sim.sample_chance(rng))
            elif sim.current == me and sim.phase is Phase.TURN:
                break
            else:
                sim.apply(greedy.choose(sim, rng))
            applied += 1
        budget.spend(applied)
        return evaluate(sim, me)


def make_expert(budget: float = DEFAULT_BUDGET, nodes: int | None = None) -> ExpertPlayer:
    """Stack's ``expert`` AI: ``budget`` seconds a move (or ``nodes`` nodes)."""
    return ExpertPlayer(budget=budget, nodes=nodes)

"""Stack Up!'s ``expert`` AI: determinised sampling of the hidden cards (perfect-information
Monte Carlo), within a per-move budget — deciding only from what its seat may see.

**What it knows**: its own hand, the stack (all of it face up), every hand's size, the
draw pile's size, passes and the pending Crash — never another hand or the pile's cards.
The cards it has not seen are the full deck less its hand and the stack. It never reads
them from the state: a determinisation starts from those unseen cards *sorted*, shuffles
them with its own random source and deals them out to the other hands (each the size it
is) and the pile, on a private copy. So two positions that differ only in cards it cannot
know give the same decision for the same random source and node budget.

**Search**: the candidates are the legal moves, the ``greedy`` player's best
:data:`WIDTH` of them when there are more (its rating is cheap, and a move it rates far
down rarely wins). Each round of sampling draws one determinisation and plays every
candidate out from it (the same cards for all: :func:`~engine.budget.rank_by_sampling`),
every seat then playing the ``greedy`` move — the expert's model of its opponents and of
itself — with chance (draws after a reshuffle, a Snatch's cards) from the round's seed,
until the game ends or :data:`HORIZON` moves; the play-out scores 1 for a win (shared:
its share), 0 for a loss, and at the horizon by hand sizes. The best mean wins when it
leads the ``greedy`` player's move by :data:`CONFIDENCE` standard errors of their paired
difference, else the greedy move is played (card luck makes play-outs noisy).

A determinisation ignores what the seat could infer (which cards a Snatch gave away, the
colours a player could not follow): a simplification, never a peek.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from engine.budget import DEFAULT_BUDGET, Budget, SampledExpert
from engine.stackup.ai import GreedyPlayer
from engine.stackup.cards import FULL_DECK, Card
from engine.stackup.moves import PlayerMove
from engine.stackup.state import StackUpState

WIDTH = 8  # candidates searched, by the greedy rating, when there are more legal moves
HORIZON = 120  # moves a play-out may apply before it is scored by hand sizes
HAND_WEIGHT = 0.08  # at the horizon: a card fewer than the best other hand
# standard errors by which a move must lead the greedy one to be played (about 8 candidates
# compared at once: a lead of 1 or 1.5 is often luck, and measured no better than greedy)
CONFIDENCE = 2.5


def unseen_cards(state: StackUpState, seat: int) -> list[Card]:
    """The cards ``seat`` has not seen, sorted: the deck less its hand and the stack (what
    the other hands and the draw pile hold between them)."""
    unseen = Counter(FULL_DECK)
    unseen.subtract(state.hand(seat))
    unseen.subtract(state.stack_cards)
    return sorted(unseen.elements())


def determinise(
    state: StackUpState, seat: int, unseen: list[Card], rng: random.Random
) -> StackUpState:
    """A copy of ``state`` whose other hands and draw pile are ``unseen`` shuffled by
    ``rng`` and dealt out in their sizes (``seat``'s own hand and the stack unchanged)."""
    sim = state.copy()
    cards = list(unseen)
    rng.shuffle(cards)
    at = 0
    for other in range(state.n):
        if other == seat:
            continue
        size = state.hand_size(other)
        sim.hands[other] = sorted(cards[at : at + size])
        at += size
    sim.pile = cards[at:]
    return sim


class ExpertPlayer(SampledExpert[StackUpState, PlayerMove]):
    """Stack Up!'s expert (the module's description), within ``budget`` seconds or exactly
    ``nodes`` nodes (moves applied in play-outs) a move."""

    confidence = CONFIDENCE
    _greedy = GreedyPlayer()

    def candidates(self, state: StackUpState) -> tuple[list[PlayerMove], PlayerMove] | None:
        """The greedy player's best :data:`WIDTH` moves (in the legal order), and its
        best (the first of equals)."""
        rated = self._greedy.rate(state)
        if not rated:
            return None
        top = sorted(range(len(rated)), key=lambda i: -rated[i].value)[:WIDTH]
        return [rated[i].move for i in sorted(top)], rated[top[0]].move

    def sampler(
        self, state: StackUpState, seat: int, moves: list[PlayerMove], budget: Budget
    ) -> Callable[[int, int], float]:
        unseen = unseen_cards(state, seat)

        def sample(i: int, seed: int) -> float:
            rng = random.Random(seed)
            sim = determinise(state, seat, unseen, rng)
            return self._play_out(sim, moves[i], seat, rng, budget)

        return sample

    def _play_out(
        self, sim: StackUpState, move: PlayerMove, me: int, rng: random.Random, budget: Budget
    ) -> float:
        sim.apply(move)
        applied = 1
        greedy = self._greedy
        while not sim.is_over and applied < HORIZON:
            if sim.current_player is None:
                sim.apply(sim.sample_chance(rng))
            else:
                sim.apply(greedy.choose(sim, rng))
            applied += 1
        budget.spend(applied)
        outcome = sim.outcome()
        if outcome is not None:
            return 1 / len(outcome.winners) if me in outcome.winners else 0.0
        sizes = sim.hand_sizes
        best_other = min(sizes[s] for s in range(sim.n) if s != me)
        return max(0.0, min(1.0, 0.5 + HAND_WEIGHT * (best_other - sizes[me])))


def make_expert(budget: float = DEFAULT_BUDGET, nodes: int | None = None) -> ExpertPlayer:
    """Stack Up!'s ``expert`` AI: ``budget`` seconds a move (or ``nodes`` nodes)."""
    return ExpertPlayer(budget=budget, nodes=nodes)

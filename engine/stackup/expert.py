"""The sampling search under Stack Up!'s ``expert`` AI (:mod:`.ismcts`, which plans its own
later turns over it): information-set sampling of the hidden cards, each candidate move
played out a few turns by the ``greedy`` policy and scored by an evaluation of the hands —
deciding only from what its seat may see.

**What it knows**: its own hand, the stack (all of it face up), every hand's size, the
draw pile's size, passes, the pending Crash, and the public history — who was stuck on
which stack, who took a Crash penalty, what everyone played (:mod:`.inference`). Never
another hand, the pile's cards, or which cards anyone drew or snatched.

**Determinisation**: the cards it has not seen (the deck less its hand and the stack),
*sorted*, are shuffled with its own random source and dealt out to the other hands (each
the size it is) and the pile, on a private copy — respecting what it inferred: a seat seen
stuck on Red 7 going up gets no red card, no 8 and no special card beyond as many as it
has received since (:func:`determinise`). And the deal must agree with what the others'
plays showed (:class:`~.inference.LastRun`): a ``greedy`` player plays the move worth
most, so a seat that played a run of three held no longer run then, and one that played a
Switch no number card it could play, nor a Freeze, Crash… worth more (deals are drawn
until one agrees, at most :data:`TRIES`; :func:`agrees`). Two positions that differ only
in cards it cannot know give the same decision for the same random source and node
budget.

**Search**: the candidates are the legal moves, the ``greedy`` player's best :data:`WIDTH`
of them when there are more. Each round of sampling draws one determinisation and plays
every candidate out from it (the same cards for all: common random numbers,
:func:`~engine.budget.rank_by_sampling`), every seat then playing the ``greedy`` move
(:mod:`.policy`: the expert's model of the table, and of itself), chance from the round's
seed, for ``horizon`` turns a seat (:data:`HORIZON` by default; a pending Crash is
resolved first), or with ``horizon=None`` to the end of the game. The play-out scores 1
for a win (shared: its share), 0 for a loss, and at the cut-off the share of wins a fitted
model of the hands gives it (:func:`evaluate`): less noisy than playing to the end, where
the luck of the draws swamps the move, and far cheaper a play-out. The best mean is played when it leads
the ``greedy`` player's move by :data:`CONFIDENCE` standard errors of their paired
difference, else the greedy move.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence

from engine.budget import DEFAULT_BUDGET, Budget, SampledExpert
from engine.stackup.ai import best_run
from engine.stackup.cards import CRASH, FLIP, FREEZE, FULL_DECK, SNATCH, SWITCH, Card
from engine.stackup.heuristic import Follower, follow_value
from engine.stackup.inference import Lacks, LastRun, inferences, read_history
from engine.stackup.moves import PlayerMove
from engine.stackup.policy import greedy_choice, greedy_values
from engine.stackup.shape import hand_shape
from engine.stackup.state import StackUpState

FOLLOW = True  # rate moves by what they do to the next player too (else: greedy's rating)
WIDTH = 8  # candidates searched, by the greedy rating, when there are more legal moves
HORIZON = 1  # turns of every seat a play-out plays after the move before it is evaluated
EXTRA = 8  # turns more a play-out may play to resolve a pending Crash
# standard errors by which a move must lead the greedy one to be played
CONFIDENCE = 1.0
# deals drawn, at most, for one that agrees with every seat's last run (the first else)
TRIES = 20

# The evaluation: a seat's weight is exp(score), its chance of winning its share of the
# weights. The coefficients were fitted (multinomial logistic regression) to positions of
# greedy self-play at the start of a turn and which seat won: 395,132 positions of 40,000
# two-player games (``python -m engine.stackup.fit --players 2 --games 40000 --seed 11``),
# 227,346 of 20,000 four-player games (``--players 4 --games 20000 --seed 12``), in the
# order of its FEATURES. A Switch or a Crash is a play on any stack that may be the last
# card (worth most in a small hand); a Flip, Freeze or Snatch may not be (a liability in a
# small hand), and a Snatch adds cards. The hand's shape (:mod:`.shape`) says how many plays
# it needs; the seat to act is worth more the more it can shed now, less when stuck.
_TWO = (
    *(-0.002, -0.063, 0.084, 0.129, -0.267, 0.523, 0.444, 0.0, 1.008, -0.485),
    *(-0.018, -0.27, 0.031, 0.019, 0.206, -0.323, -0.516, 0.276),
)
_MORE = (
    *(0.028, -0.178, -0.029, 0.035, -0.51, 0.568, 0.395, 0.148, 0.855, -0.652),
    *(-0.157, -0.084, 0.003, 0.088, 0.186, -0.97, -0.901, 0.335),
)
# by how many seats after the seat to act a seat moves: 1, 2, 3 (and further)
_LATER_TWO = (-0.030,)
_LATER_MORE = (-0.109, -0.201, -0.278)


def unseen_cards(state: StackUpState, seat: int) -> list[Card]:
    """The cards ``seat`` has not seen, sorted: the deck less its hand and the stack (what
    the other hands and the draw pile hold between them)."""
    unseen = Counter(FULL_DECK)
    unseen.subtract(state.hand(seat))
    unseen.subtract(state.stack_cards)
    return sorted(unseen.elements())


def determinise(
    state: StackUpState,
    seat: int,
    unseen: list[Card],
    rng: random.Random,
    lacks: list[Lacks] | None = None,
) -> StackUpState:
    """A copy of ``state`` whose other hands and draw pile are ``unseen`` shuffled by
    ``rng`` and dealt out in their sizes (``seat``'s own hand and the stack unchanged):
    :func:`deal_cards`."""
    return _dealt(state, seat, *deal_cards(state, seat, unseen, rng, lacks))


def _dealt(
    state: StackUpState, seat: int, hands: list[list[Card]], pile: list[Card]
) -> StackUpState:
    """A copy of ``state`` with the other hands ``hands`` (sorted) and the pile ``pile``."""
    sim = state.copy()
    for other, hand in enumerate(hands):
        if other != seat:
            sim.hands[other] = sorted(hand)
    sim.pile = pile
    return sim


def deal_cards(
    state: StackUpState,
    seat: int,
    unseen: list[Card],
    rng: random.Random,
    lacks: list[Lacks] | None = None,
) -> tuple[list[list[Card]], list[Card]]:
    """Every hand (``seat``'s its own) and the draw pile, ``unseen`` shuffled by ``rng`` and
    dealt out to the other hands in their sizes, the rest to the pile.

    A seat of ``lacks`` is dealt first: as many cards as it may hold of its set from all the
    cards, the rest from the cards outside the set (when enough are left)."""
    cards = list(unseen)
    rng.shuffle(cards)
    hands: list[list[Card]] = [[] for _ in range(state.n)]
    hands[seat] = list(state.hand(seat))
    dealt: set[int] = set()
    for lack in sorted(lacks or (), key=lambda x: (x.allowed, x.seat)):
        size = state.hand_size(lack.seat)
        need = size - min(lack.allowed, size)
        hand: list[Card] = []
        rest: list[Card] = []
        for c in cards:
            if need and c not in lack.cards:
                hand.append(c)
                need -= 1
            else:
                rest.append(c)
        more = size - len(hand)
        hand += rest[:more]
        cards = rest[more:]
        hands[lack.seat] = hand
        dealt.add(lack.seat)
    at = 0
    for other in range(state.n):
        if other == seat or other in dealt:
            continue
        size = state.hand_size(other)
        hands[other] = cards[at : at + size]
        at += size
    return hands, cards[at:]


def agrees(hands: Sequence[Sequence[Card]], runs: list[LastRun]) -> bool:
    """Whether each seat of ``runs``, dealt ``hands``, held nothing its plays say it did
    not (:class:`~engine.stackup.inference.LastRun`)."""
    for run in runs:
        held = [*hands[run.seat], *run.cards]
        if best_run(held, run.colour, run.number, run.up) > run.length:
            return False
        if run.none_of and any(c in run.none_of for c in held):
            return False
    return True


def _repair(
    hands: list[list[Card]],
    pile: list[Card],
    rng: random.Random,
    lacks: list[Lacks],
    runs: list[LastRun],
) -> tuple[list[list[Card]], list[Card]]:
    """``hands`` and ``pile`` with each seat whose hand disagrees with its ``runs`` dealt
    again from its hand and the pile, the other hands kept: the first of :data:`TRIES`
    deals that agrees and keeps to its ``lacks`` (else its hand as it was)."""
    hands = list(hands)
    lacking = {lack.seat: lack for lack in lacks}
    for s in sorted({run.seat for run in runs}):
        mine = [run for run in runs if run.seat == s]
        if agrees(hands, mine):
            continue
        before = hands[s]
        size = len(before)
        pool = before + pile
        lack = lacking.get(s)
        for _ in range(TRIES):
            rng.shuffle(pool)
            hands[s] = pool[:size]
            if (
                lack is None or sum(1 for c in hands[s] if c in lack.cards) <= lack.allowed
            ) and agrees(hands, mine):
                pile = pool[size:]
                break
        else:
            hands[s] = before
    return hands, pile


def seat_score(
    hand: list[Card], passes: int, w: tuple[float, ...], playable: int | None = None
) -> float:
    """A sorted hand's score in the evaluation (coefficients ``w``: :data:`_TWO` or
    :data:`_MORE`, in the order of :data:`.fit.FEATURES`); ``playable``: for the seat to
    act, the most cards one number play sheds on the stack now (``None`` for the others)."""
    size = len(hand)
    flip, freeze, snatch = hand.count(FLIP), hand.count(FREEZE), hand.count(SNATCH)
    switch, crash = hand.count(SWITCH), hand.count(CRASH)
    runs, colours, most, longest = hand_shape(hand)
    specials = flip + freeze + snatch + switch + crash
    score = (
        w[0] * math.log(max(size, 1))
        + w[1] * size
        + w[2] * flip
        + w[3] * freeze
        + w[4] * snatch
        + w[5] * switch
        + w[6] * crash
        + w[7] * passes
        + w[10] * runs
        + w[11] * colours
        + w[12] * most
        + w[13] * longest
        + w[16] * math.log(runs + specials + 1)
    )
    if size <= 2:
        score += w[8] * (switch + crash) + w[9] * (flip + freeze + snatch)
    if runs == 1 and not specials:
        score += w[17]
    if playable is not None:
        score += w[14] * playable
        if not playable and not specials:
            score += w[15]
    return score


def evaluate(state: StackUpState, me: int) -> float:
    """``me``'s share of the wins the hands promise (a finished game: its outcome)."""
    winners = state.winners
    if winners is not None:
        return 1 / len(winners) if me in winners else 0.0
    n = state.n
    w, later = (_TWO, _LATER_TWO) if n == 2 else (_MORE, _LATER_MORE)
    to_act = state.seat if state.seat is not None else me
    up = state.up
    total = mine = 0.0
    for seat, hand in enumerate(state.hands):
        behind = (seat - to_act) % n
        if behind:
            score = seat_score(hand, state.passes[seat], w)
            score += later[min(behind, len(later)) - 1]
        else:
            playable = None
            if state.seat == seat and up is not None:
                playable = best_run(hand, state.colour, state.number, up)
            score = seat_score(hand, state.passes[seat], w, playable)
        weight = math.exp(score)
        total += weight
        if seat == me:
            mine = weight
    return mine / total


def rate(state: StackUpState) -> list[tuple[PlayerMove, float]]:
    """Every legal move with the expert's heuristic value: the greedy value and what the
    move does through the player who must follow it (:func:`.heuristic.follow_value`)."""
    me = state.current_player
    moves = state.legal_moves()
    if me is None or not moves:
        return []
    values = greedy_values(state, moves)
    if not FOLLOW:
        return list(zip(moves, values, strict=True))
    unseen = unseen_cards(state, me)
    lacks = {lack.seat: lack for lack in inferences(state, me)}
    followers = {s: Follower(state, s, unseen, lacks.get(s)) for s in range(state.n) if s != me}
    return [
        (m, v + follow_value(state, me, m, followers)) for m, v in zip(moves, values, strict=True)
    ]


class ExpertPlayer(SampledExpert[StackUpState, PlayerMove]):
    """Stack Up!'s expert (the module's description), within ``budget`` seconds or exactly
    ``nodes`` nodes (moves applied in play-outs) a move."""

    confidence = CONFIDENCE

    def __init__(
        self,
        budget: float = DEFAULT_BUDGET,
        nodes: int | None = None,
        *,
        horizon: int | None = HORIZON,
        width: int = WIDTH,
        runs: bool = True,
    ) -> None:
        super().__init__(budget, nodes)
        self.runs = runs  # deal the others only hands that agree with their last runs
        self.horizon = horizon  # turns of every seat a play-out plays; None: to the end
        self.width = width

    def candidates(self, state: StackUpState) -> tuple[list[PlayerMove], PlayerMove] | None:
        """The best :data:`WIDTH` moves by :func:`rate` (in the legal order), and the best
        (the first of equals)."""
        rated = rate(state)
        if not rated:
            return None
        top = sorted(range(len(rated)), key=lambda i: -rated[i][1])[: self.width]
        return [rated[i][0] for i in sorted(top)], rated[top[0]][0]

    def sampler(
        self, state: StackUpState, seat: int, moves: list[PlayerMove], budget: Budget
    ) -> Callable[[int, int], float]:
        deal_round = self.round_deals(state, seat)

        def sample(i: int, seed: int) -> float:
            sim, rng = deal_round(seed)
            return self._play_out(sim, moves[i], seat, rng, budget)

        return sample

    def round_deals(
        self, state: StackUpState, seat: int
    ) -> Callable[[int], tuple[StackUpState, random.Random]]:
        """A round's position and random source by the round's seed: its deal
        (:meth:`deal`) is dealt once, then a fresh copy given to each of the round's moves,
        with the random source as the deal left it (the same chance for every move)."""
        unseen = unseen_cards(state, seat)
        lacks, runs = read_history(state, seat)
        if not self.runs:
            runs = []
        last: list[tuple[int, StackUpState, tuple[object, ...]]] = []

        def deal_round(seed: int) -> tuple[StackUpState, random.Random]:
            if not last or last[0][0] != seed:
                rng = random.Random(seed)
                sim = self.deal(state, seat, unseen, rng, lacks, runs)
                last[:] = [(seed, sim, rng.getstate())]
            _, dealt, after = last[0]
            rng = random.Random()
            rng.setstate(after)
            return dealt.copy(), rng

        return deal_round

    def deal(
        self,
        state: StackUpState,
        seat: int,
        unseen: list[Card],
        rng: random.Random,
        lacks: list[Lacks],
        runs: list[LastRun],
    ) -> StackUpState:
        """The position a play-out starts from: a determinisation (:func:`determinise`),
        the first of :data:`TRIES` that :func:`agrees` with ``runs``; else the first,
        each seat that disagrees dealt again from its cards and the pile (:func:`_repair`)."""
        first = deal = deal_cards(state, seat, unseen, rng, lacks)
        tries = 1
        while runs and not agrees(deal[0], runs):
            if tries == TRIES:
                deal = _repair(*first, rng, lacks, runs)
                break
            deal = deal_cards(state, seat, unseen, rng, lacks)
            tries += 1
        return _dealt(state, seat, *deal)

    def _play_out(
        self, sim: StackUpState, move: PlayerMove, me: int, rng: random.Random, budget: Budget
    ) -> float:
        horizon = self.horizon
        stop = sim.turn_limit + 1 if horizon is None else sim.turns_taken + horizon * sim.n + 1
        sim.apply(move)
        applied = 1
        while not sim.is_over and (
            sim.turns_taken < stop
            or (sim.pending_crash is not None and sim.turns_taken < stop + EXTRA)
        ):
            if sim.current_player is None:
                sim.apply(sim.sample_chance(rng))
            else:
                sim.apply(greedy_choice(sim, rng))
            applied += 1
        budget.spend(applied)
        return evaluate(sim, me)

"""The expert's own rating of a move: the ``greedy`` value, plus what the move does to the
player who must follow it — the chance that they are stuck on the stack it leaves, and
that a Crash finds them without a Crash — computed exactly from the cards the seat has not
seen and what it inferred about that player's hand (:mod:`.inference`).

A stuck player draws a card (or spends a draw pass) and loses the turn: with two players
that is another turn for the mover as well. Greedy never looks at the stack it leaves; the
expert prefers, among plays of equal size, the one that leaves the next player nothing to
play: their colour, a number they were seen unable to follow, the top of a colour going
up.
"""

from __future__ import annotations

from engine.stackup.ai import CARD, LIKELY_TAKE, _threat
from engine.stackup.cards import COLOUR_OF, CRASH, FLIP, FREEZE, NUMBER_OF, SWITCH, Card
from engine.stackup.inference import Lacks, stuck_set
from engine.stackup.moves import Block, Play, PlayDrawn, PlayerMove
from engine.stackup.rules import PENALTY_CARDS
from engine.stackup.state import StackUpState

STUCK_2 = 10.0  # two players: the other player stuck (a card drawn, a turn lost)
STUCK_N = 4.0  # three or more: the next player stuck, before threat
PASS_SHARE = 0.4  # of that, when they hold a draw pass (no card drawn)


def none_of(pool: int, marked: int, drawn: int) -> float:
    """The chance that ``drawn`` cards dealt from ``pool`` cards, ``marked`` of them
    marked, include no marked card."""
    if drawn <= 0:
        return 1.0
    if drawn > pool - marked:
        return 0.0
    p = 1.0
    for i in range(drawn):
        p *= (pool - marked - i) / (pool - i)
    return p


class Follower:
    """What the seat ``me`` knows of the hand of ``seat``: it is dealt from ``unseen`` (as a
    determinisation deals it), respecting ``lack``."""

    def __init__(self, state: StackUpState, seat: int, unseen: list[Card], lack: Lacks | None):
        self.state = state
        self.seat = seat
        self.size = state.hand_size(seat)
        self.unseen = unseen
        self.lack = lack

    def chance_none(self, cards: frozenset[Card]) -> float:
        """The chance that the hand holds none of ``cards``."""
        unseen, size, lack = self.unseen, self.size, self.lack
        marked = sum(1 for c in unseen if c in cards)
        if lack is None:
            return none_of(len(unseen), marked, size)
        free = min(lack.allowed, size)
        outside = [c for c in unseen if c not in lack.cards]
        old = none_of(len(outside), sum(1 for c in outside if c in cards), size - free)
        return old * none_of(len(unseen), marked, free)

    def chance_stuck(self, colour: int, number: int, up: bool) -> float:
        """The chance that the hand has no legal play on this stack state."""
        return self.chance_none(stuck_set(colour, number, up, self.size, True))


def follow_value(
    state: StackUpState, me: int, move: PlayerMove, followers: dict[int, Follower]
) -> float:
    """What ``move`` of ``me`` is worth through the player who must follow it."""
    if isinstance(move, Block):
        return 0.0
    if isinstance(move, Play):
        cards = move.cards
        colour_named = move.colour
        bonus = move.bonus
    elif isinstance(move, PlayDrawn):
        assert state.drawn is not None
        cards = (state.drawn,)
        colour_named = move.colour
        bonus = None
    else:
        return 0.0
    if len(state.hands[me]) == len(cards) and isinstance(move, Play):
        return 0.0  # the move wins
    n = state.n
    first = cards[0]
    skip = bonus == "skip" or first == FREEZE
    nxt = (me + (2 if skip else 1)) % n
    if nxt == me:
        return 0.0
    follower = followers[nxt]
    if first == CRASH:
        # greedy assumes the penalty is taken LIKELY_TAKE of the time: use the chance
        no_crash = follower.chance_none(frozenset((CRASH,)))
        return (no_crash - LIKELY_TAKE) * PENALTY_CARDS * CARD * (0.5 + _threat(state, nxt))
    colour, number, up = state.colour, state.number, bool(state.up)
    if first < FLIP:
        colour, number = COLOUR_OF[cards[-1]], NUMBER_OF[cards[-1]]
    elif first == FLIP:
        up = not up
    elif first == SWITCH:
        assert colour_named is not None
        colour = colour_named
    stuck = follower.chance_stuck(colour, number, up)
    if state.passes[nxt]:
        stuck *= PASS_SHARE
    if n == 2:
        return STUCK_2 * stuck
    return STUCK_N * (1 + _threat(state, nxt)) * stuck

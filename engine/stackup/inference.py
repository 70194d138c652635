"""What a seat may infer about the other hands from the table's public history.

A stuck player (one who drew or used a draw pass) held no card that was a legal play at
that moment: no number card of the stack's colour or of the next number, no Switch or
Crash, and — with two cards or more — no Flip or Freeze, nor a Snatch when someone could
be named. A player who took a Crash penalty held no Crash (a player holding one is asked,
and blocking saves three cards). The cards they got since (draws, penalties, Snatches) may
be anything, and every such card they have played since was one of those.

So for each other seat: a set of cards it held none of at its latest such moment, and how
many of the cards it holds now can still be among them (:class:`Lacks`). Only public facts
are read: the log's seats, kinds, played cards, Switch colours, Snatch targets and counts,
how many cards each turn drew (every hand's size is public) — never which — and the
stack's first card, face up. The replay of the stack follows the rule book's effects.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.stackup.ai import (
    CARD,
    EXTRA_TURN,
    LIKELY_TAKE,
    RESERVE,
    SKIP_OTHERS,
    THREAT_HAND,
)
from engine.stackup.cards import (
    COLOUR_OF,
    CRASH,
    FLIP,
    FREEZE,
    HIGHEST,
    NUMBER_CARDS,
    NUMBER_OF,
    SNATCH,
    SWITCH,
    Card,
)
from engine.stackup.rules import PENALTY_CARDS
from engine.stackup.state import LoggedTurn, StackUpState


@dataclass(frozen=True, slots=True)
class Lacks:
    """``seat`` held none of ``cards`` at a moment of its history, and at most ``allowed``
    of the cards it holds now can be among them (the cards it has received since, less
    those of them it has played)."""

    seat: int
    cards: frozenset[Card]
    allowed: int


def stuck_set(colour: int, number: int, up: bool, size: int, snatchable: bool) -> frozenset[Card]:
    """The cards a stuck player of ``size`` cards cannot have held on the stack state
    ``colour``/``number``/``up`` (``snatchable``: another player held 2 cards or more)."""
    wanted = number + (1 if up else -1)
    out = {c for c in NUMBER_CARDS if COLOUR_OF[c] == colour or NUMBER_OF[c] == wanted}
    out.update((SWITCH, CRASH))
    if size >= 2:
        out.update((FLIP, FREEZE))
        if snatchable:
            out.add(SNATCH)
    return frozenset(out)


NO_CRASH = frozenset((CRASH,))


@dataclass(frozen=True, slots=True)
class LastRun:
    """``seat``'s latest play: on the stack state ``colour`` / ``number`` / ``up`` it held
    no run of more than ``length`` number cards, when it held its hand of now and ``cards``
    (the number cards it has played since, that play's own included) — known only while it
    has received no card and lost none since. A model of the table, not a rule: a
    ``greedy`` player plays its longest run (a longer one is always worth more), and a
    special card only when no run was worth more (:func:`longest_below`)."""

    seat: int
    colour: int
    number: int
    up: bool
    length: int
    cards: tuple[Card, ...]


def _threat(size: int) -> float:
    """``engine.stackup.ai._threat`` of a hand of ``size`` cards."""
    return max(0.0, (THREAT_HAND + 1 - size) / THREAT_HAND) * 1.5


def longest_below(turn: LoggedTurn, sizes: list[int]) -> int:
    """The longest run the greedy player could have held when it played the special card
    of ``turn`` instead (``sizes``: every hand's size then): a run worth no more than the
    special card, counted at the least its bonus may be worth."""
    n = len(sizes)
    s = turn.seat
    card = turn.cards[0]
    nxt = (s + 1) % n
    skip = EXTRA_TURN if n == 2 else SKIP_OTHERS * (1 + _threat(sizes[nxt]))
    value = CARD - RESERVE[card]
    if card == FREEZE:
        value += skip
    elif card == CRASH:
        value += LIKELY_TAKE * PENALTY_CARDS * CARD * (0.5 + _threat(sizes[nxt]))
    elif card == SNATCH:
        if turn.target is None or turn.count is None:
            return HIGHEST
        value += CARD * turn.count * (0.4 + _threat(sizes[turn.target]) - 1.0)
    elif card == SWITCH:
        value += 0.5 * (sizes[s] - 1)  # at most: every other card of the named colour
    longest = 0
    while longest < HIGHEST:
        more = longest + 1
        worth = CARD * more + (skip if more >= 3 else 0.0)
        if worth > value + 1e-9:
            break
        longest = more
    return longest


def _sizes_before(state: StackUpState) -> list[list[int]]:
    """Every hand's size before each turn of the log, walked back from the sizes now (all
    public: cards played, how many drawn, a Snatch's count)."""
    sizes = list(state.hand_sizes)
    seat = state.current_player
    if state.phase == "drawn" and seat is not None and state.drawn is not None:
        sizes[seat] -= 1  # the turn in progress drew one card
    out: list[list[int]] = []
    for t in reversed(state.log):
        s = t.seat
        sizes[s] += len(t.cards) - len(t.drew)
        if t.cards and t.cards[0] == SNATCH and t.target is not None and t.count is not None:
            sizes[s] -= t.count
            sizes[t.target] += t.count
        out.append(list(sizes))
    out.reverse()
    return out


def inferences(state: StackUpState, me: int) -> list[Lacks]:
    """What ``me`` may infer about every other hand from the public history (in seat
    order; a seat with nothing to infer is left out)."""
    return read_history(state, me)[0]


def read_history(state: StackUpState, me: int) -> tuple[list[Lacks], list[LastRun]]:
    """:func:`inferences`, and every other seat's :class:`LastRun` still known (in seat
    order)."""
    n = state.n
    log = state.log
    before = _sizes_before(state)
    stack = state.stack_cards
    played = sum(len(t.cards) for t in log)
    # the stack's first card is still at its bottom unless a rebuilt pile took it
    known = bool(stack) and len(stack) == 1 + played
    colour = COLOUR_OF[stack[0]] if known else 0
    number = NUMBER_OF[stack[0]] if known else 0
    up = bool(state.first_up)
    lacks: dict[int, tuple[frozenset[Card], int]] = {}
    runs: dict[int, LastRun] = {}
    for i, t in enumerate(log):
        s = t.seat
        sizes = before[i]
        received = len(t.drew)  # how many, never which
        if received:
            runs.pop(s, None)
        if t.kind == "play" and t.cards and known:
            most = len(t.cards) if t.cards[0] < FLIP else longest_below(t, sizes)
            runs[s] = LastRun(s, colour, number, up, most, ())
        if s in runs and t.cards:
            run = runs[s]
            more = tuple(c for c in t.cards if c < FLIP)
            runs[s] = LastRun(s, run.colour, run.number, run.up, run.length, run.cards + more)
        if t.cards and t.cards[0] == SNATCH:
            runs.pop(s, None)  # it took cards
            if t.target is not None:
                runs.pop(t.target, None)  # it lost cards
        if t.kind in ("draw", "pass") and known:
            snatchable = any(sizes[o] >= 2 for o in range(n) if o != s)
            lacks[s] = (stuck_set(colour, number, up, sizes[s], snatchable), 0)
        if received and s in lacks:
            cards, allowed = lacks[s]
            lacks[s] = (cards, allowed + received)
        if t.kind == "take" and s not in lacks:
            lacks[s] = (NO_CRASH, received)
        if not t.cards:
            continue
        if s in lacks:
            cards, allowed = lacks[s]
            lacks[s] = (cards, allowed - sum(1 for c in t.cards if c in cards))
        first = t.cards[0]
        if first < FLIP:
            last = t.cards[-1]
            colour, number, known = COLOUR_OF[last], NUMBER_OF[last], True
        elif first == FLIP:
            up = not up
        elif first == SWITCH and t.colour is not None:
            colour = t.colour
        elif first == SNATCH and t.count is not None and s in lacks:
            cards, allowed = lacks[s]
            lacks[s] = (cards, allowed + t.count)
    out = []
    for s in range(n):
        if s == me or s not in lacks:
            continue
        cards, allowed = lacks[s]
        allowed = max(0, allowed)
        if allowed < state.hand_size(s):
            out.append(Lacks(s, cards, allowed))
    return out, [runs[s] for s in range(n) if s != me and s in runs]

"""What a seat may infer about the other hands from the table's public history.

A stuck player (one who drew or used a draw pass) held no card that was a legal play at
that moment: no number card of the stack's colour or of the next number, no Switch or
Crash, and — with two cards or more — no Flip or Freeze, nor a Snatch when someone could
be named. A player who took a Crash penalty held no Crash (a player holding one is asked,
and blocking saves three cards). The cards they got since (draws, penalties, Snatches) may
be anything, and every such card they have played since was one of those.

So for each other seat: a set of cards it held none of at its latest such moment, and how
many of the cards it holds now can still be among them (:class:`Lacks`).

And, taking the table for ``greedy`` players (who play the move worth most): every play a
seat has made since it last received a card shows what its hand then — its hand now and
the cards it has played since — did not hold: a run longer than the one played, or a
special card worth more (:class:`LastRun`, :func:`shown`).

Only public facts are read: the log's seats, kinds, played cards, bonuses, Switch
colours, Snatch targets and counts, how many cards each turn drew (every hand's size is
public) — never which — and the stack's first card, face up. The replay of the stack follows the rule book's effects.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engine.stackup.ai import (
    CARD,
    DRAW_PASS,
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
    """What a play of ``seat``'s showed of the hand it held then — its hand of now and
    ``cards`` (the cards it has played since, that play's own included), known only while
    it has received no card and lost none since: on the stack state ``colour`` /
    ``number`` / ``up`` it held no run of more than ``length`` number cards, and none of
    the special cards ``none_of``. A model of the table, not a rule: a ``greedy`` player
    plays the move worth most, a longer run always worth more (:func:`shown`)."""

    seat: int
    colour: int
    number: int
    up: bool
    length: int
    cards: tuple[Card, ...]
    none_of: frozenset[Card] = frozenset()


def _threat(size: int) -> float:
    """``engine.stackup.ai._threat`` of a hand of ``size`` cards."""
    return max(0.0, (THREAT_HAND + 1 - size) / THREAT_HAND) * 1.5


def _skip_worth(seat: int, sizes: list[int]) -> float:
    """The greedy value of skipping the player after ``seat`` (a Freeze, the skip bonus)."""
    n = len(sizes)
    return EXTRA_TURN if n == 2 else SKIP_OTHERS * (1 + _threat(sizes[(seat + 1) % n]))


def special_worth(
    card: Card, seat: int, sizes: list[int], target: int | None = None, count: int | None = None
) -> float | None:
    """The greedy value of ``seat`` playing the special ``card`` (``sizes``: every hand's
    size then; a Snatch of ``target`` and ``count``, else its best; a Switch at most; None:
    a Snatch with no one to name)."""
    n = len(sizes)
    value = CARD - RESERVE[card]
    if card == FREEZE:
        return value + _skip_worth(seat, sizes)
    if card == CRASH:
        nxt = (seat + 1) % n
        return value + LIKELY_TAKE * PENALTY_CARDS * CARD * (0.5 + _threat(sizes[nxt]))
    if card == SNATCH:
        options = [
            (o, c)
            for o in range(n)
            if o != seat and sizes[o] >= 2
            for c in ((1, 2, 3) if sizes[o] >= 4 else (1,))
        ]
        if target is not None and count is not None:
            options = [(target, count)]
        if not options:
            return None
        return value + max(CARD * c * (0.4 + _threat(sizes[o]) - 1.0) for o, c in options)
    if card == SWITCH:
        return value + 0.5 * (sizes[seat] - 1)  # at most: every other card of its colour
    return value  # Flip


def shown(turn: LoggedTurn, sizes: list[int], colour: int, number: int, up: bool) -> LastRun:
    """What the play ``turn`` showed of its seat's hand, the stack's state and every hand's
    size (``sizes``) being those before it: it was worth most, so no run and no special
    card worth more was held (a run counted at the least its bonus may be worth, the play
    at the most)."""
    s = turn.seat
    first = turn.cards[0]
    skip = _skip_worth(s, sizes)
    if first < FLIP:
        bonus = {"skip": skip, "pass": DRAW_PASS}.get(turn.bonus or "", 0.0)
        value = CARD * len(turn.cards) + bonus
        longest = len(turn.cards)
    else:
        worth = special_worth(first, s, sizes, turn.target, turn.count)
        value = HIGHEST * CARD * 2 if worth is None else worth
        longest = 0
        while longest < HIGHEST:
            more = longest + 1
            if CARD * more + (skip if more >= 3 else 0.0) > value + 1e-9:
                break
            longest = more
    lacking = []
    for card in (FLIP, FREEZE, SNATCH, CRASH):
        worth = special_worth(card, s, sizes)
        if card != first and worth is not None and worth > value + 1e-9:
            lacking.append(card)
    return LastRun(s, colour, number, up, longest, (), frozenset(lacking))


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
    """:func:`inferences`, and what every other seat's plays since it last received a card
    show (:class:`LastRun`, in seat order, oldest first)."""
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
    runs: dict[int, list[LastRun]] = {}
    for i, t in enumerate(log):
        s = t.seat
        sizes = before[i]
        received = len(t.drew)  # how many, never which
        if received:
            runs.pop(s, None)
        if t.kind == "play" and t.cards and known:
            runs.setdefault(s, []).append(shown(t, sizes, colour, number, up))
        if s in runs and t.cards:
            runs[s] = [dataclasses.replace(r, cards=r.cards + t.cards) for r in runs[s]]
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
    return out, [r for s in range(n) if s != me for r in runs.get(s, ())]

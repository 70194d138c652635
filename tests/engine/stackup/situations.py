"""Hand-made tables for the rule tests: any hands, stack, pile and turn, built through
``StackUpState.from_dict`` so the state is one the engine itself could hold."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.stackup.cards import FLIP, FULL_DECK, card_name, card_names, parse_card
from engine.stackup.moves import Move, Play
from engine.stackup.state import StackUpState

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")
ANN, BEN, CAT, DAN, EVE, FAY = range(6)


def cards(text: str) -> list[int]:
    """``"R3 R4 Flip"`` as cards."""
    return [parse_card(name) for name in text.split()]


def p(text: str, bonus: str | None = None) -> Play:
    """A number play, cards by name."""
    return Play(tuple(cards(text)), bonus)


def table(
    *hands: str,
    stack: str = "R5",
    up: bool = True,
    pile: str | None = None,
    seat: int = 0,
    passes: list[int] | None = None,
    crash: int | None = None,
    turns: int = 0,
    turn_limit: int = 500,
    spare: int | None = None,
    players: tuple[str, ...] = NAMES,
) -> StackUpState:
    """A table at the start of ``seat``'s turn.

    ``hands`` are each seat's cards; ``stack`` lists the stack bottom first (its state is
    its most recent number card's, as if no Switch was played); ``pile`` lists the draw
    pile top first. Every card not named is put in the pile below those named, or, when
    ``pile`` is given, under the bottom of the stack (or into seat ``spare``'s hand), so the
    table always holds 80 cards.
    """
    held = [cards(h) for h in hands]
    stacked = cards(stack)
    named_pile = cards(pile) if pile is not None else []
    rest = Counter(FULL_DECK)
    rest.subtract(Counter([c for h in held for c in h] + stacked + named_pile))
    assert all(v >= 0 for v in rest.values()), f"a card is used twice: {-rest}"
    leftover = sorted(rest.elements())
    if spare is not None:
        held[spare] += leftover
    elif pile is None:
        named_pile += leftover
    else:
        stacked = leftover + stacked
    base = max(i for i, c in enumerate(stacked) if c < FLIP)
    top = card_name(stacked[base])
    data: dict[str, Any] = {
        "format": 1,
        "players": list(players[: len(hands)]),
        "rules": {"turn_limit": turn_limit},
        "phase": "turn",
        "seat": seat,
        "deck": card_names(FULL_DECK),
        "first": 0,
        "up": up,
        "first_up": up,
        "hands": [card_names(h) for h in held],
        "pile": card_names(named_pile),
        "stack": card_names(stacked),
        "base": base,
        "colour": top[0],
        "number": int(top[1:]),
        "passes": passes or [0] * len(hands),
        "crash": crash,
        "turns": turns,
        "drawn": None,
        "snatch": None,
        "entry": None,
        "drew": [],
        "reshuffled": None,
        "to_draw": 0,
        "drawing": None,
        "log": [],
        "winners": None,
        "ended_by": None,
    }
    return StackUpState.from_dict(data)


def hand(state: StackUpState, seat: int) -> str:
    """``seat``'s hand as names, in hand order."""
    return " ".join(card_names(state.hand(seat)))


def play(state: StackUpState, *moves: Move) -> None:
    for move in moves:
        state.apply(move)

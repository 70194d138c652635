"""Stack Up!'s moves: small, frozen, hashable values (as python-chess's ``Move``).

A player's move is one complete decision, with every choice it needs, so that a move is
one button and one entry of a game's log:

* :class:`Direction` — the first player's choice of up or down (not a turn);
* :class:`Play` — a turn's play: its cards (number cards in the order played, or one special
  card) and its choices: ``bonus`` (``"pass"``/``"skip"``, a number play of 3+ cards that
  keeps cards in hand), ``colour`` (a Switch), ``target`` and ``count`` (a Snatch);
* :class:`Block` / :class:`Take` — under a Crash penalty;
* :class:`UsePass` / :class:`Draw` — a stuck turn (the table plays these without asking);
* :class:`PlayDrawn` / :class:`Keep` — what a stuck player does with the card they drew.

Chance outcomes are moves too, as in OpenSpiel, so a game's list of moves replays exactly:
:class:`Deal` (the shuffled deck and the first player), :class:`Took` (the cards a Snatch
took) and :class:`Reshuffle` (the rebuilt draw pile, top first).

Cards are :mod:`engine.stackup.cards` integers, colours 0–3 (R, B, Y, G), players seats.

:func:`move_to_json` / :func:`move_from_json` are an exact codec: a short JSON list whose
first element names the kind, cards by their record names and colours by letter, trailing
empty choices left out (``["p",["R3","R4","R5"],"skip"]``, ``["p",["Switch"],null,"B"]``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from engine.stackup.cards import (
    COLOUR_LETTERS,
    Card,
    Colour,
    card_names,
    parse_card,
    parse_colour_letter,
)

BONUSES = ("pass", "skip")


@dataclass(frozen=True, slots=True)
class Direction:
    """The first player's choice of direction: up (1→15) or down (15→1)."""

    up: bool


@dataclass(frozen=True, slots=True)
class Play:
    """A play from hand with every choice it needs (see the module's description)."""

    cards: tuple[Card, ...]
    bonus: str | None = None
    colour: Colour | None = None
    target: int | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class Block:
    """Under a Crash penalty: play a Crash from hand."""


@dataclass(frozen=True, slots=True)
class Take:
    """Under a Crash penalty: draw 3 cards and end the turn."""


@dataclass(frozen=True, slots=True)
class UsePass:
    """Stuck, holding a draw pass: use one up and end the turn."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Stuck, without a draw pass: draw one card."""


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep the card just drawn (or nothing, when no card could be drawn) and end the turn."""


@dataclass(frozen=True, slots=True)
class PlayDrawn:
    """Play the card just drawn, alone, with its choices (a Switch's colour, a Snatch's
    target and count)."""

    colour: Colour | None = None
    target: int | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: the 80 cards as shuffled, top first, and the first player's seat."""

    deck: tuple[Card, ...]
    first: int


@dataclass(frozen=True, slots=True)
class Took:
    """Chance: the cards a Snatch took from its target's hand."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Chance: the rebuilt draw pile, top first."""

    cards: tuple[Card, ...]


PlayerMove = Direction | Play | Block | Take | UsePass | Draw | Keep | PlayDrawn
ChanceMove = Deal | Took | Reshuffle
Move = PlayerMove | ChanceMove

# Shared instances of the moves without fields.
# (Final: the compiled build reads them without a lookup)
UP: Final = Direction(True)
DOWN: Final = Direction(False)
BLOCK: Final = Block()
TAKE: Final = Take()
USE_PASS: Final = UsePass()
DRAW: Final = Draw()
KEEP: Final = Keep()
PLAY_DRAWN: Final = PlayDrawn()


def _trim(items: list[Any]) -> list[Any]:
    while items and items[-1] is None:
        items.pop()
    return items


def _letter(colour: Colour | None) -> str | None:
    return None if colour is None else COLOUR_LETTERS[colour]


def move_to_json(move: Move) -> list[Any]:
    """``move`` as a short JSON list; :func:`move_from_json` reads it back exactly."""
    if isinstance(move, Play):
        return _trim(
            [
                "p",
                card_names(move.cards),
                move.bonus,
                _letter(move.colour),
                move.target,
                move.count,
            ]
        )
    if isinstance(move, PlayDrawn):
        return _trim(["pd", _letter(move.colour), move.target, move.count])
    if isinstance(move, Direction):
        return ["up" if move.up else "down"]
    if isinstance(move, Block):
        return ["block"]
    if isinstance(move, Take):
        return ["take"]
    if isinstance(move, UsePass):
        return ["pass"]
    if isinstance(move, Draw):
        return ["draw"]
    if isinstance(move, Keep):
        return ["keep"]
    if isinstance(move, Deal):
        return ["deal", card_names(move.deck), move.first]
    if isinstance(move, Took):
        return ["took", card_names(move.cards)]
    return ["reshuffle", card_names(move.cards)]


_SIMPLE: dict[str, Move] = {
    "up": UP,
    "down": DOWN,
    "block": BLOCK,
    "take": TAKE,
    "pass": USE_PASS,
    "draw": DRAW,
    "keep": KEEP,
}


def _cards(raw: object) -> tuple[Card, ...]:
    if not isinstance(raw, list):
        raise ValueError("cards must be a list")
    return tuple(parse_card(name) for name in raw)


def _opt_int(raw: object) -> int | None:
    if raw is None:
        return None
    if type(raw) is not int:
        raise ValueError("not a whole number")
    return raw


def _opt_colour(raw: object) -> Colour | None:
    return None if raw is None else parse_colour_letter(raw)


def _opt_bonus(raw: object) -> str | None:
    if raw is None:
        return None
    if raw not in BONUSES:
        raise ValueError("not a bonus")
    assert isinstance(raw, str)
    return raw


def move_from_json(data: object) -> Move:
    """The move :func:`move_to_json` wrote; ``ValueError`` for anything else."""
    try:
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            raise ValueError("not a list starting with a kind")
        kind, args = data[0], data[1:]
        if kind in _SIMPLE and not args:
            return _SIMPLE[kind]
        if kind == "p" and 1 <= len(args) <= 5 and (len(args) == 1 or args[-1] is not None):
            args += [None] * (5 - len(args))
            return Play(
                _cards(args[0]),
                _opt_bonus(args[1]),
                _opt_colour(args[2]),
                _opt_int(args[3]),
                _opt_int(args[4]),
            )
        if kind == "pd" and len(args) <= 3 and (not args or args[-1] is not None):
            args += [None] * (3 - len(args))
            return PlayDrawn(_opt_colour(args[0]), _opt_int(args[1]), _opt_int(args[2]))
        if kind == "deal" and len(args) == 2:
            deck = _cards(args[0])
            first = _opt_int(args[1])
            if first is None:
                raise ValueError("a deal needs a first seat")
            return Deal(deck, first)
        if kind == "took" and len(args) == 1:
            return Took(_cards(args[0]))
        if kind == "reshuffle" and len(args) == 1:
            return Reshuffle(_cards(args[0]))
    except ValueError:
        pass
    raise ValueError(f"not a stored Stack Up! move: {data!r}"[:200])

"""Stack Up!'s 80 cards as small integers, and their names.

A card is an ``int``:

* ``0``–``59`` are the number cards, ``colour * 15 + (number - 1)`` with the colours in the
  order Red, Blue, Yellow, Green (``R1`` is 0, ``R15`` is 14, ``B1`` is 15, ``G15`` is 59);
* ``60``–``64`` are the special cards Flip, Freeze, Snatch, Switch and Crash. The four
  copies of a special card are interchangeable, so they share one value.

This order is the record's hand order (``docs/stackup-record.md``: number cards by colour R, B,
Y, G then number, then Flip, Freeze, Snatch, Switch, Crash), so ``sorted(hand)`` is a hand
as a record lists it. The integers are fast to compare and hash; :func:`card_name` and
:func:`parse_card` are the only way in and out of the record's words.
"""

from __future__ import annotations

from typing import Final

from engine.errors import as_json

Card = int
Colour = int

RED: Final = 0
BLUE: Final = 1
YELLOW: Final = 2
GREEN: Final = 3
COLOURS: Final[tuple[Colour, ...]] = (RED, BLUE, YELLOW, GREEN)
COLOUR_LETTERS = "RBYG"
COLOUR_NAMES = ("Red", "Blue", "Yellow", "Green")
LOWEST: Final = 1
HIGHEST: Final = 15

# (Final: the compiled build inlines them)
FLIP: Final = 60
FREEZE: Final = 61
SNATCH: Final = 62
SWITCH: Final = 63
CRASH: Final = 64
SPECIALS: Final[tuple[Card, ...]] = (FLIP, FREEZE, SNATCH, SWITCH, CRASH)
SPECIAL_NAMES = ("Flip", "Freeze", "Snatch", "Switch", "Crash")
COPIES_OF_A_SPECIAL = 4
NUMBER_CARDS: Final[tuple[Card, ...]] = tuple(range(60))
ALL_CARDS: tuple[Card, ...] = NUMBER_CARDS + SPECIALS  # every distinct card value

# The 80 cards in hand order: the one multiset every deck must be a shuffle of.
FULL_DECK: Final[tuple[Card, ...]] = NUMBER_CARDS + tuple(
    s for s in SPECIALS for _ in range(COPIES_OF_A_SPECIAL)
)
DECK_SIZE = len(FULL_DECK)

# Lookup tables indexed by card: colour (-1 for a special) and number (0 for a special).
COLOUR_OF: Final[tuple[int, ...]] = tuple(c // 15 for c in NUMBER_CARDS) + (-1,) * len(SPECIALS)
NUMBER_OF: Final[tuple[int, ...]] = tuple(c % 15 + 1 for c in NUMBER_CARDS) + (0,) * len(SPECIALS)

_NAMES: tuple[str, ...] = (
    tuple(f"{COLOUR_LETTERS[c // 15]}{c % 15 + 1}" for c in NUMBER_CARDS) + SPECIAL_NAMES
)
_BY_NAME: dict[str, Card] = {name: card for card, name in enumerate(_NAMES)}
_BY_FOLDED_NAME: dict[str, Card] = {name.lower(): card for card, name in enumerate(_NAMES)}


def is_card(value: object) -> bool:
    """Whether ``value`` is one of the card integers (``bool`` is not)."""
    return type(value) is int and 0 <= value < len(_NAMES)


def is_number(card: Card) -> bool:
    """Whether ``card`` is a number card."""
    return card < FLIP


def is_special(card: Card) -> bool:
    """Whether ``card`` is a special card."""
    return card >= FLIP


def number_card(colour: Colour, number: int) -> Card:
    """The number card of ``colour`` and ``number`` (1–15)."""
    if colour not in COLOURS or not LOWEST <= number <= HIGHEST:
        raise ValueError(f"There is no number card of colour {colour!r} and number {number!r}.")
    return colour * 15 + number - 1


def colour_of(card: Card) -> Colour | None:
    """A number card's colour; ``None`` for a special card."""
    return None if card >= FLIP else card // 15


def number_of(card: Card) -> int | None:
    """A number card's number (1–15); ``None`` for a special card."""
    return None if card >= FLIP else card % 15 + 1


def card_name(card: Card) -> str:
    """The record's name of ``card``: ``R7``, ``G15``, ``Flip``."""
    return _NAMES[card]


def card_names(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    """The names of ``cards``, in the same order."""
    names = _NAMES
    return [names[c] for c in cards]


def parse_card(name: str) -> Card:
    """The card the record calls ``name``, exactly (``R7``, ``Crash``; not ``r7`` or ``R07``).

    ``ValueError`` for anything else.
    """
    card = _BY_NAME.get(name) if isinstance(name, str) else None
    if card is None:
        raise ValueError(
            f"{as_json(name)} is not a card (cards are written R7, G15, Flip, Crash…)."
        )
    return card


def read_card(word: str) -> Card | None:
    """The card a player typed as ``word``, ignoring case (``r7``, ``FLIP``), or ``None``."""
    return _BY_FOLDED_NAME.get(word.lower())


def colour_letter(colour: Colour) -> str:
    """``R``, ``B``, ``Y`` or ``G``."""
    return COLOUR_LETTERS[colour]


def colour_name(colour: Colour) -> str:
    """``Red``, ``Blue``, ``Yellow`` or ``Green``."""
    return COLOUR_NAMES[colour]


def parse_colour_letter(letter: object) -> Colour:
    """The colour a record names by its letter (``"R"``); ``ValueError`` otherwise."""
    if not isinstance(letter, str) or len(letter) != 1 or letter not in COLOUR_LETTERS:
        raise ValueError(f"{letter!r} is not a colour (the colours are R, B, Y and G).")
    return COLOUR_LETTERS.index(letter)


def sorted_hand(cards: list[Card] | tuple[Card, ...]) -> list[Card]:
    """``cards`` in the record's hand order (the cards' natural order)."""
    return sorted(cards)

"""Stack's moves: small, hashable values.

Player moves are :class:`Stack`, :class:`Reroll` and :class:`Place` (placing a rerolled die
that has several targets). Chance outcomes are moves too, as in OpenSpiel, so a game's
history of moves replays exactly: :class:`RollOff`, :class:`RoundDice` and :class:`Roll`.

Players are seat indices; piles are named by their top owner, face and height, since
piles that agree on those three are interchangeable for the rest of a round.
"""

from __future__ import annotations

from dataclasses import dataclass

FACES = (1, 2, 3, 4, 5, 6)
MAX_SEATS = 8


def face_value(face: int) -> int:
    """Points a scoring pile showing ``face`` is worth: a 1 is worth 10."""
    return 10 if face == 1 else face


@dataclass(frozen=True, slots=True)
class Stack:
    """Put one of my unstacked dice showing ``face`` on ``owner``'s pile of ``height``."""

    face: int
    owner: int
    height: int


@dataclass(frozen=True, slots=True)
class Reroll:
    """Roll one of my unstacked dice showing ``face``."""

    face: int


@dataclass(frozen=True, slots=True)
class Place:
    """Put the die I just rerolled on ``owner``'s pile of ``height`` (its face is the roll)."""

    owner: int
    height: int


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the rerolled die shows ``face``."""

    face: int


@dataclass(frozen=True, slots=True)
class RoundDice:
    """Chance: the faces every seat rolled at the start of a round, seat by seat."""

    dice: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class RollOff:
    """Chance: one die for each player still in the roll-off for first player, in seat order."""

    rolls: tuple[int, ...]


Move = Stack | Reroll | Place | Roll | RoundDice | RollOff
PlayerMove = Stack | Reroll | Place

# Interned instances, so that listing legal moves allocates nothing but the list.
STACKS: dict[tuple[int, int, int], Stack] = {
    (f, o, h): Stack(f, o, h) for f in FACES for o in range(MAX_SEATS) for h in (1, 2, 3)
}
STACKS_BY_FACE: dict[int, dict[tuple[int, int], Stack]] = {
    f: {(o, h): STACKS[(f, o, h)] for o in range(MAX_SEATS) for h in (1, 2, 3)} for f in FACES
}
REROLLS: dict[int, Reroll] = {f: Reroll(f) for f in FACES}
PLACES: dict[tuple[int, int], Place] = {
    (o, h): Place(o, h) for o in range(MAX_SEATS) for h in (1, 2, 3)
}
ROLLS: dict[int, Roll] = {f: Roll(f) for f in FACES}


def rolloff_rank(face: int) -> int:
    """Rank of a roll-off die: a 1 ranks highest (it is worth 10)."""
    return face_value(face)

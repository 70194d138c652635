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


def move_to_json(move: Move) -> list[object]:
    """A move as a short JSON-compatible list; :func:`move_from_json` reads it back."""
    if isinstance(move, Stack):
        return ["stack", move.face, move.owner, move.height]
    if isinstance(move, Reroll):
        return ["reroll", move.face]
    if isinstance(move, Place):
        return ["place", move.owner, move.height]
    if isinstance(move, Roll):
        return ["roll", move.face]
    if isinstance(move, RoundDice):
        return ["dice", [list(d) for d in move.dice]]
    return ["rolloff", list(move.rolls)]


def move_from_json(data: object) -> Move:
    """The move :func:`move_to_json` wrote; ``ValueError`` for anything else."""
    try:
        assert isinstance(data, list) and data
        kind, *args = data
        if kind == "stack":
            return STACKS[(args[0], args[1], args[2])]
        if kind == "reroll":
            return REROLLS[args[0]]
        if kind == "place":
            return PLACES[(args[0], args[1])]
        if kind == "roll":
            return ROLLS[args[0]]
        if kind == "dice":
            return RoundDice(tuple(tuple(int(f) for f in d) for d in args[0]))
        if kind == "rolloff":
            return RollOff(tuple(int(f) for f in args[0]))
    except (AssertionError, KeyError, IndexError, TypeError, ValueError):
        pass
    raise ValueError(f"not a stored Stack move: {data!r}")

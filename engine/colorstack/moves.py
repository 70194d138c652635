"""Color Stack's moves: small, frozen, hashable values (as python-chess's ``Move``).

* :class:`Move` — a piece moves from ``frm`` to ``to`` (``c1-e3``): named by its squares
  alone, since the path does not matter (it is legal when any path fits);
* :class:`Set` — a piece's top die turned to ``face`` (``set c1 4``);
* :class:`Resign` — ``seat`` resigns; not a turn, allowed to either player at any time;
* :class:`FirstPlayer` — the chance outcome that starts a game: the first player's seat;
* :class:`Colours` — the first player's choice of their two colours, in order (the
  second player takes the other two); not a turn;
* :class:`Setup` — the chance outcome of setting up: the first player's seat, their
  colours, the cards as they lie and the rolled faces (OpenSpiel's chance node, so a
  game's moves replay exactly). A game set up by one ``Setup`` alone (a record's replay,
  a game stored before the colours were a choice) skips the two above.

Squares are :mod:`engine.colorstack.board` integers. Every ``Move`` and ``Set`` is
interned (:func:`move`, :func:`set_face`), so move generation allocates nothing.

:func:`move_to_json` / :func:`move_from_json` are an exact codec into short JSON lists
(``["m","c1","e3"]``, ``["s","c1",4]``, ``["r",0]``, ``["c","red","yellow"]``,
``["first",0]``): a button id holds one easily.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.colorstack.board import (
    COLOUR_NAMES,
    COLUMNS,
    DEFAULT_COLOURS,
    HEAVY_ROWS,
    WIDTH,
    square,
    square_name,
)

SQUARES = HEAVY_ROWS * WIDTH  # square numbers of the larger board: 0 … 80
FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True, slots=True)
class Move:
    """The piece on ``frm`` moves to ``to`` (``c1-e3``), stacking there if it holds a stack."""

    frm: int
    to: int

    def __str__(self) -> str:
        return f"{square_name(self.frm)}-{square_name(self.to)}"


@dataclass(frozen=True, slots=True)
class Set:
    """The top die of the piece on ``square`` is turned to show ``face`` (``set c1 4``)."""

    square: int
    face: int

    def __str__(self) -> str:
        return f"set {square_name(self.square)} {self.face}"


@dataclass(frozen=True, slots=True)
class Resign:
    """``seat`` resigns: the other player wins. Not a turn; either player, at any time."""

    seat: int

    def __str__(self) -> str:
        return "resign"


@dataclass(frozen=True, slots=True)
class FirstPlayer:
    """Chance: the first player, drawn at random (set-up step 1), who chooses colours next."""

    seat: int


@dataclass(frozen=True, slots=True)
class Colours:
    """The first player's colours, first and second (``colours red yellow``); the second
    player takes the other two. A decision before the board is set up, not a turn."""

    first: int
    second: int

    @property
    def pair(self) -> tuple[int, int]:
        """The two colours, first and second (as :attr:`Setup.colours` holds them)."""
        return (self.first, self.second)

    def __str__(self) -> str:
        return f"colours {COLOUR_NAMES[self.first]} {COLOUR_NAMES[self.second]}"


@dataclass(frozen=True, slots=True)
class Setup:
    """Chance: how the game was set up.

    ``first`` is the first player's seat, ``colours`` their first and second colour,
    ``cards`` the cards as they lie once set up is done (``"C"``, ``"C'"``), in slot order,
    and ``dice`` the 12 rolled faces on the start squares in the order of
    :func:`~engine.colorstack.board.all_start_squares` (``a1 c1 d1 f1 g1 i1``, then
    ``a6 c6 d6 f6 g6 i6``; ``…9`` heavy).
    """

    first: int
    colours: tuple[int, int]
    cards: tuple[str, ...]
    dice: tuple[int, ...]


TurnMove = Move | Set
Decided = Move | Set | Colours  # what legal_moves lists: a turn's moves, or the colours
PlayerMove = Move | Set | Resign  # an action of the game's log (and of its record)
PlayerChoice = Move | Set | Resign | Colours  # whatever a player may decide
AnyMove = Move | Set | Resign | Colours | FirstPlayer | Setup
# every choice of colours, in the order legal_moves lists them: the rule book's default
# (red, then yellow) first, then the others by first colour (red, blue, yellow, green)
COLOUR_CHOICES = tuple(
    sorted(
        (Colours(a, b) for a in range(4) for b in range(4) if a != b),
        key=lambda c: (c != Colours(*DEFAULT_COLOURS), c.first, c.second),
    )
)

_MOVES = [[Move(a, b) for b in range(SQUARES)] for a in range(SQUARES)]
_SETS = [[Set(a, f) for f in range(7)] for a in range(SQUARES)]


def move(frm: int, to: int) -> Move:
    """The interned :class:`Move` (squares of the board)."""
    if 0 <= frm < SQUARES and 0 <= to < SQUARES:
        return _MOVES[frm][to]
    return Move(frm, to)


def set_face(sq: int, face: int) -> Set:
    """The interned :class:`Set`."""
    if 0 <= sq < SQUARES and 1 <= face <= 6:
        return _SETS[sq][face]
    return Set(sq, face)


def moves_table() -> list[list[Move]]:
    """``table[frm][to]``: every interned :class:`Move` (move generation indexes it)."""
    return _MOVES


def sets_table() -> list[list[Set]]:
    """``table[square][face]``: every interned :class:`Set` (index 0 unused)."""
    return _SETS


def _sq(raw: object) -> int:
    """A stored square name (``"c1"``, any of the 81) as its number."""
    if isinstance(raw, str) and len(raw) == 2 and raw[0] in COLUMNS and raw[1] in "123456789":
        return square(COLUMNS.index(raw[0]), int(raw[1]))
    raise ValueError("not a square")


def _int(raw: object) -> int:
    if type(raw) is not int:
        raise ValueError("not a whole number")
    return raw


def move_to_json(mv: AnyMove) -> list[Any]:
    """``mv`` as a short JSON list; :func:`move_from_json` reads it back exactly."""
    if isinstance(mv, Move):
        return ["m", square_name(mv.frm), square_name(mv.to)]
    if isinstance(mv, Set):
        return ["s", square_name(mv.square), mv.face]
    if isinstance(mv, Resign):
        return ["r", mv.seat]
    if isinstance(mv, Colours):
        return ["c", COLOUR_NAMES[mv.first], COLOUR_NAMES[mv.second]]
    if isinstance(mv, FirstPlayer):
        return ["first", mv.seat]
    return [
        "setup",
        mv.first,
        [COLOUR_NAMES[c] for c in mv.colours],
        list(mv.cards),
        list(mv.dice),
    ]


def move_from_json(data: object) -> AnyMove:
    """The move :func:`move_to_json` wrote; ``ValueError`` for anything else."""
    try:
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            raise ValueError("not a list starting with a kind")
        kind, args = data[0], data[1:]
        if kind == "m" and len(args) == 2:
            return move(_sq(args[0]), _sq(args[1]))
        if kind == "s" and len(args) == 2:
            return set_face(_sq(args[0]), _int(args[1]))
        if kind == "r" and len(args) == 1:
            return Resign(_int(args[0]))
        if kind == "c" and len(args) == 2 and all(isinstance(a, str) for a in args):
            return Colours(COLOUR_NAMES.index(args[0]), COLOUR_NAMES.index(args[1]))
        if kind == "first" and len(args) == 1:
            return FirstPlayer(_int(args[0]))
        if kind == "setup" and len(args) == 4:
            first, colours, cards, dice = args
            if not (isinstance(colours, list) and isinstance(cards, list)):
                raise ValueError("colours and cards are lists")
            if not isinstance(dice, list) or not all(isinstance(c, str) for c in cards):
                raise ValueError("dice are a list, cards strings")
            names = [COLOUR_NAMES.index(c) for c in colours]  # ValueError if unknown
            if len(names) != 2:
                raise ValueError("two colours")
            return Setup(
                _int(first), (names[0], names[1]), tuple(cards), tuple(_int(d) for d in dice)
            )
    except ValueError:
        pass
    raise ValueError(f"not a stored Color Stack move: {data!r}"[:200])

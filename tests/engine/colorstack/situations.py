"""Positions arranged by hand for Color Stack's rule tests.

:func:`arrange` lays any stacks on a board with any black squares (an open board by
default, so a test sees only the squares it names), for ann (seat 0: red and yellow,
the first player) and ben (seat 1: blue and green).
"""

from __future__ import annotations

from engine.colorstack.board import COLOUR_LETTERS, parse_square
from engine.colorstack.moves import Move, Set, Setup, move, set_face
from engine.colorstack.rules import ColorStackSettings
from engine.colorstack.state import ColorStackState

PLAYERS = ("ann", "ben")
LIGHT_CARDS = ("C", "B", "C", "B", "E", "E")  # the rule book's example board
HEAVY_CARDS = ("C", "B", "C", "D", "D'", "A", "B", "E", "C'")
EXAMPLE_DICE = (3, 4, 6, 2, 5, 1, 2, 5, 4, 3, 2, 1)  # the record page's example


def sq(name: str, rows: int = 9) -> int:
    found = parse_square(name, rows)
    assert found is not None, name
    return found


def stack_of(text: str) -> tuple[int, ...]:
    """``"B5G2"`` as dice bottom to top."""
    out = []
    for i in range(0, len(text), 2):
        out.append(COLOUR_LETTERS.index(text[i]) << 3 | int(text[i + 1]))
    return tuple(out)


def new_game(
    board: str = "light",
    turn_limit: int = 300,
    first: int = 0,
    cards: tuple[str, ...] | None = None,
    dice: tuple[int, ...] = EXAMPLE_DICE,
) -> ColorStackState:
    """A set-up game (the rule book's example board unless ``cards`` say otherwise)."""
    state = ColorStackState(PLAYERS, ColorStackSettings(board=board, turn_limit=turn_limit))
    if cards is None:
        cards = LIGHT_CARDS if board == "light" else HEAVY_CARDS
    state.apply(Setup(first, (0, 2), cards, dice))
    return state


def arrange(
    stacks: dict[str, str],
    *,
    to_move: int = 0,
    turns: int = 1,
    black: tuple[str, ...] = (),
    board: str = "light",
    turn_limit: int = 300,
) -> ColorStackState:
    """A position with exactly ``stacks`` (``{"c6": "B5G2"}``) on a board whose black
    squares are exactly ``black``, ``turns`` played and ``to_move`` to act."""
    state = new_game(board, turn_limit)
    state.black = 0
    for name in black:
        state.black |= 1 << sq(name)
    state.cells = [()] * state.squares
    for name, text in stacks.items():
        state.cells[sq(name)] = stack_of(text)
    state.to_move = to_move
    state.turns = turns
    state._recount()
    return state


def mv(text: str) -> Move:
    """``"c1-e3"`` as a move."""
    a, b = text.split("-")
    return move(sq(a), sq(b))


def setf(name: str, face: int) -> Set:
    return set_face(sq(name), face)


def names(squares: list[int]) -> list[str]:
    from engine.colorstack.board import square_name

    return [square_name(s) for s in squares]

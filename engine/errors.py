"""Errors raised for moves that cannot be played.

As in python-chess, each is a distinct :class:`ValueError` subclass that names the input,
and as in boardgame.io an illegal move carries a typed reason. Raising one never changes
the state of a game.
"""

from __future__ import annotations

from enum import Enum


class IllegalReason(Enum):
    """Why a move was refused."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_DECISION = "wrong_decision"
    NO_SUCH_DIE = "no_such_die"
    NO_SUCH_PILE = "no_such_pile"
    OWN_COLOUR = "own_colour"
    BAD_OUTCOME = "bad_outcome"


class MoveError(ValueError):
    """Base class of every refused move."""


class InvalidMoveError(MoveError):
    """The text is not a move at all; the message gives the syntax."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow now."""

    def __init__(self, message: str, reason: IllegalReason) -> None:
        super().__init__(message)
        self.reason = reason


class AmbiguousMoveError(MoveError):
    """The text names more than one legal move; ``candidates`` lists them."""

    def __init__(self, message: str, candidates: tuple[object, ...]) -> None:
        super().__init__(message)
        self.candidates = candidates

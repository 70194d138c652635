"""Errors raised for moves that cannot be played.

As in python-chess, each is a distinct :class:`ValueError` subclass that names the input,
and as in boardgame.io a refusal carries a typed reason and typed details, so that every
front end can word it in its own language. ``str(error)`` is the terminal's wording.
Raising one never changes the state of a game.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

SettingsT = TypeVar("SettingsT", bound=BaseModel)

SHOWN = 100  # the characters of a wrong value an error quotes at most (as_json)


class IllegalReason(Enum):
    """Why a well-formed move was refused."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_DECISION = "wrong_decision"
    NO_SUCH_DIE = "no_such_die"
    NO_SUCH_PILE = "no_such_pile"
    OWN_COLOUR = "own_colour"
    BAD_OUTCOME = "bad_outcome"
    PLACEMENT_PENDING = "placement_pending"  # a rerolled die waits for its pile
    NOTHING_TO_PLACE = "nothing_to_place"  # a placement, but no rerolled die waits
    CARD_NOT_HELD = "card_not_held"  # Stack Up!: a card the player does not hold
    NOT_ON_STACK = "not_on_stack"  # Stack Up!: a card not legal on the stack
    BAD_COMBO = "bad_combo"  # Stack Up!: cards that do not make one play
    LAST_CARD = "last_card"  # Stack Up!: a Flip, Freeze or Snatch as the last card
    MISSING_CHOICE = "missing_choice"  # Stack Up!: a bonus, colour, target or count left out
    EXTRA_CHOICE = "extra_choice"  # Stack Up!: a choice the play does not take
    BAD_CHOICE = "bad_choice"  # Stack Up!: a choice that is not allowed (colour, target, count)
    EMPTY_SQUARE = "empty_square"  # Color Stack: no piece on the square named
    NOT_YOUR_PIECE = "not_your_piece"  # Color Stack: the square's top die is the opponent's
    NO_SUCH_SQUARE = "no_such_square"  # Color Stack: a square off this board
    NO_SUCH_FACE = "no_such_face"  # Color Stack: a set to a number no die shows
    SAME_FACE = "same_face"  # Color Stack: a set to the number the die already shows
    BLACK_SQUARE = "black_square"  # Color Stack: a move ending on a black square
    NO_PATH = "no_path"  # Color Stack: no path of exactly n steps joins the squares
    FIRST_TURN_STACK = "first_turn_stack"  # Color Stack: stacking on the very first turn
    TOO_WEAK = "too_weak"  # Color Stack: the piece is not strong enough to stack there
    SHARED_COLOUR = "shared_colour"  # Color Stack: the stacks share a colour


class InvalidReason(Enum):
    """Why a text is not a move at all."""

    EMPTY = "empty"
    TOO_LONG = "too_long"
    NOT_A_MOVE = "not_a_move"
    UNKNOWN_WORD = "unknown_word"  # a typo of a command word: ``suggestion`` names it
    MISSING_FACE = "missing_face"
    BAD_FACE = "bad_face"
    MISSING_TARGET = "missing_target"
    UNKNOWN_PLAYER = "unknown_player"
    UNCLEAR_NAME = "unclear_name"  # the name fits several players and none of them works
    BAD_CARD = "bad_card"  # Stack Up!: a word that looks like a card but is none (R16, X3)


@dataclass(frozen=True, slots=True)
class Target:
    """A pile a die may go on: its owner's seat and name, and its height."""

    seat: int
    name: str
    height: int


class MoveError(ValueError):
    """Base class of every refused move."""


class InvalidMoveError(MoveError):
    """The text is not a move at all; the message gives the syntax.

    ``suggestion`` is the command word a typo was probably meant to be; ``names`` lists the
    players an unclear name could mean (or, for an unknown name, everyone at the table).
    """

    def __init__(
        self,
        message: str,
        reason: InvalidReason = InvalidReason.NOT_A_MOVE,
        *,
        suggestion: str | None = None,
        names: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.suggestion = suggestion
        self.names = names


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow now.

    ``face`` is the die concerned (for :attr:`IllegalReason.PLACEMENT_PENDING`, the face the
    rerolled die shows), ``asked`` the face the player named instead, and ``targets`` the
    piles the waiting die may go on.
    """

    def __init__(
        self,
        message: str,
        reason: IllegalReason,
        *,
        face: int | None = None,
        asked: int | None = None,
        targets: tuple[Target, ...] = (),
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.face = face
        self.asked = asked
        self.targets = targets


class AmbiguousMoveError(MoveError):
    """The text names more than one legal move; ``candidates`` lists them.

    ``choices`` describes each candidate in a player's words, in the same order.
    """

    def __init__(
        self, message: str, candidates: tuple[object, ...], choices: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.candidates = candidates
        self.choices = choices


class RecordError(ValueError):
    """A game record that is malformed or illegal, at the first thing wrong.

    ``turn`` counts from 1 the turn at fault (Stack: in its round; Stack Up! and Color
    Stack: the entry of the record's ``turns``); ``round`` (Stack only) counts from 1 the
    round at fault. Each is ``None`` when the fault is not in one.
    """

    def __init__(self, message: str, turn: int | None = None, *, round: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.turn = turn
        self.round = round


def as_json(value: object) -> str:
    """``value``, read from a JSON record, as JSON writes it, for a sentence about it:
    ``true``, ``null``, ``"red"``, ``["red", "red"]``, ``2.5`` (not Python's ``True``,
    ``None``, ``'red'``…). A number too big for JSON's reader (``1e400``, read as
    infinity) is said to be out of range; a list or object holding one writes it
    ``Infinity``, as JavaScript does. A list or object nested deeper than can be written
    (JSON's reader takes them nearly as deep as Python can go) is said to be so. A value
    longer than :data:`SHOWN` characters is shown by its start and an ellipsis (a record
    may hold a name or an action megabytes long; the sentence about it stays a sentence)."""
    if isinstance(value, float) and math.isinf(value):
        return f"{'-' if value < 0 else ''}Infinity (a number out of range)"
    try:
        try:
            text = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except ValueError:  # NaN, or a list or object holding a number out of range
            text = json.dumps(value, ensure_ascii=False)
    except TypeError:  # no JSON value at all (a record built in Python, not read)
        text = repr(value)
    except RecursionError:
        return f"{'an object' if isinstance(value, dict) else 'a list'} nested too deeply to show"
    if len(text) <= SHOWN:
        return text
    if isinstance(value, str):  # its quotes kept: "set a1 99999…"
        return json.dumps(value[:SHOWN] + "…", ensure_ascii=False)
    return text[:SHOWN] + "…"


def read_json(text: str, what: str) -> Any:
    """The JSON value ``text`` holds, or a :class:`RecordError` that says why there is none
    (``what``: the record, named as the sentence starts): not JSON at all, a whole number
    longer than Python reads from text, or lists and objects nested deeper than it can go."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(
            f"{what} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})."
        ) from None
    except RecursionError:
        raise RecordError(f"{what} nests its lists or objects too deeply to be a record.") from None
    except ValueError:
        limit = sys.get_int_max_str_digits()
        raise RecordError(
            f"{what} holds a number too long to read (over {limit:,} digits)."
        ) from None


def settings_error(
    err: ValidationError, unknown: str = "unknown key {!r}", musts: Mapping[str, str] | None = None
) -> str:
    """The first problem of a settings (rules) model's validation error, in words:
    ``target_score: Input should be greater than or equal to 1`` or ``unknown key 'colour'``.
    ``unknown``: the words for a key the model does not have (its repr put in the ``{}``);
    ``musts``: what a key's value must be, for the words ``'key' must be …, not "value"``
    (the value as JSON writes it)."""
    first = err.errors()[0]
    where = ".".join(str(x) for x in first["loc"]) or "rules"
    if first["type"] == "extra_forbidden":
        return unknown.format(where)
    key = str(first["loc"][0]) if first["loc"] else where
    if musts and key in musts:
        if key != where:  # a part of the key's value is wrong (one of Stack's teams)
            return f"{key!r} must be {musts[key]}"
        return f"{key!r} must be {musts[key]}, not {as_json(first['input'])}"
    return f"{where}: {first['msg']}"


def settings_from(
    raw: object,
    model: type[SettingsT],
    error: Callable[[str], Exception],
    not_a_mapping: str,
    wrong: Callable[[ValidationError], str] = settings_error,
) -> SettingsT:
    """``raw`` (a mapping of a settings model's keys) as ``model``; otherwise ``error``
    raised with the words ``not_a_mapping`` (``raw`` is not a mapping) or with the words
    ``wrong`` makes of the model's validation error (a value is wrong)."""
    if not isinstance(raw, dict):
        raise error(not_a_mapping)
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        raise error(wrong(err)) from None


class NoRecord(ValueError):
    """A game that ended before there was anything its record format can hold (Color
    Stack resigned before its board was set up): it has no record."""


class FlowError(RuntimeError):
    """A game that never waits for a player (more moves than the limit): a game's bug
    (:mod:`engine.flow`'s, raised by the table loop)."""

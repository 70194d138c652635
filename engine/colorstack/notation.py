"""Reading and writing Color Stack moves as players type them.

* ``c1-e3`` (also ``c1 e3``, ``c1 to e3``): the piece on c1 moves to e3;
* ``set c1 4`` (also ``set c1 to 4``): the piece on c1 turns its top die to 4;
* ``resign``: the player typing it resigns (allowed at any time, on turn or not);
* ``colours red yellow`` (also ``colors``, or the two colours alone): the first player's
  colours, first and second, chosen before the board is set up;
* ``move c1-e3``, ``move resign``: the same, as Discord's ``/move`` command spells them
  (a terminal drops the ``/``).

**Ambiguity cannot arise**: a move is named fully by its start and end squares (the path
does not matter: it is legal when any path fits), a set by its square and face, and a
resignation by who types it. So :func:`parse_move` raises only
:class:`~engine.errors.InvalidMoveError` (not a move: the message gives the syntax) or
:class:`~engine.errors.IllegalMoveError` (a move the rules refuse now, in the player's
words: "d2 is black", "Your 5 cannot stack on a 2 …", "No path of exactly 4 steps leads
from c1 to e3", "c1 is not your piece …"), and never
:class:`~engine.errors.AmbiguousMoveError`.
"""

from __future__ import annotations

import difflib
import re

from engine.colorstack.board import (
    COLOUR_NAMES,
    COLUMNS,
    ascii_number,
    parse_square,
    square_name,
)
from engine.colorstack.moves import (
    Colours,
    Move,
    PlayerChoice,
    Resign,
    Set,
    move,
    set_face,
)
from engine.colorstack.record import action_text
from engine.colorstack.state import ColorStackState
from engine.echo import cut
from engine.errors import IllegalMoveError, IllegalReason, InvalidMoveError, InvalidReason

SYNTAX = "Type a move as c1-e3, a set as set c1 4, or resign."
COLOURS_SYNTAX = "Name your two colours, first and second: colours red yellow."
_COLOURS_WORDS = ("colours", "colors", "colour", "color")
MAX_LENGTH = 40
_SQUARE = re.compile(r"[a-z][0-9]+\Z")
_WORDS = ("set", "resign")


def parse_move(state: ColorStackState, text: str, seat: int | None = None) -> PlayerChoice:
    """The move ``text`` names for ``seat`` (default: the player to move), or the error
    that says why not. The state is never changed."""
    typed = " ".join(text.split())  # case kept: what a refusal echoes is as typed
    if not typed:
        raise InvalidMoveError(f"That's empty. {_syntax(state)}", InvalidReason.EMPTY)
    if len(typed) > MAX_LENGTH:
        raise InvalidMoveError(
            f"That's too long to be a move ({_echo(typed)}). {_syntax(state)}",
            InvalidReason.TOO_LONG,
        )
    mv = _read(state, typed, seat)
    err = state.refusal(mv, seat)
    if err is not None:
        raise err
    return mv


def _syntax(state: ColorStackState) -> str:
    """How to type what the player is asked now: the two colours while the first player
    chooses them, else a move."""
    return COLOURS_SYNTAX if state.choosing_colours else SYNTAX


def move_notation(state: ColorStackState, mv: PlayerChoice) -> str:
    """How a player types ``mv`` (``c1-e3``, ``set c1 4``, ``resign``, ``colours red
    yellow``)."""
    if isinstance(mv, Colours):
        return str(mv)
    return action_text(mv)


def _read(state: ColorStackState, typed: str, seat: int | None) -> PlayerChoice:
    """The move ``typed`` names: its words are read in any case, and echoed as typed."""
    words = typed.replace("-", " - ").split()
    if words[0].lower() == "move" and len(words) > 1:  # Discord's /move, typed out
        words = words[1:]
    head = words[0].lower()
    if head in _COLOURS_WORDS or head.rstrip(",") in COLOUR_NAMES:
        return _colours(words[1:] if head in _COLOURS_WORDS else words)
    if head == "resign" and len(words) == 1:
        who = state.current_player if seat is None else seat
        if who is None:
            if state.is_over:
                raise IllegalMoveError("The game is over.", IllegalReason.GAME_OVER)
            raise IllegalMoveError(
                "Nobody can resign before the board is set up.", IllegalReason.WRONG_DECISION
            )
        return Resign(who)
    if head == "set" or (head not in _WORDS and _looks_like(head, "set") and len(words) >= 2):
        if head != "set":
            raise _typo(words[0], "set")
        return _set(state, words[1:])
    if head == "resign":
        raise InvalidMoveError(f"Type resign alone. {SYNTAX}", InvalidReason.NOT_A_MOVE)
    if not _SQUARE.match(head):
        for word in _WORDS:
            if _looks_like(head, word):
                raise _typo(words[0], word)
        if len(words) == 3 and words[1].lower() in ("-", "to") and _SQUARE.match(words[2].lower()):
            raise _not_a_square(state, words[0])  # zz-a1: a move from no square
        raise InvalidMoveError(
            f"{_echo(typed)} is not a move. {_syntax(state)}", InvalidReason.NOT_A_MOVE
        )
    rest = [w for w in words[1:] if w.lower() not in ("-", "to")]
    frm = _square(state, words[0])
    if not rest:
        raise InvalidMoveError(
            f"Where does {square_name(frm)} go? Name the end square too: "
            f"{square_name(frm)}-e3 (or set {square_name(frm)} 4 to change its number).",
            InvalidReason.MISSING_TARGET,
        )
    if len(rest) != 1:
        raise InvalidMoveError(
            f"{_echo(typed)} is not a move. {_syntax(state)}", InvalidReason.NOT_A_MOVE
        )
    return move(frm, _square(state, rest[0]))


def _colours(args: list[str]) -> Colours:
    """The two colours named, first and second (``red yellow``, ``red, yellow``)."""
    words = " ".join(args).replace(",", " ").split()
    names = [a for a in words if a.lower() not in ("and", "then")]
    if len(names) != 2:
        raise InvalidMoveError(COLOURS_SYNTAX, InvalidReason.NOT_A_MOVE)
    for name in names:
        if name.lower() not in COLOUR_NAMES:
            raise InvalidMoveError(
                f"{_echo(name)} is not a colour: red, blue, yellow or green. {COLOURS_SYNTAX}",
                InvalidReason.NOT_A_MOVE,
            )
    first, second = (COLOUR_NAMES.index(name.lower()) for name in names)
    return Colours(first, second)


def _set(state: ColorStackState, args: list[str]) -> Set:
    args = [a for a in args if a.lower() not in ("to", "=")]
    if not args or ascii_number(args[0]):  # no square named (set 4): how a set is typed
        raise InvalidMoveError(
            "Name the piece's square and the new number: set c1 4.", InvalidReason.NOT_A_MOVE
        )
    sq = _square(state, args[0])  # set zz 3: "zz" is not a square
    if len(args) == 1:
        raise InvalidMoveError(
            f"Which number should {square_name(sq)} show? set {square_name(sq)} 4.",
            InvalidReason.MISSING_FACE,
        )
    if len(args) > 2:
        raise InvalidMoveError(
            f"A set names one square and one number: set {square_name(sq)} 4.",
            InvalidReason.NOT_A_MOVE,
        )
    face = args[1]
    if not ascii_number(face) or not 1 <= int(face) <= 6:
        raise InvalidMoveError(
            f"A die shows a number from 1 to 6, not {_echo(face)}.", InvalidReason.BAD_FACE
        )
    return set_face(sq, int(face))


def _square(state: ColorStackState, typed: str) -> int:
    word = typed.lower()
    sq = parse_square(word, state.rows)
    if sq is not None:
        return sq
    if word[0] in COLUMNS and ascii_number(word[1:]) and word[1] != "0" and int(word[1:]) <= 9:
        # a square of the heavy board, off this light one: a move the board refuses
        raise IllegalMoveError(
            f"{word} is off the board ({state.settings.board}: a1 to i{state.rows}).",
            IllegalReason.NO_SUCH_SQUARE,
        )
    raise _not_a_square(state, typed)


def _not_a_square(state: ColorStackState, typed: str) -> InvalidMoveError:
    return InvalidMoveError(
        f"{_echo(typed)} is not a square: columns a to i, rows 1 to {state.rows} (like c1).",
        InvalidReason.NOT_A_MOVE,
    )


def _looks_like(word: str, command: str) -> bool:
    return bool(difflib.get_close_matches(word, [command], n=1, cutoff=0.7))


def _typo(word: str, command: str) -> InvalidMoveError:
    return InvalidMoveError(
        f"{_echo(word)} is not a command: did you mean {command}? {SYNTAX}",
        InvalidReason.UNKNOWN_WORD,
        suggestion=command,
    )


def _echo(text: str) -> str:
    """What was typed, quoted: printable (an escape that would restyle a terminal shown as
    "�") and at most 20 characters."""
    return f"“{cut(text, 20)}”"


__all__ = ["COLOURS_SYNTAX", "SYNTAX", "Move", "move_notation", "parse_move"]

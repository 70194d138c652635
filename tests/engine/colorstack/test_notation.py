"""Typing Color Stack moves: ``c1-e3``, ``set c1 4``, ``resign``; refusals in a player's
words; ambiguity cannot arise."""

from __future__ import annotations

import contextlib

import pytest

from engine.colorstack.board import GREEN, RED
from engine.colorstack.moves import Colours, FirstPlayer, Resign
from engine.colorstack.notation import move_notation, parse_move
from engine.colorstack.state import ColorStackState
from engine.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    IllegalReason,
    InvalidMoveError,
    InvalidReason,
)

from .situations import PLAYERS, arrange, mv, new_game, setf


@pytest.mark.parametrize("text", ["c1-c5", "C1-C5", " c1 - c5 ", "c1 c5", "c1 to c5"])
def test_a_move_is_typed_by_its_squares(text: str) -> None:
    assert parse_move(new_game(), text, 0) == mv("c1-c5")


@pytest.mark.parametrize("text", ["set c1 1", "SET C1 1", "set c1 to 1", "set  c1   1"])
def test_a_set_is_typed_with_its_square_and_number(text: str) -> None:
    assert parse_move(new_game(), text, 0) == setf("c1", 1)


def test_resign_is_typed_alone_by_either_player_at_any_time() -> None:
    state = new_game()
    assert parse_move(state, "resign", 1) == Resign(1)  # not ben's turn: still allowed
    assert parse_move(state, "Resign", 0) == Resign(0)
    assert parse_move(state, "resign") == Resign(0)  # no seat: the player to move


ILLEGAL = {
    "f1-e2": (IllegalReason.BLACK_SQUARE, "e2 is black."),
    "a6-a5": (IllegalReason.NOT_YOUR_PIECE, "a6 is not your piece: its top die is ben's green 2."),
    "b1-b2": (IllegalReason.EMPTY_SQUARE, "There is no piece on b1."),
    "a1-a4": (IllegalReason.NO_PATH, "No path of exactly 3 steps leads from a1 to a4."),
    "set c1 4": (IllegalReason.SAME_FACE, "c1 already shows 4: set it to another number."),
    "f1-d1": (
        IllegalReason.FIRST_TURN_STACK,
        "Nothing may stack on the first player's first turn: choose an empty square.",
    ),
    "c1-c7": (IllegalReason.NO_SUCH_SQUARE, "c7 is off the board (light: a1 to i6)."),
}


@pytest.mark.parametrize("text", list(ILLEGAL))
def test_illegal_moves_are_refused_in_a_players_words(text: str) -> None:
    reason, words = ILLEGAL[text]
    with pytest.raises(IllegalMoveError) as err:
        parse_move(new_game(), text, 0)
    assert err.value.reason is reason
    assert str(err.value) == words


def test_a_weaker_piece_is_refused_naming_both_numbers() -> None:
    state = arrange({"a1": "R5", "f1": "B2"}, black=tuple(f"{c}2" for c in "abcdefghi"))
    with pytest.raises(IllegalMoveError) as err:
        parse_move(state, "a1-f1", 0)
    assert str(err.value).startswith("Your 5 cannot stack on a 2")
    state = arrange({"a1": "R1", "b1": "B6"})
    with pytest.raises(IllegalMoveError, match=r"Your 1 cannot stack on a 6.*6 beats 1"):
        parse_move(state, "a1-b1", 0)


def test_a_move_out_of_turn_is_refused() -> None:
    with pytest.raises(IllegalMoveError) as err:
        parse_move(new_game(), "a6-a5", 1)
    assert err.value.reason is IllegalReason.NOT_YOUR_TURN and str(err.value) == "It's ann's turn."


INVALID = {
    "": InvalidReason.EMPTY,
    "   ": InvalidReason.EMPTY,
    "x" * 50: InvalidReason.TOO_LONG,
    "hello": InvalidReason.NOT_A_MOVE,
    "c1": InvalidReason.MISSING_TARGET,
    "set c1": InvalidReason.MISSING_FACE,
    "set c1 7": InvalidReason.BAD_FACE,
    "set c1 x": InvalidReason.BAD_FACE,
    "sett c1 4": InvalidReason.UNKNOWN_WORD,
    "resing": InvalidReason.UNKNOWN_WORD,
    "j1-c1": InvalidReason.NOT_A_MOVE,
    "c1-c2-c3": InvalidReason.NOT_A_MOVE,
    "resign now": InvalidReason.NOT_A_MOVE,
}


@pytest.mark.parametrize("text", list(INVALID))
def test_text_that_is_no_move_says_how_to_type_one(text: str) -> None:
    with pytest.raises(InvalidMoveError) as err:
        parse_move(new_game(), text, 0)
    assert err.value.reason is INVALID[text]


def test_what_was_typed_is_echoed_printable_and_short() -> None:
    """An escape typed at a terminal is not sent back to restyle it; a long text is cut."""
    for typed, shown in (("\x1b[2J", "“�[2J”"), ("z" * 30 + " c1", "“" + "z" * 19 + "…”")):
        with pytest.raises(InvalidMoveError) as err:
            parse_move(new_game(), typed, 0)
        assert str(err.value).startswith(f"{shown} is not a"), str(err.value)
        assert "\x1b" not in str(err.value)


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("stack 3 on AI 1", "“stack 3 on AI 1” is not a move."),
        ("Hello", "“Hello” is not a move."),
        ("C1-C2-C3", "“C1-C2-C3” is not a move."),
        ("Sett c1 4", "“Sett” is not a command: did you mean set?"),
        ("Resing", "“Resing” is not a command: did you mean resign?"),
        ("J1-C1", "“J1” is not a square: columns a to i, rows 1 to 6 (like c1)."),
        ("set ZZ 3", "“ZZ” is not a square: columns a to i, rows 1 to 6 (like c1)."),
        ("zz-a1", "“zz” is not a square"),
        ("c1 to Zz", "“Zz” is not a square"),
        ("SET C1 X", "A die shows a number from 1 to 6, not “X”."),
        ("colours Red Pink", "“Pink” is not a colour: red, blue, yellow or green."),
    ],
)
def test_what_was_typed_is_echoed_in_the_case_it_was_typed(typed: str, words: str) -> None:
    """``stack 3 on AI 1`` was answered "“stack 3 on ai 1” is not a move"."""
    with pytest.raises(InvalidMoveError) as err:
        parse_move(new_game(), typed, 0)
    assert str(err.value).startswith(words), str(err.value)


@pytest.mark.parametrize("text", ["colours green red", "COLOURS Green RED", "Green, Red"])
def test_colours_are_typed_in_any_case(text: str) -> None:
    state = ColorStackState(PLAYERS)
    state.apply(FirstPlayer(0))
    assert parse_move(state, text, 0) == Colours(GREEN, RED)


def test_a_text_too_long_to_be_a_move_is_echoed_cut_short() -> None:
    """As Stack's and Stack Up!'s do, the refusal shows what was typed (it said only
    "That's too long to be a move.")."""
    typed = "Snatch AI 1 " + "9" * 40
    with pytest.raises(InvalidMoveError) as err:
        parse_move(new_game(), typed, 0)
    assert err.value.reason is InvalidReason.TOO_LONG
    assert str(err.value) == (
        "That's too long to be a move (“Snatch AI 1 9999999…”). "
        "Type a move as c1-e3, a set as set c1 4, or resign."
    )


def test_a_typo_suggests_the_command() -> None:
    with pytest.raises(InvalidMoveError) as err:
        parse_move(new_game(), "sett c1 4", 0)
    assert err.value.suggestion == "set"


def test_every_legal_move_reads_back_and_is_never_ambiguous() -> None:
    state = new_game()
    state.apply(mv("c1-c5"))
    for move in state.legal_moves():
        text = move_notation(state, move)
        try:
            assert parse_move(state, text, 1) == move
        except AmbiguousMoveError:  # pragma: no cover - cannot arise
            pytest.fail(f"{text} was called ambiguous")
    assert move_notation(state, Resign(1)) == "resign"


def test_parsing_changes_nothing() -> None:
    state = new_game()
    before = state.to_dict()
    for text in ("c1-c5", "f1-e2", "resign", "zzz"):
        with contextlib.suppress(InvalidMoveError, IllegalMoveError):
            parse_move(state, text, 0)
    assert state.to_dict() == before and state.turns == 0

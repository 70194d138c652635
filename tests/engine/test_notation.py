"""The one notation parser: moves, and its three distinct errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import errors
from engine.stack.moves import Place, Reroll, Stack
from engine.stack.notation import parse_move
from engine.stack.state import StackState
from tests.engine.situations import A, B, C, deal, reroll, stack


def test_parses_stack_reroll_and_height() -> None:
    state = deal([3, 4], [3, 5], [6, 6])
    assert parse_move(state, "stack 3 on bob") == Stack(3, B, 1)
    assert parse_move(state, "stack 3 on @bob 1") == Stack(3, B, 1)
    assert parse_move(state, "reroll 4") == Reroll(4)


@pytest.mark.parametrize(
    "text",
    ["  STACK 3 ON @Bob ", "stack 3 @bob", "Stack  3   on   BOB", "s3 on bob", "stack3 bob 1"],
)
def test_tolerant_of_case_at_sign_and_spacing(text: str) -> None:
    state = deal([3, 4], [3, 5], [6, 6])
    assert parse_move(state, text) == Stack(3, B, 1)


def test_names_with_spaces_and_digits() -> None:
    from engine.stack.moves import RoundDice
    from engine.stack.rules import StackRules
    from engine.stack.state import StackState

    state = StackState(["Big Al", "bot 2"], StackRules(dice_per_player=2), first=0)
    state.apply(RoundDice(((3, 4), (3, 5))))
    assert parse_move(state, "stack 3 on @bot 2") == Stack(3, 1, 1)
    assert parse_move(state, "stack 3 on bot 2 1") == Stack(3, 1, 1)


@pytest.mark.parametrize("text", ["", "dance", "stack", "stack x on bob", "hello bob"])
def test_not_a_move_gives_the_syntax(text: str) -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, text)
    assert "stack 3 on bob" in str(err.value) or "Try" in str(err.value)


@pytest.mark.parametrize(
    ("dice", "text", "match"),
    [
        (([3, 4], [3, 5]), "stack 3", "on whose pile"),
        (([3, 4], [3, 5]), "reroll 7", "1 to 6"),
        (([3, 4], [3, 5]), "stack 3 on zed", "no player called 'zed'"),
    ],
    ids=["stack-without-target-says-how", "face-out-of-range", "unknown-player"],
)
def test_a_move_typed_wrong_is_invalid_and_says_how(
    dice: tuple[list[int], ...], text: str, match: str
) -> None:
    with pytest.raises(errors.InvalidMoveError, match=match):
        parse_move(deal(*dice), text)


@pytest.mark.parametrize(
    ("dice", "text", "seat", "match"),
    [
        (([3, 5], [4, 4]), "stack 4 on bob", None, "You have no unstacked 4"),
        (([3, 5], [4, 4]), "reroll 6", None, "You have no unstacked 6"),
        (([3, 5], [3, 4]), "stack 3 on alice", B, "It's alice's turn"),
        (([3, 3], [3, 4]), "stack 3 on alice", None, "own colour"),
        (([3, 4], [3, 5]), "stack 3 on bob 2", None, "bob has no 2-high pile of 3s"),
    ],
    ids=[
        "you-have-no-unstacked-die-to-stack",
        "you-have-no-unstacked-die-to-reroll",
        "not-your-turn",
        "own-colour",
        "no-pile-of-that-height",
    ],
)
def test_a_move_against_the_rules_is_illegal_and_names_the_rule(
    dice: tuple[list[int], ...], text: str, seat: int | None, match: str
) -> None:
    with pytest.raises(errors.IllegalMoveError, match=match):
        parse_move(deal(*dice), text, seat=seat)


def test_illegal_opponents_die_is_under_your_own() -> None:
    state = deal([3, 3, 6], [3, 5, 5], [4, 4, 6])
    stack(state, 3, B)  # alice's 3 now tops bob's only 3
    reroll(state, 5, 2)  # bob: no 2 anywhere, stays
    reroll(state, 4, 2)  # carol's 2 must go on bob's 2
    with pytest.raises(errors.IllegalMoveError, match="bob's 3 is under your own die"):
        parse_move(state, "stack 3 on bob")


def test_ambiguous_lists_the_candidates() -> None:
    state = deal([3, 5, 6], [3, 3, 3], [3, 4, 4])
    stack(state, 3, B)  # (bob, alice)
    stack(state, 3, A, 2)  # (bob, alice, bob); bob keeps a single 3
    with pytest.raises(errors.AmbiguousMoveError) as err:
        parse_move(state, "stack 3 on bob")
    assert "bob's single 3" in str(err.value)
    assert "bob's 3-high pile of 3s" in str(err.value)
    assert set(err.value.candidates) == {Stack(3, B, 1), Stack(3, B, 3)}
    assert parse_move(state, "stack 3 on bob 3") == Stack(3, B, 3)


def test_nothing_is_read_as_a_move_while_a_rerolled_die_is_being_rolled() -> None:
    """After a reroll the die's roll (chance) comes first: no typed move is a move then,
    nor a choice between piles none of which is legal now (hypothesis found one)."""
    state = deal([3, 5, 6], [3, 3, 3], [3, 4, 4])
    stack(state, 3, B)  # (bob, alice)
    stack(state, 3, A, 2)  # (bob, alice, bob); bob keeps a single 3
    state.apply(Reroll(4))  # carol rerolls a 4: its roll is chance, still carol's turn
    assert state.current == C
    for typed in ("stack 3 on bob", "reroll 4", "place on bob"):
        with pytest.raises(errors.IllegalMoveError, match="while the dice are being rolled"):
            parse_move(state, typed)


def test_place_a_rerolled_die() -> None:
    state = placing_six()
    assert parse_move(state, "place on carol") == Place(C, 1)
    assert parse_move(state, "on @bob 1") == Place(B, 1)
    assert parse_move(state, "stack 6 on bob") == Place(B, 1)
    with pytest.raises(errors.IllegalMoveError, match="First put your rerolled 6"):
        parse_move(state, "reroll 3")
    with pytest.raises(errors.IllegalMoveError, match="shows 6, not 3"):
        parse_move(state, "stack 3 on bob")


def test_errors_are_distinct_value_errors() -> None:
    for cls in (errors.InvalidMoveError, errors.IllegalMoveError, errors.AmbiguousMoveError):
        assert issubclass(cls, errors.MoveError) and issubclass(cls, ValueError)
    assert len({errors.InvalidMoveError, errors.IllegalMoveError, errors.AmbiguousMoveError}) == 3
    _ = A


# ---------------------------------------------------------------- typos get help (issue 7.13)


@pytest.mark.parametrize(
    ("text", "word", "meant"),
    [
        ("stak 1 on bot3", "stak", "stack"),
        ("Stak 3 on bob", "Stak", "stack"),
        ("stck 3 on bob", "stck", "stack"),
        ("rerol 3", "rerol", "reroll"),
        ("rerolll 3", "rerolll", "reroll"),
        ("plase on bob", "plase", "place"),
    ],
)
def test_a_misspelt_command_word_is_answered_with_the_word_it_resembles(
    text: str, word: str, meant: str
) -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, text)
    assert str(err.value) == f"'{word}' is not a move; did you mean `{meant}`?"
    assert err.value.reason is errors.InvalidReason.UNKNOWN_WORD
    assert err.value.suggestion == meant


@pytest.mark.parametrize("text", ["dance", "hello bob", "quit now", "xyzzy 3"])
def test_a_word_unlike_every_command_gets_the_syntax_not_a_guess(text: str) -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, text)
    assert err.value.reason is errors.InvalidReason.NOT_A_MOVE and err.value.suggestion is None
    assert f"'{text}' is not a move. Try" in str(err.value)


@pytest.mark.parametrize("text", ["reroll", "REROLL", "r", "  reroll  "])
def test_a_bare_reroll_asks_for_the_face(text: str) -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, text)
    assert str(err.value) == "Reroll which die? Give its face: `reroll 3`."
    assert err.value.reason is errors.InvalidReason.MISSING_FACE


def test_a_stack_without_a_face_asks_for_it() -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.InvalidMoveError, match=r"Stack which die on 'bob'\?") as err:
        parse_move(state, "stack on bob")
    assert err.value.reason is errors.InvalidReason.MISSING_FACE
    with pytest.raises(errors.InvalidMoveError, match="Stack which die") as err:
        parse_move(state, "stack")
    assert err.value.reason is errors.InvalidReason.MISSING_FACE


@pytest.mark.parametrize("text", ["place on bob", "on bob", "place", "PLACE ON bob 1"])
def test_a_placement_with_no_rerolled_die_waiting_says_there_is_none(text: str) -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, text)
    assert err.value.reason is errors.IllegalReason.NOTHING_TO_PLACE
    assert str(err.value).startswith("There is no rerolled die waiting to be placed")
    assert "is not a move" not in str(err.value)


def test_a_reroll_takes_exactly_one_face() -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.InvalidMoveError, match="takes the face of one die"):
        parse_move(state, "reroll 3 4")


# ---------------------------------------------------------------- typed refusals (issue 7.14)


def placing_six() -> StackState:
    """alice rerolled a 4 and rolled a 6, which may go on bob's or carol's single 6."""
    state = deal([3, 4], [5, 6], [6, 1])
    reroll(state, 4, 6)
    return state


def test_a_reroll_while_a_rerolled_die_waits_carries_its_face_and_targets() -> None:
    state = placing_six()
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "reroll 3")
    assert err.value.reason is errors.IllegalReason.PLACEMENT_PENDING
    assert err.value.face == 6 and err.value.asked is None
    assert err.value.targets == (errors.Target(B, "bob", 1), errors.Target(C, "carol", 1))
    assert str(err.value) == "First put your rerolled 6 on a pile: `place on NAME`."


def test_a_stack_of_another_face_while_a_rerolled_die_waits_names_both_faces() -> None:
    state = placing_six()
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "stack 1 on bob")
    assert err.value.reason is errors.IllegalReason.PLACEMENT_PENDING
    assert (err.value.face, err.value.asked) == (6, 1)
    assert err.value.targets == (errors.Target(B, "bob", 1), errors.Target(C, "carol", 1))
    assert str(err.value) == "Your rerolled die shows 6, not 1: `place on NAME` puts it on a pile."


def test_the_state_refuses_any_move_but_the_placement_with_the_same_details() -> None:
    state = placing_six()
    for move in (Reroll(3), Stack(3, B, 1)):
        with pytest.raises(errors.IllegalMoveError) as err:
            state.apply(move, by=A)
        assert err.value.reason is errors.IllegalReason.PLACEMENT_PENDING
        assert err.value.face == 6 and err.value.asked == 3
        assert err.value.targets == (errors.Target(B, "bob", 1), errors.Target(C, "carol", 1))


def test_a_missing_die_names_its_face() -> None:
    state = deal([3, 5], [4, 4])
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "reroll 6")
    assert err.value.reason is errors.IllegalReason.NO_SUCH_DIE and err.value.face == 6


def test_no_message_from_the_engine_says_your_rolled() -> None:
    engine = Path(__file__).resolve().parents[2] / "engine"
    offenders = [p.name for p in engine.rglob("*.py") if "Your rolled" in p.read_text()]
    assert offenders == []


# ---------------------------------------------------------------- odd input (issue 7.12)


@pytest.mark.parametrize(
    "text", ["reroll ²", "reroll ٣", "reroll ³", "stack ² on bob", "reroll -1", "reroll 3.0"]
)
def test_a_face_that_only_looks_like_a_number_is_not_a_face(text: str) -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.InvalidMoveError, match="is not a die face") as err:
        parse_move(state, text)
    assert err.value.reason is errors.InvalidReason.BAD_FACE


@pytest.mark.parametrize("digits", [4301, 5000, 20])
def test_a_face_of_thousands_of_digits_is_refused_and_cut(digits: int) -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.MoveError) as err:
        parse_move(state, "reroll " + "7" * digits)
    assert len(str(err.value)) < 400
    assert "7" * 41 not in str(err.value)


def test_a_height_of_thousands_of_digits_is_refused() -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.IllegalMoveError, match="1 to 3 dice high, not 99999") as err:
        parse_move(state, "stack 3 on bob " + "9" * 60)
    assert "9" * 41 not in str(err.value)


def test_an_echo_is_cut_to_forty_characters_and_keeps_the_case() -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, "stack 3 on Zed" + "Q" * 60)
    assert "There's no player called 'Zed" + "Q" * 36 + "…' at this table" in str(err.value)


def test_control_characters_are_not_echoed() -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, "stack 3 on \x1b[31mred\x00")
    assert "\x1b" not in str(err.value) and "\x00" not in str(err.value)
    assert "'�[31mred�'" in str(err.value)


def test_an_emoji_joined_by_zero_width_joiners_is_echoed_whole() -> None:
    state = deal([3, 4], [3, 5])
    family = "\N{MAN}\u200d\N{WOMAN}\u200d\N{GIRL}"
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, f"stack 3 on {family}")
    assert f"'{family}'" in str(err.value) and "�" not in str(err.value)


def test_direction_marks_are_left_out_of_an_echo() -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, "stack 3 on zed\u200f\u202eevil")
    assert "'zedevil'" in str(err.value)

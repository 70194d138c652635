"""The one notation parser: moves, and its three distinct errors."""

from __future__ import annotations

import pytest

from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, MoveError
from engine.stack.moves import Place, Reroll, Roll, Stack
from engine.stack.notation import parse_move
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


@pytest.mark.parametrize("text", ["", "dance", "stack", "stack x on bob", "reroll", "hello bob"])
def test_not_a_move_gives_the_syntax(text: str) -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(InvalidMoveError) as err:
        parse_move(state, text)
    assert "stack 3 on bob" in str(err.value) or "Try" in str(err.value)


def test_stack_without_target_says_how() -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(InvalidMoveError, match="on whose pile"):
        parse_move(state, "stack 3")


def test_face_out_of_range_and_unknown_player() -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(InvalidMoveError, match="1 to 6"):
        parse_move(state, "reroll 7")
    with pytest.raises(InvalidMoveError, match="no player called 'zed'"):
        parse_move(state, "stack 3 on zed")


def test_illegal_you_have_no_unstacked_die() -> None:
    state = deal([3, 5], [4, 4])
    with pytest.raises(IllegalMoveError, match="You have no unstacked 4"):
        parse_move(state, "stack 4 on bob")
    with pytest.raises(IllegalMoveError, match="You have no unstacked 6"):
        parse_move(state, "reroll 6")


def test_illegal_not_your_turn() -> None:
    state = deal([3, 5], [3, 4])
    with pytest.raises(IllegalMoveError, match="It's alice's turn"):
        parse_move(state, "stack 3 on alice", seat=B)


def test_illegal_own_colour() -> None:
    state = deal([3, 3], [3, 4])
    with pytest.raises(IllegalMoveError, match="own colour"):
        parse_move(state, "stack 3 on alice")


def test_illegal_opponents_die_is_under_your_own() -> None:
    state = deal([3, 3, 6], [3, 5, 5], [4, 4, 6])
    stack(state, 3, B)  # alice's 3 now tops bob's only 3
    reroll(state, 5, 2)  # bob: no 2 anywhere, stays
    reroll(state, 4, 2)  # carol's 2 must go on bob's 2
    with pytest.raises(IllegalMoveError, match="bob's 3 is under your own die"):
        parse_move(state, "stack 3 on bob")


def test_illegal_no_pile_of_that_height() -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(IllegalMoveError, match="bob has no 2-high pile of 3s"):
        parse_move(state, "stack 3 on bob 2")


def test_ambiguous_lists_the_candidates() -> None:
    state = deal([3, 5, 6], [3, 3, 3], [3, 4, 4])
    stack(state, 3, B)  # (bob, alice)
    stack(state, 3, A, 2)  # (bob, alice, bob); bob keeps a single 3
    with pytest.raises(AmbiguousMoveError) as err:
        parse_move(state, "stack 3 on bob")
    assert "bob's single 3" in str(err.value)
    assert "bob's 3-high pile of 3s" in str(err.value)
    assert set(err.value.candidates) == {Stack(3, B, 1), Stack(3, B, 3)}
    assert parse_move(state, "stack 3 on bob 3") == Stack(3, B, 3)


def test_place_a_rerolled_die() -> None:
    state = deal([3, 4], [5, 6], [6, 1])
    state.apply(Reroll(4))
    state.apply(Roll(6))
    assert parse_move(state, "place on carol") == Place(C, 1)
    assert parse_move(state, "on @bob 1") == Place(B, 1)
    assert parse_move(state, "stack 6 on bob") == Place(B, 1)
    with pytest.raises(IllegalMoveError, match="First put your rerolled 6"):
        parse_move(state, "reroll 3")
    with pytest.raises(IllegalMoveError, match="shows 6, not 3"):
        parse_move(state, "stack 3 on bob")


def test_errors_are_distinct_value_errors() -> None:
    for cls in (InvalidMoveError, IllegalMoveError, AmbiguousMoveError):
        assert issubclass(cls, MoveError) and issubclass(cls, ValueError)
    assert len({InvalidMoveError, IllegalMoveError, AmbiguousMoveError}) == 3
    _ = A

"""Color Stack's parser never raises anything but its two errors, on any text at any point
of a game (digits of other scripts included: '²' and '٣' are digits to ``str.isdigit``
but no number ``int`` reads as a row); a refusal changes nothing."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.colorstack.notation import parse_move
from engine.colorstack.state import ColorStackState
from engine.errors import IllegalMoveError, InvalidMoveError
from tests.engine.colorstack.situations import new_game

DIGITS = ["1", "3", "4", "9", "0", "10", "²", "³", "٣", "３", "𝟑", "3²", "1٣", "-1", ""]
SQUARES = st.builds(
    "".join,
    st.tuples(st.sampled_from(["c", "E", "a", "i", "j", "z", "", "cc"]), st.sampled_from(DIGITS)),
)
WORDS = st.sampled_from(["set", "SET", "to", "-", "resign", "colours", "red", "yellow", ""])


@st.composite
def games(draw: st.DrawFn) -> ColorStackState:
    """A game on either board, played at random for some moves."""
    state = new_game(board=draw(st.sampled_from(["light", "heavy"])))
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 40))):
        if state.is_over or state.current_player is None:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


@st.composite
def moves_typed(draw: st.DrawFn) -> str:
    """Text shaped like a move or a set: words, squares and numbers in any order."""
    parts = draw(st.lists(st.one_of(WORDS, SQUARES, st.sampled_from(DIGITS)), max_size=5))
    joints = draw(st.lists(st.sampled_from([" ", "-", " to ", "  "]), min_size=len(parts)))
    return "".join(p + j for p, j in zip(parts, joints, strict=False))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), moves_typed())
def test_any_text_is_a_legal_move_or_a_typed_refusal_and_changes_nothing(
    state: ColorStackState, text: str
) -> None:
    before = state.to_dict()
    try:
        move = parse_move(state, text, state.current_player)
    except (InvalidMoveError, IllegalMoveError) as err:
        assert str(err)
    else:
        assert state.refusal(move, state.current_player) is None
    assert state.to_dict() == before


def test_a_digit_of_another_script_in_a_square_or_a_number_is_refused() -> None:
    state = new_game()
    for text in ("c1-e3²", "c1 to e3²", "c1²-e3", "set c1² 4", "set c1 ²", "set c1 ٣", "e٣-c1"):
        try:
            parse_move(state, text, 0)
        except (InvalidMoveError, IllegalMoveError):
            continue
        raise AssertionError(f"{text!r} was read as a move")

"""Moves are small hashable values with an exact, compact JSON codec."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.stackup import moves
from engine.stackup.cards import ALL_CARDS, FULL_DECK, SNATCH, SWITCH

cards = st.lists(st.sampled_from(ALL_CARDS), max_size=6).map(tuple)
opt_small = st.none() | st.integers(0, 5)
any_move: st.SearchStrategy[moves.Move] = st.one_of(
    st.sampled_from(
        [moves.UP, moves.DOWN, moves.BLOCK, moves.TAKE, moves.USE_PASS, moves.DRAW, moves.KEEP]
    ),
    st.builds(
        moves.Play,
        cards,
        st.sampled_from([None, "pass", "skip"]),
        st.none() | st.integers(0, 3),
        opt_small,
        opt_small,
    ),
    st.builds(moves.PlayDrawn, st.none() | st.integers(0, 3), opt_small, opt_small),
    st.builds(moves.Took, cards),
    st.builds(moves.Reshuffle, cards),
    st.builds(lambda first: moves.Deal(FULL_DECK, first), st.integers(0, 5)),
)


@given(any_move)
def test_codec_is_exact_and_json_safe(move: moves.Move) -> None:
    data = moves.move_to_json(move)
    assert moves.move_from_json(json.loads(json.dumps(data))) == move
    assert hash(move) == hash(moves.move_from_json(data))


def test_encodings_are_short() -> None:
    assert moves.move_to_json(moves.Play((0, 1, 2), "skip")) == ["p", ["R1", "R2", "R3"], "skip"]
    assert moves.move_to_json(moves.Play((SWITCH,), colour=1)) == ["p", ["Switch"], None, "B"]
    assert moves.move_to_json(moves.Play((SNATCH,), target=2, count=3)) == [
        "p",
        ["Snatch"],
        None,
        None,
        2,
        3,
    ]
    assert moves.move_to_json(moves.PlayDrawn(colour=3)) == ["pd", "G"]
    assert moves.move_to_json(moves.UP) == ["up"]
    assert len(json.dumps(moves.move_to_json(moves.Play((0, 1, 2, 3, 4, 5), "pass")))) < 60


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        ["p"],
        ["p", ["r7"]],
        ["p", ["R7"], None],
        ["p", ["R7"], "later"],
        ["p", ["Switch"], None, "Purple"],
        ["p", ["Snatch"], None, None, True, 1],
        ["pd", None],
        ["up", 1],
        ["deal", ["R1"]],
        ["nope"],
        "up",
    ],
)
def test_codec_refuses_anything_else(data: object) -> None:
    with pytest.raises(ValueError):
        moves.move_from_json(data)

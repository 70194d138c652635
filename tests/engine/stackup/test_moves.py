"""Moves are small hashable values with an exact, compact JSON codec."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.stackup.cards import ALL_CARDS, FULL_DECK, SNATCH, SWITCH
from engine.stackup.moves import (
    BLOCK,
    DOWN,
    DRAW,
    KEEP,
    TAKE,
    UP,
    USE_PASS,
    Deal,
    Move,
    Play,
    PlayDrawn,
    Reshuffle,
    Took,
    move_from_json,
    move_to_json,
)

cards = st.lists(st.sampled_from(ALL_CARDS), max_size=6).map(tuple)
opt_small = st.none() | st.integers(0, 5)
moves: st.SearchStrategy[Move] = st.one_of(
    st.sampled_from([UP, DOWN, BLOCK, TAKE, USE_PASS, DRAW, KEEP]),
    st.builds(
        Play,
        cards,
        st.sampled_from([None, "pass", "skip"]),
        st.none() | st.integers(0, 3),
        opt_small,
        opt_small,
    ),
    st.builds(PlayDrawn, st.none() | st.integers(0, 3), opt_small, opt_small),
    st.builds(Took, cards),
    st.builds(Reshuffle, cards),
    st.builds(lambda first: Deal(FULL_DECK, first), st.integers(0, 5)),
)


@given(moves)
def test_codec_is_exact_and_json_safe(move: Move) -> None:
    data = move_to_json(move)
    assert move_from_json(json.loads(json.dumps(data))) == move
    assert hash(move) == hash(move_from_json(data))


def test_encodings_are_short() -> None:
    assert move_to_json(Play((0, 1, 2), "skip")) == ["p", ["R1", "R2", "R3"], "skip"]
    assert move_to_json(Play((SWITCH,), colour=1)) == ["p", ["Switch"], None, "B"]
    assert move_to_json(Play((SNATCH,), target=2, count=3)) == ["p", ["Snatch"], None, None, 2, 3]
    assert move_to_json(PlayDrawn(colour=3)) == ["pd", "G"]
    assert move_to_json(UP) == ["up"]
    assert len(json.dumps(move_to_json(Play((0, 1, 2, 3, 4, 5), "pass")))) < 60


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
        move_from_json(data)

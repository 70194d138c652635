"""``python -m engine.stackup.fit``: the expert's evaluation refitted from self-play."""

from __future__ import annotations

import math
import random

import pytest

from engine.stackup.ai import best_run
from engine.stackup.expert import _MORE, _TWO, evaluate, seat_score
from engine.stackup.fit import FEATURES, features, fit, positions
from engine.stackup.shape import hand_shape

from .situations import cards, table


def test_the_fits_features_are_the_evaluations_in_its_order() -> None:
    rng = random.Random(3)
    for text in ("R6 R7", "Flip", "Switch R2", "G1 G2 Crash Snatch Freeze", "Crash", "B9 Y2"):
        state = table(text, "B1 B2 G7", stack="R5", passes=[rng.randrange(3), 1])
        playable = best_run(state.hands[0], state.colour, state.number, True)
        for w in (_TWO, _MORE):
            assert len(w) == len(FEATURES)
            mine = sum(a * b for a, b in zip(features(state, 0), w, strict=True))
            assert seat_score(state.hands[0], state.passes[0], w, playable) == pytest.approx(mine)
            theirs = sum(a * b for a, b in zip(features(state, 1), w, strict=True))
            assert seat_score(state.hands[1], state.passes[1], w) == pytest.approx(theirs)


def test_a_hands_shape_is_its_fewest_runs_its_colours_most_of_a_colour_and_longest_run() -> None:
    assert hand_shape(cards("R6 R7 R8 B2 B4 G15 Flip Crash")) == (4, 3, 3, 3)
    assert hand_shape(cards("R14 R15 B1 B2")) == (2, 2, 2, 2)  # a run never wraps colours
    assert hand_shape(cards("Switch Crash")) == (0, 0, 0, 0)
    assert hand_shape([]) == (0, 0, 0, 0)


def test_the_seat_to_act_has_how_much_it_sheds_now_and_whether_it_is_stuck() -> None:
    act, stuck = (
        FEATURES.index("to act: most cards one number play sheds now"),
        FEATURES.index("to act: stuck (no number play, no special)"),
    )
    state = table("R6 R7 R8 G2", "B9 Y2", stack="R5")
    assert features(state, 0)[act] == 3 and features(state, 0)[stuck] == 0
    assert features(state, 1)[act] == 0 and features(state, 1)[stuck] == 0  # not to act
    stuck_state = table("B9 Y2", "R6 R7", stack="R5")
    assert features(stuck_state, 0)[act] == 0 and features(stuck_state, 0)[stuck] == 1
    special = table("B9 Crash", "R6 R7", stack="R5")
    assert features(special, 0)[stuck] == 0  # a special card is a play on any stack


def test_the_plays_a_hand_needs_count_its_runs_and_its_special_cards() -> None:
    plays = FEATURES.index("log of the plays the hand needs (runs + specials)")
    one = FEATURES.index("the hand is one run")
    state = table("R6 R7 R8 B2 Flip", "G3 G4 G5", stack="R5")
    assert features(state, 0)[plays] == pytest.approx(math.log(2 + 1 + 1))
    assert features(state, 0)[one] == 0 and features(state, 1)[one] == 1


def test_the_evaluation_prefers_the_hand_that_needs_fewer_plays() -> None:
    state = table("R1 R2 R3 R4 R5", "R7 B9 Y2 G12 B13", "G6 G7", stack="Y14", seat=2)
    assert evaluate(state, 0) > evaluate(state, 1)


def test_a_fit_on_self_play_finds_that_fewer_cards_win() -> None:
    x, y = positions(2, 150, 0.3, seed=1)
    assert x.shape[1:] == (2, len(FEATURES) + 1) and y.shape == (len(x), 2)
    assert y.sum(axis=1) == pytest.approx(1.0)
    w = fit(x, y, steps=300)
    assert w[0] < 0  # the log of the hand size

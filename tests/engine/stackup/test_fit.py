"""``python -m engine.stackup.fit``: the expert's evaluation refitted from self-play."""

from __future__ import annotations

import random

import pytest

from engine.stackup.expert import _MORE, _TWO, seat_score
from engine.stackup.fit import FEATURES, features, fit, positions

from .situations import table


def test_the_fits_features_are_the_evaluations_in_its_order() -> None:
    rng = random.Random(3)
    for text in ("R6 R7", "Flip", "Switch R2", "G1 G2 Crash Snatch Freeze", "Crash"):
        state = table(text, "B1 B2", stack="R5", passes=[rng.randrange(3), 0])
        for w in (_TWO, _MORE):
            assert len(w) == len(FEATURES)
            mine = sum(a * b for a, b in zip(features(state, 0), w, strict=True))
            assert seat_score(state.hands[0], state.passes[0], w) == pytest.approx(mine)


def test_a_fit_on_self_play_finds_that_fewer_cards_win() -> None:
    x, y = positions(2, 150, 0.3, seed=1)
    assert x.shape[1:] == (2, len(FEATURES) + 1) and y.shape == (len(x), 2)
    assert y.sum(axis=1) == pytest.approx(1.0)
    w = fit(x, y, steps=300)
    assert w[0] < 0  # the log of the hand size

"""The strength ladder's arithmetic: Elo from a score, the SPRT's stopping, intervals."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import games
from engine.ladder import (
    Result,
    Sprt,
    current_player,
    duel,
    elo,
    elo_words,
    expected,
    ladder_lines,
    previous_player,
    wilson,
)


def test_elo_and_expected_score_are_inverse() -> None:
    assert elo(0.5) == pytest.approx(0.0)
    for d in (-400.0, -50.0, 30.0, 200.0):
        assert elo(expected(d)) == pytest.approx(d)
    assert elo(0.76) == pytest.approx(200, abs=1)  # a known point of the Elo curve


def test_the_sprt_accepts_h1_for_a_clearly_stronger_player_and_h0_for_an_equal_one() -> None:
    strong = Sprt(elo0=0, elo1=50)
    strong.scores = [1.0, 1.0, 0.0, 1.0] * 40
    assert strong.verdict() == "H1"
    equal = Sprt(elo0=0, elo1=50)
    equal.scores = [1.0, 0.0] * 400
    assert equal.verdict() == "H0"
    early = Sprt(elo0=0, elo1=50)
    early.scores = [1.0, 0.0, 1.0]
    assert early.verdict() is None


def test_the_sprt_takes_no_run_of_equal_scores_for_certainty() -> None:
    """Two wins (or two losses) in a row decide nothing; a long clean sweep does."""
    for first in (1.0, 0.0):
        few = Sprt(elo0=0, elo1=50)
        few.scores = [first] * 3
        assert few.verdict() is None
    sweep = Sprt(elo0=0, elo1=50)
    sweep.scores = [1.0] * 20
    assert sweep.verdict() == "H1"


def test_the_wilson_interval_holds_the_proportion_within_zero_and_one() -> None:
    low, high = wilson(40, 100)
    assert 0.30 < low < 0.40 < high < 0.50
    low, high = wilson(0, 10)
    assert low == pytest.approx(0.0, abs=1e-12) and 0 < high < 0.35


def test_a_duel_stops_at_the_game_limit_and_scores_every_game() -> None:
    game = games.get("stackup")
    rnd = current_player(game, "random", None)
    greedy = current_player(game, "greedy", None)
    result = duel(game, rnd, greedy, random.Random(2), Sprt(), max_games=6)
    assert len(result.scores) == 6 and set(result.scores) <= {0.0, 0.5, 1.0}
    assert (result.weaker, result.stronger) == ("random", "greedy")


def test_the_previous_release_plays_from_git_on_the_current_engine() -> None:
    game = games.get("stackup")
    repo = Path(__file__).resolve().parents[2]
    old = previous_player(game, "HEAD", "greedy", None, repo)
    assert old.name == "greedy@HEAD"
    rnd = current_player(game, "random", None)
    result = duel(game, rnd, old, random.Random(3), Sprt(), max_games=2)
    assert len(result.scores) == 2


def test_a_clean_sweep_shows_a_finite_lower_bound_and_an_unbounded_upper_one() -> None:
    sweep = Result("random", "greedy", [1.0] * 20, "H1")
    mid, low, high = sweep.elo
    assert elo_words(mid) == "+inf" and elo_words(high) == "+inf"
    assert 100 < low < 1000
    assert "at least" in ladder_lines([sweep])[1]

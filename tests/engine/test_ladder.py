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
    main,
    previous_engine,
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


def test_the_previous_release_plays_its_own_copy_of_the_engine_not_the_current_one() -> None:
    # the games' registry and the levels' experts are imported by name ("engine.stack.expert"):
    # those names too must be the old copy's, or "--previous" plays the current player
    repo = Path(__file__).resolve().parents[2]
    old_games = previous_engine("HEAD", repo)
    for name in games.names():
        old = old_games.get(name)
        assert type(old).__module__.startswith("engine_prev."), name
        for level in old.ai_levels:
            assert type(old.make_ai(level)).__module__.startswith("engine_prev."), (name, level)


def test_a_previous_release_git_does_not_know_is_refused_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--previous", "no-such-release-anywhere", "--games", "1"])
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert "no git revision 'no-such-release-anywhere'" in said and "Traceback" not in said


def test_a_previous_release_named_like_an_option_is_refused_not_passed_to_git(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No revision begins with a dash: git archive took '--output=FILE' as its option and
    wrote FILE (empty), and the error named the folder 'engine' as the revision."""
    written = tmp_path / "written.tar"
    with pytest.raises(SystemExit) as stopped:
        main([f"--previous=--output={written}", "--games", "1"])
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert f"no git revision '--output={written}'" in said and "engine)" not in said, said
    assert not written.exists()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--one-against", "godlike", "--levels", "expert"], "Stack has no level 'godlike'"),
        (["--one-against", "greedy", "--levels", "expert", "--players", "0"], "2 to 8 players"),
        (["--one-against", "greedy", "--levels", "expert", "--players", "9"], "2 to 8 players"),
        (["--game", "colorstack", "--one-against", "greedy", "--players", "4"], "2 to 2 players"),
        (["--nodes", "0"], "--nodes must be at least 1"),
        (["--alpha", "0"], "--alpha is an error rate between 0 and 1"),
        (["--beta", "1.5"], "--beta is an error rate between 0 and 1"),
        (["--levels", "expert"], "a ladder needs two levels"),
        (["--levels", "greedy,"], "Stack has no level ''"),
        (["--levels", "greedy,,expert"], "Stack has no level ''"),
        (["--elo0", "50", "--elo1", "50"], "--elo0 must be below --elo1, not 50 and 50"),
        (["--previous-level", "greedy"], "--previous-level names a level of --previous REF"),
    ],
)
def test_options_the_ladder_cannot_play_are_refused_in_words(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*args, "--games", "1"])
    assert stopped.value.code == 2
    assert said in capsys.readouterr().err


def test_an_even_match_is_plus_zero_elo_not_minus_zero() -> None:
    assert elo_words(elo(0.5)) == "+0"
    assert elo_words(-0.3) == "+0"


def test_a_decision_the_previous_release_does_not_have_is_taken_by_this_releases_greedy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Color Stack's first player choosing the colours came after the release it is measured
    # against: that release's copy of the position has no move, and its AI cannot choose one
    game = games.get("colorstack")
    repo = Path(__file__).resolve().parents[2]
    real = previous_engine("HEAD", repo)

    class Older:
        """The old release's Color Stack, without the colour decision."""

        def __init__(self) -> None:
            self.game = real.get("colorstack")
            self.ai_levels = self.game.ai_levels

        def make_ai(self, level: str) -> object:
            return self.game.make_ai(level)

        def encode_move(self, move: object) -> object:
            return self.game.encode_move(move)

        def state_from_dict(self, data: dict[str, object]) -> object:
            state = self.game.state_from_dict(data)
            return _NoMoves() if state.choosing_colours else state

    class _NoMoves:
        def legal_moves(self) -> list[object]:
            return []

    class Registry:
        def get(self, name: str) -> Older:
            return Older()

    monkeypatch.setattr("engine.ladder.previous_engine", lambda ref, repo: Registry())
    old = previous_player(game, "old", "greedy", None, repo)
    state = game.new_state(["a", "b"], game.settings())
    rng = random.Random(5)
    state.apply(state.sample_chance(rng))  # the first player, who now chooses the colours
    assert state.choosing_colours
    move = old.choose(state, rng)
    assert state.is_legal(move)


def test_a_budget_gives_searching_levels_time_a_move_instead_of_nodes() -> None:
    for name in games.names():
        game = games.get(name)
        timed = current_player(game, "expert", 300, 0.05).choose.__self__  # type: ignore[attr-defined]
        assert (timed.budget, timed.nodes) == (0.05, None), name
        counted = current_player(game, "expert", 300).choose.__self__  # type: ignore[attr-defined]
        assert counted.nodes == 300, name
        greedy = current_player(game, "greedy", 300, 0.05).choose.__self__  # type: ignore[attr-defined]
        assert not hasattr(greedy, "budget"), name


def test_the_ladder_says_its_budget_and_refuses_a_budget_of_no_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--game", "colorstack", "--levels", "random,greedy", "--games", "1", "--budget", "0.01"])
    assert "searching levels at 0.01 s a move)" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        main(["--budget", "0", "--games", "1"])
    assert stopped.value.code == 2
    assert "--budget is a positive number of seconds, not 0.0" in capsys.readouterr().err

"""``python -m engine.bench``: its watched games (the host's step-by-step loop) and its
unwatched ones (the lean loop, where Stack's state plays a game of random players itself)
are the same games; both modes print what they measured."""

from __future__ import annotations

import random

import pytest

from engine import games
from engine.bench import main, play_one


@pytest.mark.parametrize("name", games.names())
def test_the_watched_and_the_unwatched_bench_play_the_same_games(name: str) -> None:
    game = games.get(name)
    choose = game.make_ai("random").choose
    players = 4 if game.max_players >= 4 else 2
    for seed in range(5):
        watched, unwatched = random.Random(seed), random.Random(seed)
        seen = play_one(game, players, watched, choose, watched=True)
        unseen = play_one(game, players, unwatched, choose)
        assert seen == unseen and watched.getstate() == unwatched.getstate()


def test_the_bench_says_which_loop_it_measured(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--game", "stack", "--seconds", "0.05", "--only-engine", "--watched"])
    assert "(watched: the host's step-by-step loop)" in capsys.readouterr().out
    main(["--game", "stack", "--seconds", "0.05", "--only-engine"])
    assert "(unwatched: the lean loop)" in capsys.readouterr().out

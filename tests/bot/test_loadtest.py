"""``python -m bot.loadtest --quick``: the real bot process, played by members through the
Discord stand-in (the gateway in, REST out), works end to end. No figure is checked: the
run is tiny and CI's machine is shared; the real figures are README's."""

from __future__ import annotations

import pytest

from bot import loadtest


def test_the_quick_load_test_plays_moves_through_the_real_bot_and_reports_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    results = loadtest.main(["--quick"])
    out = capsys.readouterr().out.splitlines()
    assert len(results) == 1, out
    run = results[0]
    assert run["moves"] > 0, out
    assert run["interactions"] >= run["moves"]  # a tapped move is My turn, then the tap
    assert sum(run["by_game"].values()) == run["moves"]
    assert run["rest"] > 1 and run["bot_ms"] > 0, out
    assert out[-1].startswith("real path: "), out
    assert any(line.startswith("offered 4/s: ") for line in out), out


def test_members_spread_over_every_game_with_one_table_of_each_at_least() -> None:
    mix = loadtest.games_mix("stack=0.8,stackup=0.1,colorstack=0.1", 1000)
    assert len(mix) == 1000
    assert (mix.count("stack"), mix.count("stackup"), mix.count("colorstack")) == (800, 100, 100)
    assert sorted(set(loadtest.games_mix("stack=0.8,stackup=0.1,colorstack=0.1", 3))) == [
        "colorstack",
        "stack",
        "stackup",
    ]

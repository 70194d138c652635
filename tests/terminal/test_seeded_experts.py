"""``stackbot play --seed N`` with expert AIs: the same command and the same moves typed
play the same game, however loaded the machine. With a seed the experts search under a
node budget a move (``host.thinking.SEEDED_NODES``), not on the clock; a machine "made
slow" here is a clock that runs fast (each reading 50 ms after the last), as a search
sees a machine hundreds of times slower: on the clock it stopped after a few readings
and chose otherwise."""

from __future__ import annotations

import io
import itertools
import json
import time
from pathlib import Path
from typing import Any

import pytest

from engine import games
from engine.stack.rules import StackRules
from host import thinking
from terminal.table import play, resume, resume_saved

SMALL_NODES = 40  # node budgets made small: the tests stay fast (the real ones: ~1 s)

# each game's command, kept small: its options, and its AI seats beside one human
COMMANDS: dict[str, tuple[dict[str, Any], int]] = {
    "stack": ({"rules": StackRules(target_score=30, dice_per_player=5)}, 2),
    "stackup": ({"settings": {"turn_limit": 12}}, 2),
    "colorstack": ({"settings": {"turn_limit": 30, "board": "light"}}, 1),
}


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in COMMANDS:
        monkeypatch.setitem(thinking.SEEDED_NODES, name, SMALL_NODES)


@pytest.fixture
def slow_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock every search reads runs fast: a second's search ends after 20 readings."""
    ticks = itertools.count()
    start = time.perf_counter()
    monkeypatch.setattr(time, "perf_counter", lambda: start + next(ticks) * 0.05)


class HintCopier(io.StringIO):
    """A player who asks for a hint and types the move it names, copied off the screen,
    ``moves`` times, then quits (``None``: to the game's end)."""

    def __init__(self, out: io.StringIO, moves: int | None = 3) -> None:
        super().__init__()
        self.out = out
        self.moves = moves
        self.asked = False

    def readline(self, size: int | None = -1) -> str:
        self.asked = not self.asked
        if self.asked:
            if self.moves == 0:
                return "quit\n"
            return "hint\n"
        if self.moves is not None:
            self.moves -= 1
        hint = self.out.getvalue().rsplit("Hint: ", 1)[1]
        return hint.split(": ", 1)[0] + "\n"


def seeded(
    name: str,
    export: Path,
    *,
    humans: tuple[str, ...] = ("al",),
    moves: int | None = 3,
    save: Path | None = None,
) -> dict[str, Any]:
    """``stackbot play --game NAME --players al --bots B --level expert --seed 7 --export
    EXPORT`` (no ``--players``: the AI seats alone), the hint's move typed ``moves``
    times: the record exported."""
    options, bots = COMMANDS[name]
    out = io.StringIO()
    code = play(list(humans), bots + (not humans), seed=7, level="expert", game=name,
                stdin=HintCopier(out, moves), stdout=out, export=export, save=save,
                **options)  # fmt: skip
    assert code == 0, out.getvalue()[-2000:]
    record: dict[str, Any] = json.loads(export.read_text())
    return record


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_seeded_game_with_expert_ais_repeats_on_a_slow_machine(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The same seeded command, the same moves typed: the same record, the second time on
    a machine made slow. The experts searched for a second of the clock, so a loaded
    machine gave other moves."""
    first = seeded(name, tmp_path / "first.json")
    request.getfixturevalue("slow_machine")
    assert seeded(name, tmp_path / "again.json") == first


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_seeded_game_of_expert_ais_alone_repeats_on_a_slow_machine(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """``--bots N`` with no ``--players`` (played out by the table loop in the terminal
    itself): the same seed, the same game, on a machine made slow too."""
    first = seeded(name, tmp_path / "first.json", humans=())
    request.getfixturevalue("slow_machine")
    assert seeded(name, tmp_path / "again.json", humans=()) == first


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_seeded_game_with_expert_ais_saved_and_resumed_repeats_the_game_played_straight(
    name: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Played straight through, and left after a move and taken up again from its save
    (``stackbot play --save FILE``, no ``--seed`` typed again) on a machine made slow: the
    same record."""
    straight = seeded(name, tmp_path / "straight.json", moves=3, save=tmp_path / "a.db")
    request.getfixturevalue("slow_machine")
    save = tmp_path / "b.db"
    seeded(name, tmp_path / "left.json", moves=1, save=save)
    resumed = resume_saved(save)
    assert resumed is not None
    out = io.StringIO()
    again = tmp_path / "again.json"
    code = resume(resumed, save=save, stdin=HintCopier(out, 2), stdout=out, export=again)
    assert code == 0, out.getvalue()[-2000:]
    assert json.loads(again.read_text()) == straight


def test_every_game_with_a_searching_ai_has_a_seeded_node_budget() -> None:
    """A game whose AI level thinks (searches on the clock) has its node budget for a
    seeded game."""
    for game in games.all_games():
        if game.thinking_levels:
            assert thinking.SEEDED_NODES.get(game.name, 0) >= 1, game.name

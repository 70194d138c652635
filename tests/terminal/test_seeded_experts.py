"""``stackbot play --seed N`` with expert AIs: the same command and the same moves typed
play the same game, however loaded the machine. With a seed the experts search under a
node budget a move (``host.thinking.SEEDED_NODES``), not on the clock; a machine "made
slow" here is a clock that runs fast (each reading 50 ms after the last), as a search
sees a machine hundreds of times slower: on the clock it stopped after a few readings
and chose otherwise."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import itertools
import json
import re
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine import games
from engine.stack.rules import StackRules
from host import thinking
from persistence.savefile import SEEDED_TABLE, kept_seeded
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
        # the move named, before its reason ("colours red yellow, the rule book's default")
        return re.split(r"[:,] ", hint, maxsplit=1)[0] + "\n"


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


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The node budget each thinking AI's search was given (``None``: on the clock), in
    turn; each searches a small budget whatever it was given (the tests stay fast)."""
    budgets: list[int | None] = []
    think = thinking.think

    def recorded(job: thinking.ThinkJob) -> Any:
        budgets.append(job.nodes)
        return think(dataclasses.replace(job, nodes=SMALL_NODES))

    monkeypatch.setattr(thinking, "think", recorded)
    return budgets


def left_and_resumed(
    name: str, save: Path, seed: int | None, searches: list[int | None], *, old: bool = False
) -> list[int | None]:
    """``stackbot play --game NAME --players al --bots B --level expert [--seed SEED]
    --save SAVE``, a move typed and left; then ``stackbot play --save SAVE`` (``old``: the
    save as an earlier stackbot left it, not saying whether its game was seeded), three
    moves typed: the node budgets the resumed game's thinking AIs searched under."""
    options, bots = COMMANDS[name]
    out = io.StringIO()
    code = play(["al"], bots, seed=seed, level="expert", game=name, stdin=HintCopier(out, 1),
                stdout=out, export=save.with_suffix(".json"), save=save, **options)  # fmt: skip
    assert code == 0, out.getvalue()[-2000:]
    if old:
        with contextlib.closing(sqlite3.connect(save)) as db, db:
            db.execute(f"DROP TABLE IF EXISTS {SEEDED_TABLE}")
    searches.clear()
    resumed = resume_saved(save)
    assert resumed is not None
    out = io.StringIO()
    code = resume(resumed, save=save, stdin=HintCopier(out, 3), stdout=out)
    assert code == 0, out.getvalue()[-2000:]
    assert searches, out.getvalue()
    return list(searches)


@pytest.mark.parametrize("name", list(COMMANDS))
@pytest.mark.parametrize("seed", [7, None])
def test_a_saved_game_resumed_thinks_as_it_did_seeded_or_not(
    name: str, seed: int | None, tmp_path: Path, searches: list[int | None]
) -> None:
    """A game saved says whether it was seeded, and taken up again its expert AIs search
    as they did: under their node budgets if it was (``--seed``), else on the clock (as
    the player chose it). An unseeded game's went on under node budgets, the save not
    saying."""
    save = tmp_path / "game.db"
    budgets = left_and_resumed(name, save, seed, searches)
    assert set(budgets) == ({SMALL_NODES} if seed is not None else {None})
    # (the file held as it was played; read once the game let it go)
    with contextlib.closing(sqlite3.connect(save)) as db:
        (table_id,) = db.execute("SELECT id FROM tables").fetchone()
    assert kept_seeded(save, table_id) is (seed is not None)


def test_a_save_that_does_not_say_whether_it_was_seeded_goes_on_under_node_budgets(
    tmp_path: Path, searches: list[int | None]
) -> None:
    """A save of an earlier stackbot (which did not keep whether its game was seeded) goes
    on as it always did: its thinking AIs under their node budgets, a seeded game's as
    played straight through."""
    budgets = left_and_resumed("stackup", tmp_path / "game.db", None, searches, old=True)
    assert set(budgets) == {SMALL_NODES}


def test_every_game_with_a_searching_ai_has_a_seeded_node_budget() -> None:
    """A game whose AI level thinks (searches on the clock) has its node budget for a
    seeded game."""
    for game in games.all_games():
        if game.thinking_levels:
            assert thinking.SEEDED_NODES.get(game.name, 0) >= 1, game.name


@pytest.mark.parametrize("seed", [7, None])
def test_seed_given_again_for_a_saved_game_is_refused_only_if_it_was_not_seeded(
    seed: int | None,
    tmp_path: Path,
    searches: list[int | None],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--save FILE --seed N`` with a game in play in FILE: a seeded game goes on (its
    chance from where the save kept it); one played without a seed is not made
    repeatable by it, so the option is refused as any that would set up another game is
    (exit 2), and the game is left as it was."""
    from bot.cli import main

    save = tmp_path / "game.db"
    options, bots = COMMANDS["stackup"]
    out = io.StringIO()
    code = play(["al"], bots, seed=seed, level="expert", game="stackup", stdin=HintCopier(out, 1),
                stdout=out, save=save, **options)  # fmt: skip
    assert code == 0, out.getvalue()[-2000:]
    capsys.readouterr()
    with contextlib.closing(sqlite3.connect(save)) as db:
        before = db.execute("SELECT count(*) FROM moves").fetchone()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # (it goes on: then it ends there)
    code = main(["play", "--save", str(save), "--seed", "3"])
    said = capsys.readouterr()
    if seed is None:
        assert code == 2 and "leave out --seed" in said.err, said.err
    else:
        assert code == 0 and "goes on" in said.out, said.out + said.err
    with contextlib.closing(sqlite3.connect(save)) as db:
        after = db.execute("SELECT count(*) FROM moves").fetchone()
    assert seed is not None or after == before

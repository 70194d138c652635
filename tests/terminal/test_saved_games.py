"""``stackbot play --save FILE``: a game left before its end (quit, Ctrl-C, the end of
input, a stop signal, the process killed) is kept in FILE, and the same command goes on
with it from where it was, its game, seats and rules as they were saved."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import io
import json
import os
import random
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import catalog
from bot.cli import main
from engine import games
from engine.game import Game
from engine.record import check_file
from engine.stack.rules import StackRules
from terminal import stack as stack_terminal
from terminal.hosting import CHANNEL, HostedTable
from terminal.table import (
    CTRL_C,
    END_OF_INPUT,
    INTERRUPTED_EXIT,
    STOPPED,
    YOU_QUIT,
    Front,
    Resumed,
    Seat,
    TerminalGame,
    error_line,
    resume,
    resume_saved,
)
from terminal.table import play as table_play

ROOT = Path(__file__).resolve().parents[2]


def signals_as_at_a_terminal() -> None:
    """In a child: Ctrl-C and the stop signals as a terminal gives them, whatever this
    process inherited (a suite run in the background has SIGINT ignored, and so would
    its children)."""
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


class Typist(io.StringIO):
    """A player at the keyboard who types the first legal move of whoever is to act,
    ``moves`` times, then ``quit`` (``None``: to the game's end)."""

    def __init__(self, game: Game[Any], moves: int | None = None) -> None:
        super().__init__()
        self.game = game
        self.moves = moves
        self.terminal: Front | None = None

    def readline(self, size: int | None = -1) -> str:
        assert self.terminal is not None
        if self.moves is not None:
            if self.moves == 0:
                return "quit\n"
            self.moves -= 1
        state: Any = self.terminal.state  # type: ignore[attr-defined]
        return self.game.move_notation(state, state.legal_moves()[0]) + "\n"


def front(
    game: Game[Any],
    typist: Typist,
    out: io.StringIO,
    *,
    save: Path,
    export: Path,
    resumed: Resumed | None = None,
) -> Front:
    """The terminal of ``game`` (Stack's own, or every other game's), typed by ``typist``,
    a new game with one human and one AI seat, or ``resumed``."""
    seats = resumed.seats if resumed is not None else [Seat("al"), Seat("AI 1", "greedy")]
    rng = random.Random(3)
    terminal: Front
    if game.name == "stack":
        rules = resumed.state.rules if resumed is not None else StackRules(target_score=60)
        terminal = stack_terminal.TerminalGame(
            seats, rules, rng, typist, out, export, save=save, resumed=resumed
        )
    else:
        settings = resumed.table.rules if resumed is not None else game.settings()
        assert settings is not None
        terminal = TerminalGame(
            game, seats, settings, rng, typist, out, export, save=save, resumed=resumed
        )
    typist.terminal = terminal
    return terminal


def continues(before: Any, after: Any) -> bool:
    """Whether the record ``after`` goes on from ``before``: the same, with more at the
    end of its lists (the last item of a list, a round under way, may have grown too)."""
    if isinstance(before, list):
        return (
            len(before) <= len(after)
            and before[:-1] == after[: len(before) - 1]
            and (not before or continues(before[-1], after[len(before) - 1]))
        )
    if isinstance(before, dict):
        return isinstance(after, dict) and all(
            k in after and continues(v, after[k]) for k, v in before.items()
        )
    return bool(before == after)


@pytest.mark.parametrize("name", ["stack", "stackup", "colorstack"])
def test_a_game_left_with_save_goes_on_from_where_it_was_left(name: str, tmp_path: Path) -> None:
    game = games.get(name)
    save, first, last = tmp_path / "game.db", tmp_path / "first.json", tmp_path / "last.json"
    out = io.StringIO()
    assert front(game, Typist(game, moves=4), out, save=save, export=first).run() == 0
    assert f"Game saved in {save}: you quit." in out.getvalue()
    assert check_file(str(first))["finished"] is False

    resumed = resume_saved(save)
    assert resumed is not None and resumed.table.game == name
    assert [s.name for s in resumed.seats] == [s["name"] if isinstance(s, dict) else s for s in json.loads(first.read_text())["players"]]  # fmt: skip
    out = io.StringIO()
    assert front(game, Typist(game), out, save=save, export=last, resumed=resumed).run() == 0
    said = out.getvalue()
    assert f"The game saved in {save} goes on." in said
    checked = check_file(str(last))
    assert checked["ok"] is True and checked["finished"] is True, checked
    assert continues(json.loads(first.read_text()), json.loads(last.read_text()))
    assert resume_saved(save) is None  # over: nothing to go on with


def test_a_game_saved_is_not_set_up_again_by_other_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.db"
    game = games.get("stackup")
    front(game, Typist(game, moves=1), io.StringIO(), save=save, export=tmp_path / "r.json").run()
    before = save.read_bytes()
    assert main(["play", "--save", str(save), "--players", "bob", "--bots", "2"]) == 2
    error = capsys.readouterr().err
    assert "holds a game of Stack Up! in play (al, AI 1)" in error
    assert "leave out --players, --bots." in error
    assert save.read_bytes() == before


def test_a_file_that_is_no_saved_game_is_refused_and_left_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main(["play", "--save", str(notes), "--players", "al", "--bots", "1"]) == 2
    assert "is not a game saved by stackbot play" in capsys.readouterr().err
    assert notes.read_text() == "my notes\n"

    other = tmp_path / "other.db"  # a SQLite database of something else
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE birds (name TEXT)")
    before = other.read_bytes()
    assert main(["play", "--save", str(other), "--players", "al", "--bots", "1"]) == 2
    assert "is not a game saved by stackbot play" in capsys.readouterr().err
    assert other.read_bytes() == before


def test_the_bots_own_database_is_refused_and_left_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A store holding Discord servers' tables is the bot's: no terminal game is saved in
    it (nor its tables taken for one)."""
    save = tmp_path / "stackbot.db"
    game = games.get("stackup")
    front(game, Typist(game, moves=1), io.StringIO(), save=save, export=tmp_path / "r.json").run()
    with sqlite3.connect(save) as db:
        db.execute("UPDATE tables SET guild_id = 801234567890123456")
    before = save.read_bytes()
    assert main(["play", "--save", str(save), "--players", "al", "--bots", "1"]) == 2
    assert "is the Discord bot's database" in capsys.readouterr().err
    assert save.read_bytes() == before


def test_a_save_in_a_folder_that_does_not_exist_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "nowhere" / "game.db"
    assert main(["play", "--save", str(save), "--players", "al", "--bots", "1"]) == 2
    assert "cannot save the game in" in capsys.readouterr().err
    assert not save.parent.exists()


def test_a_game_killed_while_an_ai_thinks_goes_on_with_that_ais_turn(tmp_path: Path) -> None:
    """The process killed (SIGKILL: nothing runs at its end) right after the human's move,
    while the expert AI thinks: the move is kept, and the resumed game plays the AI's
    turn before asking the human again."""
    save = tmp_path / "game.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "bot.cli", "play", "--game", "colorstack"]
    child = subprocess.Popen(
        [*command, "--players", "al", "--bots", "1", "--level", "expert", "--seed", "5",
         "--save", str(save)],
        cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, preexec_fn=signals_as_at_a_terminal,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None

    def until_asked() -> str:
        assert child.stdout is not None
        said = b""
        while not said.endswith(b"al> "):
            chunk = os.read(child.stdout.fileno(), 65536)
            assert chunk, said.decode()
            said += chunk
        return said.decode()

    until_asked()
    while True:  # the colours first, if the human chooses them
        child.stdin.write(b"hint\n")
        child.stdin.flush()
        hint = re.search(r"Hint: (.+?)[:,]", until_asked())
        assert hint is not None
        played = hint.group(1)
        if not played.startswith("colours"):
            break
        child.stdin.write(f"{played}\n".encode())
        child.stdin.flush()
        until_asked()

    def logged() -> int:
        with contextlib.closing(sqlite3.connect(save)) as db:
            count: int = db.execute("SELECT count(*) FROM moves").fetchone()[0]
            return count

    before = logged()
    child.stdin.write(f"{played}\n".encode())
    child.stdin.flush()
    while logged() == before and child.poll() is None:  # committed: the AI thinks now
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)

    owed = logged()
    refused = subprocess.run(
        [*command, "--save", str(save), "--players", "bob"],
        cwd=tmp_path, env=env, input="", capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert refused.returncode == 2 and "leave out --players" in refused.stderr, refused.stderr
    assert logged() == owed  # a refused command plays nothing, the AI's turn owed included
    resumed = subprocess.run(
        [*command, "--save", str(save), "--export", str(tmp_path / "r.json")],
        cwd=tmp_path, env=env, input="quit\n", capture_output=True, text=True, timeout=120,
        check=False,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert "Traceback" not in resumed.stderr, resumed.stderr
    assert "goes on." in resumed.stdout and "▶ al to move" in resumed.stdout, resumed.stdout
    turns = json.loads((tmp_path / "r.json").read_text())["turns"]
    assert {"player": "al", "action": played} in turns, turns
    assert turns[-1]["player"] == "AI 1", turns  # its reply, played after all


def test_a_save_name_the_store_would_read_otherwise_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A '?' in a name was read as the store URL's query: the game went to another file
    (``a``), past the check that the file was no other place's."""
    for name in ("a?b.db", "a%20b.db"):
        assert main(["play", "--save", str(tmp_path / name), "--players", "al", "--bots", "1"]) == 2
        assert "cannot hold ? or %" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_save_played_in_another_terminal_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.db"
    game = games.get("stackup")
    front(game, Typist(game, moves=1), io.StringIO(), save=save, export=tmp_path / "r.json").run()
    playing = resume_saved(save)  # held by this terminal until it closes
    assert playing is not None
    try:
        assert main(["play", "--save", str(save)]) == 2
        assert "is being played in another terminal" in capsys.readouterr().err
        new = tmp_path / "new.db"
        other = resume_saved(new)
        assert other is None
    finally:
        playing.table.close()
    resumed = resume_saved(save)  # let go: the next one may play it
    assert resumed is not None
    resumed.table.close()


def test_the_command_that_started_a_saved_game_goes_on_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typed again as it was (up-arrow): the options say what the game is already."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # no input: saved at once
    save = tmp_path / "game.db"
    command = ["play", "--game", "colorstack", "--players", "al", "--bots", "1", "--level",
               "greedy", "--seed", "4", "--board", "heavy", "--save", str(save)]  # fmt: skip
    assert main(command) == 0  # no input: the game is saved at once
    resumed = resume_saved(save)
    assert resumed is not None
    resumed.table.close()
    assert main(command) == 0
    assert main([*command[:-2], "--board", "light", "--save", str(save)]) == 2


def test_a_game_stopped_as_it_was_set_up_leaves_the_save_usable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed between the table's opening and its start (a lobby in the file): the next
    game starts there, where every later one was refused ('There is a table already')."""
    from host.live import Player
    from terminal.hosting import CHANNEL, GUILD, HostedTable

    save = tmp_path / "game.db"
    table = HostedTable("stackup", save)

    async def lobby() -> None:
        service = await table._service()
        await service.new_table(GUILD, CHANNEL, Player(1, "al"), {}, game="stackup")

    table._run(lobby)
    table.close()
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert resume_saved(save) is None
    assert main(["play", "--game", "stackup", "--players", "al", "--bots", "1",
                 "--save", str(save)]) == 0  # fmt: skip
    resumed = resume_saved(save)
    assert resumed is not None and [s.name for s in resumed.seats] != []
    resumed.table.close()


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--export", "SAVE"], "--save and --export name the same file"),
        (["--bots", "2"], "a game of AI seats only is played out at once"),
        ([], "there is no game in play in"),
    ],
)
def test_a_save_that_could_only_go_wrong_is_refused_before_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], says: str
) -> None:
    save = tmp_path / "game.db"
    args = [str(save) if a == "SAVE" else a for a in extra]
    if "--export" in args:
        args += ["--players", "al", "--bots", "1"]
    assert main(["play", "--save", str(save), *args]) == 2
    assert says in capsys.readouterr().err
    assert not save.exists() or save.stat().st_size == 0


def test_a_save_a_newer_stackbot_wrote_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.db"
    game = games.get("stackup")
    front(game, Typist(game, moves=1), io.StringIO(), save=save, export=tmp_path / "r.json").run()
    with contextlib.closing(sqlite3.connect(save)) as db, db:
        db.execute("UPDATE alembic_version SET version_num = '9999'")
    assert main(["play", "--save", str(save)]) == 2
    error = capsys.readouterr().err
    assert "cannot be read as a saved game" in error and "Traceback" not in error


def owed_save(save: Path, name: str) -> None:
    """A game of ``name`` saved in ``save`` as the process left it when killed while its
    expert AI thought: the human's moves committed, the AI's reply not played yet."""
    table = HostedTable(name, save)
    try:
        table.open(["al"], ["expert"], {}, random.Random(5))
        live = table.live
        assert live is not None and live.state is not None
        game = games.get(name)
        while live.state.current_player == 0:  # al's moves, the expert's replies owed
            state = live.state
            text = game.move_notation(state, state.legal_moves()[0])
            service = table.service
            assert service is not None
            table._run(lambda: service.move(CHANNEL, table.players["al"], text=text))  # noqa: B023
    finally:
        table.close()


@pytest.mark.parametrize("name", ["stack", "stackup"])
def test_an_ai_turn_owed_is_played_once_the_game_goes_on_and_said(
    name: str, tmp_path: Path
) -> None:
    """The AI's turn the saved game owes is played after 'goes on' is said (not before
    anything is shown), and said as the AI's turns are."""
    save = tmp_path / "game.db"
    owed_save(save, name)
    resumed = resume_saved(save)
    assert resumed is not None
    out = io.StringIO()
    game = games.get(name)
    assert front(game, Typist(game, moves=0), out, save=save, export=tmp_path / "r.json",
                 resumed=resumed).run() == 0  # fmt: skip
    said = out.getvalue()
    after = said.split(f"The game saved in {save} goes on.\n", 1)[1]
    reply = re.compile(r"^🟦 AI 1 \(AI\): .+$" if name == "stack" else r"^AI 1 (played|was) .+$", re.M)  # fmt: skip
    assert reply.search(after.split("al> ", 1)[0]), said


def test_ctrl_c_while_an_owed_ai_turn_is_played_saves_the_game(tmp_path: Path) -> None:
    """Ctrl-C while the resumed game's owed AI turn is thought about leaves it saved, as
    Ctrl-C at any other moment: one line, no traceback, and it goes on next time."""
    save = tmp_path / "game.db"
    owed_save(save, "colorstack")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "--save", str(save)],
        cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, preexec_fn=signals_as_at_a_terminal,
    )  # fmt: skip
    assert child.stdout is not None
    said = b""
    while b"goes on." not in said:  # the AI thinks now
        chunk = os.read(child.stdout.fileno(), 65536)
        assert chunk, said.decode()
        said += chunk
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert "Traceback" not in err.decode(), err.decode()
    # (on a loaded machine the signal may be lost in a window not yet found: the game
    # then ends at its end of input; either way it is saved, and said so)
    assert child.returncode in (0, 130), err.decode()
    assert f"Game saved in {save}" in (said + out).decode()
    assert resume_saved(save) is not None


def test_a_new_save_another_process_makes_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "game.db"
    save.touch()  # another terminal starting a game in it, just now
    with open(save, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert main(["play", "--save", str(save), "--players", "al", "--bots", "1"]) == 2
    assert "is being played in another terminal" in capsys.readouterr().err
    assert save.stat().st_size == 0


def page_of(save: Path, table: str) -> int:
    """The byte offset of ``table``'s first page in the SQLite file ``save``."""
    with contextlib.closing(sqlite3.connect(save)) as db:
        size: int = db.execute("PRAGMA page_size").fetchone()[0]
        root: int = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]  # fmt: skip
    return (root - 1) * size


@pytest.mark.parametrize("damage", ["tables", "moves", "truncated"])
def test_a_damaged_save_is_refused_in_one_line_and_left_untouched(
    damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save damaged (a disk's fault, a copy cut short) is said to be damaged, in one
    line, exit 2 (it stopped with a traceback, or was called no save at all)."""
    save = tmp_path / "game.db"
    game = games.get("stackup")
    front(game, Typist(game, moves=2), io.StringIO(), save=save, export=tmp_path / "r.json").run()
    data = bytearray(save.read_bytes())
    if damage == "truncated":
        del data[len(data) // 3 :]
    else:
        offset = page_of(save, damage)
        data[offset : offset + 100] = b"\xff" * 100
    save.write_bytes(bytes(data))
    assert main(["play", "--save", str(save)]) == 2
    error = capsys.readouterr().err
    assert f"{save} is damaged: no game can go on from it" in error, error
    assert len(error.strip().splitlines()) == 1, error
    assert save.read_bytes() == bytes(data)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.db", "r.json"]


def test_a_file_looked_at_gets_no_files_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another program's SQLite file in WAL mode: refused, with no -wal and -shm files
    left beside it by the look (SQLite makes them for a reader)."""
    other = tmp_path / "other.db"
    with contextlib.closing(sqlite3.connect(other)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE birds (name TEXT)")
        db.commit()
    assert main(["play", "--save", str(other), "--players", "al", "--bots", "1"]) == 2
    assert "is not a game saved by stackbot play" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["other.db"]


@pytest.mark.parametrize("why", [CTRL_C, STOPPED, YOU_QUIT, END_OF_INPUT])
def test_the_saved_line_says_why_without_parentheses_in_parentheses(
    why: str, tmp_path: Path
) -> None:
    """'Game saved in g.db (interrupted (Ctrl-C)): …' read badly; why is said as the
    abandoned line says it, after a colon."""
    save = tmp_path / "g.db"
    game = games.get("stackup")
    terminal = front(game, Typist(game), io.StringIO(), save=save, export=tmp_path / "r.json")
    terminal.table = HostedTable("stackup", save)  # a table kept in the file
    try:
        line = terminal._left(why)
    finally:
        terminal.table.close()
    assert line == f"Game saved in {save}: {why}. `stackbot play --save {save}` goes on with it."
    assert not re.search(r"\([^)]*\(", line), line


def test_a_save_whose_game_is_over_says_how_to_start_another_in_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same command after the game's end: how to start a new game in that file (the
    example said before left --save out: followed, its game was kept nowhere)."""
    save = tmp_path / "game.db"
    game = games.get("colorstack")
    front(game, Typist(game), io.StringIO(), save=save, export=tmp_path / "r.json").run()
    assert resume_saved(save) is None  # over
    assert main(["play", "--save", str(save)]) == 2
    error = capsys.readouterr().err
    assert f"no game in play in {save}" in error
    assert f"`stackbot play --save {save} --players you --bots 3`" in error


def test_the_command_to_go_on_is_one_to_paste_with_a_name_of_spaces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """'`stackbot play --save my game.db` goes on with it' read as a command naming
    'my'; the name is quoted for the shell where a command is shown."""
    save = tmp_path / "my game's.db"
    game = games.get("stack")
    out = io.StringIO()
    front(game, Typist(game, moves=1), out, save=save, export=tmp_path / "r.json").run()
    quoted = shlex.quote(str(save))
    assert (
        f"Game saved in {save}: you quit. `stackbot play --save {quoted}` goes on" in out.getvalue()
    )
    ended = tmp_path / "a b.db"
    front(game, Typist(game), io.StringIO(), save=ended, export=tmp_path / "r.json").run()
    assert main(["play", "--save", str(ended)]) == 2
    assert (
        f"`stackbot play --save {shlex.quote(str(ended))} --players you" in capsys.readouterr().err
    )


def test_ctrl_c_while_an_ai_opens_a_new_game_says_it_is_saved(tmp_path: Path) -> None:
    """Ctrl-C while the expert AI that moves first thinks about its opening: the game is
    in the file already (it goes on next time), so it is said to be saved, not
    abandoned."""
    save = tmp_path / "game.db"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "--game", "stackup", "--players", "al",
         "--bots", "2", "--level", "expert", "--seed", "5", "--save", str(save)],
        cwd=tmp_path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, preexec_fn=signals_as_at_a_terminal,
    )  # fmt: skip
    while True:  # the table started: its AI thinks
        time.sleep(0.05)
        with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(save)) as db:
            if db.execute("SELECT count(*) FROM moves").fetchone()[0]:
                break
        assert child.poll() is None
    time.sleep(0.2)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    said = out.decode()
    assert "Traceback" not in err.decode(), err.decode()
    # (as above: 'interrupted (Ctrl-C)', or 'end of input' when the signal was lost)
    assert f"Game saved in {save}: " in said, said
    assert "abandoned" not in said
    resumed = resume_saved(save)
    assert resumed is not None
    resumed.table.close()


def test_a_hot_seat_game_resumed_says_it_goes_on_where_the_players_see_it(
    tmp_path: Path,
) -> None:
    """Two humans at one keyboard: the screen is cleared before the first hand is shown,
    and the line saying the game goes on went with it (a resume with one human says it);
    it is said again below the cleared screen, with the game's first line, as what
    happened since the last hand-over is."""
    save = tmp_path / "game.db"
    keyboard = io.StringIO("")  # the end of input at the first prompt: saved
    assert table_play(["al", "bo"], 1, seed=3, level="greedy", game="stackup", stdin=keyboard,
                      stdout=io.StringIO(), save=save) == 0  # fmt: skip
    resumed = resume_saved(save)
    assert resumed is not None
    out = io.StringIO()
    assert resume(resumed, save=save, stdin=io.StringIO("\nquit\n"), stdout=out) == 0
    said = out.getvalue()
    seen = said.split("screen cleared")[-2]  # what the first hand-over leaves on screen
    assert f"The game saved in {save} goes on." in seen, said
    assert "Stack Up!: al, bo, AI 1." in seen, said
    assert "look away" in seen, said
    assert f"{save} goes on." in said.split("screen cleared")[-1], said  # and above the hand


class Vandal(Typist):
    """The player, while the save file is damaged under the game after ``moves`` moves
    (cut short, or overwritten with garbage, its log beside it too)."""

    def __init__(self, game: Game[Any], save: Path, damage: str, moves: int) -> None:
        super().__init__(game, moves=moves + 6)
        self.save, self.damage, self.left = save, damage, moves

    def readline(self, size: int | None = -1) -> str:
        self.left -= 1
        if self.left == 0:
            for path in (self.save, self.save.with_name(self.save.name + "-wal")):
                if not path.exists():
                    continue
                size_now = path.stat().st_size
                with path.open("r+b") as file:
                    if self.damage == "overwritten":
                        file.write(b"\xff" * size_now)
                    else:  # the file cut short, its log emptied
                        file.truncate(min(size_now, 4096) if path == self.save else 0)
        return super().readline(size)


@pytest.mark.parametrize("name", ["stack", "stackup"])
@pytest.mark.parametrize("damage", ["cut short", "overwritten"])
def test_a_save_damaged_while_its_game_is_played_stops_it_in_one_line(
    name: str, damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file damaged under a game in play: one line says the game stops (exit 1), no
    traceback, the record so far written; not 'Game saved' (it was a traceback)."""
    save, export = tmp_path / "game.db", tmp_path / "r.json"
    game = games.get(name)
    out = io.StringIO()
    terminal = front(game, Vandal(game, save, damage, 3), out, save=save, export=export)
    assert terminal.run() == 1
    error = capsys.readouterr().err
    assert len(error.strip().splitlines()) == 1, error
    assert f"the game stops: {save} could no longer be read or written" in error, error
    assert "Game saved in" not in out.getvalue()
    assert check_file(str(export))["ok"] is True


def test_a_save_that_can_no_longer_be_written_stops_its_game_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file made read-only while the game is played (a disk full, likewise): the next
    move cannot be stored. It was refused move after move ('try again'), though none could
    be; the game stops with one line (exit 1), the moves stored before kept."""
    from persistence import Store
    from persistence.errors import DatabaseUnavailable

    save, export = tmp_path / "game.db", tmp_path / "r.json"
    game = games.get("stackup")
    typist = Typist(game, moves=8)
    terminal = front(game, typist, io.StringIO(), save=save, export=export)
    stored = Store.record_move
    calls = 0

    async def read_only(self: Store, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls > 3:  # as SQLite fails a write to a file made read-only under it
            fault = sqlite3.OperationalError("attempt to write a readonly database")
            raise DatabaseUnavailable("storing failed") from fault
        return await stored(self, *args, **kwargs)

    monkeypatch.setattr(Store, "record_move", read_only)
    assert terminal.run() == 1
    error = capsys.readouterr().err
    assert len(error.strip().splitlines()) == 1, error
    assert f"the game stops: {save} could no longer be read or written" in error, error
    monkeypatch.setattr(Store, "record_move", stored)
    resumed = resume_saved(save)  # what was stored before goes on
    assert resumed is not None
    resumed.table.close()


@pytest.mark.parametrize("name", ["stack", "stackup", "colorstack"])
def test_a_seeded_game_saved_and_resumed_repeats_the_game_played_straight(
    name: str, tmp_path: Path
) -> None:
    """The same seed, the same moves typed: a game played straight through and the same
    game left after a few moves and taken up again from its save draw the same dice,
    cards and AI choices (the resumed game's chance came from a new random source)."""
    game = games.get(name)
    straight, resumed_record = tmp_path / "straight.json", tmp_path / "resumed.json"
    assert front(game, Typist(game), io.StringIO(), save=tmp_path / "a.db", export=straight).run() == 0  # fmt: skip
    save = tmp_path / "b.db"
    assert front(game, Typist(game, moves=5), io.StringIO(), save=save, export=tmp_path / "left.json").run() == 0  # fmt: skip
    resumed = resume_saved(save)
    assert resumed is not None
    assert front(game, Typist(game), io.StringIO(), save=save, export=resumed_record, resumed=resumed).run() == 0  # fmt: skip
    assert check_file(str(straight))["finished"] is True
    assert json.loads(resumed_record.read_text()) == json.loads(straight.read_text())


# al against a greedy AI at Stack Up!, in English (seed 1: al first chooses the direction)
STACKUP_AL = ("--game", "stackup", "--players", "al", "--bots", "1", "--level", "greedy",
              "--seed", "1", "--lang", "en")  # fmt: skip


def stackbot_play(*options: str, cwd: Path) -> subprocess.Popen[bytes]:
    """``stackbot play …`` as a player runs it (a process of its own: no test's logging
    set up in it), its streams piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", *options],
        cwd=cwd, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=signals_as_at_a_terminal,
    )  # fmt: skip


def until_prompt(child: subprocess.Popen[bytes], prompt: bytes) -> str:
    """What ``child`` says until it asks ``prompt`` (it must not end before)."""
    assert child.stdout is not None
    said = b""
    while not said.endswith(prompt):
        chunk = os.read(child.stdout.fileno(), 65536)
        assert chunk, said.decode()
        said += chunk
    return said.decode()


def test_the_command_says_a_save_failing_under_its_game_in_one_line_on_stderr(
    tmp_path: Path,
) -> None:
    """``stackbot play --save`` itself (no test's logging capturing the host's records):
    the save overwritten under the game in play, the next move stops it with the one line
    and nothing else on standard error. The host's and storage's log records (the SQL,
    'move not stored…') came before it, seven lines, through logging's last resort."""
    save = tmp_path / "game.db"
    child = stackbot_play(*STACKUP_AL, "--save", str(save), cwd=tmp_path)
    assert child.stdin is not None
    until_prompt(child, b"al> ")
    for path in (save, save.with_name(save.name + "-wal")):
        if path.exists():
            size = path.stat().st_size
            with path.open("r+b") as file:
                file.write(b"\xff" * size)
    child.stdin.write(b"up\n")  # (seed 1: al chooses the direction first)
    child.stdin.flush()
    out, err = child.communicate(b"quit\n", timeout=120)
    assert child.returncode == 1, err.decode()
    with catalog.speaking("en"):
        line = error_line(catalog.t("terminal.save_failed", path=save))
    assert err.decode() == line + "\n"  # that line alone: no log record, no traceback
    assert "Game saved in" not in out.decode()


@pytest.mark.parametrize("save", [False, True])
def test_an_ordinary_game_writes_nothing_on_stderr(save: bool, tmp_path: Path) -> None:
    """A game played and left (saved, or not) says nothing on standard error."""
    options = ["--save", str(tmp_path / "game.db")] if save else []
    child = stackbot_play(*STACKUP_AL, *options, cwd=tmp_path)
    out, err = child.communicate(b"up\nhint\nquit\n", timeout=120)
    assert child.returncode == 0, err.decode()
    assert err == b"", err.decode()
    assert "you quit" in out.decode()


def left_save(save: Path, name: str = "stackup", moves: int = 3) -> None:
    """A game of ``name`` (al against a greedy AI) left after ``moves`` moves in ``save``."""
    game = games.get(name)
    typist = Typist(game, moves=moves)
    assert front(game, typist, io.StringIO(), save=save, export=save.with_suffix(".json")).run() == 0  # fmt: skip


def said_damaged(save: Path, error: str) -> None:
    """``error`` is the one line that says ``save`` is damaged, nothing else."""
    with catalog.speaking("en"):
        line = error_line(catalog.t("terminal.cli.damaged", path=save))
    assert error == line + "\n", error


@pytest.mark.parametrize(
    ("version", "state"),
    [
        (None, "not JSON"),
        (None, '"a string"'),
        (None, "[1, 2]"),
        (None, "[3, [1, 2, 3], null]"),
        (None, "[3, 7, null]"),
        ("many", None),
    ],
)
def test_a_save_whose_random_source_row_is_garbage_is_said_damaged(
    version: str | None, state: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The row keeping where the game's random source stood holding what no stackbot
    wrote: one line says the save is damaged (exit 2), no traceback (it was ValueError or
    TypeError's)."""
    save = tmp_path / "game.db"
    left_save(save)
    with contextlib.closing(sqlite3.connect(save)) as db, db:
        if state is not None:
            db.execute("UPDATE terminal_table_draws SET state = ?", (state,))
        if version is not None:
            db.execute("UPDATE terminal_table_draws SET version = ?", (version,))
    capsys.readouterr()
    assert main(["play", "--save", str(save), "--lang", "en"]) == 2
    said_damaged(save, capsys.readouterr().err)


@pytest.mark.parametrize("seeded", ["yes", 2, 0.5])
def test_a_save_whose_seeded_row_is_garbage_is_said_damaged(
    seeded: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The row saying whether the game was seeded holding what no stackbot wrote: one line
    says the save is damaged (exit 2), as for the random source's."""
    from persistence.savefile import SEEDED_TABLE

    save = tmp_path / "game.db"
    left_save(save)
    with contextlib.closing(sqlite3.connect(save)) as db, db:
        db.execute(f"UPDATE {SEEDED_TABLE} SET seeded = ?", (seeded,))
    capsys.readouterr()
    assert main(["play", "--save", str(save), "--lang", "en"]) == 2
    said_damaged(save, capsys.readouterr().err)


@pytest.mark.parametrize("where", ["tables", "draws"])
def test_a_save_failing_as_its_game_is_taken_up_again_is_said_damaged(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Storage failing as the saved game is read (its tables, or its random source's
    row): one line says the save is damaged (exit 2), no traceback (it was SaveFailed's,
    uncaught)."""
    from persistence import Store
    from persistence.errors import DatabaseUnavailable
    from terminal import hosting

    save = tmp_path / "game.db"
    left_save(save)
    fault = sqlite3.DatabaseError("database disk image is malformed")

    async def failing(self: Store, *args: Any, **kwargs: Any) -> Any:
        raise DatabaseUnavailable("loading failed") from fault

    def draws_failing(*args: Any) -> Any:
        raise fault

    if where == "tables":
        monkeypatch.setattr(Store, "load_active_tables", failing)
    else:
        monkeypatch.setattr(hosting, "kept_draws", draws_failing)
    capsys.readouterr()
    assert main(["play", "--save", str(save), "--lang", "en"]) == 2
    said_damaged(save, capsys.readouterr().err)


@pytest.mark.parametrize("at", [2, 5])
def test_a_seeded_game_left_while_an_ai_thinks_repeats_the_game_played_straight(
    at: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the second of two expert AIs thinks, the first's move stored: the game
    taken up again draws on as played straight through. Its random source was kept only
    once a request ended, so a request broken off kept none of the moves it had stored,
    and the resumed game drew anew. (The experts choose as a seeded greedy AI does here,
    so that both games choose alike; the ``at``-th choice is broken off by Ctrl-C.)"""
    from host.thinking import Thinker

    game = games.get("stackup")
    chooser = game.make_ai("greedy")
    calls = 0
    interrupt_at: int | None = None

    async def thinks(self: Thinker, game: Game[Any], state: Any, level: str, seed: int) -> Any:
        nonlocal calls
        calls += 1
        if calls == interrupt_at:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C as it thinks
            await asyncio.sleep(3600)  # (broken off by it)
        return chooser.choose(state, random.Random(seed)), None

    monkeypatch.setattr(Thinker, "choose", thinks)
    seats = [Seat("al"), Seat("AI 1", "expert"), Seat("AI 2", "expert")]

    def played(save: Path, export: Path, resumed: Resumed | None = None) -> int:
        typist = Typist(game)
        settings = resumed.table.rules if resumed is not None else game.settings()
        assert settings is not None
        terminal = TerminalGame(game, seats, settings, random.Random(3), typist, io.StringIO(),
                                export, save=save, resumed=resumed)  # fmt: skip
        typist.terminal = terminal
        return terminal.run()

    straight, again = tmp_path / "straight.json", tmp_path / "again.json"
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal
    try:
        assert played(tmp_path / "a.db", straight) == 0
        calls, interrupt_at = 0, at
        save = tmp_path / "b.db"
        assert played(save, tmp_path / "left.json") == INTERRUPTED_EXIT
        assert calls == at
        resumed = resume_saved(save)
        assert resumed is not None
        assert played(save, again, resumed) == 0
    finally:
        signal.signal(signal.SIGINT, previous)
    assert check_file(str(straight))["finished"] is True
    assert json.loads(again.read_text()) == json.loads(straight.read_text())


def test_draws_kept_for_another_game_in_the_file_are_not_drawn_on(tmp_path: Path) -> None:
    """The random source kept is the table's own: a game started in the file after
    another, at the version the other's was kept at, does not draw on from it."""
    from persistence.savefile import DRAWS_SCHEMA, DRAWS_TABLE, kept_draws

    save = tmp_path / "game.db"
    left_save(save)
    resumed = resume_saved(save)
    assert resumed is not None
    live = resumed.table.live
    assert live is not None
    table_id, version = live.id, live.version
    resumed.table.close()
    with contextlib.closing(sqlite3.connect(save)) as db, db:
        db.execute(DRAWS_SCHEMA)
        db.execute(
            f"INSERT OR REPLACE INTO {DRAWS_TABLE} (table_id, version, state) VALUES (?, ?, ?)",
            (table_id + 1, version, json.dumps(random.Random(9).getstate())),
        )
    kept = kept_draws(save, table_id)
    assert kept is not None and kept[0] == version
    assert kept[1] != json.loads(json.dumps(random.Random(9).getstate()))


# A child that plays a game saved in ARGV[2] (its name ARGV[1]) as ``front`` does, typed by
# a ``Typist``, and kills itself outright (SIGKILL: nothing more runs, as a process killed
# by the system) as its ARGV[4]-th step of the store's ARGV[3] (``start_table``: the
# game's opening; ``record_move``: a move and what followed it) has been committed.
KILLED_AS_A_STEP_IS_STORED = """
import asyncio, io, os, signal, sys
from pathlib import Path
from engine import games
from persistence.store import Store
from tests.terminal.test_saved_games import Typist, front

name, save, step, at = sys.argv[1], Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
storing = getattr(Store, step)
count = 0

async def stored(self, *args, **kwargs):
    global count
    result = await storing(self, *args, **kwargs)
    count += 1
    if count == at:
        os.kill(os.getpid(), signal.SIGKILL)
        await asyncio.sleep(3600)
    return result

setattr(Store, step, stored)
game = games.get(name)
front(game, Typist(game), io.StringIO(), save=save, export=save.with_suffix(".json")).run()
"""


@pytest.mark.parametrize(
    ("name", "step", "at"),
    [
        ("stack", "start_table", 1),
        ("stack", "record_move", 1),
        ("stack", "record_move", 4),
        ("stackup", "record_move", 3),
    ],
)
def test_a_seeded_game_killed_as_a_step_is_stored_repeats_the_game_played_straight(
    name: str, step: str, at: int, tmp_path: Path
) -> None:
    """The process killed outright (SIGKILL) as soon as a step of moves (the game's
    opening, a move) is committed to the save: the game taken up again draws on as played
    straight through. The random source's state was kept in a transaction of its own
    after the step's, so a process killed between the two left the step without it, and
    the resumed game drew from a new random source."""
    game = games.get(name)
    straight, again = tmp_path / "straight.json", tmp_path / "again.json"
    assert front(game, Typist(game), io.StringIO(), save=tmp_path / "a.db", export=straight).run() == 0  # fmt: skip
    save = tmp_path / "b.db"
    child = subprocess.run(
        [sys.executable, "-c", KILLED_AS_A_STEP_IS_STORED, name, str(save), step, str(at)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
        text=True, timeout=300, check=False, preexec_fn=signals_as_at_a_terminal,
    )  # fmt: skip
    assert child.returncode == -signal.SIGKILL, child.stderr
    resumed = resume_saved(save)
    assert resumed is not None
    assert front(game, Typist(game), io.StringIO(), save=save, export=again, resumed=resumed).run() == 0  # fmt: skip
    assert check_file(str(straight))["finished"] is True
    assert json.loads(again.read_text()) == json.loads(straight.read_text())


def test_a_save_without_draws_kept_keeps_them_from_its_next_step_and_no_trigger_in_it(
    tmp_path: Path,
) -> None:
    """A save of an earlier stackbot (no draws' table) taken up again keeps its draws from
    its next step on, in the rows a save always kept them in; what keeps them (a trigger)
    is the playing process's alone: nothing of it is left in the file."""
    from persistence.savefile import DRAWS_TABLE, kept_draws

    save = tmp_path / "game.db"
    left_save(save, "stack")
    with contextlib.closing(sqlite3.connect(save)) as db, db:
        db.execute(f"DROP TABLE {DRAWS_TABLE}")
    resumed = resume_saved(save)
    assert resumed is not None
    game = games.get("stack")
    out = io.StringIO()
    terminal = front(game, Typist(game, moves=2), out, save=save, export=tmp_path / "r.json",
                     resumed=resumed)  # fmt: skip
    assert terminal.run() == 0, out.getvalue()
    again = resume_saved(save)
    assert again is not None
    live = again.table.live
    assert live is not None
    table_id, version = live.id, live.version
    again.table.close()
    kept = kept_draws(save, table_id)
    assert kept is not None and kept[0] == version
    with contextlib.closing(sqlite3.connect(save)) as db:
        triggers = db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    assert triggers and not [sql for (sql,) in triggers if DRAWS_TABLE in sql], triggers

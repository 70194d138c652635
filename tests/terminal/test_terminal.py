"""`stackbot play`, driven through stdin/stdout as a person would."""

from __future__ import annotations

import asyncio
import errno
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.cli import main
from engine.errors import RecordError
from engine.stack.game import GAME
from engine.stack.moves import PlayerMove, Reroll, Roll
from engine.stack.record import check
from engine.stack.rules import StackRules
from engine.stack.state import StackState
from terminal.hosting import HostedTable
from terminal.stack import TerminalGame
from terminal.table import EXPORT_FAILED_EXIT, INTERRUPTED_EXIT, Seat, play
from tests.engine.situations import deal
from tests.terminal.helpers import typed_game, unattended

ROOT = Path(__file__).resolve().parents[2]


def stackbot() -> list[str]:
    exe = shutil.which("stackbot")
    return [exe] if exe else [sys.executable, "-m", "bot.cli"]


def test_unattended_game_plays_to_the_end_and_exports(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    proc = unattended([*stackbot(), "play", "--bots", "4", "--seed", "7", "--export", str(record)])
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Roll-off for first player" in out
    assert "=== Round 1" in out and "=== Game over." in out
    assert "Winner: AI " in out
    sheet = out[out.index("=== Game over.") :].splitlines()
    assert sheet[1].split()[0] == "R1" and sheet[1].split()[-1] == "Total"
    result = check(json.loads(record.read_text()))
    assert result["ok"] and result["finished"]
    # the same seed gives the same game
    again = unattended([*stackbot(), "play", "--bots", "4", "--seed", "7"])
    assert again.stdout.replace(f"Game record written to {record}.\n", "") == out.replace(
        f"Game record written to {record}.\n", ""
    )


def test_session_with_bad_input_keeps_going() -> None:
    # alice plays against one AI; junk and illegal commands are answered and she carries on.
    lines = ["dance", "stack 9 on AI 1", "stack 3 on nobody", "help", "scores", "hint"]
    lines += ["reroll 1", "reroll 2", "reroll 3", "reroll 4", "reroll 5", "reroll 6"] * 40
    lines += ["quit"]
    code, out = typed_game(
        ["alice"],
        1,
        "\n".join(lines) + "\n",
        seed=3,
        level="greedy",
        rules=StackRules(dice_per_player=4, target_score=30),
    )
    assert code == 0
    assert "'dance' is not a move" in out
    assert "A die shows 1 to 6, not 9." in out
    assert "There's no player called 'nobody'" in out
    assert "Commands:" in out
    assert "Hint: " in out
    assert "alice: rerolled" in out  # she moved after all that
    assert "Traceback" not in out


def test_illegal_move_message_then_the_game_goes_on() -> None:
    typed = (
        "stack 6 on AI 1\n" + "reroll 1\nreroll 2\nreroll 3\nreroll 4\nreroll 5\nreroll 6\n" * 30
    )
    rules = StackRules(dice_per_player=3, target_score=20)
    _, out = typed_game(["alice"], 1, typed, seed=1, level="random", rules=rules)
    assert ("You have no unstacked 6" in out) or ("AI 1 has no" in out) or ("AI 1's 6" in out)
    assert "alice: rerolled" in out


def test_cli_refuses_bad_tables(capsys: object) -> None:
    assert main(["play", "--bots", "1"]) == 2  # one player is not a game
    assert main(["play", "--bots", "2", "--dice", "40"]) == 2
    assert main(["play", "--players", "al,al"]) == 2


class CtrlC(io.StringIO):
    """A terminal whose user presses Ctrl-C at the prompt."""

    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt


class InterruptedAI:
    """An AI seat that is thinking when Ctrl-C comes."""

    level = "greedy"

    def choose(self, state: StackState, rng: random.Random) -> PlayerMove:
        raise KeyboardInterrupt


def test_ctrl_c_at_the_prompt_abandons_the_game_in_one_line(tmp_path: Path) -> None:
    stdout = io.StringIO()
    record = tmp_path / "game.json"
    code = play(
        ["alice", "bob"], 0, seed=1, level="greedy", rules=StackRules(), stdin=CtrlC(),
        stdout=stdout, export=record,
    )  # fmt: skip
    assert code == INTERRUPTED_EXIT == 130
    out = stdout.getvalue()
    assert out.endswith(
        f"\nGame abandoned: interrupted (Ctrl-C).\nGame record written to {record}.\n"
    )
    assert "Traceback" not in out and check(json.loads(record.read_text()))["ok"]


@pytest.mark.parametrize("humans", [[], ["alice"]], ids=["ai-only", "on-the-host"])
def test_ctrl_c_while_an_ai_thinks_abandons_the_game_in_one_line_and_keeps_its_record(
    humans: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # every AI seat is thinking when Ctrl-C comes (on the host: while it plays their turns)
    monkeypatch.setattr(GAME, "make_ai", lambda level: InterruptedAI())
    stdout = io.StringIO()
    seats = [Seat(name) for name in humans] + [Seat("AI 1", "greedy"), Seat("AI 2", "greedy")]
    typed = io.StringIO("reroll 1\nreroll 2\nreroll 3\nreroll 4\nreroll 5\nreroll 6\n" * 5)
    record = tmp_path / "game.json"
    game = TerminalGame(seats, StackRules(), random.Random(1), typed, stdout, record)
    assert game.run() == INTERRUPTED_EXIT
    assert stdout.getvalue().endswith(
        f"\nGame abandoned: interrupted (Ctrl-C).\nGame record written to {record}.\n"
    )
    assert check(json.loads(record.read_text()))["ok"]


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """Ctrl-C (SIGINT) is Python's KeyboardInterrupt here, as at a terminal, whatever the
    test run inherited (a run started in the background of a shell ignores it)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_pressed_again_while_a_move_winds_down_lets_it_wind_down() -> None:
    """The first Ctrl-C while the host plays (an AI thinking) cancels its work; pressed
    again while that work winds down (the store's rollback), it no longer breaks that
    off, which printed the store's tracebacks under the game."""
    table = HostedTable("stack")
    wound_down: list[bool] = []

    async def move() -> None:
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the AI thinks
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            os.kill(os.getpid(), signal.SIGINT)  # pressed again, at once
            await asyncio.sleep(0.05)  # the store's rollback
            wound_down.append(True)
            raise

    try:
        with pytest.raises(KeyboardInterrupt):
            table._run(move)
    finally:
        table.close()
    assert wound_down


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_while_the_table_closes_is_ignored() -> None:
    """Once the game is over or left, closing the table waits for an AI still thinking in
    its thread; Ctrl-C pressed then no longer breaks that off with a traceback."""
    table = HostedTable("stack")

    async def think() -> None:  # an AI's search still running in its thread
        asyncio.get_running_loop().run_in_executor(None, time.sleep, 0.5)

    table._run(think)
    ctrl_c = threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT))
    ctrl_c.start()
    interrupted = False
    try:
        table.close()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        ctrl_c.join()
    assert not interrupted


def test_a_record_that_cannot_be_written_is_said_before_the_game(tmp_path: Path) -> None:
    """--export into a missing folder: said on stderr before a move is played, exit 2."""
    stdout, stderr = io.StringIO(), io.StringIO()
    missing = tmp_path / "nowhere" / "game.json"
    code = play(
        [], 3, seed=1, level="greedy", rules=StackRules(), stdin=io.StringIO(), stdout=stdout,
        export=missing, stderr=stderr,
    )  # fmt: skip
    assert code == 2 and stdout.getvalue() == ""
    assert stderr.getvalue() == (
        f"stackbot play: cannot write the game record to {missing}: its folder does not exist.\n"
    )


def test_a_record_that_fails_to_write_after_the_game_fails_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that fails only at the end (a full disk, an I/O error): said, exit 1."""

    def failing(self: Path, text: str) -> int:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(Path, "write_text", failing)
    stdout, stderr = io.StringIO(), io.StringIO()
    record = tmp_path / "game.json"
    code = play(
        [], 2, seed=1, level="greedy", rules=StackRules(target_score=40), stdin=io.StringIO(),
        stdout=stdout, export=record, stderr=stderr,
    )  # fmt: skip
    assert code == EXPORT_FAILED_EXIT == 1
    assert "Winner" in stdout.getvalue() and "cannot write" not in stdout.getvalue()
    assert stderr.getvalue() == (
        f"stackbot play: cannot write the game record to {record}: Input/output error.\n"
    )


def test_the_end_of_input_abandons_the_game_in_one_line() -> None:
    stdout = io.StringIO()
    code = play(
        ["alice", "bob"], 0, seed=1, level="greedy", rules=StackRules(), stdin=io.StringIO(),
        stdout=stdout,
    )  # fmt: skip
    assert code == 0
    assert stdout.getvalue().endswith("> \nGame abandoned: end of input.\n")


def test_a_rerolled_die_with_several_piles_is_called_rerolled() -> None:
    stdout = io.StringIO()
    seats = [Seat("alice"), Seat("bob"), Seat("carol")]
    game = TerminalGame(seats, StackRules(), random.Random(1), io.StringIO("quit\n"), stdout)
    game.state = deal([3, 4], [5, 6], [6, 1])
    game.state.apply(Reroll(4))
    game.state.apply(Roll(6))
    assert str(game._human_turn()) == "you quit"
    out = stdout.getvalue()
    assert "Your rerolled 6 must go on bob's single 6 or carol's single 6" in out
    assert "Your rolled" not in out


def test_names_with_markdown_are_shown_as_typed() -> None:
    """The terminal drops Discord's bold, never the ``**`` inside a name: the roll-off, the
    field and the prompt show ``**bob**`` as typed (a name shown as ``bob`` was refused
    when typed back)."""
    stdin = io.StringIO("hint\nshow\nquit\n")
    stdout = io.StringIO()
    play(
        ["@everyone", "**bob**"],
        0,
        seed=5,
        level="greedy",
        rules=StackRules(dice_per_player=5, target_score=40),
        stdin=stdin,
        stdout=stdout,
    )
    out = stdout.getvalue()
    assert "Stack: @everyone, **bob**." in out
    assert "**bob** 0 pts" in out
    assert " bob 0 pts" not in out and ", bob" not in out


def test_a_name_that_starts_like_a_subtext_line_is_shown_as_typed() -> None:
    """Discord's subtext mark ``-# `` at a line's start is dropped, never from a name that
    starts a line: "-# sub goes first." and the score sheet's row, not "sub goes first."."""
    _, out = typed_game(
        ["-# sub", "bob"], 0, "scores\nquit\n", seed=1, level="greedy", rules=StackRules()
    )
    assert "-# sub goes first." in out
    assert re.search(r"^-# sub +0$", out, re.M)
    assert not re.search(r"^sub\b", out, re.M)


def test_a_record_cut_in_the_middle_of_a_move_is_not_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Ctrl-C may strike while a move is half applied: a record its game does not replay
    is said and not written (a record file is never wrong)."""
    monkeypatch.setattr(GAME, "make_ai", lambda level: InterruptedAI())

    def broken(record: object) -> object:
        raise RecordError("the last turn is half played", 3)

    monkeypatch.setattr(GAME, "replay_record", broken)
    stdout = io.StringIO()
    record = tmp_path / "game.json"
    seats = [Seat("AI 1", "greedy"), Seat("AI 2", "greedy")]
    stderr = io.StringIO()
    game = TerminalGame(
        seats, StackRules(), random.Random(1), io.StringIO(), stdout, record, stderr
    )
    assert game.run() == INTERRUPTED_EXIT and not record.exists()
    assert stdout.getvalue().endswith("Game abandoned: interrupted (Ctrl-C).\n")
    assert stderr.getvalue() == (
        "stackbot play: the game was interrupted in the middle of a move, so its record was "
        f"not written to {record}.\n"
    )


def test_a_long_name_with_markdown_keeps_it_and_its_column_when_cut() -> None:
    """A name past the sheet's width, ``**`` in it: cut, it still shows its ``**``, and
    the totals stay in one column."""
    stdout = io.StringIO()
    name = "**abcdefghijklmnopqrstu**"
    play(
        [name], 1, seed=2, level="greedy", rules=StackRules(), stdin=io.StringIO("scores\nquit\n"),
        stdout=stdout,
    )  # fmt: skip
    lines = stdout.getvalue().splitlines()
    head = next(i for i, line in enumerate(lines) if line.rstrip().endswith("Total"))
    mine, theirs = lines[head + 1], lines[head + 2]
    assert mine.startswith("**abcdefghijklmnopq…") and theirs.startswith("AI 1")
    assert len(mine) == len(theirs), lines[head : head + 3]  # (the prompt is on the head line)


def test_a_reader_that_goes_away_ends_the_game_quietly(tmp_path: Path) -> None:
    """``stackbot play … | head -3``: once the pipe's reader is gone the game stops, with
    the shell's status for it (141) and no traceback."""
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "--bots", "2", "--level", "random"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the reader gone before the first line reaches it
    errors = child.stderr.read().decode()
    assert child.wait(timeout=120) == 141, errors
    assert "Traceback" not in errors and "Exception ignored" not in errors, errors


def test_a_reader_that_goes_away_still_gets_the_record_written(tmp_path: Path) -> None:
    """``stackbot play … --export game.json | head -3``: the game stops as above (141, no
    traceback), and the record asked for is written all the same, as when the game is left
    any other way."""
    record = tmp_path / "game.json"
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "--game", "stackup", "--players", "al",
         "--bots", "3", "--seed", "7", "--export", str(record)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    said_until_asked(child, b"al> ")
    child.stdout.close()  # the reader gone while the player is asked to move
    child.stdin.write(b"hint\nhint\n")
    child.stdin.close()
    errors = child.stderr.read().decode()
    assert child.wait(timeout=120) == 141, errors
    assert "Traceback" not in errors and "Exception ignored" not in errors, errors
    checked = subprocess.run(
        [sys.executable, "-m", "engine.record", "check", str(record)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert json.loads(checked.stdout)["ok"] is True, checked.stdout


def said_until_asked(child: subprocess.Popen[bytes], prompt: bytes) -> bytes:
    """What ``child`` wrote until it asks ``prompt`` (its input left open)."""
    assert child.stdout is not None and child.stdin is not None
    said = b""
    while not said.endswith(prompt):
        chunk = os.read(child.stdout.fileno(), 65536)
        assert chunk, said.decode()
        said += chunk
    return said


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_stop_signal_at_the_prompt_ends_the_game_as_ctrl_c_does(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """The terminal window closed (SIGHUP), ``kill`` or ``timeout`` (SIGTERM) while a player
    is asked for a move: the game ends with one line, its record written, the status the
    shell reports for that signal, and the table's SQLite files gone from the temporary
    folder (they were left there, the record unwritten and nothing said)."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    record = tmp_path / "game.json"
    command = [*stackbot(), "play", "--players", "alice", "--bots", "1", "--seed", "1"]
    child = subprocess.Popen(
        [*command, "--export", str(record)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(temporary), "LC_ALL": "C"},
        stdin=subprocess.PIPE,  # left open: the player is still thinking
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # Ctrl-C and the stop signals as at a terminal, even when the tests run where they
        # are ignored (a background job; nohup: SIGHUP)
        preexec_fn=_signals_as_at_a_terminal,
    )
    said = said_until_asked(child, b"alice> ")
    assert list(temporary.iterdir())  # the table's store, while the game is on
    child.send_signal(stop)
    rest, errors = child.communicate(timeout=120)
    out = (said + rest).decode()
    assert child.returncode == 128 + stop, (out[-1000:], errors.decode())
    assert out.endswith(
        "\nGame abandoned: stopped (the terminal was closed, or the process told to end)."
        f"\nGame record written to {record}.\n"
    )
    assert check(json.loads(record.read_text()))["ok"]
    assert not list(temporary.iterdir())
    assert b"Traceback" not in errors


def test_a_terminal_that_cannot_write_emoji_gets_the_game_all_the_same(tmp_path: Path) -> None:
    """Standard output in an encoding without the game's squares and emoji (a Latin-1
    terminal; Windows writing to a file or a pipe): they are written as ``?`` where the
    first of them stopped the game with a UnicodeEncodeError traceback."""
    proc = subprocess.run(
        [*stackbot(), "play", "--bots", "2", "--level", "random", "--seed", "1"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "latin-1"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=False,
    )
    out, errors = proc.stdout.decode("latin-1"), proc.stderr.decode("latin-1")
    assert proc.returncode == 0, errors
    assert "Traceback" not in errors
    assert "? AI 1" in out and "Winner: AI " in out


def _signals_as_at_a_terminal() -> None:
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)


def test_a_game_started_under_nohup_goes_on_when_its_terminal_closes(tmp_path: Path) -> None:
    """``nohup stackbot play …``: SIGHUP is ignored from the start, and stays ignored (it
    ended the game, 129, as an unignored one does); the game goes on to its end of input."""

    def under_nohup() -> None:
        _signals_as_at_a_terminal()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    child = subprocess.Popen(
        [*stackbot(), "play", "--players", "alice", "--bots", "1", "--seed", "1"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=under_nohup,
    )
    said = said_until_asked(child, b"alice> ")
    child.send_signal(signal.SIGHUP)
    rest, errors = child.communicate(timeout=120)  # then its input ends
    out = (said + rest).decode()
    assert child.returncode == 0, (out[-1000:], errors.decode())
    assert out.endswith("Game abandoned: end of input.\n"), out[-1000:]


def test_closing_the_terminal_window_ends_the_game_with_its_record_written(
    tmp_path: Path,
) -> None:
    """The game plays in a terminal whose window is closed (its pseudo-terminal hung up:
    SIGHUP, and writing to it fails): the record is written still, the table's files are
    removed, and the status is the shell's for SIGHUP (it was 1, no record, the line
    saying the game was abandoned failing with an I/O error)."""
    import fcntl
    import termios

    temporary = tmp_path / "tmp"
    temporary.mkdir()
    record = tmp_path / "game.json"
    main_end, terminal = os.openpty()

    def at_a_terminal() -> None:  # the session's controlling terminal, as a window's shell
        _signals_as_at_a_terminal()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    child = subprocess.Popen(
        [*stackbot(), "play", "--players", "alice", "--bots", "1", "--seed", "1",
         "--export", str(record)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(temporary), "LC_ALL": "C"},
        stdin=terminal,
        stdout=terminal,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=at_a_terminal,
    )  # fmt: skip
    os.close(terminal)
    said = b""
    while not said.rstrip().endswith(b"alice>"):
        chunk = os.read(main_end, 65536)
        assert chunk, said.decode()
        said += chunk
    assert list(temporary.iterdir())  # the table's store, while the game is on
    os.close(main_end)  # the window closed
    assert child.wait(timeout=120) == 128 + signal.SIGHUP
    assert check(json.loads(record.read_text()))["ok"]
    assert not list(temporary.iterdir())

"""`stackbot play`, driven through stdin/stdout as a person would."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

from bot.cli import main
from engine.stack.record import check
from engine.stack.rules import StackRules
from engine.terminal import play


def stackbot() -> list[str]:
    exe = shutil.which("stackbot")
    return [exe] if exe else [sys.executable, "-m", "bot.cli"]


def test_unattended_game_plays_to_the_end_and_exports(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    proc = subprocess.run(
        [*stackbot(), "play", "--bots", "4", "--seed", "7", "--export", str(record)],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Roll-off for first player" in out
    assert "=== Round 1" in out and "=== Game over." in out
    assert "Winner: bot" in out
    sheet = out[out.index("=== Game over.") :].splitlines()
    assert sheet[1].split()[0] == "R1" and sheet[1].split()[-1] == "Total"
    result = check(json.loads(record.read_text()))
    assert result["ok"] and result["finished"]
    # the same seed gives the same game
    again = subprocess.run(
        [*stackbot(), "play", "--bots", "4", "--seed", "7"],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert again.stdout.replace(f"Game record written to {record}.\n", "") == out.replace(
        f"Game record written to {record}.\n", ""
    )


def test_session_with_bad_input_keeps_going() -> None:
    # alice plays against one AI; junk and illegal commands are answered and she carries on.
    lines = ["dance", "stack 9 on bot1", "stack 3 on nobody", "help", "scores", "hint"]
    lines += ["reroll 1", "reroll 2", "reroll 3", "reroll 4", "reroll 5", "reroll 6"] * 40
    lines += ["quit"]
    stdin = io.StringIO("\n".join(lines) + "\n")
    stdout = io.StringIO()
    code = play(
        ["alice"],
        1,
        seed=3,
        level="greedy",
        rules=StackRules(dice_per_player=4, target_score=30),
        stdin=stdin,
        stdout=stdout,
    )
    out = stdout.getvalue()
    assert code == 0
    assert "'dance' is not a move" in out
    assert "A die shows 1 to 6, not 9." in out
    assert "There's no player called 'nobody'" in out
    assert "Commands:" in out
    assert "Hint: " in out
    assert "alice: rerolled" in out  # she moved after all that
    assert "Traceback" not in out


def test_illegal_move_message_then_the_game_goes_on() -> None:
    stdin = io.StringIO(
        "stack 6 on bot1\n" + "reroll 1\nreroll 2\nreroll 3\nreroll 4\nreroll 5\nreroll 6\n" * 30
    )
    stdout = io.StringIO()
    play(
        ["alice"],
        1,
        seed=1,
        level="random",
        rules=StackRules(dice_per_player=3, target_score=20),
        stdin=stdin,
        stdout=stdout,
    )
    out = stdout.getvalue()
    assert ("You have no unstacked 6" in out) or ("bot1 has no" in out) or ("bot1's 6" in out)
    assert "alice: rerolled" in out


def test_cli_refuses_bad_tables(capsys: object) -> None:
    assert main(["play", "--bots", "1"]) == 2  # one player is not a game
    assert main(["play", "--bots", "2", "--dice", "40"]) == 2
    assert main(["play", "--players", "al,al"]) == 2

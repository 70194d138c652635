"""The terminal is a front end of the host that needs no Discord (issue 19): a whole game of
every game, typed by a human against AI seats, runs through the host (seated through its
lobby, each move played by it) in a process where discord.py cannot be imported, and
imports nothing of the bot."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import games
from engine.record import check_file
from engine.stack.rules import StackRules
from terminal.stack import TerminalGame as StackTerminal
from terminal.table import Seat, TerminalGame

ROOT = Path(__file__).resolve().parents[2]


class HintTyper(io.StringIO):
    """A player who types the move the game's hint would play, each time asked."""

    def __init__(self) -> None:
        super().__init__()
        self.terminal: Any = None
        self.typed = 0

    def readline(self, size: int | None = -1) -> str:
        state = self.terminal.state
        # what the terminal shows is the host's table: its committed state, move for move
        hosted = self.terminal.table.live.state
        assert hosted is not state and hosted.to_dict() == state.to_dict()
        game = games.get(self.terminal_game)
        self.typed += 1
        return game.move_notation(state, game.hint(state)[0]) + "\n"

    @property
    def terminal_game(self) -> str:
        return "stack" if isinstance(self.terminal, StackTerminal) else self.terminal.game.name


def whole_game(name: str, record: str) -> None:
    """A human and one AI seat (two for Stack) play ``name`` to its end at the terminal."""
    game = games.get(name)
    stdin, out = HintTyper(), io.StringIO()
    seats = [Seat("alice"), Seat("AI 1", "greedy")]
    rng = random.Random(11)
    terminal: Any
    if name == "stack":
        rules = StackRules(target_score=40)
        seats.append(Seat("AI 2", "greedy"))
        terminal = StackTerminal(seats, rules, rng, stdin, out, Path(record))
    else:
        settings = game.settings.model_validate({"turn_limit": 60})
        terminal = TerminalGame(game, seats, settings, rng, stdin, out, Path(record))
    stdin.terminal = terminal
    assert terminal.run() == 0, out.getvalue()[-2000:]
    text = out.getvalue()
    assert "Winner:" in text or "A draw (" in text, text[-2000:]
    assert terminal.state.is_over and stdin.typed > 0
    # the terminal followed the host: every move it says is one the host committed
    assert terminal.seen > 0
    assert "Traceback" not in text


@pytest.mark.parametrize("name", games.names())
def test_a_whole_game_runs_through_the_terminal_with_no_discord(name: str, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code = (
        "import sys; sys.modules['discord'] = None; "
        "from tests.terminal.test_no_discord import whole_game; "
        f"whole_game({name!r}, {str(record)!r}); "
        "assert 'host.service' in sys.modules; "
        "assert not [m for m in sys.modules if m == 'bot' or m.startswith('bot.')]"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert check_file(str(record))["ok"] is True

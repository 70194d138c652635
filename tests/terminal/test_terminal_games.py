"""`stackbot play --game …` for games other than Stack, through stdin/stdout."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import games
from engine.game import Game
from engine.record import check_file
from engine.stack.rules import StackRules
from engine.stackup.cards import card_name
from engine.stackup.state import StackUpState
from terminal.table import Seat, TerminalGame, play
from tests.terminal.helpers import unattended

GAME = games.get("stackup")
PLAY = [sys.executable, "-m", "bot.cli", "play", "--game", "stackup"]


def test_unattended_stackup_game_plays_to_the_end_and_exports(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    proc = unattended([*PLAY, "--bots", "4", "--seed", "3", "--export", str(record)])
    assert proc.returncode == 0, proc.stderr
    assert "=== Game over." in proc.stdout and "Winner: AI " in proc.stdout
    assert " chose: Up (1 → 15)." in proc.stdout or " chose: Down (15 → 1)." in proc.stdout
    result = check_file(str(record))
    assert result["ok"] is True and result["finished"] is True


def test_bad_input_is_answered_and_the_game_goes_on() -> None:
    stdin = io.StringIO("dance\nR99\nsnatch nobody 2\nhint\nhelp\nshow\nquit\n")
    stdout = io.StringIO()
    code = play(["alice"], 2, game="stackup", seed=2, level="greedy", stdin=stdin, stdout=stdout)
    out = stdout.getvalue()
    assert code == 0
    assert "'dance' is not a card or a move" in out
    assert "There is no R99" in out
    assert "There's no player called 'nobody'" in out
    assert "Hint: " in out and "How to type a move" in out
    assert "Game abandoned: you quit." in out
    assert "Traceback" not in out


def test_bad_options_are_refused_on_stderr_with_exit_2() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = play(
        ["a"], 9, game="stackup", seed=1, level="greedy", stdin=io.StringIO(), stdout=out,
        stderr=err,
    )  # fmt: skip
    assert code == 2 and out.getvalue() == ""
    assert err.getvalue() == "stackbot play: Stack Up! needs 2 to 6 players, not 10.\n"
    out, err = io.StringIO(), io.StringIO()
    code = play(
        ["a"],
        1,
        game="stackup",
        seed=1,
        level="greedy",
        settings={"turn_limit": 0},
        stdin=io.StringIO(),
        stdout=out,
        stderr=err,
    )
    assert code == 2 and out.getvalue() == "" and "turn_limit" in err.getvalue()


class LegalTyper(io.StringIO):
    """A player at the keyboard who types the first legal move of whoever is to act (after
    the lines of ``junk``, once each)."""

    def __init__(self, game: Game[Any] = GAME) -> None:
        super().__init__()
        self.game = game
        self.terminal: TerminalGame | None = None
        self.junk: list[str] = []

    def readline(self, size: int | None = -1) -> str:
        assert self.terminal is not None
        if self.junk:
            return self.junk.pop(0) + "\n"
        state = self.terminal.state
        return self.game.move_notation(state, state.legal_moves()[0]) + "\n"


def test_two_humans_at_one_keyboard_each_see_only_their_own_hand() -> None:
    stdin, stdout = LegalTyper(), io.StringIO()
    seats = [Seat("alice"), Seat("bob"), Seat("AI 1", "greedy")]
    terminal = TerminalGame(GAME, seats, GAME.settings(), random.Random(8), stdin, stdout)
    stdin.terminal = terminal
    shown: list[tuple[str, str]] = []  # (whose turn was announced, the hand line shown)
    real_say = terminal.say

    def say(text: str = "") -> None:
        state = terminal.state
        assert isinstance(state, StackUpState)
        seat = state.current_player
        if "Your hand:" in text and seat is not None:
            own = {card_name(c) for c in state.hand(seat)}
            line = next(x for x in text.splitlines() if x.startswith("Your hand:"))
            assert set(line.removeprefix("Your hand:").split()) <= own
            shown.append((state.players[seat], line))
        real_say(text)

    terminal.say = say  # type: ignore[method-assign]
    assert terminal.run() == 0
    out = stdout.getvalue()
    assert {who for who, _ in shown} == {"alice", "bob"}
    assert "everyone else, look away" in out
    assert "Winner:" in out
    json.dumps(GAME.export_record(terminal.state))


def test_an_option_of_another_game_is_refused_by_name() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "bot.cli", "play", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)

    stack = run("--turn-limit", "3")
    assert stack.returncode == 2 and "Stack has no --turn-limit" in stack.stderr
    stackup = run("--game", "stackup", "--board", "heavy")
    assert stackup.returncode == 2 and "Stack Up! has no --board" in stackup.stderr
    bad = run("--game", "stackup", "--turn-limit", "0")
    assert bad.returncode == 2 and "bad --turn-limit 0" in bad.stderr


def test_a_color_stack_game_in_the_terminal_typed_by_a_human_to_its_end(tmp_path: Path) -> None:
    # a human types (the first legal action each time, plus some junk) against the greedy AI
    board = games.get("colorstack")
    stdin, stdout = LegalTyper(board), io.StringIO()
    seats = [Seat("alice"), Seat("AI 1", "greedy")]
    record = tmp_path / "game.json"
    settings = board.settings.model_validate({"turn_limit": 60})
    terminal = TerminalGame(board, seats, settings, random.Random(4), stdin, stdout, record)
    stdin.terminal = terminal
    stdin.junk = ["d0-d9", "set a1 9", "c1-c1", "help", "show"]
    assert terminal.run() == 0
    out = stdout.getvalue()
    assert "a   b   c" in out  # the board drawn with its coordinates
    assert "is not a square" in out or "not a move" in out
    assert "Winner:" in out or "A draw (" in out
    assert "Traceback" not in out
    assert check_file(str(record))["ok"] is True


def test_an_unattended_color_stack_game_on_the_heavy_board(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    command = [sys.executable, "-m", "bot.cli", "play", "--game", "colorstack", "--bots", "2"]
    proc = unattended([*command, "--board", "heavy", "--seed", "5", "--export", str(record)])
    assert proc.returncode == 0, proc.stderr
    assert "Color Stack (heavy)" in proc.stdout and "9  " in proc.stdout
    result = check_file(str(record))
    assert result["ok"] is True and result["finished"] is True
    rows = result["board"]
    assert isinstance(rows, list) and len(rows) == 9


OVERRIDE = "evil\u202ename"  # a name leaving a right-to-left override open


@pytest.mark.parametrize("game", ["stack", "stackup", "colorstack"])
def test_a_name_with_a_right_to_left_override_reverses_no_word_after_it(game: str) -> None:
    """A name may hold any bidirectional formatting character: a terminal that lays text
    out both ways (as VTE's and Konsole's do) would read every word after "evil\u202ename"
    backwards. Wherever the name is said (the start, the prompt, the board, the turns,
    a refusal), it is isolated: first strong isolate … pop directional isolate."""
    stdin = io.StringIO("hint\nshow\ndance\nquit\n")
    stdout = io.StringIO()
    rules = StackRules() if game == "stack" else None
    code = play(
        [OVERRIDE], 1, game=game, seed=2, level="greedy", rules=rules, stdin=stdin, stdout=stdout
    )
    out = stdout.getvalue()
    assert code == 0
    assert out.count(OVERRIDE) >= 3
    assert out.count(OVERRIDE) == out.count("\u2068" + OVERRIDE + "\u2069"), out


class CopiedHintTyper(io.StringIO):
    """A player who asks for a hint, then types the move it names by copying it off the
    screen: the hint line's text up to its reason, isolates and all (and quits after
    ``most`` lines: a game that does not take them would never end)."""

    def __init__(self, out: io.StringIO, most: int = 400) -> None:
        super().__init__()
        self.out = out
        self.asked = False
        self.left = most

    def readline(self, size: int | None = -1) -> str:
        self.left -= 1
        if not self.left:
            return "quit\n"
        self.asked = not self.asked
        if self.asked:
            return "hint\n"
        hint = self.out.getvalue().rsplit("Hint: ", 1)[1]
        return hint.split(": ", 1)[0] + "\n"


HEBREW = "שלום עולם"


def test_stack_names_of_either_direction_stay_isolated_through_a_whole_game() -> None:
    """The turn lines ("🟥 evil\u202ename: stacked a 1 on …", which reversed the rest of
    the line), the round's scores ("שלום עולם +17", whose +17 showed as 17+ on the name's
    left) and the hint's move ("stack 1 on evil\u202ename 1: makes …") isolate the names,
    and a move copied from the hint, its isolates with it, is played."""
    out = io.StringIO()
    code = play(
        [OVERRIDE, HEBREW],
        1,
        seed=4,
        level="greedy",
        rules=StackRules(target_score=40),
        stdin=CopiedHintTyper(out),
        stdout=out,
    )
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert "Winner: " in text and "not a move" not in text and "no player called" not in text
    assert "Round scores: " in text
    assert f"on \u2068{OVERRIDE}\u2069 " in text and f"on \u2068{HEBREW}\u2069 " in text
    for name in (OVERRIDE, HEBREW):
        assert text.count(name) == text.count("\u2068" + name + "\u2069"), name


def terminal_hints(
    game: Any, names: list[str], seed: int, turns: int
) -> Iterator[tuple[Any, str, Any]]:
    """The terminal's hint at each decision of a random game of ``names`` (``turns`` at
    most): the state, the hint's text and the move it names."""
    from terminal.hosting import TerminalHostedGame

    hosted = TerminalHostedGame(game)
    rng = random.Random(seed)
    state: Any = game.new_state(names, game.settings())
    for _ in range(turns):
        if state.is_over:
            return
        if state.decision.name == "CHANCE":
            state.apply(state.sample_chance(rng))
            continue
        move, _words = hosted.words.hint(state)
        yield state, hosted.hint_text(state), move
        state.apply(rng.choice(list(state.legal_moves())))


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("name", ["stack", "stackup", "colorstack"])
def test_a_hint_names_its_move_without_code_marks_so_it_can_be_typed_as_it_stands(
    name: str, language: str
) -> None:
    """The catalog quotes a hint's move in code marks (Discord shows them as code); the
    terminal shows plain text, so its hint gives the move as typed, and a move copied off
    the screen is read back as that move."""
    import catalog

    game = games.get(name)
    hinted = 0
    with catalog.speaking(language):
        for state, text, move in terminal_hints(game, ["ann", "bob"], 7, 60):
            assert "`" not in text, text
            typed = game.move_notation(state, move)
            assert typed in text
            assert game.parse_move(state, typed, state.current_player) == move
            hinted += 1
    assert hinted >= 5


def test_a_hint_naming_a_right_to_left_player_has_no_code_marks() -> None:
    """The catalog isolates a right-to-left name in a hint's move (``snatch ⁨שלום⁩ 1`` in
    code marks); the terminal's hint still gives that move without the marks."""
    game = games.get("stackup")
    named = 0
    for seed in range(20):
        for state, text, move in terminal_hints(game, ["ann", HEBREW, "bob"], seed, 300):
            assert "`" not in text, text
            named += HEBREW in game.move_notation(state, move)
        if named >= 2:
            break
    assert named >= 2  # hints whose move names the right-to-left player were seen

"""`stackbot play` as a person at a keyboard meets it: hot-seat hands behind a cleared
screen, line editing and history at a terminal, words for "you", the table shown once per
turn, the final score sheet once, and Discord's command forms typed out."""

from __future__ import annotations

import io
import os
import pty
import random
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine import games
from engine.stack.ai import GreedyPlayer
from engine.stack.notation import move_notation
from engine.stack.rules import StackRules
from engine.stackup.cards import card_name
from engine.stackup.state import StackUpState
from terminal.stack import TerminalGame as StackTerminal
from terminal.table import CLEAR_SCREEN, Seat, TerminalGame, build_seats, cleared, play
from tests.terminal.helpers import typed_game

STACKUP = games.get("stackup")
COLORSTACK = games.get("colorstack")
ROOT = Path(__file__).resolve().parents[2]


class HotSeatTyper(io.StringIO):
    """Two people at one keyboard: each presses Enter when asked to, and types the first
    legal move otherwise. Each read notes what the screen held since the last clear."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.terminal: TerminalGame | None = None
        self.enters = 0

    def readline(self, size: int | None = -1) -> str:
        assert self.terminal is not None
        if self.out.getvalue().endswith("press Enter to see your hand. "):
            self.enters += 1
            return "\n"
        state = self.terminal.state
        return STACKUP.move_notation(state, state.legal_moves()[0]) + "\n"


class Screen(io.StringIO):
    """An output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _hands(screen: str) -> list[str]:
    """Whose hands a screen shows (each hand is followed by its owner's prompt)."""
    return re.findall(r"^Your hand:.*\n(?:You drew .*\n)?(\w+)> ", screen, re.M)


def _hot_seat(out: io.StringIO, seed: int) -> tuple[TerminalGame, HotSeatTyper]:
    stdin = HotSeatTyper(out)
    seats = [Seat("alice"), Seat("bob"), Seat("AI 1", "greedy")]
    terminal = TerminalGame(STACKUP, seats, STACKUP.settings(), random.Random(seed), stdin, out)
    stdin.terminal = terminal
    return terminal, stdin


def test_a_hot_seat_hand_waits_for_enter_behind_a_cleared_screen() -> None:
    out = io.StringIO()
    terminal, stdin = _hot_seat(out, 8)
    assert terminal.run() == 0
    text = out.getvalue()
    assert "Winner:" in text and stdin.enters >= 2
    # the output as screens: each clear wipes everything before it
    screens = text.split(cleared())
    hands = 0
    for screen in screens:
        # a screen holds one player's hand at most, and only after that player pressed Enter
        shown = _hands(screen)
        assert len(set(shown)) <= 1, screen
        if shown:
            hands += 1
            assert "look away" not in screen.split("Your hand:")[0]
    assert hands >= 2
    # every "look away" is followed by the wait for Enter, then a cleared screen, and
    # never by a hand on the same screen
    for screen in screens:
        if "everyone else, look away" in screen:
            after = screen.split("everyone else, look away")[1]
            assert after.rstrip().endswith("press Enter to see your hand.")
            assert "Your hand:" not in after


def test_each_hot_seat_hand_is_its_owners_alone_and_the_last_turns_are_said_again() -> None:
    out = io.StringIO()
    terminal, _ = _hot_seat(out, 3)
    seen: list[str] = []
    real_say = terminal.say

    def say(text: str = "") -> None:
        state = terminal.state
        assert isinstance(state, StackUpState)
        if "Your hand:" in text and state.current_player is not None:
            own = {card_name(c) for c in state.hand(state.current_player)}
            line = next(x for x in text.splitlines() if x.startswith("Your hand:"))
            assert set(line.removeprefix("Your hand:").split()) <= own
            seen.append(state.players[state.current_player])
        real_say(text)

    terminal.say = say  # type: ignore[method-assign]
    assert terminal.run() == 0
    assert {"alice", "bob"} <= set(seen)
    screens = out.getvalue().split(cleared())
    # after the first turns, a screen shown to a player starts with what happened since
    # that player's hand was last shown (the public turn lines), not with an empty screen
    later = [s for s in screens[2:] if "Your hand:" in s]
    assert later and all(re.search(r"\b(played|was stuck|drew)\b", s) for s in later[:5])


class FreezingTyper(HotSeatTyper):
    """A hot seat whose players play a Freeze whenever they may."""

    def readline(self, size: int | None = -1) -> str:
        assert self.terminal is not None
        if self.out.getvalue().endswith("press Enter to see your hand. "):
            return "\n"
        state = self.terminal.state
        said = [STACKUP.move_notation(state, move) for move in state.legal_moves()]
        return next((m for m in said if "freeze" in m.lower()), said[0]) + "\n"


def test_a_hot_seat_hand_over_says_again_all_the_last_player_did_in_a_row() -> None:
    # two players: a Freeze skips the other, whose recap must still say it (and the
    # direction chosen before the first play), not the last play alone
    out = io.StringIO()
    stdin = FreezingTyper(out)
    seats = [Seat("alice"), Seat("bob")]
    terminal = TerminalGame(STACKUP, seats, STACKUP.settings(), random.Random(1), stdin, out)
    stdin.terminal = terminal
    assert terminal.run() == 0
    screens = out.getvalue().split(cleared())
    to_bob = next(s for s in screens if "--- bob's turn" in s)
    assert "alice chose: Up (1 → 15)." in to_bob
    assert to_bob.index("alice played Freeze: alice plays again.") < to_bob.index(
        "alice played G6."
    )
    # once said at a hand-over, a line is not said again at the next one
    handovers = [s for s in screens if "everyone else, look away" in s]
    assert all(s.count("alice played Freeze: alice plays again.") <= 1 for s in handovers)
    assert sum("alice chose: Up" in s for s in handovers) == 1


def test_the_hot_seat_clears_a_real_terminal_with_the_clear_code() -> None:
    out = Screen()
    terminal, stdin = _hot_seat(out, 5)
    assert terminal.run() == 0
    text = out.getvalue()
    assert cleared() not in text
    assert text.count(CLEAR_SCREEN) == 2 * stdin.enters
    for screen in text.split(CLEAR_SCREEN):
        assert len(set(_hands(screen))) <= 1, screen


def test_end_of_input_at_the_hot_seat_wait_abandons_the_game() -> None:
    stdin, out = io.StringIO("up\n"), io.StringIO()
    code = play(
        ["alice", "bob"], 0, game="stackup", seed=2, level="greedy", stdin=stdin, stdout=out
    )
    assert code == 0
    text = out.getvalue()
    assert "Game abandoned: end of input." in text and "Traceback" not in text


def _read_until(fd: int, seen: bytearray, pattern: bytes, count: int = 1) -> None:
    deadline = time.monotonic() + 60
    waiting = select.poll()  # (not select(): the suite's process may hold 1,024 files and more)
    waiting.register(fd, select.POLLIN)
    while seen.count(pattern) < count:
        assert time.monotonic() < deadline, seen.decode(errors="replace")[-2000:]
        if waiting.poll(1000):
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            assert chunk, seen.decode(errors="replace")[-2000:]
            seen.extend(chunk)


class PseudoTerminal:
    """The keyboard and screen of a `stackbot play` run in a pseudo-terminal: what is typed
    reaches it as keys, and ``seen`` holds everything it has shown so far."""

    def __init__(self, main: int, proc: subprocess.Popen[bytes]) -> None:
        self.main = main
        self.proc = proc
        self.seen = bytearray()

    def type(self, keys: bytes) -> None:
        os.write(self.main, keys)

    def wait_for(self, shown: bytes, count: int = 1) -> None:
        """Read until ``shown`` has appeared ``count`` times (a minute at most)."""
        _read_until(self.main, self.seen, shown, count)

    def quit(self) -> None:
        """Type `quit`, and see the game abandoned and the program end well."""
        self.type(b"quit\r")
        self.wait_for(b"Game abandoned: you quit.")
        assert self.proc.wait(timeout=60) == 0


@contextmanager
def stackup_at_a_terminal(*arguments: str) -> Iterator[PseudoTerminal]:
    """`stackbot play --game stackup` with ``arguments``, run in a pseudo-terminal as a
    person at a keyboard meets it (readline and all). On leaving, a program still running is
    killed and the terminal closed."""
    main, child = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm"}
    command = [sys.executable, "-m", "bot.cli", "play", "--game", "stackup"]
    proc = subprocess.Popen(
        [*command, *arguments],
        stdin=child,
        stdout=child,
        stderr=child,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    os.close(child)
    try:
        yield PseudoTerminal(main, proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)
        os.close(main)


def test_at_a_terminal_the_up_arrow_recalls_the_last_line() -> None:
    """Through a pseudo-terminal, as a person types: "hint", then the up arrow and Enter
    recall "hint" (readline), where the escape code used to be read as a move."""
    with stackup_at_a_terminal("--players", "you", "--bots", "1", "--seed", "2") as terminal:
        terminal.wait_for(b"you> ")
        terminal.type(b"hint\r")
        terminal.wait_for(b"Hint: ")
        terminal.wait_for(b"you> ", 2)
        terminal.type(b"\x1b[A\r")  # the up arrow, then Enter
        terminal.wait_for(b"Hint: ", 2)
        terminal.wait_for(b"you> ", 3)
        terminal.quit()
    text = terminal.seen.decode(errors="replace")
    assert "is not a card or a move" not in text
    assert "Game abandoned: you quit." in text


def test_at_a_hot_seat_hand_over_the_up_arrow_recalls_nothing_the_last_player_typed() -> None:
    """Through a pseudo-terminal: alice types `r6`, refused (it names a card of her hand),
    then plays; after the hand-over bob's up arrow recalls none of her lines."""
    with stackup_at_a_terminal("--players", "alice,bob", "--seed", "2") as terminal:
        terminal.wait_for(b"press Enter to see your hand. ")
        terminal.type(b"\r")
        terminal.wait_for(b"alice> ")
        for count, line in enumerate([b"up", b"r6"], start=2):  # r6: refused
            terminal.type(line + b"\r")
            terminal.wait_for(b"alice> ", count)
        assert b"R6 is not legal" in terminal.seen
        terminal.type(b"g5\r")
        terminal.wait_for(b"bob, press Enter to see your hand. ")
        terminal.type(b"\r")
        terminal.wait_for(b"bob> ")
        shown = len(terminal.seen)
        terminal.type(b"\x1b[A\x1b[A\x1b[A\r")  # the up arrow three times, then Enter
        terminal.wait_for(b"bob> ", 2)
        terminal.quit()
    after = terminal.seen[shown:].decode(errors="replace")
    recalled = after.split("\n")[0]  # bob's line as it stood when he pressed Enter
    assert not any(typed in recalled.lower() for typed in ("r6", "g5", "up")), recalled
    assert "That's empty." in after


def _stack(humans: list[str], bots: int, typed: str, **rules: int) -> str:
    return typed_game(humans, bots, typed, seed=1, level="greedy", rules=StackRules(**rules))[1]


def test_the_player_at_the_keyboard_hears_of_your_pile_not_you_s() -> None:
    # seed 1: you stack a 3 on AI 1, and AI 1 answers with a 6 on your single 6
    text = _stack(["you"], 1, "stack 3 on AI 1\n")
    assert "stacked a 6 on your single 6" in text
    assert "you's" not in text
    assert "Last: AI 1 stacked a 6 on your single 6" in text
    assert "You go first." in text and "everyone rolls; you start." in text
    assert "you goes" not in text and "you starts" not in text
    # a name that is not "you" reads the same way for the one human at the keyboard
    text = _stack(["alice"], 1, "stack 3 on AI 1\n")
    assert "stacked a 6 on your single 6" in text and "alice's single 6" not in text


class StackTyper(io.StringIO):
    """A Stack player who types the greedy AI's move each turn."""

    def __init__(self) -> None:
        super().__init__()
        self.terminal: StackTerminal | None = None

    def readline(self, size: int | None = -1) -> str:
        assert self.terminal is not None
        state = self.terminal.state
        return move_notation(state, GreedyPlayer().best(state).move) + "\n"


def test_ai_moves_are_one_line_each_and_the_table_shows_once_per_human_turn() -> None:
    stdin, out = StackTyper(), io.StringIO()
    seats = build_seats(["you"], 3, "greedy")
    rules = StackRules(target_score=60, dice_per_player=6)
    terminal = StackTerminal(seats, rules, random.Random(4), stdin, out)
    stdin.terminal = terminal
    assert terminal.run() == 0
    text = out.getvalue()
    assert "Winner:" in text and text.count("you> ") > 3
    # a table at each round's start and for each turn of the human; an AI's move is its
    # line alone
    tables = text.count("Stack · round")
    assert tables <= text.count("you> ") + text.count("everyone rolls")
    assert tables < text.count("(AI):")
    # the table is shown before each prompt of the human, once
    for chunk in text.split("you> ")[:-1]:
        assert chunk.rsplit("(AI):", 1)[-1].count("Stack · round") <= 1, chunk


def test_an_unattended_stack_game_prints_each_field_once_per_round_and_the_final_sheet_once() -> (
    None
):
    text = _stack([], 3, "", target_score=40, dice_per_player=5)
    assert "=== Game over." in text
    rounds = text.count("=== Round ") // 2  # "=== Round N: everyone rolls" and "is over"
    assert text.count("Stack · round") == rounds
    final = text.split("=== Game over.")[1]
    header = next(line for line in final.splitlines() if "Total" in line)
    assert text.count(header) == 1


def test_color_stack_takes_discords_move_forms_typed_out() -> None:
    # you move first (seed 1): your colours first, typed as /move types them too
    for colours in ("colours green blue", "move colours green blue", "/move colors green, blue"):
        for typed in ("move a1-b1", "/move a1-b1", "move a1 b1"):
            code, text = typed_game(
                ["you"], 1, f"{colours}\n{typed}\nquit\n", game="colorstack", seed=1,
                level="greedy",
            )  # fmt: skip
            assert code == 0
            assert "you: green (G) and blue (B), moved first" in text, text[-600:]
            assert "is not a move" not in text and "you moved " in text, text[-600:]
    _, text = typed_game(
        ["you"], 1, "colours red yellow\nmove resign\n", game="colorstack", seed=1, level="greedy"
    )
    assert "you resigned: AI 1 wins" in text


def test_color_stack_set_takes_the_slash_form() -> None:
    _, text = typed_game(
        ["you"], 1, "colours red yellow\n/set a1 2\nquit\n", game="colorstack", seed=1,
        level="greedy",
    )  # fmt: skip
    assert "is not a command" not in text and "not a move" not in text
    assert "you set the red die on a1 to 2." in text, text[-600:]


def test_a_color_stack_game_resigned_before_its_board_writes_no_record_and_says_so(
    tmp_path: Path,
) -> None:
    """You move first (seed 1) and resign while choosing colours: the game is over (the
    rule book: resign at any time), and --export says it has no record (exit 1)."""
    record = tmp_path / "game.json"
    out, err = io.StringIO(), io.StringIO()
    code = play(
        ["you"], 1, seed=1, level="greedy", game="colorstack", stdin=io.StringIO("resign\n"),
        stdout=out, stderr=err, export=record,
    )  # fmt: skip
    assert code == 1 and not record.exists()
    assert "you resigned: AI 1 wins" in out.getvalue()
    assert err.getvalue() == (
        "stackbot play: the game ended before its board was set up, so it has no record: "
        f"nothing was written to {record}.\n"
    )


def test_a_color_stack_player_sharing_the_keyboard_resigns_whoever_is_to_move() -> None:
    """The rule book: a player may resign at any time, whoever is to move. At one keyboard
    the prompt is the mover's, so ``resign bob`` is bob resigning on alice's turn."""
    code, text = typed_game(
        ["alice", "bob"],
        0,
        "colours red yellow\nresign BOB\n",
        game="colorstack",
        seed=1,
        level="greedy",
    )
    assert code == 0
    assert "alice> " in text and "bob> " not in text  # typed at alice's prompt
    assert "bob resigned: alice wins." in text, text[-400:]
    _, text = typed_game(
        ["alice", "bob"],
        0,
        "colours red yellow\nresign\n",
        game="colorstack",
        seed=1,
        level="greedy",
    )
    assert "alice resigned: bob wins." in text, text[-400:]
    _, text = typed_game(
        ["alice", "bob"],
        0,
        "colours red yellow\nresign carol\nquit\n",
        game="colorstack",
        seed=1,
        level="greedy",
    )
    assert "resigned" not in text and "`resign` alone" in text, text[-400:]

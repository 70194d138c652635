"""``stackbot play``: Stack's own terminal front end, no Discord needed.

The table is the host's, as every game's at the terminal (:mod:`terminal.table`): the
players seated through its lobby, each typed command played (or refused) by it, the dice
and the AI seats' turns played by it; this front end follows the moves the host committed
and tells the round-by-round story.

Humans type the same commands as on Discord (``stack 3 on bob``, ``reroll 3``) plus
``help``, ``hint``, ``scores`` and ``quit``; AI seats move by themselves. The streams are
passed in, so tests drive it through stdin/stdout like a person would.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, TextIO

from catalog import isolate, t
from catalog.stack import WORDS
from engine import flow
from engine.game import AIPlayer, Decision, RoundEnded, TurnEnded
from engine.stack.game import GAME
from engine.stack.moves import RollOff, RoundDice
from engine.stack.record import export_record
from engine.stack.render import plain, square
from engine.stack.rules import StackRules
from engine.stack.state import SetupError, StackState
from host.refusals import Refusal
from terminal.hosting import replayed
from terminal.table import (
    Front,
    NotASave,
    Resumed,
    Seat,
    build_seats,
    names_line,
    open_table,
    play_line,
    read_command,
    say_error,
)
from terminal.words import refusal_text, setup_error_text


def help_text() -> str:
    """The commands a player may type, in the current language."""
    return t("stack.terminal.help", syntax=t("stack.syntax"))


class TerminalGame(Front):
    """One game at a terminal; :meth:`run` returns the process exit code."""

    def __init__(
        self,
        seats: list[Seat],
        rules: StackRules,
        rng: random.Random,
        stdin: TextIO,
        stdout: TextIO,
        export: Path | None = None,
        stderr: TextIO | None = None,
        *,
        save: Path | None = None,
        resumed: Resumed | None = None,
        seeded: bool = False,
    ) -> None:
        super().__init__(
            seats, rng, stdin, stdout, export, stderr, save=save, resumed=resumed, seeded=seeded
        )
        seats = self.seats
        self.rules = rules
        # the table as the terminal follows it (the host's committed moves played on it)
        self.state = (
            resumed.state if resumed is not None else StackState([s.name for s in seats], rules)
        )
        humans = [i for i, s in enumerate(seats) if s.level is None]
        # the one human at the keyboard is "you" in the words (their piles are "your")
        self.you: int | None = humans[0] if len(humans) == 1 else None
        self.shown = False  # whether the field on screen is the current one
        self.contenders = self.state.contenders  # who rolls off, before the roll

    def say(self, text: str = "") -> None:
        if self.quiet:
            return
        self.stdout.write(plain(text, names=self.state.players) + "\n")
        self.stdout.flush()

    def _play(self) -> int:
        if self.you is None and all(s.level is not None for s in self.seats):
            # AI seats only: played out here, by the table loop
            self._intro()
            flow.advance(GAME, self.state, self.rng, self._ai, on_step=self._said)
            self._finish()
            return 0
        if self.table is None:
            try:
                self.table, self.seats, state = open_table(
                    GAME, self.seats, self.rules, self.rng, self.save, seeded=self.seeded
                )
            except Refusal as refusal:  # the host would not seat these players
                self.fail(refusal_text(refusal))
                return 2
            except NotASave as err:  # the save is another terminal's, or unreadable
                self.fail(str(err))
                return 2
            assert isinstance(state, StackState)
            self.state, self.contenders = state, state.contenders
        try:
            return self._play_hosted()
        finally:
            self.table.close()

    def _intro(self) -> None:
        state = self.state
        players = t("stack.names.comma").join(isolate(p) for p in state.players)
        self.say(t("stack.terminal.intro", players=players, target=state.rules.target_score))

    def _follow(self) -> None:
        """Play the moves the host committed since on the terminal's table, saying each."""
        assert self.table is not None
        for move in self.table.moves_since(self.seen):
            self._said(replayed(GAME, self.state, move, self._is_ai))
            self.seen += 1

    def _play_hosted(self) -> int:
        self._intro()
        if self.resumed:
            self._catch_up()
            self.shown = False  # the field is shown when the human is to act
        while True:
            # the dice rolled and the AI seats' turns, as the host played them
            self._follow()
            state = self.state
            if state.is_over:
                self._finish()
                return 0
            ended = self._human_turn()
            if ended is not None:
                self.say(self._left(self._why(ended)))
                self._write_export()
                return self._exit_code(ended)

    def _ai(self, seat: int) -> flow.Chooser | None:
        level = self.seats[seat].level
        if level is None:
            return None
        ai: AIPlayer[Any] = self._made_ai(GAME, level)
        return ai.choose

    def _said(self, step: flow.Played) -> None:
        """Say what a move the table played led to, the state as it then is."""
        state = self.state
        if isinstance(step.move, RollOff):
            self._rolled_off(step.move)
        elif isinstance(step.move, RoundDice):
            self._round_rolled()
        for event in step.events:
            if isinstance(event, TurnEnded):
                self._turn_ended(event.seat)
            elif isinstance(event, RoundEnded):
                self._round_over()
        self.contenders = state.contenders

    def _rolled_off(self, outcome: RollOff) -> None:
        state = self.state
        assert self.contenders is not None
        rolls = t("stack.names.comma").join(
            f"{isolate(state.name(s))} {f}"
            for s, f in zip(self.contenders, outcome.rolls, strict=True)
        )
        self.say(t("stack.terminal.rolloff", rolls=rolls))
        if state.contenders is None:
            assert state.first is not None
            self.say(
                t("stack.terminal.you_first")
                if state.first == self.you
                else t("stack.terminal.first", name=isolate(state.name(state.first)))
            )

    def _round_rolled(self) -> None:
        state = self.state
        if state.decision is Decision.CHANCE or state.current is None:
            return
        assert state.first is not None
        if state.first == self.you:
            self._heading(t("stack.terminal.round_you", round=state.round_number))
        else:
            self._heading(
                t(
                    "stack.terminal.round",
                    round=state.round_number,
                    name=isolate(state.name(state.first)),
                )
            )
        self._show_field()

    def _heading(self, text: str) -> None:
        """Say the line that opens a part of the game (a round, its end, the game's end),
        set apart by a blank line before it; the blank line is layout, not the catalog's."""
        self.say()
        self.say(text)

    def _show_field(self) -> None:
        self.say(WORDS.render_field(self.state, you=self.you))
        self.shown = True

    def _human_turn(self) -> str | None:
        """Read commands until the human has moved (``None``), or why the game ends. The
        field is shown once when the human is to act (the AI's moves are one line each)."""
        state = self.state
        p = state.current
        assert p is not None
        if not self.shown:
            self._show_field()
        if state.placing is not None:
            options = t("stack.names.or").join(
                WORDS.pile_words(state.name(o), state.placing or 0, h, yours=o == self.you)
                for o, h in state.targets_for(p, state.placing or 0)
            )
            self.say(t("stack.terminal.placing", face=state.placing, options=options))
        while True:
            line, ended = read_command(self.stdin, self.stdout, state.name(p))
            if ended is not None:
                return ended
            command = line.strip().lower()
            if command in ("help", "?"):
                self.say(help_text())
                continue
            if command == "scores":
                self.say(WORDS.render_score_sheet(state))
                continue
            if command in ("show", "field", "board"):
                self._show_field()
                continue
            if self.table is None:  # nothing to play on (a table not opened)
                return t("stack.terminal.no_table")
            if play_line(self.table, state.name(p), line, self.say):
                return None

    def _turn_ended(self, p: int) -> None:
        """Say ``p``'s turn, just ended (a rerolled die placed, or left unstacked)."""
        state = self.state
        self.shown = False
        who = f"{square(p)} {isolate(state.name(p))}"
        auto = self.seats[p].level is not None
        turn = next((r["turns"][-1] for r in reversed(state.history) if r["turns"]), None)
        deed = WORDS.turn_deed(state, turn, you=self.you) if turn is not None else ""
        self.say(t("stack.terminal.turn_ai" if auto else "stack.terminal.turn", who=who, deed=deed))

    def _round_over(self) -> None:
        state = self.state
        scores = state.round_scores[-1]
        self._heading(t("stack.terminal.round_over", round=len(state.round_scores)))
        listed = t("stack.names.comma").join(
            f"{isolate(state.name(s))} {pts:+d}" for s, pts in enumerate(scores)
        )
        self.say(t("stack.terminal.round_scores", scores=listed))
        if not state.is_over:  # the game's end shows the final sheet once
            self.say(WORDS.render_score_sheet(state))

    def _finish(self) -> None:
        state = self.state
        self._heading(t("stack.terminal.game_over"))
        self.say(WORDS.render_score_sheet(state))
        assert state.winner is not None
        names = names_line([state.name(s) for s in state.winner])
        self.say(t("stack.terminal.winner", names=names))
        self._write_export()

    @classmethod
    def resuming(
        cls,
        resumed: Resumed,
        rng: random.Random,
        stdin: TextIO,
        stdout: TextIO,
        export: Path | None,
        stderr: TextIO | None,
        *,
        save: Path,
    ) -> TerminalGame:
        assert isinstance(resumed.state, StackState)
        return cls(
            resumed.seats,
            resumed.state.rules,
            rng,
            stdin,
            stdout,
            export,
            stderr,
            save=save,
            resumed=resumed,
        )

    def _record(self) -> dict[str, Any]:
        return export_record(self.state)

    def _replayed(self, record: dict[str, Any]) -> object:
        return GAME.replay_record(record)


def play(
    humans: list[str],
    bots: int,
    *,
    seed: int | None,
    level: str,
    rules: StackRules,
    stdin: TextIO,
    stdout: TextIO,
    export: Path | None = None,
    stderr: TextIO | None = None,
    save: Path | None = None,
) -> int:
    """Play one game; returns the exit code (2 when the table cannot be set up, said on
    ``stderr``: ``sys.stderr`` unless given). ``save``: the file that keeps the game."""
    errors = sys.stderr if stderr is None else stderr
    try:
        seats = build_seats(humans, bots, level)
        rng = random.Random(seed)
        game = TerminalGame(
            seats, rules, rng, stdin, stdout, export, errors, save=save, seeded=seed is not None
        )
    except (SetupError, ValueError) as err:
        given = len(humans) + bots
        said = setup_error_text(err, count=given) if isinstance(err, SetupError) else str(err)
        say_error(errors, said)
        return 2
    return game.run()

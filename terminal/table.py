"""``stackbot play [--game NAME]``: any game in a terminal, no Discord needed.

The table is the host's (:mod:`terminal.hosting`): the players are seated through its
lobby, each typed move is played by it — or refused, with a code said in the terminal's
words (:mod:`terminal.words`) — and it plays chance outcomes, forced moves and the AI
seats' turns; the terminal follows the moves it committed and says them. A table without
a human (AI seats only: the host, as on Discord, keeps no table nobody plays at) is played
out by the table loop (:mod:`engine.flow`) here.

Humans type the same moves as on Discord plus ``help``, ``hint``, ``show`` and ``quit``. A game
with hidden information shows each human only what their seat may see: the table as
``render_text(state, viewer)`` draws it for the human to move (or, with one human, for
that human throughout); with several humans at one keyboard the others are asked to look
away before a hand is shown. Stack has its own front end with its round-by-round story
(:mod:`terminal.stack`); every other game plays through :class:`TerminalGame`.
The streams are passed in, so tests drive it through stdin/stdout like a person would.

Every word is the catalog's (the ``terminal`` domain), said in the language spoken
(``stackbot play --lang``: :func:`catalog.speaking`); a game's words (its moves, turns,
refused moves, hints) are its own (:func:`catalog.games.words`).
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import json
import os
import random
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from pydantic import BaseModel, ValidationError

import catalog
from catalog import games as game_words
from engine import flow, games
from engine.budget import limit_search
from engine.echo import cut
from engine.errors import NoRecord
from engine.game import Decision, Game, GameEnded, SetupError, TurnEnded
from host.refusals import Refusal
from host.thinking import SEEDED_NODES
from persistence.savefile import FileKind, file_kind
from terminal.hosting import (
    GUILD,
    HostedTable,
    SaveFailed,
    SaveInUse,
    SaveUnreadable,
    replayed,
    sqlite_url,
)
from terminal.words import bad_option_text, refusal_text, setup_error_text, write_error_text


class Said(str):
    """Words kept by their catalog key and said in the language spoken when they are
    formatted or printed (``f"{ABANDONED}: {why}."``): a module-level value that is no
    translation frozen at import time. Two of them compare by key."""

    __slots__ = ()

    def __str__(self) -> str:
        return catalog.t(str.__str__(self))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


ABANDONED = Said("terminal.abandoned.word")
# why a game ends before its end (read_command's answers)
CTRL_C = Said("terminal.ended.ctrl_c")
END_OF_INPUT = Said("terminal.ended.end_of_input")
YOU_QUIT = Said("terminal.ended.quit")
STOPPED = Said("terminal.ended.stopped")  # a stop signal (below), said where Ctrl-C would be
# the signals that end a game as Ctrl-C does (its line, its record, the table's store closed
# and removed): a terminal window closed (SIGHUP), `kill` or `timeout` (SIGTERM)
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
INTERRUPTED_EXIT = 130  # as a shell reports a process ended by SIGINT
BROKEN_PIPE_EXIT = 141  # as a shell reports a process ended by SIGPIPE (its reader gone)
EXPORT_FAILED_EXIT = 1  # a game played to its end whose --export record was not written
SAVE_FAILED_EXIT = 1  # a game whose save file failed under it (damaged, no longer writable)
# what a hot-seat player presses Enter to see, by game: the games with something to hide
# (the others' players share the screen: no one looks away)
HOT_SEAT_SHOWS = {"stackup": "hand"}
# games with a front end of their own: name -> module with a ``play`` like this one's
OWN_TERMINAL = {"stack": "terminal.stack"}

# how a drawn game ended (the outcome's ``ended_by``) -> the catalog key of its words
DRAW_WORDS = {"repetition": "terminal.draw.repetition", "turn_limit": "terminal.draw.turn_limit"}


def abandoned(why: str) -> str:
    """The line that ends a game before its end, ``why`` (one of :data:`CTRL_C`,
    :data:`END_OF_INPUT`, :data:`YOU_QUIT`) said in it."""
    return catalog.t("terminal.abandoned", why=str(why))


def commands_text() -> str:
    """The commands a player may type besides moves (``help``)."""
    return catalog.t("terminal.commands")


# Clears a terminal's screen and its scroll-back, and puts the cursor at the top left.
CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"


def cleared() -> str:
    """What stands for a cleared screen when the output is not a terminal (a pipe, a file)."""
    return "\n" + "=" * 24 + catalog.t("terminal.screen_cleared") + "=" * 24 + "\n"


def at_a_terminal(stdin: TextIO, stdout: TextIO) -> bool:
    """Whether a person types at this process's own terminal: only then do lines go
    through :mod:`readline` (editing, the arrow keys, history)."""
    return stdin is sys.stdin and stdout is sys.stdout and stdin.isatty() and stdout.isatty()


def read_line(stdin: TextIO, stdout: TextIO, prompt: str) -> str:
    """Prompt and read one line ("" at the end of input). At a terminal the line is read
    with :mod:`readline`, so the arrow keys edit it and recall earlier lines."""
    if at_a_terminal(stdin, stdout):
        import readline  # noqa: F401  (importing it gives input() line editing and history)

        try:
            return input(prompt) + "\n"
        except EOFError:
            return ""
    stdout.write(prompt)
    stdout.flush()
    return stdin.readline()


def forget_typed_lines(stdin: TextIO, stdout: TextIO) -> None:
    """At a hot-seat hand-over: forget the lines typed so far (readline's history), so
    the next player cannot recall with the up arrow what the last one typed (a refused
    play names cards of a hidden hand)."""
    if at_a_terminal(stdin, stdout):
        import readline

        readline.clear_history()


def read_command(stdin: TextIO, stdout: TextIO, name: str) -> tuple[str, str | None]:
    """Prompt ``name>`` and read one line: ``(line, None)``, or ``("", why)`` when the
    player ends the game (``quit``/``exit``, Ctrl-C or the end of input). A leading ``/``
    is dropped, so Discord's slash-command forms (``/move c1-e3``) read as typed."""
    try:
        line = read_line(stdin, stdout, f"{catalog.isolate(name)}> ")
    except KeyboardInterrupt:
        stdout.write("\n")
        return "", CTRL_C
    if not line:
        stdout.write("\n")
        return "", END_OF_INPUT
    line = line.strip().removeprefix("/") + "\n"
    if line.strip().lower() in ("quit", "exit"):
        return "", YOU_QUIT
    return line, None


def clear_screen(stdout: TextIO) -> None:
    """Clear the screen (at a terminal), or write a separator that says so (elsewhere)."""
    stdout.write(CLEAR_SCREEN if stdout.isatty() else cleared() + "\n")
    stdout.flush()


def export_problem(path: Path | None, failed: str = "terminal.write.failed") -> str | None:
    """Why ``--export``'s record could not be written to ``path``, known before the game
    (a missing folder, a folder, no permission), in words (``failed``: the catalog's
    sentence); ``None``: nothing known."""
    if path is None:
        return None
    error: OSError | None = None
    if path.is_dir():
        error = IsADirectoryError()
    elif not path.parent.is_dir():
        error = FileNotFoundError()
    elif not os.access(path.parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        error = PermissionError()
    return None if error is None else write_error_text(path, error, failed)


def write_record(
    path: Path, record: dict[str, Any], say: Callable[[str], None], fail: Callable[[str], None]
) -> bool:
    """Write a game record to ``path`` (``--export``) and ``say`` so; a record that cannot
    be written (a missing folder…) is told to ``fail`` in one line instead (``False``)."""
    try:
        path.write_text(json.dumps(record, indent=1) + "\n")
    except OSError as err:
        fail(write_error_text(path, err))
        return False
    say(catalog.t("terminal.record_written", path=path))
    return True


def error_line(text: str) -> str:
    """A line saying why ``stackbot play`` cannot go on (the program's name before it)."""
    return catalog.t("terminal.error", error=text)


def say_error(stream: TextIO, text: str) -> None:
    """Write :func:`error_line` of ``text`` to ``stream`` (standard error)."""
    stream.write(error_line(text) + "\n")
    stream.flush()


def start_line(title: str, players: list[str] | tuple[str, ...]) -> str:
    """The first line of a game: its name and its players in seat order."""
    return catalog.t(
        "terminal.line.start",
        title=title,
        players=catalog.t("list.comma").join(catalog.isolate(p) for p in players),
    )


def names_line(names: list[str] | tuple[str, ...]) -> str:
    """Winners' names joined (``AI 2 & AI 3``; ``AI 2、AI 3`` in Japanese)."""
    return catalog.t("terminal.line.names_join").join(catalog.isolate(n) for n in names)


def play_line(table: HostedTable, name: str, line: str, say: Callable[[str], None]) -> bool:
    """Play the line ``name`` typed at the host's ``table`` (``hint`` asks for a hint):
    ``True`` once a move is played, ``False`` when the player is to type again (after a
    hint, a refusal, or the question a move that may be meant several ways asks)."""
    try:
        if line.strip().lower() == "hint":
            say(catalog.t("terminal.line.hint", hint=table.hint(name)))
            return False
        question = table.move(name, line)
    except Refusal as refusal:
        say(refusal_text(refusal))
        return False
    if question is not None:  # a move that may be meant several ways
        say(question)
        return False
    return True


@dataclass
class Seat:
    """A seat: its player's name, and its AI level (``None``: a human plays it)."""

    name: str
    level: str | None = None


def build_seats(humans: list[str], bots: int, level: str) -> list[Seat]:
    """Humans in the order given, then ``bots`` AI seats named as the host's lobby names
    them (``AI 1``, ``AI 2``, …)."""
    seats = [Seat(name) for name in humans]
    taken = set(humans)
    number = 1
    for _ in range(bots):
        while f"AI {number}" in taken:
            number += 1
        seats.append(Seat(f"AI {number}", level))
        taken.add(f"AI {number}")
    return seats


def open_table(
    game: Game[Any],
    seats: list[Seat],
    settings: BaseModel,
    rng: random.Random,
    save: Path | None = None,
    *,
    seeded: bool = False,
) -> tuple[HostedTable, list[Seat], Any]:
    """A table of ``game`` on the host with ``seats`` (its humans by name, its AI seats by
    level), started: the table, its seats as the host named and ordered them, and the game
    as it starts (to follow the host's moves on). ``save``: the file that keeps it
    (``--save``), else a temporary one; ``seeded``: its thinking AIs search under their
    node budgets (``--seed``: the same game again)."""
    table = HostedTable(game.name, save, seeded=seeded)
    try:
        state = table.open(
            [s.name for s in seats if s.level is None],
            [s.level for s in seats if s.level is not None],
            settings.model_dump(mode="json"),
            rng,
        )
    except (SaveInUse, SaveUnreadable) as err:
        table.close()
        assert save is not None
        raise NotASave(save_refusal(save, err)) from err
    except KeyboardInterrupt:  # (or a stop signal) an AI thinking about its opening
        table.close()
        if save is not None and table.started:  # the game is in its file
            raise LeftStarted from None
        raise
    except BaseException:
        table.close()
        raise
    return table, [Seat(name, level) for name, level in table.seats()], state


class LeftStarted(KeyboardInterrupt):
    """Ctrl-C (or a stop signal) while the host opened a game kept in a file (``--save``),
    after it started (its AI seats playing their opening): the game is in the file, and
    goes on from there."""


@dataclass
class Resumed:
    """A game in play taken up again from the file that saved it (``--save``): the host's
    table, its seats in play order, and the game as it started (to follow its moves on)."""

    table: HostedTable
    seats: list[Seat]
    state: Any


class NotASave(ValueError):
    """The ``--save`` file is something else than a game ``stackbot play`` saved (said in
    words)."""


def save_problem(path: Path, kind: FileKind) -> str | None:
    """Why ``--save``'s file (of ``kind``: :func:`~persistence.savefile.file_kind`) cannot
    keep a game, known before the game, in words (a missing folder, no permission, a file
    that is no game saved by ``stackbot play``, the bot's own database); ``None``: none."""
    if sqlite_url(path) is None:
        why = catalog.t("terminal.write.save_name")
        return catalog.t("terminal.write.save_failed", path=path, why=why)
    if kind == "not_a_store":
        return catalog.t("terminal.cli.not_a_save", path=path)
    if kind == "other_places":
        return catalog.t("terminal.cli.bots_database", path=path)
    if kind == "damaged":
        return catalog.t("terminal.cli.damaged", path=path)
    return export_problem(path, "terminal.write.save_failed")


def save_refusal(path: Path, err: SaveInUse | SaveUnreadable) -> str:
    """Why the game saved in ``path`` cannot be played now, in words."""
    if isinstance(err, SaveInUse):
        return catalog.t("terminal.cli.save_in_use", path=path)
    return catalog.t("terminal.cli.save_unreadable", path=path)


def resume_saved(path: Path) -> Resumed | None:
    """The game in play that ``path`` saved, taken up again; ``None`` when there is no such
    file, or it holds no game in play (a new one may be saved there). Raises
    :class:`NotASave` when the file cannot keep a game (in words), or fails as it is read
    (damaged: storage's error, or its random source's row unreadable)."""
    kind = file_kind(path, GUILD)  # (read once: it checks the whole file)
    problem = save_problem(path, kind)
    if problem is not None:
        raise NotASave(problem)
    if kind == "new":
        return None
    # its thinking AIs search as they did (node budgets if seeded): the save says it
    table = HostedTable(games.DEFAULT, path)
    try:
        state = table.resume()
    except (SaveInUse, SaveUnreadable) as err:
        table.close()
        raise NotASave(save_refusal(path, err)) from err
    except SaveFailed as err:  # the file failed as it was read (or held what none wrote)
        table.close()
        raise NotASave(catalog.t("terminal.cli.damaged", path=path)) from err
    except BaseException:
        table.close()
        raise
    if state is None:
        table.close()
        return None
    return Resumed(table, [Seat(name, level) for name, level in table.seats()], state)


class Front:
    """What a game's front end at a terminal holds, whatever the game: its seats, the
    dice, the streams, where its record goes, and the host's table it follows. A
    subclass plays in :meth:`_play`; :meth:`run` returns the process exit code. The game
    is played on ``stdout``; why it cannot start or its record was not written goes to
    ``stderr`` (``sys.stderr`` unless given), as argparse's errors do. ``seeded``
    (``--seed``): its thinking AIs search under their node budgets, not on the clock
    (:data:`host.thinking.SEEDED_NODES`), so that the same seed and moves typed give the
    same game on any machine."""

    def __init__(
        self,
        seats: list[Seat],
        rng: random.Random,
        stdin: TextIO,
        stdout: TextIO,
        export: Path | None,
        stderr: TextIO | None = None,
        *,
        save: Path | None = None,
        resumed: Resumed | None = None,
        seeded: bool = False,
    ) -> None:
        self.seats = resumed.seats if resumed is not None else seats
        self.rng = rng
        # a resumed game seeded as it was saved (:meth:`HostedTable.resume`)
        self.seeded = resumed.table.seeded if resumed is not None else seeded
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = sys.stderr if stderr is None else stderr
        self.export = export
        # the file that keeps the game (``--save``): left, it is saved there, not abandoned
        self.save = save
        # the host's table (with a human seated); a resumed game's is open already
        self.table: HostedTable | None = resumed.table if resumed is not None else None
        self.resumed = resumed is not None
        self.quiet = False  # saying nothing (a resumed game's moves followed again)
        self.seen = 0  # the host's moves followed so far
        self.export_failed = False  # the record asked for could not be written
        self.stopped_by: int | None = None  # the stop signal that ended the game, if one did

    def run(self) -> int:
        """Play to the end; Ctrl-C, a stop signal (:data:`STOP_SIGNALS`) or the end of
        input abandon the game with one line, its record so far still written
        (``--export``). A record that cannot be written is said before the game (exit 2)
        when it can be known then, else after it (exit :data:`EXPORT_FAILED_EXIT` instead
        of 0)."""
        problem = export_problem(self.export)
        if problem is not None:
            self.fail(problem)
            if self.table is not None:
                self.table.close()
            return 2
        with self._stopping_as_ctrl_c():
            try:
                code = self._play()
            except KeyboardInterrupt as left:
                code = self._abandon(kept=isinstance(left, LeftStarted))
            except SaveFailed:
                code = self._save_failed()
            except OSError as err:
                if err.errno == errno.EPIPE:  # standard output's reader is gone (`| head`)
                    return self._reader_gone()
                if err.errno != errno.EIO:
                    raise
                # the terminal is gone (its window closed) and said so first: as its
                # SIGHUP does (ignored, or not delivered yet)
                self.stopped_by = self.stopped_by or getattr(signal, "SIGHUP", None)
                code = self._abandon()
        return EXPORT_FAILED_EXIT if self.export_failed and code == 0 else code

    def _abandon(self, *, kept: bool = False) -> int:
        """The game left by Ctrl-C or a stop signal: its line, its record (``--export``),
        the exit code. Its terminal gone (a window closed: writing to it fails), the line
        goes nowhere and the record is written still. ``kept``: the game is in its file
        (``--save``), though its table was not the front's yet."""
        try:
            self.stdout.write("\n" + self._left(self._why(CTRL_C), kept=kept) + "\n")
            self.stdout.flush()
        except OSError as err:
            if err.errno != errno.EIO:
                raise
            self._terminal_gone()
        self._write_export(interrupted=True)
        if self.table is not None:  # a stop signal may have broken its closing off
            self.table.close()
        return self._exit_code(CTRL_C)

    def _save_failed(self) -> int:
        """The save file failed under the game (damaged, cut short or overwritten while it
        was played, or no longer writable): one line says so on ``stderr``, and the game
        stops there (its record so far written, ``--export``); what the file held is left
        to it (nothing more is played into it)."""
        if self.table is not None:
            self.table.close()
        self.fail(catalog.t("terminal.save_failed", path=self.save))
        self._write_export(interrupted=True)
        return SAVE_FAILED_EXIT

    def _left(self, why: str, *, kept: bool = False) -> str:
        """The line that ends a game left before its end (``why``): abandoned, or, kept in
        a file (``--save``: its table open, or ``kept``), saved there to go on with later."""
        if self.save is not None and (self.table is not None or kept):
            command = catalog.t("terminal.save_command", path=shlex.quote(str(self.save)))
            return catalog.t("terminal.saved", why=str(why), path=self.save, command=command)
        return abandoned(why)

    def _follow(self) -> None:
        """Play the moves the host committed since on the terminal's table, saying each."""
        raise NotImplementedError

    def _catch_up(self) -> None:
        """A game resumed from its file: the moves played before it was saved followed
        again without a word, and one line says it goes on; then the turns its AI seats
        owe are played (a thinking AI's, left unplayed when the process stopped), to be
        followed and said as any AI turn (Ctrl-C meanwhile leaves the game saved)."""
        self.quiet = True
        try:
            self._follow()
        finally:
            self.quiet = False
        self._tell(catalog.t("terminal.resumed", path=self.save))
        assert self.table is not None
        self.table.play_owed()

    def _tell(self, text: str) -> None:
        """Say a line everyone at the table may read (the hot-seat front ends keep it, to
        say it again after the screen is cleared)."""
        self.say(text)

    def _reader_gone(self) -> int:
        """The reader of standard output went away: the game stops with nothing more said
        (there is no one to say it to), its record still written (``--export``), with the
        shell's status for a reader gone."""
        self._terminal_gone()
        self._write_export(interrupted=True)
        if self.table is not None:
            self.table.close()
        return BROKEN_PIPE_EXIT

    def _terminal_gone(self) -> None:
        """Standard output's terminal hung up: what is still to be written to it (and
        what Python flushes at exit) goes nowhere, rather than fail again."""
        with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
            nowhere = os.open(os.devnull, os.O_WRONLY)
            os.dup2(nowhere, self.stdout.fileno())
            os.close(nowhere)

    @contextlib.contextmanager
    def _stopping_as_ctrl_c(self) -> Iterator[None]:
        """A stop signal inside does what Ctrl-C does at that moment (whatever handles
        Ctrl-C then: the prompt, a move winding down, nothing while the table closes),
        noted in :attr:`stopped_by`. Before, it ended the process on the spot: no line, no
        record, and the table's SQLite files left in the temporary folder. A process whose
        Ctrl-C is not Python's own (ignored, as in a background job) keeps the signals'
        own ways, and a stop signal the process was started ignoring (``nohup``: SIGHUP)
        stays ignored."""
        if (
            threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        ):
            yield
            return

        def stop(signum: int, frame: FrameType | None) -> None:
            self.stopped_by = signum
            ctrl_c = signal.getsignal(signal.SIGINT)
            if callable(ctrl_c):
                ctrl_c(signal.SIGINT, frame)

        previous = {
            number: signal.signal(number, stop)
            for number in STOP_SIGNALS
            if signal.getsignal(number) is not signal.SIG_IGN
        }
        try:
            yield
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)

    def _why(self, ended: str) -> str:
        """Why the game ended, as :func:`abandoned` says it: a stop signal for Ctrl-C's."""
        return STOPPED if ended == CTRL_C and self.stopped_by is not None else ended

    def _exit_code(self, ended: str) -> int:
        """The exit code of a game abandoned because ``ended``: as a shell reports a
        process ended by Ctrl-C or by the stop signal, else 0."""
        if ended != CTRL_C:
            return 0
        return INTERRUPTED_EXIT if self.stopped_by is None else 128 + self.stopped_by

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
    ) -> Front:
        """The front end of the game ``resumed`` (kept in ``save``), its seats and rules
        as they were saved."""
        raise NotImplementedError

    def _play(self) -> int:
        raise NotImplementedError

    def fail(self, text: str) -> None:
        """Say on ``stderr`` why the game cannot start or its record was not written."""
        self.stdout.flush()  # what the game said comes first on a terminal showing both
        say_error(self.stderr, text)

    def say(self, text: str = "") -> None:
        """Write a line (the game's way: Stack's strips markdown from it)."""
        raise NotImplementedError

    def _record(self) -> dict[str, Any]:
        """The game's record as it stands (its game's ``export_record``)."""
        raise NotImplementedError

    def _replayed(self, record: dict[str, Any]) -> object:
        """``record`` replayed by its game (``RecordError`` if it is not a valid one)."""
        raise NotImplementedError

    def _write_export(self, *, interrupted: bool = False) -> None:
        """The record to ``--export``, if asked. After Ctrl-C, which may strike in the
        middle of a move, only a record its game replays is written."""
        if self.export is None:
            return
        try:
            record = self._record()
            if interrupted:
                self._replayed(record)
        except NoRecord:  # Color Stack ended or left before its board was set up
            self.fail(catalog.t("terminal.write.no_record", path=self.export))
            self.export_failed = True
            return
        except Exception:  # any way a move cut half-played fails to export or replay
            if not interrupted:
                raise
            self.fail(catalog.t("terminal.write.mid_move", path=self.export))
            self.export_failed = True
            return
        if not write_record(self.export, record, self.say, self.fail):
            self.export_failed = True

    def _is_ai(self, seat: int) -> bool:
        return self.seats[seat].level is not None

    def _made_ai(self, game: Game[Any], level: str) -> Any:
        """The AI of ``level`` that plays in the terminal itself (AI seats only): a
        searching one limited to its node budget when the game is seeded."""
        nodes = SEEDED_NODES.get(game.name) if self.seeded else None
        return limit_search(game.make_ai(level), None, nodes)


class TerminalGame(Front):
    """One game of any game at a terminal; :meth:`run` returns the process exit code."""

    def __init__(
        self,
        game: Game[Any],
        seats: list[Seat],
        settings: BaseModel,
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
        names = (
            [s.name for s in resumed.seats]
            if resumed is not None
            else list(game.seat_order([s.name for s in seats], settings))
        )
        by_name = {s.name: s for s in seats}
        ordered = [by_name[name] for name in names] if resumed is None else seats
        super().__init__(
            ordered, rng, stdin, stdout, export, stderr, save=save, resumed=resumed, seeded=seeded
        )
        self.game = game
        self.settings = settings
        # the table as the terminal follows it (the host's committed moves played on it)
        self.state = resumed.state if resumed is not None else game.new_state(names, settings)
        self.humans = [i for i, s in enumerate(self.seats) if s.level is None]
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        # public lines since the last hand-over: what the player handed to has not seen
        self.since: list[str] = []
        self.words = ""  # the words of the player's move being played
        self.said = game_words.words(game.name)  # the game's words, in the language spoken

    def say(self, text: str = "") -> None:
        if self.quiet:
            return
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def _play(self) -> int:
        if not self.humans:  # AI seats only: played out here, by the table loop
            self._tell(start_line(self.said.title(), self.state.players))
            flow.advance(self.game, self.state, self.rng, self._ai, on_step=self._said)
            self._finish()
            return 0
        if self.table is None:
            try:
                self.table, self.seats, self.state = open_table(
                    self.game, self.seats, self.settings, self.rng, self.save, seeded=self.seeded
                )
            except Refusal as refusal:  # the host would not seat these players
                self.fail(refusal_text(refusal))
                return 2
            except NotASave as err:  # the save is another terminal's, or unreadable
                self.fail(str(err))
                return 2
        try:
            return self._play_hosted()
        finally:
            self.table.close()

    def _play_hosted(self) -> int:
        self._tell(start_line(self.said.title(), self.state.players))
        if self.resumed:
            self._catch_up()
        while True:
            self._follow()  # chance outcomes, forced moves and AI seats, as the host played them
            state = self.state
            if state.is_over:
                self._finish()
                return 0
            seat = state.current_player
            assert seat is not None
            ended = self._human_turn(seat)
            if ended is not None:
                self.say(self._left(self._why(ended)))
                self._write_export()
                return self._exit_code(ended)

    def _follow(self) -> None:
        """Play the moves the host committed since on the terminal's table, saying each."""
        assert self.table is not None
        for move in self.table.moves_since(self.seen):
            state, game = self.state, self.game
            if state.decision is not Decision.CHANCE and state.current_player is not None:
                self.words = self.said.move_words(state, move)
            self._said(replayed(game, state, move, self._is_ai))
            self.seen += 1

    def _ai(self, seat: int) -> flow.Chooser | None:
        """The chooser of an AI seat (``None`` for a human's): it notes the chosen move's
        words, read before the move changes the table."""
        level = self.seats[seat].level
        if level is None:
            return None
        choose = self._made_ai(self.game, level).choose

        def chooser(state: Any, rng: random.Random) -> Any:
            move = choose(state, rng)
            self.words = self.said.move_words(state, move)
            return move

        return chooser

    def _said(self, step: flow.Played) -> None:
        """Say what a move the table played led to. A player's choice that ends no turn
        (Stack Up!'s direction) is said as the player's choice."""
        state, seat, events = self.state, step.seat, step.events
        before_turns = self.game.before_turns(step.move)  # Color Stack's colours
        if (
            step.by in (flow.By.AI, flow.By.PLAYER)
            and seat is not None
            and (before_turns or state.decision is Decision.TURN)
            and (before_turns or state.current_player == seat)
            and not any(isinstance(e, TurnEnded) for e in events)
        ):
            self._tell(
                catalog.t(
                    "terminal.line.chose",
                    player=catalog.isolate(state.players[seat]),
                    move=self.words,
                )
            )
        for event in events:
            if isinstance(event, TurnEnded):
                self._tell(self.said.turn_words(state, event))
            elif isinstance(event, GameEnded):
                self._tell("\n=== " + catalog.t("terminal.game_over"))

    def _tell(self, text: str) -> None:
        """Say a public line, kept to be said again after the screen is cleared (not the
        moves a resumed game follows again without a word: :meth:`_catch_up`)."""
        self.say(text)
        if not self.quiet:
            self.since.append(text)

    def _show(self, seat: int) -> str | None:
        """Show the table as ``seat`` may see it; ``None``, or why the game ends. With
        several humans at one keyboard, a hand that is not the last one shown waits behind
        a cleared screen: the others are asked to look away, the player presses Enter, the
        screen is cleared again and only then is the hand shown, below what happened since
        the last hand-over (all of it: the last player's turns in a row, a Freeze that
        skipped this one, too)."""
        hot_seat = len(self.humans) > 1 and self.game.name in HOT_SEAT_SHOWS
        if self.viewer != seat and hot_seat:
            name = catalog.isolate(self.state.players[seat])
            clear_screen(self.stdout)  # the hand shown last leaves the screen
            forget_typed_lines(self.stdin, self.stdout)  # and what was typed at it
            self._recap()
            self.say(catalog.t("terminal.look_away", player=name))
            try:
                line = read_line(
                    self.stdin, self.stdout, catalog.t(self._press_enter_key(), player=name)
                )
            except KeyboardInterrupt:
                self.say()
                return CTRL_C
            if not line:
                self.say()
                return END_OF_INPUT
            if line.strip().lower() in ("quit", "exit"):
                return YOU_QUIT
            clear_screen(self.stdout)
            self._recap()
            if line.strip():  # typed before the hand was shown: not played
                self.say(catalog.t("terminal.line.enter_only", typed=cut(line.strip())))
        if self.viewer != seat or not hot_seat:  # said again once: now seen
            self.since.clear()
        self.viewer = seat
        self.say(self.said.render_text(self.state, seat))
        return None

    def _press_enter_key(self) -> str:
        """The hot-seat prompt's key: what the game shows behind it (a hand)."""
        return f"terminal.line.press_enter.{HOT_SEAT_SHOWS[self.game.name]}"

    def _recap(self) -> None:
        for text in self.since:
            self.say(text)

    def _human_turn(self, seat: int) -> str | None:
        """Read commands until the human has moved (``None``), or why the game ends."""
        state = self.state
        ended = self._show(seat)
        if ended is not None:
            return ended
        while True:
            line, ended = read_command(self.stdin, self.stdout, state.players[seat])
            if ended is not None:
                return ended
            command = line.strip().lower()
            if command in ("help", "?"):
                self.say(self.said.rules_text())
                self.say(commands_text())
                continue
            if command in ("show", "table"):
                self.say(self.said.render_text(state, seat))
                continue
            assert self.table is not None
            name = self._resigning(line)
            if name is not None:  # a human resigning, whoever is to move
                line = "resign"
            if play_line(self.table, name or state.players[seat], line, self.say):
                return None

    def _resigning(self, line: str) -> str | None:
        """The other human at this keyboard that ``resign NAME`` names (a game whose rule
        book lets a player resign whoever is to move: they need not wait for their turn at
        a shared keyboard), or None."""
        head, _, rest = line.strip().lstrip("/").partition(" ")
        wanted = rest.strip().strip(catalog.FSI + catalog.PDI).casefold()  # a copied name
        if head.lower() != "resign" or not wanted:
            return None
        names: list[str] = [self.state.players[seat] for seat in self.humans]
        return next((name for name in names if name.casefold() == wanted), None)

    def _finish(self) -> None:
        state = self.state
        self.say(self.said.render_text(state, None))
        outcome = state.outcome()
        assert outcome is not None
        if outcome.winners:
            winners = names_line([state.players[s] for s in outcome.winners])
            self.say(catalog.t("terminal.line.winner", winners=winners))
        else:
            ended_by = outcome.ended_by
            why = catalog.t(DRAW_WORDS[ended_by]) if ended_by in DRAW_WORDS else str(ended_by)
            self.say(catalog.t("terminal.draw", why=why))
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
        assert resumed.table.rules is not None  # (read as it was resumed)
        game = games.get(resumed.table.game)
        return cls(
            game,
            resumed.seats,
            resumed.table.rules,
            rng,
            stdin,
            stdout,
            export,
            stderr,
            save=save,
            resumed=resumed,
        )

    def _record(self) -> dict[str, Any]:
        return self.game.export_record(self.state)

    def _replayed(self, record: dict[str, Any]) -> object:
        return self.game.replay_record(record)


def play(
    humans: list[str],
    bots: int,
    *,
    seed: int | None,
    level: str,
    stdin: TextIO,
    stdout: TextIO,
    export: Path | None = None,
    game: str = games.DEFAULT,
    rules: Any = None,
    settings: dict[str, Any] | None = None,
    stderr: TextIO | None = None,
    save: Path | None = None,
) -> int:
    """Play one game of ``game``; returns the exit code (2 when the table cannot be set
    up, said on ``stderr``: ``sys.stderr`` unless given). Stack takes its ``rules``
    (:class:`~engine.stack.rules.StackRules`); other games take ``settings``, their table
    options by key. ``save``: the file that keeps the game, to go on with it later
    (:func:`resume`)."""
    errors = sys.stderr if stderr is None else stderr
    own = OWN_TERMINAL.get(game)
    if own is not None:
        front: Any = importlib.import_module(own)
        kwargs: dict[str, Any] = {} if rules is None else {"rules": rules}
        code: int = front.play(
            humans,
            bots,
            seed=seed,
            level=level,
            stdin=stdin,
            stdout=stdout,
            export=export,
            stderr=errors,
            save=save,
            **kwargs,
        )
        return code
    try:
        chosen = games.get(game)
        options = chosen.settings.model_validate(settings or {})
        seats = build_seats(humans, bots, level)
        rng = random.Random(seed)
        terminal = TerminalGame(
            chosen,
            seats,
            options,
            rng,
            stdin,
            stdout,
            export,
            errors,
            save=save,
            seeded=seed is not None,
        )
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"]) or "option"
        say_error(errors, bad_option_text(where, first["input"], first, quoted=True))
        return 2
    except SetupError as err:
        say_error(errors, setup_error_text(err, count=len(humans) + bots))
        return 2
    except ValueError as err:
        say_error(errors, _first_line(err))
        return 2
    return terminal.run()


def _first_line(err: Exception) -> str:
    lines = str(err).strip().splitlines()
    return lines[0] if lines else type(err).__name__


def resume(
    resumed: Resumed,
    *,
    save: Path,
    stdin: TextIO,
    stdout: TextIO,
    export: Path | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Go on with the game in play that ``save`` kept (:func:`resume_saved`): its game,
    seats and rules as they were, at its game's front end (Stack's own, or
    :class:`TerminalGame`); returns the exit code."""
    own = OWN_TERMINAL.get(resumed.table.game)
    front: type[Front] = TerminalGame if own is None else importlib.import_module(own).TerminalGame
    terminal = front.resuming(resumed, random.Random(), stdin, stdout, export, stderr, save=save)
    return terminal.run()

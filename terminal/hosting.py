"""A table of the terminal's, on the host: the host's service over a SQLite store of its own.

:class:`HostedTable` opens a table on :class:`host.service.TableService` — the host the
Discord bot runs — over a store in a temporary file (storage refuses an in-memory SQLite
database: its connections would each see another one), seats the players through the
host's lobby (``new_table``, ``join``, ``add_ai``, ``start``), and plays each typed move
with ``move``: the host checks it, plays it and what follows it (chance, forced moves, the
AI seats' turns, a thinking level's through ``play_owed``), commits it, or refuses it with
a code (:mod:`terminal.words` says it). The terminal follows the table move by move as the
host logged it (:meth:`HostedTable.moves_since`), and says each in its own words.

The terminal is synchronous (it reads lines); each request runs on an event loop of its
own (:class:`asyncio.Runner`) that lives as long as the table. Its words are the catalog's,
in the language it was started in (``stackbot play --lang``), a game's its own
(:func:`catalog.games.words`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import tempfile
import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel
from sqlalchemy import make_url

try:  # an advisory lock on a save file (POSIX); elsewhere a save is not held
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

import catalog
from catalog import games as game_words
from engine import flow, games
from engine.errors import AmbiguousMoveError
from engine.game import Decision, Game, GameState, RoundEnded, TurnEnded
from host.live import LiveTable, MoveOutcome, Player
from host.refusals import Refusal, Why
from host.service import TableService
from host.thinking import Thinker
from host.words import Notice
from persistence import Store
from persistence.errors import StorageError
from persistence.records import MoveResult, TableInfo
from persistence.savefile import keep_draws, kept_draws, store_failed, stored_version
from terminal.words import NOTICES, isolate_names

T = TypeVar("T")
GUILD = CHANNEL = 1  # the terminal's one table, in its one "channel"
THINKING_MARGIN = 60.0  # seconds a thinking AI may overrun (a loaded machine) before its hint


class TerminalHostedGame:
    """An engine game as the terminal hosts it: the words the host commits with a step
    (the terminal says what happened from the moves themselves, as it follows the table)."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.words = game_words.words(game.name)

    @property
    def title(self) -> str:
        """The game's name, in the language spoken."""
        return self.words.title()

    def settings_of(self, values: Mapping[str, Any]) -> BaseModel:
        return self.game.settings.model_validate(dict(values))

    def start_text(self, state: Any) -> str:
        players = catalog.t("list.comma").join(catalog.isolate(p) for p in state.players)
        return catalog.t("terminal.start", title=self.title, players=players)

    def decision_text(self, state: Any, seat: int, move: Any) -> str | None:
        return None

    def turn_text(self, state: Any, event: TurnEnded) -> str:
        return self.words.turn_words(state, event)

    def round_text(self, state: Any, event: RoundEnded) -> str | None:
        return catalog.t("terminal.round_over", round=event.round_no)

    def game_end_texts(self, state: Any) -> list[str]:
        return [catalog.t("terminal.game_over")]

    def move_label(self, state: Any, move: Any) -> str:
        return self.words.move_words(state, move)

    def chooser_text(self, state: Any, error: AmbiguousMoveError) -> str:
        return self.words.error_text(error)

    def hint_text(self, state: Any) -> str:
        return self.words.hint(state)[1]


class TerminalFront:
    """The terminal as the host's front end (:class:`host.words.FrontEnd`)."""

    @property
    def default_game(self) -> str:
        return games.DEFAULT

    def game_names(self) -> tuple[str, ...]:
        return tuple(games.names())

    def game(self, name: str) -> TerminalHostedGame:
        return TerminalHostedGame(games.get(name))

    def turn_line(self, words: str, *, automatic: bool) -> str:
        return catalog.t("terminal.automatic", move=words) if automatic else words

    def notice(self, notice: Notice, data: Mapping[str, Any]) -> str:
        return NOTICES[notice](data)

    def plain(self, line: str) -> str:
        return line  # the terminal writes plain text

    def speaking(self, info: TableInfo) -> AbstractContextManager[object]:
        """The terminal speaks one language, the one it was started in (``--lang``):
        whatever is current where the table is played."""
        return catalog.speaking(catalog.current())


TERMINAL = TerminalFront()


def sqlite_url(path: Path) -> str | None:
    """The store URL of the SQLite file ``path`` (made absolute: ``:memory:`` is a file
    name here); ``None`` when no URL reads back as that file (a name holding ``?`` or
    ``%``: read as a query, or decoded)."""
    url = f"sqlite+aiosqlite:///{path.resolve()}"
    return (
        url if make_url(url).database == str(path.resolve()) and not make_url(url).query else None
    )


class SaveInUse(Exception):
    """Another process plays the game saved in this file (its path)."""


class SaveUnreadable(Exception):
    """The save file cannot be used by this stackbot (a newer one wrote it, or its schema
    was left half made): the store's reason."""


class SaveFailed(Exception):
    """The save file failed under the game (damaged, cut short or overwritten while it was
    played, or no longer writable): the game cannot go on in it (its path)."""


class SaveStore(Store):
    """The host's store over a save file: with each step of moves it stores (a game's
    opening, a move and what followed it), :attr:`committed` is told the table, its version
    now, and its random source's state as that step left it (taken before the step is
    stored: nothing draws meanwhile). A store wound down while it stored a step (Ctrl-C)
    notes the step in :attr:`pending` instead: it may have been stored."""

    committed: Callable[[int, int, Any], None] | None = None
    draws: Callable[[], Any] | None = None  # the random source's state now (None: none)
    pending: tuple[int, Any] | None = None

    async def record_move(self, table_id: int, *args: Any, **kwargs: Any) -> MoveResult:
        result, state = await self._storing(
            table_id, super().record_move(table_id, *args, **kwargs)
        )
        if not result.duplicate:
            self._committed(table_id, result.version, state)
        return result

    async def start_table(self, table_id: int, *args: Any, **kwargs: Any) -> TableInfo:
        info, state = await self._storing(table_id, super().start_table(table_id, *args, **kwargs))
        self._committed(table_id, info.version, state)
        return info

    async def _storing(self, table_id: int, step: Coroutine[Any, Any, T]) -> tuple[T, Any]:
        """Store ``step`` (not started yet) of the table ``table_id``; with it, the random
        source's state taken before it runs. Wound down as it stored (cancelled), the step
        is noted in :attr:`pending`: stored, or not."""
        state = None if self.draws is None else self.draws()
        try:
            return await step, state
        except BaseException as err:
            if not isinstance(err, Exception):
                self.pending = (table_id, state)
            raise

    def _committed(self, table_id: int, version: int, state: Any) -> None:
        self.pending = None
        if self.committed is not None and state is not None:
            self.committed(table_id, version, state)


class HostedTable:
    """One table of ``game`` on a host of its own; :meth:`close` when done."""

    def __init__(self, game: str, save: Path | None = None) -> None:
        self.game = game
        self.runner = asyncio.Runner()
        # the store: the file ``save`` (``stackbot play --save``: kept, to go on with the
        # game later), else a file in a temporary folder, removed at the end
        self.save = save
        self.folder = (
            None if save is not None else tempfile.TemporaryDirectory(prefix="stackbot-play-")
        )
        self.store: Store | None = None
        self.service: TableService[TerminalHostedGame] | None = None
        self.live: LiveTable[TerminalHostedGame] | None = None
        self.players: dict[str, Player] = {}  # the humans, by name
        self.rules: BaseModel | None = None  # a resumed game's rules (:meth:`resume`)
        self._held: int | None = None  # the save file, held while the game is played
        # the table's random source (its chance outcomes, its AI seats' choices); the
        # version the save file last kept its state at (:meth:`_keep_draws`), and how
        # keeping it failed
        self.rng: random.Random | None = None
        self._kept: int | None = None
        self._draws_failed: Exception | None = None

    @property
    def started(self) -> bool:
        """Whether the table's game has started: it is in its store (with ``save``, in
        the file, to go on with), even if what the host did next was broken off."""
        live = None if self.service is None else self.service.by_channel.get(CHANNEL)
        return live is not None and live.state is not None

    def _run(self, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """Run ``work`` on the table's loop (:meth:`_run_on_loop`). A save file failing
        under it — storage's error, or its refusal of a move it could not store — raises
        :class:`SaveFailed`: the game cannot go on in that file."""
        try:
            try:
                result = self._run_on_loop(work)
            except Refusal as refusal:
                if self.save is not None and refusal.code is Why.NOT_SAVED:
                    raise SaveFailed(str(self.save)) from refusal
                raise
            except KeyboardInterrupt:  # wound down: a step it was storing may be stored
                self._keep_pending()
                raise
            finally:
                if self._draws_failed is not None:
                    raise SaveFailed(str(self.save)) from self._draws_failed
            return result
        except (SaveInUse, SaveUnreadable, SaveFailed, Refusal):
            raise
        except Exception as err:
            if self.save is not None and store_failed(err):
                raise SaveFailed(str(self.save)) from err
            raise

    def _keep_draws(self, table_id: int, version: int, state: Any) -> None:
        """Keep in the save file the state of the table's random source as a step of its
        moves left it, with the step (:class:`SaveStore`): a game taken up again draws on
        from there (:meth:`_resume`), as it would have played straight through (the same
        ``--seed``, the same game), however it was left, even as an AI thought (its draws
        for its search not kept: it searches again). A file that fails meanwhile stops the
        game once its request wound down (:class:`SaveFailed`)."""
        if self.save is None or self._draws_failed is not None:
            return
        try:
            keep_draws(self.save, table_id, version, state)
        except Exception as err:  # (the move is stored: the host is left to its table)
            self._draws_failed = err
            return
        self._kept = version

    def _keep_pending(self) -> None:
        """A request wound down (Ctrl-C) while a step was being stored: if it was stored
        (the file's version of the table is past the one kept), its draws are kept too."""
        store = self.store
        if self.save is None or not isinstance(store, SaveStore) or store.pending is None:
            return
        table_id, state = store.pending
        store.pending = None
        with contextlib.suppress(Exception):  # (left: a resume then draws anew)
            version = stored_version(self.save, table_id)
            if state is not None and version is not None and version != self._kept:
                self._keep_draws(table_id, version, state)

    def _run_on_loop(self, work: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """Run ``work`` on the table's loop. Ctrl-C cancels it, as :class:`asyncio.Runner`
        does, and :class:`KeyboardInterrupt` is raised once it has wound down (a rollback,
        the store's connection); a Ctrl-C pressed again meanwhile (an impatient player
        while an AI thinks) breaks nothing off midway, which printed the store's
        tracebacks under the game."""
        if not _owns_ctrl_c():
            return self.runner.run(work())
        running: list[asyncio.Task[Any]] = []
        pressed = False

        async def main() -> T:
            task = asyncio.current_task()
            assert task is not None
            running.append(task)
            return await work()

        def on_ctrl_c(signum: int, frame: object) -> None:
            nonlocal pressed
            if not running:  # nothing started yet: nothing to wind down
                raise KeyboardInterrupt
            if not pressed:
                running[0].cancel()
                running[0].get_loop().call_soon_threadsafe(lambda: None)  # wake the loop
            pressed = True

        previous = signal.signal(signal.SIGINT, on_ctrl_c)
        try:
            result = self.runner.run(main())
        except asyncio.CancelledError:
            if pressed:
                raise KeyboardInterrupt from None
            raise
        finally:
            signal.signal(signal.SIGINT, previous)
        if pressed:  # pressed as the work ended: the player leaves all the same
            raise KeyboardInterrupt
        return result

    def open(
        self,
        humans: list[str],
        levels: list[str],
        options: Mapping[str, Any],
        rng: random.Random,
    ) -> GameState[Any]:
        """Seat ``humans`` (the first opens the table and hosts it) and one AI seat per
        level of ``levels`` through the host's lobby, and start; ``rng`` draws the table's
        chance outcomes and its AI seats' choices. Returns the game as it starts, before
        its opening (the chance outcomes the host played at once): follow it with
        :meth:`moves_since`. Raises :class:`~host.refusals.Refusal`."""
        self.players = {name: Player(i + 1, name) for i, name in enumerate(humans)}
        return self._run(lambda: self._open(humans, levels, dict(options), rng))

    async def _open(
        self, humans: list[str], levels: list[str], options: dict[str, Any], rng: random.Random
    ) -> GameState[Any]:
        service = await self._service()
        host, *others = (self.players[name] for name in humans)
        live = await service.new_table(GUILD, CHANNEL, host, options, game=self.game)
        live.rng = self.rng = rng  # the same seed, the same game
        for player in others:
            await service.join(CHANNEL, player)
        for level in levels:
            await service.add_ai(CHANNEL, host, level)
        started = await service.start(CHANNEL, host)
        self.live = started.table
        await self._owed(started)
        state = self.live.state
        assert state is not None
        game = self.live.game.game
        begun: GameState[Any] = game.new_state(
            list(state.players), await service.rules_of(self.live.info)
        )
        return begun

    async def _service(self) -> TableService[TerminalHostedGame]:
        """The host, over the table's store (opened, its schema brought up to date); a
        save file is held first, by this process alone (:class:`SaveInUse`)."""
        if self.folder is None:
            assert self.save is not None
            self._hold(self.save)
            path = self.save
        else:
            path = Path(self.folder.name) / "play.db"
        url = sqlite_url(path)
        if url is None:
            raise SaveUnreadable(str(path))  # (said before the game: :func:`save_problem`)
        try:
            self.store = store = await SaveStore.open(url)
        except StorageError as err:  # written by a newer stackbot, or a schema half made
            raise SaveUnreadable(str(err)) from err
        if self.save is not None:  # the draws kept with each step stored
            assert isinstance(store, SaveStore)
            store.committed = self._keep_draws
            store.draws = lambda: None if self.rng is None else self.rng.getstate()
        thinker = Thinker("thread", margin=THINKING_MARGIN)
        self.service = TableService(store, front=TERMINAL, thinker=thinker)
        return self.service

    def _hold(self, path: Path) -> None:
        """Hold ``path`` for this process until :meth:`close` (an advisory lock of the
        file's own, which SQLite's locks leave alone): two terminals playing one save would
        each refuse the other's moves."""
        if fcntl is None:  # (no such lock here: nothing is held)
            return
        self._held = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            os.close(self._held)
            self._held = None
            raise SaveInUse(str(path)) from err

    def resume(self) -> GameState[Any] | None:
        """The game in play saved in the table's file (``--save``), taken up again: its
        game, seats and rules as they were (the turns its AI seats owe are played by
        :meth:`play_owed`, once the terminal has said it goes on). Returns the game as it
        started (follow it with :meth:`moves_since`), or ``None`` when the file holds no
        game in play (a new one may be saved there)."""
        return self._run(self._resume)

    async def _resume(self) -> GameState[Any] | None:
        service = await self._service()
        # loaded as a process adopting tables does: its AI turns owed not played yet
        await service.load(lazy=True)
        live = service.by_channel.get(CHANNEL)
        if live is None:
            return None
        try:
            state = live.state
        except Exception:  # its game does not read back: closed, as the bot closes it
            await service.ready(live)
            return None
        if state is None and live.info.is_active:  # a game stopped as it was set up
            host = Player(live.info.host_id, "")
            await service.end(CHANNEL, host, manager=True)
            return None
        if state is None or not live.info.is_active:
            return None
        self.live = live
        assert self.save is not None
        try:
            kept = kept_draws(self.save, live.id)
            if kept is not None and kept[0] == live.version:  # drawn on from where it was
                version, (inner, words, gauss) = kept
                rng = random.Random()
                rng.setstate((inner, tuple(words), gauss))
                live.rng = rng
                self._kept = version
        except (ValueError, TypeError) as err:  # a row no stackbot wrote: the file damaged
            raise SaveFailed(str(self.save)) from err
        # else a source of its own (a save of an earlier stackbot, or of a process
        # killed before it kept its last draws)
        self.rng = live.rng
        self.game = live.info.game
        self.players = {
            seat.name: Player(seat.user_id, seat.name)
            for seat in live.info.seats
            if not seat.is_ai and seat.user_id is not None
        }
        game = live.game.game
        self.rules = await service.rules_of(live.info)
        begun: GameState[Any] = game.new_state(list(state.players), self.rules)
        return begun

    def play_owed(self) -> None:
        """The turns a resumed game's AI seats owe (a thinking AI's, its process stopped
        while it thought), played as the bot plays them: follow them with
        :meth:`moves_since`."""

        async def owed() -> None:
            assert self.service is not None and self.live is not None
            await self.service.catch_up(self.live)

        self._run(owed)

    def seats(self) -> list[tuple[str, str | None]]:
        """Each seat in play order: its player's name, and its AI level (``None``: human)."""
        assert self.live is not None
        return [(s.name, s.ai_level) for s in self.live.info.seats]

    def move(self, name: str, text: str) -> str | None:
        """Play the move ``name`` typed (and the AI seats' answers): ``None``, or the
        question a move that may be meant several ways asks. Raises
        :class:`~host.refusals.Refusal` (nothing played)."""
        player = self.players[name]

        async def move() -> str | None:
            assert self.service is not None
            outcome = await self.service.move(CHANNEL, player, text=text)
            chooser = outcome.chooser
            if chooser is not None:  # worded here, in the language the terminal speaks
                game: TerminalHostedGame = outcome.table.game
                return game.chooser_text(chooser.state, chooser.error)
            await self._owed(outcome)
            return None

        return self._run(move)

    async def _owed(self, outcome: MoveOutcome) -> None:
        """The turns AI seats of a thinking level owe, played as the bot plays them."""
        assert self.service is not None
        live = outcome.table
        while outcome.ai_owed or (outcome.game_over is False and _ai_to_act(live)):
            owed = await self.service.play_owed(live.id, live.version)
            if owed is None:
                return
            outcome = owed

    def hint(self, name: str) -> str:
        """The hint the host gives ``name`` (or its refusal), in the game's words in the
        language spoken."""

        async def hint() -> str:
            assert self.service is not None and self.live is not None
            await self.service.hint(CHANNEL, self.players[name])  # refused, or the turn is theirs
            state = self.live.state
            assert state is not None
            return isolate_names(self.live.game.words.hint(state)[1], state.players)

        return self._run(hint)

    def moves_since(self, seen: int) -> list[Any]:
        """The moves the host committed after the first ``seen`` (its opening's too)."""

        async def logged() -> list[Any]:
            assert self.store is not None and self.live is not None
            return await self.store.logged_moves(self.live.id, seen)

        return self._run(logged)

    def close(self) -> None:
        """Close the store and the event loop (waiting for an AI still thinking in its
        thread), and remove the store's file. The game is over or left: Ctrl-C pressed
        meanwhile is ignored, so it breaks none of this off with tracebacks."""
        with _ctrl_c_ignored():
            with contextlib.suppress(Exception):
                if self.store is not None:
                    store = self.store
                    self.store = None
                    self.runner.run(store.close())
            with contextlib.suppress(Exception):
                self.runner.close()
            if self.folder is not None:
                self.folder.cleanup()
            if self._held is not None:  # the save let go (its lock with it)
                os.close(self._held)
                self._held = None


def _owns_ctrl_c() -> bool:
    """Whether Ctrl-C is Python's own KeyboardInterrupt here (the main thread, no handler
    set by someone else): only then does the table handle it."""
    return (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Ctrl-C does nothing inside (where Python's own KeyboardInterrupt would)."""
    if not _owns_ctrl_c():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _ai_to_act(live: LiveTable[Any]) -> bool:
    state = live.state
    if state is None or state.is_over or state.current_player is None:
        return False
    return live.info.is_active and live.info.seats[state.current_player].is_ai


def replayed(
    game: Game[Any], state: GameState[Any], move: Any, is_ai: Callable[[int], bool]
) -> flow.Played:
    """Apply a move the host committed to the terminal's copy of the table, and say how
    it came to be played, as the table loop (:mod:`engine.flow`) says it."""
    if state.decision is Decision.CHANCE:
        return flow.Played(None, move, state.apply(move), flow.By.CHANCE)
    seat = state.current_player
    forced = game.forced_moves and game.automatic(state) == move
    if forced:
        by = flow.By.FORCED
    elif seat is not None and is_ai(seat):
        by = flow.By.AI
    else:
        by = flow.By.PLAYER
    return flow.Played(seat, move, state.apply(move), by)


__all__ = [
    "TERMINAL",
    "HostedTable",
    "Refusal",
    "SaveFailed",
    "TerminalFront",
    "TerminalHostedGame",
    "replayed",
]

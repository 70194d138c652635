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
import json
import os
import random
import re
import signal
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel
from sqlalchemy import event, make_url

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
from host.thinking import SEEDED_NODES, Thinker
from host.words import Notice
from persistence import Store
from persistence.errors import StorageError
from persistence.records import MoveResult, TableInfo
from persistence.savefile import (
    DRAWS_SCHEMA,
    SEEDED_KEEP,
    SEEDED_SCHEMA,
    keep_staged_draws,
    kept_draws,
    kept_seeded,
    store_failed,
    stored_version,
)
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
        """The hint, its move as typed without the code marks the catalog quotes it in
        (plain text on a terminal: a move copied off the screen is played as it stands)."""
        move, text = self.words.hint(state)
        typed = self.game.move_notation(state, move)
        # quoted as typed, or with its names isolated (a right-to-left one: FSI … PDI)
        marks = "[\u2066-\u2069]*"
        quoted = "`(" + marks + marks.join(map(re.escape, typed)) + marks + ")`"
        return re.sub(quoted, lambda found: found[1], text, count=1)


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
    """The host's store over a save file, which keeps with each step of moves it stores (a
    game's opening, a move and what followed it) the state of its table's random source as
    that step left it (taken before the step is stored: nothing draws meanwhile), in the
    step's own transaction: a step is in the file with its draws, or neither is, however
    the process ends (killed outright as it commits included). The state of ``draws()``
    is staged for the table while its step is stored; a trigger of this process's
    connections (:func:`~persistence.savefile.keep_staged_draws`: nothing of it is in the
    file) writes it as the step's statement moves the table's version, in the rows a save
    has always kept them in. Once a step is stored, :attr:`committed` is told the table and
    its version now."""

    draws: Callable[[], Any] | None = None  # the random source's state now (None: none)
    committed: Callable[[int, int], None] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._staged: dict[int, str] = {}  # the draws each table's step is stored with

    @classmethod
    async def open(
        cls, url: str | None = None, *, application_name: str | None = None, **options: Any
    ) -> Store:
        store = await super().open(url, application_name=application_name, **options)
        assert isinstance(store, SaveStore)
        await store._keeping_draws()
        return store

    async def _keeping_draws(self) -> None:
        """The draws' table and the seeded games' made (a save of an earlier stackbot has
        neither), and every connection of the store opened from now on given the trigger
        that keeps the draws (the connections opened meanwhile, to bring the schema up to
        date, are closed)."""
        async with self.engine.begin() as conn:
            await conn.exec_driver_sql(DRAWS_SCHEMA)
            await conn.exec_driver_sql(SEEDED_SCHEMA)
        event.listen(self.engine.sync_engine, "connect", self._connected)
        await self.engine.dispose()

    async def keep_seeded(self, table_id: int, seeded: bool) -> None:
        """Keep whether the game of the table ``table_id`` is seeded (its thinking AIs on
        node budgets), for the game taken up again to think as it did
        (:func:`~persistence.savefile.kept_seeded`)."""
        async with self.engine.begin() as conn:
            await conn.exec_driver_sql(SEEDED_KEEP, (table_id, int(seeded)))

    def _connected(self, dbapi_connection: Any, _record: Any) -> None:
        keep_staged_draws(dbapi_connection, self._staged.get)

    async def record_move(self, table_id: int, *args: Any, **kwargs: Any) -> MoveResult:
        result = await self._storing(table_id, super().record_move(table_id, *args, **kwargs))
        if not result.duplicate and self.committed is not None:
            self.committed(table_id, result.version)
        return result

    async def start_table(self, table_id: int, *args: Any, **kwargs: Any) -> TableInfo:
        info = await self._storing(table_id, super().start_table(table_id, *args, **kwargs))
        if self.committed is not None:
            self.committed(table_id, info.version)
        return info

    async def _storing(self, table_id: int, step: Coroutine[Any, Any, T]) -> T:
        """Store ``step`` (not started yet) of the table ``table_id``, the random source's
        state taken before it runs staged for its transaction. Wound down as it stored
        (Ctrl-C: cancelled), the step is left staged: its write may still be committed
        (the writer's, as the store closes), and then with its draws."""
        state = None if self.draws is None else self.draws()
        if state is None:
            return await step
        self._staged[table_id] = json.dumps(state)
        try:
            result = await step
        except Exception:  # not stored
            self._staged.pop(table_id, None)
            raise
        self._staged.pop(table_id, None)
        return result


class HostedTable:
    """One table of ``game`` on a host of its own; :meth:`close` when done. ``seeded``:
    its thinking AIs search under their node budgets (:data:`host.thinking.SEEDED_NODES`),
    not on the clock: the same seed and moves give the same game on any machine. A game
    taken up again (:meth:`resume`) thinks as its save says it did."""

    def __init__(self, game: str, save: Path | None = None, *, seeded: bool = False) -> None:
        self.game = game
        self.seeded = seeded
        self.runner = asyncio.Runner()
        # the store: the file ``save`` (``stackbot play --save``: kept, to go on with the
        # game later), else a file in a temporary folder, removed at the end
        self.save = save
        self.folder = (
            None if save is not None else tempfile.TemporaryDirectory(prefix="stackbot-play-")
        )
        self.store: Store | None = None
        self.thinker = Thinker("thread", margin=THINKING_MARGIN)
        self._think_seeded()
        self.service: TableService[TerminalHostedGame] | None = None
        self.live: LiveTable[TerminalHostedGame] | None = None
        self.players: dict[str, Player] = {}  # the humans, by name
        self.rules: BaseModel | None = None  # a resumed game's rules (:meth:`resume`)
        self._held: int | None = None  # the save file, held while the game is played
        # the table's random source (its chance outcomes, its AI seats' choices), kept in
        # the save with each step (:class:`SaveStore`); how the file failed the check of a
        # step stored (:meth:`_check_stored`)
        self.rng: random.Random | None = None
        self._save_failed: Exception | None = None

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
            finally:
                if self._save_failed is not None:
                    raise SaveFailed(str(self.save)) from self._save_failed
            return result
        except (SaveInUse, SaveUnreadable, SaveFailed, Refusal):
            raise
        except Exception as err:
            if self.save is not None and store_failed(err):
                raise SaveFailed(str(self.save)) from err
            raise

    def _check_stored(self, table_id: int, version: int) -> None:
        """A step of the table's moves stored, the save file is read as a player taking
        the game up would read it (a connection of its own): a file damaged, cut short or
        overwritten under the game, which the store's connection may write on unaware,
        stops it once its request wound down (:class:`SaveFailed`), not said saved."""
        if self.save is None or self._save_failed is not None:
            return
        try:
            stored = stored_version(self.save, table_id)
            if stored != version:
                raise sqlite3.DatabaseError(f"table {table_id} at {stored}, not {version}")
        except Exception as err:  # (the host is left to its table)
            self._save_failed = err

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
        if self.save is not None:  # kept before the game starts: a game in play says it
            assert isinstance(self.store, SaveStore)
            await self.store.keep_seeded(live.id, self.seeded)
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
            store.committed = self._check_stored
            store.draws = lambda: None if self.rng is None else self.rng.getstate()
        self.service = TableService(store, front=TERMINAL, thinker=self.thinker)
        return self.service

    def _think_seeded(self) -> None:
        """The thinking AIs on node budgets if the game is seeded, else on the clock."""
        self.thinker.nodes = SEEDED_NODES if self.seeded else {}

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
                _, (inner, words, gauss) = kept
                rng = random.Random()
                rng.setstate((inner, tuple(words), gauss))
                live.rng = rng
            # else a source of its own (a save of an earlier stackbot; or one that kept the
            # draws apart from the step, left by a process killed between the two)
            seeded = kept_seeded(self.save, live.id)
        except (ValueError, TypeError) as err:  # a row no stackbot wrote: the file damaged
            raise SaveFailed(str(self.save)) from err
        # its thinking AIs think as they did: on node budgets if it was seeded, else on the
        # clock. A save of an earlier stackbot does not say whether its game was seeded: it
        # goes on under node budgets, as it always did (a seeded one then goes on as played
        # straight through)
        self.seeded = True if seeded is None else seeded
        self._think_seeded()
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
            return isolate_names(self.live.game.hint_text(state), state.players)

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

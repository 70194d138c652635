"""Tables as the host runs them: the handlers every front end calls.

The Discord cogs and ``python -m bot.bench`` call these. Each checks who may act, asks the
engine to decide and change the state, and commits through persistence, all under the
table's lock. A step (:class:`~host.step.Step`) is played on a copy of the table's
committed state and replaces it only once its commit returned: a step that fails, or whose
commit fails (whatever else fails with it: storage down), leaves the table as it was, and a
table whose commit failed is read back from storage before its next step (the commit may
have been made before its answer was lost). Every reader of ``LiveTable.state`` still takes
the lock — the table message and its picture, the private panel, a move button's code read
back into a move, the answer to a move, ``/hint``, ``/scores``, the table's clock and a
typed Snatch's mentions — so that what it reads is one state. A refused request raises a
typed :class:`~host.refusals.Refusal` (a reason code and its facts; the front end words
it) and changes nothing. One lock per table serialises everything done to it.

A player's move and what it leads to without anyone choosing (chance outcomes, moves the
table plays without asking, round and game ends) is one step, committed in one transaction
together with what it owes the channel (round and game messages: an outbox, delivered by
the front end, after a restart too). The AI seats' answer is a step of its own,
committed after the player's (whose move stands whatever becomes of it); a level that
searches for a while is left for later (:meth:`TableService.play_owed`, which the front
end runs once the player is answered, searching on a copy without holding the table's
lock), so that no answer to a move waits on a search. Start-up plays what AI seats owe
(:meth:`TableService.catch_up`), as do a start and a seat handed to an AI.

No game's rules and no words are here: the table's game (the front end's
:class:`~host.words.HostedGame`, over :mod:`engine.games`) seats the players
(``seat_order``), starts (``new_state``), reads typed moves (``parse_move``; a seat not to
move too when the game has ``off_turn_moves``, the engine's ``check(move, by=seat)``
deciding), plays AI seats (``make_ai``; the game's ``thinking_levels`` in a worker process:
:mod:`host.thinking`) and timed-out turns (``hint``); the events ``apply`` returns say when
a turn, a round or the game ended, and the front end words them
(:class:`~host.words.FrontEnd`).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
import secrets
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, Generic

from pydantic import BaseModel, ValidationError

from engine.errors import AmbiguousMoveError, MoveError
from engine.game import GameState, SetupError, TurnEnded
from host.live import (
    RECENT_INTERACTIONS,
    RECENT_TURNS,
    TABLE,
    Choice,
    Chooser,
    G,
    LiveTable,
    MoveOutcome,
    NoClock,
    Player,
    TurnClock,
    ai_to_move,
    since_stored,
)
from host.refusals import Refusal, Why
from host.step import STEP_LIMIT, Step, settle
from host.thinking import Thinker
from host.words import FrontEnd, Notice
from persistence import (
    AlreadySeated,
    InvalidSettings,
    LeaseLost,
    StaleVersion,
    StorageError,
    Store,
    TableExists,
    TableFull,
    TableNotFound,
    WrongTableStatus,
)
from persistence.loading import GameLog
from persistence.records import MAX_SEATS, Announcement, MoveResult, StoredTable, TableInfo

log = logging.getLogger(__name__)
RECALL_BATCH = 200  # tables whose logs are read back at once, at start-up
TIMEOUTS_BEFORE_AI = 3

__all__ = [
    "RECENT_INTERACTIONS",
    "RECENT_TURNS",
    "STEP_LIMIT",
    "Choice",
    "Chooser",
    "LiveTable",
    "MoveOutcome",
    "Player",
    "Refusal",
    "Step",
    "TableService",
    "TurnClock",
    "Why",
    "ai_to_move",
    "settle",
]


def _now() -> datetime:
    return datetime.now(UTC)


class TableService(Generic[G]):
    """Every table the bot runs, by channel."""

    def __init__(
        self,
        store: Store,
        *,
        front: FrontEnd[G],
        seed: int | None = None,
        clock: TurnClock | None = None,
        now: Callable[[], datetime] = _now,
        thinker: Thinker | None = None,
    ) -> None:
        self.store = store
        self.front = front  # its games, and its words for what the host says
        self.now = now  # the Discord layer passes Discord's clock
        self.clock: TurnClock = clock or NoClock()
        self.by_channel: dict[int, LiveTable[G]] = {}
        self.by_id: dict[int, LiveTable[G]] = {}
        self._seeds = random.Random(seed) if seed is not None else None
        # thinking AI levels choose in its worker processes (created on first use)
        self.thinker = thinker or Thinker()
        # one process of several: whether a guild's tables may be kept here (its shard held
        # and not being handed over); None: every table is
        self.owns: Callable[[int], bool] | None = None
        # tables whose recent turns are not recalled yet: their version when loaded
        self._unrecalled: dict[int, int] = {}

    # ------------------------------------------------------------ registry

    def _seed(self) -> int:
        """The seed of a new table's random source (made when first drawn from)."""
        if self._seeds is not None:
            return self._seeds.getrandbits(64)
        return secrets.randbits(64)

    def _track(self, info: TableInfo, state: GameState[Any] | None) -> LiveTable[G]:
        if self.owns is not None and not self.owns(info.guild_id):
            # another process has (or is about to have) the table's shard: a table read
            # back now (a reload, a lobby just written) is not kept here
            gone = self.by_id.get(info.id) or LiveTable(
                info, state, self._seed(), self.front, info.version
            )
            gone.away = True
            self._forget(gone)
            return gone
        live = self.by_id.get(info.id)
        if live is None:
            live = LiveTable(info, state, self._seed(), self.front, info.version)
            live.turn_started, live.idle_since = since_stored(info, self.now())
        else:
            live.info, live.state, live.version = info, state, info.version
        if info.is_active:
            self.by_channel[info.channel_id] = live
            self.by_id[info.id] = live
        else:
            self._forget(live)
        return live

    def _track_rows(self, rows: StoredTable, now: datetime) -> LiveTable[G]:
        """:meth:`_track` for a table loaded lazily: kept with its rows, its info and
        state built when first used (as :meth:`_track` would have built them)."""
        index = rows.index
        if self.by_id.get(index.id) is not None or (
            self.owns is not None and not self.owns(index.guild_id)
        ):  # a table known already, or not kept here: as an eager load
            live = self._track(rows.info(), None)
        else:
            live = LiveTable(
                None, None, self._seed(), self.front, index.version, rows=rows, loaded_at=now
            )
            if live.is_active:
                self.by_channel[index.channel_id] = live
                self.by_id[index.id] = live
        if rows.started:
            live.thaw = rows.state
        return live

    def _forget(self, live: LiveTable[G]) -> None:
        if self.by_channel.get(live.channel_id) is live:
            del self.by_channel[live.channel_id]
        self.by_id.pop(live.id, None)
        self._unrecalled.pop(live.id, None)
        self.clock.table_closed(live)

    async def load(
        self,
        *,
        shard_count: int | None = None,
        shards: frozenset[int] | None = None,
        lazy: bool = False,
    ) -> list[LiveTable[G]]:
        """Load every active table from storage (at start-up; with ``shards`` of
        ``shard_count``, those of guilds on these shards: a process of several adopting
        them), and play the turns the AI seats owe (a crash may have come between a
        human's move and the AI's reply).

        ``lazy``: the tables are returned at once, each state built on first use; the
        caller then passes each table to :meth:`ready` (in the background: the state
        built, a table whose game does not read back closed, the AI turns owed played),
        and the recent turns each table message recalls are rebuilt later
        (:meth:`recall_all` in the background, or :meth:`recall` for one table about to
        be shown)."""
        loaded = await self.store.load_active_tables(
            shard_count=shard_count, shards=shards, lazy=lazy
        )
        tables = []
        now = self.now()
        for t in loaded:
            if t.broken is not None:  # closed, and never in the way of the others
                await self._quarantine(t.info, t.broken)
                continue
            if t.rows is not None:
                tables.append(self._track_rows(t.rows, now))
            else:
                tables.append(self._track(t.info, t.state))
        if lazy:
            active = [t for t in tables if t.is_active]
            for live in active:
                if live.thaw is not None or live.state is not None:
                    self._unrecalled[live.id] = live.version
            return active
        await self._recall_turns(tables)
        for live in tables:
            try:
                await self.catch_up(live)
            except Exception as err:  # owed still: played when its clock is armed
                log.warning("table %s: the AI turns owed are not played yet (%s)", live.id, err)
        return [t for t in tables if t.info.is_active]

    async def _quarantine(self, info: TableInfo, why: str) -> None:
        """A table whose stored game does not read back (its log does not replay) is
        closed with a message in its channel; its rows are kept as they are, for whoever
        runs the bot to look into."""
        log.error("table %s is closed: its stored game does not read back (%s)", info.id, why)
        front = self.front
        with front.speaking(info):  # said to the table's channel, in its language
            title = front.game(info.game).title if info.game in front.game_names() else None
            text = front.notice(Notice.QUARANTINED, {"title": title})
        try:
            await self.store.end_table(
                info.id,
                "abandoned",
                announcements=[Announcement("message", text), TABLE],
                rated=False,  # a game that does not read back is not one to rate
            )
        except Exception as err:  # read back, and closed, at the next start
            log.warning("table %s: could not be closed (%s)", info.id, err)

    async def _recall_turns(self, tables: list[LiveTable[G]]) -> None:
        """The recent turns each table message recalls, rebuilt from the stored log (they
        are kept in memory only): each game replayed from its start, the last turns in
        words. The loop is given back between tables (a process taking shards over serves
        its other tables meanwhile)."""
        started = [live for live in tables if live.state is not None and live.info.is_active]
        for i in range(0, len(started), RECALL_BATCH):
            batch = started[i : i + RECALL_BATCH]
            try:
                logs = await self.store.game_logs([live.id for live in batch])
            except Exception as err:  # the turns are words only: the game plays on
                log.warning("recent turns not recalled (%s)", err)
                return
            for live in batch:
                if live.id in logs:
                    try:
                        live.turns.extend(_recall(live, logs.pop(live.id)))
                    except Exception as err:  # pragma: no cover - the live state replayed
                        log.warning("table %s: recent turns not recalled (%s)", live.id, err)
                    await asyncio.sleep(0)

    async def ready(self, live: LiveTable[G]) -> MoveOutcome | None:
        """A table loaded lazily made ready as an eager load makes it: its state built
        (``None`` if its stored game does not read back: the table is then closed, its
        closing owed to its channel), and the AI turns it owes played."""
        try:
            _ = live.state
        except Exception as exc:  # one table's damaged rows never stop the others
            why = f"{type(exc).__name__}: {exc}"
            live.thaw = None
            self._forget(live)
            await self._quarantine(live.info, why)
            live.info = replace(live.info, status="abandoned")
            return None
        try:
            return await self.catch_up(live)
        except Exception as err:  # owed still: played when its clock is armed
            log.warning("table %s: the AI turns owed are not played yet (%s)", live.id, err)
            return MoveOutcome(live)

    async def recall_all(self) -> None:
        """The recent turns of every table loaded with ``recall_later``, in batches, the
        loop given back between tables (live requests are served meanwhile)."""
        while self._unrecalled:
            batch = []
            for table_id in list(self._unrecalled)[:RECALL_BATCH]:
                table = self.by_id.get(table_id)
                if table is None:
                    del self._unrecalled[table_id]
                else:
                    batch.append(table)
            try:
                logs = await self.store.game_logs([live.id for live in batch])
            except Exception as err:  # the turns are words only: the game plays on
                log.warning("recent turns not recalled (%s)", err)
                self._unrecalled.clear()
                return
            for live in batch:
                loaded = self._unrecalled.get(live.id)
                if loaded is None:
                    continue  # recalled meanwhile (shown)
                if live.version != loaded:  # played on meanwhile: read again, under its lock
                    await self.recall(live)
                    continue
                del self._unrecalled[live.id]
                if live.id in logs:
                    self._remember(live, logs.pop(live.id))
                await asyncio.sleep(0)

    async def recall(self, live: LiveTable[G]) -> None:
        """The recent turns of one table loaded with ``recall_later``, now (its message is
        about to be shown); nothing if they are recalled already."""
        if live.id not in self._unrecalled:
            return
        async with live.lock, live.speaking():
            loaded = self._unrecalled.pop(live.id, None)
            if loaded is None:
                return
            try:
                logs = await self.store.game_logs([live.id])
            except Exception as err:  # the turns are words only: the game plays on
                log.warning("table %s: recent turns not recalled (%s)", live.id, err)
                return
            if live.id in logs:
                logged = logs[live.id]
                later = live.version - loaded  # moves played since the load: in words already
                if later:
                    logged = logged._replace(moves=logged.moves[: len(logged.moves) - later])
                self._remember(live, logged)

    @staticmethod
    def _remember(live: LiveTable[G], logged: GameLog) -> None:
        """The words of the turns before the load, put before those said since."""
        try:
            recalled = _recall(live, logged)
        except Exception as err:  # pragma: no cover - the live state replayed
            log.warning("table %s: recent turns not recalled (%s)", live.id, err)
            return
        since = list(live.turns)
        live.turns.clear()
        live.turns.extend([*recalled, *since])

    async def catch_up(self, live: LiveTable[G]) -> MoveOutcome:
        """Play pending AI turns, and close a table that has no human left."""
        async with live.lock, live.speaking():
            outcome = MoveOutcome(live)
            if live.away or not live.info.is_active or live.state is None:
                return outcome
            await self._sync(live)
            if live.away or not live.info.is_active or live.state is None:
                return outcome
            if not live.info.humans:
                await self._close(live, outcome, self._say(Notice.NO_HUMAN_AT_START))
                return outcome
            await self._play_ai_turns(live, outcome)
            return outcome

    def table_in(self, channel_id: int) -> LiveTable[G]:
        live = self.by_channel.get(channel_id)
        if live is None:
            raise Refusal(Why.NO_TABLE)
        return live

    def table_by_id(self, table_id: int) -> LiveTable[G]:
        live = self.by_id.get(table_id)
        if live is None:
            raise Refusal(Why.TABLE_ENDED)
        return live

    def let_go(self, live: LiveTable[G]) -> None:
        """The table's shard goes to another process: requests queued for its lock are
        refused from now on, and it is forgotten here (its stored state stays whole)."""
        live.away = True
        self._forget(live)

    @staticmethod
    def _still_open(live: LiveTable[G]) -> None:
        """Checked once the lock is held: a request queued behind a game-ending move (or
        behind the hand-over of the table's shard to another process)."""
        if live.away:
            raise Refusal(Why.MOVED_AWAY)
        if not live.info.is_active:
            raise Refusal(Why.TABLE_ENDED)

    # ------------------------------------------------------------ lobby

    async def settings(self, info: TableInfo) -> Any:
        """The server's and channel's settings for the table's game."""
        return await self.store.guild_settings(info.guild_id, info.channel_id, game=info.game)

    async def rules_of(self, info: TableInfo) -> BaseModel:
        """The game's settings at this table: the house rules, then the table's options."""
        settings = await self.settings(info)
        values = {**settings.effective.model_dump(), **info.options}
        return self.front.game(info.game).settings_of(values)

    async def new_table(
        self,
        guild_id: int,
        channel_id: int,
        host: Player,
        options: dict[str, Any],
        *,
        game: str | None = None,
    ) -> LiveTable[G]:
        """Open a lobby of ``game`` with ``host`` seated; ``options`` (fields of the game's
        settings) override the house rules."""
        if channel_id in self.by_channel:
            raise Refusal(Why.TABLE_EXISTS)
        game = game or self.front.default_game
        if game not in self.front.game_names():
            raise Refusal(Why.UNKNOWN_GAME, name=game, games=self.front.game_names())
        played = self.front.game(game)
        store = self.store
        settings = await store.guild_settings(guild_id, channel_id, game=game)
        chosen = {k: v for k, v in options.items() if v is not None}
        try:
            played.settings_of({**settings.effective.model_dump(), **chosen})
        except ValidationError as err:
            raise Refusal(Why.BAD_SETTINGS, error=err) from None
        try:
            info = await store.create_table(
                guild_id,
                channel_id,
                host.id,
                host.name,
                chosen,
                game=game,
            )
        except TableExists:
            raise Refusal(Why.TABLE_EXISTS) from None
        except InvalidSettings as err:
            raise Refusal(Why.INVALID_SETTINGS, detail=str(err)) from None
        live = self._track(info, None)
        if live.away:  # stored, and shown by the process that takes the shard over
            raise Refusal(Why.MOVED_AWAY)
        live.idle_since = self.now()
        return live

    def _lobby(self, live: LiveTable[G]) -> None:
        self._still_open(live)
        if live.info.status != "lobby":
            raise Refusal(Why.ALREADY_STARTED)

    async def join(self, channel_id: int, player: Player) -> LiveTable[G]:
        live = self.table_in(channel_id)
        async with live.lock, live.speaking():
            self._still_open(live)
            seat = live.info.seat_of(player.id)
            if seat is not None and seat.is_ai:  # an AI plays the seat they had
                raise Refusal(Why.SEAT_LEFT, timed_out=not seat.left_game, count=TIMEOUTS_BEFORE_AI)
            if seat is not None:
                raise Refusal(Why.ALREADY_SEATED)
            self._lobby(live)
            self._room(live)
            if any(seat.name == player.name for seat in live.info.seats):
                raise Refusal(Why.NAME_TAKEN, name=player.name)
            try:
                with _seating_refused(live):
                    info = await self.store.join_table(live.id, player.id, player.name)
            except AlreadySeated:
                raise Refusal(Why.ALREADY_SEATED) from None
            live = self._track(info, None)
            live.idle_since = self.now()
            return live

    async def add_ai(self, channel_id: int, player: Player, level: str = "greedy") -> LiveTable[G]:
        live = self.table_in(channel_id)
        async with live.lock, live.speaking():
            self._lobby(live)
            self._seated(live, player)
            game = live.game.game
            if level not in game.ai_levels:
                raise Refusal(
                    Why.NO_SUCH_AI, title=game.title, level=level, levels=tuple(game.ai_levels)
                )
            self._room(live)
            with _seating_refused(live):
                info = await self.store.add_ai(live.id, level)
            return self._track(info, None)

    @staticmethod
    def _room(live: LiveTable[G]) -> None:
        """A seat is left for one more player (the game's maximum, and storage's)."""
        if len(live.info.seats) >= min(MAX_SEATS, live.game.game.max_players):
            raise _full(live)

    async def leave(self, channel_id: int, player: Player) -> MoveOutcome:
        """Leave the table: from a lobby, or mid-game (an AI takes the seat)."""
        live = self.table_in(channel_id)
        async with live.lock, live.speaking():
            self._still_open(live)
            seat = self._seated(live, player)
            return await self._remove(live, seat, self._telling(Notice.LEFT, name=player.name))

    async def kick(self, channel_id: int, actor: Player, target_id: int) -> MoveOutcome:
        live = self.table_in(channel_id)
        async with live.lock, live.speaking():
            self._still_open(live)
            if actor.id != live.info.host_id:
                raise Refusal(Why.HOST_ONLY, power="kick")
            seat = live.info.seat_of(target_id)
            if seat is None or seat.is_ai:
                raise Refusal(Why.NOT_AT_TABLE)
            if target_id == actor.id:
                raise Refusal(Why.KICK_SELF)
            why = self._telling(Notice.KICKED, name=seat.name)
            return await self._remove(live, seat.position, why)

    async def remove_ai(self, channel_id: int, actor: Player, name: str) -> LiveTable[G]:
        """The host takes the AI seat named ``name`` out of the lobby (one added by
        mistake); once the game has started an AI seat plays on."""
        live = self.table_in(channel_id)
        async with live.lock, live.speaking():
            self._still_open(live)
            if actor.id != live.info.host_id:
                raise Refusal(Why.HOST_ONLY, power="remove_ai")
            seat = next((s for s in live.info.seats if s.name == name), None)
            if seat is None or not seat.is_ai:
                raise Refusal(Why.NOT_AT_TABLE)
            self._lobby(live)
            try:
                info = await self.store.remove_ai(live.id, seat.position)
            except WrongTableStatus:
                raise Refusal(Why.ALREADY_STARTED) from None
            return self._track(info, None)

    async def _remove(
        self, live: LiveTable[G], position: int, why: Callable[[], str]
    ) -> MoveOutcome:
        """Take a seat's player away (``why``: their leaving, said in the language spoken
        where it is called). The outcome's note is said in the table's language, and
        ``retold`` says it again where it is called: in the language of whoever asked."""
        seat = live.info.seats[position]
        outcome = MoveOutcome(live)
        host_before = live.info.host_id
        if live.info.status == "lobby":
            assert seat.user_id is not None
            info = await self.store.leave_lobby(live.id, seat.user_id)
            live = outcome.table = self._track(info, None)
            if info.status == "abandoned":
                outcome.closed = True
                told = self._telling(Notice.LOBBY_EMPTY, why=why)
            else:
                host = self._new_host(host_before, info)
                told = self._telling(Notice.LOBBY_LEFT, why=why, host=host)
            outcome.note, outcome.retold = told(), told
            return outcome
        # mid-game: an AI takes the seat; the host's powers move on to the next human
        host_info = self._next_host(live.info, position) if seat.user_id == host_before else None
        host = host_info.name if host_info is not None else None
        told = self._telling(Notice.SEAT_TO_AI, why=why, host=host)
        words = told()
        humans_left = [s for s in live.info.humans if s.position != position]
        announcements = [Announcement("message", words)] if humans_left else []
        live.info = await self.store.set_seat_ai(
            live.id, position, "greedy", left=True, announcements=announcements
        )
        outcome.announced = bool(announcements)
        outcome.note, outcome.retold = words, told
        if humans_left:  # told among the recent turns too, as a seat timed out to an AI is
            live.turns.append(words)
        if not live.info.humans:
            told = self._telling(Notice.NO_HUMAN_LEFT, why=why)
            gone = told()
            await self._close(live, outcome, gone)
            outcome.note, outcome.retold = gone, told
            return outcome
        await self._play_ai_turns(live, outcome)
        self.clock.turn_changed(live)
        return outcome

    @staticmethod
    def _next_host(info: TableInfo, leaving: int) -> Any:
        n = len(info.seats)
        for k in range(1, n):
            s = info.seats[(leaving + k) % n]
            if s.user_id is not None and not s.is_ai:
                return s
        return None

    @staticmethod
    def _new_host(before: int, info: TableInfo) -> str | None:
        """The name of the table's host when it is no longer ``before``."""
        if info.host_id == before:
            return None
        seat = info.seat_of(info.host_id)
        return seat.name if seat is not None else None

    def _say(self, notice: Notice, **data: Any) -> str:
        """A notice of the host's in the front end's words."""
        return self.front.notice(notice, data)

    def _telling(self, notice: Notice, **data: Any) -> Callable[[], str]:
        """A notice to be said (in the language spoken where it is called); a fact that is
        itself a notice to be said (``why``) is said with it."""
        return lambda: self._say(notice, **{k: v() if callable(v) else v for k, v in data.items()})

    async def start(self, channel_id: int, actor: Player) -> MoveOutcome:
        live = self.table_in(channel_id)
        async with live.lock, live.speaking():
            self._lobby(live)
            if actor.id != live.info.host_id:
                raise Refusal(Why.HOST_ONLY, power="start")
            seats = live.info.seats
            game = live.game.game
            if len(seats) < game.min_players:
                fixed = game.min_players == game.max_players
                raise Refusal(
                    Why.TOO_FEW_PLAYERS, title=game.title, least=game.min_players, fixed=fixed
                )
            try:
                rules = await self.rules_of(live.info)
            except ValidationError as err:
                raise Refusal(Why.BAD_SETTINGS, error=err) from None
            lobby_names = [s.name for s in seats]
            try:
                names = game.seat_order(lobby_names, rules)
                order = [lobby_names.index(n) for n in names]
                state = game.new_state(names, rules)
            except SetupError as err:
                raise Refusal(Why.SETUP_FAILED, detail=str(err)) from None
            opening = settle(game, state, live.rng, lambda event, by: None)
            # who begins, said before AI seats play (and read here, under the lock): owed
            # to the channel, so stored with the start (a crash before it is said loses
            # nothing; the front end may say it as its answer to whoever started)
            note = live.game.start_text(state)
            info = await self.store.start_table(
                live.id, order, state, opening, announcements=[Announcement("message", note)]
            )
            live = self._track(info, state)
            live.turn_started = live.idle_since = self.now()
            outcome = MoveOutcome(live, note=note, announced=True)
            await self._play_ai_turns(live, outcome)
            self.clock.turn_changed(live)
            return outcome

    async def end(self, channel_id: int, actor: Player, *, manager: bool) -> MoveOutcome:
        live = self.table_in(channel_id)
        async with live.lock, live.speaking():
            self._still_open(live)
            if actor.id != live.info.host_id and not manager:
                raise Refusal(Why.HOST_ONLY, power="end")
            outcome = MoveOutcome(live)
            await self._close(
                live,
                outcome,
                self._say(Notice.ENDED_BY, title=live.game.title, name=actor.name),
            )
            return outcome

    async def expire(self, table_id: int, now: datetime | None = None) -> MoveOutcome | None:
        """Close an idle lobby, or end as abandoned a game in which no human has moved for
        the server's ``idle_timeout``. ``None`` when the table is not (or no longer) idle."""
        live = self.by_id.get(table_id)
        if live is None:
            return None
        now = now or self.now()
        async with live.lock, live.speaking():
            if live.away or not live.info.is_active:
                return None
            settings = await self.settings(live.info)
            since = self.idle_since(live)
            if live.info.status == "lobby":
                limit, what = settings.lobby_timeout, "lobby"
            else:
                limit, what = settings.idle_timeout, "game"
            if now - since < timedelta(seconds=limit):
                return None
            outcome = MoveOutcome(live)
            expired = Notice.LOBBY_EXPIRED if what == "lobby" else Notice.GAME_EXPIRED
            text = self._say(expired, seconds=limit)
            await self._close(live, outcome, text)
            return outcome

    async def place_gone(self, table_id: int) -> MoveOutcome | None:
        """The table's place is gone for good (the front end says so: its channel deleted,
        the bot removed from its server): it ends as an abandoned table does (rated as
        one), with nothing owed to that place — no message, no last edit: there is nowhere
        to say them. ``None`` when the table is not (or no longer) active here."""
        live = self.by_id.get(table_id)
        if live is None:
            return None
        async with live.lock:
            if live.away or not live.info.is_active:
                return None
            outcome = MoveOutcome(live)
            try:
                live.info = await self.store.end_table(live.id, "abandoned")
            except WrongTableStatus:  # ended meanwhile (another process's step)
                live.info = await self.store.table(live.id)
            outcome.closed = True
            self._forget(live)
            return outcome

    def idle_since(self, live: LiveTable[G]) -> datetime:
        return live.idle_since or self.now()

    async def _close(self, live: LiveTable[G], outcome: MoveOutcome, text: str) -> None:
        announcements = [Announcement("message", text), TABLE]
        try:
            live.info = await self.store.end_table(
                live.id, "abandoned", announcements=announcements
            )
            outcome.announced = True
        except WrongTableStatus:
            live.info = await self.store.table(live.id)
        outcome.closed = True
        outcome.note = text
        self._forget(live)

    def _seated(self, live: LiveTable[G], player: Player) -> int:
        seat = live.info.seat_of(player.id)
        if seat is None:
            if live.info.status == "lobby":
                raise Refusal(Why.NOT_SEATED, lobby=True)
            raise Refusal(Why.NOT_SEATED, lobby=False)
        if seat.is_ai:  # they left, or let too many turns run out (and keep the result)
            raise Refusal(Why.SEAT_LEFT, timed_out=not seat.left_game, count=TIMEOUTS_BEFORE_AI)
        return seat.position

    # ------------------------------------------------------------ moves

    async def move(
        self,
        channel_id: int,
        player: Player,
        *,
        text: str | None = None,
        move: Any = None,
        table_id: int | None = None,
        version: int | None = None,
        interaction_id: str | None = None,
    ) -> MoveOutcome:
        """Play a move typed as ``text`` or given as ``move`` (from a button).

        ``table_id``/``version`` come from a button: a click on an outdated message is
        refused. A repeated ``interaction_id`` is applied once.
        """
        live = self.table_in(channel_id) if table_id is None else self.table_by_id(table_id)
        asker = contextvars.copy_context()  # the language spoken here: the mover's
        async with live.lock, live.speaking():
            if interaction_id is not None and interaction_id in live.recent:
                return MoveOutcome(live, duplicate=True)
            self._still_open(live)
            await self._sync(live)
            self._still_open(live)
            state = live.state
            if state is None:
                raise Refusal(Why.GAME_NOT_STARTED, hint=False)
            seat = self._seated(live, player)
            if version is not None and version != live.version:
                raise Refusal(Why.STALE_PANEL)
            if state.is_over:
                raise Refusal(Why.GAME_OVER)
            game = live.game
            # a game whose players may act out of turn (Color Stack's resignation) lets
            # the engine say which moves a seat not to move may make
            off_turn = game.game.off_turn_moves
            current = state.current_player
            if current is None and not off_turn:
                raise Refusal(Why.BUSY)
            if current != seat and not off_turn:
                raise Refusal(Why.NOT_YOUR_TURN, player=_whose(state), hint=False)
            typed = move is None
            if move is None:
                try:
                    move = game.game.parse_move(state, text or "", seat)
                except AmbiguousMoveError as err:
                    # the moves it may mean: the front end words them and the question in
                    # the mover's language (here the table's is spoken)
                    legal = tuple(m for m in err.candidates if state.is_legal(m))
                    return MoveOutcome(live, chooser=Chooser(legal, err, state, live.version))
                except MoveError as err:
                    said = (*state.players, text or "")
                    raise Refusal(Why.ILLEGAL_MOVE, game=game, error=err, said=said) from None
            if off_turn or (not typed and not state.is_legal(move)):
                try:
                    state.check(move, by=seat)
                except MoveError as err:
                    said = tuple(state.players)
                    raise Refusal(Why.ILLEGAL_MOVE, game=game, error=err, said=said) from None
                if not off_turn:
                    raise Refusal(Why.NOT_NOW)
            outcome = MoveOutcome(live, seat=seat)
            step = Step(live, self.thinker, asker=asker)
            step.play(seat, move)
            timeouts = {seat: 0} if live.info.seats[seat].timeouts else None
            await self._commit(
                live, step, outcome, interaction_id=interaction_id, timeouts=timeouts, human=True
            )
            if interaction_id is not None:
                live.recent.append(interaction_id)
            if not step.turns and step.ending is not None:
                outcome.note = step.ending  # a move that ended the game, not a turn
            if not outcome.duplicate:  # committed
                outcome.told_mover = step.told_asker
            committed = live.state
            outcome.continues = (
                not outcome.duplicate
                and committed is not None
                and not committed.is_over
                and committed.current_player == seat
                and seat not in step.ended
            )
            if not outcome.duplicate:
                await self._ai_replies(live, outcome)
            self.clock.turn_changed(live)
            return outcome

    async def auto_move(self, table_id: int, version: int) -> MoveOutcome | None:
        """The turn timer ran out: the game's hint plays the player's turn to its end (if
        nothing moved since ``version``). After too many timeouts in a row the seat becomes
        an AI seat; with no human left, the table closes."""
        live = self.by_id.get(table_id)
        if live is None:
            return None
        async with live.lock, live.speaking():
            state = live.state
            if live.away or not live.info.is_active or state is None or state.is_over:
                return None
            if live.version != version or state.current_player is None:
                return None
            await self._sync(live)  # a failed commit: storage may have moved on
            if live.version != version or live.state is not state or not live.info.is_active:
                return None
            seat = state.current_player
            if live.info.seats[seat].is_ai:
                return None
            outcome = MoveOutcome(live)
            info_seat = live.info.seats[seat]
            count = info_seat.timeouts + 1
            step = Step(live, self.thinker)
            game = live.game.game

            def one_turn() -> None:
                """The player's turn: every decision until it ends; or the one decision
                taken before the first turn (the first turn then gets its own clock)."""
                for _ in range(STEP_LIMIT):
                    move = game.hint(step.state)[0]
                    step.play(seat, move, auto=True)
                    state = step.state
                    if seat in step.ended or state.is_over or state.current_player != seat:
                        break
                    if game.before_turns(move):
                        break

            one_turn()
            to_ai = None
            if count >= TIMEOUTS_BEFORE_AI:
                to_ai = {seat: "greedy"}
                # the last human's seat: said with the table's closing, in one message (below)
                if any(s.position != seat for s in live.info.humans):
                    words = self._say(
                        Notice.TIMED_OUT_TO_AI, name=info_seat.name, count=TIMEOUTS_BEFORE_AI
                    )
                    step.announcements.insert(0, Announcement("message", words))
                    step.turns.append(words)
            await self._commit(live, step, outcome, timeouts={seat: count}, to_ai=to_ai)
            if live.info.is_active and not live.info.humans:
                # one message: who let their turns run out, and that the table closes
                gone = self._say(
                    Notice.NO_HUMAN_PLAYING, name=info_seat.name, count=TIMEOUTS_BEFORE_AI
                )
                await self._close(live, outcome, gone)
                outcome.turns.append(gone)
            else:
                await self._ai_replies(live, outcome)
            self.clock.turn_changed(live)
            return outcome

    async def play_owed(self, table_id: int, version: int) -> MoveOutcome | None:
        """The AI seats play the turns they owe (a thinking level's too: the step a move
        left for later, ``MoveOutcome.ai_owed``), if nothing moved since ``version``; each
        turn is committed on its own. A thinking level searches without holding the
        table's lock, on a copy of the committed state, so the table is shown (and may
        be resigned) meanwhile; a search whose table moved on is dropped. ``None`` when
        there was nothing to play."""
        live = self.by_id.get(table_id)
        if live is None:
            return None
        outcome = MoveOutcome(live)

        def played() -> MoveOutcome | None:
            return outcome if outcome.turns or outcome.announced or outcome.game_over else None

        while True:
            async with live.lock, live.speaking():
                if live.away or not live.info.is_active or live.state is None:
                    return played()
                await self._sync(live)
                if live.version != version:
                    return played()  # moved on meanwhile: what moved it armed the clock
                if not ai_to_move(live):
                    self.clock.turn_changed(live)  # a human's turn (after a search): its clock
                    return played()
                step = Step(live, self.thinker)
                await step.run_ai(think=False)  # the levels that choose at once
                await self._commit(live, step, outcome)
                version = live.version
                state = live.state
                seat = state.current_player if state is not None else None
                if not step.owed or state is None or seat is None:
                    self.clock.turn_changed(live)
                    return played()
                level = live.info.seats[seat].ai_level or "greedy"
                seed = live.rng.getrandbits(64)
                searched = state.copy()
            game = live.game.game
            move, why = await self.thinker.choose(game, searched, level, seed)
            if why is not None:
                log.warning("table %s: seat %s played the hint: %s", live.id, seat, why)
            async with live.lock, live.speaking():
                if live.away or live.version != version or not live.info.is_active:
                    return played()  # the table moved on (a resignation) while it searched
                step = Step(live, self.thinker)
                step.play(seat, move)
                await self._commit(live, step, outcome)
                version = live.version
                if not live.info.is_active:  # the AI's move ended the game
                    return outcome

    async def _play_ai_turns(self, live: LiveTable[G], outcome: MoveOutcome) -> None:
        """AI seats play the turns they owe, in one step (nothing when a human is to move)."""
        if live.unsure:  # a commit of it failed: played on what storage holds, or not yet
            await self._try_reload(live)
        if ai_to_move(live) and not live.unsure and live.info.is_active:
            step = Step(live, self.thinker)
            await step.run_ai()
            await self._commit(live, step, outcome)

    async def _ai_replies(self, live: LiveTable[G], outcome: MoveOutcome) -> None:
        """After a step that a human (or their turn timer) played, committed: the AI
        seats' answers, as a step of their own, committed on its own (the human's move
        stands whatever becomes of it). A seat of a thinking level is left to play later
        (``outcome.ai_owed``: :meth:`play_owed`), so that no answer waits on a search; so
        is an answer that could not be stored."""
        if live.away or not live.info.is_active or not ai_to_move(live):
            return
        step = Step(live, self.thinker)
        try:
            await step.run_ai(think=False)
            outcome.ai_owed = step.owed
            await self._commit(live, step, outcome)
        except Exception as err:  # the AI seats still owe their turns (played later)
            outcome.ai_owed = True
            if isinstance(err, Refusal):  # not stored (said in the log when it failed)
                log.warning("table %s: the AI seats' turns are owed (%s)", live.id, err)
            else:
                log.exception("table %s: the AI seats' turns failed; they are owed", live.id)

    async def _commit(
        self,
        live: LiveTable[G],
        step: Step,
        outcome: MoveOutcome,
        *,
        interaction_id: str | None = None,
        timeouts: dict[int, int] | None = None,
        to_ai: dict[int, str] | None = None,
        human: bool = False,
    ) -> None:
        """Store ``step`` in one transaction; only then does the table show it. When the
        commit fails the table stays as it was (the step was played on a copy) — whatever
        else fails — and is read again from storage before its next step: a commit whose
        answer was lost may have been made, and another process may have moved on."""
        if not step.moves:
            return
        try:
            result = await self._record(live, step, interaction_id, timeouts, to_ai, human)
        except LeaseLost as err:  # the shard went to another process: it plays on there
            log.warning("table %s: move not stored (%s)", live.id, err)
            raise Refusal(Why.MOVED_AWAY) from None
        except (StaleVersion, StorageError, WrongTableStatus) as err:
            log.warning("table %s: move not stored (%s)", live.id, err)
            live.unsure = True
            await self._try_reload(live)
            raise Refusal(Why.NOT_SAVED) from None
        except BaseException:  # cancelled while the commit was under way, or a bug
            live.unsure = True
            raise
        if result.duplicate:  # played before: what is stored is the table
            live.unsure = True
            await self._try_reload(live)
            outcome.duplicate = True
            return
        self._committed(live, step, outcome, result, timeouts, to_ai, human)

    async def _record(
        self,
        live: LiveTable[G],
        step: Step,
        interaction_id: str | None,
        timeouts: dict[int, int] | None,
        to_ai: dict[int, str] | None,
        human: bool,
    ) -> MoveResult:
        """Store the step (nothing of the table changes here)."""
        return await self.store.record_move(
            live.id,
            live.version,
            step.moves,
            step.state,
            interaction_id,
            announcements=step.announcements,
            timeouts=timeouts,
            to_ai=to_ai,
            human=human,
            automatic=step.automatic,
        )

    def _committed(
        self,
        live: LiveTable[G],
        step: Step,
        outcome: MoveOutcome,
        result: MoveResult,
        timeouts: dict[int, int] | None,
        to_ai: dict[int, str] | None,
        human: bool,
    ) -> None:
        now = self.now()
        live.state = step.state
        live.version = result.version
        live.turn_started = now
        live.turns.extend(step.turns)
        outcome.turns.extend(step.turns)
        outcome.announced = outcome.announced or bool(step.announcements)
        seats = list(live.info.seats)
        for position, count in (timeouts or {}).items():
            seats[position] = replace(seats[position], timeouts=count)
        for position, level in (to_ai or {}).items():
            seats[position] = replace(seats[position], ai_level=level)
        changes: dict[str, Any] = {"seats": tuple(seats), "version": result.version}
        if human:
            changes["last_active_at"] = live.idle_since = now
        if step.state.is_over:
            changes["status"] = "finished"
            outcome.game_over = True
        live.info = replace(live.info, **changes)
        if step.state.is_over:
            self._forget(live)

    async def _reload(self, live: LiveTable[G]) -> None:
        """The table as storage holds it (forgotten here once it is no longer active)."""
        try:
            loaded = await self.store.load_table(live.id)
        except TableNotFound:
            live.unsure = False
            self._forget(live)
            return
        live.unsure = False
        if loaded.broken is not None:
            await self._quarantine(loaded.info, loaded.broken)
            live.info = replace(loaded.info, status="abandoned")
            live.state = None
            self._forget(live)
            return
        self._track(loaded.info, loaded.state)

    async def _try_reload(self, live: LiveTable[G]) -> None:
        """:meth:`_reload`, now if storage answers (storage down too: ``live.unsure``
        stays set, and the next step reads it again first)."""
        try:
            await self._reload(live)
        except Exception as err:
            log.warning("table %s: not read again yet (%s)", live.id, err)

    async def _sync(self, live: LiveTable[G]) -> None:
        """Before a step (under the lock): a table whose last commit failed is read again
        from storage; refused while storage does not answer (nothing is played on a table
        that may not be what storage holds)."""
        if not live.unsure:
            return
        try:
            await self._reload(live)
        except Exception as err:
            log.warning("table %s: not read again yet (%s)", live.id, err)
            raise Refusal(Why.NOT_SAVED) from None
        self.clock.turn_changed(live)

    # ------------------------------------------------------------ reading (committed state)

    async def hint(self, channel_id: int, player: Player) -> str:
        live = self.table_in(channel_id)
        async with live.lock:  # answered to the asker, in their language
            return self._hint(live, player)

    def _hint(self, live: LiveTable[G], player: Player) -> str:
        state = live.state
        if state is None:
            raise Refusal(Why.GAME_NOT_STARTED, hint=True)
        seat = self._seated(live, player)
        if state.is_over:
            raise Refusal(Why.GAME_OVER)
        if state.current_player != seat:
            raise Refusal(Why.NOT_YOUR_TURN, player=_whose(state), hint=True)
        return live.game.hint_text(state)

    async def legal_choices(self, live: LiveTable[G], player: Player) -> list[Choice]:
        """The moves of the player to act, with their words (for the My turn panel)."""
        async with live.lock:  # answered to the asker, in their language
            return self._legal_choices(live, player)

    def _legal_choices(self, live: LiveTable[G], player: Player) -> list[Choice]:
        state = live.state
        if state is None:
            raise Refusal(Why.GAME_NOT_STARTED, hint=False)
        seat = self._seated(live, player)
        if state.current_player != seat:
            raise Refusal(Why.NOT_YOUR_TURN, player=_whose(state), hint=False)
        game = live.game
        return [Choice(m, game.move_label(state, m)) for m in state.legal_moves()]

    async def seat_of(self, live: LiveTable[G], player: Player) -> int:
        """The seat ``player`` plays at a live table (refused otherwise)."""
        async with live.lock:  # answered to the asker, in their language
            self._still_open(live)
            if live.state is None:
                raise Refusal(Why.GAME_NOT_STARTED, hint=False)
            return self._seated(live, player)

    def forget_all(self) -> None:
        """Drop every table from memory (the bot is stopping)."""
        for live in list(self.by_id.values()):
            self._forget(live)


def _recall(live: LiveTable[Any], logged: GameLog) -> list[str]:
    """The words of the last turns of a ``logged`` game. The game is replayed without
    words, its state kept (as storage's snapshot) every ``RECENT_TURNS`` turns; the last
    turns are then replayed, in words (the turn timer's moves said as such), from the
    latest of those kept that comes ``RECENT_TURNS`` turns or more before the end."""
    game = live.game.game
    state, played = logged.start, logged.moves
    ends = 0  # turns ended so far
    # (moves played, turns ended, the state then): the last three kept
    kept: deque[tuple[int, int, dict[str, Any]]] = deque([(0, 0, game.snapshot(state))], 3)
    for i, move in enumerate(played):
        ended = sum(isinstance(event, TurnEnded) for event in state.apply(move))
        if ended and (ends + ended) // RECENT_TURNS > ends // RECENT_TURNS:
            kept.append((i + 1, ends + ended, game.snapshot(state)))
        ends += ended
    enough = [k for k in kept if k[1] <= ends - RECENT_TURNS]
    index, _, snapshot = enough[-1] if enough else kept[0]
    step = Step(live, state=game.state_from_dict(snapshot))
    for i in range(index, len(played)):
        step.replay(played[i], automatic=i in logged.automatic)
    return step.turns[-RECENT_TURNS:]


def _whose(state: GameState[Any]) -> str | None:
    """The name of the player to act, or ``None`` while no seat is to act."""
    current = state.current_player
    return state.players[current] if current is not None else None


@contextmanager
def _seating_refused(live: LiveTable[Any]) -> Iterator[None]:
    """Storage's refusals of a new seat at ``live`` (a full table, settings the seat
    breaks, a game already started) as the host's refusals."""
    try:
        yield
    except TableFull:
        raise _full(live) from None
    except InvalidSettings as err:
        raise Refusal(Why.INVALID_SETTINGS, detail=str(err)) from None
    except WrongTableStatus:
        raise Refusal(Why.ALREADY_STARTED) from None


def _full(live: LiveTable[Any]) -> Refusal:
    """The table is full: the game's most players (and whether it is for exactly them)."""
    game = live.game.game
    most = min(MAX_SEATS, game.max_players)
    fixed = game.min_players == game.max_players == most
    return Refusal(Why.TABLE_FULL, title=game.title, most=most, fixed=fixed)

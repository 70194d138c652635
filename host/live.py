"""A table as the host keeps it in memory, and what a request to it led to."""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

from engine.errors import AmbiguousMoveError
from engine.game import GameState
from host.words import FrontEnd, HostedGame
from persistence.records import Announcement, StoredTable, TableIndex, TableInfo

G = TypeVar("G", bound=HostedGame)  # the front end's games
RECENT_INTERACTIONS = 256
RECENT_TURNS = 8
TABLE = Announcement("table")  # re-render the table message (a table that closed)


class Speaking:
    """The front end's language context for a table, usable as ``with`` and as ``async
    with`` (beside the table's lock: ``async with live.lock, live.speaking():``)."""

    __slots__ = ("_context",)

    def __init__(self, context: AbstractContextManager[object]) -> None:
        self._context = context

    def __enter__(self) -> None:
        self._context.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._context.__exit__(*exc)  # type: ignore[arg-type]

    async def __aenter__(self) -> None:
        self._context.__enter__()

    async def __aexit__(self, *exc: object) -> None:
        self._context.__exit__(*exc)  # type: ignore[arg-type]


class TurnLine(str):
    """A line of the recent turns that tells a turn (a page numbers it); the others tell
    what is no turn: a decision taken before the first turn, a notice (a seat handed to an
    AI, the table closed)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Player:
    """A user of the front end as the host sees one."""

    id: int
    name: str


def since_stored(info: TableInfo, now: datetime) -> tuple[datetime, datetime]:
    """When a table read from storage began its current turn and when a human last acted
    at it (a time stored by another clock is never taken to be in the future)."""
    turn_started = min(info.moved_at or info.started_at or now, now)
    idle_since = min(info.last_active_at or info.started_at or info.created_at, now)
    return turn_started, idle_since


@dataclass(slots=True)
class LiveTable(Generic[G]):
    """An active table in memory: its stored info, its committed state (read it under
    ``lock``), the lock that serialises everything done to the table, the random source of
    its chance outcomes (``rng``), the front end that runs it, and what the table message
    recalls (the last turns).

    A table loaded lazily at start-up (``rows``) keeps its stored rows until first used:
    its info (and with it when its turn began and when a human last acted, as of
    ``loaded_at``) is built from them the first time it is read, its state by ``thaw``,
    and its random source from its seed the first time it is drawn from: each exactly as
    an eager load would have made it."""

    _info: TableInfo | None
    _state: GameState[Any] | None
    _rng: random.Random | int  # the random source, or the seed it is made from when used
    front: FrontEnd[G]
    version: int = 0  # the stored state version (the move log's length)
    # its lock and what it recalls are made when first used (a table loaded at start-up
    # may wait long for its first use)
    _lock: asyncio.Lock | None = None
    _recent: deque[str] | None = None
    _turns: deque[str] | None = None
    _turn_started: datetime | None = None  # when the current turn began
    _idle_since: datetime | None = None  # the last human action (for idle expiry)
    away: bool = False  # its shard went to another process: nothing more is done here
    # a commit of it failed (perhaps after it was made) or was abandoned: what storage
    # holds is read again before its next step
    unsure: bool = False
    # loaded lazily at start-up: what builds its state, on first use (``state``)
    thaw: Callable[[], GameState[Any]] | None = None
    # loaded lazily at start-up: its stored rows (its info not built yet), and when
    rows: StoredTable | None = None
    loaded_at: datetime | None = None
    # what never changes: read from its info, or from its index when loaded lazily
    id: int = field(init=False)
    channel_id: int = field(init=False)
    _index: TableIndex = field(init=False)

    def __post_init__(self) -> None:
        index: TableIndex | None = self._info
        if index is None:
            assert self.rows is not None, "a live table has its info or its rows"
            index = self.rows.index
        self._index = index
        self.id = index.id
        self.channel_id = index.channel_id

    @property
    def info(self) -> TableInfo:
        """Its stored info (a table loaded lazily builds it here, the first time)."""
        info = self._info
        if info is None:
            info = self._built()
        return info

    @info.setter
    def info(self, value: TableInfo) -> None:
        if self._info is None:
            self._built()
        self._info = value

    def _built(self) -> TableInfo:
        rows = self.rows
        assert rows is not None, "a live table has its info or its rows"
        info = self._info = self._index = rows.info()
        self.rows = None
        if self.loaded_at is not None:
            self._turn_started, self._idle_since = since_stored(info, self.loaded_at)
            self.loaded_at = None
        return info

    @property
    def index(self) -> TableIndex:
        """What start-up needs of it (its id, channel, guild, game, status, version and
        message), without building its info."""
        info = self._info
        return self._index if info is None else info

    @property
    def turn_started(self) -> datetime | None:
        """When its current turn began."""
        if self._info is None:
            self._built()
        return self._turn_started

    @turn_started.setter
    def turn_started(self, value: datetime | None) -> None:
        if self._info is None:
            self._built()
        self._turn_started = value

    @property
    def idle_since(self) -> datetime | None:
        """When a human last acted at it (for idle expiry)."""
        if self._info is None:
            self._built()
        return self._idle_since

    @idle_since.setter
    def idle_since(self, value: datetime | None) -> None:
        if self._info is None:
            self._built()
        self._idle_since = value

    @property
    def lock(self) -> asyncio.Lock:
        """What serialises everything done to the table."""
        lock = self._lock
        if lock is None:
            lock = self._lock = asyncio.Lock()
        return lock

    @property
    def recent(self) -> deque[str]:
        """The ids of the interactions answered lately (a repeat is answered once)."""
        recent = self._recent
        if recent is None:
            recent = self._recent = deque(maxlen=RECENT_INTERACTIONS)
        return recent

    @property
    def turns(self) -> deque[str]:
        """The last turns in words, as the table message recalls them."""
        turns = self._turns
        if turns is None:
            turns = self._turns = deque(maxlen=RECENT_TURNS)
        return turns

    @property
    def rng(self) -> random.Random:
        """The random source of its chance outcomes (made from its seed when first used)."""
        rng = self._rng
        if isinstance(rng, int):
            rng = self._rng = random.Random(rng)
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        """A front end that deals from its own seed (the terminal's ``--seed``) sets it."""
        self._rng = rng

    @property
    def state(self) -> GameState[Any] | None:
        """Its committed state (``None``: a lobby); a table loaded lazily builds it here,
        the first time (it raises if its stored game does not read back)."""
        thaw = self.thaw
        if thaw is not None:
            self._state = thaw()
            self.thaw = None
        return self._state

    @state.setter
    def state(self, value: GameState[Any] | None) -> None:
        self.thaw = None
        self._state = value

    @property
    def is_active(self) -> bool:
        """Whether it is a lobby or a game being played (its info not built for this)."""
        return self.index.status in ("lobby", "playing")

    @property
    def game(self) -> G:
        """The table's game, as its front end hosts it."""
        return self.front.game(self.index.game)

    def speaking(self) -> Speaking:
        """Inside (``with`` or ``async with``), words are said in the table's language."""
        return Speaking(self.front.speaking(self.info))

    def user_at(self, seat: int) -> int | None:
        """The user of a seat still played by its human, else ``None``."""
        s = self.info.seats[seat]
        return None if s.is_ai else s.user_id

    def current_user(self) -> int | None:
        """The human whose turn it is, if a human is to move."""
        state = self.state
        if state is None or state.is_over or state.current_player is None:
            return None
        return self.user_at(state.current_player)


def ai_to_move(live: LiveTable[Any]) -> bool:
    """Whether an AI seat is to move at the table (its committed state)."""
    state = live.state
    if state is None or state.is_over or state.current_player is None:
        return False
    return live.info.seats[state.current_player].is_ai


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a chooser: the move and its words."""

    move: Any
    label: str


@dataclass(frozen=True, slots=True)
class Chooser:
    """A typed move that reads as several moves, for the front end to ask which one: the
    host words none of it, since the question goes to the mover alone, in their language
    (the host speaks the table's while it plays a move). ``moves`` are the legal ones among
    the engine's candidates, in its order; ``error`` is the engine's error that listed them
    (its kind and facts: what the question is worded from, :meth:`HostedGame.chooser_text`);
    ``state`` is the committed state they were read against (their labels' words,
    :meth:`HostedGame.move_label`: a committed state is replaced by a step, never changed)
    and ``version`` its version (the chooser's buttons carry it: a button pressed after
    another move committed is refused as stale)."""

    moves: tuple[Any, ...]
    error: AmbiguousMoveError
    state: Any
    version: int


@dataclass(slots=True)
class MoveOutcome:
    """What a request led to: the turns taken (the player's, then AI seats'), whether the
    game is over or the table closed, whether the channel is owed messages (stored in the
    outbox), a chooser when a typed move was ambiguous (:class:`Chooser`: the moves, which
    the front end words), and whether the player's turn goes on (``continues``: the same
    seat acts again before its turn ends, as Stack's rerolled die to place). ``seat`` is
    the seat of the player who asked (``None`` for the host's own steps): whoever answers
    them reads the table again under its lock and shows that seat only, since another move
    may have committed since."""

    table: LiveTable[Any]
    seat: int | None = None
    turns: list[str] = field(default_factory=list)
    game_over: bool = False
    closed: bool = False
    announced: bool = False  # outbox rows were committed: deliver them
    # an AI seat of a thinking level is to move: its turn is a step of its own, played
    # after this answer (:meth:`TableService.play_owed`)
    ai_owed: bool = False
    # a typed move that reads as several: the moves it may mean, worded by the front end
    chooser: Chooser | None = None
    continues: bool = False
    duplicate: bool = False
    note: str = ""  # a sentence for the one who asked (in the table's language)
    # the note said again, in the language spoken where it is called (the asker's), when
    # the note can be (a player leaving or kicked); None: the note is all there is
    retold: Callable[[], str] | None = None
    # a move's answer to its mover: the first line it led to (else the game's end, when it
    # ended the game), in the language spoken where the move was asked (the mover's);
    # None: their move led to no words of its own
    told_mover: str | None = None


class TurnClock(Protocol):
    """Told whenever a table's turn may have changed (the front end runs timers)."""

    def turn_changed(self, live: LiveTable[Any]) -> None: ...

    def table_closed(self, live: LiveTable[Any]) -> None: ...


class NoClock:
    def turn_changed(self, live: LiveTable[Any]) -> None:
        return None

    def table_closed(self, live: LiveTable[Any]) -> None:
        return None

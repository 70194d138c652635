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

from engine.game import GameState
from host.words import FrontEnd, HostedGame
from persistence.records import Announcement, TableInfo

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


@dataclass(frozen=True, slots=True)
class Player:
    """A user of the front end as the host sees one."""

    id: int
    name: str


@dataclass(slots=True)
class LiveTable(Generic[G]):
    """An active table in memory: its stored info, its committed state (read it under
    ``lock``), the lock that serialises everything done to the table, the random source of
    its chance outcomes (``rng``), the front end that runs it, and what the table message
    recalls (the last turns)."""

    info: TableInfo
    _state: GameState[Any] | None
    rng: random.Random
    front: FrontEnd[G]
    version: int = 0  # the stored state version (the move log's length)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_INTERACTIONS))
    turns: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_TURNS))
    turn_started: datetime | None = None  # when the current turn began
    idle_since: datetime | None = None  # the last human action (for idle expiry)
    away: bool = False  # its shard went to another process: nothing more is done here
    # a commit of it failed (perhaps after it was made) or was abandoned: what storage
    # holds is read again before its next step
    unsure: bool = False
    # loaded lazily at start-up: what builds its state, on first use (``state``)
    thaw: Callable[[], GameState[Any]] | None = None

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
    def id(self) -> int:
        return self.info.id

    @property
    def channel_id(self) -> int:
        return self.info.channel_id

    @property
    def game(self) -> G:
        """The table's game, as its front end hosts it."""
        return self.front.game(self.info.game)

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


@dataclass(slots=True)
class MoveOutcome:
    """What a request led to: the turns taken (the player's, then AI seats'), whether the
    game is over or the table closed, whether the channel is owed messages (stored in the
    outbox), a chooser when a typed move was ambiguous, and whether the player's turn goes
    on (``continues``: the same seat acts again before its turn ends, as Stack's rerolled
    die to place). ``seat`` is the seat of the player who asked (``None`` for the host's
    own steps): whoever answers them reads the table again under its lock and shows that
    seat only, since another move may have committed since."""

    table: LiveTable[Any]
    seat: int | None = None
    turns: list[str] = field(default_factory=list)
    game_over: bool = False
    closed: bool = False
    announced: bool = False  # outbox rows were committed: deliver them
    # an AI seat of a thinking level is to move: its turn is a step of its own, played
    # after this answer (:meth:`TableService.play_owed`)
    ai_owed: bool = False
    chooser: list[Choice] | None = None
    chooser_text: str = ""
    continues: bool = False
    duplicate: bool = False
    note: str = ""  # a sentence for the one who asked


class TurnClock(Protocol):
    """Told whenever a table's turn may have changed (the front end runs timers)."""

    def turn_changed(self, live: LiveTable[Any]) -> None: ...

    def table_closed(self, live: LiveTable[Any]) -> None: ...


class NoClock:
    def turn_changed(self, live: LiveTable[Any]) -> None:
        return None

    def table_closed(self, live: LiveTable[Any]) -> None:
        return None

"""Small typed records the storage API returns (never raw rows).

Every record names its game (``game``, a name of :mod:`engine.games`). What is a game's
own stays the game's: its rules as stored JSON (:attr:`TableInfo.rules_record`), its state
(a :class:`~engine.game.GameState`), its stats figures (:attr:`PlayerStats.figures`).
Stack's fields of before (``TableInfo.rules`` as ``StackRules``, ``PlayerStats.captures``
and the like) stay readable, so the bot may move to the generic ones at its own pace.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from engine.stack.moves import FACES, face_value

MAX_SEATS = 8  # the most seats any table has (Stack's 8)
DEFAULT_GAME = "stack"


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat: a Discord user (``user_id``) or an AI (``ai_level`` set, ``user_id`` None).

    A player who left mid-game or timed out too often keeps ``user_id`` with ``ai_level``
    set: the AI plays the seat from then on.
    """

    position: int
    user_id: int | None
    name: str
    ai_level: str | None
    timeouts: int = 0
    left_game: bool = False

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table: where it is, which game it plays, who hosts and sits at it, its status and
    version.

    ``rules_record`` is the game's rules as stored at the start (JSON; ``None`` in the
    lobby). ``rules`` is the same read for the bot of before: a Stack table's
    ``StackRules``, another game's JSON (see :mod:`persistence.compat`).
    """

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    version: int
    rules: Any
    message_channel_id: int | None
    message_id: int | None
    deadline: datetime | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    # when a human last acted (created, joined, started, moved): idle tables expire from it
    last_active_at: datetime | None = None
    # created_at of the newest logged move (kept by the log's trigger): the turn's start
    moved_at: datetime | None = None
    # the table version whose turn ping was delivered
    pinged_version: int | None = None
    game: str = DEFAULT_GAME
    rules_record: dict[str, Any] | None = None

    @property
    def is_active(self) -> bool:
        return self.status in ("lobby", "playing")

    def seat_of(self, user_id: int) -> SeatInfo | None:
        """The seat of ``user_id``, if they sit here."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def humans(self) -> tuple[SeatInfo, ...]:
        """Seats still played by their human."""
        return tuple(s for s in self.seats if s.user_id is not None and not s.is_ai)


class TableIndex(Protocol):
    """What start-up needs of every table at once (where it is, its game, its status and
    version, where its message is): a :class:`TableInfo`, or a table's stored row before
    its info is built (:class:`StoredTable`)."""

    @property
    def id(self) -> int: ...
    @property
    def guild_id(self) -> int: ...
    @property
    def channel_id(self) -> int: ...
    @property
    def status(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def message_channel_id(self) -> int | None: ...
    @property
    def message_id(self) -> int | None: ...
    @property
    def pinged_version(self) -> int | None: ...


class StoredTable(Protocol):
    """A table's rows as a lazy load read them, each part built when first asked:
    :attr:`index` at once, its info, the move writer's cursor and its live state later."""

    @property
    def index(self) -> TableIndex: ...
    @property
    def started(self) -> bool:
        """Whether it has a live state (a snapshot stored: a game, not a lobby)."""
        ...

    def info(self) -> TableInfo: ...
    def cursor(self) -> TableCursor | None: ...
    def state(self) -> Any: ...


class LoadedTable:
    """An active table as loaded at start-up: its info and, once started, its live state
    (the game's :class:`~engine.game.GameState`, restored from its compact snapshot).

    Loaded lazily (``rows``): its info and cursor are built from its stored rows when
    first read, and its state is ``None`` until ``thaw`` is called (it raises if the
    stored game does not read back)."""

    __slots__ = ("_cursor", "_info", "broken", "rows", "state")

    def __init__(
        self,
        info: TableInfo | None,
        state: Any,
        cursor: TableCursor | None = None,
        *,
        broken: str | None = None,
        rows: StoredTable | None = None,
    ) -> None:
        if info is None and rows is None:
            raise ValueError("a loaded table needs its info or its rows")
        self._info = info
        self.state = state
        self._cursor = cursor  # the move writer's, for a game being played
        # why its stored game does not read back (a log that does not replay): the table
        # is then loaded without a state, for its host to close it; its rows stay as they are
        self.broken = broken
        self.rows = rows

    @property
    def info(self) -> TableInfo:
        if self._info is None:
            assert self.rows is not None
            self._info = self.rows.info()
        return self._info

    @property
    def index(self) -> TableIndex:
        """Its info, or (loaded lazily, not built yet) what its row says at once."""
        if self._info is not None or self.rows is None:
            return self.info
        return self.rows.index

    @property
    def cursor(self) -> TableCursor | None:
        if self._cursor is None and self.rows is not None:
            self._cursor = self.rows.cursor()
        return self._cursor

    @property
    def thaw(self) -> Callable[[], Any] | None:
        """What builds its live state (loaded lazily, once started)."""
        if self.rows is None or not self.rows.started:
            return None
        return self.rows.state


THEMES = ("dark", "light")  # the themes a server may choose for its pictures

AnnouncementKind = Literal["message", "table", "round", "game"]
ANNOUNCEMENT_KINDS: tuple[AnnouncementKind, ...] = ("message", "table", "round", "game")


@dataclass(frozen=True, slots=True)
class Announcement:
    """What a write owes the table's channel, stored in the outbox in the same transaction:
    a ``message`` to post (``content``); the ``table`` message to re-render; a ``round``'s
    end (``content``, with a button for round ``round_no``'s full scoring); or the ``game``'s
    end (``content``, with the game's chart)."""

    kind: AnnouncementKind
    content: str = ""
    round_no: int | None = None


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """An announcement not yet delivered to its channel."""

    id: int
    table_id: int
    channel_id: int
    kind: AnnouncementKind
    content: str
    created_at: datetime
    round_no: int | None = None
    guild_id: int | None = None  # the table's server (read with it; None when not)


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What :meth:`Store.record_move` did: the table's version now, whether the
    interaction had been recorded before (then nothing was written), and the ids of the
    outbox rows written with the move, in the order of its announcements."""

    version: int
    duplicate: bool = False
    outbox_ids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A game's score sheet: a row per player, a column per round (none for a game not
    played in rounds), totals (the result's final figures once finished).

    ``target_score`` is the rules' ``target_score`` when the game has one, else 0;
    ``ended_by`` is the game's word for how it ended, once finished.
    """

    table_id: int
    names: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]  # rounds[r][seat]
    totals: tuple[int, ...]
    target_score: int
    finished: bool
    winners: tuple[str, ...] | None
    game: str = DEFAULT_GAME
    ended_by: str | None = None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished game, for a channel's history: ``totals`` are its final figures per
    seat (the outcome's scores: Stack's totals, Stack Up!'s cards left), counted as
    ``higher_wins`` says; ``ended_by`` is the game's word for how it ended."""

    table_id: int
    finished_at: datetime
    rounds_played: int
    players: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[str, ...]
    game: str = DEFAULT_GAME
    ended_by: str = ""
    higher_wins: bool = True


@dataclass(frozen=True, slots=True)
class RecentGame:
    """One of a player's finished games, for their stats chart: the table, when it ended,
    their seat and final figure (their own, also in team play), whether they won (their
    team did, in team play), the game's target (0 for a game without one) and rounds, and
    everyone's names in seat order."""

    table_id: int
    finished_at: datetime
    seat: int
    total: int
    won: bool
    target: int
    rounds: int
    players: tuple[str, ...]
    game: str = DEFAULT_GAME


STACK_FIGURES = ("best_round", "captures", "rounds")  # PlayerStats' fields of before


@dataclass(frozen=True, slots=True, init=False)
class PlayerStats:
    """A player's record in one game on one server, over the games credited to them (a
    seat they left mid-game credits nobody: :func:`persistence.results.credited_stats`).

    ``games``, ``wins`` and ``points`` (the sum of their final figures) are every game's;
    ``figures`` are the game's own (:meth:`engine.game.Game.stats_figures`, added up: a
    ``best_`` figure is the highest seen). ``recent`` holds their last finished games of
    this game on the server, newest first (:meth:`persistence.store.Store.stats` gives the
    last 10; leaderboard rows leave it empty).

    Stack's figures read as before: ``best_round`` (their best round's score),
    ``captures`` (piles captured), ``rounds`` (rounds played) and ``placed[f - 1]`` (dice
    showing ``f`` put on a pile); they may also be given to the constructor, positionally
    as before, and then land in ``figures``.
    """

    user_id: int
    name: str
    games: int
    wins: int
    points: int
    figures: Mapping[str, int]
    recent: tuple[RecentGame, ...]
    game: str

    def __init__(
        self,
        user_id: int,
        name: str,
        games: int,
        wins: int,
        points: int,
        best_round: int | None = None,
        captures: int | None = None,
        rounds: int | None = None,
        placed: tuple[int, ...] | None = None,
        recent: tuple[RecentGame, ...] = (),
        *,
        figures: Mapping[str, int] | None = None,
        game: str = DEFAULT_GAME,
    ) -> None:
        merged = dict(figures or {})
        for key, value in zip(STACK_FIGURES, (best_round, captures, rounds), strict=True):
            if value is not None:
                merged[key] = value
        if placed is not None:
            for face, count in enumerate(placed, start=1):
                merged[f"placed_{face}"] = count
        fields: dict[str, object] = {
            "user_id": user_id,
            "name": name,
            "games": games,
            "wins": wins,
            "points": points,
            "figures": merged,
            "recent": tuple(recent),
            "game": game,
        }
        for attribute, given in fields.items():
            object.__setattr__(self, attribute, given)

    def figure(self, key: str) -> int:
        """One of the game's figures (0 before it was ever counted)."""
        return int(self.figures.get(key, 0))

    @property
    def best_round(self) -> int:
        """Stack: their best round's score."""
        return self.figure("best_round")

    @property
    def captures(self) -> int:
        """Stack: the piles they captured."""
        return self.figure("captures")

    @property
    def rounds(self) -> int:
        """Rounds played (a game played in rounds)."""
        return self.figure("rounds")

    @property
    def placed(self) -> tuple[int, ...]:
        """Stack: ``placed[f - 1]`` counts the dice showing ``f`` they put on a pile (a
        stack, or a rerolled die placed on a pile; a capture's fourth die too)."""
        return tuple(self.figure(f"placed_{face}") for face in FACES)

    @property
    def average_round(self) -> float:
        """Points per round played (0.0 before any round)."""
        return self.points / self.rounds if self.rounds else 0.0

    @property
    def favourite_face(self) -> int | None:
        """Stack: the face (1-6) of the dice they placed on piles most often; on a tie, the
        face worth more (1 is worth 10, then 6, 5, ...). ``None`` before they placed any."""
        placed = self.placed
        if not any(placed):
            return None
        return max(FACES, key=lambda f: (placed[f - 1], face_value(f)))


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    stats: PlayerStats


@dataclass(frozen=True, slots=True)
class Rating:
    """A rated player's skill in one game on one server (:mod:`persistence.ratings`): a
    human (``user_id``) or an AI level (``ai_level``; ``name`` is ``"AI <level>"``).
    ``mu`` is the estimate, ``sigma`` its uncertainty; ``games`` the games rated."""

    name: str
    mu: float
    sigma: float
    games: int
    user_id: int | None = None
    ai_level: str | None = None

    @property
    def ordinal(self) -> float:
        """What is shown and ranked: ``mu - 3 sigma`` (0 for a new player)."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A line of the leaderboard by rating."""

    rank: int
    rating: Rating


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating now, and after each of their last rated games (``recent``: mu
    and sigma, oldest first)."""

    rating: Rating
    recent: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's house rules of one game (and a channel's override, if asked for), turn
    timer, expiry times, theme and language.

    ``rules`` and ``channel_rules`` are instances of the game's settings model
    (:attr:`engine.game.Game.settings`; Stack's ``HouseRules``): the server's rules, and
    when the channel has an override of its own, the rules in force there (the server's,
    with the rules named in ``channel_keys`` set for the channel). ``turn_seconds`` is the
    timer in force: the channel's override (``channel_turn_seconds``) if set, else the
    server's. The timer, expiry and theme are the server's (or channel's), whatever the
    game.
    """

    guild_id: int
    rules: Any
    channel_rules: Any = None
    turn_seconds: int = 120
    channel_turn_seconds: int | None = None
    lobby_timeout: int = 3600  # seconds an idle lobby stays open
    idle_timeout: int = 86400  # seconds a game may go without a human move
    theme: str = "dark"  # the pictures' theme: "dark" or "light" (THEMES)
    game: str = DEFAULT_GAME
    language: str | None = None  # the server's chosen language (a catalog code); None: not chosen
    channel_keys: frozenset[str] = frozenset()  # the rules the channel's override sets

    @property
    def effective(self) -> Any:
        """The rules in force: the channel's override, else the guild's."""
        return self.channel_rules or self.rules


@dataclass(slots=True)
class TableCursor:
    """What the move writer keeps per table between commits."""

    version: int
    rounds_done: int
    snapshot_version: int
    status: str
    guild_id: int
    channel_id: int
    seats: tuple[SeatInfo, ...] = field(default_factory=tuple)
    game: str = DEFAULT_GAME

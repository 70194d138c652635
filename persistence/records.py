"""Small typed records the storage API returns (never raw rows)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from engine.stack.rules import HouseRules, StackRules
from engine.stack.state import StackState

MAX_SEATS = 8


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
    """A table: where it is, who hosts and sits at it, its status and version."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    options: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    version: int
    rules: StackRules | None
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


@dataclass(slots=True)
class LoadedTable:
    """An active table as loaded at start-up: its info and, once started, its live state."""

    info: TableInfo
    state: StackState | None


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
    """A game's score sheet: a row per player, a column per round, totals."""

    table_id: int
    names: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]  # rounds[r][seat]
    totals: tuple[int, ...]
    target_score: int
    finished: bool
    winners: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished game, for a channel's history."""

    table_id: int
    finished_at: datetime
    rounds_played: int
    players: tuple[str, ...]
    totals: tuple[int, ...]
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RecentGame:
    """One of a player's finished games, for their stats chart: the table, when it ended,
    their seat and final total (their own, also in team play), whether they won (their
    team did, in team play), the game's target and rounds, and everyone's names in seat
    order."""

    table_id: int
    finished_at: datetime
    seat: int
    total: int
    won: bool
    target: int
    rounds: int
    players: tuple[str, ...]


FACE_COUNT = 6


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record in one guild, over the games credited to them (a seat they left
    mid-game credits nobody: :func:`persistence.writer.credited_stats`).

    ``points`` is the sum of their final totals, ``rounds`` the rounds they played,
    ``best_round`` their best round's score, ``captures`` the piles they captured.
    ``placed[f - 1]`` counts the dice showing ``f`` they put on a pile (a stack, or a
    rerolled die placed on a pile; a capture's fourth die too); :attr:`favourite_face`
    is the face they placed most. ``recent`` holds their last finished games in the guild,
    newest first (:meth:`persistence.store.Store.stats` gives the last 10; leaderboard
    rows leave it empty).
    """

    user_id: int
    name: str
    games: int
    wins: int
    points: int
    best_round: int
    captures: int
    rounds: int = 0
    placed: tuple[int, ...] = (0,) * FACE_COUNT
    recent: tuple[RecentGame, ...] = ()

    @property
    def average_round(self) -> float:
        """Points per round played (0.0 before any round)."""
        return self.points / self.rounds if self.rounds else 0.0

    @property
    def favourite_face(self) -> int | None:
        """The face (1-6) of the dice they placed on piles most often; on a tie, the
        face worth more (1 is worth 10, then 6, 5, ...). ``None`` before they placed any."""
        if not any(self.placed):
            return None
        return max(range(1, FACE_COUNT + 1), key=lambda f: (self.placed[f - 1], _worth(f)))


def _worth(face: int) -> int:
    return 10 if face == 1 else face


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int
    stats: PlayerStats


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A guild's house rules (and a channel's override, if asked for), turn timer and
    expiry times.

    ``turn_seconds`` is the timer in force: the channel's override
    (``channel_turn_seconds``) if set, else the server's.
    """

    guild_id: int
    rules: HouseRules
    channel_rules: HouseRules | None = None
    turn_seconds: int = 120
    channel_turn_seconds: int | None = None
    lobby_timeout: int = 3600  # seconds an idle lobby stays open
    idle_timeout: int = 86400  # seconds a game may go without a human move
    theme: str = "dark"  # the pictures' theme: "dark" or "light" (THEMES)

    @property
    def effective(self) -> HouseRules:
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

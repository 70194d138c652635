"""The storage API the bot uses: settings, tables and seats, moves, the outbox, scores and
stats.

Every method is async, validates its input before writing, and raises a specific
:mod:`persistence.errors` exception (writing nothing) when the input is wrong. Every
durable write goes through the one group-commit writer (:mod:`persistence.writer`), so
lobbies, seats, ends and settings share the moves' transactions instead of committing on
their own.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Concatenate, Literal, ParamSpec, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.stack.moves import Move, move_to_json
from engine.stack.record import export_record
from engine.stack.rules import HouseRules
from engine.stack.state import StackState
from persistence import operations, queries
from persistence.database import make_engine
from persistence.errors import InvalidSettings, NotSeated, TableExists, TableNotFound
from persistence.migrate import upgrade_database
from persistence.records import (
    ANNOUNCEMENT_KINDS,
    THEMES,
    Announcement,
    GameSummary,
    GuildSettings,
    LeaderboardRow,
    LoadedTable,
    MoveResult,
    OutboxItem,
    PlayerStats,
    ScoreSheet,
    TableInfo,
)
from persistence.rows import read_table
from persistence.schema import ACTIVE, tables
from persistence.settings import (
    IDLE_TIMEOUT,
    LOBBY_TIMEOUT,
    MAX_TURN_SECONDS,
    SettingsCache,
    check_timeout,
    check_turn_seconds,
    read_settings,
    reset_rules,
    upsert_channel,
    upsert_guild,
    validate_rules,
)
from persistence.writer import MoveWrite, MoveWriter, Operation, ResultRow, WriteContext

SNAPSHOT_EVERY = 16
AI_LEVELS = ("random", "greedy")
__all__ = ["AI_LEVELS", "MAX_TURN_SECONDS", "SNAPSHOT_EVERY", "Store"]
P = ParamSpec("P")
T = TypeVar("T")


class Store:
    """The database of one bot. Open it with :meth:`open`; close it with :meth:`close`."""

    def __init__(self, engine: AsyncEngine, *, snapshot_every: int = SNAPSHOT_EVERY) -> None:
        self.engine = engine
        self.snapshot_every = snapshot_every
        self.writer = MoveWriter(engine)
        self.settings_cache = SettingsCache()

    @classmethod
    async def open(cls, url: str | None = None, **engine_options: Any) -> Store:
        """Connect to ``url`` (default ``$DATABASE_URL`` or ``./stackbot.db``) and migrate.

        Raises :class:`~persistence.errors.DatabaseRefused` for a database that is newer
        than this code or not stackbot's; it is left untouched.
        """
        engine = make_engine(url, **engine_options)
        try:
            await upgrade_database(engine)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine)

    async def close(self) -> None:
        """Stop the writer (after the writes already queued) and close every connection."""
        await self.writer.stop()
        await self.engine.dispose()

    # ------------------------------------------------------------------ settings

    async def guild_settings(self, guild_id: int, channel_id: int | None = None) -> GuildSettings:
        """The guild's house rules, turn timer and expiry times, and the channel's
        overrides if any. Cached: no query in the steady state; every settings write of
        this process empties the cache."""
        cached = self.settings_cache.get(guild_id, channel_id)
        if cached is not None:
            return cached
        generation = self.settings_cache.generation
        async with self.engine.connect() as conn:
            settings = await read_settings(conn, guild_id, channel_id)
        self.settings_cache.put(settings, channel_id, generation)
        return settings

    async def set_house_rules(
        self, guild_id: int, rules: HouseRules | dict[str, Any], channel_id: int | None = None
    ) -> HouseRules:
        """Store the guild's house rules (or, with ``channel_id``, that channel's override,
        keeping its timer override). ``rules`` may be a dict; :class:`InvalidSettings` if it
        does not validate."""
        checked = validate_rules(rules)
        record = checked.model_dump()
        if channel_id is None:
            await self._settings_write(_bind(upsert_guild, guild_id, rules=record))
        else:
            await self._settings_write(_bind(upsert_channel, guild_id, channel_id, rules=record))
        return checked

    async def reset_house_rules(self, guild_id: int, channel_id: int | None = None) -> None:
        """Back to the defaults: the guild's rules, or the channel's whole override (its
        rules and its timer)."""
        await self._settings_write(_bind(reset_rules, guild_id, channel_id))

    async def set_turn_timer(
        self, guild_id: int, seconds: int | None, channel_id: int | None = None
    ) -> None:
        """The turn timer in seconds (0 = off, at most an hour): the server's, or with
        ``channel_id`` that channel's override (its rules override is kept). ``None`` with
        a channel removes the channel's timer override."""
        if seconds is None and channel_id is not None:
            await self._settings_write(
                _bind(upsert_channel, guild_id, channel_id, turn_seconds=None)
            )
            return
        checked = check_turn_seconds(seconds)
        if channel_id is None:
            await self._settings_write(_bind(upsert_guild, guild_id, turn_seconds=checked))
        else:
            await self._settings_write(
                _bind(upsert_channel, guild_id, channel_id, turn_seconds=checked)
            )

    async def set_expiry(
        self, guild_id: int, *, lobby_timeout: int | None = None, idle_timeout: int | None = None
    ) -> None:
        """How long an idle lobby stays open (60 s to 7 days) and a game may go without a
        human move (1 hour to 30 days), in seconds; :class:`InvalidSettings` otherwise."""
        values: dict[str, int] = {}
        if lobby_timeout is not None:
            values["lobby_timeout"] = check_timeout(lobby_timeout, LOBBY_TIMEOUT, "lobby timeout")
        if idle_timeout is not None:
            values["idle_timeout"] = check_timeout(idle_timeout, IDLE_TIMEOUT, "idle timeout")
        if values:
            await self._settings_write(_bind(upsert_guild, guild_id, **values))

    async def set_theme(self, guild_id: int, theme: str) -> None:
        """The theme of the pictures drawn for the server: one of :data:`THEMES`
        (``dark``, the default, or ``light``); :class:`InvalidSettings` otherwise."""
        if theme not in THEMES:
            raise InvalidSettings(f"The theme is one of {', '.join(THEMES)}, not {theme!r}.")
        await self._settings_write(_bind(upsert_guild, guild_id, theme=theme))

    async def _settings_write(self, operation: Operation[None]) -> None:
        """A settings write, through the writer; the cache is emptied once it committed."""
        await self.writer.run(operation, after_commit=self.settings_cache.invalidate)

    # ------------------------------------------------------------------ tables and seats

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any] | None = None,
    ) -> TableInfo:
        """Open a lobby in the channel with the host seated; :class:`TableExists` if the
        channel already has an active table. ``options`` override the house rules for
        this table (validated as house rules)."""
        opts = dict(options or {})
        unknown = set(opts) - set(HouseRules.model_fields)
        if unknown:
            raise InvalidSettings(f"Unknown table option {sorted(unknown)[0]!r}.")
        validate_rules(opts)
        _check_name(host_name)

        def taken(_: IntegrityError) -> Exception:
            return TableExists(channel_id)

        return await self.writer.run(
            _bind(operations.create_table, guild_id, channel_id, host_id, host_name, opts),
            explain=taken,
        )

    async def table(self, table_id: int) -> TableInfo:
        """The table with that id; :class:`TableNotFound` if there is none."""
        async with self.engine.connect() as conn:
            return await read_table(conn, table_id)

    async def active_table(self, channel_id: int) -> TableInfo:
        """The channel's active table; :class:`TableNotFound` if it has none."""
        async with self.engine.connect() as conn:
            return await read_table(conn, await queries.active_table_id(conn, channel_id))

    async def join_table(self, table_id: int, user_id: int, name: str) -> TableInfo:
        """Seat a player in a lobby."""
        _check_name(name)
        return await self.writer.run(_bind(operations.join_table, table_id, user_id, name))

    async def add_ai(self, table_id: int, level: str = "greedy") -> TableInfo:
        """Seat an AI player of ``level`` in a lobby."""
        _check_level(level)
        return await self.writer.run(_bind(operations.add_ai, table_id, level))

    async def leave_lobby(self, table_id: int, user_id: int) -> TableInfo:
        """Take a player (or, by the host, a kicked player) out of a lobby.

        When the host leaves, the next human becomes host; a lobby left with no human is
        abandoned.
        """
        return await self.writer.run(_bind(operations.leave_lobby, table_id, user_id))

    async def remove_ai(self, table_id: int, position: int) -> TableInfo:
        """Take an AI seat out of a lobby."""
        return await self.writer.run(_bind(operations.remove_ai, table_id, position))

    async def start_table(
        self, table_id: int, seat_order: Sequence[int], state: StackState, opening: Sequence[Move]
    ) -> TableInfo:
        """Start a lobby: seat its members in ``seat_order`` (their lobby positions), take
        the rules snapshot from ``state``, and log the ``opening`` moves (the roll-off and
        first dice) that brought ``state`` to where it is."""
        order = list(seat_order)
        return await self.writer.run(
            _bind(operations.start_table, table_id, order, state, list(opening))
        )

    async def end_table(
        self,
        table_id: int,
        status: Literal["abandoned", "finished"] = "abandoned",
        *,
        announcements: Sequence[Announcement] = (),
    ) -> TableInfo:
        """Close an active table (ended by its host or a manager, left with no human, or
        expired), with what that owes the channel in the outbox, in the same transaction."""
        _check_announcements(announcements)
        return await self.writer.run(
            _bind(operations.end_table, table_id, status, list(announcements))
        )

    async def set_seat_ai(
        self,
        table_id: int,
        position: int,
        level: str = "greedy",
        *,
        left: bool = False,
        announcements: Sequence[Announcement] = (),
    ) -> TableInfo:
        """Hand a seat to the AI: its player left or was kicked (``left``), or timed out
        too often. When the player who left was the host, the next seat (in seat order
        after theirs, wrapping) still played by a human becomes host, in the same
        transaction; with no human left the host stays (and the table is closed)."""
        _check_level(level)
        _check_announcements(announcements)
        return await self.writer.run(
            _bind(operations.set_seat_ai, table_id, position, level, left, list(announcements))
        )

    async def set_timeouts(self, table_id: int, position: int, count: int) -> None:
        """How many turns in a row the seat's player has let run out."""
        await self.writer.run(_bind(operations.set_timeouts, table_id, position, count))

    async def set_message(
        self,
        table_id: int,
        channel_id: int,
        message_id: int | None,
        *,
        pinged_version: int | None = None,
    ) -> None:
        """Where the table's live message is, so it can be found after a restart (and,
        when given, the table version whose turn ping it carried)."""
        values: dict[str, Any] = {"message_channel_id": channel_id, "message_id": message_id}
        if pinged_version is not None:
            values["pinged_version"] = pinged_version
        await self.writer.run(_bind(operations.update_table, table_id, values))

    async def set_deadline(self, table_id: int, deadline: datetime | None) -> None:
        """When the current turn runs out (``None``: no timer running)."""
        if deadline is not None and deadline.tzinfo is None:
            raise InvalidSettings("A deadline needs a time zone.")
        await self.writer.run(_bind(operations.update_table, table_id, {"deadline": deadline}))

    # ------------------------------------------------------------------ the outbox

    async def pending_outbox(self, table_id: int | None = None) -> list[OutboxItem]:
        """The announcements not yet delivered (of one table, or all), oldest first."""
        async with self.engine.connect() as conn:
            return await queries.pending_outbox(conn, table_id)

    async def mark_delivered(self, ids: Sequence[int]) -> None:
        """These outbox rows reached their channel."""
        if ids:
            await self.writer.run(_bind(operations.mark_delivered, list(ids)))

    async def purge_delivered(self, before: datetime) -> int:
        """Delete the outbox rows delivered before ``before``; how many there were."""
        if before.tzinfo is None:
            raise InvalidSettings("A time needs a time zone.")
        return await self.writer.run(_bind(operations.purge_delivered, before))

    # ------------------------------------------------------------------ moves

    async def record_move(
        self,
        table_id: int,
        expected_version: int,
        moves_made: Sequence[Move],
        state: StackState,
        interaction_id: str | int | None = None,
        *,
        announcements: Sequence[Announcement] = (),
        timeouts: Mapping[int, int] | None = None,
        to_ai: Mapping[int, str] | None = None,
        human: bool = False,
    ) -> MoveResult:
        """Durably log ``moves_made`` (a player's move and the dice it led to), which took
        the table from ``expected_version`` to ``state``.

        Stored whole in one transaction — log rows, version, round scores, result and
        stats, and with it: outbox rows for the table's channel (``announcements``;
        their ids come back in :attr:`MoveResult.outbox_ids`, in order), seats' timeout
        counts (``timeouts``: position → count), seats handed to an AI after timing out
        (``to_ai``: position → level; their players have not left), and, for a ``human``
        move, the table's ``last_active_at`` — or not at all.
        :class:`~persistence.errors.StaleVersion` if the table is no longer at
        ``expected_version``; an ``interaction_id`` seen before returns
        ``MoveResult(duplicate=True)`` and writes nothing.
        """
        if not moves_made:
            raise ValueError("record_move needs at least one move.")
        _check_announcements(announcements)
        cur = await self.writer.cursor(table_id)
        seat_count = len(cur.seats)
        for position, count in (timeouts or {}).items():
            _check_position(table_id, position, seat_count)
            if type(count) is not int or count < 0:
                raise InvalidSettings("A timeout count is a whole number, 0 or more.")
        for position, level in (to_ai or {}).items():
            _check_position(table_id, position, seat_count)
            _check_level(level)
        version_after = expected_version + len(moves_made)
        due = (
            version_after - cur.snapshot_version >= self.snapshot_every
            or len(state.round_scores) != cur.rounds_done
            or state.is_over
        )
        loop_future: asyncio.Future[MoveResult] = asyncio.get_running_loop().create_future()
        write = MoveWrite(
            table_id=table_id,
            expected=expected_version,
            moves=[move_to_json(m) for m in moves_made],
            interaction_id=None if interaction_id is None else str(interaction_id),
            round_scores=[list(r) for r in state.round_scores],
            snapshot=state.to_dict(full_history=False) if due else None,
            result=await self._result(table_id, state, moves_made) if state.is_over else None,
            future=loop_future,
            announcements=list(announcements),
            timeouts=dict(timeouts or {}),
            to_ai=dict(to_ai or {}),
            human=human,
        )
        return await self.writer.submit(write)

    # ------------------------------------------------------------------ loading

    async def load_table(self, table_id: int) -> LoadedTable:
        """A table with its live state rebuilt (snapshot plus the moves logged after it).

        The state is compact: it holds the current round's turns, not the earlier rounds'
        (:meth:`replay_log` rebuilds those).
        """
        async with self.engine.connect() as conn:
            loaded = await queries.load_tables(conn, tables.c.id == table_id)
        if not loaded:
            raise TableNotFound(f"There is no table {table_id}.")
        return loaded[0]

    async def load_active_tables(self) -> list[LoadedTable]:
        """Every lobby and game in progress, with live states, for start-up.

        The cyclic garbage collector is paused while the states are built (each pass would
        rescan every state built so far), and the loaded objects are then frozen out of its
        way: they live as long as their tables.
        """
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            async with self.engine.connect() as conn:
                loaded = await queries.load_tables(conn, tables.c.status.in_(ACTIVE))
        finally:
            if was_enabled:
                gc.enable()
        gc.freeze()
        return loaded

    async def replay_log(self, table_id: int) -> StackState:
        """The table's state rebuilt from its whole move log alone (no snapshot)."""
        async with self.engine.connect() as conn:
            return await queries.replay_log(conn, table_id)

    async def export_record(self, table_id: int) -> dict[str, Any]:
        """The game's record (``stack-record/1``), finished or running."""
        return export_record(await self.replay_log(table_id))

    # ------------------------------------------------------------------ scores and stats

    async def score_sheet(self, table_id: int) -> ScoreSheet:
        """The game's score sheet from the stored round scores."""
        async with self.engine.connect() as conn:
            return await queries.score_sheet(conn, table_id)

    async def history(self, channel_id: int, limit: int = 10) -> list[GameSummary]:
        """The channel's finished games, newest first."""
        async with self.engine.connect() as conn:
            return await queries.history(conn, channel_id, limit)

    async def leaderboard(
        self, guild_id: int, by: Literal["wins", "points"] = "wins", limit: int = 10
    ) -> list[LeaderboardRow]:
        """The guild's best players by wins (then points) or by points (then wins)."""
        async with self.engine.connect() as conn:
            return await queries.leaderboard(conn, guild_id, by, limit)

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A player's stats in the guild, or ``None`` before their first finished game:
        games, wins, points (their final totals added up), rounds played (and so
        :attr:`~PlayerStats.average_round`), best round, captures, dice placed per face
        (and so :attr:`~PlayerStats.favourite_face`), and their last 10 finished games
        here, newest first (:attr:`~PlayerStats.recent`). Only games credited to them
        count: not one whose seat they left."""
        async with self.engine.connect() as conn:
            return await queries.player(conn, guild_id, user_id)

    async def _result(
        self, table_id: int, state: StackState, moves_made: Sequence[Move]
    ) -> ResultRow:
        """The result of a game that ``moves_made`` just ended. The dice each seat placed
        come from the state's history; a state loaded compact (after a restart) holds
        only its last round, so the game is then replayed from its log (once per game)."""
        if state.has_full_history:
            return _result(state, queries.placed_counts(state))
        async with self.engine.connect() as conn:
            whole = await queries.replay_log(conn, table_id)
        for move in moves_made:
            whole.apply(move)
        return _result(state, queries.placed_counts(whole))

    async def count_tables(self) -> int:
        async with self.engine.connect() as conn:
            return await queries.count_tables(conn)


def _bind(
    operation: Callable[Concatenate[WriteContext, P], Awaitable[T]],
    *args: P.args,
    **kwargs: P.kwargs,
) -> Operation[T]:
    """``operation`` with its arguments: a function of the write context alone."""

    def bound(ctx: WriteContext) -> Awaitable[T]:
        return operation(ctx, *args, **kwargs)

    return bound


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise InvalidSettings("A player's name must be 1 to 100 characters.")


def _check_level(level: str) -> None:
    if level not in AI_LEVELS:
        raise InvalidSettings(
            f"There is no AI level {level!r}; choose from {', '.join(AI_LEVELS)}."
        )


def _check_position(table_id: int, position: int, seat_count: int) -> None:
    if type(position) is not int or not 0 <= position < seat_count:
        raise NotSeated(f"Table {table_id} has no seat {position}.")


def _check_announcements(announcements: Sequence[Announcement]) -> None:
    for a in announcements:
        if not isinstance(a, Announcement) or a.kind not in ANNOUNCEMENT_KINDS:
            raise ValueError(f"Not an announcement: {a!r}.")
        if not isinstance(a.content, str):
            raise ValueError("An announcement's content is text.")
        if (a.round_no is not None) != (a.kind == "round"):
            raise ValueError("A round announcement, and only one, names its round.")


def _result(state: StackState, placed: list[list[int]]) -> ResultRow:
    """The finished game's figures per seat; the writer credits them to the players whose
    seats they are (:func:`persistence.writer.credited_stats`)."""
    assert state.winner is not None
    captures = state.capture_counts
    seat_count = len(state.players)
    return ResultRow(
        list(state.winner),
        list(state.totals),
        len(state.round_scores),
        [max((r[p] for r in state.round_scores), default=0) for p in range(seat_count)],
        [captures[p] for p in range(seat_count)],
        placed,
    )

"""The storage API the bot uses: settings, tables and seats, moves, scores and stats.

Every method is async, validates its input before writing, and raises a specific
:mod:`persistence.errors` exception (writing nothing) when the input is wrong.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import ValidationError
from sqlalchemy import Row, and_, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from engine.stack.moves import Move, move_from_json, move_to_json
from engine.stack.record import export_record
from engine.stack.rules import HouseRules, StackRules, rules_error
from engine.stack.state import StackState
from persistence.database import make_engine
from persistence.errors import (
    AlreadySeated,
    InvalidSettings,
    NotSeated,
    TableExists,
    TableFull,
    TableNotFound,
    WrongTableStatus,
)
from persistence.migrate import upgrade_database
from persistence.records import (
    MAX_SEATS,
    GameSummary,
    GuildSettings,
    LeaderboardRow,
    LoadedTable,
    MoveResult,
    PlayerStats,
    ScoreSheet,
    SeatInfo,
    TableCursor,
    TableInfo,
)
from persistence.schema import (
    ACTIVE,
    channel_settings,
    guild_settings,
    moves,
    player_stats,
    results,
    round_scores,
    seats,
    snapshots,
    tables,
)
from persistence.writer import MoveWrite, MoveWriter, ResultRow

SNAPSHOT_EVERY = 16
MAX_TURN_SECONDS = 3600
AI_LEVELS = ("random", "greedy")


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without a zone; they were stored in UTC."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


class Store:
    """The database of one bot. Open it with :meth:`open`; close it with :meth:`close`."""

    def __init__(self, engine: AsyncEngine, *, snapshot_every: int = SNAPSHOT_EVERY) -> None:
        self.engine = engine
        self.snapshot_every = snapshot_every
        self.writer = MoveWriter(engine, self._load_cursor)

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
        """Stop the move writer and close every connection."""
        await self.writer.stop()
        await self.engine.dispose()

    # ------------------------------------------------------------------ settings

    async def guild_settings(self, guild_id: int, channel_id: int | None = None) -> GuildSettings:
        """The guild's house rules and turn timer, and the channel's override if any."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(guild_settings).where(guild_settings.c.guild_id == guild_id)
                )
            ).first()
            channel_rules = None
            if channel_id is not None:
                crow = (
                    await conn.execute(
                        select(channel_settings.c.rules).where(
                            channel_settings.c.channel_id == channel_id
                        )
                    )
                ).first()
                if crow is not None:
                    channel_rules = HouseRules.model_validate(crow.rules)
        rules = (
            HouseRules.model_validate(row.rules) if row is not None and row.rules else HouseRules()
        )
        seconds = row.turn_seconds if row is not None else 120
        return GuildSettings(guild_id, rules, channel_rules, seconds)

    async def set_house_rules(
        self, guild_id: int, rules: HouseRules | dict[str, Any], channel_id: int | None = None
    ) -> HouseRules:
        """Store the guild's house rules (or, with ``channel_id``, that channel's override).

        ``rules`` may be a dict; :class:`InvalidSettings` if it does not validate.
        """
        checked = _validate_rules(rules)
        now = _now()
        async with self.engine.begin() as conn:
            if channel_id is None:
                await self._upsert_guild(conn, guild_id, rules=checked.model_dump(), now=now)
            else:
                await conn.execute(
                    delete(channel_settings).where(channel_settings.c.channel_id == channel_id)
                )
                await conn.execute(
                    channel_settings.insert().values(
                        channel_id=channel_id,
                        guild_id=guild_id,
                        rules=checked.model_dump(),
                        updated_at=now,
                    )
                )
        return checked

    async def reset_house_rules(self, guild_id: int, channel_id: int | None = None) -> None:
        """Back to the defaults: the guild's rules, or just the channel's override."""
        async with self.engine.begin() as conn:
            if channel_id is None:
                await conn.execute(
                    update(guild_settings)
                    .where(guild_settings.c.guild_id == guild_id)
                    .values(rules=None)
                )
            else:
                await conn.execute(
                    delete(channel_settings).where(channel_settings.c.channel_id == channel_id)
                )

    async def set_turn_timer(self, guild_id: int, seconds: int) -> None:
        """The turn timer in seconds (0 = off, at most an hour)."""
        if type(seconds) is not int or not 0 <= seconds <= MAX_TURN_SECONDS:
            raise InvalidSettings(f"The turn timer must be 0 (off) to {MAX_TURN_SECONDS} seconds.")
        async with self.engine.begin() as conn:
            await self._upsert_guild(conn, guild_id, turn_seconds=seconds, now=_now())

    async def _upsert_guild(
        self, conn: AsyncConnection, guild_id: int, *, now: datetime, **values: Any
    ) -> None:
        changed = await conn.execute(
            update(guild_settings)
            .where(guild_settings.c.guild_id == guild_id)
            .values(updated_at=now, **values)
        )
        if not changed.rowcount:
            await conn.execute(
                guild_settings.insert().values(guild_id=guild_id, updated_at=now, **values)
            )

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
        _validate_rules(opts)
        _check_name(host_name)
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(
                    tables.insert().values(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=host_id,
                        status="lobby",
                        options=opts,
                        created_at=_now(),
                    )
                )
                key = result.inserted_primary_key
                assert key is not None
                table_id = int(key[0])
                await conn.execute(
                    seats.insert().values(
                        table_id=table_id, position=0, user_id=host_id, name=host_name
                    )
                )
        except IntegrityError:
            raise TableExists(channel_id) from None
        return await self.table(table_id)

    async def table(self, table_id: int) -> TableInfo:
        """The table with that id; :class:`TableNotFound` if there is none."""
        async with self.engine.connect() as conn:
            return await self._table(conn, table_id)

    async def active_table(self, channel_id: int) -> TableInfo:
        """The channel's active table; :class:`TableNotFound` if it has none."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(tables.c.id).where(
                        tables.c.channel_id == channel_id, tables.c.status.in_(ACTIVE)
                    )
                )
            ).first()
            if row is None:
                raise TableNotFound(f"Channel {channel_id} has no active table.")
            return await self._table(conn, row.id)

    async def join_table(self, table_id: int, user_id: int, name: str) -> TableInfo:
        """Seat a player in a lobby."""
        _check_name(name)
        async with self.engine.begin() as conn:
            info = await self._table(conn, table_id)
            _need(info, "lobby")
            if info.seat_of(user_id) is not None:
                raise AlreadySeated(f"{name} is already at this table.")
            if len(info.seats) >= MAX_SEATS:
                raise TableFull(f"The table is full ({MAX_SEATS} players).")
            await conn.execute(
                seats.insert().values(
                    table_id=table_id, position=len(info.seats), user_id=user_id, name=name
                )
            )
        return await self.table(table_id)

    async def add_ai(self, table_id: int, level: str = "greedy") -> TableInfo:
        """Seat an AI player of ``level`` in a lobby."""
        if level not in AI_LEVELS:
            raise InvalidSettings(
                f"There is no AI level {level!r}; choose from {', '.join(AI_LEVELS)}."
            )
        async with self.engine.begin() as conn:
            info = await self._table(conn, table_id)
            _need(info, "lobby")
            if len(info.seats) >= MAX_SEATS:
                raise TableFull(f"The table is full ({MAX_SEATS} players).")
            names = {s.name for s in info.seats}
            number = 1
            while f"AI {number}" in names:
                number += 1
            await conn.execute(
                seats.insert().values(
                    table_id=table_id, position=len(info.seats), name=f"AI {number}", ai_level=level
                )
            )
        return await self.table(table_id)

    async def leave_lobby(self, table_id: int, user_id: int) -> TableInfo:
        """Take a player (or, by the host, a kicked player) out of a lobby.

        When the host leaves, the next human becomes host; a lobby left with no human is
        abandoned.
        """
        async with self.engine.begin() as conn:
            info = await self._table(conn, table_id)
            _need(info, "lobby")
            seat = info.seat_of(user_id)
            if seat is None:
                raise NotSeated(f"User {user_id} is not at table {table_id}.")
            await self._remove_seat(conn, info, seat.position)
            rest = [s for s in info.seats if s.position != seat.position]
            humans = [s for s in rest if s.user_id is not None]
            if not humans:
                await conn.execute(
                    update(tables)
                    .where(tables.c.id == table_id)
                    .values(status="abandoned", finished_at=_now())
                )
            elif user_id == info.host_id:
                await conn.execute(
                    update(tables).where(tables.c.id == table_id).values(host_id=humans[0].user_id)
                )
        return await self.table(table_id)

    async def remove_ai(self, table_id: int, position: int) -> TableInfo:
        """Take an AI seat out of a lobby."""
        async with self.engine.begin() as conn:
            info = await self._table(conn, table_id)
            _need(info, "lobby")
            seat = next((s for s in info.seats if s.position == position), None)
            if seat is None or not seat.is_ai:
                raise NotSeated(f"Seat {position} of table {table_id} is not an AI seat.")
            await self._remove_seat(conn, info, position)
        return await self.table(table_id)

    async def _remove_seat(self, conn: AsyncConnection, info: TableInfo, position: int) -> None:
        await conn.execute(
            delete(seats).where(seats.c.table_id == info.id, seats.c.position == position)
        )
        # keep positions 0..n-1 in join order
        for s in info.seats:
            if s.position > position:
                await conn.execute(
                    update(seats)
                    .where(seats.c.table_id == info.id, seats.c.position == s.position)
                    .values(position=s.position - 1)
                )

    async def start_table(
        self, table_id: int, seat_order: Sequence[int], state: StackState, opening: Sequence[Move]
    ) -> TableInfo:
        """Start a lobby: seat its members in ``seat_order`` (their lobby positions), take
        the rules snapshot from ``state``, and log the ``opening`` moves (the roll-off and
        first dice) that brought ``state`` to where it is."""
        async with self.engine.begin() as conn:
            info = await self._table(conn, table_id)
            _need(info, "lobby")
            if sorted(seat_order) != list(range(len(info.seats))):
                raise InvalidSettings("The seat order must name every lobby seat once.")
            names = tuple(info.seats[p].name for p in seat_order)
            if names != state.players:
                raise InvalidSettings("The game's players are not the lobby's, in that order.")
            now = _now()
            # rewrite the seats in playing order (through temporary negative positions)
            for new, old in enumerate(seat_order):
                await conn.execute(
                    update(seats)
                    .where(seats.c.table_id == table_id, seats.c.position == old)
                    .values(position=-1 - new)
                )
            await conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id)
                .values(position=-seats.c.position - 1)
            )
            version = len(opening)
            if opening:
                await conn.execute(
                    moves.insert(),
                    [
                        {
                            "table_id": table_id,
                            "seq": i + 1,
                            "move": move_to_json(m),
                            "created_at": now,
                        }
                        for i, m in enumerate(opening)
                    ],
                )
            await conn.execute(
                update(tables)
                .where(tables.c.id == table_id)
                .values(
                    status="playing",
                    rules=state.rules.to_record(),
                    version=version,
                    rounds_done=len(state.round_scores),
                    started_at=now,
                )
            )
            await conn.execute(
                snapshots.insert().values(
                    table_id=table_id, version=version, state=state.to_dict(full_history=False)
                )
            )
            started = await self._table(conn, table_id)
        # the writer needs no query for this table's first move
        self.writer.cursors[table_id] = TableCursor(
            version,
            len(state.round_scores),
            version,
            "playing",
            started.guild_id,
            started.channel_id,
            started.seats,
        )
        return started

    async def end_table(
        self, table_id: int, status: Literal["abandoned", "finished"] = "abandoned"
    ) -> TableInfo:
        """Close an active table (ended by its host or a manager, or left with no human)."""
        async with self.engine.begin() as conn:
            info = await self._table(conn, table_id)
            if not info.is_active:
                raise WrongTableStatus(table_id, info.status, "lobby or playing")
            await conn.execute(
                update(tables)
                .where(tables.c.id == table_id)
                .values(status=status, finished_at=_now(), deadline=None)
            )
        self.writer.forget(table_id)
        return await self.table(table_id)

    async def set_seat_ai(
        self, table_id: int, position: int, level: str = "greedy", *, left: bool = False
    ) -> TableInfo:
        """Hand a seat to the AI (its player left, or timed out too often)."""
        if level not in AI_LEVELS:
            raise InvalidSettings(f"There is no AI level {level!r}.")
        async with self.engine.begin() as conn:
            info = await self._table(conn, table_id)
            _need(info, "playing")
            if not 0 <= position < len(info.seats):
                raise NotSeated(f"Table {table_id} has no seat {position}.")
            await conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.position == position)
                .values(ai_level=level, left_game=left)
            )
        self.writer.forget(table_id)
        return await self.table(table_id)

    async def set_timeouts(self, table_id: int, position: int, count: int) -> None:
        """How many turns in a row the seat's player has let run out."""
        async with self.engine.begin() as conn:
            changed = await conn.execute(
                update(seats)
                .where(seats.c.table_id == table_id, seats.c.position == position)
                .values(timeouts=count)
            )
            if not changed.rowcount:
                raise NotSeated(f"Table {table_id} has no seat {position}.")

    async def set_message(self, table_id: int, channel_id: int, message_id: int | None) -> None:
        """Where the table's live message is, so it can be found after a restart."""
        await self._update_table(table_id, message_channel_id=channel_id, message_id=message_id)

    async def set_deadline(self, table_id: int, deadline: datetime | None) -> None:
        """When the current turn runs out (``None``: no timer running)."""
        if deadline is not None and deadline.tzinfo is None:
            raise InvalidSettings("A deadline needs a time zone.")
        await self._update_table(table_id, deadline=deadline)

    async def _update_table(self, table_id: int, **values: Any) -> None:
        async with self.engine.begin() as conn:
            changed = await conn.execute(
                update(tables).where(tables.c.id == table_id).values(**values)
            )
            if not changed.rowcount:
                raise TableNotFound(f"There is no table {table_id}.")

    # ------------------------------------------------------------------ moves

    async def record_move(
        self,
        table_id: int,
        expected_version: int,
        moves_made: Sequence[Move],
        state: StackState,
        interaction_id: str | int | None = None,
    ) -> MoveResult:
        """Durably log ``moves_made`` (a player's move and the dice it led to), which took
        the table from ``expected_version`` to ``state``.

        Stored whole — log rows, version, round scores, result and stats — or not at all.
        :class:`~persistence.errors.StaleVersion` if the table is no longer at
        ``expected_version``; an ``interaction_id`` seen before returns
        ``MoveResult(duplicate=True)`` and writes nothing.
        """
        if not moves_made:
            raise ValueError("record_move needs at least one move.")
        cur = await self.writer.cursor(table_id)
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
            result=_result(state, cur) if state.is_over else None,
            future=loop_future,
        )
        return await self.writer.submit(write)

    async def _load_cursor(self, conn: AsyncConnection, table_id: int) -> TableCursor:
        row = (
            await conn.execute(
                select(
                    tables.c.version,
                    tables.c.rounds_done,
                    func.coalesce(snapshots.c.version, 0).label("snapshot_version"),
                    tables.c.status,
                    tables.c.guild_id,
                    tables.c.channel_id,
                )
                .select_from(tables.outerjoin(snapshots, snapshots.c.table_id == tables.c.id))
                .where(tables.c.id == table_id)
            )
        ).first()
        if row is None:
            raise TableNotFound(f"There is no table {table_id}.")
        seat_rows = await conn.execute(
            select(seats).where(seats.c.table_id == table_id).order_by(seats.c.position)
        )
        return TableCursor(
            row.version,
            row.rounds_done,
            row.snapshot_version,
            row.status,
            row.guild_id,
            row.channel_id,
            tuple(_seat(s) for s in seat_rows),
        )

    # ------------------------------------------------------------------ loading

    async def load_table(self, table_id: int) -> LoadedTable:
        """A table with its live state rebuilt (snapshot plus the moves logged after it).

        The state is compact: it holds the current round's turns, not the earlier rounds'
        (:meth:`replay_log` rebuilds those).
        """
        loaded = await self._load(tables.c.id == table_id)
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
            loaded = await self._load(tables.c.status.in_(ACTIVE))
        finally:
            if was_enabled:
                gc.enable()
        gc.freeze()
        return loaded

    async def _load(self, where: Any) -> list[LoadedTable]:
        async with self.engine.connect() as conn:
            table_rows = (
                await conn.execute(
                    select(tables, snapshots.c.state.label("snapshot"))
                    .select_from(tables.outerjoin(snapshots, snapshots.c.table_id == tables.c.id))
                    .where(where)
                    .order_by(tables.c.id)
                )
            ).all()
            ids = [r.id for r in table_rows]
            by_table: dict[int, list[SeatInfo]] = {i: [] for i in ids}
            tails: dict[int, list[Any]] = {i: [] for i in ids}
            if ids:
                seat_rows = await conn.execute(
                    select(seats)
                    .join(tables, tables.c.id == seats.c.table_id)
                    .where(where)
                    .order_by(seats.c.table_id, seats.c.position)
                )
                for s in seat_rows:
                    by_table[s.table_id].append(_seat(s))
                move_rows = await conn.execute(
                    select(moves.c.table_id, moves.c.move)
                    .join(tables, tables.c.id == moves.c.table_id)
                    .join(snapshots, snapshots.c.table_id == moves.c.table_id)
                    .where(where, moves.c.seq > snapshots.c.version)
                    .order_by(moves.c.table_id, moves.c.seq)
                )
                for m in move_rows:
                    tails[m.table_id].append(m.move)
        out = []
        for row in table_rows:
            info = _info(row, tuple(by_table[row.id]))
            state = None
            if row.snapshot is not None:
                state = StackState.from_dict(row.snapshot)
                for move in tails[row.id]:
                    state.apply(move_from_json(move))
            out.append(LoadedTable(info, state))
        return out

    async def replay_log(self, table_id: int) -> StackState:
        """The table's state rebuilt from its whole move log alone (no snapshot)."""
        async with self.engine.connect() as conn:
            info = await self._table(conn, table_id)
            if info.rules is None:
                raise WrongTableStatus(table_id, info.status, "started")
            rows = await conn.execute(
                select(moves.c.move).where(moves.c.table_id == table_id).order_by(moves.c.seq)
            )
            state = StackState(tuple(s.name for s in info.seats), info.rules)
            for r in rows:
                state.apply(move_from_json(r.move))
        return state

    async def export_record(self, table_id: int) -> dict[str, Any]:
        """The game's record (``stack-record/1``), finished or running."""
        return export_record(await self.replay_log(table_id))

    # ------------------------------------------------------------------ scores and stats

    async def score_sheet(self, table_id: int) -> ScoreSheet:
        """The game's score sheet from the stored round scores."""
        async with self.engine.connect() as conn:
            info = await self._table(conn, table_id)
            if info.rules is None:
                raise WrongTableStatus(table_id, info.status, "started")
            rows = await conn.execute(
                select(round_scores)
                .where(round_scores.c.table_id == table_id)
                .order_by(round_scores.c.round_no, round_scores.c.position)
            )
            n = len(info.seats)
            rounds: dict[int, list[int]] = {}
            for r in rows:
                rounds.setdefault(r.round_no, [0] * n)[r.position] = r.points
            result = (
                await conn.execute(select(results).where(results.c.table_id == table_id))
            ).first()
        table_rounds = tuple(tuple(rounds[k]) for k in sorted(rounds))
        totals = tuple(sum(r[s] for r in table_rounds) for s in range(n))
        names = tuple(s.name for s in info.seats)
        winners = None if result is None else tuple(names[p] for p in result.winners)
        return ScoreSheet(
            table_id,
            names,
            table_rounds,
            totals,
            info.rules.target_score,
            result is not None,
            winners,
        )

    async def history(self, channel_id: int, limit: int = 10) -> list[GameSummary]:
        """The channel's finished games, newest first."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(results)
                    .where(results.c.channel_id == channel_id)
                    .order_by(results.c.finished_at.desc(), results.c.table_id.desc())
                    .limit(limit)
                )
            ).all()
            ids = [r.table_id for r in rows]
            names: dict[int, list[str]] = {i: [] for i in ids}
            if ids:
                for s in await conn.execute(
                    select(seats.c.table_id, seats.c.name)
                    .where(seats.c.table_id.in_(ids))
                    .order_by(seats.c.table_id, seats.c.position)
                ):
                    names[s.table_id].append(s.name)
        return [
            GameSummary(
                r.table_id,
                _aware(r.finished_at) or _now(),
                r.rounds_played,
                tuple(names[r.table_id]),
                tuple(r.totals),
                tuple(names[r.table_id][p] for p in r.winners),
            )
            for r in rows
        ]

    async def leaderboard(
        self, guild_id: int, by: Literal["wins", "points"] = "wins", limit: int = 10
    ) -> list[LeaderboardRow]:
        """The guild's best players by wins (then points) or by points (then wins)."""
        if by not in ("wins", "points"):
            raise InvalidSettings("The leaderboard is by 'wins' or by 'points'.")
        first, second = (player_stats.c.wins, player_stats.c.points)
        if by == "points":
            first, second = second, first
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(player_stats)
                .where(player_stats.c.guild_id == guild_id)
                .order_by(first.desc(), second.desc(), player_stats.c.name)
                .limit(limit)
            )
            return [LeaderboardRow(i + 1, _stats(r)) for i, r in enumerate(rows)]

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """A player's stats in the guild, or ``None`` before their first finished game."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(player_stats).where(
                        and_(player_stats.c.guild_id == guild_id, player_stats.c.user_id == user_id)
                    )
                )
            ).first()
        return None if row is None else _stats(row)

    async def count_tables(self) -> int:
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(tables))).scalar_one())

    # ------------------------------------------------------------------ helpers

    async def _table(self, conn: AsyncConnection, table_id: int) -> TableInfo:
        row = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
        if row is None:
            raise TableNotFound(f"There is no table {table_id}.")
        seat_rows = await conn.execute(
            select(seats).where(seats.c.table_id == table_id).order_by(seats.c.position)
        )
        return _info(row, tuple(_seat(s) for s in seat_rows))


def _validate_rules(rules: HouseRules | dict[str, Any]) -> HouseRules:
    if isinstance(rules, HouseRules):
        return rules
    if not isinstance(rules, dict):
        raise InvalidSettings("House rules must be a mapping of rule names to values.")
    try:
        return HouseRules.model_validate(rules)
    except ValidationError as err:
        raise InvalidSettings(rules_error(err)) from None


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise InvalidSettings("A player's name must be 1 to 100 characters.")


def _need(info: TableInfo, status: str) -> None:
    if info.status != status:
        raise WrongTableStatus(info.id, info.status, status)


def _seat(row: Row[Any]) -> SeatInfo:
    return SeatInfo(
        row.position, row.user_id, row.name, row.ai_level, row.timeouts, bool(row.left_game)
    )


def _info(row: Row[Any], seat_infos: tuple[SeatInfo, ...]) -> TableInfo:
    return TableInfo(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        host_id=row.host_id,
        status=row.status,
        options=dict(row.options or {}),
        seats=seat_infos,
        version=row.version,
        rules=None if row.rules is None else StackRules.model_validate(row.rules),
        message_channel_id=row.message_channel_id,
        message_id=row.message_id,
        deadline=_aware(row.deadline),
        created_at=_aware(row.created_at) or _now(),
        started_at=_aware(row.started_at),
        finished_at=_aware(row.finished_at),
    )


def _stats(row: Row[Any]) -> PlayerStats:
    return PlayerStats(
        row.user_id, row.name, row.games, row.wins, row.points, row.best_round, row.captures
    )


def _result(state: StackState, cur: TableCursor) -> ResultRow:
    assert state.winner is not None
    captures = state.capture_counts
    stats = []
    for seat in cur.seats:
        if seat.user_id is None:
            continue
        p = seat.position
        stats.append(
            {
                "user_id": seat.user_id,
                "name": seat.name,
                "win": p in state.winner,
                "points": state.totals[p],
                "best": max((r[p] for r in state.round_scores), default=0),
                "captures": captures[p],
            }
        )
    return ResultRow(list(state.winner), list(state.totals), len(state.round_scores), stats)

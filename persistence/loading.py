"""Games rebuilt from storage, for any game: a live state from its snapshot and the moves
logged after it, or a whole game from its initial state and its whole log."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple

import orjson
from sqlalchemy import Text, cast, select
from sqlalchemy.ext.asyncio import AsyncConnection

from engine.game import Game
from persistence.errors import TableNotFound, WrongTableStatus
from persistence.gamebook import stored_game
from persistence.records import LoadedTable, SeatInfo, TableCursor, TableInfo
from persistence.rows import (
    INFO_COLUMNS,
    SEAT_COLUMNS,
    cursor_from_row,
    info_from_row,
    seat_from_row,
)
from persistence.schema import moves, seats, snapshots, tables

log = logging.getLogger(__name__)


async def load_tables(
    conn: AsyncConnection, where: Any, *, lazy: bool = False
) -> list[LoadedTable]:
    """The tables matching ``where``, each with its live state (snapshot plus the moves
    logged after it) once started, and, for a game being played, the move writer's cursor
    of it as read here. ``lazy``: the rows are kept as read (the snapshots and moves as
    text), and each table's info, cursor and state are built from them when first asked
    (:class:`RowsRead`: a start-up serves at once, and builds them in the background or on
    first use)."""
    if lazy:
        return await _load_lazily(conn, where)
    table_rows = (
        await conn.execute(
            select(
                *INFO_COLUMNS,
                snapshots.c.state.label("snapshot"),
                snapshots.c.version.label("snapshot_version"),
            )
            .select_from(tables.outerjoin(snapshots, snapshots.c.table_id == tables.c.id))
            .where(where)
            .order_by(tables.c.id)
        )
    ).all()
    ids = [r.id for r in table_rows]
    by_table: dict[int, list[SeatInfo]] = {i: [] for i in ids}
    tails: dict[int, list[Any]] = {i: [] for i in ids}
    if ids:
        for s in await conn.execute(_seats_of(where)):
            by_table[s.table_id].append(seat_from_row(s))
        for m in await conn.execute(_tails_of(where, moves.c.move)):
            tails[m.table_id].append(m.move)
    out = []
    for row in table_rows:
        info = info_from_row(row, tuple(by_table[row.id]))
        state = None
        cursor = None
        if row.snapshot is not None:
            # a game this release does not know is an error of the release, not the table's
            game = stored_game(row.game, f"Table {row.id}")
            if row.status == "playing":
                cursor = cursor_from_row(row, info.seats)
            try:
                state = _restore(game, row.snapshot, tails[row.id])
            except Exception as exc:  # one table's damaged rows never stop the others
                why = f"{type(exc).__name__}: {exc}"
                log.error("table %s: its stored game does not read back (%s)", row.id, why)
                out.append(LoadedTable(info, None, None, broken=why))
                continue
        out.append(LoadedTable(info, state, cursor))
    return out


def _seats_of(where: Any) -> Any:
    """The seats of the tables matching ``where``, in order (``table_id`` first)."""
    return (
        select(seats.c.table_id, *SEAT_COLUMNS)
        .join(tables, tables.c.id == seats.c.table_id)
        .where(where)
        .order_by(seats.c.table_id, seats.c.position)
    )


def _tails_of(where: Any, move: Any) -> Any:
    """The moves logged after the snapshots of the tables matching ``where``, in order
    (``table_id`` first)."""
    return (
        select(moves.c.table_id, move.label("move"))
        .join(tables, tables.c.id == moves.c.table_id)
        .join(snapshots, snapshots.c.table_id == moves.c.table_id)
        .where(where, moves.c.seq > snapshots.c.version)
        .order_by(moves.c.table_id, moves.c.seq)
    )


_ID = [c.name for c in INFO_COLUMNS].index("id")  # where a table's row holds its id
_GAME = [c.name for c in INFO_COLUMNS].index("game")
_GUILD = [c.name for c in INFO_COLUMNS].index("guild_id")
_STATUS = [c.name for c in INFO_COLUMNS].index("status")


async def _load_lazily(conn: AsyncConnection, where: Any) -> list[LoadedTable]:
    """:func:`load_tables`, ``lazy``: three queries, the rows kept as read, nothing built
    per table but its :class:`RowsRead`."""
    table_rows = (
        await conn.execute(
            select(
                *INFO_COLUMNS,
                cast(snapshots.c.state, Text).label("snapshot"),
                snapshots.c.version.label("snapshot_version"),
            )
            .select_from(tables.outerjoin(snapshots, snapshots.c.table_id == tables.c.id))
            .where(where)
            .order_by(tables.c.id)
        )
    ).all()
    if not table_rows:
        return []
    # a game this release does not know is an error of the release, not the table's
    game, key, snapshot = _GAME, _ID, len(INFO_COLUMNS)
    games: dict[str, Any] = {}
    for row in table_rows:
        if row[snapshot] is not None:
            games.setdefault(row[game], row)
    for row in games.values():  # the first started table of each game
        stored_game(row.game, f"Table {row.id}")
    seat_rows: dict[int, list[Any]] = {}
    for table_id, group in groupby(await conn.execute(_seats_of(where)), itemgetter(0)):
        seat_rows[table_id] = list(group)
    tails: dict[int, list[str]] = {}
    for table_id, group in groupby(
        await conn.execute(_tails_of(where, cast(moves.c.move, Text))), itemgetter(0)
    ):
        tails[table_id] = [m[1] for m in group]
    none: list[Any] = []
    return [
        LoadedTable(
            None,
            None,
            rows=RowsRead(row, seat_rows.get(row[key], none), tails.get(row[key], none)),
        )
        for row in table_rows
    ]


def unread_cursors(
    loaded: list[LoadedTable],
) -> Iterator[tuple[int, int, Callable[[], TableCursor | None]]]:
    """For each game being played of a lazy load: its id, its guild, and what builds its
    move writer's cursor."""
    key, guild, status, snapshot = _ID, _GUILD, _STATUS, len(INFO_COLUMNS)
    for table in loaded:
        rows = table.rows
        if isinstance(rows, RowsRead):
            row = rows.row
            if row[snapshot] is not None and row[status] == "playing":
                yield row[key], row[guild], rows.cursor


class RowsRead:
    """A table's rows as a lazy load read them (:class:`~persistence.records.StoredTable`):
    its row (its columns, its snapshot as text), its seats' rows and the moves logged
    after its snapshot as text; its info, cursor and state are built from them when
    asked."""

    __slots__ = ("_seats", "row", "seat_rows", "tail")

    def __init__(self, row: Any, seat_rows: list[Any], tail: list[str]) -> None:
        self.row = row
        self.seat_rows = seat_rows
        self.tail = tail
        self._seats: tuple[SeatInfo, ...] | None = None

    @property
    def index(self) -> Any:
        return self.row

    @property
    def started(self) -> bool:
        return self.row.snapshot is not None

    def _seat_infos(self) -> tuple[SeatInfo, ...]:
        if self._seats is None:
            self._seats = tuple(seat_from_row(s) for s in self.seat_rows)
        return self._seats

    def info(self) -> TableInfo:
        return info_from_row(self.row, self._seat_infos())

    def cursor(self) -> TableCursor | None:
        row = self.row
        if row.snapshot is None or row.status != "playing":
            return None
        return cursor_from_row(row, self._seat_infos())

    def state(self) -> Any:
        """Its live state from its snapshot and logged moves (it raises if they do not
        read back)."""
        row = self.row
        game = stored_game(row.game, f"Table {row.id}")
        return _restore(
            game, orjson.loads(row.snapshot), [orjson.loads(move) for move in self.tail]
        )


def _restore(game: Game[Any], snapshot: Any, tail: list[Any]) -> Any:
    """A live state: the snapshot with the moves logged after it played on it."""
    state = game.state_from_dict(snapshot)
    decode = game.decode_move
    for move in tail:
        state.apply(decode(move))
    return state


async def replay_log(conn: AsyncConnection, table_id: int) -> tuple[Game[Any], Any]:
    """The table's game, and its state rebuilt whole: its initial state with its whole log
    played on it (no snapshot); :class:`WrongTableStatus` for a lobby."""
    row = (
        await conn.execute(
            select(
                tables.c.game, tables.c.status, tables.c.initial, tables.c.initial_version
            ).where(tables.c.id == table_id)
        )
    ).first()
    if row is None:
        raise TableNotFound(f"There is no table {table_id}.")
    if row.initial is None:
        raise WrongTableStatus(table_id, row.status, "started")
    game = stored_game(row.game, f"Table {table_id}")
    state = game.state_from_dict(row.initial)
    decode = game.decode_move
    for r in await conn.execute(
        select(moves.c.move)
        .where(moves.c.table_id == table_id, moves.c.seq > (row.initial_version or 0))
        .order_by(moves.c.seq)
    ):
        state.apply(decode(r.move))
    return game, state


async def logged_moves(conn: AsyncConnection, table_id: int, after: int) -> list[Any]:
    """The table's moves logged after its first ``after``, decoded, in order."""
    row = (await conn.execute(select(tables.c.game).where(tables.c.id == table_id))).first()
    if row is None:
        raise TableNotFound(f"There is no table {table_id}.")
    decode = stored_game(row.game, f"Table {table_id}").decode_move
    logged = await conn.execute(
        select(moves.c.move)
        .where(moves.c.table_id == table_id, moves.c.seq > after)
        .order_by(moves.c.seq)
    )
    return [decode(r.move) for r in logged]


class GameLog(NamedTuple):
    """A started table's whole game as logged: its initial state, the moves logged after
    it (decoded, in order), and which of them (by index) the turn timer played."""

    start: Any
    moves: list[Any]
    automatic: frozenset[int]


async def game_logs(conn: AsyncConnection, table_ids: list[int]) -> dict[int, GameLog]:
    """Each started table's :class:`GameLog` (what replays its whole game); tables not
    started are left out."""
    if not table_ids:
        return {}
    rows = (
        await conn.execute(
            select(tables.c.id, tables.c.game, tables.c.initial, tables.c.initial_version).where(
                tables.c.id.in_(table_ids), tables.c.initial.is_not(None)
            )
        )
    ).all()
    logged: dict[int, list[Any]] = {r.id: [] for r in rows}
    for m in await conn.execute(
        select(moves.c.table_id, moves.c.seq, moves.c.move, moves.c.automatic)
        .where(moves.c.table_id.in_(list(logged)))
        .order_by(moves.c.table_id, moves.c.seq)
    ):
        logged[m.table_id].append((m.seq, m.move, m.automatic))
    out: dict[int, GameLog] = {}
    for r in rows:
        game = stored_game(r.game, f"Table {r.id}")
        start = r.initial_version or 0
        decode = game.decode_move
        after = [(move, automatic) for seq, move, automatic in logged[r.id] if seq > start]
        out[r.id] = GameLog(
            game.state_from_dict(r.initial),
            [decode(move) for move, _ in after],
            frozenset(i for i, (_, automatic) in enumerate(after) if automatic),
        )
    return out

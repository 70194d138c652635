"""Games rebuilt from storage, for any game: a live state from its snapshot and the moves
logged after it, or a whole game from its initial state and its whole log."""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

import orjson
from sqlalchemy import Text, cast, select
from sqlalchemy.ext.asyncio import AsyncConnection

from engine.game import Game
from persistence.errors import TableNotFound, WrongTableStatus
from persistence.gamebook import stored_game
from persistence.records import LoadedTable, SeatInfo
from persistence.rows import INFO_COLUMNS, cursor_from_row, info_from_row, seat_from_row
from persistence.schema import moves, seats, snapshots, tables

log = logging.getLogger(__name__)


async def load_tables(
    conn: AsyncConnection, where: Any, *, lazy: bool = False
) -> list[LoadedTable]:
    """The tables matching ``where``, each with its live state (snapshot plus the moves
    logged after it) once started, and, for a game being played, the move writer's cursor
    of it as read here. ``lazy``: the snapshots and moves are read as text, and each
    table's state is built when its ``thaw`` is called (a start-up serves at once, and
    builds the states in the background or on first use)."""
    snapshot = cast(snapshots.c.state, Text) if lazy else snapshots.c.state
    move = cast(moves.c.move, Text).label("move") if lazy else moves.c.move
    table_rows = (
        await conn.execute(
            select(
                *INFO_COLUMNS,
                snapshot.label("snapshot"),
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
        seat_rows = await conn.execute(
            select(seats)
            .join(tables, tables.c.id == seats.c.table_id)
            .where(where)
            .order_by(seats.c.table_id, seats.c.position)
        )
        for s in seat_rows:
            by_table[s.table_id].append(seat_from_row(s))
        move_rows = await conn.execute(
            select(moves.c.table_id, move)
            .join(tables, tables.c.id == moves.c.table_id)
            .join(snapshots, snapshots.c.table_id == moves.c.table_id)
            .where(where, moves.c.seq > snapshots.c.version)
            .order_by(moves.c.table_id, moves.c.seq)
        )
        for m in move_rows:
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
            if lazy:
                thaw = partial(_thaw, game, row.snapshot, tails[row.id])
                out.append(LoadedTable(info, None, cursor, thaw=thaw))
                continue
            try:
                state = _restore(game, row.snapshot, tails[row.id])
            except Exception as exc:  # one table's damaged rows never stop the others
                why = f"{type(exc).__name__}: {exc}"
                log.error("table %s: its stored game does not read back (%s)", row.id, why)
                out.append(LoadedTable(info, None, None, broken=why))
                continue
        out.append(LoadedTable(info, state, cursor))
    return out


def _restore(game: Game[Any], snapshot: Any, tail: list[Any]) -> Any:
    """A live state: the snapshot with the moves logged after it played on it."""
    state = game.state_from_dict(snapshot)
    decode = game.decode_move
    for move in tail:
        state.apply(decode(move))
    return state


def _thaw(game: Game[Any], snapshot: str, tail: list[str]) -> Any:
    """A live state from its snapshot and logged moves as stored text."""
    return _restore(game, orjson.loads(snapshot), [orjson.loads(move) for move in tail])


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


async def game_logs(
    conn: AsyncConnection, table_ids: list[int]
) -> dict[int, tuple[Any, list[Any]]]:
    """Each started table's initial state and the moves logged after it, decoded, in
    order (what replays its whole game); tables not started are left out."""
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
        select(moves.c.table_id, moves.c.seq, moves.c.move)
        .where(moves.c.table_id.in_(list(logged)))
        .order_by(moves.c.table_id, moves.c.seq)
    ):
        logged[m.table_id].append((m.seq, m.move))
    out: dict[int, tuple[Any, list[Any]]] = {}
    for r in rows:
        game = stored_game(r.game, f"Table {r.id}")
        start = r.initial_version or 0
        decode = game.decode_move
        out[r.id] = (
            game.state_from_dict(r.initial),
            [decode(move) for seq, move in logged[r.id] if seq > start],
        )
    return out

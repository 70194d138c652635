"""Read-only queries: live tables rebuilt from their snapshots and logs, score sheets,
history, leaderboards, stats and the outbox's undelivered rows."""

from __future__ import annotations

from typing import Any, Literal

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from engine.stack.moves import move_from_json
from engine.stack.state import StackState
from persistence.errors import InvalidSettings, TableNotFound, WrongTableStatus
from persistence.records import (
    GameSummary,
    LeaderboardRow,
    LoadedTable,
    OutboxItem,
    PlayerStats,
    ScoreSheet,
    SeatInfo,
)
from persistence.rows import (
    aware,
    info_from_row,
    now,
    outbox_item_from_row,
    read_table,
    seat_from_row,
    stats_from_row,
)
from persistence.schema import (
    is_active,
    moves,
    outbox,
    player_stats,
    results,
    round_scores,
    seats,
    snapshots,
    tables,
)


async def active_table_id(conn: AsyncConnection, channel_id: int) -> int:
    row = (
        await conn.execute(
            select(tables.c.id).where(tables.c.channel_id == channel_id, is_active())
        )
    ).first()
    if row is None:
        raise TableNotFound(f"Channel {channel_id} has no active table.")
    return int(row.id)


async def load_tables(conn: AsyncConnection, where: Any) -> list[LoadedTable]:
    """The tables matching ``where``, each with its live state (snapshot plus the moves
    logged after it) once started."""
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
            by_table[s.table_id].append(seat_from_row(s))
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
        info = info_from_row(row, tuple(by_table[row.id]))
        state = None
        if row.snapshot is not None:
            state = StackState.from_dict(row.snapshot)
            for move in tails[row.id]:
                state.apply(move_from_json(move))
        out.append(LoadedTable(info, state))
    return out


async def replay_log(conn: AsyncConnection, table_id: int) -> StackState:
    info = await read_table(conn, table_id)
    if info.rules is None:
        raise WrongTableStatus(table_id, info.status, "started")
    rows = await conn.execute(
        select(moves.c.move).where(moves.c.table_id == table_id).order_by(moves.c.seq)
    )
    state = StackState(tuple(s.name for s in info.seats), info.rules)
    for r in rows:
        state.apply(move_from_json(r.move))
    return state


async def score_sheet(conn: AsyncConnection, table_id: int) -> ScoreSheet:
    info = await read_table(conn, table_id)
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
    result = (await conn.execute(select(results).where(results.c.table_id == table_id))).first()
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


async def history(conn: AsyncConnection, channel_id: int, limit: int) -> list[GameSummary]:
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
            aware(r.finished_at) or now(),
            r.rounds_played,
            tuple(names[r.table_id]),
            tuple(r.totals),
            tuple(names[r.table_id][p] for p in r.winners),
        )
        for r in rows
    ]


async def leaderboard(
    conn: AsyncConnection, guild_id: int, by: Literal["wins", "points"], limit: int
) -> list[LeaderboardRow]:
    if by not in ("wins", "points"):
        raise InvalidSettings("The leaderboard is by 'wins' or by 'points'.")
    first, second = (player_stats.c.wins, player_stats.c.points)
    if by == "points":
        first, second = second, first
    rows = await conn.execute(
        select(player_stats)
        .where(player_stats.c.guild_id == guild_id)
        .order_by(first.desc(), second.desc(), player_stats.c.name)
        .limit(limit)
    )
    return [LeaderboardRow(i + 1, stats_from_row(r)) for i, r in enumerate(rows)]


async def player(conn: AsyncConnection, guild_id: int, user_id: int) -> PlayerStats | None:
    row = (
        await conn.execute(
            select(player_stats).where(
                and_(player_stats.c.guild_id == guild_id, player_stats.c.user_id == user_id)
            )
        )
    ).first()
    return None if row is None else stats_from_row(row)


async def pending_outbox(conn: AsyncConnection, table_id: int | None) -> list[OutboxItem]:
    query = select(outbox).where(outbox.c.delivered_at.is_(None))
    if table_id is not None:
        query = query.where(outbox.c.table_id == table_id)
    rows = await conn.execute(query.order_by(outbox.c.id))
    return [outbox_item_from_row(r) for r in rows]


async def count_tables(conn: AsyncConnection) -> int:
    return int((await conn.execute(select(func.count()).select_from(tables))).scalar_one())

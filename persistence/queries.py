"""Read-only queries: live tables rebuilt from their snapshots and logs, score sheets,
history, leaderboards, stats (with a player's recent games, and the count of dice each
seat placed per face) and the outbox's undelivered rows."""

from __future__ import annotations

from typing import Any, Literal

from sqlalchemy import and_, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from engine.stack.moves import move_from_json
from engine.stack.state import StackState
from persistence.errors import InvalidSettings, TableNotFound, WrongTableStatus
from persistence.hotpath import PLACED_COLUMNS
from persistence.records import (
    FACE_COUNT,
    GameSummary,
    LeaderboardRow,
    LoadedTable,
    OutboxItem,
    PlayerStats,
    RecentGame,
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

RECENT_GAMES = 10  # a player's last games, in their stats


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


async def _seat_names(conn: AsyncConnection, table_ids: list[int]) -> dict[int, list[str]]:
    """The names on each table's seats, in seat order."""
    names: dict[int, list[str]] = {i: [] for i in table_ids}
    if table_ids:
        for s in await conn.execute(
            select(seats.c.table_id, seats.c.name)
            .where(seats.c.table_id.in_(table_ids))
            .order_by(seats.c.table_id, seats.c.position)
        ):
            names[s.table_id].append(s.name)
    return names


async def history(conn: AsyncConnection, channel_id: int, limit: int) -> list[GameSummary]:
    rows = (
        await conn.execute(
            select(results)
            .where(results.c.channel_id == channel_id)
            .order_by(results.c.finished_at.desc(), results.c.table_id.desc())
            .limit(limit)
        )
    ).all()
    names = await _seat_names(conn, [r.table_id for r in rows])
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


def placed_counts(state: StackState) -> list[list[int]]:
    """Per seat, the dice it placed on a pile in the state's history, per face:
    ``counts[seat][face - 1]``. A stack places the die's face; a reroll places the rolled
    face when the die went onto a pile (not when it came back unstacked). The state must
    hold its whole history (:attr:`StackState.has_full_history`)."""
    counts = [[0] * FACE_COUNT for _ in range(len(state.players))]
    for rnd in state.history:
        for turn in rnd["turns"]:
            if turn[0] == "stack":
                counts[turn[1]][turn[2] - 1] += 1
            elif turn[4] is not None:  # ("reroll", seat, face, rolled, owner, height)
                counts[turn[1]][turn[3] - 1] += 1
    return counts


def _stats(row: Any, recent: tuple[RecentGame, ...] = ()) -> PlayerStats:
    """A player's stats from their ``player_stats`` row."""
    return PlayerStats(
        user_id=row.user_id,
        name=row.name,
        games=row.games,
        wins=row.wins,
        points=row.points,
        best_round=row.best_round,
        captures=row.captures,
        rounds=row.rounds,
        placed=tuple(int(getattr(row, column)) for column in PLACED_COLUMNS),
        recent=recent,
    )


async def recent_games(
    conn: AsyncConnection, guild_id: int, user_id: int, limit: int
) -> tuple[RecentGame, ...]:
    """The player's last ``limit`` finished games in the guild that are credited to them
    (not those whose seat they left), newest first."""
    rows = (
        await conn.execute(
            select(
                results.c.table_id,
                results.c.finished_at,
                results.c.winners,
                results.c.totals,
                results.c.rounds_played,
                seats.c.position,
                tables.c.rules,
            )
            .select_from(
                seats.join(results, results.c.table_id == seats.c.table_id).join(
                    tables, tables.c.id == seats.c.table_id
                )
            )
            .where(
                seats.c.user_id == user_id,
                results.c.guild_id == guild_id,
                seats.c.left_game.is_(False),
            )
            .order_by(results.c.finished_at.desc(), results.c.table_id.desc())
            .limit(limit)
        )
    ).all()
    names = await _seat_names(conn, [r.table_id for r in rows])
    return tuple(
        RecentGame(
            table_id=r.table_id,
            finished_at=aware(r.finished_at) or now(),
            seat=r.position,
            total=int(r.totals[r.position]),
            won=r.position in r.winners,
            target=int((r.rules or {}).get("target_score", 0)),
            rounds=r.rounds_played,
            players=tuple(names[r.table_id]),
        )
        for r in rows
    )


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
    return [LeaderboardRow(i + 1, _stats(r)) for i, r in enumerate(rows)]


async def player(
    conn: AsyncConnection, guild_id: int, user_id: int, recent: int = RECENT_GAMES
) -> PlayerStats | None:
    row = (
        await conn.execute(
            select(player_stats).where(
                and_(player_stats.c.guild_id == guild_id, player_stats.c.user_id == user_id)
            )
        )
    ).first()
    if row is None:
        return None
    return _stats(row, await recent_games(conn, guild_id, user_id, recent))


async def pending_outbox(conn: AsyncConnection, table_id: int | None) -> list[OutboxItem]:
    query = select(outbox).where(outbox.c.delivered_at.is_(None))
    if table_id is not None:
        query = query.where(outbox.c.table_id == table_id)
    rows = await conn.execute(query.order_by(outbox.c.id))
    return [outbox_item_from_row(r) for r in rows]


async def count_tables(conn: AsyncConnection) -> int:
    return int((await conn.execute(select(func.count()).select_from(tables))).scalar_one())

"""The writes on tables and seats, as move-writer operations, for any game.

Each is an async function of a :class:`~persistence.writer.WriteContext` run inside the
writer's shared transaction: it reads and checks first (the table's shard lease too, when
this process is one of several: :meth:`~persistence.writer.WriteContext.check_lease`),
raising its refusal (which then wrote nothing) before its first write, and keeps the writer's cursor of the table in step
with what it changes. :class:`~persistence.tables_api.TablesAPI` queues them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, select, update

from persistence.checks import check_level
from persistence.errors import (
    AlreadySeated,
    InvalidSettings,
    NotSeated,
    TableExists,
    TableFull,
    TableNotFound,
    WrongTableStatus,
)
from persistence.gamebook import sides_of, stored_game
from persistence.ratings import closed_game, rate_finished
from persistence.records import Announcement, SeatInfo, TableCursor, TableInfo
from persistence.results import round_scores_of
from persistence.rows import need_status, read_table
from persistence.schema import is_active, moves, seats, snapshots, tables
from persistence.writer import WriteContext, seat_changed


async def create_table(
    ctx: WriteContext,
    guild_id: int,
    channel_id: int,
    host_id: int,
    host_name: str,
    options: dict[str, Any],
    game: str,
) -> TableInfo:
    await ctx.check_lease(guild_id)
    existing = (
        await ctx.conn.execute(
            select(tables.c.id).where(tables.c.channel_id == channel_id, is_active())
        )
    ).first()
    if existing is not None:
        raise TableExists(channel_id)
    result = await ctx.write(
        tables.insert().values(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            game=game,
            status="lobby",
            options=options,
            created_at=ctx.now,
            last_active_at=ctx.now,
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    table_id = int(key[0])
    await ctx.write(
        seats.insert().values(table_id=table_id, position=0, user_id=host_id, name=host_name)
    )
    return TableInfo(
        id=table_id,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        status="lobby",
        options=dict(options),
        seats=(SeatInfo(0, host_id, host_name, None),),
        version=0,
        rules=None,
        message_channel_id=None,
        message_id=None,
        deadline=None,
        created_at=ctx.now,
        started_at=None,
        finished_at=None,
        last_active_at=ctx.now,
        game=game,
    )


def _check_room(info: TableInfo) -> None:
    most = stored_game(info.game, f"Table {info.id}").max_players
    if len(info.seats) >= most:
        raise TableFull(f"The table is full ({most} players).")


async def join_table(ctx: WriteContext, table_id: int, user_id: int, name: str) -> TableInfo:
    info = await read_table(ctx.conn, table_id)
    await ctx.check_lease(info.guild_id)
    need_status(info, "lobby")
    if info.seat_of(user_id) is not None:
        raise AlreadySeated(f"{name} is already at this table.")
    _check_room(info)
    seat = SeatInfo(len(info.seats), user_id, name, None)
    await ctx.write(
        seats.insert().values(table_id=table_id, position=seat.position, user_id=user_id, name=name)
    )
    await ctx.write(update(tables).where(tables.c.id == table_id).values(last_active_at=ctx.now))
    return dataclasses.replace(info, seats=(*info.seats, seat), last_active_at=ctx.now)


async def add_ai(ctx: WriteContext, table_id: int, level: str) -> TableInfo:
    info = await read_table(ctx.conn, table_id)
    await ctx.check_lease(info.guild_id)
    need_status(info, "lobby")
    check_level(level, stored_game(info.game, f"Table {table_id}"))
    _check_room(info)
    names = {s.name for s in info.seats}
    number = 1
    while f"AI {number}" in names:
        number += 1
    seat = SeatInfo(len(info.seats), None, f"AI {number}", level)
    await ctx.write(
        seats.insert().values(
            table_id=table_id, position=seat.position, name=seat.name, ai_level=level
        )
    )
    return dataclasses.replace(info, seats=(*info.seats, seat))


async def leave_lobby(ctx: WriteContext, table_id: int, user_id: int) -> TableInfo:
    info = await read_table(ctx.conn, table_id)
    await ctx.check_lease(info.guild_id)
    need_status(info, "lobby")
    seat = info.seat_of(user_id)
    if seat is None:
        raise NotSeated(f"User {user_id} is not at table {table_id}.")
    await _remove_seat(ctx, info, seat.position)
    rest = [s for s in info.seats if s.position != seat.position]
    humans = [s for s in rest if s.user_id is not None]
    if not humans:
        await ctx.write(
            update(tables)
            .where(tables.c.id == table_id)
            .values(status="abandoned", finished_at=ctx.now)
        )
        ctx.close(table_id, "abandoned")
    elif user_id == info.host_id:
        await ctx.write(
            update(tables).where(tables.c.id == table_id).values(host_id=humans[0].user_id)
        )
    return await read_table(ctx.conn, table_id)


async def remove_ai(ctx: WriteContext, table_id: int, position: int) -> TableInfo:
    info = await read_table(ctx.conn, table_id)
    await ctx.check_lease(info.guild_id)
    need_status(info, "lobby")
    seat = next((s for s in info.seats if s.position == position), None)
    if seat is None or not seat.is_ai:
        raise NotSeated(f"Seat {position} of table {table_id} is not an AI seat.")
    await _remove_seat(ctx, info, position)
    return await read_table(ctx.conn, table_id)


async def _remove_seat(ctx: WriteContext, info: TableInfo, position: int) -> None:
    await ctx.write(delete(seats).where(seats.c.table_id == info.id, seats.c.position == position))
    # keep positions 0..n-1 in join order
    for s in info.seats:
        if s.position > position:
            await ctx.write(
                update(seats)
                .where(seats.c.table_id == info.id, seats.c.position == s.position)
                .values(position=s.position - 1)
            )


async def start_table(
    ctx: WriteContext,
    table_id: int,
    seat_order: Sequence[int],
    state: Any,
    opening: Sequence[Any],
    rules: dict[str, Any] | None,
    announcements: Sequence[Announcement] = (),
) -> TableInfo:
    """Seat the lobby in play order and store the game as it starts: its rules, its state
    whole (every replay of the log starts there), its snapshot, the ``opening`` moves
    that led to it, and what the start owes the channel (``announcements``)."""
    info = await read_table(ctx.conn, table_id)
    await ctx.check_lease(info.guild_id)
    need_status(info, "lobby")
    game = stored_game(info.game, f"Table {table_id}")
    if sorted(seat_order) != list(range(len(info.seats))):
        raise InvalidSettings("The seat order must name every lobby seat once.")
    names = tuple(info.seats[p].name for p in seat_order)
    if names != tuple(state.players):
        raise InvalidSettings("The game's players are not the lobby's, in that order.")
    initial = state.to_dict()
    if rules is None:
        stated = initial.get("rules")
        rules = dict(stated) if isinstance(stated, dict) else {}
    logged = [game.encode_move(m) for m in opening]
    rounds_done = len(round_scores_of(game, state))
    now = ctx.now
    # rewrite the seats in playing order (through temporary negative positions)
    for new, old in enumerate(seat_order):
        await ctx.write(
            update(seats)
            .where(seats.c.table_id == table_id, seats.c.position == old)
            .values(position=-1 - new)
        )
    await ctx.write(
        update(seats).where(seats.c.table_id == table_id).values(position=-seats.c.position - 1)
    )
    version = len(logged)
    if logged:
        await ctx.write(
            moves.insert(),
            [
                {"table_id": table_id, "seq": i + 1, "move": move, "created_at": now}
                for i, move in enumerate(logged)
            ],
        )
    await ctx.write(
        update(tables)
        .where(tables.c.id == table_id)
        .values(
            status="playing",
            rules=rules,
            initial=initial,
            initial_version=version,
            version=version,
            rounds_done=rounds_done,
            started_at=now,
            last_active_at=now,
        )
    )
    await ctx.write(
        snapshots.insert().values(table_id=table_id, version=version, state=game.snapshot(state))
    )
    started = await read_table(ctx.conn, table_id)
    await ctx.announce(table_id, started.channel_id, announcements)
    # the writer needs no query for this table's first move
    ctx.track(
        table_id,
        TableCursor(
            version,
            rounds_done,
            version,
            "playing",
            started.guild_id,
            started.channel_id,
            started.seats,
            started.game,
        ),
    )
    return started


async def end_table(
    ctx: WriteContext,
    table_id: int,
    status: str,
    announcements: Sequence[Announcement],
    rated: bool = True,
) -> TableInfo:
    info = await read_table(ctx.conn, table_id)
    await ctx.check_lease(info.guild_id)
    if not info.is_active:
        raise WrongTableStatus(table_id, info.status, "lobby or playing")
    await ctx.write(
        update(tables)
        .where(tables.c.id == table_id)
        .values(status=status, finished_at=ctx.now, deadline=None)
    )
    if rated and status == "abandoned" and info.status == "playing":
        await _rate_closed(ctx, info)
    await ctx.announce(table_id, info.channel_id, announcements)
    ctx.close(table_id, status)
    return dataclasses.replace(info, status=status, finished_at=ctx.now, deadline=None)


async def _rate_closed(ctx: WriteContext, info: TableInfo) -> None:
    """Rate a game closed before its end when someone counts as gone (its leavers last:
    see :func:`persistence.ratings.closed_game`), in the transaction that closes it."""
    initial = (
        await ctx.conn.execute(select(tables.c.initial).where(tables.c.id == info.id))
    ).scalar_one_or_none()
    game = closed_game(
        info.id, info.guild_id, info.game, ctx.now, info.seats, sides_of(info.game, initial)
    )
    if game is not None:
        await rate_finished(ctx.conn, [game])


async def set_seat_ai(
    ctx: WriteContext,
    table_id: int,
    position: int,
    level: str,
    left: bool,
    announcements: Sequence[Announcement],
) -> TableInfo:
    """Hand a seat to the AI; when its player left and hosted, the host passes on to the
    next seat (in seat order after theirs, wrapping) still played by a human."""
    info = await read_table(ctx.conn, table_id)
    await ctx.check_lease(info.guild_id)
    need_status(info, "playing")
    check_level(level, stored_game(info.game, f"Table {table_id}"))
    if not 0 <= position < len(info.seats):
        raise NotSeated(f"Table {table_id} has no seat {position}.")
    await ctx.write(
        update(seats)
        .where(seats.c.table_id == table_id, seats.c.position == position)
        .values(ai_level=level, left_game=left)
    )
    seated = tuple(
        dataclasses.replace(s, ai_level=level, left_game=left) if s.position == position else s
        for s in info.seats
    )
    host_id = info.host_id
    leaver = info.seats[position]
    if left and leaver.user_id is not None and leaver.user_id == info.host_id:
        n = len(seated)
        after = (seated[(position + k) % n] for k in range(1, n))
        heir = next((s for s in after if s.user_id is not None and not s.is_ai), None)
        if heir is not None and heir.user_id is not None:
            host_id = heir.user_id
            await ctx.write(update(tables).where(tables.c.id == table_id).values(host_id=host_id))
    await ctx.announce(table_id, info.channel_id, announcements)
    seat_changed(ctx.cursor(table_id), position, ai_level=level, left_game=left)
    return dataclasses.replace(info, seats=seated, host_id=host_id)


async def set_timeouts(ctx: WriteContext, table_id: int, position: int, count: int) -> None:
    await ctx.check_table_lease(table_id)
    changed = await ctx.write(
        update(seats)
        .where(seats.c.table_id == table_id, seats.c.position == position)
        .values(timeouts=count)
    )
    if not changed.rowcount:
        raise NotSeated(f"Table {table_id} has no seat {position}.")
    seat_changed(ctx.cursor(table_id), position, timeouts=count)


async def update_table(ctx: WriteContext, table_id: int, values: dict[str, Any]) -> None:
    await ctx.check_table_lease(table_id)
    changed = await ctx.write(update(tables).where(tables.c.id == table_id).values(**values))
    if not changed.rowcount:
        raise TableNotFound(f"There is no table {table_id}.")

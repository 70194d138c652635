"""Turning database rows into records, and the two reads every write path needs: a table
with its seats, and the move writer's cursor of a table."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from persistence.compat import rules_object
from persistence.errors import TableNotFound, WrongTableStatus
from persistence.records import OutboxItem, SeatInfo, TableCursor, TableInfo
from persistence.schema import seats, snapshots, tables


def now() -> datetime:
    return datetime.now(UTC)


def aware(value: datetime | None) -> datetime | None:
    """SQLite hands datetimes back without a zone; they were stored in UTC."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


def seat_from_row(row: Any) -> SeatInfo:
    """A seat from a row holding the seat's columns (alone, or joined to its table's)."""
    return SeatInfo(
        row.position, row.user_id, row.name, row.ai_level, row.timeouts, bool(row.left_game)
    )


def info_from_row(row: Any, seat_infos: tuple[SeatInfo, ...]) -> TableInfo:
    record = None if row.rules is None else dict(row.rules)
    return TableInfo(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        host_id=row.host_id,
        status=row.status,
        options=dict(row.options or {}),
        seats=seat_infos,
        version=row.version,
        rules=rules_object(row.game, record),
        message_channel_id=row.message_channel_id,
        message_id=row.message_id,
        deadline=aware(row.deadline),
        created_at=aware(row.created_at) or now(),
        started_at=aware(row.started_at),
        finished_at=aware(row.finished_at),
        last_active_at=aware(row.last_active_at),
        moved_at=aware(row.moved_at),
        pinged_version=row.pinged_version,
        game=row.game,
        rules_record=record,
    )


def outbox_item_from_row(row: Row[Any]) -> OutboxItem:
    return OutboxItem(
        id=row.id,
        table_id=row.table_id,
        channel_id=row.channel_id,
        kind=row.kind,
        content=row.content,
        created_at=aware(row.created_at) or now(),
        round_no=row.round_no,
        guild_id=getattr(row, "guild_id", None),
    )


# A table's columns as TableInfo holds them: not its initial state, which only a replay of
# its log reads (and which a join with the seats would repeat on every seat's row).
INFO_COLUMNS = tuple(c for c in tables.c if c.name not in ("initial", "initial_version"))

SEAT_COLUMNS = (
    seats.c.position,
    seats.c.user_id,
    seats.c.name,
    seats.c.ai_level,
    seats.c.timeouts,
    seats.c.left_game,
)


async def read_table(conn: AsyncConnection, table_id: int) -> TableInfo:
    """The table with that id (one query: the table's row once per seat); raises
    :class:`TableNotFound` if there is none."""
    rows = (
        await conn.execute(
            select(*INFO_COLUMNS, *SEAT_COLUMNS)
            .select_from(tables.outerjoin(seats, seats.c.table_id == tables.c.id))
            .where(tables.c.id == table_id)
            .order_by(seats.c.position)
        )
    ).all()
    if not rows:
        raise TableNotFound(f"There is no table {table_id}.")
    seat_infos = tuple(seat_from_row(r) for r in rows if r.position is not None)
    return info_from_row(rows[0], seat_infos)


async def read_cursor(conn: AsyncConnection, table_id: int) -> TableCursor:
    """What the move writer needs to know of a table: version, rounds, snapshot, seats,
    game (one query)."""
    rows = (
        await conn.execute(
            select(
                tables.c.version,
                tables.c.rounds_done,
                func.coalesce(snapshots.c.version, 0).label("snapshot_version"),
                tables.c.status,
                tables.c.guild_id,
                tables.c.channel_id,
                tables.c.game,
                *SEAT_COLUMNS,
            )
            .select_from(
                tables.outerjoin(snapshots, snapshots.c.table_id == tables.c.id).outerjoin(
                    seats, seats.c.table_id == tables.c.id
                )
            )
            .where(tables.c.id == table_id)
            .order_by(seats.c.position)
        )
    ).all()
    if not rows:
        raise TableNotFound(f"There is no table {table_id}.")
    return cursor_from_row(rows[0], tuple(seat_from_row(r) for r in rows if r.position is not None))


def cursor_from_row(row: Any, seat_infos: tuple[SeatInfo, ...]) -> TableCursor:
    """The move writer's cursor from a row with the table's columns and its snapshot's
    version (``snapshot_version``)."""
    return TableCursor(
        row.version,
        row.rounds_done,
        row.snapshot_version or 0,
        row.status,
        row.guild_id,
        row.channel_id,
        seat_infos,
        row.game,
    )


def need_status(info: TableInfo, status: str) -> None:
    """:class:`WrongTableStatus` unless the table is ``status``."""
    if info.status != status:
        raise WrongTableStatus(info.id, info.status, status)

"""The store's tables and seats: lobbies of any game, joining and leaving, AI seats, the
start, the end, and where a table's message and timer are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from persistence import table_ops
from persistence.checks import check_announcements, check_name
from persistence.core import StoreCore, bind
from persistence.errors import InvalidSettings, TableExists, TableNotFound
from persistence.gamebook import game_named
from persistence.records import DEFAULT_GAME, Announcement, TableInfo
from persistence.rows import read_table
from persistence.schema import is_active, tables
from persistence.settings import check_options


class TablesAPI(StoreCore):
    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any] | None = None,
        *,
        game: str = DEFAULT_GAME,
    ) -> TableInfo:
        """Open a lobby of ``game`` in the channel with the host seated;
        :class:`TableExists` if the channel already has an active table. ``options``
        override the house rules for this table (keys of the game's settings, validated
        by its settings model)."""
        opts = dict(options or {})
        check_options(opts, game_named(game))
        check_name(host_name)

        def taken(_: IntegrityError) -> Exception:
            return TableExists(channel_id)

        return await self.writer.run(
            bind(table_ops.create_table, guild_id, channel_id, host_id, host_name, opts, game),
            explain=taken,
        )

    async def table(self, table_id: int) -> TableInfo:
        """The table with that id; :class:`TableNotFound` if there is none."""
        async with self.engine.connect() as conn:
            return await read_table(conn, table_id)

    async def active_table(self, channel_id: int) -> TableInfo:
        """The channel's active table; :class:`TableNotFound` if it has none."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(tables.c.id).where(tables.c.channel_id == channel_id, is_active())
                )
            ).first()
            if row is None:
                raise TableNotFound(f"Channel {channel_id} has no active table.")
            return await read_table(conn, int(row.id))

    async def join_table(self, table_id: int, user_id: int, name: str) -> TableInfo:
        """Seat a player in a lobby (up to the game's most players)."""
        check_name(name)
        return await self.writer.run(bind(table_ops.join_table, table_id, user_id, name))

    async def add_ai(self, table_id: int, level: str = "greedy") -> TableInfo:
        """Seat an AI player of ``level`` (one of the game's AI levels) in a lobby."""
        return await self.writer.run(bind(table_ops.add_ai, table_id, level))

    async def leave_lobby(self, table_id: int, user_id: int) -> TableInfo:
        """Take a player (or, by the host, a kicked player) out of a lobby.

        When the host leaves, the next human becomes host; a lobby left with no human is
        abandoned.
        """
        return await self.writer.run(bind(table_ops.leave_lobby, table_id, user_id))

    async def remove_ai(self, table_id: int, position: int) -> TableInfo:
        """Take an AI seat out of a lobby."""
        return await self.writer.run(bind(table_ops.remove_ai, table_id, position))

    async def start_table(
        self,
        table_id: int,
        seat_order: Sequence[int],
        state: Any,
        opening: Sequence[Any],
        *,
        rules: BaseModel | Mapping[str, Any] | None = None,
        announcements: Sequence[Announcement] = (),
    ) -> TableInfo:
        """Start a lobby: seat its members in ``seat_order`` (their lobby positions), store
        ``state`` (the game's new state, after the ``opening`` moves, such as Stack's
        roll-off and first dice, which are logged) and the game's ``rules`` as it plays
        them (default: the state's own ``rules`` entry in its ``to_dict()``, if any), with
        what the start owes the channel (``announcements``: who begins) in the outbox, in
        the same transaction."""
        check_announcements(announcements)
        order = list(seat_order)
        record: dict[str, Any] | None = None
        if isinstance(rules, BaseModel):
            record = rules.model_dump(mode="json")
        elif rules is not None:
            record = dict(rules)
        return await self.writer.run(
            bind(
                table_ops.start_table,
                table_id,
                order,
                state,
                list(opening),
                record,
                list(announcements),
            )
        )

    async def end_table(
        self,
        table_id: int,
        status: Literal["abandoned", "finished"] = "abandoned",
        *,
        announcements: Sequence[Announcement] = (),
        rated: bool = True,
    ) -> TableInfo:
        """Close an active table (ended by its host or a manager, left with no human, or
        expired), with what that owes the channel in the outbox, in the same transaction;
        a game closed before its end is rated there too when someone counts as gone (its
        leavers last: :func:`persistence.ratings.closed_game`). ``rated=False``: never
        (a table closed because its stored game does not read back)."""
        check_announcements(announcements)
        return await self.writer.run(
            bind(table_ops.end_table, table_id, status, list(announcements), rated)
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
        """Hand a seat to the AI (``level``: one of the game's): its player left or was
        kicked (``left``), or timed out too often. When the player who left was the host,
        the next seat (in seat order after theirs, wrapping) still played by a human
        becomes host, in the same transaction; with no human left the host stays (and the
        table is closed)."""
        check_announcements(announcements)
        return await self.writer.run(
            bind(table_ops.set_seat_ai, table_id, position, level, left, list(announcements))
        )

    async def set_timeouts(self, table_id: int, position: int, count: int) -> None:
        """How many turns in a row the seat's player has let run out."""
        await self.writer.run(bind(table_ops.set_timeouts, table_id, position, count))

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
        await self.writer.run(bind(table_ops.update_table, table_id, values))

    async def set_deadline(self, table_id: int, deadline: datetime | None) -> None:
        """When the current turn runs out (``None``: no timer running)."""
        if deadline is not None and deadline.tzinfo is None:
            raise InvalidSettings("A deadline needs a time zone.")
        await self.writer.run(bind(table_ops.update_table, table_id, {"deadline": deadline}))

    async def count_tables(self) -> int:
        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(tables))).scalar_one())

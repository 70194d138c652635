"""The store's moves: logging a step of any game (with what it owes the channel, and the
game's result when it ends), and rebuilding games from their logs."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Collection, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import and_
from sqlalchemy.exc import DBAPIError

from engine.game import Game
from persistence.checks import check_announcements, check_level, check_position
from persistence.core import StoreCore
from persistence.errors import InvalidSettings, StorageError, TableNotFound
from persistence.fence import in_shards
from persistence.gamebook import stored_game
from persistence.loading import (
    GameLog,
    game_logs,
    load_tables,
    logged_moves,
    replay_log,
    unread_cursors,
)
from persistence.records import Announcement, LoadedTable, MoveResult
from persistence.results import ResultRow, result_of, round_scores_of
from persistence.schema import ACTIVE, tables
from persistence.writer import MoveWrite

T = TypeVar("T")


class MovesAPI(StoreCore):
    async def record_move(
        self,
        table_id: int,
        expected_version: int,
        moves_made: Sequence[Any],
        state: Any,
        interaction_id: str | int | None = None,
        *,
        announcements: Sequence[Announcement] = (),
        timeouts: Mapping[int, int] | None = None,
        to_ai: Mapping[int, str] | None = None,
        human: bool = False,
        automatic: Collection[int] = (),
    ) -> MoveResult:
        """Durably log ``moves_made`` (a player's move and the chance outcomes it led to,
        as the table's game encodes them), which took the table from
        ``expected_version`` to ``state``.

        Stored whole in one transaction — log rows, version, round scores (a game played
        in rounds), and when the game ended its result (``state.outcome()``) and each
        credited player's stats (the game's ``stats_figures``) — and with it: outbox rows
        for the table's channel (``announcements``; their ids come back in
        :attr:`MoveResult.outbox_ids`, in order), seats' timeout counts (``timeouts``:
        position → count), seats handed to an AI after timing out (``to_ai``: position →
        level; their players have not left), which of ``moves_made`` (by index) the turn
        timer played for their players (``automatic``), and, for a ``human`` move, the
        table's ``last_active_at`` — or not at all.
        :class:`~persistence.errors.StaleVersion` if the table is no longer at
        ``expected_version``; an ``interaction_id`` seen before returns
        ``MoveResult(duplicate=True)`` and writes nothing.
        """
        if not moves_made:
            raise ValueError("record_move needs at least one move.")
        if any(not 0 <= i < len(moves_made) for i in automatic):
            raise ValueError("An automatic move is one of the moves made (by index).")
        check_announcements(announcements)
        cur = await _read(self.writer.cursor(table_id))
        game = stored_game(cur.game, f"Table {table_id}")
        seat_count = len(cur.seats)
        for position, count in (timeouts or {}).items():
            check_position(table_id, position, seat_count)
            if type(count) is not int or count < 0:
                raise InvalidSettings("A timeout count is a whole number, 0 or more.")
        for position, level in (to_ai or {}).items():
            check_position(table_id, position, seat_count)
            check_level(level, game)
        rounds = round_scores_of(game, state)
        version_after = expected_version + len(moves_made)
        over = state.is_over
        due = (
            version_after - cur.snapshot_version >= self.snapshot_every
            or len(rounds) != cur.rounds_done
            or over
        )
        loop_future: asyncio.Future[MoveResult] = asyncio.get_running_loop().create_future()
        encode = game.encode_move
        write = MoveWrite(
            table_id=table_id,
            expected=expected_version,
            moves=[encode(m) for m in moves_made],
            interaction_id=None if interaction_id is None else str(interaction_id),
            round_scores=rounds,
            snapshot=game.snapshot(state) if due else None,
            result=await _read(self._result(table_id, game, state, moves_made)) if over else None,
            future=loop_future,
            announcements=list(announcements),
            timeouts=dict(timeouts or {}),
            to_ai=dict(to_ai or {}),
            human=human,
            guild_id=cur.guild_id,
            automatic=frozenset(automatic),
        )
        return await self.writer.submit(write)

    async def _result(
        self, table_id: int, game: Game[Any], state: Any, moves_made: Sequence[Any]
    ) -> ResultRow:
        """The result of a game that ``moves_made`` just ended. The stats figures need the
        whole game; a state loaded compact (after a restart) may not hold it, and the game
        is then replayed from its log (once per game) with ``moves_made`` on top."""
        if game.holds_whole_game(state):
            return result_of(game, state, state)
        async with self.engine.connect() as conn:
            _, whole = await replay_log(conn, table_id)
        for move in moves_made:
            whole.apply(move)
        return result_of(game, state, whole)

    async def load_table(self, table_id: int) -> LoadedTable:
        """A table with its live state rebuilt (snapshot plus the moves logged after it).

        The state is as the game's snapshot keeps it (Stack's: only the current round's
        turns; :meth:`replay_log` rebuilds the whole game).
        """
        async with self.engine.connect() as conn:
            loaded = await load_tables(conn, tables.c.id == table_id)
        if not loaded:
            raise TableNotFound(f"There is no table {table_id}.")
        return loaded[0]

    async def load_active_tables(
        self,
        *,
        shard_count: int | None = None,
        shards: Iterable[int] | None = None,
        lazy: bool = False,
    ) -> list[LoadedTable]:
        """Every lobby and game in progress, with live states, for start-up; with
        ``shards`` (of ``shard_count``), only those of guilds on these shards (a process of
        several, adopting its shards). ``lazy``: each state built when its table's
        ``thaw`` is called (:func:`~persistence.loading.load_tables`).

        The cyclic garbage collector is paused while the states are built (each pass would
        rescan every state built so far), and the objects of the start-up load are then
        frozen out of its way: they live as long as their tables (a shard's tables, adopted
        later, may be given up again: they are not frozen).
        """
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            where: Any = tables.c.status.in_(ACTIVE)
            if shards is not None:
                if shard_count is None:
                    raise ValueError("shards need their shard_count")
                where = and_(where, in_shards(tables.c.guild_id, shard_count, shards))
            async with self.engine.connect() as conn:
                loaded = await load_tables(conn, where, lazy=lazy)
        finally:
            if was_enabled:
                gc.enable()
        if shards is None:  # the start-up load, to live as long as the process
            gc.freeze()
        # the writer needs no query for these tables' first moves (nothing of them has been
        # written by this process since they were read: they are not served yet)
        if lazy:
            for table_id, guild_id, read in unread_cursors(loaded):
                self.writer.keep_unread(table_id, guild_id, read)
        else:
            for table in loaded:
                if table.cursor is not None:
                    self.writer.keep(table.info.id, table.cursor)
        return loaded

    async def game_logs(self, table_ids: Sequence[int]) -> dict[int, GameLog]:
        """For each started table of ``table_ids``: its initial state, every move logged
        after it, decoded, in order, and which the turn timer played (a host replays them
        for their words)."""
        async with self.engine.connect() as conn:
            return await game_logs(conn, list(table_ids))

    async def logged_moves(self, table_id: int, after: int = 0) -> list[Any]:
        """The moves logged at a table after its first ``after`` (its opening's too: the
        chance outcomes that led to its initial state), decoded, in order: what a front
        end that follows the table move by move (the terminal) says."""
        async with self.engine.connect() as conn:
            return await logged_moves(conn, table_id, after)

    async def replay_log(self, table_id: int) -> Any:
        """The table's game rebuilt whole from its initial state and its whole move log
        (no snapshot)."""
        async with self.engine.connect() as conn:
            _, state = await replay_log(conn, table_id)
        return state

    async def export_record(self, table_id: int, meta: Any = None) -> dict[str, Any]:
        """The game's record in its game's format (Stack: ``stack-record/1``), finished or
        running, with ``meta`` when given."""
        async with self.engine.connect() as conn:
            game, whole = await replay_log(conn, table_id)
        return game.export_record(whole, meta)


async def _read(reading: Awaitable[T]) -> T:
    """What a write reads first; storage not answering is a :class:`StorageError` (the
    write was not made), as the writer's own failures are."""
    try:
        return await reading
    except (DBAPIError, OSError) as exc:
        raise StorageError(f"reading failed: {exc}") from exc

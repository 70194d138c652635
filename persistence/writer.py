"""Group commit of moves: one writer task commits every move that arrived together in one
transaction, and releases each caller when the commit that holds its move returns.

Each move is stored whole — its log rows, the table's new version, and any round scores,
result and player stats it produced — or not at all. The log's primary key
``(table_id, seq)`` makes a second write at the same version impossible, even from another
process, and ``interaction_id`` is unique, so an interaction is applied once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from persistence.errors import StaleVersion, StorageError, WrongTableStatus
from persistence.records import MoveResult, TableCursor
from persistence.schema import moves, player_stats, results, round_scores, snapshots, tables
from persistence.upsert import upsert_stats

log = logging.getLogger(__name__)
MAX_BATCH = 1000
CHECKPOINT_EVERY = 100  # commits between two SQLite checkpoints


@dataclass(slots=True)
class ResultRow:
    """A finished game: who won, the totals, and each human's contribution to their stats."""

    winners: list[int]
    totals: list[int]
    rounds_played: int
    stats: list[dict[str, Any]]  # one per human seat: user_id, name, win, points, best, captures


@dataclass(slots=True)
class MoveWrite:
    """One call of ``record_move``, waiting for its commit."""

    table_id: int
    expected: int
    moves: list[Any]
    interaction_id: str | None
    round_scores: list[list[int]]
    snapshot: dict[str, Any] | None
    result: ResultRow | None
    future: asyncio.Future[MoveResult] = field(repr=False)


CursorLoader = Callable[[AsyncConnection, int], Awaitable[TableCursor]]


class MoveWriter:
    """The single writer of moves; :meth:`submit` returns once the move is durable."""

    def __init__(self, engine: AsyncEngine, load_cursor: CursorLoader) -> None:
        self.engine = engine
        self.load_cursor = load_cursor
        self.cursors: dict[int, TableCursor] = {}
        self.queue: deque[MoveWrite] = deque()
        self.task: asyncio.Task[None] | None = None
        self.batches = 0
        self.checkpoint: asyncio.Task[None] | None = None
        self._since_checkpoint = 0

    async def stop(self) -> None:
        """Wait for the moves already queued to be committed (and any checkpoint)."""
        for task in (self.task, self.checkpoint):
            if task is not None and not task.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.task = self.checkpoint = None

    def _maybe_checkpoint(self) -> None:
        """On SQLite, copy the write-ahead log into the database now and then, on another
        connection, so that no commit pays for it (PASSIVE: it never blocks a commit)."""
        if self.engine.dialect.name != "sqlite":
            return
        self._since_checkpoint += 1
        if self._since_checkpoint < CHECKPOINT_EVERY:
            return
        if self.checkpoint is not None and not self.checkpoint.done():
            return
        self._since_checkpoint = 0
        self.checkpoint = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            async with self.engine.connect() as conn:
                await conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except DBAPIError as exc:  # pragma: no cover - the next one tries again
            log.warning("checkpoint failed: %s", exc)

    def forget(self, table_id: int) -> None:
        """Drop the cached cursor of ``table_id`` (after a write outside the writer)."""
        self.cursors.pop(table_id, None)

    async def cursor(self, table_id: int) -> TableCursor:
        cur = self.cursors.get(table_id)
        if cur is None:
            async with self.engine.connect() as conn:
                cur = await self.load_cursor(conn, table_id)
            self.cursors[table_id] = cur
        return cur

    async def submit(self, write: MoveWrite) -> MoveResult:
        """Queue ``write``; returns once the commit that holds it has returned.

        The writer task runs only while there is work: it commits everything queued, in
        groups, and ends when the queue is empty (a later write starts it again).
        """
        self.queue.append(write)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drain(), name="move-writer")
        return await write.future

    async def _drain(self) -> None:
        while self.queue:
            batch = [self.queue.popleft() for _ in range(min(len(self.queue), MAX_BATCH))]
            try:
                await self._commit_batch(batch)
            except Exception as exc:  # pragma: no cover - last resort, keeps the writer alive
                log.exception("move writer failed")
                for w in batch:
                    if not w.future.done():
                        w.future.set_exception(StorageError(f"storing the move failed: {exc}"))

    async def _commit_batch(self, batch: list[MoveWrite], *, careful: bool = False) -> None:
        try:
            await self._commit(batch, careful=careful)
        except (IntegrityError, DBAPIError, StaleVersion) as exc:
            for w in batch:
                self.forget(w.table_id)
            if careful:
                w = batch[0]
                if not w.future.done():
                    w.future.set_exception(self._explain(w, exc))
                return
            # Something in the batch conflicted (another process, a raced interaction id):
            # store the moves one by one so that only the conflicting one fails.
            for w in batch:
                if not w.future.done():
                    await self._commit_batch([w], careful=True)

    def _explain(self, w: MoveWrite, exc: Exception) -> Exception:
        if isinstance(exc, StaleVersion):
            return exc
        if isinstance(exc, IntegrityError):
            return StaleVersion(w.table_id, w.expected, -1)
        return StorageError(f"storing the move failed: {exc}")

    async def _commit(self, batch: list[MoveWrite], *, careful: bool = False) -> None:
        """Commit ``batch`` in one transaction. Interaction ids are checked against the
        log only when ``careful`` (one write retried alone): otherwise their unique index
        turns a repeat into an IntegrityError, and the batch is retried one by one."""
        now = datetime.now(UTC)
        pending = [w for w in batch if not w.future.done()]
        for w in pending:
            if w.table_id not in self.cursors:
                await self.cursor(w.table_id)
        async with self.engine.begin() as conn:
            seen = await self._known_interactions(conn, pending) if careful else set()
            work = {w.table_id: _copy(self.cursors[w.table_id]) for w in pending}
            accepted: list[MoveWrite] = []
            duplicates: list[MoveWrite] = []
            failed: list[tuple[MoveWrite, Exception]] = []
            for w in pending:
                cur = work[w.table_id]
                if w.interaction_id is not None and w.interaction_id in seen:
                    duplicates.append(w)
                    continue
                if cur.status != "playing":
                    failed.append((w, WrongTableStatus(w.table_id, cur.status, "playing")))
                    continue
                if w.expected != cur.version:
                    failed.append((w, StaleVersion(w.table_id, w.expected, cur.version)))
                    continue
                if w.interaction_id is not None:
                    seen.add(w.interaction_id)
                accepted.append(w)
                _advance(cur, w)
            # A stale write may be an interaction delivered again: that is a duplicate.
            maybe_repeats = [w for w, exc in failed if isinstance(exc, StaleVersion)]
            if maybe_repeats and not careful:
                known = await self._known_interactions(conn, maybe_repeats)
                if known:
                    duplicates += [w for w in maybe_repeats if w.interaction_id in known]
                    failed = [(w, exc) for w, exc in failed if w.interaction_id not in known]
            if accepted:
                await self._write(conn, accepted, work, now)
        # committed: publish the new cursors and release the callers
        for tid, cur in work.items():
            self.cursors[tid] = cur
        self.batches += 1
        self._maybe_checkpoint()
        for w in accepted:
            w.future.set_result(MoveResult(w.expected + len(w.moves)))
        for w in duplicates:
            w.future.set_result(MoveResult(work[w.table_id].version, duplicate=True))
        for w, exc in failed:
            w.future.set_exception(exc)

    async def _known_interactions(
        self, conn: AsyncConnection, pending: list[MoveWrite]
    ) -> set[str]:
        ids = [w.interaction_id for w in pending if w.interaction_id is not None]
        if not ids:
            return set()
        rows = await conn.execute(
            select(moves.c.interaction_id).where(moves.c.interaction_id.in_(ids))
        )
        return {r[0] for r in rows}

    async def _write(
        self,
        conn: AsyncConnection,
        accepted: list[MoveWrite],
        work: dict[int, TableCursor],
        now: datetime,
    ) -> None:
        move_rows = []
        round_rows = []
        rounds_updates: list[dict[str, Any]] = []
        snapshot_updates: list[dict[str, Any]] = []
        finished: list[tuple[MoveWrite, TableCursor]] = []
        done_before: dict[int, int] = {}
        for w in accepted:
            for i, move in enumerate(w.moves):
                move_rows.append(
                    {
                        "table_id": w.table_id,
                        "seq": w.expected + 1 + i,
                        "move": move,
                        # the interaction belongs to the move's first row
                        "interaction_id": w.interaction_id if i == 0 else None,
                        "created_at": now,
                    }
                )
            # each write carries the table's whole list of finished rounds; the rows to
            # add are those past what the table had before
            start = done_before.setdefault(w.table_id, self.cursors[w.table_id].rounds_done)
            for r in range(start, len(w.round_scores)):
                for position, points in enumerate(w.round_scores[r]):
                    round_rows.append(
                        {
                            "table_id": w.table_id,
                            "round_no": r + 1,
                            "position": position,
                            "points": points,
                        }
                    )
            if len(w.round_scores) > start:
                done_before[w.table_id] = len(w.round_scores)
                rounds_updates.append({"b_id": w.table_id, "b_rounds": len(w.round_scores)})
            if w.snapshot is not None:
                snapshot_updates.append(
                    {
                        "b_id": w.table_id,
                        "b_version": w.expected + len(w.moves),
                        "b_snapshot": w.snapshot,
                    }
                )
            if w.result is not None:
                finished.append((w, work[w.table_id]))
        # The version follows the log: a trigger on moves keeps it, in the same INSERT.
        await conn.execute(moves.insert(), move_rows)
        if rounds_updates:
            await conn.execute(
                update(tables)
                .where(tables.c.id == bindparam("b_id"))
                .values(rounds_done=bindparam("b_rounds")),
                rounds_updates,
            )
        if snapshot_updates:
            await conn.execute(
                update(snapshots)
                .where(snapshots.c.table_id == bindparam("b_id"))
                .values(version=bindparam("b_version"), state=bindparam("b_snapshot")),
                snapshot_updates,
            )
        if round_rows:
            await conn.execute(round_scores.insert(), round_rows)
        for w, cur in finished:
            assert w.result is not None
            await conn.execute(
                update(tables)
                .where(tables.c.id == w.table_id)
                .values(status="finished", finished_at=now, deadline=None)
            )
            await conn.execute(
                results.insert().values(
                    table_id=w.table_id,
                    guild_id=cur.guild_id,
                    channel_id=cur.channel_id,
                    winners=w.result.winners,
                    totals=w.result.totals,
                    rounds_played=w.result.rounds_played,
                    finished_at=now,
                )
            )
            for row in w.result.stats:
                await upsert_stats(conn, player_stats, cur.guild_id, row)


def _copy(cur: TableCursor) -> TableCursor:
    return TableCursor(
        cur.version,
        cur.rounds_done,
        cur.snapshot_version,
        cur.status,
        cur.guild_id,
        cur.channel_id,
        cur.seats,
    )


def _advance(cur: TableCursor, w: MoveWrite) -> None:
    cur.version = w.expected + len(w.moves)
    cur.rounds_done = max(cur.rounds_done, len(w.round_scores))
    if w.snapshot is not None:
        cur.snapshot_version = cur.version
    if w.result is not None:
        cur.status = "finished"

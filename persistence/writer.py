"""Group commit: one writer task commits every durable write that arrived together in one
transaction, and releases each caller when the commit that holds its write returns.

Two kinds of write share the queue and the transactions, in the order they arrived:

* moves (:class:`MoveWrite`): each stored whole — its log rows, the table's new version
  (kept by a trigger on the log), round scores, seat changes, outbox rows, and any result
  and player stats it produced — or not at all. The log's primary key ``(table_id, seq)``
  makes a second write at the same version impossible, even from another process, and
  ``interaction_id`` is unique, so an interaction is applied once. A batch of moves alone
  takes the hot path (:mod:`persistence.hotpath`).
* operations (:class:`OpWrite`): every other write (lobbies, seats, ends, messages,
  settings, the outbox's deliveries), an async function of a :class:`WriteContext` that
  reads and checks first and writes after. A refusal it raises before writing (e.g.
  ``TableFull``) leaves the shared transaction clean and reaches its caller after the
  commit; any other error rolls the transaction back, and the batch is retried one write
  at a time so that only the failing write fails.

With a :class:`~persistence.fence.Fence` (a process of several sharing PostgreSQL, which
holds shard leases), every transaction first checks the leases of what it writes: moves by
their table's guild, operations by calling :meth:`WriteContext.check_lease` before they
write. A write on a shard this process no longer holds fails with
:class:`~persistence.errors.LeaseLost` and writes nothing; the others go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import select
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine
from sqlalchemy.sql.expression import Executable

from persistence.database import STATEMENT_SECONDS, is_database_fault
from persistence.errors import (
    DatabaseUnavailable,
    LeaseLost,
    StaleVersion,
    StorageError,
    WrongTableStatus,
)
from persistence.fence import Fence
from persistence.hotpath import BatchSQL, FastCommit, Statements, run_in_transaction
from persistence.ratings import RatedGame, rate_finished
from persistence.records import Announcement, MoveResult, SeatInfo, TableCursor
from persistence.results import ResultRow, credited_stats
from persistence.rows import read_cursor
from persistence.schema import moves, tables

log = logging.getLogger(__name__)
MAX_BATCH = 1000
CHECKPOINT_EVERY = 100  # commits between two SQLite checkpoints
# One transaction of the writer (its statements are bounded one by one too) gives up after
# this long: its writes fail as "could not be saved", and the writer reconnects.
BATCH_SECONDS = 2 * STATEMENT_SECONDS
RELEASE_SECONDS = 2.0  # closing a connection that may be stalled
T = TypeVar("T")


@dataclass(slots=True)
class MoveWrite:
    """One call of ``record_move``, waiting for its commit."""

    table_id: int
    expected: int
    moves: list[Any]  # as the game encodes them (JSON values)
    interaction_id: str | None
    round_scores: list[list[int]]
    snapshot: dict[str, Any] | None
    result: ResultRow | None
    future: asyncio.Future[MoveResult] = field(repr=False)
    announcements: list[Announcement] = field(default_factory=list)
    timeouts: dict[int, int] = field(default_factory=dict)  # position -> count
    to_ai: dict[int, str] = field(default_factory=dict)  # position -> AI level
    human: bool = False
    guild_id: int | None = None  # the table's server (its shard, for the lease check)
    automatic: frozenset[int] = frozenset()  # indices of the moves the turn timer played


Operation = Callable[["WriteContext"], Awaitable[T]]


@dataclass(slots=True)
class OpWrite:
    """Any other durable write, waiting for its commit."""

    operation: Operation[Any]
    future: asyncio.Future[Any] = field(repr=False)
    # what an IntegrityError (a conflicting write by another process) means to the caller
    explain: Callable[[IntegrityError], Exception] | None = None
    # run once the commit returned, before the caller is released (e.g. drop a cache)
    after_commit: Callable[[], None] | None = None


Write = MoveWrite | OpWrite


class _Attempt:
    """One transaction's working state: cursors as the batch's writes leave them, and the
    outcome of each write, published only once the transaction committed."""

    def __init__(self) -> None:
        self.work: dict[int, TableCursor] = {}
        self.closed: set[int] = set()
        self.outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        self.hooks: list[Callable[[], None]] = []
        self.fenced: set[int] = set()  # shards whose leases this transaction checked
        self.refused: set[int] = set()  # id() of writes refused before writing

    def succeed(self, future: asyncio.Future[Any], value: Any) -> None:
        self.outcomes.append((future, value, None))

    def fail(self, future: asyncio.Future[Any], exc: BaseException) -> None:
        self.outcomes.append((future, None, exc))


class WriteContext:
    """What an operation sees inside the writer's transaction.

    Read with ``conn``; write with :meth:`write` (which notes that the transaction now
    holds a change: a refusal raised after that fails the whole batch, which is then
    retried one write at a time).
    """

    def __init__(self, writer: MoveWriter, conn: AsyncConnection, attempt: _Attempt) -> None:
        self.writer = writer
        self.conn = conn
        self.now = datetime.now(UTC)
        self.wrote = False
        self._attempt = attempt

    async def write(self, statement: Executable, params: Any = None) -> CursorResult[Any]:
        result = await self.conn.execute(statement, params)
        if result.rowcount != 0:
            self.wrote = True
        return result

    async def check_lease(self, guild_id: int) -> None:
        """Before writing anything of the guild (a table, its settings): with a fence,
        raise :class:`LeaseLost` unless this process still holds the guild's shard (its
        lease row share-locked until the commit). Nothing to check for one process."""
        fence = self.writer.fence
        if fence is None:
            return
        shard = fence.shard_of(guild_id)
        if shard not in self._attempt.fenced:
            await fence.check(self.conn, [shard])
            self._attempt.fenced.add(shard)

    async def check_table_lease(self, table_id: int) -> None:
        """:meth:`check_lease` for the table's guild (looked up only with a fence)."""
        if self.writer.fence is None:
            return
        guild = (
            await self.conn.execute(select(tables.c.guild_id).where(tables.c.id == table_id))
        ).scalar_one_or_none()
        if guild is not None:
            await self.check_lease(int(guild))

    def cursor(self, table_id: int) -> TableCursor | None:
        """The move writer's cursor of the table as this transaction leaves it (to be
        updated by a write that changes seats or status), if the writer keeps one."""
        return self.writer._working_cursor(self._attempt, table_id)

    def track(self, table_id: int, cursor: TableCursor) -> None:
        """From this commit on, the writer knows the table as ``cursor`` (a started game)."""
        self._attempt.work[table_id] = cursor
        self._attempt.closed.discard(table_id)

    def close(self, table_id: int, status: str) -> None:
        """The table is no longer played: the writer drops its cursor after the commit."""
        cur = self.cursor(table_id)
        if cur is not None:
            cur.status = status
        self._attempt.closed.add(table_id)

    async def announce(
        self, table_id: int, channel_id: int, announcements: Iterable[Announcement]
    ) -> list[int]:
        """Outbox rows for the table's channel, in this transaction; their ids."""
        batch = BatchSQL(
            outbox=[
                (table_id, channel_id, a.kind, a.content, self.now, a.round_no)
                for a in announcements
            ]
        )
        if not batch.outbox:
            return []
        self.wrote = True
        return await run_in_transaction(self.conn, batch)


class MoveWriter:
    """The single writer; :meth:`submit` and :meth:`run` return once the write is durable."""

    def __init__(
        self,
        engine: AsyncEngine,
        load_cursor: Callable[[AsyncConnection, int], Awaitable[TableCursor]] = read_cursor,
    ) -> None:
        self.engine = engine
        self.load_cursor = load_cursor
        self.cursors: dict[int, TableCursor] = {}
        # cursors of tables loaded lazily, built when first needed: (guild, what builds it)
        self._unread: dict[int, tuple[int, Callable[[], TableCursor | None]]] = {}
        self.queue: deque[Write] = deque()
        self.task: asyncio.Task[None] | None = None
        self.batches = 0
        self.checkpoint: asyncio.Task[None] | None = None
        # the shard leases every write is checked against (None: one process, no check)
        self.fence: Fence | None = None
        self._since_checkpoint = 0
        self._epoch = 0  # bumped by every publish of cursors
        self._conn: AsyncConnection | None = None
        self.statements = Statements(engine.dialect)
        self.fast = (
            FastCommit(engine.dialect, self.statements)
            if FastCommit.supported(engine.dialect)
            else None
        )

    # ------------------------------------------------------------------ lifecycle

    async def stop(self) -> None:
        """Wait for the writes already queued to be committed (and any checkpoint), then
        give the writer's connection back."""
        while True:  # a write queued while waiting starts another drain: wait for it too
            running = [t for t in (self.task, self.checkpoint) if t is not None and not t.done()]
            if not running:
                break
            for task in running:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self.task = self.checkpoint = None
        await self._release_connection()

    async def _connection(self) -> AsyncConnection:
        """The writer's own connection, kept between batches (no pool round trip, no
        reset per commit)."""
        if self._conn is None:
            self._conn = await self.engine.connect()
        return self._conn

    async def _release_connection(self, *, broken: bool = False) -> None:
        """Give the writer's connection back; a ``broken`` one (its transaction failed or
        timed out: the server or the network may be stalled) is thrown away without
        waiting on it, so that the next batch opens a new one."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        with contextlib.suppress(Exception):
            if broken:
                await asyncio.wait_for(conn.invalidate(), RELEASE_SECONDS)
            await asyncio.wait_for(conn.close(), RELEASE_SECONDS)

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

    # ------------------------------------------------------------------ cursors

    def keep(self, table_id: int, cursor: TableCursor) -> None:
        """Keep ``cursor`` of a table just read (unless one is kept already): its first
        write needs no query."""
        if table_id not in self._unread:
            self.cursors.setdefault(table_id, cursor)

    def keep_unread(
        self, table_id: int, guild_id: int, read: Callable[[], TableCursor | None]
    ) -> None:
        """As :meth:`keep`, for a table loaded lazily: ``read`` builds its cursor from the
        rows read, when it is first needed."""
        if table_id not in self.cursors:
            self._unread.setdefault(table_id, (guild_id, read))

    def _kept(self, table_id: int) -> TableCursor | None:
        """The cursor kept of ``table_id``, if any (one of a lazy load built now)."""
        cur = self.cursors.get(table_id)
        if cur is None:
            unread = self._unread.pop(table_id, None)
            if unread is not None:
                cur = unread[1]()
                if cur is not None:
                    self.cursors[table_id] = cur
        return cur

    def forget(self, table_id: int) -> None:
        """Drop the cached cursor of ``table_id`` (it is read again when next needed)."""
        self.cursors.pop(table_id, None)
        self._unread.pop(table_id, None)

    def forget_guilds(self, belongs: Callable[[int], bool]) -> None:
        """Drop the cached cursors of the tables whose guild ``belongs`` (a shard given up
        or taken over: another process may have written them)."""
        self._epoch += 1  # a cursor being read now is not kept either
        for tid in [t for t, cur in self.cursors.items() if belongs(cur.guild_id)]:
            del self.cursors[tid]
        for tid in [t for t, (guild, _) in self._unread.items() if belongs(guild)]:
            del self._unread[tid]

    async def cursor(self, table_id: int) -> TableCursor:
        """The table's cursor as of the last commit. Only tables being played are kept."""
        cur = self._kept(table_id)
        if cur is None:
            epoch = self._epoch
            async with self.engine.connect() as conn:
                cur = await self.load_cursor(conn, table_id)
            # a commit published meanwhile may have changed the table: keep only a fresh read
            if cur.status == "playing" and epoch == self._epoch:
                self.cursors.setdefault(table_id, cur)
        return cur

    def _working_cursor(self, attempt: _Attempt, table_id: int) -> TableCursor | None:
        cur = attempt.work.get(table_id)
        if cur is None:
            kept = self._kept(table_id)
            if kept is not None:
                cur = attempt.work[table_id] = _copy(kept)
        return cur

    async def _load_missing(
        self, conn: AsyncConnection, attempt: _Attempt, table_ids: Iterable[int]
    ) -> None:
        for tid in dict.fromkeys(table_ids):
            if self._working_cursor(attempt, tid) is None:
                attempt.work[tid] = await self.load_cursor(conn, tid)

    # ------------------------------------------------------------------ the queue

    async def submit(self, write: MoveWrite) -> MoveResult:
        """Queue a move; returns once the commit that holds it has returned."""
        self._enqueue(write)
        return await write.future

    async def run(
        self,
        operation: Operation[T],
        *,
        explain: Callable[[IntegrityError], Exception] | None = None,
        after_commit: Callable[[], None] | None = None,
    ) -> T:
        """Queue an operation; returns its value once the commit that holds it returned
        (or raises its refusal, which wrote nothing)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._enqueue(OpWrite(operation, future, explain, after_commit))
        return await future

    def _enqueue(self, write: Write) -> None:
        """The writer task runs only while there is work: it commits everything queued,
        in groups, and ends when the queue is empty (a later write starts it again)."""
        self.queue.append(write)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._drain(), name="move-writer")

    async def _drain(self) -> None:
        while self.queue:
            batch = [self.queue.popleft() for _ in range(min(len(self.queue), MAX_BATCH))]
            # Moves alone take the fast path; other writes (a table message's place, a
            # lobby change) would send every move of their batch down the slow one, so
            # they commit in a transaction of their own, and so do the moves that end a
            # game (their players' ratings are read and rewritten in their commit). No
            # write of a batch waits on another of the same batch (each caller holds its
            # table's lock until its write returns), so the groups are independent.
            moves: list[Write] = [w for w in batch if isinstance(w, MoveWrite) and w.result is None]
            ends: list[Write] = [
                w for w in batch if isinstance(w, MoveWrite) and w.result is not None
            ]
            others: list[Write] = [w for w in batch if not isinstance(w, MoveWrite)]
            for group in (moves, ends, others) if self.fast is not None else (batch,):
                if group:
                    await self._commit_group(group)

    async def _commit_group(self, batch: list[Write]) -> None:
        try:
            await self._commit_batch(batch)
        except Exception as exc:  # pragma: no cover - last resort, keeps the writer alive
            log.exception("move writer failed")
            await self._release_connection(broken=True)
            for w in batch:
                if not w.future.done():
                    w.future.set_exception(StorageError(f"storing failed: {exc}"))

    async def _commit_batch(
        self, batch: list[Write], *, careful: bool = False, reconnected: bool = False
    ) -> None:
        try:
            await asyncio.wait_for(self._commit(batch, careful=careful), BATCH_SECONDS)
        except Exception as exc:
            # a clean (or new) connection for the retry
            await self._release_connection(broken=True)
            for w in batch:
                if isinstance(w, MoveWrite):
                    self.forget(w.table_id)  # another process may have written meanwhile
            stale = is_database_fault(exc) and not isinstance(exc, StorageError | TimeoutError)
            if stale and not reconnected:
                # the connection held died since its last use (a cut the database came
                # back from): the batch is tried once more on a new one; a database still
                # out of reach fails it below, without waiting again
                await self._commit_batch(batch, careful=careful, reconnected=True)
                return
            if is_database_fault(exc) and not isinstance(exc, StorageError):
                # the database is out of reach or stalled: every write of the batch fails
                # now (one by one, each would wait as long again)
                log.warning("storing %d writes failed: %s", len(batch), _fault(exc))
                for w in batch:
                    if not w.future.done():
                        w.future.set_exception(self._explain(w, exc))
                return
            if careful:
                w = batch[0]
                if not w.future.done():
                    w.future.set_exception(self._explain(w, exc))
                return
            if isinstance(exc, LeaseLost) and self.fence is not None:
                # shards another process holds now: their writes fail, the rest commit
                # together again (the lost shards are revoked: refused at once from now on)
                rest = []
                for w in batch:
                    if isinstance(w, MoveWrite) and not w.future.done() and w.guild_id:
                        shard = self.fence.shard_of(w.guild_id)
                        if not self.fence.holds(shard):
                            w.future.set_exception(LeaseLost([shard]))
                            continue
                    rest.append(w)
                if len(rest) < len(batch):
                    await self._commit_batch(rest)
                    return
            # Something in the batch failed (a conflict with another process, a raced
            # interaction id, a broken write): store the writes one by one so that only
            # the failing one fails.
            for w in batch:
                if not w.future.done():
                    await self._commit_batch([w], careful=True)

    def _explain(self, w: Write, exc: Exception) -> Exception:
        if isinstance(exc, StorageError):
            return exc
        if isinstance(exc, IntegrityError):
            if isinstance(w, MoveWrite):
                return StaleVersion(w.table_id, w.expected, -1)
            if w.explain is not None:
                return w.explain(exc)
        if is_database_fault(exc):
            error: StorageError = DatabaseUnavailable(f"storing failed: {_fault(exc)}")
        else:
            error = StorageError(f"storing failed: {exc}")
        error.__cause__ = exc
        return error

    # ------------------------------------------------------------------ one transaction

    async def _commit(self, batch: list[Write], *, careful: bool = False) -> None:
        """Commit ``batch`` in one transaction. Interaction ids are checked against the
        log only when ``careful`` (one write retried alone): otherwise their unique index
        turns a repeat into an IntegrityError, and the batch is retried one by one."""
        pending = [w for w in batch if not w.future.done()]
        if not pending:
            return
        conn = await self._connection()
        attempt = _Attempt()
        moves_alone = [w for w in pending if isinstance(w, MoveWrite)]
        move_tables = [w.table_id for w in moves_alone]
        fast = self.fast is not None and not careful and len(moves_alone) == len(pending)
        if fast and all(w.result is None for w in moves_alone):
            await self._commit_moves_fast(conn, attempt, moves_alone)
        else:
            async with conn.begin():
                await self._load_missing(conn, attempt, move_tables)
                await self._fence_moves(conn, attempt, moves_alone)
                seen = await self._known_interactions(conn, pending) if careful else set()
                stale: list[MoveWrite] = []
                segment: list[tuple[MoveWrite, TableCursor, int, tuple[SeatInfo, ...]]] = []
                for w in pending:
                    if isinstance(w, MoveWrite):
                        self._check_move(attempt, w, seen, segment, stale)
                        continue
                    await self._write_moves(conn, attempt, segment)
                    segment = []
                    await self._run_operation(conn, attempt, w)
                await self._write_moves(conn, attempt, segment)
                if stale and not careful:
                    await self._settle_repeats(conn, attempt, stale)
        self._publish(attempt)

    async def _commit_moves_fast(
        self, conn: AsyncConnection, attempt: _Attempt, pending: list[MoveWrite]
    ) -> None:
        """A batch of moves alone: checked against the cursors, then written and committed
        straight on the driver."""
        assert self.fast is not None
        if any(self._working_cursor(attempt, w.table_id) is None for w in pending):
            async with conn.begin():
                await self._load_missing(conn, attempt, [w.table_id for w in pending])
        segment: list[tuple[MoveWrite, TableCursor, int, tuple[SeatInfo, ...]]] = []
        stale: list[MoveWrite] = []
        seen: set[str] = set()
        fence = self.fence
        for w in pending:
            if fence is not None:  # a shard already given up fails alone, at once
                cur = self._working_cursor(attempt, w.table_id)
                shard = fence.shard_of(cur.guild_id) if cur is not None else None
                if shard is not None and not fence.holds(shard):
                    attempt.refused.add(id(w))
                    attempt.fail(w.future, LeaseLost([shard]))
                    continue
            self._check_move(attempt, w, seen, segment, stale)
        if stale:
            async with conn.begin():
                await self._settle_repeats(conn, attempt, stale)
        if segment:
            batch, counts, ended = self._build(segment)
            assert not ended, "a game's end commits in a transaction (its ratings)"
            if fence is not None:  # the leases are checked in the commit's transaction
                batch.fence = fence
                batch.fence_shards = sorted(
                    {fence.shard_of(cur.guild_id) for _, cur, _, _ in segment}
                )
            ids = await self.fast.commit(conn, batch)
            self._accept(attempt, segment, counts, ids)

    async def _fence_moves(
        self, conn: AsyncConnection, attempt: _Attempt, writes: list[MoveWrite]
    ) -> None:
        """With a fence: check the leases of the moves' shards in this transaction; a move
        on a shard this process no longer holds fails with :class:`LeaseLost`."""
        fence = self.fence
        if fence is None or not writes:
            return
        shard_of: dict[int, int] = {}
        for w in writes:
            cur = self._working_cursor(attempt, w.table_id)
            assert cur is not None
            shard_of[id(w)] = fence.shard_of(cur.guild_id)
        shards = sorted(set(shard_of.values()))
        try:
            await fence.check(conn, shards)
            lost: set[int] = set()
        except LeaseLost as err:
            lost = set(err.shards)
            if len(lost) < len(shards):  # share-lock the rows of the shards still held
                await fence.check(conn, [s for s in shards if s not in lost])
        attempt.fenced.update(s for s in shards if s not in lost)
        for w in writes:
            shard = shard_of[id(w)]
            if shard in lost:
                attempt.refused.add(id(w))
                attempt.fail(w.future, LeaseLost([shard]))

    async def _run_operation(self, conn: AsyncConnection, attempt: _Attempt, w: OpWrite) -> None:
        ctx = WriteContext(self, conn, attempt)
        try:
            value = await w.operation(ctx)
        except StorageError as refusal:
            if ctx.wrote:
                raise  # the transaction holds part of it: retried alone, rolled back
            attempt.fail(w.future, refusal)
            return
        attempt.succeed(w.future, value)
        if w.after_commit is not None:
            attempt.hooks.append(w.after_commit)

    def _publish(self, attempt: _Attempt) -> None:
        """The transaction committed: keep the new cursors, release the callers."""
        self._epoch += 1
        for tid, cur in attempt.work.items():
            self._unread.pop(tid, None)
            if cur.status == "playing" and tid not in attempt.closed:
                self.cursors[tid] = cur
            else:
                self.cursors.pop(tid, None)
        for tid in attempt.closed:
            self.cursors.pop(tid, None)
            self._unread.pop(tid, None)
        self.batches += 1
        self._maybe_checkpoint()
        for hook in attempt.hooks:
            hook()
        for future, value, exc in attempt.outcomes:
            if future.done():  # pragma: no cover - a caller that gave up
                continue
            if exc is None:
                future.set_result(value)
            else:
                future.set_exception(exc)

    # ------------------------------------------------------------------ moves

    def _check_move(
        self,
        attempt: _Attempt,
        w: MoveWrite,
        seen: set[str],
        segment: list[tuple[MoveWrite, TableCursor, int, tuple[SeatInfo, ...]]],
        stale: list[MoveWrite],
    ) -> None:
        if id(w) in attempt.refused:
            return
        cur = self._working_cursor(attempt, w.table_id)
        assert cur is not None
        if w.interaction_id is not None and w.interaction_id in seen:
            attempt.succeed(w.future, MoveResult(cur.version, duplicate=True))
            return
        if cur.status != "playing":
            error: StorageError = WrongTableStatus(w.table_id, cur.status, "playing")
        elif w.expected != cur.version:
            error = StaleVersion(w.table_id, w.expected, cur.version)
        else:
            if w.interaction_id is not None:
                seen.add(w.interaction_id)
            rounds_before = cur.rounds_done
            _advance(cur, w)
            segment.append((w, cur, rounds_before, cur.seats))
            return
        if w.interaction_id is not None:
            stale.append(w)  # may be an interaction delivered again: then a duplicate
        attempt.fail(w.future, error)

    async def _settle_repeats(
        self, conn: AsyncConnection, attempt: _Attempt, stale: list[MoveWrite]
    ) -> None:
        """A refused write whose interaction is already in the log is a duplicate."""
        known = await self._known_interactions(conn, stale)
        if not known:
            return
        repeats = {id(w.future): w for w in stale if w.interaction_id in known}
        for i, (future, _value, _exc) in enumerate(attempt.outcomes):
            w = repeats.get(id(future))
            if w is not None:
                version = attempt.work[w.table_id].version
                attempt.outcomes[i] = (future, MoveResult(version, duplicate=True), None)

    async def _known_interactions(
        self, conn: AsyncConnection, pending: Iterable[Write]
    ) -> set[str]:
        ids = [
            w.interaction_id
            for w in pending
            if isinstance(w, MoveWrite) and w.interaction_id is not None
        ]
        if not ids:
            return set()
        rows = await conn.execute(
            select(moves.c.interaction_id).where(moves.c.interaction_id.in_(ids))
        )
        return {r[0] for r in rows}

    async def _write_moves(
        self,
        conn: AsyncConnection,
        attempt: _Attempt,
        segment: list[tuple[MoveWrite, TableCursor, int, tuple[SeatInfo, ...]]],
    ) -> None:
        if segment:
            batch, counts, ended = self._build(segment)
            ids = await run_in_transaction(conn, batch)
            await rate_finished(conn, ended)
            self._accept(attempt, segment, counts, ids)

    def _accept(
        self,
        attempt: _Attempt,
        segment: list[tuple[MoveWrite, TableCursor, int, tuple[SeatInfo, ...]]],
        counts: list[int],
        ids: list[int],
    ) -> None:
        start = 0
        for (w, _cur, _rounds, _seats), n in zip(segment, counts, strict=True):
            outbox_ids = tuple(ids[start : start + n])
            start += n
            attempt.succeed(w.future, MoveResult(w.expected + len(w.moves), False, outbox_ids))

    def _build(
        self, segment: list[tuple[MoveWrite, TableCursor, int, tuple[SeatInfo, ...]]]
    ) -> tuple[BatchSQL, list[int], list[RatedGame]]:
        """The statements that store ``segment`` (accepted moves, each with its table's
        cursor, the rounds the table had before it and its seats after it), how many
        outbox rows each move adds, and the games it ends, to be rated."""
        st = self.statements
        now = datetime.now(UTC)
        move_rows, touch_rows, snapshot_rows, round_rows, seat_rows = [], [], [], [], []
        finish_rows, result_rows, stats_rows = [], [], []
        batch = BatchSQL()
        counts = []
        ended: list[RatedGame] = []
        for w, cur, rounds_before, seat_infos in segment:
            tid = w.table_id
            for i, move in enumerate(w.moves):
                # the interaction belongs to the move's first row
                interaction = w.interaction_id if i == 0 else None
                move_rows.append(
                    st.insert_move.row(
                        tid, w.expected + 1 + i, move, interaction, now, i in w.automatic
                    )
                )
            # each write carries the table's whole list of finished rounds; the rows to
            # add are those past what the table had before
            new_rounds = len(w.round_scores) > rounds_before
            for r in range(rounds_before, len(w.round_scores)):
                for position, points in enumerate(w.round_scores[r]):
                    round_rows.append(st.insert_round.row(tid, r + 1, position, points))
            if new_rounds or w.human:
                touch_rows.append(
                    st.touch_table.row(
                        tid,
                        len(w.round_scores) if new_rounds else None,
                        now if w.human else None,
                    )
                )
            if w.snapshot is not None:
                snapshot_rows.append(
                    st.update_snapshot.row(tid, w.expected + len(w.moves), w.snapshot)
                )
            for position in sorted(w.timeouts.keys() | w.to_ai.keys()):
                seat_rows.append(
                    st.update_seat.row(
                        tid, position, w.timeouts.get(position), w.to_ai.get(position)
                    )
                )
            if w.result is not None:
                finish_rows.append(st.finish_table.row(tid, now))
                result = w.result
                result_rows.append(
                    st.insert_result.row(
                        tid,
                        cur.guild_id,
                        cur.channel_id,
                        cur.game,
                        result.winners,
                        result.scores,
                        result.rounds_played,
                        result.ended_by,
                        result.higher_wins,
                        now,
                    )
                )
                ended.append(
                    RatedGame(
                        tid,
                        cur.guild_id,
                        cur.game,
                        now,
                        result.winners,
                        result.scores,
                        result.higher_wins,
                        seat_infos,
                        result.sides,
                    )
                )
                for s in credited_stats(result, seat_infos):
                    stats_rows.append(
                        st.upsert_stats.row(
                            cur.guild_id,
                            s["user_id"],
                            cur.game,
                            s["name"],
                            1,
                            1 if s["win"] else 0,
                            s["points"],
                            s["figures"],
                        )
                    )
            for a in w.announcements:
                batch.outbox.append((tid, cur.channel_id, a.kind, a.content, now, a.round_no))
            counts.append(len(w.announcements))
        # The version (and moved_at) follow the log: a trigger on moves keeps them, in
        # the same INSERT.
        batch.add(st.insert_move, move_rows)
        batch.add(st.touch_table, touch_rows)
        batch.add(st.update_snapshot, snapshot_rows)
        batch.add(st.insert_round, round_rows)
        batch.add(st.update_seat, seat_rows)
        batch.add(st.finish_table, finish_rows)
        batch.add(st.insert_result, result_rows)
        batch.add(st.upsert_stats, stats_rows)
        return batch, counts, ended


def _fault(exc: BaseException) -> str:
    """A database fault in a few words (a timeout says so: its message is empty)."""
    if isinstance(exc, TimeoutError):
        return "the database did not answer in time"
    words = str(exc).strip().splitlines()
    return words[0][:200] if words else type(exc).__name__


def _copy(cur: TableCursor) -> TableCursor:
    return dataclasses.replace(cur)


def _advance(cur: TableCursor, w: MoveWrite) -> None:
    cur.version = w.expected + len(w.moves)
    cur.rounds_done = max(cur.rounds_done, len(w.round_scores))
    if w.snapshot is not None:
        cur.snapshot_version = cur.version
    if w.timeouts or w.to_ai:
        cur.seats = tuple(
            dataclasses.replace(
                s,
                timeouts=w.timeouts.get(s.position, s.timeouts),
                ai_level=w.to_ai.get(s.position, s.ai_level),
            )
            for s in cur.seats
        )
    if w.result is not None:
        cur.status = "finished"


def seat_changed(cur: TableCursor | None, position: int, **changes: Any) -> None:
    """Apply a seat change to the writer's cursor of a table, if it keeps one."""
    if cur is not None:
        cur.seats = tuple(
            dataclasses.replace(s, **changes) if s.position == position else s for s in cur.seats
        )

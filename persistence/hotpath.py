"""The move writer's hot path: its statements compiled once, and a batch of them committed
with as little work per statement as the driver allows.

Every statement is a SQLAlchemy Core statement compiled once for the engine's dialect (its
SQL text, the order of its parameters and the conversions SQLAlchemy applies to their
values). A batch is a list of ``executemany`` steps plus the outbox rows whose ids the
callers need back, and runs in one of two ways:

* inside a SQLAlchemy transaction (:func:`run_in_transaction`), when the batch also holds
  other writes or is being retried one write at a time;
* straight on the driver (:class:`FastCommit`), for a batch of moves alone: on SQLite the
  whole batch, commit included, is one call on aiosqlite's thread (one thread hop instead
  of three per statement); on PostgreSQL one asyncpg transaction, the outbox ids returned
  by a single statement.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Integer,
    String,
    bindparam,
    func,
    literal_column,
    null,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

from persistence.errors import LeaseLost
from persistence.fence import GUARD_SQL, Fence
from persistence.schema import (
    moves,
    outbox,
    player_stats,
    results,
    round_scores,
    seats,
    snapshots,
    tables,
)

Processor = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class Prepared:
    """A Core statement compiled for one dialect: the driver gets ``sql`` and the tuples
    that :meth:`row` builds from values given in the order of ``names``."""

    sql: str
    picks: tuple[int, ...]  # for each driver parameter, the index of its value
    processors: tuple[Processor | None, ...]

    @classmethod
    def compile(cls, statement: ClauseElement, names: Sequence[str], dialect: Dialect) -> Prepared:
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        order = compiled.positiontup
        if order is None:  # pragma: no cover - both supported drivers are positional
            raise ValueError(f"{dialect.name}: the hot path needs a positional paramstyle")
        processors = []
        for name in order:
            kind = compiled.binds[name].type
            processors.append(kind.dialect_impl(dialect).bind_processor(dialect))
        return cls(compiled.string, tuple(names.index(n) for n in order), tuple(processors))

    def row(self, *values: Any) -> tuple[Any, ...]:
        return tuple(
            value if proc is None else proc(value)
            for value, proc in zip((values[i] for i in self.picks), self.processors, strict=True)
        )


def _stats_upsert(dialect: Dialect) -> ClauseElement:
    """A player's stats gain a game: the counts add up and the figures merge, all in the
    one statement (no read first), whoever else writes the same row."""
    values: dict[str, Any] = {n: bindparam(n) for n in STATS_COLUMNS}
    keys = [player_stats.c.guild_id, player_stats.c.user_id, player_stats.c.game]
    if dialect.name == "sqlite":
        stmt = sqlite.insert(player_stats).values(values)
        return stmt.on_conflict_do_update(
            index_elements=keys, set_=_stats_sums(stmt.excluded, SQLITE_FIGURES)
        )
    pg = postgresql.insert(player_stats).values(values)
    return pg.on_conflict_do_update(index_elements=keys, set_=_stats_sums(pg.excluded, PG_FIGURES))


def _stats_sums(excluded: Any, figures: str) -> dict[str, Any]:
    c = player_stats.c
    return {
        "name": excluded.name,
        "games": c.games + excluded.games,
        "wins": c.wins + excluded.wins,
        "points": c.points + excluded.points,
        "figures": literal_column(figures, type_=JSON),
    }


# The stored figures merged with the game's: by key, a "best_" figure keeps the highest
# value, any other is summed; a key on one side only is kept as it is.
SQLITE_FIGURES = (
    "(SELECT json_group_object(key, v) FROM ("
    "SELECT key, CASE WHEN substr(key, 1, 5) = 'best_' THEN max(value) ELSE sum(value) END AS v "
    "FROM (SELECT key, value FROM json_each(player_stats.figures) "
    "UNION ALL SELECT key, value FROM json_each(excluded.figures)) GROUP BY key))"
)
PG_FIGURES = (
    "(SELECT COALESCE(json_object_agg(key, v), '{}'::json) FROM ("
    "SELECT key, CASE WHEN substr(key, 1, 5) = 'best_' THEN max(value::bigint) "
    "ELSE sum(value::bigint)::bigint END AS v "
    "FROM (SELECT key, value FROM json_each_text(player_stats.figures) "
    "UNION ALL SELECT key, value FROM json_each_text(excluded.figures)) AS both_sides "
    "GROUP BY key) AS merged)"
)
STATS_COLUMNS = ("guild_id", "user_id", "game", "name", "games", "wins", "points", "figures")
OUTBOX_COLUMNS = ("table_id", "channel_id", "kind", "content", "created_at", "round_no")

# PostgreSQL: the outbox rows of a batch in one statement, inserted in the order given (so
# their identity values ascend in that order) and the ids returned.
PG_OUTBOX = (
    "INSERT INTO outbox (table_id, channel_id, kind, content, created_at, round_no) "
    "SELECT t, c, k, x, a, r FROM unnest($1::bigint[], $2::bigint[], $3::varchar[], $4::text[], "
    "$5::timestamptz[], $6::int[]) WITH ORDINALITY AS r(t, c, k, x, a, r, n) ORDER BY n "
    "RETURNING id"
)


class Statements:
    """The move writer's statements, compiled for ``dialect``."""

    def __init__(self, dialect: Dialect) -> None:
        def prep(statement: ClauseElement, *names: str) -> Prepared:
            return Prepared.compile(statement, names, dialect)

        self.insert_move = prep(
            moves.insert(), "table_id", "seq", "move", "interaction_id", "created_at", "automatic"
        )
        # rounds_done and last_active_at, each left as it is when given NULL
        self.touch_table = prep(
            update(tables)
            .where(tables.c.id == bindparam("b_id"))
            .values(
                rounds_done=func.coalesce(
                    bindparam("b_rounds", type_=Integer), tables.c.rounds_done
                ),
                last_active_at=func.coalesce(
                    bindparam("b_active", type_=DateTime(timezone=True)),
                    tables.c.last_active_at,
                ),
            ),
            "b_id",
            "b_rounds",
            "b_active",
        )
        self.update_snapshot = prep(
            update(snapshots)
            .where(snapshots.c.table_id == bindparam("b_id"))
            .values(version=bindparam("b_version"), state=bindparam("b_state")),
            "b_id",
            "b_version",
            "b_state",
        )
        self.insert_round = prep(
            round_scores.insert(), "table_id", "round_no", "position", "points"
        )
        # a seat's timeouts and AI level, each left as it is when given NULL
        self.update_seat = prep(
            update(seats)
            .where(seats.c.table_id == bindparam("b_id"), seats.c.position == bindparam("b_pos"))
            .values(
                timeouts=func.coalesce(bindparam("b_timeouts", type_=Integer), seats.c.timeouts),
                ai_level=func.coalesce(bindparam("b_level", type_=String(16)), seats.c.ai_level),
            ),
            "b_id",
            "b_pos",
            "b_timeouts",
            "b_level",
        )
        self.finish_table = prep(
            update(tables)
            .where(tables.c.id == bindparam("b_id"))
            .values(
                status=literal_column("'finished'"),
                finished_at=bindparam("b_now"),
                deadline=null(),
            ),
            "b_id",
            "b_now",
        )
        self.insert_result = prep(
            results.insert(),
            "table_id",
            "guild_id",
            "channel_id",
            "game",
            "winners",
            "scores",
            "rounds_played",
            "ended_by",
            "higher_wins",
            "finished_at",
        )
        self.upsert_stats = prep(_stats_upsert(dialect), *STATS_COLUMNS)
        self.insert_outbox = prep(
            outbox.insert().values({n: bindparam(n) for n in OUTBOX_COLUMNS}), *OUTBOX_COLUMNS
        )


@dataclass(slots=True)
class BatchSQL:
    """What one commit of moves writes: ``executemany`` steps in order, then outbox rows
    (values in :data:`OUTBOX_COLUMNS` order) whose new ids come back in the same order."""

    steps: list[tuple[Prepared, list[tuple[Any, ...]]]] = field(default_factory=list)
    outbox: list[tuple[int, int, str, str, datetime, int | None]] = field(default_factory=list)
    # with shard leases: the fence, and the shards whose leases the commit checks first
    fence: Fence | None = None
    fence_shards: list[int] = field(default_factory=list)

    def add(self, prepared: Prepared, rows: list[tuple[Any, ...]]) -> None:
        if rows:
            self.steps.append((prepared, rows))


async def run_in_transaction(conn: AsyncConnection, batch: BatchSQL) -> list[int]:
    """Run ``batch`` inside the connection's open transaction (whose leases the writer has
    already checked); the new outbox ids."""
    for prepared, rows in batch.steps:
        await conn.exec_driver_sql(prepared.sql, rows)
    if not batch.outbox:
        return []
    inserted = await conn.execute(
        outbox.insert().returning(outbox.c.id, sort_by_parameter_order=True),
        [dict(zip(OUTBOX_COLUMNS, row, strict=True)) for row in batch.outbox],
    )
    return [int(r[0]) for r in inserted]


class FastCommit:
    """Commits a batch of moves straight on the driver connection under a pooled
    SQLAlchemy connection (which is not in a transaction meanwhile)."""

    def __init__(self, dialect: Dialect, statements: Statements) -> None:
        self.dialect_name = dialect.name
        self.statements = statements

    @classmethod
    def supported(cls, dialect: Dialect) -> bool:
        return dialect.name == "sqlite" or dialect.driver == "asyncpg"

    async def commit(self, conn: AsyncConnection, batch: BatchSQL) -> list[int]:
        """Write and commit ``batch``; the new outbox ids. On any error nothing is written."""
        driver = (await conn.get_raw_connection()).driver_connection
        if self.dialect_name == "sqlite":
            return await self._sqlite(driver, batch)
        return await self._asyncpg(driver, batch)

    async def _sqlite(self, driver: Any, batch: BatchSQL) -> list[int]:
        assert batch.fence is None, "shard leases need PostgreSQL"
        insert = self.statements.insert_outbox
        outbox_rows = [insert.row(*row) for row in batch.outbox]
        run_in_thread = getattr(driver, "_execute", None)
        if run_in_thread is not None:
            # aiosqlite runs each call on its own thread: the whole batch is one call
            ids: list[int] = await run_in_thread(
                _sqlite_batch, driver._conn, batch.steps, insert.sql, outbox_rows
            )
            return ids
        try:  # pragma: no cover - an aiosqlite without its thread hook
            for prepared, rows in batch.steps:
                await driver.executemany(prepared.sql, rows)
            ids = []
            for row in outbox_rows:
                cursor = await driver.execute(insert.sql, row)
                ids.append(int(cursor.lastrowid))
            await driver.commit()
            return ids
        except BaseException:  # pragma: no cover
            await driver.rollback()
            raise

    async def _asyncpg(self, driver: Any, batch: BatchSQL) -> list[int]:
        async with driver.transaction():
            if batch.fence is not None and batch.fence_shards:
                leases = await driver.fetch(GUARD_SQL, batch.fence_shards)
                lost = batch.fence.lost(batch.fence_shards, leases)
                if lost:
                    batch.fence.revoked |= lost
                    raise LeaseLost(sorted(lost))
            for prepared, rows in batch.steps:
                await driver.executemany(prepared.sql, rows)
            if not batch.outbox:
                return []
            columns = [list(col) for col in zip(*batch.outbox, strict=True)]
            returned = await driver.fetch(PG_OUTBOX, *columns)
        return sorted(int(r[0]) for r in returned)


def _sqlite_batch(
    connection: Any,
    steps: list[tuple[Prepared, list[tuple[Any, ...]]]],
    outbox_sql: str,
    outbox_rows: list[tuple[Any, ...]],
) -> list[int]:
    """On aiosqlite's thread: every statement, then COMMIT (or ROLLBACK on any error)."""
    try:
        for prepared, rows in steps:
            connection.executemany(prepared.sql, rows)
        ids = [int(connection.execute(outbox_sql, row).lastrowid) for row in outbox_rows]
        connection.commit()
    except BaseException:
        connection.rollback()
        raise
    return ids

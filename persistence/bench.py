"""``python -m persistence.bench``: durable moves per second with 500 concurrent tables.

Any game can be measured (``--game``, default ``stack``): tables are started and played
through the engine's game interface, as the bot's host plays them.

1. The raw rate of single-row INSERT + COMMIT with plain aiosqlite (WAL, synchronous=FULL,
   the same durability as the store) on the same file system, for reference.
2. One move per commit: the CPU time of ``Store.record_move`` when each move is committed
   alone (one table, each move awaited), against the same statements (the move's INSERT,
   whose trigger keeps the table's version, and COMMIT) on plain aiosqlite.
3. 500 tables playing random games at once through ``Store.record_move`` (new tables
   opening through the same writer as games end): durable moves per second, and p50/p99
   latency from call to durable return.
4. Loading 10,000 active tables (snapshot plus logged tail each) as at start-up.

The database is ``DATABASE_URL`` if set (e.g. PostgreSQL), else a SQLite file. Every file
the bench writes goes into a fresh ``stackbot-bench-*`` folder under ``--dir`` (default: the
system's temporary directory, never the working directory), removed when the bench ends,
also on an error, Ctrl-C or SIGTERM. The last line is ``N durable moves/s (P% of raw aiosqlite), p99 X ms``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiosqlite
from sqlalchemy import select

from engine import flow, games
from engine.game import AIPlayer, Game
from persistence.schema import moves, seats, snapshots, tables
from persistence.store import Store

GUILD = 1


class Driver:
    """Plays one game as the bot's host does, through the table loop (:mod:`engine.flow`):
    the random AI decides for the seat to act, then chance outcomes are drawn and the
    game's forced moves played, up to the next player's decision."""

    def __init__(self, name: str) -> None:
        self.game: Game[Any] = games.get(name)
        self.ai: AIPlayer[Any] = self.game.make_ai("random")

    def settle(self, state: Any, rng: random.Random) -> list[Any]:
        return [step.move for step in flow.settle(self.game, state, rng)]

    def step(self, state: Any, rng: random.Random) -> list[Any]:
        """The seat to act's move and what follows it: what one ``record_move`` stores."""
        move = self.ai.choose(state, rng)
        played = flow.play(self.game, state, move, rng, by=state.current_player)
        return [step.move for step in played]

    async def start(self, store: Store, channel: int, rng: random.Random) -> tuple[int, int, Any]:
        """A table of two players and two AIs, started: (id, version, state)."""
        game = self.game
        info = await store.create_table(GUILD, channel, channel * 10, f"p{channel}", game=game.name)
        info = await store.join_table(info.id, channel * 10 + 1, f"q{channel}")
        info = await store.add_ai(info.id, game.ai_levels[-1])
        info = await store.add_ai(info.id, game.ai_levels[-1])
        settings = game.settings()
        lobby = [s.name for s in info.seats]
        names = game.seat_order(lobby, settings)
        state = game.new_state(names, settings)
        opening = self.settle(state, rng)
        info = await store.start_table(info.id, [lobby.index(n) for n in names], state, opening)
        return info.id, info.version, state


async def raw_aiosqlite_rate(folder: Path, seconds: float) -> float:
    """Single-row INSERT + COMMIT per second with plain aiosqlite."""
    path = folder / "raw.db"
    async with aiosqlite.connect(path) as db:
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=FULL")
        await db.execute(
            "CREATE TABLE t (id INTEGER PRIMARY KEY, table_id INTEGER, seq INTEGER, move TEXT)"
        )
        await db.commit()
        count = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            await db.execute(
                "INSERT INTO t (table_id, seq, move) VALUES (?, ?, ?)",
                (count % 500, count, '["reroll", 3]'),
            )
            await db.commit()
            count += 1
        return count / (time.perf_counter() - start)


async def single_commit_cpu(store: Store, driver: Driver, rng: random.Random, count: int) -> float:
    """CPU seconds per ``record_move`` when each move is committed alone."""
    channel = 900_000
    table_id, version, state = await driver.start(store, channel, rng)
    cpu = 0.0
    for _ in range(count):
        if state.is_over:
            channel += 1
            table_id, version, state = await driver.start(store, channel, rng)
        step = driver.step(state, rng)
        t0 = time.process_time()
        version = (await store.record_move(table_id, version, step, state)).version
        cpu += time.process_time() - t0
    await store.end_table(table_id)  # out of the way of the load test
    return cpu / count


async def raw_single_commit_cpu(
    folder: Path, driver: Driver, rng: random.Random, count: int
) -> float:
    """CPU seconds per move for the same statements on plain aiosqlite: the INSERT of a
    move (its trigger keeps the table's version) and COMMIT, on the store's schema."""
    path = folder / "raw-moves.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        table_id, version, _ = await driver.start(store, 1, rng)
    finally:
        await store.close()
    stamp = "2026-01-01 00:00:00.000000"
    async with aiosqlite.connect(path) as db:
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "synchronous=FULL"):
            await db.execute(f"PRAGMA {pragma}")
        await db.execute("PRAGMA wal_autocheckpoint=0")
        cpu = 0.0
        for i in range(count):
            t0 = time.process_time()
            await db.executemany(
                "INSERT INTO moves (table_id, seq, move, interaction_id, created_at) "
                "VALUES (?, ?, ?, ?, ?)",
                [(table_id, version + 1 + i, '["reroll", 3]', None, stamp)],
            )
            await db.commit()
            cpu += time.process_time() - t0
    return cpu / count


async def play_tables(
    store: Store, driver: Driver, count: int, seconds: float, seed: int
) -> tuple[int, int, list[float]]:
    """``count`` tables moving as fast as their commits return; (calls, rows, latencies)."""
    rng = random.Random(seed)
    opened = [await driver.start(store, 100_000 + i, rng) for i in range(count)]
    gc.freeze()  # as after start-up: the long-lived tables stay out of the collector's way
    latencies: list[float] = []
    calls = rows = 0
    next_channel = 200_000
    stop_at = time.perf_counter() + seconds

    async def table_loop(table_id: int, version: int, state: Any) -> None:
        nonlocal calls, rows, next_channel
        while time.perf_counter() < stop_at:
            if state.is_over:
                next_channel += 1
                table_id, version, state = await driver.start(store, next_channel, rng)
                continue
            step = driver.step(state, rng)
            t0 = time.perf_counter()
            result = await store.record_move(table_id, version, step, state)
            latencies.append(time.perf_counter() - t0)
            version = result.version
            calls += 1
            rows += len(step)

    await asyncio.gather(*(table_loop(*t) for t in opened))
    return calls, rows, latencies


async def clone_active_tables(store: Store, wanted: int) -> None:
    """Copy the active games (rows, seats, logged tails) until ``wanted`` tables are active."""
    async with store.engine.begin() as conn:
        table_rows = [
            r._asdict()
            for r in await conn.execute(select(tables).where(tables.c.status == "playing"))
        ]
        seat_rows = [r._asdict() for r in await conn.execute(select(seats))]
        snapshot_rows = {r.table_id: r._asdict() for r in await conn.execute(select(snapshots))}
        tail_rows = [
            r._asdict()
            for r in await conn.execute(
                select(moves)
                .join(tables, tables.c.id == moves.c.table_id)
                .join(snapshots, snapshots.c.table_id == moves.c.table_id)
                .where(tables.c.status == "playing", moves.c.seq > snapshots.c.version)
            )
        ]
        active = len(table_rows)
        next_id = max(r["id"] for r in table_rows) + 1_000_000
        channel = 10_000_000
        new_tables: list[dict[str, Any]] = []
        new_seats: list[dict[str, Any]] = []
        new_snapshots: list[dict[str, Any]] = []
        new_moves: list[dict[str, Any]] = []
        seats_of: dict[int, list[dict[str, Any]]] = {}
        for s in seat_rows:
            seats_of.setdefault(s["table_id"], []).append(s)
        tails_of: dict[int, list[dict[str, Any]]] = {}
        for m in tail_rows:
            tails_of.setdefault(m["table_id"], []).append(m)
        i = 0
        while active + len(new_tables) < wanted:
            src = table_rows[i % len(table_rows)]
            i += 1
            next_id += 1
            channel += 1
            new_tables.append({**src, "id": next_id, "channel_id": channel})
            new_seats.extend({**s, "table_id": next_id} for s in seats_of[src["id"]])
            new_snapshots.append({**snapshot_rows[src["id"]], "table_id": next_id})
            new_moves.extend(
                {**m, "table_id": next_id, "interaction_id": None}
                for m in tails_of.get(src["id"], [])
            )
        for chunk in range(0, len(new_tables), 1000):
            await conn.execute(tables.insert(), new_tables[chunk : chunk + 1000])
        for chunk in range(0, len(new_snapshots), 1000):
            await conn.execute(snapshots.insert(), new_snapshots[chunk : chunk + 1000])
        for chunk in range(0, len(new_seats), 5000):
            await conn.execute(seats.insert(), new_seats[chunk : chunk + 5000])
        for chunk in range(0, len(new_moves), 5000):
            await conn.execute(moves.insert(), new_moves[chunk : chunk + 5000])


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000)[int(q * 10) - 1] if len(values) > 1 else values[0]


async def run(args: argparse.Namespace) -> None:
    # SIGTERM stops the bench as Ctrl-C does: the task is cancelled and its folder removed.
    this_task = asyncio.current_task()
    assert this_task is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, this_task.cancel)
    folder = Path(tempfile.mkdtemp(prefix="stackbot-bench-", dir=args.dir))
    try:
        raw = await raw_aiosqlite_rate(folder, args.raw_seconds)
        print(f"raw aiosqlite single-row insert+commit: {raw:,.0f}/s ({folder})")
        url = os.environ.get("DATABASE_URL") or f"sqlite+aiosqlite:///{folder / 'bench.db'}"
        driver = Driver(args.game)
        store = await Store.open(url)
        backend = store.engine.dialect.name
        try:
            single = await single_commit_cpu(
                store, driver, random.Random(args.seed), args.single_moves
            )
        except BaseException:
            await store.close()
            raise
        reference = ""
        if backend == "sqlite":
            raw_single = await raw_single_commit_cpu(
                folder, driver, random.Random(args.seed), args.single_moves
            )
            reference = f" (plain aiosqlite, the same statements: {raw_single * 1000:.2f} ms)"
        print(f"one move per commit: {single * 1000:.2f} ms CPU per record_move{reference}")
        try:
            calls, rows, latencies = await play_tables(
                store, driver, args.tables, args.seconds, args.seed
            )
        finally:
            batches = store.writer.batches
            await store.close()
        rate = calls / args.seconds
        p50 = percentile(latencies, 50) * 1000
        p99 = percentile(latencies, 99) * 1000
        print(
            f"{backend}: {args.tables} tables of {driver.game.title}, {calls:,} moves ({rows:,} log rows) "
            f"in {args.seconds:.0f} s, {batches:,} commits"
        )
        print(f"record_move latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        store = await Store.open(url)
        try:
            await clone_active_tables(store, args.load_tables)
        finally:
            await store.close()
        store = await Store.open(url)
        try:
            t0 = time.perf_counter()
            loaded = await store.load_active_tables()
            load_s = time.perf_counter() - t0
        finally:
            await store.close()
        print(
            f"loaded {len(loaded):,} active tables (snapshot + logged tail each) in {load_s:.2f} s"
        )
        if backend != "sqlite":
            await _drop_all(url)
        print(
            f"{rate:,.0f} durable moves/s ({rate / raw * 100:.0f}% of raw aiosqlite), "
            f"p99 {p99:.1f} ms"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _drop_all(url: str) -> None:
    """Leave a server database as it was: drop what the bench created."""
    from sqlalchemy import text

    from persistence.database import make_engine
    from persistence.schema import metadata

    engine = make_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(metadata.drop_all)
        await conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
        await conn.execute(text("DROP FUNCTION IF EXISTS stackbot_moves_version()"))
    await engine.dispose()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m persistence.bench",
        description="durable moves per second with concurrent tables",
    )
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--raw-seconds", type=float, default=3.0)
    parser.add_argument("--load-tables", type=int, default=10_000)
    parser.add_argument("--single-moves", type=int, default=2000, help="moves committed alone")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=games.names(), default=games.DEFAULT)
    parser.add_argument(
        "--dir",
        default=None,
        help="where the bench's folder of SQLite files goes, removed at the end "
        "(default: the system's temporary directory; give a real disk, not a tmpfs)",
    )
    try:
        asyncio.run(run(parser.parse_args(argv)))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("persistence.bench: stopped (its files are removed)", file=sys.stderr)
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()

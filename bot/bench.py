"""``python -m bot.bench``: 1,000 tables through the bot's production path.

Each move goes through :class:`~bot.tables.Tables` as a Discord interaction would: the
service handler (engine, group commit to a SQLite file), then what the commit owes the
channel — the table message edited (coalesced, with its picture drawn off the event loop),
the outbox delivered, the table's clock re-armed with the settings read. Turn timers are
on (the default 120 s), so every turn change re-arms a real timer. Games that end are
followed by new tables (lobby, join, start: all through the group-commit writer).

What it skips, plainly: Discord itself. Messages go to a stand-in channel that answers at
once (no network latency, no rate limit), and no interaction response is sent. Latency
runs from a move's arrival to its handler's return (queueing included); the channel work
it causes runs in the background and competes for the same CPU, as in production.

Figures, over 1,000 tables, open loop (moves arrive at random, whatever happened before):
(a) 200 offered moves/s (a move every 5 s per table): achieved rate and p99;
(b) the highest offered rate tried whose p99 stays within 250 ms.
Each with pictures on, then off. The last line is (a) with timers and pictures on:
``N moves/s, p99 X ms, timers on, pictures on``.

``--pictures`` instead measures the pictures alone (:mod:`pictures.bench`): CPU ms per table
picture of each game, light and heavy, per chart, and a table picture's wait in the painter
(alone, while charts are drawn, and unchanged: from the cache).

``--processes N`` instead runs N bot processes over PostgreSQL and Redis, 4,000 tables, and
kills one under load (:mod:`bot.cluster_bench`).

``--charts`` measures the charts alone: CPU ms per chart (p50, p99) for a game of 2 and 8
players over 10 and 40 rounds and a player's stats chart, drawn in this process after a
warm-up, and the picture worker's cold start (a new worker's first chart, matplotlib's
import and fonts included, as the bot waits for it). Its last line:
``chart 8x40: p50 X ms, p99 Y ms``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.bench_kit import BenchBot, arrive
from bot.tables import Tables
from engine.stack.ai import RandomPlayer
from host.refusals import Refusal
from host.service import Player
from persistence.store import Store
from pictures.painter import Painter

GUILD = 1
TARGET_P99_MS = 250.0


class Bench:
    def __init__(self, tables: Tables, seed: int) -> None:
        self.tables = tables
        self.service = tables.service
        self.rng = random.Random(seed)
        self.player = RandomPlayer()
        self.latencies: list[float] = []
        self.moves = 0
        self.refused = 0
        self.games = 0

    async def open_table(self, channel: int) -> None:
        alice, bob = Player(channel * 2, f"a{channel}"), Player(channel * 2 + 1, f"b{channel}")
        try:
            if channel not in self.service.by_channel:
                self.tables.refresh(await self.service.new_table(GUILD, channel, alice, {}))
            live = self.service.by_channel[channel]
            if live.info.seat_of(bob.id) is None:
                self.tables.refresh(await self.service.join(channel, bob))
            self.tables.committed(await self.service.start(channel, alice))
        except Refusal:
            self.refused += 1

    async def one_move(self, channel: int, arrived: float) -> None:
        live = self.service.by_channel.get(channel)
        if live is None or live.state is None:  # the game ended: the next one starts
            self.games += 1
            await self.open_table(channel)
            return
        state = live.state
        seat = state.current_player
        if seat is None:
            return
        user = live.user_at(seat)
        if user is None:
            return
        move = self.player.choose(state, self.rng)  # type: ignore[arg-type]
        try:
            outcome = await self.service.move(
                channel,
                Player(user, state.players[seat]),
                move=move,
                interaction_id=f"{channel}-{self.moves}-{self.refused}",
            )
        except Refusal:
            self.refused += 1
            return
        self.tables.committed(outcome)
        self.moves += 1
        self.latencies.append(time.perf_counter() - arrived)

    async def open_loop(self, channels: list[int], seconds: float, rate: float) -> float:
        """Moves arrive at ``rate`` per second in all (exponential gaps per table)."""
        mean_gap = len(channels) / rate
        stop = time.perf_counter() + seconds

        async def table(channel: int) -> None:
            arrivals: asyncio.Queue[float] = asyncio.Queue()

            async def worker() -> None:
                while True:
                    at = await arrivals.get()
                    if at < 0:
                        return
                    await self.one_move(channel, at)

            task = asyncio.create_task(worker())
            await arrive(arrivals, self.rng, mean_gap, stop)
            await task

        start = time.perf_counter()
        await asyncio.gather(*(table(c) for c in channels))
        return time.perf_counter() - start


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] * 1000 if len(values) > 1 else 0.0


async def measure(
    args: argparse.Namespace, folder: Path, rate: float, *, pictures: bool
) -> tuple[float, float, int]:
    """One open-loop run on a fresh database: achieved moves/s, p99 ms, calls per move."""
    db = folder / f"bench-{rate:.0f}-{int(pictures)}.db"
    store = await Store.open(f"sqlite+aiosqlite:///{db}")
    bot = BenchBot()
    tables = Tables(bot, store, seed=args.seed, painter=Painter("process"))  # type: ignore[arg-type]
    tables.draw_pictures = pictures
    bench = Bench(tables, args.seed)
    channels = list(range(10_000, 10_000 + args.tables))
    for i in range(0, len(channels), 100):
        await asyncio.gather(*(bench.open_table(c) for c in channels[i : i + 100]))
    await asyncio.sleep(1.5)  # let the opening edits settle
    gc.collect()
    gc.freeze()  # the tables are long-lived, as after the bot's start-up
    await bench.open_loop(channels, 2.0, rate)  # warm-up: caches, compiled statements
    bench.latencies.clear()
    bench.moves = bench.games = bench.refused = 0
    calls_before = sum(c.calls for c in bot.channels.values())
    elapsed = await bench.open_loop(channels, args.seconds, rate)
    achieved = bench.moves / elapsed
    p99 = pct(bench.latencies, 99)
    calls = sum(c.calls for c in bot.channels.values()) - calls_before
    per_move = calls / max(bench.moves, 1)
    print(
        f"  offered {rate:,.0f}/s: achieved {achieved:,.0f} moves/s, "
        f"p50 {pct(bench.latencies, 50):.1f} ms, p99 {p99:.1f} ms "
        f"({bench.moves:,} moves, {bench.games} games finished, {bench.refused} refused; "
        f"{per_move:.2f} channel calls per move)",
        flush=True,
    )
    await tables.drain()  # the steps under way end; the rest is cancelled
    tables.service.forget_all()
    await store.close()
    gc.unfreeze()
    return achieved, p99, calls


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="stackbot-botbench-", dir=args.dir))
    try:
        results: dict[bool, tuple[float, float, float]] = {}
        for pictures in (False, True):
            label = "pictures on" if pictures else "pictures off"
            print(f"{args.tables} tables, timers on, {label}:", flush=True)
            busy_rate, busy_p99, _ = await measure(args, folder, args.busy, pictures=pictures)
            best = 0.0
            for rate in args.rates:
                achieved, p99, _ = await measure(args, folder, rate, pictures=pictures)
                if p99 > TARGET_P99_MS or achieved < 0.95 * rate:
                    break
                best = rate
            print(f"  highest offered rate with p99 <= {TARGET_P99_MS:.0f} ms: {best:,.0f}/s")
            results[pictures] = (busy_rate, busy_p99, best)
        off, on = results[False], results[True]
        print(
            f"pictures off: {off[0]:,.0f} moves/s, p99 {off[1]:.1f} ms; sustained {off[2]:,.0f}/s"
        )
        print(f"pictures on: sustained {on[2]:,.0f} moves/s with p99 <= {TARGET_P99_MS:.0f} ms")
        print(f"{on[0]:,.0f} moves/s, p99 {on[1]:.1f} ms, timers on, pictures on")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def bench_pictures(samples: int) -> None:
    from pictures import bench

    bench.main(["--samples", str(samples)])


def bench_charts(samples: int) -> None:
    from pictures.charts import draw_chart, sample_game, sample_stats

    cold = asyncio.run(_cold_chart())
    print(f"worker cold start: first chart in {cold:.0f} ms (matplotlib and fonts loaded)")
    cases: list[tuple[str, Any]] = [
        (f"chart {seats}x{rounds}", [sample_game(seats, rounds, seed=i) for i in range(8)])
        for seats, rounds in ((2, 10), (2, 40), (8, 10), (8, 40))
    ]
    cases.insert(0, ("stats chart", [sample_stats(10, seed=i) for i in range(8)]))
    for chart in (*cases[0][1], *cases[-1][1]):  # warm-up: imports, fonts, caches
        draw_chart(chart)
    # as the worker draws them: the collector paused while drawing, run after the answer
    gc.collect()
    gc.freeze()
    collects: list[float] = []
    last: list[float] = []
    for label, charts in cases:
        times = []
        for i in range(samples):
            gc.disable()
            start = time.process_time()
            draw_chart(charts[i % len(charts)])
            times.append(time.process_time() - start)
            gc.enable()
            start = time.process_time()
            gc.collect()
            collects.append(time.process_time() - start)
        print(f"{label}: p50 {pct(times, 50):.1f} ms, p99 {pct(times, 99):.1f} ms", flush=True)
        last = times
    gc.unfreeze()
    print(
        f"(after each answer is sent: garbage collection p50 {pct(collects, 50):.1f} ms, "
        f"p99 {pct(collects, 99):.1f} ms)"
    )
    print(f"{cases[-1][0]}: p50 {pct(last, 50):.1f} ms, p99 {pct(last, 99):.1f} ms")


async def _cold_chart() -> float:
    """Wall-clock ms from a new worker's start to its first chart (8 players, 40 rounds)."""
    from pictures.charts import sample_game

    painter = Painter("process")
    try:
        start = time.perf_counter()
        await painter.draw(sample_game(8, 40))
        return (time.perf_counter() - start) * 1000
    finally:
        await painter.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bot.bench", description="the bot's production path under load"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=None,
        help="N bot processes sharing PostgreSQL and Redis (bot.cluster_bench), one killed",
    )
    parser.add_argument("--tables", type=int, default=None, help="1,000 (4,000 with --processes)")
    parser.add_argument("--seconds", type=float, default=10.0, help="each open-loop run")
    parser.add_argument("--busy", type=float, default=200.0, help="(a): offered moves/s")
    parser.add_argument(
        "--rates",
        type=lambda s: [float(x) for x in s.split(",")],
        default=None,
        help="(b): offered rates tried, in order, until p99 exceeds 250 ms "
        "(default 500,1000,1250,1500,2000)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="where the SQLite files go (default: temp)")
    parser.add_argument("--pictures", action="store_true", help="time the pictures alone")
    parser.add_argument("--samples", type=int, default=200, help="pictures per case")
    parser.add_argument("--charts", action="store_true", help="time the charts alone")
    from bot import cluster_bench

    cluster_bench.add_driver_options(parser)
    args = parser.parse_args(argv)
    if args.processes is not None:
        if args.processes < 1:
            parser.error("--processes must be 1 or more")
        args.tables = args.tables or 4000
        asyncio.run(cluster_bench.drive(args))
        return
    args.tables = args.tables or 1000
    args.rates = args.rates or [500.0, 1000.0, 1250.0, 1500.0, 2000.0]
    if args.pictures:
        bench_pictures(args.samples)
        return
    if args.charts:
        bench_charts(min(args.samples, 100))
        return
    asyncio.run(run(args))


if __name__ == "__main__":
    main()

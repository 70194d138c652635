"""``python -m bot.bench``: 1,000 concurrent tables through the bot's own handlers.

No network: each table is driven through :class:`~bot.service.TableService` — the handlers
the Discord layer calls — with real database commits (a SQLite file), and the table's
message text rendered after every move, as the bot does.

1. Open loop: every table asks for a move every 0.4 s on average (exponential gaps, about
   2,500 moves/s offered), whatever happened to the last one; latency runs from the
   request to the rendered reply, queueing included.
2. Closed loop: every table moves again as soon as its last move returned (the maximum).

Prints moves/s, p50/p99 latency and peak memory per table; the last line is the open
loop's ``N moves/s, p99 X ms, M KiB/table``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bot.render import table_text
from bot.service import LiveTable, Player, Refusal, TableService
from engine.stack.ai import RandomPlayer
from persistence.store import Store

GUILD = 1


class Bench:
    def __init__(self, service: TableService, seed: int) -> None:
        self.service = service
        self.rng = random.Random(seed)
        self.player = RandomPlayer()
        self.latencies: list[float] = []
        self.moves = 0
        self.refused = 0
        self.games = 0

    async def open_table(self, channel: int) -> None:
        alice, bob = Player(channel * 2, f"a{channel}"), Player(channel * 2 + 1, f"b{channel}")
        await self.service.new_table(GUILD, channel, alice, {})
        await self.service.join(channel, bob)
        await self.service.start(channel, alice)

    async def one_move(self, channel: int, started: float) -> None:
        live = self.service.by_channel.get(channel)
        if live is None or live.state is None:  # the game ended: the next one starts
            self.games += 1
            await self.open_table(channel)
            return
        state = live.state
        seat = state.current
        assert seat is not None
        user = live.user_at(seat)
        assert user is not None
        move = self.player.choose(state, self.rng)
        try:
            outcome = await self.service.move(
                channel,
                Player(user, state.name(seat)),
                move=move,
                interaction_id=f"{channel}-{self.moves}",
            )
        except Refusal:
            self.refused += 1
            return
        render(outcome.table)
        self.moves += 1
        self.latencies.append(time.perf_counter() - started)

    async def open_loop(self, channels: list[int], seconds: float, mean_gap: float) -> float:
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
            due = time.perf_counter() + self.rng.expovariate(1 / mean_gap)
            while due < stop:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                arrivals.put_nowait(due)
                due += self.rng.expovariate(1 / mean_gap)
            arrivals.put_nowait(-1)
            await task

        start = time.perf_counter()
        await asyncio.gather(*(table(c) for c in channels))
        return time.perf_counter() - start

    async def closed_loop(self, channels: list[int], seconds: float) -> float:
        stop = time.perf_counter() + seconds

        async def table(channel: int) -> None:
            while time.perf_counter() < stop:
                await self.one_move(channel, time.perf_counter())

        start = time.perf_counter()
        await asyncio.gather(*(table(c) for c in channels))
        return time.perf_counter() - start


def render(live: LiveTable) -> str:
    return table_text(live) if live.state is not None else ""


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] * 1000 if len(values) > 1 else 0.0


def peak_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="stackbot-botbench-", dir=args.dir))
    try:
        store = await Store.open(f"sqlite+aiosqlite:///{folder / 'bot.db'}")
        service = TableService(store, seed=args.seed)
        bench = Bench(service, args.seed)
        gc.collect()
        baseline = peak_kib()
        channels = list(range(10_000, 10_000 + args.tables))
        for i in range(0, len(channels), 100):
            await asyncio.gather(*(bench.open_table(c) for c in channels[i : i + 100]))
        gc.freeze()  # the tables are long-lived, as after the bot's start-up
        print(f"{args.tables} tables open ({folder})")
        elapsed = await bench.open_loop(channels, args.seconds, args.gap)
        open_rate = bench.moves / elapsed
        open_p50, open_p99 = pct(bench.latencies, 50), pct(bench.latencies, 99)
        per_table = (peak_kib() - baseline) / args.tables
        offered = args.tables / args.gap
        print(
            f"open loop: offered {offered:,.0f} moves/s, achieved {open_rate:,.0f} moves/s "
            f"({bench.moves:,} moves, {bench.games} games finished, {bench.refused} refused); "
            f"latency p50 {open_p50:.1f} ms, p99 {open_p99:.1f} ms"
        )
        print(f"peak memory: {per_table:.0f} KiB per table")
        bench.latencies.clear()
        bench.moves = 0
        elapsed = await bench.closed_loop(channels, args.closed_seconds)
        print(
            f"closed loop (maximum): {bench.moves / elapsed:,.0f} moves/s, "
            f"latency p50 {pct(bench.latencies, 50):.1f} ms, p99 {pct(bench.latencies, 99):.1f} ms"
        )
        await store.close()
        print(f"{open_rate:,.0f} moves/s, p99 {open_p99:.1f} ms, {per_table:.0f} KiB/table")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="the bot's handlers under load")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=15.0, help="open-loop run")
    parser.add_argument("--closed-seconds", type=float, default=5.0, help="closed-loop run")
    parser.add_argument(
        "--gap", type=float, default=0.4, help="mean seconds between a table's moves"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=".", help="where the SQLite file goes (a real disk)")
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()

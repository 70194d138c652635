"""Nothing grows without bound (issue 7, item 11): 2,000 games played back to back leave
no per-table entry behind in the bot or the writer, and memory stays flat."""

from __future__ import annotations

import asyncio
import gc
import time
from pathlib import Path

from bot.bench_kit import BenchBot
from bot.tables import Tables
from host.service import Player
from persistence import Store

GAMES = 2000
FIRST = 200  # objects are counted after this many games, and again at the end
CHANNELS = 128


async def play_games(folder: Path) -> tuple[int, int, Tables, Store]:
    store = await Store.open(f"sqlite+aiosqlite:///{folder / 'memory.db'}")
    tables = Tables(BenchBot(), store, seed=11)  # type: ignore[arg-type]
    tables.draw_pictures = False
    service = tables.service
    alice = Player(1, "alice")
    counts: dict[int, int] = {}
    started = time.perf_counter()
    for game in range(1, GAMES + 1):
        # games in 128 channels by turns: each channel's messages stay within its budget
        channel = 1000 + game % CHANNELS
        options = {"target_score": 1, "dice_per_player": 1}
        await service.new_table(1, channel, alice, options)
        await service.add_ai(channel, alice)
        tables.committed(await service.start(channel, alice))
        while (live := service.by_channel.get(channel)) is not None:
            move = live.state.legal_moves()[0]
            tables.committed(await service.move(channel, alice, move=move))
        if game in (FIRST, GAMES):
            while tables.tasks.busy():
                await asyncio.sleep(0.01)
            gc.collect()
            counts[game] = len(gc.get_objects())
    print(f"{GAMES} games in {time.perf_counter() - started:.0f} s")
    return counts[FIRST], counts[GAMES], tables, store


def test_memory_stays_flat_over_2000_games_and_closed_tables_leave_nothing(
    tmp_path: Path,
) -> None:
    early, late, tables, store = asyncio.run(play_games(tmp_path))
    assert not tables.service.by_id and not tables.service.by_channel
    assert not tables.messages
    assert not tables.outbox._delivering
    assert len(store.writer.cursors) == 0
    print(f"objects after {FIRST} games: {early:,}; after {GAMES}: {late:,}")
    # flat: the objects alive after 2,000 games are those alive after 200 (a few caches
    # warm up), not ~20 more per game as when every table left an entry behind
    assert late - early < 2_000, (early, late)

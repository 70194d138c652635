"""The process the crash test kills: plays random moves on several tables of a SQLite file.

    python -m tests.persistence.crash_child URL TABLES RUN

Prints ``W table expected new`` before each record_move and ``C table version`` when it
returned (the move is durable), ``READY`` once the tables are loaded and checked.
"""

from __future__ import annotations

import asyncio
import random
import sys

from engine.game import Decision
from engine.stack.rules import HouseRules
from persistence import Store
from tests.persistence.helpers import GUILD, next_step


async def main(url: str, count: int, run: int) -> None:
    store = await Store.open(url)
    live = {}
    for table in await store.load_active_tables():
        if table.state is None:
            await store.end_table(table.info.id)
            continue
        rebuilt = await store.replay_log(table.info.id)
        assert rebuilt.to_dict(full_history=False) == table.state.to_dict(full_history=False)
        live[table.info.id] = (table.info.version, table.state)
    channel = run * 1000
    while len(live) < count:
        channel += 1
        info = await store.create_table(GUILD, channel, 1, "alice")
        info = await store.join_table(info.id, 2, "bob")
        info = await store.add_ai(info.id)
        from engine.stack.state import StackState

        names = tuple(s.name for s in info.seats)
        state = StackState(names, HouseRules(target_score=10_000).for_players(names))
        opening = state.resolve_chance(random.Random(channel))
        info = await store.start_table(info.id, range(3), state, opening)
        live[info.id] = (info.version, state)
        print(f"C {info.id} {info.version}", flush=True)
    print("READY", flush=True)
    rng = random.Random(run)

    async def play(table_id: int, version: int, state: object) -> None:
        from engine.stack.state import StackState

        assert isinstance(state, StackState)
        while state.decision is not Decision.OVER:
            step = next_step(state, rng)
            print(f"W {table_id} {version} {version + len(step)}", flush=True)
            result = await store.record_move(table_id, version, step, state)
            version = result.version
            print(f"C {table_id} {version}", flush=True)

    await asyncio.gather(*(play(t, v, s) for t, (v, s) in live.items()))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))

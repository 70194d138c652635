"""The timer heap of every table's clock (host/clocks.py): one scheduler for all tables;
the timers that ran out while the process was down fire as one catch-up, in the order
they ran out, a few at a time; a replaced clock never fires."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

from host.clocks import Clocks
from host.tasks import Tasks

NOW = datetime(2026, 1, 1, tzinfo=UTC)


async def test_timers_that_ran_out_while_down_fire_as_one_ordered_catch_up() -> None:
    """Armed while held (a restart arms every table first), 40 clocks whose events are
    all past fire in the order they fell due, never more than ``parallel`` at once."""
    tasks = Tasks()
    clocks = Clocks(tasks, lambda: NOW, parallel=3)
    fired: list[int] = []
    running = 0
    most = 0

    def event(n: int):  # type: ignore[no-untyped-def]
        async def fire() -> None:
            nonlocal running, most
            running += 1
            most = max(most, running)
            fired.append(n)
            await asyncio.sleep(0.001)
            running -= 1

        return fire

    order = list(range(40))
    random.Random(5).shuffle(order)
    clocks.hold()
    for n in order:  # armed in no particular order, each ran out n seconds after the first
        clocks.at(clocks.timer(), NOW - timedelta(seconds=100 - n), event(n))
    await asyncio.sleep(0.01)
    assert fired == [], "nothing fires while the clocks are held"
    clocks.release()
    while len(fired) < 40:
        await asyncio.sleep(0.005)
    assert fired == sorted(fired), "fired in the order they ran out"
    assert most <= 3
    await clocks.close()


async def test_a_replaced_clock_never_fires_and_one_scheduler_serves_every_table() -> None:
    tasks = Tasks()
    clocks = Clocks(tasks, lambda: datetime.now(UTC))
    fired: list[str] = []

    def event(name: str):  # type: ignore[no-untyped-def]
        async def fire() -> None:
            fired.append(name)

        return fire

    soon = datetime.now(UTC) + timedelta(seconds=0.05)
    old = clocks.timer()
    clocks.at(old, soon, event("old"))
    old.cancel()  # the table changed: its clock replaced
    new = clocks.timer()
    clocks.at(new, soon + timedelta(seconds=0.01), event("new"))
    others = [clocks.timer() for _ in range(100)]
    for n, timer in enumerate(others):
        clocks.at(timer, soon + timedelta(seconds=60 + n), event(f"later {n}"))
    schedulers = [t for t in asyncio.all_tasks() if t.get_name() == "clocks"]
    assert len(schedulers) == 1, "one scheduler task, not one per table"
    await asyncio.sleep(0.2)
    assert fired == ["new"]
    assert clocks.armed == 101 and old.done() and not new.done()
    await clocks.close()

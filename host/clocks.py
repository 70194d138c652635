"""Every table's clock on one timer heap: one scheduler task sleeps until the earliest
event of any table (a ping, a half-time warning, a turn running out, the idle limit) and
starts its handler, instead of one sleeping task per table.

Events that fell due together — after a restart, the turn timers that ran out while the
process was down — are started one after another in the order they fell due, at most
``parallel`` at a time: one ordered catch-up, not a burst.

A table's clock is a :class:`Timer`; arming a table again replaces it (the old one is
cancelled, and its events, left on the heap, are skipped when they come up).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any

from host.tasks import Tasks

CATCH_UP_PARALLEL = 4  # clock events handled at once (the rest wait their turn, in order)

Fire = Callable[[], Coroutine[Any, Any, None]]


class Timer:
    """One table's armed clock: done once cancelled (replaced, the table closed) or
    finished (its last event handled)."""

    __slots__ = ("_clocks", "_done", "task")

    def __init__(self, clocks: Clocks) -> None:
        self._clocks = clocks
        self._done = False
        self.task: asyncio.Task[Any] | None = None  # the step it runs now, if any

    def cancel(self) -> None:
        """Stop it: its events are skipped, and the step it runs is cancelled (unless that
        step is the caller: an event's handler that re-arms its table)."""
        if self._done:
            return
        self._done = True
        task = self.task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        self._clocks.forget()

    def finish(self) -> None:
        """Its work is done (no event left)."""
        if not self._done:
            self._done = True
            self._clocks.forget()

    def done(self) -> bool:
        return self._done

    def run(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Run a step of this clock now (its plan, an AI turn) as a background task."""
        self.task = self._clocks.tasks.spawn(coro, name)
        return self.task


class Clocks:
    """The timer heap of every table's clock, and its one scheduler task."""

    def __init__(
        self, tasks: Tasks, now: Callable[[], datetime], *, parallel: int = CATCH_UP_PARALLEL
    ) -> None:
        self.tasks = tasks
        self.now = now
        self._heap: list[tuple[datetime, int, Timer, Fire, str]] = []
        self._order = itertools.count()
        self._dead = 0  # heap entries of cancelled timers, dropped when they pile up
        self._runner: asyncio.Task[None] | None = None
        self._sleeping = False  # the scheduler sleeps until the heap's first event
        self._slots = asyncio.Semaphore(parallel)
        self.armed = 0  # timers not done
        self._held = 0  # while above 0, nothing fires (start-up arms every table first)
        self._closed = False

    def timer(self) -> Timer:
        """A new clock for a table (the caller cancels the one it replaces)."""
        self.armed += 1
        return Timer(self)

    def forget(self) -> None:
        self.armed -= 1
        self._dead += 1
        if self._dead > 16 and self._dead * 2 > len(self._heap):
            self._heap = [e for e in self._heap if not e[2].done()]
            heapq.heapify(self._heap)
            self._dead = 0

    def at(self, timer: Timer, when: datetime, fire: Fire, name: str = "clock event") -> None:
        """Start ``fire()`` at ``when`` (at once if past), unless ``timer`` is done by then."""
        if timer.done() or self._closed:
            return
        entry = (when, next(self._order), timer, fire, name)
        heapq.heappush(self._heap, entry)
        if self._held:
            return  # started when released
        runner = self._runner
        if runner is not None and not runner.done():
            if not (self._sleeping and self._heap[0] is entry):
                return  # it will come to it
            runner.cancel()  # it sleeps for a later event: it starts again, for this one
        self._start()

    def _start(self) -> None:
        self._sleeping = False
        self._runner = asyncio.get_running_loop().create_task(self._run(), name="clocks")

    def hold(self) -> None:
        """Fire nothing until :meth:`release`: the clocks of many tables are being armed,
        and those already due then fire in the order they fell due."""
        self._held += 1

    def release(self) -> None:
        self._held -= 1
        if self._held == 0 and self._heap and not self._closed:
            runner = self._runner
            if runner is not None and not runner.done():
                runner.cancel()
            self._start()

    def due(self) -> int:
        """How many events are due now (a catch-up under way)."""
        now = self.now()
        return sum(1 for when, _, timer, _, _ in self._heap if when <= now and not timer.done())

    async def _run(self) -> None:
        while self._heap:
            when, _, timer, fire, name = self._heap[0]
            if timer.done():
                heapq.heappop(self._heap)
                self._dead = max(0, self._dead - 1)
                continue
            wait = (when - self.now()).total_seconds()
            if wait > 0:
                self._sleeping = True
                await asyncio.sleep(wait)
                self._sleeping = False
                continue
            await self._slots.acquire()  # in order of when they fell due
            # the heap may have changed while waiting for a slot
            if not self._heap or self._heap[0][2] is not timer:
                self._slots.release()
                continue
            heapq.heappop(self._heap)
            if timer.done():
                self._slots.release()
                continue
            task = timer.run(fire(), name)
            task.add_done_callback(lambda _: self._slots.release())

    async def close(self) -> None:
        """Stop the scheduler (the process is stopping)."""
        self._closed = True
        runner, self._runner = self._runner, None
        if runner is not None:
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)
